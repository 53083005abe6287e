//! Who is calling: the [`Caller`] of every request, and the [`Authenticator`] that finds it.
//!
//! The spec makes the server authenticate every request against the schemes its card declares
//! (§7.4) and scope what it answers to the caller (§13.1). The server
//! ([`AgentRouter::authenticate`](crate::server::AgentRouter::authenticate), feature `server`)
//! runs an [`Authenticator`] on every JSON-RPC and HTTP+JSON request before its body is read: a
//! request it refuses gets `401 Unauthorized` with a `WWW-Authenticate` challenge made from the
//! card's `securitySchemes`, and nothing of it is decoded; the [`Caller`] it returns reaches the
//! service as [`RequestContext::caller`](crate::service::RequestContext::caller). A tower layer
//! may do the same job instead: a `Caller` it puts in the request's extensions is the one the
//! service sees.
//!
//! Ready-made authenticators:
//!
//! - [`StaticTokens`]: bearer tokens or API keys from configuration, each bound to a caller;
//! - [`JwtAuthenticator`] (feature `trust`): JWT bearer tokens verified with the trust module's
//!   keys (a JWK Set you trust), with issuer, audience, expiry and not-before checks.
//!
//! A server with no authenticator serves everyone as [`Caller::anonymous`]: one caller that may
//! use any tenant. That is for development: every caller then sees every task.
//!
//! ```
//! use a2a_runtime::auth::{Caller, StaticTokens};
//!
//! let tokens = StaticTokens::new()
//!     .bearer("s3cret-alice", Caller::new("alice"))
//!     .bearer("s3cret-bob", Caller::new("bob").with_tenants(["acme"]));
//! # let _ = tokens;
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use http::header::AUTHORIZATION;
use http::request::Parts;
use http::{HeaderMap, HeaderName};
use serde_json::{Map, Value};

#[cfg(feature = "trust")]
mod jwt;
#[cfg(feature = "trust")]
pub use jwt::{sign_jwt, JwtAuthenticator};

/// The caller of a request: an id, the tenants it may use, and what else its credentials said.
///
/// Cheap to clone (shared). Made by an [`Authenticator`]; a server without one serves every
/// request as [`Caller::anonymous`].
#[derive(Clone, PartialEq)]
pub struct Caller(Arc<CallerData>);

#[derive(Clone, PartialEq)]
struct CallerData {
    id: String,
    tenants: Tenants,
    claims: Map<String, Value>,
    anonymous: bool,
}

/// The tenants a caller may use. The default tenant (the one a request that names none uses) is
/// written `""`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tenants {
    /// Any tenant, named or not (the anonymous caller of a server without authentication).
    Any,
    /// These tenants only.
    Only(Vec<String>),
}

impl fmt::Debug for Caller {
    /// The id and tenants; the claims by name only (they may hold what a log should not).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("id", &self.0.id)
            .field("tenants", &self.0.tenants)
            .field("claims", &self.0.claims.keys().collect::<Vec<_>>())
            .field("anonymous", &self.0.anonymous)
            .finish()
    }
}

impl Default for Caller {
    /// [`Caller::anonymous`].
    fn default() -> Self {
        Caller::anonymous()
    }
}

impl Caller {
    /// A caller with this id, using the default tenant only (add others with
    /// [`with_tenants`](Self::with_tenants)).
    pub fn new(id: impl Into<String>) -> Self {
        Caller(Arc::new(CallerData {
            id: id.into(),
            tenants: Tenants::Only(vec![String::new()]),
            claims: Map::new(),
            anonymous: false,
        }))
    }

    /// The caller of a server without authentication: id `""`, any tenant. Everything it makes
    /// is everyone's.
    pub fn anonymous() -> Self {
        // One, shared: every request of a server without authentication gets it (a reference
        // count, not an allocation per request).
        static ANONYMOUS: std::sync::OnceLock<Caller> = std::sync::OnceLock::new();
        ANONYMOUS
            .get_or_init(|| {
                Caller(Arc::new(CallerData {
                    id: String::new(),
                    tenants: Tenants::Any,
                    claims: Map::new(),
                    anonymous: true,
                }))
            })
            .clone()
    }

    /// This caller, using exactly these tenants (`""` is the default one). A caller with one
    /// tenant gets it on every request that names none.
    #[must_use]
    pub fn with_tenants<T: Into<String>>(mut self, tenants: impl IntoIterator<Item = T>) -> Self {
        Arc::make_mut(&mut self.0).tenants =
            Tenants::Only(tenants.into_iter().map(Into::into).collect());
        self
    }

    /// This caller, allowed any tenant.
    #[must_use]
    pub fn with_any_tenant(mut self) -> Self {
        Arc::make_mut(&mut self.0).tenants = Tenants::Any;
        self
    }

    /// This caller with these claims (what its credentials said beyond its id: roles, scopes,
    /// a JWT's payload).
    #[must_use]
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        Arc::make_mut(&mut self.0).claims = claims;
        self
    }

    /// The caller's id: what its tasks and push configs are owned by.
    pub fn id(&self) -> &str {
        &self.0.id
    }

    /// The tenants it may use.
    pub fn tenants(&self) -> &Tenants {
        &self.0.tenants
    }

    /// Its claims.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.0.claims
    }

    /// One claim.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.0.claims.get(name)
    }

    /// Whether this is the anonymous caller of a server without authentication.
    pub fn is_anonymous(&self) -> bool {
        self.0.anonymous
    }

    /// The tenant a request of this caller works in, given the tenant it names (`None` or `""`:
    /// none): the named one when the caller may use it; for a request naming none, the default
    /// tenant when the caller may use it, else the caller's only tenant. `Err` when the request
    /// names a tenant the caller may not use, or names none and the caller has several and not
    /// the default.
    ///
    /// ```
    /// use a2a_runtime::auth::Caller;
    ///
    /// let bob = Caller::new("bob").with_tenants(["acme"]);
    /// assert_eq!(bob.tenant_for(None).unwrap(), Some("acme".to_owned()));
    /// assert_eq!(bob.tenant_for(Some("acme")).unwrap(), Some("acme".to_owned()));
    /// assert!(bob.tenant_for(Some("globex")).is_err());
    /// assert_eq!(Caller::new("alice").tenant_for(None).unwrap(), None);
    /// ```
    pub fn tenant_for(&self, named: Option<&str>) -> Result<Option<String>, TenantRefused> {
        let named = named.filter(|t| !t.is_empty());
        let Tenants::Only(allowed) = &self.0.tenants else {
            return Ok(named.map(str::to_owned));
        };
        match named {
            Some(t) if allowed.iter().any(|a| a == t) => Ok(Some(t.to_owned())),
            Some(_) => Err(TenantRefused { named: true }),
            None if allowed.iter().any(String::is_empty) => Ok(None),
            None => match allowed.as_slice() {
                [only] => Ok(Some(only.clone())),
                _ => Err(TenantRefused { named: false }),
            },
        }
    }
}

/// A request's tenant refused for its caller: it names one the caller may not use, or names
/// none and the caller has no default. Says nothing of whether the tenant exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantRefused {
    named: bool,
}

impl fmt::Display for TenantRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.named {
            true => f.write_str("the caller may not use the tenant this request names"),
            false => f.write_str("this caller must name one of its tenants"),
        }
    }
}

impl std::error::Error for TenantRefused {}

/// Why a request was not authenticated. Logged by the server; the client gets only `401` and
/// the challenge (an attacker learns nothing from the answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unauthenticated {
    invalid: bool,
    reason: String,
}

impl Unauthenticated {
    /// The request carries no credentials this authenticator reads.
    pub fn missing() -> Self {
        Unauthenticated {
            invalid: false,
            reason: "no credentials".to_owned(),
        }
    }

    /// The request carries credentials, and they are refused for `reason` (logged, never sent).
    pub fn invalid(reason: impl Into<String>) -> Self {
        Unauthenticated {
            invalid: true,
            reason: reason.into(),
        }
    }

    /// Whether credentials were there and refused (a bearer challenge then says
    /// `error="invalid_token"`, RFC 6750 §3.1).
    pub fn is_invalid(&self) -> bool {
        self.invalid
    }

    /// Why.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Unauthenticated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not authenticated: {}", self.reason)
    }
}

impl std::error::Error for Unauthenticated {}

/// What [`Authenticator::authenticate`] returns.
pub type AuthFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Caller, Unauthenticated>> + Send + 'a>>;

/// Turns a request (its head: headers, URI, and the extensions a TLS-terminating layer put there,
/// such as the peer's certificate) into its [`Caller`], or refuses it.
///
/// Runs before the body is read: keep it to the credentials. Any
/// `Fn(&Parts) -> Result<Caller, Unauthenticated>` is one.
///
/// ```
/// use a2a_runtime::auth::{Authenticator, Caller, Unauthenticated};
///
/// // A gateway in front has authenticated the caller and says who it is.
/// let from_gateway = |request: &http::request::Parts| {
///     match request.headers.get("x-authenticated-user").and_then(|v| v.to_str().ok()) {
///         Some(user) => Ok(Caller::new(user)),
///         None => Err(Unauthenticated::missing()),
///     }
/// };
/// # fn takes(_: impl Authenticator) {}
/// takes(from_gateway);
/// ```
pub trait Authenticator: Send + Sync + 'static {
    /// The caller of `request`, or why not.
    fn authenticate<'a>(&'a self, request: &'a Parts) -> AuthFuture<'a>;
}

impl<F> Authenticator for F
where
    F: Fn(&Parts) -> Result<Caller, Unauthenticated> + Send + Sync + 'static,
{
    fn authenticate<'a>(&'a self, request: &'a Parts) -> AuthFuture<'a> {
        Box::pin(std::future::ready(self(request)))
    }
}

/// The longest credential read from a header: a longer one is refused before anything is
/// compared or decoded (a JWT with many claims is a few KiB).
pub const MAX_CREDENTIAL_BYTES: usize = 16 * 1024;

/// The token of an `Authorization: Bearer <token>` header: `Ok(None)` without one, `Err` for a
/// header that is there but not a bearer token of the allowed size.
pub fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, Unauthenticated> {
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(Unauthenticated::invalid(
            "more than one Authorization header",
        ));
    }
    if value.len() > MAX_CREDENTIAL_BYTES {
        return Err(Unauthenticated::invalid(
            "an Authorization header over the size limit",
        ));
    }
    let value = value
        .to_str()
        .map_err(|_| Unauthenticated::invalid("an Authorization header that is not ASCII"))?;
    let (scheme, token) = value.trim().split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        // Another scheme: not a credential this reader takes.
        return Ok(None);
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(Unauthenticated::invalid("a Bearer header without a token"));
    }
    Ok(Some(token))
}

/// Bearer tokens and API keys from configuration, each bound to its [`Caller`].
///
/// Tokens are compared in constant time, each against every configured one (a lookup by the
/// token would leak, in its timing, how much of a guess was right). Meant for a handful of
/// service accounts; for many users, use a JWT issuer ([`JwtAuthenticator`], feature `trust`).
///
/// ```
/// use a2a_runtime::auth::{Caller, StaticTokens};
///
/// let tokens = StaticTokens::new()
///     .bearer("t0k3n", Caller::new("ci-bot"))
///     .api_key("x-api-key", "k3y", Caller::new("dashboard"));
/// let request = http::Request::get("/")
///     .header("authorization", "Bearer t0k3n")
///     .body(())
///     .unwrap()
///     .into_parts()
///     .0;
/// assert_eq!(tokens.caller_of(&request).unwrap().id(), "ci-bot");
/// ```
#[derive(Clone, Default)]
pub struct StaticTokens {
    bearer: Vec<(Vec<u8>, Caller)>,
    api_keys: Vec<(HeaderName, Vec<u8>, Caller)>,
}

impl fmt::Debug for StaticTokens {
    /// The callers and header names; never the tokens.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticTokens")
            .field(
                "bearer",
                &self.bearer.iter().map(|(_, c)| c.id()).collect::<Vec<_>>(),
            )
            .field(
                "api_keys",
                &self
                    .api_keys
                    .iter()
                    .map(|(h, _, c)| (h.as_str(), c.id()))
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl StaticTokens {
    /// No tokens: every request is refused until some are added.
    pub fn new() -> Self {
        StaticTokens::default()
    }

    /// `Authorization: Bearer <token>` authenticates as `caller`.
    #[must_use]
    pub fn bearer(mut self, token: impl Into<String>, caller: Caller) -> Self {
        self.bearer.push((token.into().into_bytes(), caller));
        self
    }

    /// The header `header` carrying `key` authenticates as `caller` (an API key scheme with
    /// `location: header`).
    ///
    /// # Panics
    ///
    /// When `header` is not a valid header name (a configuration error, found at start-up).
    #[must_use]
    pub fn api_key(mut self, header: &str, key: impl Into<String>, caller: Caller) -> Self {
        let header = HeaderName::from_bytes(header.as_bytes())
            .unwrap_or_else(|e| panic!("API key header {header:?} is not a header name: {e}"));
        self.api_keys
            .push((header, key.into().into_bytes(), caller));
        self
    }

    /// The number of tokens and keys.
    pub fn len(&self) -> usize {
        self.bearer.len() + self.api_keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The caller `request` authenticates as (what [`Authenticator::authenticate`] answers).
    pub fn caller_of(&self, request: &Parts) -> Result<Caller, Unauthenticated> {
        let mut presented = false;
        for (header, key, caller) in &self.api_keys {
            if let Some(value) = request.headers.get(header) {
                presented = true;
                if value.len() <= MAX_CREDENTIAL_BYTES && same_secret(value.as_bytes(), key) {
                    return Ok(caller.clone());
                }
            }
        }
        if let Some(token) = bearer_token(&request.headers)? {
            let mut found = None;
            for (known, caller) in &self.bearer {
                // Every token is compared: the time does not say which one matched.
                if same_secret(token.as_bytes(), known) && found.is_none() {
                    found = Some(caller);
                }
            }
            return found
                .cloned()
                .ok_or_else(|| Unauthenticated::invalid("an unknown bearer token"));
        }
        match presented {
            true => Err(Unauthenticated::invalid("an unknown API key")),
            false => Err(Unauthenticated::missing()),
        }
    }
}

impl Authenticator for StaticTokens {
    fn authenticate<'a>(&'a self, request: &'a Parts) -> AuthFuture<'a> {
        Box::pin(std::future::ready(self.caller_of(request)))
    }
}

/// Equal secrets, in time that depends on their lengths only. Hand-written: a byte loop is all
/// it takes, and the trust layer's constant-time compare is behind the `trust` feature.
pub(crate) fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The `WWW-Authenticate` challenges for a card: one per security scheme it declares (either
/// version's shape), in the order of the schemes' names, without repeats.
///
/// - HTTP schemes: their scheme (`Bearer`, `Basic`, ...);
/// - OAuth 2 and OpenID Connect: `Bearer`;
/// - API keys: `ApiKey name="<name>", in="<location>"` (no registered scheme exists for them;
///   this names where the key goes);
/// - mutual TLS: none (it is refused in the TLS handshake, not with a challenge).
///
/// A card with none gets `Bearer`. With `invalid`, bearer challenges carry
/// `error="invalid_token"` (RFC 6750 §3.1).
pub fn challenges(card: &Value, invalid: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |c: String| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    let bearer = || match invalid {
        true => r#"Bearer error="invalid_token""#.to_owned(),
        false => "Bearer".to_owned(),
    };
    // By name, whatever order the map keeps (serde_json's `preserve_order` keeps the card's).
    let mut schemes: Vec<(&String, &Value)> = card
        .get("securitySchemes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .collect();
    schemes.sort_by(|a, b| a.0.cmp(b.0));
    for (_, scheme) in schemes {
        let http = scheme
            .get("httpAuthSecurityScheme")
            .or_else(|| (scheme.get("type")? == "http").then_some(scheme));
        let api_key = scheme
            .get("apiKeySecurityScheme")
            .or_else(|| (scheme.get("type")? == "apiKey").then_some(scheme));
        let token = ["oauth2SecurityScheme", "openIdConnectSecurityScheme"]
            .iter()
            .any(|k| scheme.get(*k).is_some())
            || matches!(
                scheme.get("type").and_then(Value::as_str),
                Some("oauth2" | "openIdConnect")
            );
        if let Some(http) = http {
            let name = http.get("scheme").and_then(Value::as_str).unwrap_or("");
            let name: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
            match name.to_ascii_lowercase().as_str() {
                "" => {}
                "bearer" => push(bearer()),
                _ => {
                    let mut title = name.clone();
                    title[..1].make_ascii_uppercase();
                    push(title);
                }
            }
        } else if let Some(key) = api_key {
            let field = |k: &str| {
                key.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .chars()
                    .filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\')
                    .collect::<String>()
            };
            let location = match field("location") {
                l if l.is_empty() => field("in"),
                l => l,
            };
            push(format!(
                r#"ApiKey name="{}", in="{location}""#,
                field("name")
            ));
        } else if token {
            push(bearer());
        }
    }
    if out.is_empty() {
        out.push(bearer());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(headers: &[(&str, &str)]) -> Parts {
        let mut request = http::Request::get("/");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn tenants_bind_to_the_caller() {
        let anyone = Caller::anonymous();
        assert_eq!(anyone.tenant_for(Some("x")).unwrap().as_deref(), Some("x"));
        assert_eq!(anyone.tenant_for(Some("")).unwrap(), None);
        let alice = Caller::new("alice");
        assert_eq!(alice.tenant_for(None).unwrap(), None);
        assert!(alice.tenant_for(Some("acme")).is_err());
        let two = Caller::new("c").with_tenants(["a", "b"]);
        assert!(two.tenant_for(None).is_err());
        assert_eq!(two.tenant_for(Some("b")).unwrap().as_deref(), Some("b"));
        let both = Caller::new("c").with_tenants(["", "a"]);
        assert_eq!(both.tenant_for(None).unwrap(), None);
        assert_eq!(both.tenant_for(Some("a")).unwrap().as_deref(), Some("a"));
    }

    #[test]
    fn static_tokens_read_bearer_and_api_keys() {
        let tokens = StaticTokens::new()
            .bearer("t1", Caller::new("one"))
            .bearer("t2", Caller::new("two"))
            .api_key("X-API-Key", "k", Caller::new("keyed"));
        let find = |h: &[(&str, &str)]| tokens.caller_of(&parts(h));
        assert_eq!(find(&[("authorization", "Bearer t2")]).unwrap().id(), "two");
        assert_eq!(
            find(&[("authorization", "bearer  t1 ")]).unwrap().id(),
            "one"
        );
        assert_eq!(find(&[("x-api-key", "k")]).unwrap().id(), "keyed");
        assert!(!find(&[]).unwrap_err().is_invalid());
        assert!(!find(&[("authorization", "Basic dTpw")])
            .unwrap_err()
            .is_invalid());
        for bad in [
            &[("authorization", "Bearer t3")][..],
            &[("authorization", "Bearer")],
            &[
                ("authorization", "Bearer t1"),
                ("authorization", "Bearer t1"),
            ],
            &[("x-api-key", "nope")],
        ] {
            assert!(find(bad).unwrap_err().is_invalid(), "{bad:?}");
        }
        let huge = format!("Bearer {}", "a".repeat(MAX_CREDENTIAL_BYTES + 1));
        assert!(find(&[("authorization", &huge)]).unwrap_err().is_invalid());
        assert!(!format!("{tokens:?}").contains("t1"));
    }

    #[test]
    fn challenges_follow_the_card() {
        let v1 = json!({"securitySchemes": {
            "bearer": {"httpAuthSecurityScheme": {"scheme": "bearer", "bearerFormat": "JWT"}},
            "basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}},
            "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
            "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://i/"}},
            "mtls": {"mtlsSecurityScheme": {}}
        }});
        assert_eq!(
            challenges(&v1, false),
            ["Basic", "Bearer", r#"ApiKey name="X-API-Key", in="header""#]
        );
        let v0_3 = json!({"securitySchemes": {
            "k": {"type": "apiKey", "in": "query", "name": "key\""},
            "o": {"type": "oauth2", "flows": {}}
        }});
        assert_eq!(
            challenges(&v0_3, true),
            [
                r#"ApiKey name="key", in="query""#,
                r#"Bearer error="invalid_token""#
            ]
        );
        assert_eq!(challenges(&json!({}), false), ["Bearer"]);
    }
}
