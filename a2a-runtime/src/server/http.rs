use super::gate::{self, Gate};
use crate::jsonrpc::server::RawRequest;
use crate::jsonrpc::{codes, RequestId};
use crate::limits::Limits;
use crate::rest::server::{RestRejection, RestResponse};
use crate::service::{Dispatch, EventIds, Outcome, Protocol, RequestContext, ServiceError};
use crate::sse::ServerEvent;
use crate::table::ErrorTable;
use crate::version::{Binding, ProtocolModule, ProtocolVersion};
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use futures_util::{FutureExt as _, StreamExt as _};
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::hash::{Hash as _, Hasher as _};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Where the agent card is served (spec §8.2).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// The content type of JSON-RPC replies (spec §9.1).
const JSONRPC_CONTENT_TYPE: &str = "application/json";

/// The code of `ContentTypeNotSupported` in every A2A error table.
const CONTENT_TYPE_NOT_SUPPORTED: i64 = -32005;

/// The code of `VersionNotSupported` (A2A v1's table; the catch-all keeps it in v0.3's).
const VERSION_NOT_SUPPORTED: i64 = -32009;

/// Why a card cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerError(String);

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServerError {}

/// Builds the [`axum::Router`] that serves an agent: its card, and one service per protocol
/// version over the bindings the card declares. See the [module docs](crate::server).
pub struct AgentRouter {
    card: serde_json::Map<String, Value>,
    endpoints: Vec<Arc<dyn Endpoint>>,
    settings: Settings,
    authenticator: Option<Arc<dyn crate::auth::Authenticator>>,
    #[cfg(feature = "trust")]
    signers: Vec<crate::trust::Signer>,
}

/// What every request handler reads.
#[derive(Clone, Debug)]
pub(super) struct Settings {
    pub(super) limits: Limits,
    keep_alive: Duration,
    card_max_age: Duration,
    /// What the card declares (set when the router is built).
    pub(super) capabilities: super::capability::Capabilities,
}

impl fmt::Debug for AgentRouter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentRouter")
            .field("versions", &self.versions())
            .field("settings", &self.settings)
            .finish()
    }
}

impl AgentRouter {
    /// A router for this agent card (a generated `AgentCard`, or any JSON object in its shape).
    /// Errors when the card is not a JSON object.
    pub fn new(card: &impl serde::Serialize) -> Result<Self, ServerError> {
        let card = match serde_json::to_value(card) {
            Ok(Value::Object(card)) => card,
            Ok(other) => {
                return Err(ServerError(format!(
                    "the agent card must be a JSON object, not {}",
                    crate::body::describe(&other)
                )))
            }
            Err(e) => return Err(ServerError(format!("the agent card does not encode: {e}"))),
        };
        Ok(AgentRouter {
            card,
            endpoints: Vec::new(),
            settings: Settings {
                limits: Limits::DEFAULT,
                keep_alive: Duration::from_secs(15),
                card_max_age: Duration::from_secs(300),
                capabilities: Default::default(),
            },
            authenticator: None,
            #[cfg(feature = "trust")]
            signers: Vec::new(),
        })
    }

    /// Serves `service` (a generated module's `A2aServer<S>`) in its module's protocol version,
    /// replacing one given before for that version.
    pub fn service<D: Dispatch>(mut self, service: D) -> Self {
        let version = <D::Protocol as ProtocolModule>::VERSION;
        self.endpoints.retain(|e| e.version() != version);
        self.endpoints.push(Arc::new(Served(service)));
        self.endpoints
            .sort_by_key(|e| std::cmp::Reverse(e.version()));
        self
    }

    /// Authenticates every JSON-RPC and HTTP+JSON request with `authenticator` before its body
    /// is read (the card stays public): a request it refuses gets `401 Unauthorized` with a
    /// `WWW-Authenticate` challenge for each scheme of the card's `securitySchemes` (see
    /// [`auth::challenges`](crate::auth::challenges)) and a body in the binding's shape
    /// (JSON-RPC: an error response, code [`JSONRPC_ACCESS_DENIED`](super::JSONRPC_ACCESS_DENIED); HTTP+JSON: a
    /// `google.rpc.Status` `UNAUTHENTICATED`); the caller it finds is the service's
    /// [`RequestContext::caller`]. A request naming a tenant its caller may not use gets
    /// `403 Forbidden` (`PERMISSION_DENIED`); one naming none works in the caller's only tenant
    /// ([`Caller::tenant_for`](crate::auth::Caller::tenant_for)).
    ///
    /// Without an authenticator every request is [`Caller::anonymous`](crate::auth::Caller::anonymous),
    /// which may use any tenant: for development only. A tower layer may authenticate instead, by
    /// putting a [`Caller`](crate::auth::Caller) in the request's extensions.
    ///
    /// ```
    /// use a2a_runtime::auth::{Caller, StaticTokens};
    /// use a2a_runtime::server::AgentRouter;
    /// use serde_json::json;
    ///
    /// let card = json!({
    ///     "name": "secured", "version": "1",
    ///     "supportedInterfaces": [
    ///         {"url": "http://127.0.0.1:9999", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ///     ],
    ///     "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    ///     "securityRequirements": [{"schemes": {"bearer": {"list": []}}}]
    /// });
    /// let router = AgentRouter::new(&card)
    ///     .unwrap()
    ///     .authenticate(StaticTokens::new().bearer("t0k3n", Caller::new("alice")));
    /// # let _ = router;
    /// ```
    pub fn authenticate(mut self, authenticator: impl crate::auth::Authenticator) -> Self {
        self.authenticator = Some(Arc::new(authenticator));
        self
    }

    /// The largest request body and the deepest nesting taken (default [`Limits::DEFAULT`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.settings.limits = limits;
        self
    }

    /// The pause after which an idle stream gets a keep-alive comment (default 15 s).
    pub fn keep_alive(mut self, interval: Duration) -> Self {
        self.settings.keep_alive = interval;
        self
    }

    /// The card's `Cache-Control: max-age` (default 300 s).
    pub fn card_max_age(mut self, max_age: Duration) -> Self {
        self.settings.card_max_age = max_age;
        self
    }

    /// Serves the card signed by `signer` (feature `trust`): the card as served (v0.3's
    /// members included, when a v0.3 service is served) is signed once, when the router is
    /// built, and the signature appended to its `signatures`. Call it again to add a signature
    /// per key, or per form: a2a-sdk 1.3.0's verifier checks only its own form
    /// ([`CardForm::CleanEmpty`](crate::trust::CardForm::CleanEmpty)), and drops the members it
    /// does not know (v0.3's among them) before it verifies.
    ///
    /// ```no_run
    /// use a2a_runtime::server::AgentRouter;
    /// use a2a_runtime::trust::{Algorithm, Signer, SigningKey};
    ///
    /// # fn build(card: serde_json::Value, pem: &str) -> Result<(), Box<dyn std::error::Error>> {
    /// let key = SigningKey::from_pem(Algorithm::ES256, pem)?;
    /// let router = AgentRouter::new(&card)?
    ///     .sign_card(Signer::new(key, "key-1").jku("https://agent.example.com/.well-known/jwks.json"));
    /// // .service(A2aServer::new(agent)).into_router()?
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "trust")]
    pub fn sign_card(mut self, signer: crate::trust::Signer) -> Self {
        self.signers.push(signer);
        self
    }

    /// The card as served, with the signatures of [`Self::sign_card`] (feature `trust`; an
    /// error when the card cannot be signed).
    #[cfg(feature = "trust")]
    pub fn signed_card(&self) -> Result<Value, ServerError> {
        let mut card = self.served_card();
        for signer in &self.signers {
            card = signer
                .signed(&card)
                .map_err(|e| ServerError(e.to_string()))?;
        }
        Ok(card)
    }

    /// The protocol versions served, newest first.
    pub fn versions(&self) -> Vec<ProtocolVersion> {
        self.endpoints.iter().map(|e| e.version()).collect()
    }

    /// The card as served: the card given, with v0.3's members beside v1's when a v0.3 service
    /// is served (members the card already has are kept).
    pub fn served_card(&self) -> Value {
        let mut card = self.card.clone();
        if self.versions().contains(&ProtocolVersion::V0_3) {
            add_v0_3_members(&mut card);
        }
        Value::Object(card)
    }

    /// The router. Errors when no service is given, or when the card's `supportedInterfaces`
    /// declare no JSON-RPC or HTTP+JSON interface with a URL.
    pub fn into_router(self) -> Result<axum::Router, ServerError> {
        if self.endpoints.is_empty() {
            return Err(ServerError(
                "no service to serve: add one with AgentRouter::service(A2aServer::new(agent))"
                    .into(),
            ));
        }
        // Every interface the card offers, in either version's shape, that binds JSON-RPC or
        // HTTP+JSON, by its path.
        let interfaces: Vec<(Binding, String)> = crate::version::interfaces(&self.card)
            .into_iter()
            .map(|i| (i.binding, url_path(&i.url)))
            .collect();
        if interfaces.is_empty() {
            return Err(ServerError(
                "the agent card declares no interface this server serves: add a \
                 `supportedInterfaces` entry with `protocolBinding` JSONRPC or HTTP+JSON and a url"
                    .into(),
            ));
        }
        #[cfg(feature = "trust")]
        let card = CardDoc::new(&self.signed_card()?);
        #[cfg(not(feature = "trust"))]
        let card = CardDoc::new(&self.served_card());
        let mut settings = self.settings;
        settings.capabilities = super::capability::Capabilities::of(&self.card);
        let gate = Gate::new(self.authenticator, &Value::Object(self.card));
        let shared = Arc::new(Shared {
            endpoints: self.endpoints,
            settings,
            card,
            gate,
        });
        let mut router = axum::Router::new();
        let card_shared = Arc::clone(&shared);
        router = router.route(
            AGENT_CARD_PATH,
            get(move |headers: HeaderMap| {
                let shared = Arc::clone(&card_shared);
                async move { shared.card.response(&headers, shared.settings.card_max_age) }
            }),
        );
        let grpc_declared = interfaces.iter().any(|(b, _)| *b == Binding::Grpc);
        if grpc_declared {
            router = grpc_route(router, &shared)?;
        }
        let mut jsonrpc_paths: Vec<String> = Vec::new();
        let mut rest_bases: Vec<String> = Vec::new();
        for (binding, path) in interfaces {
            match binding {
                Binding::JsonRpc if !jsonrpc_paths.contains(&path) => jsonrpc_paths.push(path),
                Binding::HttpJson if !rest_bases.contains(&path) => rest_bases.push(path),
                _ => {}
            }
        }
        for path in jsonrpc_paths {
            let shared = Arc::clone(&shared);
            router = router.route(
                &path,
                post(move |request: Request| {
                    let shared = Arc::clone(&shared);
                    async move { shared.jsonrpc(request).await }
                }),
            );
        }
        for base in rest_bases {
            let pattern = match base.as_str() {
                "/" => "/{*rest}".to_owned(),
                _ => format!("{base}/{{*rest}}"),
            };
            let prefix = match base.as_str() {
                "/" => String::new(),
                _ => base.clone(),
            };
            let shared = Arc::clone(&shared);
            router = router.route(
                &pattern,
                any(move |request: Request| {
                    let shared = Arc::clone(&shared);
                    let prefix = prefix.clone();
                    async move { shared.rest(request, &prefix).await }
                }),
            );
        }
        Ok(router)
    }
}

/// The router with the gRPC service's route (`/lf.a2a.v1.A2AService/{rpc}`), for a card that
/// declares a `GRPC` interface; an error when no service can serve it.
#[cfg(feature = "grpc")]
fn grpc_route(router: axum::Router, shared: &Arc<Shared>) -> Result<axum::Router, ServerError> {
    if !shared.endpoints.iter().any(|e| e.grpc()) {
        return Err(ServerError(
            "the agent card declares a GRPC interface, but no service given has the gRPC codec: \
             serve a module generated with its protobuf codec (a2a-types' feature `protobuf`)"
                .into(),
        ));
    }
    let shared = Arc::clone(shared);
    let path = format!("{}{{rpc}}", super::grpc::GRPC_SERVICE_PREFIX);
    Ok(router.route(
        &path,
        any(move |request: Request| {
            let shared = Arc::clone(&shared);
            async move { shared.grpc(request).await }
        }),
    ))
}

/// A card that declares a `GRPC` interface cannot be served without the `grpc` feature.
#[cfg(not(feature = "grpc"))]
fn grpc_route(_: axum::Router, _: &Arc<Shared>) -> Result<axum::Router, ServerError> {
    Err(ServerError(
        "the agent card declares a GRPC interface, which this build does not serve: turn on \
         a2a-runtime's feature `grpc` (a2a-agent's `grpc`)"
            .into(),
    ))
}

/// The served card, encoded once, with its validators.
struct CardDoc {
    body: Bytes,
    etag: HeaderValue,
    last_modified: HeaderValue,
}

impl CardDoc {
    fn new(card: &Value) -> Self {
        let body = Bytes::from(serde_json::to_vec(card).unwrap_or_else(|_| b"{}".to_vec()));
        // A strong validator of the bytes: std's SipHash with its fixed keys is deterministic
        // across runs and machines, which is all an ETag needs (no crate does more here).
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        body.hash(&mut hasher);
        let etag = HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
            .unwrap_or_else(|_| HeaderValue::from_static("\"card\""));
        let last_modified = HeaderValue::from_str(&httpdate::fmt_http_date(SystemTime::now()))
            .unwrap_or_else(|_| HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT"));
        CardDoc {
            body,
            etag,
            last_modified,
        }
    }

    fn response(&self, headers: &HeaderMap, max_age: Duration) -> Response {
        let cache = HeaderValue::from_str(&format!("public, max-age={}", max_age.as_secs()))
            .unwrap_or_else(|_| HeaderValue::from_static("public, max-age=300"));
        let matches = headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.trim_start_matches("W/") == self.etag.to_str().unwrap_or("")
            });
        let mut response = if matches {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let mut response = Response::new(Body::from(self.body.clone()));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(JSONRPC_CONTENT_TYPE),
            );
            response
        };
        let out = response.headers_mut();
        out.insert(header::CACHE_CONTROL, cache);
        out.insert(header::ETAG, self.etag.clone());
        out.insert(header::LAST_MODIFIED, self.last_modified.clone());
        response
    }
}

/// The path of an absolute URL (`http://host:port/a2a` -> `/a2a`), `/` when it has none; a
/// trailing slash is dropped but for the root. A relative URL is taken as a path.
fn url_path(url: &str) -> String {
    let after_scheme = match url.find("://") {
        Some(i) => &url[i + 3..],
        None => return normalize_path(url),
    };
    let path = match after_scheme.find('/') {
        Some(i) => &after_scheme[i..],
        None => "/",
    };
    normalize_path(path)
}

fn normalize_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_owned()
    } else if trimmed.starts_with('/') {
        trimmed.to_owned()
    } else {
        format!("/{trimmed}")
    }
}

/// v0.3's card members from v1's, for a card served in both versions' shapes, as a2a-sdk serves
/// it: for each JSON-RPC and HTTP+JSON interface (the bindings 0.3 is served on: JSON-RPC by the
/// v0.3 module, HTTP+JSON by translation onto it) a `protocolVersion` 0.3 twin in
/// `supportedInterfaces`, after the v1 ones (a v1 client that picks by version finds it; one that
/// picks the first keeps speaking v1); `url` and `preferredTransport` from the first JSON-RPC
/// interface (else the first HTTP+JSON one), `additionalInterfaces` listing every one of them
/// (JSON-RPC first), `protocolVersion` 0.3, and `supportsAuthenticatedExtendedCard` from
/// `capabilities.extendedAgentCard`. Members the card already has are kept.
fn add_v0_3_members(card: &mut serde_json::Map<String, Value>) {
    let of = |binding: Binding| -> Vec<(String, Option<Value>)> {
        match card.get("supportedInterfaces") {
            Some(Value::Array(list)) => list
                .iter()
                .filter(|i| {
                    i.get("protocolBinding")
                        .and_then(Value::as_str)
                        .is_some_and(|b| b.eq_ignore_ascii_case(binding.name()))
                })
                .filter_map(|i| {
                    Some((i.get("url")?.as_str()?.to_owned(), i.get("tenant").cloned()))
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut served: Vec<(Binding, String, Option<Value>)> = Vec::new();
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        for (url, tenant) in of(binding) {
            if !served.iter().any(|(b, u, _)| *b == binding && *u == url) {
                served.push((binding, url, tenant));
            }
        }
    }
    if let Some(Value::Array(list)) = card.get_mut("supportedInterfaces") {
        let speaks_0_3 = |i: &Value, binding: Binding, url: &str| {
            i.get("url").and_then(Value::as_str) == Some(url)
                && i.get("protocolBinding")
                    .and_then(Value::as_str)
                    .is_some_and(|b| b.eq_ignore_ascii_case(binding.name()))
                && i.get("protocolVersion")
                    .and_then(Value::as_str)
                    .is_some_and(|v| ProtocolVersion::parse(v) == Ok(ProtocolVersion::V0_3))
        };
        for (binding, url, tenant) in &served {
            if !list.iter().any(|i| speaks_0_3(i, *binding, url)) {
                let mut twin = serde_json::json!({
                    "url": url, "protocolBinding": binding.name(), "protocolVersion": "0.3"
                });
                if let (Some(tenant), Value::Object(twin)) = (tenant, &mut twin) {
                    twin.insert("tenant".into(), tenant.clone());
                }
                list.push(twin);
            }
        }
    }
    if let Some((binding, url, _)) = served.first() {
        card.entry("url").or_insert(Value::String(url.clone()));
        card.entry("preferredTransport")
            .or_insert(Value::String(binding.name().into()));
        let additional: Vec<Value> = served
            .iter()
            .map(|(binding, url, _)| serde_json::json!({"url": url, "transport": binding.name()}))
            .collect();
        card.entry("additionalInterfaces")
            .or_insert(Value::Array(additional));
    }
    card.entry("protocolVersion")
        .or_insert(Value::String("0.3.0".into()));
    let extended = card
        .get("capabilities")
        .and_then(|c| c.get("extendedAgentCard"))
        .and_then(Value::as_bool);
    if let Some(extended) = extended {
        card.entry("supportsAuthenticatedExtendedCard")
            .or_insert(Value::Bool(extended));
    }
}

/// What the handlers share.
struct Shared {
    /// Newest version first.
    endpoints: Vec<Arc<dyn Endpoint>>,
    settings: Settings,
    card: CardDoc,
    gate: Gate,
}

/// The version a request asks for: the `A2A-Version` header, else the query parameter, else
/// none (which means 0.3).
fn requested_version<'a>(headers: &'a HeaderMap, query: &str) -> std::borrow::Cow<'a, str> {
    if let Some(v) = headers
        .get(ProtocolVersion::HEADER)
        .and_then(|v| v.to_str().ok())
    {
        return std::borrow::Cow::Borrowed(v);
    }
    if query.is_empty() {
        return std::borrow::Cow::Borrowed("");
    }
    std::borrow::Cow::Owned(
        crate::rest::parse_query(query)
            .into_iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(ProtocolVersion::HEADER))
            .map(|(_, v)| v)
            .unwrap_or_default(),
    )
}

/// Whether the request's `Content-Type` (when it sends one) names JSON: `application/json`,
/// `application/a2a+json`, or any other `application/*+json`, parameters aside.
fn is_json_content(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return true;
    };
    let Ok(value) = value.to_str() else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case("json")
            || subtype.len().checked_sub(5).is_some_and(|i| {
                subtype.is_char_boundary(i) && subtype[i..].eq_ignore_ascii_case("+json")
            }))
}

impl Shared {
    /// The endpoint for a version string, or the refusal text (made only on refusal: this runs
    /// for every request).
    fn endpoint_for(&self, value: &str) -> Result<&Arc<dyn Endpoint>, String> {
        let parsed = ProtocolVersion::parse(value);
        if let Ok(version) = parsed {
            if let Some(endpoint) = self.endpoints.iter().find(|e| e.version() == version) {
                return Ok(endpoint);
            }
        }
        let served: Vec<&str> = self
            .endpoints
            .iter()
            .map(|e| e.version().as_str())
            .collect();
        let served = served.join(" and ");
        Err(match parsed {
            Ok(_) if value.trim().is_empty() => format!(
                "a request without {} is A2A 0.3, which this agent does not serve (it serves \
                 {served}): send `{}: {}`",
                ProtocolVersion::HEADER,
                ProtocolVersion::HEADER,
                self.endpoints[0].version()
            ),
            Ok(_) => format!("A2A {value} is not served here (this agent serves {served})"),
            Err(_) => {
                format!("A2A version {value:?} is not supported (this agent serves {served})")
            }
        })
    }

    /// The service of 0.3's module, when a request of this version at this path (under an
    /// HTTP+JSON base) is A2A 0.3's HTTP+JSON binding: the version is 0.3 (a request without
    /// `A2A-Version` is), such a service is served, and the path is under 0.3's `/v1/`.
    fn rest_v0_3_endpoint(&self, version: &str, path: &str) -> Option<&Arc<dyn Endpoint>> {
        if !path.starts_with("/v1/") || ProtocolVersion::parse(version) != Ok(ProtocolVersion::V0_3)
        {
            return None;
        }
        self.endpoints
            .iter()
            .find(|e| e.version() == ProtocolVersion::V0_3)
    }

    /// [`Shared::endpoint_for`] among the endpoints that `serves` a binding, or the refusal text
    /// (a version served, but not over this binding: send `newest`'s).
    fn endpoint_serving(
        &self,
        value: &str,
        newest: &Arc<dyn Endpoint>,
        binding: &str,
        serves: impl Fn(&dyn Endpoint) -> bool,
    ) -> Result<&Arc<dyn Endpoint>, String> {
        let endpoint = self.endpoint_for(value)?;
        if serves(endpoint.as_ref()) {
            return Ok(endpoint);
        }
        Err(format!(
            "A2A {} has no {binding} binding here: send `{}: {}`",
            endpoint.version(),
            ProtocolVersion::HEADER,
            newest.version()
        ))
    }

    async fn jsonrpc(self: Arc<Self>, request: Request) -> Response {
        let (mut parts, body) = request.into_parts();
        if let Err(refused) = self.gate.admit(&mut parts, Binding::JsonRpc).await {
            return refused;
        }
        let version = requested_version(&parts.headers, parts.uri.query().unwrap_or(""));
        let limits = &self.settings.limits;
        let body = match read_body(body, limits).await {
            Ok(body) => body,
            Err(message) => {
                return self.endpoints[0].jsonrpc_error(
                    RequestId::Null,
                    codes::INVALID_REQUEST,
                    message,
                )
            }
        };
        let endpoint = match self.endpoint_for(&version) {
            Ok(endpoint) => endpoint,
            Err(message) => {
                return self.endpoints[0].jsonrpc_error(
                    request_id(&body),
                    VERSION_NOT_SUPPORTED,
                    message,
                )
            }
        };
        if !is_json_content(&parts.headers) {
            let message = format!(
                "a JSON-RPC request is sent as {JSONRPC_CONTENT_TYPE}, not {}",
                content_type_of(&parts.headers)
            );
            return endpoint.jsonrpc_error(request_id(&body), CONTENT_TYPE_NOT_SUPPORTED, message);
        }
        endpoint.jsonrpc(parts, body, &self.settings).await
    }

    /// A gRPC call: refused when it is not gRPC over HTTP/2 or its caller is not admitted; its
    /// `a2a-version` metadata picks the service (none: the newest with a gRPC codec).
    #[cfg(feature = "grpc")]
    async fn grpc(self: Arc<Self>, request: Request) -> Response {
        use super::grpc;
        let (mut parts, body) = request.into_parts();
        if let Some(refused) = grpc::refuse_transport(&parts) {
            return refused;
        }
        if let Err(refused) = self.gate.admit(&mut parts, Binding::Grpc).await {
            return refused;
        }
        let path = parts.uri.path();
        let method = path
            .strip_prefix(grpc::GRPC_SERVICE_PREFIX)
            .unwrap_or(path)
            .to_owned();
        let version = parts
            .headers
            .get(ProtocolVersion::HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .trim()
            .to_owned();
        // Some: `into_router` mounts the route only when a service has the codec.
        let Some(newest) = self.endpoints.iter().find(|e| e.grpc()) else {
            return grpc::status_response(grpc::refusal(tonic::Code::Unimplemented, "no gRPC"));
        };
        let endpoint = match version.as_str() {
            "" => newest,
            _ => match self.endpoint_serving(&version, newest, "gRPC", |e| e.grpc()) {
                Ok(endpoint) => endpoint,
                Err(message) => {
                    return grpc::status_response(newest.grpc_error(VERSION_NOT_SUPPORTED, message))
                }
            },
        };
        let call = grpc::Call {
            endpoint: Arc::clone(endpoint),
            method,
            settings: self.settings.clone(),
        };
        let request = axum::http::Request::from_parts(parts, body);
        tonic::server::Grpc::new(crate::grpc::Raw)
            .max_decoding_message_size(self.settings.limits.max_body_bytes())
            .server_streaming(call, request)
            .await
            .map(Body::new)
    }

    async fn rest(self: Arc<Self>, request: Request, prefix: &str) -> Response {
        let (mut parts, body) = request.into_parts();
        if let Err(refused) = self.gate.admit(&mut parts, Binding::HttpJson).await {
            return refused;
        }
        let query = parts.uri.query().unwrap_or("").to_owned();
        let path = parts.uri.path();
        let path = path.strip_prefix(prefix).unwrap_or(path).to_owned();
        let version = requested_version(&parts.headers, &query);
        // A2A 0.3's own HTTP+JSON binding (`/v1/...`), for a service of 0.3's module: when no
        // service with HTTP+JSON routes serves the request's version (0.3 has none of its own).
        let newest = self.endpoints.iter().find(|e| e.http_json());
        let serving =
            newest.map(|n| self.endpoint_serving(&version, n, "HTTP+JSON", |e| e.http_json()));
        let legacy = match serving {
            Some(Ok(_)) => None,
            _ => self.rest_v0_3_endpoint(&version, &path),
        };
        let Some(first) = legacy.or(newest) else {
            return plain(
                StatusCode::NOT_FOUND,
                "this agent serves no HTTP+JSON routes",
            );
        };
        let body = match read_body(body, &self.settings.limits).await {
            Ok(body) => body,
            Err(message) => return first.rest_error(413, codes::INVALID_REQUEST, message),
        };
        if let Some(legacy) = legacy {
            return legacy
                .rest_v0_3(parts, path, query, body, &self.settings)
                .await;
        }
        let endpoint = match serving {
            Some(Ok(endpoint)) => endpoint,
            Some(Err(message)) => return first.rest_error(400, VERSION_NOT_SUPPORTED, message),
            // No service has HTTP+JSON routes (then the request was 0.3's, answered above).
            None => {
                return plain(
                    StatusCode::NOT_FOUND,
                    "this agent serves no HTTP+JSON routes",
                )
            }
        };
        if !body.is_empty() && !is_json_content(&parts.headers) {
            let message = format!(
                "an HTTP+JSON request body is sent as {}, not {}",
                crate::rest::CONTENT_TYPE,
                content_type_of(&parts.headers)
            );
            return endpoint.rest_error(415, CONTENT_TYPE_NOT_SUPPORTED, message);
        }
        endpoint
            .rest(parts, path, query, body, &self.settings)
            .await
    }
}

fn content_type_of(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .map(|v| format!("{:?}", String::from_utf8_lossy(v.as_bytes())))
        .unwrap_or_else(|| "no Content-Type".to_owned())
}

/// The request id to answer a refused request with: the body's, when its envelope reads.
fn request_id(body: &[u8]) -> RequestId {
    match RawRequest::parse(body) {
        Ok(raw) => raw.response_id(),
        Err(fault) => fault.id,
    }
}

/// The whole body, or why not: over the limit.
async fn read_body(body: Body, limits: &Limits) -> Result<Bytes, String> {
    let max = limits.max_body_bytes();
    match axum::body::to_bytes(body, max).await {
        Ok(bytes) => Ok(bytes),
        Err(e) => Err(format!(
            "the request body could not be read within the limit of {max} bytes ({e})"
        )),
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

fn json_response(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn rest_response(reply: RestResponse) -> Response {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = json_response(status, reply.content_type, reply.body);
    if let Some(seconds) = reply.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// One version's service, its types erased for the router.
pub(super) trait Endpoint: Send + Sync + 'static {
    fn version(&self) -> ProtocolVersion;
    fn http_json(&self) -> bool;
    fn jsonrpc_error(&self, id: RequestId, code: i64, message: String) -> Response;
    fn rest_error(&self, status: u16, code: i64, message: String) -> Response;
    fn jsonrpc(
        &self,
        parts: axum::http::request::Parts,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>>;
    fn rest(
        &self,
        parts: axum::http::request::Parts,
        path: String,
        query: String,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>>;
    /// A2A 0.3's HTTP+JSON binding: the request translated onto the module's JSON-RPC method
    /// (`rest_v0_3`), its result written back in 0.3's REST shape.
    fn rest_v0_3(
        &self,
        parts: axum::http::request::Parts,
        path: String,
        query: String,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>>;
    /// Whether the module has the gRPC codec.
    #[cfg(feature = "grpc")]
    fn grpc(&self) -> bool;
    #[cfg(feature = "grpc")]
    fn grpc_call(
        &self,
        method: &str,
        request: tonic::Request<Bytes>,
        settings: &Settings,
    ) -> super::grpc::CallFuture;
    /// The table's error for `code` as a gRPC status.
    #[cfg(feature = "grpc")]
    fn grpc_error(&self, code: i64, message: String) -> tonic::Status;
}

pub(super) struct Served<D>(D);

type ErrorOf<D> = <<D as Dispatch>::Protocol as ProtocolModule>::Error;

impl<D: Dispatch> Served<D> {
    /// The call's context: its caller (see [`Gate::admit`]) and the tenant it works in, bound
    /// to that caller (`Err`: one it may not use).
    pub(super) fn context(
        mut parts: axum::http::request::Parts,
        binding: Binding,
        request: &<D::Protocol as Protocol>::Request,
    ) -> Result<RequestContext, crate::auth::TenantRefused> {
        let caller = gate::caller_of(&mut parts);
        let mut cx = RequestContext::new(
            <D::Protocol as ProtocolModule>::VERSION,
            binding,
            <D::Protocol as Protocol>::method_name(request),
        );
        cx.tenant = caller.tenant_for(<D::Protocol as Protocol>::tenant(request))?;
        cx.caller = caller;
        cx.requested_extensions = RequestContext::extensions_of(&parts.headers);
        cx.headers = parts.headers;
        cx.extensions = parts.extensions;
        Ok(cx)
    }

    /// Calls the service, a panic in it answered as an internal error. The future owns what it
    /// needs (the service's future is `'static`).
    #[allow(clippy::type_complexity)]
    pub(super) fn call(
        service: &D,
        cx: RequestContext,
        request: <D::Protocol as Protocol>::Request,
        settings: &Settings,
    ) -> impl Future<
        Output = Result<
            Outcome<<D::Protocol as Protocol>::Reply, ErrorOf<D>>,
            ServiceError<ErrorOf<D>>,
        >,
    > + Send
           + 'static {
        let method = cx.method;
        let failed =
            move || ServiceError::internal(format!("the agent failed while serving {method}"));
        // A capability the card does not declare (spec §3.3.4): refused before the service runs.
        let started = match settings.capabilities.refusal::<ErrorOf<D>>(&cx) {
            Some(refused) => Err(Some(refused)),
            None => std::panic::catch_unwind(AssertUnwindSafe(|| service.dispatch(cx, request)))
                .map_err(|_| None),
        };
        async move {
            match started {
                Ok(future) => match AssertUnwindSafe(future).catch_unwind().await {
                    Ok(outcome) => outcome,
                    Err(_) => Err(failed()),
                },
                Err(Some(refused)) => Err(refused),
                Err(None) => Err(failed()),
            }
        }
    }
}

/// A stream's items, a panic while polling it ending it with an internal error.
pub(super) fn guarded<R: Send + 'static, A: ErrorTable + Send + 'static>(
    stream: crate::service::EventStream<R, A>,
    method: &'static str,
) -> impl futures_core::Stream<Item = Result<R, ServiceError<A>>> + Send {
    // Counted as a live stream (with `otel`) until the response drops it.
    let live = crate::telemetry::stream_opened(method);
    AssertUnwindSafe(stream).catch_unwind().map(move |item| {
        let _counted = &live;
        match item {
            Ok(item) => item,
            Err(_) => Err(ServiceError::internal(
                "the agent failed while streaming".to_owned(),
            )),
        }
    })
}

/// The items of `stream` up to and including its first error.
pub(super) fn until_error<T: Send + 'static, E: Send + 'static>(
    stream: impl futures_core::Stream<Item = Result<T, E>> + Send + 'static,
) -> impl futures_core::Stream<Item = Result<T, E>> + Send {
    stream
        .scan(false, |failed, item| {
            let out = match *failed {
                true => None,
                false => {
                    *failed = item.is_err();
                    Some(item)
                }
            };
            std::future::ready(out)
        })
        .fuse()
}

/// An event as the runtime's encoders wrote it, for axum's SSE body, with the `id` its stream
/// gave it (a number: nothing axum's checks refuse).
fn axum_event(event: ServerEvent, ids: Option<&EventIds>) -> Event {
    let mut framed = Event::default().data(event.data);
    if let Some(id) = ids.and_then(EventIds::take) {
        framed = framed.id(id.to_string());
    }
    match event.event {
        Some(name) => framed.event(name),
        None => framed,
    }
}

/// Whether `method` (a wire name of either version) answers with a stream.
pub(super) fn is_streaming(method: &str) -> bool {
    matches!(
        method,
        "SendStreamingMessage" | "SubscribeToTask" | "message/stream" | "tasks/resubscribe"
    )
}

/// The ids of a streaming call's events: put in its context for the service to give.
fn event_ids(cx: &mut RequestContext) -> Option<EventIds> {
    // Only streams have events (and unary calls pay nothing for them).
    is_streaming(cx.method).then(|| {
        let ids = EventIds::default();
        cx.extensions.insert(ids.clone());
        ids
    })
}

fn sse_response(
    events: impl futures_core::Stream<Item = Event> + Send + 'static,
    keep_alive: Duration,
) -> Response {
    let events = events.map(Ok::<_, std::convert::Infallible>);
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(keep_alive))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

impl<D: Dispatch> Endpoint for Served<D> {
    fn version(&self) -> ProtocolVersion {
        <D::Protocol as ProtocolModule>::VERSION
    }

    fn http_json(&self) -> bool {
        <D::Protocol as ProtocolModule>::HTTP_JSON
    }

    #[cfg(feature = "grpc")]
    fn grpc(&self) -> bool {
        <D::Protocol as Protocol>::GRPC.is_some()
    }

    #[cfg(feature = "grpc")]
    fn grpc_call(
        &self,
        method: &str,
        request: tonic::Request<Bytes>,
        settings: &Settings,
    ) -> super::grpc::CallFuture {
        super::grpc::call(&self.0, method, request, settings)
    }

    #[cfg(feature = "grpc")]
    fn grpc_error(&self, code: i64, message: String) -> tonic::Status {
        let error = ServiceError::<ErrorOf<D>>::from_code(
            code,
            message,
            std::iter::empty::<(String, String)>(),
        );
        super::grpc::status_of(&error)
    }

    fn jsonrpc_error(&self, id: RequestId, code: i64, message: String) -> Response {
        let error = ServiceError::<ErrorOf<D>>::from_code(
            code,
            message,
            std::iter::empty::<(String, String)>(),
        );
        json_response(
            StatusCode::OK,
            JSONRPC_CONTENT_TYPE,
            crate::jsonrpc::server::encode_error(&id, error.error()),
        )
    }

    fn rest_error(&self, status: u16, code: i64, message: String) -> Response {
        let error = ServiceError::<ErrorOf<D>>::from_code(
            code,
            message,
            std::iter::empty::<(String, String)>(),
        );
        let mut reply = error.rest_response();
        reply.status = status;
        rest_response(reply)
    }

    fn jsonrpc(
        &self,
        parts: axum::http::request::Parts,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>> {
        let decoded = <D::Protocol as Protocol>::decode_jsonrpc(&body, &settings.limits);
        let incoming = match decoded {
            Ok(incoming) => incoming,
            Err(rejected) => {
                let response = match rejected.response() {
                    Some(body) => json_response(StatusCode::OK, JSONRPC_CONTENT_TYPE, body),
                    None => StatusCode::NO_CONTENT.into_response(),
                };
                return Box::pin(std::future::ready(response));
            }
        };
        if incoming.is_notification() {
            // JSON-RPC 2.0: a notification gets no response; A2A defines none, so nothing runs.
            return Box::pin(std::future::ready(StatusCode::NO_CONTENT.into_response()));
        }
        let id = incoming.response_id();
        let mut cx = match Self::context(parts, Binding::JsonRpc, &incoming.request) {
            Ok(cx) => cx,
            Err(refused) => {
                let id = serde_json::to_value(&id).unwrap_or(Value::Null);
                let response = gate::tenant_refused(&refused, Binding::JsonRpc, id);
                return Box::pin(std::future::ready(response));
            }
        };
        let keep_alive = settings.keep_alive;
        let ids = event_ids(&mut cx);
        // A 0.3 client (a2a-sdk 0.3's) reads a streaming call's reply as SSE only: a stream
        // refused before it begins is one event carrying the error. 1.0 clients get one JSON reply.
        let refused_as_event = ids.is_some() && cx.version == ProtocolVersion::V0_3;
        let trace = Trace::start(&cx);
        let future = trace.instrument(Self::call(&self.0, cx, incoming.request, settings));
        Box::pin(async move {
            let outcome = future.await;
            trace.end(outcome.as_ref().err().map(|e| e.error().code()));
            match outcome {
                Ok(Outcome::Unary(reply)) => json_response(
                    StatusCode::OK,
                    JSONRPC_CONTENT_TYPE,
                    crate::jsonrpc::server::encode_result(&id, &reply),
                ),
                Err(error) if refused_as_event => {
                    let event =
                        crate::jsonrpc::server::encode_event::<Value, _>(&id, Err(error.error()));
                    let event = axum_event(event, None);
                    sse_response(futures_util::stream::iter([event]), keep_alive)
                }
                Ok(Outcome::Stream(stream)) => {
                    let events = until_error(guarded(stream, trace.method)).map(move |item| {
                        let item = item.as_ref().map_err(ServiceError::error);
                        let event = crate::jsonrpc::server::encode_event(&id, item);
                        axum_event(event, ids.as_ref())
                    });
                    sse_response(events, keep_alive)
                }
                Err(error) => json_response(
                    StatusCode::OK,
                    JSONRPC_CONTENT_TYPE,
                    crate::jsonrpc::server::encode_error(&id, error.error()),
                ),
            }
        })
    }

    fn rest_v0_3(
        &self,
        parts: axum::http::request::Parts,
        path: String,
        query: String,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>> {
        let refuse = |error: ServiceError<ErrorOf<D>>, status: Option<u16>| {
            let mut reply = v0_3_error(&error);
            reply.status = status.unwrap_or(reply.status);
            Box::pin(std::future::ready(rest_response(reply)))
                as Pin<Box<dyn Future<Output = Response> + Send>>
        };
        let from_code = |code: i64, message: String| {
            ServiceError::from_code(code, message, std::iter::empty::<(String, String)>())
        };
        if !body.is_empty() && !is_json_content(&parts.headers) {
            let message = format!(
                "an HTTP+JSON request body is sent as application/json, not {}",
                content_type_of(&parts.headers)
            );
            return refuse(from_code(CONTENT_TYPE_NOT_SUPPORTED, message), Some(415));
        }
        let verb = parts.method.as_str();
        let call = match crate::rest::v0_3::route(verb, &path, &query, &body) {
            Ok(call) => call,
            // 404 or 405, as 1.0's binding answers a path it has not got.
            Err(refused) => match refused.no_route {
                Some(known) => {
                    let rejection = RestRejection::<ErrorOf<D>>::no_route(verb, &path, known);
                    let mut reply = rejection.response();
                    reply.body = v0_3_body(reply.body, &rejection.error, true);
                    return Box::pin(std::future::ready(rest_response(reply)));
                }
                None => return refuse(from_code(refused.code, refused.message), None),
            },
        };
        // The same request as over JSON-RPC, decoded (and checked) by the module's own decoder.
        let envelope = serde_json::json!({
            "jsonrpc": "2.0", "id": 0, "method": call.method, "params": call.params,
        });
        let envelope = serde_json::to_vec(&envelope).unwrap_or_default();
        let incoming = match <D::Protocol as Protocol>::decode_jsonrpc(&envelope, &settings.limits)
        {
            Ok(incoming) => incoming,
            // Its error as the JSON-RPC binding would answer it (its BadRequest detail kept).
            Err(rejected) => return refuse(ServiceError::Standard(rejected.error), None),
        };
        let method = call.method;
        let shape = RestShape {
            unary: move |reply: &ReplyOf<D>| {
                let value = serde_json::to_value(reply).unwrap_or_default();
                let body = crate::rest::v0_3::result(method, value).to_string();
                json_response(StatusCode::OK, "application/json", body.into_bytes())
            },
            event: |reply: &ReplyOf<D>| {
                let value = serde_json::to_value(reply).unwrap_or_default();
                ServerEvent::json(
                    None,
                    crate::rest::v0_3::event(value).to_string().into_bytes(),
                )
            },
            error: v0_3_error,
        };
        self.rest_call(parts, incoming.request, settings, shape)
    }

    fn rest(
        &self,
        parts: axum::http::request::Parts,
        path: String,
        query: String,
        body: Bytes,
        settings: &Settings,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>> {
        let verb = parts.method.clone();
        let decoded = <D::Protocol as Protocol>::decode_rest(verb.as_str(), &path, &query, &body);
        let request = match decoded {
            Ok(request) => request,
            Err(rejected) => {
                return Box::pin(std::future::ready(rest_response(rejected.response())));
            }
        };
        let shape = RestShape {
            unary: |reply: &ReplyOf<D>| {
                rest_response(crate::rest::server::encode_rest_result(reply))
            },
            event: |reply: &ReplyOf<D>| {
                crate::rest::server::encode_rest_event::<_, ErrorOf<D>>(Ok(reply))
            },
            // A custom error keeps the Status its agent wrote.
            error: ServiceError::rest_response,
        };
        self.rest_call(parts, request, settings, shape)
    }
}

/// How an HTTP+JSON call's outcome is written: a result, a stream's item, an error's reply
/// (1.0's shapes, or 0.3's).
struct RestShape<U, V, E> {
    unary: U,
    event: V,
    error: fn(&ServiceError<E>) -> RestResponse,
}

type ReplyOf<D> = <<D as Dispatch>::Protocol as Protocol>::Reply;

impl<D: Dispatch> Served<D> {
    /// Runs an HTTP+JSON call (of either version's binding) and answers it in `shape`.
    fn rest_call<U, V>(
        &self,
        parts: axum::http::request::Parts,
        request: <D::Protocol as Protocol>::Request,
        settings: &Settings,
        shape: RestShape<U, V, ErrorOf<D>>,
    ) -> Pin<Box<dyn Future<Output = Response> + Send>>
    where
        U: FnOnce(&ReplyOf<D>) -> Response + Send + 'static,
        V: Fn(&ReplyOf<D>) -> ServerEvent + Send + 'static,
    {
        let mut cx = match Self::context(parts, Binding::HttpJson, &request) {
            Ok(cx) => cx,
            Err(refused) => {
                let response = gate::tenant_refused(&refused, Binding::HttpJson, Value::Null);
                return Box::pin(std::future::ready(response));
            }
        };
        let keep_alive = settings.keep_alive;
        let ids = event_ids(&mut cx);
        let trace = Trace::start(&cx);
        let future = trace.instrument(Self::call(&self.0, cx, request, settings));
        let RestShape {
            unary,
            event,
            error: error_reply,
        } = shape;
        Box::pin(async move {
            let outcome = future.await;
            trace.end(outcome.as_ref().err().map(|e| e.error().code()));
            match outcome {
                Ok(Outcome::Unary(reply)) => unary(&reply),
                Ok(Outcome::Stream(stream)) => {
                    let events = until_error(guarded(stream, trace.method)).map(move |item| {
                        let sent = match item {
                            Ok(reply) => event(&reply),
                            Err(error) => {
                                ServerEvent::json(Some("error"), error_reply(&error).body)
                            }
                        };
                        axum_event(sent, ids.as_ref())
                    });
                    sse_response(events, keep_alive)
                }
                Err(error) => rest_response(error_reply(&error)),
            }
        })
    }
}

/// An error's reply over A2A 0.3's HTTP+JSON binding: 1.0's (its HTTP status and Status), with
/// the error's spec name and message beside the Status (`rest::v0_3::error_body`).
fn v0_3_error<E: ErrorTable>(error: &ServiceError<E>) -> RestResponse {
    let mut reply = error.rest_response();
    let named = matches!(error, ServiceError::Standard(_));
    reply.body = v0_3_body(reply.body, error.error(), named);
    reply
}

/// An error body with `error`'s message and, when `named` (an error of the table, not an agent's
/// own), its spec name beside the Status.
fn v0_3_body<E: ErrorTable>(body: Vec<u8>, error: &E, named: bool) -> Vec<u8> {
    let spec_name = error.row().filter(|_| named).map(|row| row.spec_name);
    crate::rest::v0_3::error_body(body, spec_name, error.message())
}

/// A call's span (`a2a.call`, target `a2a_runtime::server`: the method, binding, protocol version,
/// caller and tenant, the caller's trace id, the task once a handler names it (`a2a.task_id`), and
/// once answered its error code and `otel.status_code` `ERROR`; with `otel`, a
/// child of the caller's `traceparent`), its log line (target `a2a_runtime::request`, at `info`:
/// the same and the time it took) and, with `otel`, its metrics. With no subscriber, or both
/// filtered out, and without `otel`, neither is built and no clock is read.
pub(super) struct Trace {
    span: tracing::Span,
    started: Option<std::time::Instant>,
    pub(super) method: &'static str,
    binding: &'static str,
}

impl Trace {
    pub(super) fn start(cx: &RequestContext) -> Trace {
        let span = tracing::info_span!(
            target: "a2a_runtime::server",
            "a2a.call",
            rpc.system = "a2a",
            rpc.method = cx.method,
            a2a.binding = cx.binding.name(),
            a2a.version = cx.version.as_str(),
            enduser.id = cx.caller.id(),
            a2a.tenant = cx.tenant.as_deref().unwrap_or(""),
            a2a.task_id = tracing::field::Empty,
            a2a.error_code = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
            trace_id = tracing::field::Empty,
        );
        if !span.is_disabled() {
            if let Some(parent) = cx.trace_context() {
                crate::telemetry::adopt(&span, &parent);
                span.record("trace_id", parent.trace_id_hex());
            }
        }
        let logged = tracing::enabled!(target: "a2a_runtime::request", tracing::Level::INFO);
        Trace {
            started: (cfg!(feature = "otel") || logged || !span.is_disabled())
                .then(std::time::Instant::now),
            span,
            method: cx.method,
            binding: cx.binding.name(),
        }
    }

    pub(super) fn instrument<F: Future>(&self, future: F) -> tracing::instrument::Instrumented<F> {
        tracing::Instrument::instrument(future, self.span.clone())
    }

    /// The call answered: `Ok`, or the error code. (A stream is answered when it begins.)
    pub(super) fn end(&self, error: Option<i64>) {
        let Some(started) = self.started else { return };
        let elapsed = started.elapsed();
        crate::telemetry::call_answered(self.method, self.binding, error, elapsed);
        if let Some(code) = error {
            self.span.record("a2a.error_code", code);
            self.span.record("otel.status_code", "ERROR");
        }
        tracing::info!(
            target: "a2a_runtime::request",
            parent: &self.span,
            method = self.method,
            error_code = error,
            elapsed_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            "{}",
            if error.is_some() { "answered with an error" } else { "answered" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_reply_carries_retry_after() {
        let busy = crate::rest::server::encode_rest_unavailable("too many streams", 2);
        let response = rest_response(busy);
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "2");
        let plain = crate::rest::server::encode_rest_result(&1);
        assert!(!rest_response(plain)
            .headers()
            .contains_key(header::RETRY_AFTER));
    }

    #[test]
    fn interface_paths() {
        assert_eq!(url_path("http://127.0.0.1:8080"), "/");
        assert_eq!(url_path("http://127.0.0.1:8080/"), "/");
        assert_eq!(url_path("https://a.example/a2a/v1/"), "/a2a/v1");
        assert_eq!(url_path("https://a.example/rpc?x=1"), "/rpc");
        assert_eq!(url_path("/rpc"), "/rpc");
        assert_eq!(url_path("rpc"), "/rpc");
    }

    #[test]
    fn json_content_types() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_str(v).unwrap());
            is_json_content(&h)
        };
        assert!(is_json_content(&HeaderMap::new()));
        assert!(with("application/json"));
        assert!(with("application/json; charset=utf-8"));
        assert!(with("Application/A2A+JSON"));
        assert!(!with("text/plain"));
        assert!(!with("application/x-www-form-urlencoded"));
    }

    #[test]
    fn v0_3_members_join_the_v1_card() {
        let mut card = serde_json::json!({
            "name": "a",
            "supportedInterfaces": [
                {"url": "http://h/api", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "capabilities": {"extendedAgentCard": true}
        });
        let Value::Object(map) = &mut card else {
            unreachable!()
        };
        add_v0_3_members(map);
        assert_eq!(card["url"], "http://h/");
        assert_eq!(card["preferredTransport"], "JSONRPC");
        assert_eq!(card["protocolVersion"], "0.3.0");
        // 0.3 is served over JSON-RPC and, by translation, over HTTP+JSON (JSON-RPC first).
        assert_eq!(
            card["additionalInterfaces"],
            serde_json::json!([
                {"url": "http://h/", "transport": "JSONRPC"},
                {"url": "http://h/api", "transport": "HTTP+JSON"}
            ])
        );
        assert_eq!(
            card["supportedInterfaces"][2],
            serde_json::json!({"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"})
        );
        assert_eq!(
            card["supportedInterfaces"][3],
            serde_json::json!({"url": "http://h/api", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"})
        );
        assert_eq!(card["supportedInterfaces"].as_array().unwrap().len(), 4);
        assert_eq!(card["supportsAuthenticatedExtendedCard"], true);
        // Served twice, the card gains nothing more.
        let Value::Object(map) = &mut card else {
            unreachable!()
        };
        add_v0_3_members(map);
        assert_eq!(card["supportedInterfaces"].as_array().unwrap().len(), 4);
    }
}
