//! JWT bearer tokens (RFC 7519), verified with the trust module's keys.
//!
//! The JWS check is the one signed cards get (`trust::Verifier`): an allow-list of algorithms
//! (`none` never, a MAC only when listed), the key found by `kid` and of the kind the algorithm
//! takes (an HMAC "signature" made with an RSA key's public bytes is refused), no `crit`.
//! Hand-written over `trust`'s keys rather than a JOSE crate: see the note on aws-lc-rs in
//! a2a-runtime's Cargo.toml.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use http::request::Parts;
use serde_json::{Map, Value};

use super::{bearer_token, AuthFuture, Authenticator, Caller, Unauthenticated};
use crate::trust::header_key;
use crate::trust::{Algorithm, KeyError, KeyResolver, SigningKey};

/// Maps a verified token's claims to its caller.
type MapClaims = dyn Fn(&Map<String, Value>) -> Result<Caller, String> + Send + Sync;

/// Authenticates `Authorization: Bearer <JWT>`: the signature verified with a key you trust
/// (by the token's `kid`), then `exp`, `nbf`, `iss` and `aud`; the caller is the token's `sub`,
/// its tenants the `tenants` claim (an array of strings; without it, the default tenant only),
/// its claims the whole payload. Change the mapping with
/// [`caller_from`](Self::caller_from).
///
/// ```
/// use a2a_runtime::auth::{sign_jwt, JwtAuthenticator};
/// use a2a_runtime::trust::{Algorithm, KeySet, SigningKey};
/// use serde_json::json;
///
/// let issuer_key = SigningKey::generate(Algorithm::ES256).unwrap();
/// let keys = KeySet::new().with("k1", issuer_key.verifying_key());
/// let auth = JwtAuthenticator::new(keys)
///     .issuer("https://login.example")
///     .audience("https://agent.example");
///
/// let token = sign_jwt(
///     &json!({"sub": "alice", "iss": "https://login.example", "aud": "https://agent.example",
///             "exp": 4102444800u64}),
///     &issuer_key,
///     "k1",
/// )
/// .unwrap();
/// let caller = auth.verify(&token).unwrap();
/// assert_eq!(caller.id(), "alice");
/// assert!(auth.verify("not.a.jwt").is_err());
/// ```
#[derive(Clone)]
pub struct JwtAuthenticator {
    keys: Arc<dyn KeyResolver>,
    algorithms: Vec<Algorithm>,
    issuer: Option<String>,
    audience: Option<String>,
    leeway: Duration,
    require_exp: bool,
    caller: Arc<MapClaims>,
}

impl fmt::Debug for JwtAuthenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtAuthenticator")
            .field("algorithms", &self.algorithms)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .field("require_exp", &self.require_exp)
            .finish_non_exhaustive()
    }
}

impl JwtAuthenticator {
    /// Tokens signed by `keys` (a [`KeySet`](crate::trust::KeySet) read from your issuer's JWKS,
    /// or any resolver), with the asymmetric algorithms, an `exp` required, 60 s of leeway, and
    /// any issuer and audience until you name them (name them: a token for another service of
    /// the same issuer is accepted otherwise).
    pub fn new(keys: impl KeyResolver + 'static) -> Self {
        JwtAuthenticator {
            keys: Arc::new(keys),
            algorithms: Algorithm::SIGNATURES.to_vec(),
            issuer: None,
            audience: None,
            leeway: Duration::from_secs(60),
            require_exp: true,
            caller: Arc::new(default_caller),
        }
    }

    /// The algorithms to accept (replacing the default). HS256/384/512 only when listed.
    #[must_use]
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The `iss` every token must carry.
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The audience every token must name in `aud` (a string, or one of an array).
    #[must_use]
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    /// The clock skew allowed on `exp` and `nbf`.
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// Whether a token without `exp` is refused (it is, by default).
    #[must_use]
    pub fn require_exp(mut self, require: bool) -> Self {
        self.require_exp = require;
        self
    }

    /// How a verified token's claims become its caller (replacing the default: `sub`, the
    /// `tenants` claim, every claim). An `Err` refuses the token, with the reason logged.
    #[must_use]
    pub fn caller_from(
        mut self,
        map: impl Fn(&Map<String, Value>) -> Result<Caller, String> + Send + Sync + 'static,
    ) -> Self {
        self.caller = Arc::new(map);
        self
    }

    /// The caller of a compact JWT, or why it is refused.
    pub fn verify(&self, token: &str) -> Result<Caller, Unauthenticated> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.verify_at(token, now)
    }

    fn verify_at(&self, token: &str, now: u64) -> Result<Caller, Unauthenticated> {
        let bad = |why: &str| Unauthenticated::invalid(format!("JWT refused: {why}"));
        if token.len() > super::MAX_CREDENTIAL_BYTES {
            return Err(bad("over the size limit"));
        }
        let mut pieces = token.split('.');
        let (Some(header64), Some(payload64), Some(signature64), None) =
            (pieces.next(), pieces.next(), pieces.next(), pieces.next())
        else {
            return Err(bad("not three dot-separated parts"));
        };
        let object = |part: &str, what: &str| -> Result<Map<String, Value>, Unauthenticated> {
            let bytes = URL_SAFE_NO_PAD
                .decode(part)
                .map_err(|_| bad(&format!("its {what} is not base64url")))?;
            match serde_json::from_slice(&bytes) {
                Ok(Value::Object(map)) => Ok(map),
                _ => Err(bad(&format!("its {what} is not a JSON object"))),
            }
        };
        let header = object(header64, "header")?;
        // The header checked as a card's signature is (trust::verify::header_key); the
        // refusal worded for a token.
        let (algorithm, key) = header_key(&header, &self.algorithms, &*self.keys).map_err(|f| {
            use crate::trust::SignatureFailure as F;
            match f {
                F::AlgNone | F::UnknownAlgorithm(_) | F::AlgorithmNotAllowed(_) => {
                    let alg = header
                        .get("alg")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    bad(&format!("alg {alg:?} is not allowed"))
                }
                F::MissingAlg => bad("no alg"),
                F::MissingKid => bad("no kid"),
                F::CriticalHeader => bad("a crit header"),
                F::KeyMismatch { algorithm, key } => {
                    bad(&format!("{algorithm} does not go with {key}"))
                }
                other => bad(&other.to_string()),
            }
        })?;
        let signature = URL_SAFE_NO_PAD
            .decode(signature64)
            .map_err(|_| bad("its signature is not base64url"))?;
        let signed = &token[..header64.len() + 1 + payload64.len()];
        if !key.verify(algorithm, signed.as_bytes(), &signature) {
            return Err(bad("the signature does not verify"));
        }
        // Only now, signed, are the claims read.
        let claims = object(payload64, "payload")?;
        let leeway = self.leeway.as_secs();
        let time = |name: &str| -> Result<Option<u64>, Unauthenticated> {
            match claims.get(name) {
                None => Ok(None),
                Some(v) => v
                    .as_f64()
                    .filter(|t| t.is_finite() && *t >= 0.0)
                    .map(|t| Some(t as u64))
                    .ok_or_else(|| bad(&format!("{name} is not a NumericDate"))),
            }
        };
        match time("exp")? {
            Some(exp) if now >= exp.saturating_add(leeway) => return Err(bad("expired")),
            None if self.require_exp => return Err(bad("no exp")),
            _ => {}
        }
        if time("nbf")?.is_some_and(|nbf| now.saturating_add(leeway) < nbf) {
            return Err(bad("not yet valid"));
        }
        if let Some(issuer) = &self.issuer {
            if claims.get("iss").and_then(Value::as_str) != Some(issuer) {
                return Err(bad("another issuer"));
            }
        }
        if let Some(audience) = &self.audience {
            let named = match claims.get("aud") {
                Some(Value::String(a)) => a == audience,
                Some(Value::Array(all)) => all.iter().any(|a| a.as_str() == Some(audience)),
                _ => false,
            };
            if !named {
                return Err(bad("another audience"));
            }
        }
        (self.caller)(&claims).map_err(|why| bad(&why))
    }
}

/// `sub` as the id, `tenants` (strings) as the tenants, the payload as the claims.
fn default_caller(claims: &Map<String, Value>) -> Result<Caller, String> {
    let sub = claims
        .get("sub")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or("no sub")?;
    let mut caller = Caller::new(sub).with_claims(claims.clone());
    if let Some(tenants) = claims.get("tenants") {
        let tenants = tenants
            .as_array()
            .and_then(|all| all.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
            .ok_or("tenants is not an array of strings")?;
        caller = caller.with_tenants(tenants);
    }
    Ok(caller)
}

impl Authenticator for JwtAuthenticator {
    fn authenticate<'a>(&'a self, request: &'a Parts) -> AuthFuture<'a> {
        let result = match bearer_token(&request.headers) {
            Ok(Some(token)) => self.verify(token),
            Ok(None) => Err(Unauthenticated::missing()),
            Err(e) => Err(e),
        };
        Box::pin(std::future::ready(result))
    }
}

/// A compact JWT of `claims` signed with `key`, its header naming `kid`: for tests, and for a
/// client or issuer that mints its own tokens.
pub fn sign_jwt(claims: &Value, key: &SigningKey, kid: &str) -> Result<String, KeyError> {
    let header = serde_json::json!({"alg": key.algorithm().name(), "typ": "JWT", "kid": kid});
    let mut token = URL_SAFE_NO_PAD.encode(header.to_string());
    token.push('.');
    token.push_str(&URL_SAFE_NO_PAD.encode(claims.to_string()));
    let signature = key.sign(token.as_bytes())?;
    token.push('.');
    token.push_str(&URL_SAFE_NO_PAD.encode(signature));
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::{KeySet, VerifyingKey};
    use serde_json::json;

    const NOW: u64 = 1_800_000_000;

    fn claims() -> Value {
        json!({"sub": "alice", "iss": "https://i", "aud": ["x", "https://a"], "exp": NOW + 600,
               "tenants": ["acme"]})
    }

    fn setup() -> (SigningKey, JwtAuthenticator) {
        let key = SigningKey::generate(Algorithm::ES256).unwrap();
        let auth = JwtAuthenticator::new(KeySet::new().with("k", key.verifying_key()))
            .issuer("https://i")
            .audience("https://a");
        (key, auth)
    }

    fn reason(auth: &JwtAuthenticator, token: &str) -> String {
        auth.verify_at(token, NOW).unwrap_err().reason().to_owned()
    }

    #[test]
    fn a_good_token_gives_its_caller() {
        let (key, auth) = setup();
        let caller = auth
            .verify_at(&sign_jwt(&claims(), &key, "k").unwrap(), NOW)
            .unwrap();
        assert_eq!(caller.id(), "alice");
        assert_eq!(caller.tenant_for(None).unwrap().as_deref(), Some("acme"));
        assert_eq!(caller.claim("iss"), Some(&json!("https://i")));
    }

    #[test]
    fn every_bad_token_is_refused_for_its_reason() {
        let (key, auth) = setup();
        let with = |change: &dyn Fn(&mut Value)| {
            let mut c = claims();
            change(&mut c);
            sign_jwt(&c, &key, "k").unwrap()
        };
        let cases: Vec<(String, &str)> = vec![
            (with(&|c| c["exp"] = json!(NOW - 61)), "expired"),
            (with(&|c| c["exp"] = json!("soon")), "NumericDate"),
            (
                with(&|c| {
                    c.as_object_mut().unwrap().remove("exp");
                }),
                "no exp",
            ),
            (with(&|c| c["nbf"] = json!(NOW + 61)), "not yet valid"),
            (
                with(&|c| c["iss"] = json!("https://evil")),
                "another issuer",
            ),
            (
                with(&|c| c["aud"] = json!("https://other")),
                "another audience",
            ),
            (
                with(&|c| {
                    c.as_object_mut().unwrap().remove("sub");
                }),
                "no sub",
            ),
            (with(&|c| c["tenants"] = json!("acme")), "tenants"),
            (sign_jwt(&claims(), &key, "other").unwrap(), "unknown kid"),
            ("a.b".to_owned(), "three"),
            ("a.b.c.d".to_owned(), "three"),
            ("!!.e30.AA".to_owned(), "header is not base64url"),
            ("a".repeat(20_000), "size"),
        ];
        for (token, why) in &cases {
            let got = reason(&auth, token);
            assert!(got.contains(why), "{why}: {got}");
        }
        // Another key under the same kid: the signature does not verify.
        let other = SigningKey::generate(Algorithm::ES256).unwrap();
        assert!(reason(&auth, &sign_jwt(&claims(), &other, "k").unwrap()).contains("signature"));
        // A tampered payload.
        let token = sign_jwt(&claims(), &key, "k").unwrap();
        let mut parts: Vec<&str> = token.split('.').collect();
        let forged = URL_SAFE_NO_PAD.encode(json!({"sub": "root", "exp": NOW + 9}).to_string());
        parts[1] = &forged;
        assert!(reason(&auth, &parts.join(".")).contains("signature"));
    }

    #[test]
    fn alg_none_and_key_confusion_are_refused() {
        let (_, auth) = setup();
        let unsigned = |alg: &str| {
            let header = URL_SAFE_NO_PAD.encode(json!({"alg": alg, "kid": "k"}).to_string());
            let payload = URL_SAFE_NO_PAD.encode(claims().to_string());
            format!("{header}.{payload}.")
        };
        assert!(reason(&auth, &unsigned("none")).contains("not allowed"));
        assert!(reason(&auth, &unsigned("HS256")).contains("not allowed"));
        // HS256 allowed, but the key under `kid` is an RSA or EC public key: its bytes are never
        // taken as an HMAC secret.
        let rsa = SigningKey::generate(Algorithm::RS256).unwrap();
        let keys = KeySet::new().with("k", rsa.verifying_key());
        let auth = JwtAuthenticator::new(keys).algorithms([Algorithm::RS256, Algorithm::HS256]);
        let hmac = SigningKey::secret(Algorithm::HS256, b"public bytes".to_vec()).unwrap();
        assert!(reason(&auth, &sign_jwt(&claims(), &hmac, "k").unwrap()).contains("go with"));
        // A shared secret, allowed and listed, verifies.
        let secret = VerifyingKey::secret(b"0123456789abcdef0123456789abcdef".to_vec());
        let auth =
            JwtAuthenticator::new(KeySet::new().with("s", secret)).algorithms([Algorithm::HS256]);
        let signer = SigningKey::secret(
            Algorithm::HS256,
            b"0123456789abcdef0123456789abcdef".to_vec(),
        )
        .unwrap();
        let token = sign_jwt(&claims(), &signer, "s").unwrap();
        assert_eq!(auth.verify_at(&token, NOW).unwrap().id(), "alice");
    }
}
