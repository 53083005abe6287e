//! Building a [`Client`] from an agent's card: [`ClientBuilder`] (bindings, timeouts, limits,
//! headers, credentials, the card's verification), fetching and reading the card, choosing its
//! interface for the module's version, and [`BuildError`], why no client could be built.

use super::call::{chain, read_reply};
use super::{AuthHook, Client, Inner, AGENT_CARD_PATH};
use super::{DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT};
use crate::body::excerpt;
use crate::client::error::{ClientError, ClientErrorKind};
use crate::limits::Limits;
use crate::version::{interfaces, pick_interface_in, Binding, Interface};
use crate::version::{ProtocolModule, ProtocolVersion, EXTENSIONS_HEADER};
use http::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::AtomicI64;
use std::sync::Arc;
use std::time::Duration;

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
    #[cfg(feature = "grpc")]
    grpc_roots: Vec<Vec<u8>>,
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
            #[cfg(feature = "grpc")]
            grpc_roots: Vec::new(),
            #[cfg(feature = "trust")]
            verifier: None,
            protocol: PhantomData,
        }
    }
}

impl<P: ProtocolModule> ClientBuilder<P> {
    /// The bindings to call the agent over, most wanted first (by default JSON-RPC, then
    /// HTTP+JSON): the first the card offers in `P`'s version is used. HTTP+JSON is skipped for
    /// a module without REST routes, but for v0.3, whose HTTP+JSON binding (`/v1/message:send`,
    /// the ProtoJSON of 0.3's proto) the client speaks by translation; [`Binding::Grpc`] for a
    /// build without the `grpc`
    /// feature or a module without its protobuf codec. gRPC is HTTP/2 to the interface's
    /// target: plain text to `host:port` (or `http://host:port`), TLS to `https://host:port`
    /// (verified against the system's roots, or [`ClientBuilder::grpc_root_certificate`]).
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

    /// Trusts `pem` (one or more PEM certificates) as the roots a `https://` gRPC interface's
    /// certificate is verified against, instead of the system's: a private CA, or a test's own
    /// certificate. May be called more than once. (Over JSON-RPC and HTTP+JSON the
    /// [`reqwest::Client`] given to [`ClientBuilder::http_client`] decides.)
    ///
    /// ```no_run
    /// # use a2a_runtime::service::Protocol;
    /// use a2a_runtime::client::Client;
    /// use a2a_runtime::Binding;
    ///
    /// # async fn build<P: Protocol>() -> Result<Client<P>, Box<dyn std::error::Error>> {
    /// // `P` is a generated module's `Protocol`: `a2a_types::v1::Protocol`.
    /// let client = Client::<P>::builder()
    ///     .bindings([Binding::Grpc, Binding::JsonRpc])
    ///     .grpc_root_certificate(std::fs::read("our-ca.pem")?)
    ///     .connect("https://agent.internal")
    ///     .await?;
    /// # Ok(client)
    /// # }
    /// ```
    #[cfg(feature = "grpc")]
    pub fn grpc_root_certificate(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.grpc_roots.push(pem.into());
        self
    }

    /// A reqwest client to send through (its connection pool, proxy and TLS settings), instead
    /// of one this builder makes. Its own timeouts, if it has any, apply besides this builder's.
    /// The one this builder makes reuses a connection idle for at most 4 s, less than the
    /// keep-alive of common servers, so that no request goes out on a connection the server is
    /// closing; give one of your own to keep them longer.
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
        // A connection idle longer than the shortest keep-alive of common servers (uvicorn's
        // and Node's 5 s; ours closes after 60 s) is not reused: a request sent on a connection
        // the server is closing at that moment fails ("connection closed before message
        // completed"), and a POST cannot be retried safely. reqwest keeps them 90 s by default.
        let mut builder = reqwest::Client::builder()
            .user_agent(concat!("a2a-runtime/", env!("CARGO_PKG_VERSION")))
            .pool_idle_timeout(std::time::Duration::from_secs(4));
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
        // A gRPC interface's URL is a target (`host:port`), dialed as it is.
        #[cfg(feature = "grpc")]
        let grpc = match binding {
            Binding::Grpc => Some(
                super::grpc::GrpcTarget::new(
                    &interface.url,
                    self.connect_timeout,
                    &self.grpc_roots,
                )
                .map_err(BuildError::NoInterface)?,
            ),
            _ => None,
        };
        if binding != Binding::Grpc {
            // Against the card's URL, a relative URL resolves and an absolute one stays as it is.
            let url = match base {
                Some(base) => base.join(&interface.url),
                None => reqwest::Url::parse(&interface.url),
            };
            interface.url = url.map_err(|e| bad_url(&interface, e))?.into();
        }
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
                #[cfg(feature = "grpc")]
                grpc,
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
    // gRPC needs this crate's `grpc` feature and a module with its protobuf codec.
    let grpc = cfg!(feature = "grpc") && P::GRPC_CLIENT.is_some();
    let usable: Vec<Binding> = preferred
        .iter()
        .copied()
        // 0.3's HTTP+JSON binding has no routes in the module: it is spoken by translation.
        .filter(|b| P::HTTP_JSON || P::VERSION == ProtocolVersion::V0_3 || *b != Binding::HttpJson)
        .filter(|b| grpc || *b != Binding::Grpc)
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
