//! Verifying a card's signatures over the card as received (spec §8.4.3).

use crate::trust::card::{card_payload, CardForm};
use crate::trust::jcs::{self, JcsError};
use crate::trust::keys::{Algorithm, KeyError, KeyKind, VerifyingKey};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// Finds the key a signature names: by its `kid`, with the header's `jku` (a JWK Set URL) as a
/// hint the resolver may use to pick among key sets it already trusts. The library never fetches
/// `jku` itself: a URL the card names is no trust anchor (spec §8.4.3). Return `None` for a key
/// you do not know or no longer trust (expired, revoked).
///
/// Any `Fn(&str, Option<&str>) -> Option<VerifyingKey>` is a resolver, and so is a [`KeySet`].
pub trait KeyResolver: Send + Sync {
    /// The key for `kid`, or `None`.
    fn resolve(&self, kid: &str, jku: Option<&str>) -> Option<VerifyingKey>;
}

impl<F> KeyResolver for F
where
    F: Fn(&str, Option<&str>) -> Option<VerifyingKey> + Send + Sync,
{
    fn resolve(&self, kid: &str, jku: Option<&str>) -> Option<VerifyingKey> {
        self(kid, jku)
    }
}

/// Keys by `kid`: a JWK Set you trust, read once ([`KeySet::from_jwks`]), or keys added one by
/// one. Resolves by `kid` alone (the `jku` hint is not used).
#[derive(Clone, Debug, Default)]
pub struct KeySet {
    keys: Vec<(String, VerifyingKey)>,
}

impl KeySet {
    /// An empty set.
    pub fn new() -> Self {
        KeySet::default()
    }

    /// This set with `key` under `kid` (replacing one of that `kid`).
    pub fn with(mut self, kid: impl Into<String>, key: VerifyingKey) -> Self {
        let kid = kid.into();
        self.keys.retain(|(k, _)| *k != kid);
        self.keys.push((kid, key));
        self
    }

    /// The keys of a JWK Set (`{"keys": [...]}`, RFC 7517 §5): each with a `kid`. A key that
    /// cannot be read is an error naming it (a set you trust should not hold one).
    pub fn from_jwks(jwks: &Value) -> Result<Self, KeyError> {
        let keys = jwks
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| KeyError::new("a JWK Set is an object with a `keys` list"))?;
        let mut set = KeySet::new();
        for (i, jwk) in keys.iter().enumerate() {
            let kid = jwk
                .get("kid")
                .and_then(Value::as_str)
                .ok_or_else(|| KeyError::new(format!("the JWK Set's key {i} has no `kid`")))?;
            let key = VerifyingKey::from_jwk(jwk)
                .map_err(|e| KeyError::new(format!("the JWK Set's key {kid:?}: {e}")))?;
            set = set.with(kid, key);
        }
        Ok(set)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

impl KeyResolver for KeySet {
    fn resolve(&self, kid: &str, _jku: Option<&str>) -> Option<VerifyingKey> {
        self.keys
            .iter()
            .find(|(k, _)| k == kid)
            .map(|(_, key)| key.clone())
    }
}

/// Verifies agent cards' signatures: with the caller's [`KeyResolver`], an allow-list of
/// algorithms (by default [`Algorithm::SIGNATURES`]: never `none`, never a MAC), and the
/// canonical forms to try (by default both, [`CardForm::ALL`], the spec's first). A card is
/// accepted when any one signature verifies with an allowed algorithm and a key the resolver
/// gives, in any accepted form.
///
/// Verify over the card **as received**: its raw bytes ([`Verifier::verify_json`]), or a
/// `serde_json::Value` parsed from them (never a card re-encoded from typed values, which has
/// lost the members this version does not know).
///
/// ```
/// use a2a_runtime::trust::{Algorithm, CardForm, KeySet, Signer, SigningKey, Verifier};
/// use serde_json::json;
///
/// let key = SigningKey::generate(Algorithm::ES256).unwrap();
/// let keys = KeySet::new().with("key-1", key.verifying_key());
/// let card = json!({"name": "Agent", "description": "", "version": "1", "futureField": {"x": 1}});
/// let signed = Signer::new(key, "key-1").signed(&card).unwrap(); // the card plus its signature
///
/// let verifier = Verifier::new(keys);
/// let raw = serde_json::to_vec(&signed).unwrap(); // as the client received it
/// let verified = verifier.verify_json(&raw).unwrap();
/// assert_eq!((verified.kid.as_str(), verified.algorithm, verified.form), ("key-1", Algorithm::ES256, CardForm::Spec));
///
/// // One member changed: no signature verifies, and the error says why for each.
/// let mut tampered = signed.clone();
/// tampered["name"] = json!("Mallory");
/// let err = verifier.verify(&tampered).unwrap_err();
/// assert_eq!(err.to_string(), "no signature of the agent card verifies: signature 0: bad signature");
/// ```
#[derive(Clone)]
pub struct Verifier {
    resolver: Arc<dyn KeyResolver>,
    algorithms: Vec<Algorithm>,
    forms: Vec<CardForm>,
}

impl fmt::Debug for Verifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("algorithms", &self.algorithms)
            .field("forms", &self.forms)
            .finish_non_exhaustive()
    }
}

/// Which signature verified a card: its index in `signatures`, its `kid` and `jku`, the
/// algorithm, and the canonical form it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The signature's index in the card's `signatures`.
    pub index: usize,
    /// The protected header's `kid`.
    pub kid: String,
    /// The protected header's `jku`, if any.
    pub jku: Option<String>,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The canonical form the signature covers.
    pub form: CardForm,
}

/// Why a card was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The card is not JSON, not an object, or has no canonical form (a repeated member name,
    /// nesting too deep).
    Card(JcsError),
    /// The card has no signatures (`signatures` absent or empty).
    NoSignatures,
    /// `signatures` is there but is not a list.
    SignaturesNotAList,
    /// No signature verified: why, for each (in the card's order).
    NoneVerified(Vec<SignatureError>),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Card(e) => write!(f, "the agent card cannot be verified: {e}"),
            VerifyError::NoSignatures => f.write_str("the agent card is not signed"),
            VerifyError::SignaturesNotAList => {
                f.write_str("the agent card's `signatures` is not a list")
            }
            VerifyError::NoneVerified(errors) => {
                f.write_str("no signature of the agent card verifies: ")?;
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Why one signature did not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureError {
    /// The signature's index in `signatures`.
    pub index: usize,
    /// Why.
    pub reason: SignatureFailure,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "signature {}: {}", self.index, self.reason)
    }
}

/// Why one signature did not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureFailure {
    /// The entry is not an object with `protected` and `signature` strings.
    Malformed(&'static str),
    /// `protected` is not base64url.
    ProtectedNotBase64,
    /// `protected` does not decode to a JSON object.
    ProtectedNotObject,
    /// The protected header has no `alg` string.
    MissingAlg,
    /// The protected header has no `kid` string.
    MissingKid,
    /// `alg` is `none`: an unsigned JWS, never accepted.
    AlgNone,
    /// `alg` names no algorithm this verifier knows.
    UnknownAlgorithm(String),
    /// `alg` is known but not on the allow-list.
    AlgorithmNotAllowed(Algorithm),
    /// The header has `crit` (RFC 7515 §4.1.11): extensions this verifier does not understand.
    CriticalHeader,
    /// The resolver knows no key for this `kid`.
    UnknownKid(String),
    /// The key the resolver gave does not take this algorithm (or is bound to another).
    KeyMismatch {
        /// The signature's algorithm.
        algorithm: Algorithm,
        /// The key's kind.
        key: KeyKind,
    },
    /// `signature` is not base64url.
    SignatureNotBase64,
    /// The signature does not verify over any accepted canonical form: the card (or the
    /// signature) was changed, or it was signed with another key.
    BadSignature,
}

impl fmt::Display for SignatureFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureFailure::Malformed(what) => write!(f, "malformed: {what}"),
            SignatureFailure::ProtectedNotBase64 => f.write_str("`protected` is not base64url"),
            SignatureFailure::ProtectedNotObject => {
                f.write_str("`protected` is not a base64url JSON object")
            }
            SignatureFailure::MissingAlg => f.write_str("the protected header has no `alg`"),
            SignatureFailure::MissingKid => f.write_str("the protected header has no `kid`"),
            SignatureFailure::AlgNone => f.write_str("`alg` is `none`, which is never accepted"),
            SignatureFailure::UnknownAlgorithm(name) => {
                write!(f, "`alg` {name:?} is not an algorithm this verifier knows")
            }
            SignatureFailure::AlgorithmNotAllowed(alg) => {
                write!(f, "the algorithm {alg} is not allowed")
            }
            SignatureFailure::CriticalHeader => f.write_str(
                "the protected header has `crit` extensions this verifier does not understand",
            ),
            SignatureFailure::UnknownKid(kid) => write!(f, "unknown kid {kid:?}"),
            SignatureFailure::KeyMismatch { algorithm, key } => {
                write!(
                    f,
                    "the key for this kid is {key}, which does not verify {algorithm}"
                )
            }
            SignatureFailure::SignatureNotBase64 => f.write_str("`signature` is not base64url"),
            SignatureFailure::BadSignature => f.write_str("bad signature"),
        }
    }
}

impl Verifier {
    /// A verifier with `resolver`, the asymmetric algorithms and both canonical forms.
    pub fn new(resolver: impl KeyResolver + 'static) -> Self {
        Verifier {
            resolver: Arc::new(resolver),
            algorithms: Algorithm::SIGNATURES.to_vec(),
            forms: CardForm::ALL.to_vec(),
        }
    }

    /// The algorithms to accept (replacing the default). A MAC (HS256, ...) is accepted only
    /// when listed here.
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The canonical forms to accept, tried in this order (replacing the default, both):
    /// `[CardForm::Spec]` accepts only cards signed as the spec says.
    pub fn forms(mut self, forms: impl IntoIterator<Item = CardForm>) -> Self {
        self.forms = forms.into_iter().collect();
        self
    }

    /// Verifies a card from its raw JSON bytes, as received: every number read as its text
    /// says, a repeated member name refused.
    pub fn verify_json(&self, card: &[u8]) -> Result<Verified, VerifyError> {
        let card = jcs::parse(crate::body::without_bom(card)).map_err(VerifyError::Card)?;
        self.verify(&card)
    }

    /// Verifies a card already parsed (from the bytes received, not re-encoded from types).
    pub fn verify(&self, card: &Value) -> Result<Verified, VerifyError> {
        let Value::Object(members) = card else {
            return Err(VerifyError::Card(JcsError::NotAnObject));
        };
        let signatures = match members.get("signatures") {
            None | Some(Value::Null) => return Err(VerifyError::NoSignatures),
            Some(Value::Array(list)) if list.is_empty() => return Err(VerifyError::NoSignatures),
            Some(Value::Array(list)) => list,
            Some(_) => return Err(VerifyError::SignaturesNotAList),
        };
        // Each form's payload, made when first needed and at most once.
        let mut payloads: Vec<Option<String>> = vec![None; self.forms.len()];
        let mut errors = Vec::new();
        for (index, entry) in signatures.iter().enumerate() {
            match self.check_one(card, entry, &mut payloads) {
                Ok((kid, jku, algorithm, form)) => {
                    return Ok(Verified {
                        index,
                        kid,
                        jku,
                        algorithm,
                        form,
                    })
                }
                Err(CheckError::Card(e)) => return Err(VerifyError::Card(e)),
                Err(CheckError::Signature(reason)) => errors.push(SignatureError { index, reason }),
            }
        }
        Err(VerifyError::NoneVerified(errors))
    }

    fn check_one(
        &self,
        card: &Value,
        entry: &Value,
        payloads: &mut [Option<String>],
    ) -> Result<(String, Option<String>, Algorithm, CardForm), CheckError> {
        use SignatureFailure as F;
        let fail = |f: SignatureFailure| Err(CheckError::Signature(f));
        let Value::Object(entry) = entry else {
            return fail(F::Malformed("a signature is not an object"));
        };
        let Some(protected) = entry.get("protected").and_then(Value::as_str) else {
            return fail(F::Malformed("no `protected` string"));
        };
        let Some(signature) = entry.get("signature").and_then(Value::as_str) else {
            return fail(F::Malformed("no `signature` string"));
        };
        let Ok(header) = URL_SAFE_NO_PAD.decode(protected) else {
            return fail(F::ProtectedNotBase64);
        };
        let Ok(Value::Object(header)) = jcs::parse(&header) else {
            return fail(F::ProtectedNotObject);
        };
        let (algorithm, key) = header_key(&header, &self.algorithms, &*self.resolver)
            .map_err(CheckError::Signature)?;
        let kid = header
            .get("kid")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let jku = header.get("jku").and_then(Value::as_str);
        let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else {
            return fail(F::SignatureNotBase64);
        };
        for (i, form) in self.forms.iter().enumerate() {
            let payload = match &payloads[i] {
                Some(payload) => payload,
                None => {
                    let bytes = card_payload(card, *form).map_err(CheckError::Card)?;
                    payloads[i].insert(URL_SAFE_NO_PAD.encode(bytes))
                }
            };
            let mut input = Vec::with_capacity(protected.len() + 1 + payload.len());
            input.extend_from_slice(protected.as_bytes());
            input.push(b'.');
            input.extend_from_slice(payload.as_bytes());
            if key.verify(algorithm, &input, &signature) {
                return Ok((kid.to_owned(), jku.map(str::to_owned), algorithm, *form));
            }
        }
        fail(F::BadSignature)
    }
}

/// The algorithm and key a JWS protected header names, checked as every JWS this crate reads
/// is (a card's signature, a JWT): an `alg` that is not `none`, is known and is in `algorithms`
/// (so a MAC only when listed); no `crit`; a `kid` the resolver knows (the `jku` a hint); a
/// key of the kind the algorithm takes, and bound to no other (an HMAC "signature" made with
/// an RSA or EC key's public bytes is refused here).
pub(crate) fn header_key(
    header: &serde_json::Map<String, Value>,
    algorithms: &[Algorithm],
    resolver: &dyn KeyResolver,
) -> Result<(Algorithm, VerifyingKey), SignatureFailure> {
    use SignatureFailure as F;
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .ok_or(F::MissingAlg)?;
    if alg.eq_ignore_ascii_case("none") {
        return Err(F::AlgNone);
    }
    let algorithm = Algorithm::from_name(alg).ok_or_else(|| F::UnknownAlgorithm(alg.to_owned()))?;
    if !algorithms.contains(&algorithm) {
        return Err(F::AlgorithmNotAllowed(algorithm));
    }
    if header.contains_key("crit") {
        return Err(F::CriticalHeader);
    }
    let kid = header
        .get("kid")
        .and_then(Value::as_str)
        .ok_or(F::MissingKid)?;
    let jku = header.get("jku").and_then(Value::as_str);
    let key = resolver
        .resolve(kid, jku)
        .ok_or_else(|| F::UnknownKid(kid.to_owned()))?;
    if key.kind() != algorithm.key_kind() || key.algorithm().is_some_and(|a| a != algorithm) {
        return Err(F::KeyMismatch {
            algorithm,
            key: key.kind(),
        });
    }
    Ok((algorithm, key))
}

enum CheckError {
    Card(JcsError),
    Signature(SignatureFailure),
}
