use crate::body::excerpt;
use crate::client::StreamDecoder;
use crate::client::{encode_call, CallError, ClientError, ClientErrorKind, Decoder, HttpReply};
use crate::custom::{AgentError, NoCustomErrors};
use crate::jsonrpc::RequestId;
use crate::limits::Limits;
use crate::rest::RestMethod;
use crate::table::Method;
use crate::version::{interfaces, pick_interface_in, Binding, Interface};
use crate::version::{ProtocolModule, ProtocolVersion, EXTENSIONS_HEADER};
use futures_core::Stream;
pub use http::{HeaderMap, HeaderName, HeaderValue};
/// The reqwest this module is built on, for a [`reqwest::Client`] of your own
/// ([`ClientBuilder::http_client`]) of the same version.
pub use reqwest;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Instant;

/// The connect timeout of a client this module builds, unless set.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The request timeout, unless set.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The idle timeout of a stream, unless set.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// Where an agent publishes its card, below its base URL (spec §8.2).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// A typed A2A client for the protocol version of the generated module `P`, bound to one
/// interface of an agent's card. Cheap to clone (the clones share the connection pool); every
/// method takes `&self`, so one client serves concurrent calls.
///
/// See the [module docs](crate::client) for the rules.
pub struct Client<P> {
    inner: Arc<Inner>,
    protocol: PhantomData<fn() -> P>,
}

/// A function adding headers to every request (credentials): see [`ClientBuilder::auth`].
type AuthHook = Arc<dyn Fn(&mut HeaderMap) + Send + Sync>;

struct Inner {
    http: reqwest::Client,
    card: Value,
    interface: Interface,
    binding: Binding,
    /// `A2A-Extensions` and the caller's headers, in that order.
    headers: HeaderMap,
    auth: Option<AuthHook>,
    limits: Limits,
    request_timeout: Option<Duration>,
    idle_timeout: Option<Duration>,
    next_id: AtomicI64,
    /// Which signature of the card verified, when the builder was given a verifier.
    #[cfg(feature = "trust")]
    verified: Option<crate::trust::Verified>,
}

impl<P> Clone for Client<P> {
    fn clone(&self) -> Self {
        Client {
            inner: Arc::clone(&self.inner),
            protocol: PhantomData,
        }
    }
}

impl<P> fmt::Debug for Client<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("interface", &self.inner.interface)
            .field("limits", &self.inner.limits)
            .field("request_timeout", &self.inner.request_timeout)
            .field("idle_timeout", &self.inner.idle_timeout)
            .finish_non_exhaustive()
    }
}

/// Builds a [`Client`]: bindings, timeouts, limits, headers, credentials, then the card.
///
/// ```no_run
/// # use a2a_runtime::service::Protocol;
/// use a2a_runtime::Binding;
/// use a2a_runtime::client::{Client, HeaderName, HeaderValue};
/// use a2a_runtime::Limits;
/// use std::time::Duration;
///
/// # async fn build<P: Protocol>() -> Result<Client<P>, a2a_runtime::client::BuildError> {
/// // `P` is a generated module's `Protocol`: `a2a_types::v1::Protocol`.
/// let client = Client::<P>::builder()
///     .bindings([Binding::HttpJson, Binding::JsonRpc]) // REST if the card offers it
///     .connect_timeout(Duration::from_secs(5))
///     .request_timeout(Duration::from_secs(120))
///     .stream_idle_timeout(None) // wait for the next event as long as it takes
///     .limits(Limits::default().with_max_body_bytes(1 << 20))
///     .header(HeaderName::from_static("x-request-source"), HeaderValue::from_static("docs"))
///     .extension("https://example.com/ext/citations/v1")
///     .auth(|headers| {
///         headers.insert("authorization", HeaderValue::from_static("Bearer secret"));
///     })
///     .connect("https://agent.example.com")
///     .await?;
/// # Ok(client)
/// # }
/// ```
pub struct ClientBuilder<P> {
    bindings: Vec<Binding>,
    connect_timeout: Option<Duration>,
    request_timeout: Option<Duration>,
    idle_timeout: Option<Duration>,
    limits: Limits,
    headers: HeaderMap,
    extensions: Vec<String>,
    auth: Option<AuthHook>,
    http: Option<reqwest::Client>,
    #[cfg(feature = "trust")]
    verifier: Option<crate::trust::Verifier>,
    protocol: PhantomData<fn() -> P>,
}

impl<P> fmt::Debug for ClientBuilder<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("bindings", &self.bindings)
            .field("connect_timeout", &self.connect_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("limits", &self.limits)
            .field("extensions", &self.extensions)
            .finish_non_exhaustive()
    }
}

impl<P: ProtocolModule> Default for ClientBuilder<P> {
    fn default() -> Self {
        ClientBuilder {
            bindings: vec![Binding::JsonRpc, Binding::HttpJson],
            connect_timeout: Some(DEFAULT_CONNECT_TIMEOUT),
            request_timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            idle_timeout: Some(DEFAULT_STREAM_IDLE_TIMEOUT),
            limits: Limits::DEFAULT,
            headers: HeaderMap::new(),
            extensions: Vec::new(),
            auth: None,
            http: None,
            #[cfg(feature = "trust")]
            verifier: None,
            protocol: PhantomData,
        }
    }
}

impl<P: ProtocolModule> ClientBuilder<P> {
    /// The bindings to call the agent over, most wanted first (by default JSON-RPC, then
    /// HTTP+JSON): the first the card offers in `P`'s version is used. HTTP+JSON is skipped for
    /// a module without REST routes (v0.3).
    pub fn bindings(mut self, preferred: impl IntoIterator<Item = Binding>) -> Self {
        self.bindings = preferred.into_iter().collect();
        self
    }

    /// The longest a connection may take to open (TCP and TLS); `None` for no limit. Applies to
    /// the reqwest client this builder makes, not to one given with [`Self::http_client`].
    pub fn connect_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.connect_timeout = timeout.into();
        self
    }

    /// The longest a call may take, from sending it to the last byte of its reply (for a
    /// stream: to its response headers); `None` for no limit. Also bounds fetching the card.
    pub fn request_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.request_timeout = timeout.into();
        self
    }

    /// The longest a stream may go without any bytes arriving; `None` for no limit.
    pub fn stream_idle_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.idle_timeout = timeout.into();
        self
    }

    /// The largest reply body (and streamed event) and the deepest nesting the client takes;
    /// also applied to the card.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// A header to send with every request (the card's too), after the client's own.
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.append(name, value);
        self
    }

    /// An extension to ask for in `A2A-Extensions` (spec §3.2.6), on every call.
    pub fn extension(mut self, uri: impl Into<String>) -> Self {
        self.extensions.push(uri.into());
        self
    }

    /// A function that adds headers to every request (the card's too), called last: for
    /// credentials, a bearer token say, read fresh on each request.
    pub fn auth(mut self, hook: impl Fn(&mut HeaderMap) + Send + Sync + 'static) -> Self {
        self.auth = Some(Arc::new(hook));
        self
    }

    /// A reqwest client to send through (its connection pool, proxy and TLS settings), instead
    /// of one this builder makes. Its own timeouts, if it has any, apply besides this builder's.
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// Verifies the agent's card with `verifier` before using it (feature `trust`): a card
    /// without a signature that verifies (unsigned, tampered with, or signed by a key the
    /// verifier does not trust) is refused with [`BuildError::Untrusted`]. A fetched card is
    /// verified over its bytes as received; one given to [`Self::from_card`] over its JSON (give
    /// the `serde_json::Value` parsed from what was received, not a re-encoded typed card, which
    /// has lost the members this version does not know).
    ///
    /// ```no_run
    /// # use a2a_runtime::service::Protocol;
    /// use a2a_runtime::client::Client;
    /// use a2a_runtime::trust::{KeySet, Verifier};
    ///
    /// # async fn build<P: Protocol>(jwks: serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
    /// // A JWK Set you trust for this agent (fetched over HTTPS, pinned, ...): never the card's `jku`.
    /// let verifier = Verifier::new(KeySet::from_jwks(&jwks)?);
    /// let client = Client::<P>::builder().verify_card(verifier).connect("https://agent.example.com").await?;
    /// println!("signed by {}", client.verified_card().unwrap().kid);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "trust")]
    pub fn verify_card(mut self, verifier: crate::trust::Verifier) -> Self {
        self.verifier = Some(verifier);
        self
    }

    /// Fetches the agent's card from `url` and builds the client on it: `url` is the agent's
    /// base URL, below which the card is at [`AGENT_CARD_PATH`], or the card's own URL when it
    /// ends in `.json`. The card is read as JSON in either version's shape; a relative
    /// interface URL is read against the card's URL.
    pub async fn connect(self, url: &str) -> Result<Client<P>, BuildError> {
        let http = self.http_client_or_new()?;
        let card_url = match url.ends_with(".json") {
            true => url.to_owned(),
            false => format!("{}{AGENT_CARD_PATH}", url.trim_end_matches('/')),
        };
        let (card, _raw) = self.fetch_card(&http, &card_url).await?;
        #[cfg(feature = "trust")]
        let verified = match &self.verifier {
            Some(verifier) => Some(verifier.verify_json(&_raw).map_err(BuildError::Untrusted)?),
            None => None,
        };
        let base = reqwest::Url::parse(&card_url).ok();
        let client = self.finish(http, card, base.as_ref());
        #[cfg(feature = "trust")]
        let client = client.map(|c| c.with_verified(verified));
        client
    }

    /// Builds the client on a card already in hand: JSON (`serde_json::Value`) in either
    /// version's shape, or anything that serializes to it (a generated `AgentCard`).
    pub fn from_card<C: Serialize + ?Sized>(self, card: &C) -> Result<Client<P>, BuildError> {
        let card = serde_json::to_value(card).map_err(|e| {
            BuildError::Fetch(ClientError::new(format!(
                "the agent card does not serialize: {e}"
            )))
        })?;
        #[cfg(feature = "trust")]
        let verified = match &self.verifier {
            Some(verifier) => Some(verifier.verify(&card).map_err(BuildError::Untrusted)?),
            None => None,
        };
        let http = self.http_client_or_new()?;
        let client = self.finish(http, card, None);
        #[cfg(feature = "trust")]
        let client = client.map(|c| c.with_verified(verified));
        client
    }

    fn http_client_or_new(&self) -> Result<reqwest::Client, BuildError> {
        if let Some(http) = &self.http {
            return Ok(http.clone());
        }
        let mut builder = reqwest::Client::builder()
            .user_agent(concat!("a2a-runtime/", env!("CARGO_PKG_VERSION")));
        if let Some(timeout) = self.connect_timeout {
            builder = builder.connect_timeout(timeout);
        }
        builder.build().map_err(|e| {
            BuildError::Fetch(
                ClientError::new(format!("the HTTP client could not be built: {}", chain(&e)))
                    .with_kind(ClientErrorKind::Request),
            )
        })
    }

    /// The card as JSON, and the bytes it was read from.
    async fn fetch_card(
        &self,
        http: &reqwest::Client,
        url: &str,
    ) -> Result<(Value, Vec<u8>), BuildError> {
        let what = format!("GET {url} (the agent card)");
        let mut headers = HeaderMap::new();
        headers.insert(
            http::header::ACCEPT,
            HeaderValue::from_static(crate::jsonrpc::CONTENT_TYPE),
        );
        for (name, value) in &self.headers {
            headers.append(name, value.clone());
        }
        if let Some(auth) = &self.auth {
            auth(&mut headers);
        }
        let limits = self.limits;
        let request = http.get(url).headers(headers);
        let (status, content_type, body) =
            read_reply(request, &what, self.request_timeout, &limits)
                .await
                .map_err(BuildError::Fetch)?;
        if !(200..300).contains(&status) {
            return Err(BuildError::Fetch(
                ClientError::new(format!(
                    "{what}: HTTP {status} ({}): {}",
                    content_type.as_deref().unwrap_or("no content type"),
                    excerpt(&body)
                ))
                .with_http_status(status),
            ));
        }
        limits.check(&body).map_err(|reason| {
            BuildError::Fetch(
                ClientError::new(format!("{what}: {reason}")).with_http_status(status),
            )
        })?;
        let card = serde_json::from_slice(&body).map_err(|e| {
            BuildError::Fetch(
                ClientError::new(format!(
                    "{what}: the body is not JSON ({e}): {}",
                    excerpt(&body)
                ))
                .with_http_status(status),
            )
        })?;
        Ok((card, body))
    }

    fn finish(
        self,
        http: reqwest::Client,
        card: Value,
        base: Option<&reqwest::Url>,
    ) -> Result<Client<P>, BuildError> {
        let (mut interface, binding) = choose::<P>(&card, &self.bindings)?;
        // Against the card's URL, a relative URL resolves and an absolute one stays as it is.
        let url = match base {
            Some(base) => base.join(&interface.url),
            None => reqwest::Url::parse(&interface.url),
        };
        interface.url = url.map_err(|e| bad_url(&interface, e))?.into();
        let mut headers = HeaderMap::new();
        if !self.extensions.is_empty() {
            let list = self.extensions.join(", ");
            let value = HeaderValue::try_from(list.as_str()).map_err(|_| {
                BuildError::Fetch(
                    ClientError::new(format!(
                        "the extension URIs {list:?} are not a valid header value"
                    ))
                    .with_kind(ClientErrorKind::Request),
                )
            })?;
            headers.insert(EXTENSIONS_HEADER, value);
        }
        for (name, value) in &self.headers {
            headers.append(name, value.clone());
        }
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                card,
                interface,
                binding,
                headers,
                auth: self.auth,
                limits: self.limits,
                request_timeout: self.request_timeout,
                idle_timeout: self.idle_timeout,
                next_id: AtomicI64::new(1),
                #[cfg(feature = "trust")]
                verified: None,
            }),
            protocol: PhantomData,
        })
    }
}

fn bad_url(interface: &Interface, e: impl fmt::Display) -> BuildError {
    BuildError::NoInterface(format!(
        "the card's {} interface has the URL {:?}, which is not a URL: {e}",
        interface.binding, interface.url
    ))
}

/// The interface of `P`'s version to call, by the caller's order of bindings.
fn choose<P: ProtocolModule>(
    card: &Value,
    preferred: &[Binding],
) -> Result<(Interface, Binding), BuildError> {
    let usable: Vec<Binding> = preferred
        .iter()
        .copied()
        .filter(|b| P::HTTP_JSON || *b != Binding::HttpJson)
        .collect();
    if usable.is_empty() {
        return Err(BuildError::NoInterface(format!(
            "no binding to call over: the A2A {} module has no HTTP+JSON routes; ask for {}",
            P::VERSION,
            Binding::JsonRpc.name()
        )));
    }
    if let Some(interface) = pick_interface_in(card, &usable, P::VERSION) {
        let binding = interface.binding;
        return Ok((interface, binding));
    }
    let names: Vec<&str> = usable.iter().map(|b| b.name()).collect();
    let offered = interfaces(card);
    let mut versions: Vec<ProtocolVersion> = offered
        .iter()
        .filter(|i| usable.contains(&i.binding))
        .map(|i| i.version)
        .collect();
    versions.sort_unstable_by(|a, b| b.cmp(a));
    versions.dedup();
    if !versions.is_empty() {
        return Err(BuildError::OtherVersion {
            wanted: P::VERSION,
            offered: versions,
            bindings: usable,
        });
    }
    let listed: Vec<String> = crate::version::offered_as_written(card)
        .iter()
        .map(|(url, binding, version, _)| format!("{binding} {version} at {url}"))
        .collect();
    Err(BuildError::NoInterface(format!(
        "the card offers no {} interface; it offers {}",
        names.join(" or "),
        match listed.is_empty() {
            true => "none in a version this crate speaks (0.3, 1.0)".to_owned(),
            false => listed.join(", "),
        }
    )))
}

/// Why a [`Client`] could not be built from a card.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BuildError {
    /// The card could not be fetched or read (the reason says why; the kind and the HTTP status
    /// as for a call), or the HTTP client could not be built.
    Fetch(ClientError),
    /// The card offers the bindings asked for in other protocol versions only: build the client
    /// with the generated module of one of them (its `Protocol`).
    OtherVersion {
        /// The version of the client's module.
        wanted: ProtocolVersion,
        /// The versions the card offers those bindings in, newest first.
        offered: Vec<ProtocolVersion>,
        /// The bindings asked for.
        bindings: Vec<Binding>,
    },
    /// The card offers none of the bindings asked for, in any version this crate speaks, or the
    /// interface's URL is not a URL.
    NoInterface(String),
    /// The card has no signature that verifies with the verifier given
    /// ([`ClientBuilder::verify_card`]; feature `trust`): why.
    #[cfg(feature = "trust")]
    Untrusted(crate::trust::VerifyError),
}

/// The generated module of a version, as `a2a-types` names it.
fn module_of(version: ProtocolVersion) -> &'static str {
    match version {
        ProtocolVersion::V0_3 => "v0_3",
        ProtocolVersion::V1_0 => "v1",
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Fetch(e) => write!(f, "{}", e.reason()),
            #[cfg(feature = "trust")]
            BuildError::Untrusted(e) => write!(f, "{e}"),
            BuildError::OtherVersion {
                wanted,
                offered,
                bindings,
            } => {
                let names: Vec<&str> = bindings.iter().map(|b| b.name()).collect();
                let versions: Vec<&str> = offered.iter().map(|v| v.as_str()).collect();
                let newest = offered.first().copied().unwrap_or(*wanted);
                write!(
                    f,
                    "the agent card offers {} in A2A {} only, and this client speaks {wanted}: \
                     build it with the `{}` module's Protocol (`Client::<a2a_types::{}::Protocol>`)",
                    names.join(" or "),
                    versions.join(", "),
                    module_of(newest),
                    module_of(newest),
                )
            }
            BuildError::NoInterface(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for BuildError {}

impl<P: ProtocolModule> Client<P> {
    /// A builder with the defaults: JSON-RPC then HTTP+JSON, [`DEFAULT_CONNECT_TIMEOUT`],
    /// [`DEFAULT_REQUEST_TIMEOUT`], [`DEFAULT_STREAM_IDLE_TIMEOUT`], [`Limits::DEFAULT`], no
    /// extra headers.
    pub fn builder() -> ClientBuilder<P> {
        ClientBuilder::default()
    }

    /// A client with the defaults, on the card fetched from `url` (see
    /// [`ClientBuilder::connect`]).
    pub async fn connect(url: &str) -> Result<Self, BuildError> {
        Self::builder().connect(url).await
    }

    /// A client with the defaults, on a card already in hand (see [`ClientBuilder::from_card`]).
    pub fn from_card<C: Serialize + ?Sized>(card: &C) -> Result<Self, BuildError> {
        Self::builder().from_card(card)
    }

    /// The agent's card, as it was read.
    pub fn card(&self) -> &Value {
        &self.inner.card
    }

    /// Which signature of the card verified, when the builder was given a verifier
    /// ([`ClientBuilder::verify_card`]; feature `trust`).
    #[cfg(feature = "trust")]
    pub fn verified_card(&self) -> Option<&crate::trust::Verified> {
        self.inner.verified.as_ref()
    }

    /// This client (just built, not yet shared) with its card's verification.
    #[cfg(feature = "trust")]
    fn with_verified(mut self, verified: Option<crate::trust::Verified>) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.verified = verified;
        }
        self
    }

    /// The interface the client calls (its URL resolved).
    pub fn interface(&self) -> &Interface {
        &self.inner.interface
    }

    /// The binding the client calls over.
    pub fn binding(&self) -> Binding {
        self.inner.binding
    }

    /// Calls method `M` with `params`: the method's result, the agent's typed error, or a
    /// [`ClientError`] (see the [module docs](crate::client#failures)). `M` is one of the module's method
    /// types (`a2a_types::v1::method::GetTask`); a streaming method is called with
    /// [`Client::stream`].
    pub async fn call<M>(&self, params: &M::Params) -> Result<M::Result, CallError<P::Error>>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned,
    {
        self.call_with::<M, NoCustomErrors>(params).await
    }

    /// [`Client::call`] for an agent with errors of its own, `E` (`#[derive(AgentError)]`): one
    /// of them comes back as `CallError::Custom`, with its fields.
    pub async fn call_with<M, E>(
        &self,
        params: &M::Params,
    ) -> Result<M::Result, CallError<P::Error, E>>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned,
        E: AgentError,
    {
        let inner = &*self.inner;
        if M::STREAMING {
            return Err(CallError::Malformed(
                ClientError::new(format!(
                    "{} answers with a stream: call it with `Client::stream`",
                    M::NAME
                ))
                .with_kind(ClientErrorKind::Request),
            ));
        }
        let prepared = self.prepare::<M>(params).map_err(CallError::Malformed)?;
        let (status, content_type, body) = read_reply(
            prepared.request,
            &prepared.what,
            inner.request_timeout,
            &inner.limits,
        )
        .await
        .map_err(CallError::Malformed)?;
        let reply = HttpReply {
            status,
            content_type: content_type.as_deref(),
            body: &body,
        };
        inner.decoder::<P::Error, E>().decode_http(&reply)
    }

    /// Calls streaming method `M` with `params`: its events as they arrive, each the method's
    /// result type or the agent's typed error, read from the body incrementally (never buffered
    /// whole). The request is sent when the stream is first polled.
    ///
    /// An agent that refuses the call before streaming answers one JSON body instead: the
    /// stream's one item is that error. A stream that fails (the idle timeout, the connection
    /// breaking off, the body ending inside an event) ends with the failure as its last item.
    pub fn stream<M>(&self, params: &M::Params) -> CallStream<M::Result, P::Error>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned + Send + 'static,
    {
        self.stream_with::<M, NoCustomErrors>(params)
    }

    /// [`Client::stream`] for an agent with errors of its own, `E`.
    pub fn stream_with<M, E>(&self, params: &M::Params) -> CallStream<M::Result, P::Error, E>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned + Send + 'static,
        E: AgentError + Send + 'static,
    {
        let phase = match M::STREAMING {
            false => Phase::Failed(
                ClientError::new(format!(
                    "{} answers with one reply, not a stream: call it with `Client::call`",
                    M::NAME
                ))
                .with_kind(ClientErrorKind::Request),
            ),
            true => match self.prepare::<M>(params) {
                Ok(prepared) => Phase::Send(prepared),
                Err(e) => Phase::Failed(e),
            },
        };
        let reading = Reading {
            inner: Arc::clone(&self.inner),
            phase,
            pending: VecDeque::new(),
            events: 0,
            bytes: 0,
        };
        CallStream {
            inner: Box::pin(futures_util::stream::unfold(
                reading,
                |mut reading| async move {
                    let item = reading.next().await?;
                    Some((item, reading))
                },
            )),
            ended: false,
        }
    }

    /// The HTTP request for a call of `M`, ready to send.
    fn prepare<M>(&self, params: &M::Params) -> Result<Prepared, ClientError>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
    {
        let inner = &*self.inner;
        // The interface's tenant, when it names one and the params leave theirs empty.
        let filled = match inner.interface.tenant.as_deref() {
            Some(tenant) if <M as Method>::tenant(params).is_none() => {
                let mut filled = params.clone();
                <M as Method>::fill_tenant(&mut filled, tenant);
                Some(filled)
            }
            _ => None,
        };
        let params = filled.as_ref().unwrap_or(params);
        let id = RequestId::from(inner.next_id.fetch_add(1, Ordering::Relaxed));
        let version = match P::VERSION {
            // A v0.3 client sends no `A2A-Version`: its absence means 0.3 (§3.6).
            ProtocolVersion::V0_3 => None,
            version => Some(version.as_str()),
        };
        let request = encode_call::<M>(inner.binding, version, &id, params).map_err(|e| {
            ClientError::new(format!("{} cannot be sent: {e}", M::NAME))
                .with_kind(ClientErrorKind::Request)
        })?;
        let url = match request.path.is_empty() {
            true => inner.interface.url.clone(),
            false => format!(
                "{}{}",
                inner.interface.url.trim_end_matches('/'),
                request.path
            ),
        };
        let what = format!("{} {url} ({})", request.verb, M::NAME);
        let verb = reqwest::Method::from_bytes(request.verb.as_bytes()).map_err(|e| {
            ClientError::new(format!("{what}: {e}")).with_kind(ClientErrorKind::Request)
        })?;
        let mut headers = HeaderMap::new();
        for (name, value) in &request.headers {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        for (name, value) in &inner.headers {
            headers.append(name, value.clone());
        }
        if let Some(auth) = &inner.auth {
            auth(&mut headers);
        }
        let mut builder = inner.http.request(verb, url).headers(headers);
        if let Some(body) = request.body {
            builder = builder.body(body);
        }
        Ok(Prepared {
            request: builder,
            what,
        })
    }
}

impl Inner {
    /// How this client's replies decode: its binding and limits, errors of `A` and `E`.
    fn decoder<A, E>(&self) -> Decoder<A, E> {
        Decoder::new()
            .binding(self.binding)
            .limits(self.limits)
            .custom_errors::<E>()
    }
}

const EVENT_STREAM: &str = "text/event-stream";

/// A request ready to send, and how failures name it (`POST http://a/ (GetTask)`).
struct Prepared {
    request: reqwest::RequestBuilder,
    what: String,
}

/// Sends `request` and reads its reply whole, at most `limits.max_body_bytes()` of it, all within
/// `timeout`: status, content type, body.
async fn read_reply(
    request: reqwest::RequestBuilder,
    what: &str,
    timeout: Option<Duration>,
    limits: &Limits,
) -> Result<(u16, Option<String>, Vec<u8>), ClientError> {
    let deadline = timeout.map(|t| Instant::now() + t);
    let work = async {
        let mut response = request.send().await.map_err(|e| send_error(&e, what))?;
        let (status, content_type) = head(&response);
        let body = read_body(&mut response, what, status, limits).await?;
        Ok((status, content_type, body))
    };
    match before(deadline, work).await {
        Some(outcome) => outcome,
        None => Err(request_timeout(what, timeout, "a complete reply")),
    }
}

/// The status and the content type of a response.
fn head(response: &reqwest::Response) -> (u16, Option<String>) {
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (response.status().as_u16(), content_type)
}

/// Reads a body as it arrives, refusing it once it grows past the limit (or when its
/// `Content-Length` says it will).
async fn read_body(
    response: &mut reqwest::Response,
    what: &str,
    status: u16,
    limits: &Limits,
) -> Result<Vec<u8>, ClientError> {
    let max = limits.max_body_bytes();
    let over = |reason: String| {
        ClientError::new(format!("{what}: HTTP {status}: {reason}")).with_http_status(status)
    };
    if let Some(length) = response.content_length() {
        if length > max as u64 {
            return Err(over(format!(
                "the body is {length} bytes (Content-Length), over the limit of {max}"
            )));
        }
    }
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(over(format!(
                        "the body is over the limit of {max} bytes ({} had arrived)",
                        body.len() + chunk.len()
                    )));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => {
                return Err(ClientError::new(format!(
                    "{what}: the reply broke off after {} bytes: {}",
                    body.len(),
                    chain(&e)
                ))
                .with_kind(ClientErrorKind::Interrupted)
                .with_http_status(status))
            }
        }
    }
}

/// `work`'s output, or `None` when `deadline` passed first.
async fn before<F: Future>(deadline: Option<Instant>, work: F) -> Option<F::Output> {
    match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, work).await.ok(),
        None => Some(work.await),
    }
}

fn request_timeout(what: &str, timeout: Option<Duration>, awaited: &str) -> ClientError {
    let timeout = timeout.map_or(String::new(), |t| format!(" of {t:?}"));
    ClientError::new(format!(
        "{what}: no {awaited} within the request timeout{timeout}"
    ))
    .with_kind(ClientErrorKind::RequestTimeout)
}

/// The client error for a request that got no response.
fn send_error(e: &reqwest::Error, what: &str) -> ClientError {
    let (kind, why) = if e.is_connect() && e.is_timeout() {
        (
            ClientErrorKind::ConnectTimeout,
            "no connection within the connect timeout",
        )
    } else if e.is_connect() {
        (ClientErrorKind::Connect, "could not connect")
    } else if e.is_timeout() {
        (
            ClientErrorKind::RequestTimeout,
            "the HTTP client's own timeout elapsed",
        )
    } else if e.is_builder() {
        (ClientErrorKind::Request, "the request could not be built")
    } else {
        (
            ClientErrorKind::Interrupted,
            "the connection broke off before a reply",
        )
    };
    ClientError::new(format!("{what}: {why}: {}", chain(e))).with_kind(kind)
}

/// An error with its sources, `: `-separated (reqwest's own message says little).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let next = s.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = s.source();
    }
    text
}

/// The events of a streaming call ([`Client::stream`]): a [`Stream`] of the method's result type
/// or the call's error, read from the body as it arrives. `next().await` works without importing
/// a stream extension trait.
pub struct CallStream<T, A, E = NoCustomErrors> {
    inner: Pin<Box<dyn Stream<Item = Item<T, A, E>> + Send>>,
    /// Set once `inner` has ended: it is never polled again (an ended stream stays ended).
    ended: bool,
}

/// One event of a [`CallStream`].
type Item<T, A, E> = Result<T, CallError<A, E>>;

impl<T, A, E> CallStream<T, A, E> {
    /// The next event; `None` once the stream has ended.
    pub async fn next(&mut self) -> Option<Result<T, CallError<A, E>>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl<T, A, E> Stream for CallStream<T, A, E> {
    type Item = Result<T, CallError<A, E>>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        let next = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(None) = next {
            self.ended = true;
        }
        next
    }
}

impl<T, A, E> fmt::Debug for CallStream<T, A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CallStream(..)")
    }
}

/// A streaming call in progress.
struct Reading<T, A, E> {
    inner: Arc<Inner>,
    phase: Phase<T, A, E>,
    /// Items decoded from the last chunk, not yet handed out.
    pending: VecDeque<Item<T, A, E>>,
    events: usize,
    bytes: usize,
}

enum Phase<T, A, E> {
    /// The request could not be made: the stream's one item.
    Failed(ClientError),
    Send(Prepared),
    Body {
        response: reqwest::Response,
        decoder: StreamDecoder<T, A, E>,
        what: String,
    },
    Done,
}

impl<T, A, E> Reading<T, A, E>
where
    T: DeserializeOwned,
    A: crate::table::ErrorTable,
    E: AgentError,
{
    async fn next(&mut self) -> Option<Item<T, A, E>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                self.events += 1;
                return Some(item);
            }
            match std::mem::replace(&mut self.phase, Phase::Done) {
                Phase::Done => return None,
                Phase::Failed(e) => return Some(Err(CallError::Malformed(e))),
                Phase::Send(prepared) => match self.start(prepared).await {
                    Ok(phase) => self.phase = phase,
                    Err(item) => return Some(item),
                },
                Phase::Body {
                    mut response,
                    mut decoder,
                    what,
                } => {
                    let chunk = match self.inner.idle_timeout {
                        Some(idle) => match tokio::time::timeout(idle, response.chunk()).await {
                            Ok(chunk) => chunk,
                            Err(_) => {
                                return Some(Err(CallError::Malformed(
                                    ClientError::new(format!(
                                        "{what}: the stream was idle for longer than its idle \
                                         timeout of {idle:?}, after {} event(s) and {} bytes",
                                        self.events, self.bytes
                                    ))
                                    .with_kind(ClientErrorKind::IdleTimeout),
                                )))
                            }
                        },
                        None => response.chunk().await,
                    };
                    match chunk {
                        Ok(Some(chunk)) => {
                            self.bytes += chunk.len();
                            self.pending.extend(decoder.feed(&chunk));
                            self.phase = Phase::Body {
                                response,
                                decoder,
                                what,
                            };
                        }
                        Ok(None) => {
                            return match decoder.finish() {
                                Ok(()) => None,
                                Err(CallError::Malformed(e)) => Some(Err(CallError::Malformed(
                                    ClientError::new(format!(
                                        "{what}: the stream is truncated after {} event(s): {}",
                                        self.events,
                                        e.reason()
                                    ))
                                    .with_kind(ClientErrorKind::Interrupted),
                                ))),
                                Err(other) => Some(Err(other)),
                            }
                        }
                        Err(e) => {
                            return Some(Err(CallError::Malformed(
                                ClientError::new(format!(
                                    "{what}: the stream broke off after {} event(s) and {} \
                                     bytes: {}",
                                    self.events,
                                    self.bytes,
                                    chain(&e)
                                ))
                                .with_kind(ClientErrorKind::Interrupted),
                            )))
                        }
                    }
                }
            }
        }
    }

    /// Sends the request; the phase that reads its SSE body, or the one item of a reply that is
    /// not a stream.
    async fn start(&mut self, prepared: Prepared) -> Result<Phase<T, A, E>, Item<T, A, E>> {
        let inner = &*self.inner;
        let Prepared { request, what } = prepared;
        let deadline = inner.request_timeout.map(|t| Instant::now() + t);
        let response = match before(deadline, request.send()).await {
            None => {
                return Err(Err(CallError::Malformed(request_timeout(
                    &what,
                    inner.request_timeout,
                    "response headers",
                ))))
            }
            Some(Err(e)) => return Err(Err(CallError::Malformed(send_error(&e, &what)))),
            Some(Ok(response)) => response,
        };
        let (status, content_type) = head(&response);
        let is_sse = content_type.as_deref().is_some_and(|t| {
            t.get(..EVENT_STREAM.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(EVENT_STREAM))
        });
        if is_sse && (200..300).contains(&status) {
            return Ok(Phase::Body {
                response,
                decoder: inner.decoder::<A, E>().stream(),
                what,
            });
        }
        // One JSON body instead of a stream (a refusal), or something else (a proxy's page).
        let mut response = response;
        let body = match before(
            deadline,
            read_body(&mut response, &what, status, &inner.limits),
        )
        .await
        {
            None => Err(request_timeout(
                &what,
                inner.request_timeout,
                "complete reply",
            )),
            Some(body) => body,
        };
        Err(match body {
            Ok(body) => {
                let reply = HttpReply {
                    status,
                    content_type: content_type.as_deref(),
                    body: &body,
                };
                inner.decoder::<A, E>().decode_http(&reply)
            }
            Err(e) => Err(CallError::Malformed(e)),
        })
    }
}
