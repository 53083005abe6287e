//! Delivering one notification: screen, POST, retry.

use std::error::Error as _;
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::rt::convert::{self, ConvertError};
use a2a_types::rt::telemetry::{self, TraceContext};
use a2a_types::v0_3;
use a2a_types::v1::{StreamResponse, Task, TaskPushNotificationConfig};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE};

use super::outcome::{Delivered, PushError, PushFailure};
use super::screen::{PushResolver, PushUrlError, PushUrlPolicy, SystemResolver};

/// The header carrying the config's `token`, as the official SDK (a2a-sdk) sends it.
pub const NOTIFICATION_TOKEN_HEADER: &str = "X-A2A-Notification-Token";

/// The header a [numbered](PushSender::deliver_numbered) notification carries its event's
/// sequence number in (decimal): the same for every delivery of one event.
pub const EVENT_ID_HEADER: &str = "X-A2A-Event-Id";

/// POSTs task updates to push-notification webhooks, screening every URL first.
///
/// One `deliver` is: screen the URL ([`PushUrlPolicy::screen`]), then up to
/// [`attempts`](PushSenderBuilder::attempts) POSTs of the event as a `StreamResponse` JSON body,
/// each bounded by [`timeout`](PushSenderBuilder::timeout), with a growing pause between them
/// ([`backoff`](PushSenderBuilder::backoff)). Headers, as the official SDK (a2a-sdk 1.3.0) sends
/// them: `Content-Type: application/json`; `Authorization: <scheme> <credentials>` when the
/// config's `authentication` has both a scheme and credentials (with only one of them, no
/// `Authorization` is sent and a warning is logged); `X-A2A-Notification-Token: <token>` when
/// the config has a non-empty token. Both values are marked sensitive (left out of `Debug`
/// output) and appear in no error.
///
/// A 2xx answer is success. 408, 429 and 5xx answers, timeouts and connection errors are retried;
/// every other answer (a 3xx included: redirects are not followed, as a redirect could lead
/// anywhere) and a refused URL are final. Delivery is at least once: an answer lost after the
/// webhook acted on the request means a second POST, so a receiver should be idempotent (a
/// status update carries the task id and the state, a task its whole state).
///
/// # DNS rebinding
///
/// A name checked at registration can point elsewhere by delivery time. The sender's HTTP client
/// resolves names only through a screening resolver: each new connection resolves the host with
/// the [`PushResolver`] (the system resolver by default), refuses the connection when any
/// address is refused, and hands exactly the checked addresses to the connector, so the address
/// connected to is an address that was checked, in the same resolution (reqwest's
/// `dns_resolver`; IP literals, which are not resolved, are checked by `screen` before each
/// delivery). A pooled connection is reused only for the host it was opened to, after its own
/// check. Proxies are off (`no_proxy`: a proxy would resolve the name itself), and so are
/// redirects.
///
/// ```no_run
/// use a2a_agent::push::{PushSender, PushUrlPolicy};
/// use a2a_types::v1::{AuthenticationInfo, StreamResponse, TaskPushNotificationConfig};
///
/// # async fn example(event: StreamResponse) -> Result<(), Box<dyn std::error::Error>> {
/// let sender = PushSender::new(PushUrlPolicy::default())?;
/// let config = TaskPushNotificationConfig {
///     task_id: Some("t-1".into()),
///     url: "https://hooks.example.com/a2a".into(),
///     token: Some("opaque-token".into()),
///     authentication: Some(AuthenticationInfo {
///         scheme: "Bearer".into(),
///         credentials: Some("secret".into()),
///     }),
///     ..Default::default()
/// };
/// let delivered = sender.deliver(&config, &event).await?;
/// println!("HTTP {} after {} attempt(s)", delivered.status, delivered.attempts);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct PushSender {
    client: reqwest::Client,
    policy: PushUrlPolicy,
    timeout: Duration,
    attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
}

impl fmt::Debug for PushSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushSender")
            .field("policy", &self.policy)
            .field("timeout", &self.timeout)
            .field("attempts", &self.attempts)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .finish_non_exhaustive()
    }
}

/// Builds a [`PushSender`]; from [`PushSender::builder`].
pub struct PushSenderBuilder {
    policy: PushUrlPolicy,
    timeout: Duration,
    attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    resolver: Arc<dyn PushResolver>,
}

impl fmt::Debug for PushSenderBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushSenderBuilder")
            .field("policy", &self.policy)
            .field("timeout", &self.timeout)
            .field("attempts", &self.attempts)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .finish_non_exhaustive()
    }
}

/// The most attempts a sender makes for one notification, whatever it is built with.
pub const MAX_ATTEMPTS: u32 = 10;

impl PushSenderBuilder {
    /// The time one attempt may take, from resolving the host to the answer's status line
    /// (default 10 s). The body of the answer is not read.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many POSTs one notification gets at most, the first included (default 3; at least 1,
    /// at most [`MAX_ATTEMPTS`]).
    pub fn attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts.clamp(1, MAX_ATTEMPTS);
        self
    }

    /// The pause before the second attempt, and the longest pause (defaults 250 ms and 4 s). Each
    /// further pause is four times the one before, up to `max`: 250 ms, 1 s, 4 s, 4 s, ...
    pub fn backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max.max(initial);
        self
    }

    /// The resolver used for host names, for screening and connecting (default
    /// [`SystemResolver`]).
    pub fn resolver(mut self, resolver: impl PushResolver) -> Self {
        self.resolver = Arc::new(resolver);
        self
    }

    /// Builds the sender and its HTTP client (rustls; HTTP/1.1 and HTTP/2).
    pub fn build(self) -> Result<PushSender, BuildError> {
        let client = reqwest::Client::builder()
            .dns_resolver(ScreeningResolver {
                policy: self.policy,
                resolver: self.resolver,
            })
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            // Our attempts are the only retries, so that `Delivered::attempts` counts POSTs.
            .retry(reqwest::retry::never())
            .user_agent(concat!("a2a-agent/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| BuildError(error_chain(&e)))?;
        Ok(PushSender {
            client,
            policy: self.policy,
            timeout: self.timeout,
            attempts: self.attempts,
            initial_backoff: self.initial_backoff,
            max_backoff: self.max_backoff,
        })
    }
}

/// The HTTP client could not be built (its TLS backend failed to start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the push sender's HTTP client could not be built: {}",
            self.0
        )
    }
}

impl std::error::Error for BuildError {}

impl PushSender {
    /// A sender with the defaults: 10 s per attempt, 3 attempts, pauses of 250 ms and 1 s.
    pub fn new(policy: PushUrlPolicy) -> Result<Self, BuildError> {
        Self::builder(policy).build()
    }

    /// A builder starting from the defaults.
    pub fn builder(policy: PushUrlPolicy) -> PushSenderBuilder {
        PushSenderBuilder {
            policy,
            timeout: Duration::from_secs(10),
            attempts: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(4),
            resolver: Arc::new(SystemResolver),
        }
    }

    /// The policy every URL is screened with.
    pub fn policy(&self) -> &PushUrlPolicy {
        &self.policy
    }

    /// The longest one [`deliver`](Self::deliver) can take: every attempt's timeout and every
    /// pause (31.25 s with the defaults).
    pub fn max_delivery_time(&self) -> Duration {
        (2..=self.attempts).fold(self.timeout * self.attempts, |total, attempt| {
            total + self.backoff_before(attempt)
        })
    }

    fn backoff_before(&self, attempt: u32) -> Duration {
        let mut pause = self.initial_backoff;
        for _ in 2..attempt {
            pause = pause.saturating_mul(4);
            if pause >= self.max_backoff {
                return self.max_backoff;
            }
        }
        pause.min(self.max_backoff)
    }

    /// Delivers one event to one webhook: screens the URL, POSTs, retries what may succeed
    /// later. Never panics. Takes at most [`max_delivery_time`](Self::max_delivery_time), plus
    /// the little the screening and the scheduler add (milliseconds). A final failure is also
    /// logged (`tracing` warning).
    pub async fn deliver(
        &self,
        config: &TaskPushNotificationConfig,
        event: &StreamResponse,
    ) -> Result<Delivered, PushError> {
        self.deliver_traced(config, event, None).await
    }

    /// [`deliver`](Self::deliver), carrying a W3C trace context to the webhook (`traceparent`,
    /// `tracestate`): with the `otel` feature, that of the delivery's span (`a2a.push`, a child
    /// of the current span) when it is in a trace; otherwise `trace`, as the work came with it.
    pub async fn deliver_traced(
        &self,
        config: &TaskPushNotificationConfig,
        event: &StreamResponse,
        trace: Option<&TraceContext>,
    ) -> Result<Delivered, PushError> {
        self.deliver_inner(config, json(serde_json::to_vec(event)), None, trace)
            .await
    }

    /// [`deliver_traced`](Self::deliver_traced) of an event with a sequence number (its task's
    /// version, as in a stream's SSE `id:`), sent in the [`EVENT_ID_HEADER`] so that a receiver
    /// can drop a notification it already had: the request handler's outbox delivers at least
    /// once.
    pub async fn deliver_numbered(
        &self,
        config: &TaskPushNotificationConfig,
        event: &StreamResponse,
        event_id: u64,
        trace: Option<&TraceContext>,
    ) -> Result<Delivered, PushError> {
        self.deliver_inner(
            config,
            json(serde_json::to_vec(event)),
            Some(event_id),
            trace,
        )
        .await
    }

    /// [`deliver_numbered`](Self::deliver_numbered) of a notification in either version's
    /// shape (see [`Notification`]), with or without a sequence number.
    pub async fn deliver_notification(
        &self,
        config: &TaskPushNotificationConfig,
        notification: &Notification,
        event_id: Option<u64>,
        trace: Option<&TraceContext>,
    ) -> Result<Delivered, PushError> {
        let body = match notification {
            Notification::Event(event) => json(serde_json::to_vec(event)),
            Notification::TaskV0_3(task) => json(serde_json::to_vec(task)),
        };
        self.deliver_inner(config, body, event_id, trace).await
    }

    async fn deliver_inner(
        &self,
        config: &TaskPushNotificationConfig,
        body: Vec<u8>,
        event_id: Option<u64>,
        trace: Option<&TraceContext>,
    ) -> Result<Delivered, PushError> {
        let span = tracing::info_span!(
            target: "a2a_agent::push",
            "a2a.push",
            a2a.task_id = config.task_id.as_deref().unwrap_or_default(),
            url.full = %redact_url(&config.url),
            a2a.attempts = tracing::field::Empty,
        );
        let result = tracing::Instrument::instrument(
            self.try_deliver(config, body, event_id, trace),
            span.clone(),
        )
        .await;
        let (attempts, outcome) = match &result {
            Ok(delivered) => (delivered.attempts, "delivered"),
            Err(e) => (e.attempts, "failed"),
        };
        telemetry::push_outcome(outcome);
        span.record("a2a.attempts", attempts);
        if let Err(e) = &result {
            tracing::warn!(
                task_id = config.task_id.as_deref().unwrap_or_default(),
                config_id = config.id.as_deref().unwrap_or_default(),
                "{e}"
            );
        }
        result
    }

    async fn try_deliver(
        &self,
        config: &TaskPushNotificationConfig,
        body: Vec<u8>,
        event_id: Option<u64>,
        trace: Option<&TraceContext>,
    ) -> Result<Delivered, PushError> {
        let fail = |attempts, failure| PushError {
            url: redact_url(&config.url),
            attempts,
            failure,
        };
        let url = self
            .policy
            .screen(&config.url)
            .map_err(|e| fail(0, PushFailure::Refused(e)))?;
        let mut headers =
            headers(config).map_err(|what| fail(0, PushFailure::InvalidHeader(what)))?;
        if let Some(trace) = TraceContext::outgoing(trace) {
            trace.insert_into(&mut headers);
        }
        if let Some(id) = event_id {
            headers.insert(
                HeaderName::from_static("x-a2a-event-id"),
                HeaderValue::from(id),
            );
        }

        let mut attempt = 1;
        loop {
            let request = self
                .client
                .post(url.clone())
                .headers(headers.clone())
                .body(body.clone())
                .send();
            let failure = match tokio::time::timeout(self.timeout, request).await {
                Ok(Ok(response)) if response.status().is_success() => {
                    return Ok(Delivered {
                        attempts: attempt,
                        status: response.status().as_u16(),
                    });
                }
                Ok(Ok(response)) => PushFailure::Status(response.status().as_u16()),
                Ok(Err(e)) => classify(e),
                Err(_) => PushFailure::Timeout(self.timeout),
            };
            if attempt >= self.attempts || !failure.is_retryable() {
                return Err(fail(attempt, failure));
            }
            attempt += 1;
            let pause = self.backoff_before(attempt);
            tracing::debug!(
                url = %redact_url(&config.url),
                "push attempt {} failed ({failure}); retrying in {pause:?}",
                attempt - 1
            );
            tokio::time::sleep(pause).await;
        }
    }

    /// Delivers `event` to every config at once, on a task of its own: the caller does not wait
    /// (a hanging webhook holds only its own delivery, for at most
    /// [`max_delivery_time`](Self::max_delivery_time)). The results come in the order of
    /// `configs`.
    ///
    /// Two calls are not ordered against each other: for events that must arrive in order, use a
    /// [`PushDispatcher`](super::PushDispatcher).
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime, as `tokio::spawn` does.
    pub fn spawn_deliver(
        &self,
        configs: Vec<TaskPushNotificationConfig>,
        event: StreamResponse,
    ) -> tokio::task::JoinHandle<Vec<Result<Delivered, PushError>>> {
        let sender = self.clone();
        tokio::spawn(async move {
            let deliveries = configs.iter().map(|config| sender.deliver(config, &event));
            futures_util::future::join_all(deliveries).await
        })
    }
}

/// What one notification carries: the shape of the A2A version its config was set in (see
/// [`PushTarget`](crate::store::PushTarget)).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Notification {
    /// An event, posted as 1.0's `StreamResponse` JSON (`{"statusUpdate": ...}`).
    Event(StreamResponse),
    /// A task as it stands after an event, posted as 0.3's `Task` JSON (`{"kind": "task",
    /// ...}`), as a2a-sdk 0.3's sender posts it.
    TaskV0_3(v0_3::Task),
}

impl From<StreamResponse> for Notification {
    fn from(event: StreamResponse) -> Self {
        Notification::Event(event)
    }
}

impl Notification {
    /// The 0.3 notification of a task: `task` converted as a 0.3 reply is (what 0.3 cannot carry
    /// left out), or why it cannot be.
    pub fn task_v0_3(task: Task) -> Result<Notification, ConvertError> {
        let (task, _) = convert::lossy::<Task, v0_3::Task>(task)?;
        Ok(Notification::TaskV0_3(task))
    }
}

/// A notification's body: its JSON. A generated type always serializes; the fallback only keeps
/// this path panic-free.
fn json(written: serde_json::Result<Vec<u8>>) -> Vec<u8> {
    written.unwrap_or_else(|_| b"{}".to_vec())
}

/// The request headers for a config, or which of its values is not a header value.
fn headers(config: &TaskPushNotificationConfig) -> Result<HeaderMap, &'static str> {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(auth) = &config.authentication {
        match auth.credentials.as_deref() {
            Some(credentials) if !auth.scheme.is_empty() && !credentials.is_empty() => {
                let mut value = HeaderValue::from_str(&format!("{} {credentials}", auth.scheme))
                    .map_err(|_| "authentication")?;
                value.set_sensitive(true);
                headers.insert(AUTHORIZATION, value);
            }
            _ if auth.scheme.is_empty()
                && auth.credentials.as_deref().unwrap_or_default().is_empty() => {}
            _ => tracing::warn!(
                config_id = config.id.as_deref().unwrap_or_default(),
                task_id = config.task_id.as_deref().unwrap_or_default(),
                "the push config's authentication has a scheme or credentials but not both; \
                 sending no Authorization header"
            ),
        }
    }
    if let Some(token) = config.token.as_deref().filter(|t| !t.is_empty()) {
        let mut value = HeaderValue::from_str(token).map_err(|_| "token")?;
        value.set_sensitive(true);
        headers.insert(HeaderName::from_static("x-a2a-notification-token"), value);
    }
    Ok(headers)
}

/// What a failed `send` means: a refusal from the screening resolver, a connection failure, or
/// a failure after connecting.
fn classify(error: reqwest::Error) -> PushFailure {
    let mut source = error.source();
    while let Some(e) = source {
        if let Some(refused) = e.downcast_ref::<PushUrlError>() {
            return match refused {
                // A resolver failure may pass (SERVFAIL, a timeout upstream): retried.
                PushUrlError::Unresolvable { .. } => PushFailure::Connect(refused.to_string()),
                _ => PushFailure::Refused(refused.clone()),
            };
        }
        source = e.source();
    }
    let connect = error.is_connect();
    let reason = error_chain(&error.without_url());
    if connect {
        PushFailure::Connect(reason)
    } else {
        PushFailure::Request(reason)
    }
}

/// An error and its sources, `: `-separated, repeated messages skipped.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut last = text.clone();
    let mut source = error.source();
    while let Some(e) = source {
        let message = e.to_string();
        if message != last && !last.ends_with(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        last = message;
        source = e.source();
    }
    text
}

/// A URL fit for logs and errors: no userinfo, no fragment, the query replaced by `?…`.
pub(crate) fn redact_url(raw: &str) -> String {
    let Ok(mut url) = url::Url::parse(raw.trim()) else {
        return "(an unparseable URL)".to_owned();
    };
    let had_query = url.query().is_some();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_fragment(None);
    url.set_query(None);
    let mut text = String::from(url);
    if had_query {
        text.push_str("?…");
    }
    text
}

/// The client's only way to turn a name into addresses: resolve, screen every address, hand
/// over exactly those.
struct ScreeningResolver {
    policy: PushUrlPolicy,
    resolver: Arc<dyn PushResolver>,
}

impl reqwest::dns::Resolve for ScreeningResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy;
        let resolver = Arc::clone(&self.resolver);
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let ips = policy
                .resolve_name(&host, resolver.as_ref())
                .await
                .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?;
            // Port 0: reqwest puts in the URL's port.
            let addrs: reqwest::dns::Addrs =
                Box::new(ips.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::AuthenticationInfo;

    #[test]
    fn urls_in_errors_lose_their_secrets() {
        let cases = [
            (
                "https://hooks.example.com/a2a",
                "https://hooks.example.com/a2a",
            ),
            (
                "https://u:pw@hooks.example.com/a2a",
                "https://hooks.example.com/a2a",
            ),
            (
                "https://hooks.example.com/a2a?token=s3cret#frag",
                "https://hooks.example.com/a2a?…",
            ),
            ("http://127.0.0.1:9000/x", "http://127.0.0.1:9000/x"),
            ("not a url with s3cret", "(an unparseable URL)"),
        ];
        for (raw, redacted) in cases {
            assert_eq!(redact_url(raw), redacted, "{raw}");
        }
    }

    #[test]
    fn backoff_grows_fourfold_up_to_the_cap_and_bounds_the_total() {
        let sender = PushSender::builder(PushUrlPolicy::default())
            .attempts(5)
            .build()
            .unwrap();
        let pauses: Vec<_> = (2..=5).map(|a| sender.backoff_before(a)).collect();
        assert_eq!(
            pauses,
            [250, 1000, 4000, 4000].map(Duration::from_millis).to_vec()
        );
        let default = PushSender::new(PushUrlPolicy::default()).unwrap();
        assert_eq!(default.max_delivery_time(), Duration::from_millis(31_250));
        let clamped = PushSender::builder(PushUrlPolicy::default())
            .attempts(0)
            .build()
            .unwrap();
        assert_eq!(clamped.max_delivery_time(), Duration::from_secs(10));
        assert_eq!(
            PushSender::builder(PushUrlPolicy::default())
                .attempts(1000)
                .build()
                .unwrap()
                .attempts,
            MAX_ATTEMPTS
        );
    }

    fn config(
        scheme: &str,
        credentials: Option<&str>,
        token: Option<&str>,
    ) -> TaskPushNotificationConfig {
        TaskPushNotificationConfig {
            url: "https://hooks.example.com/".into(),
            token: token.map(Into::into),
            authentication: Some(AuthenticationInfo {
                scheme: scheme.into(),
                credentials: credentials.map(Into::into),
            }),
            ..Default::default()
        }
    }

    #[test]
    fn authorization_needs_both_scheme_and_credentials_as_in_the_sdk() {
        let auth = |c: &TaskPushNotificationConfig| {
            headers(c)
                .unwrap()
                .get(AUTHORIZATION)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        assert_eq!(
            auth(&config("Bearer", Some("abc"), None)).as_deref(),
            Some("Bearer abc")
        );
        assert_eq!(
            auth(&config("Basic", Some("dTpw"), None)).as_deref(),
            Some("Basic dTpw")
        );
        assert_eq!(auth(&config("Bearer", None, None)), None);
        assert_eq!(auth(&config("Bearer", Some(""), None)), None);
        assert_eq!(auth(&config("", Some("abc"), None)), None);
        let none = TaskPushNotificationConfig::default();
        assert_eq!(headers(&none).unwrap().len(), 1, "only Content-Type");
    }

    #[test]
    fn token_header_and_sensitive_values() {
        let h = headers(&config("Bearer", Some("abc"), Some("tok"))).unwrap();
        assert_eq!(h[NOTIFICATION_TOKEN_HEADER], "tok");
        assert!(h[NOTIFICATION_TOKEN_HEADER].is_sensitive());
        assert!(h[AUTHORIZATION].is_sensitive());
        assert_eq!(h[CONTENT_TYPE], "application/json");
        assert!(!headers(&config("Bearer", Some("abc"), Some("")))
            .unwrap()
            .contains_key(NOTIFICATION_TOKEN_HEADER));
        assert_eq!(
            headers(&config("Bearer", Some("abc"), Some("a\nb"))).unwrap_err(),
            "token"
        );
        assert_eq!(
            headers(&config("Bearer", Some("a\r\nX-Evil: 1"), None)).unwrap_err(),
            "authentication"
        );
    }

    #[test]
    fn retryable_failures() {
        for status in [408, 429, 500, 502, 503, 504, 599] {
            assert!(PushFailure::Status(status).is_retryable(), "{status}");
        }
        for status in [300, 301, 302, 400, 401, 403, 404, 409, 410, 422] {
            assert!(!PushFailure::Status(status).is_retryable(), "{status}");
        }
        assert!(PushFailure::Timeout(Duration::from_secs(1)).is_retryable());
        assert!(PushFailure::Connect("refused".into()).is_retryable());
        assert!(!PushFailure::Refused(PushUrlError::InsecureScheme).is_retryable());
        assert!(!PushFailure::InvalidHeader("token").is_retryable());
    }
}
