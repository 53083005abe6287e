//! Signing a card (spec §8.4.2).

use crate::trust::card::{card_payload, CardForm};
use crate::trust::jcs::{self, JcsError};
use crate::trust::keys::{KeyError, SigningKey};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{Map, Value};
use std::fmt;

/// Signs agent cards with one key: a detached JWS over the card's canonical form, with a
/// protected header `{"alg", "typ": "JOSE", "kid", "jku"?}`. It returns the
/// `AgentCardSignature` to add ([`Signer::sign`]) or a copy of the card with it appended
/// ([`Signer::signed`]); it never changes the card it is given.
///
/// By default it signs the spec's form ([`CardForm::Spec`]). a2a-sdk 1.3.0's verifier checks its
/// own form, [`CardForm::CleanEmpty`]: a card with an empty value (a `"description": ""`, an
/// empty list) signed in the spec's form does not verify there. To be verified by both, add two
/// signatures, one per form ([`Signer::form`]); a verifier of either kind accepts the card when
/// one verifies.
///
/// ```
/// use a2a_runtime::trust::{Algorithm, CardForm, Signer, SigningKey};
/// use serde_json::json;
///
/// let card = json!({"name": "Agent", "description": "Says hello", "version": "1.0"});
/// let signer = Signer::new(SigningKey::generate(Algorithm::EdDSA).unwrap(), "key-1")
///     .jku("https://agent.example.com/.well-known/jwks.json");
/// let signature = signer.sign(&card).unwrap(); // {"protected": "...", "signature": "..."}
/// assert!(signature["protected"].is_string() && signature["signature"].is_string());
///
/// // Both forms, for spec verifiers and a2a-sdk's alike:
/// let sdk = Signer::new(SigningKey::generate(Algorithm::ES256).unwrap(), "key-2").form(CardForm::CleanEmpty);
/// let signed = sdk.signed(&signer.signed(&card).unwrap()).unwrap();
/// assert_eq!(signed["signatures"].as_array().unwrap().len(), 2);
/// ```
#[derive(Clone)]
pub struct Signer {
    key: SigningKey,
    kid: String,
    jku: Option<String>,
    header: Option<Map<String, Value>>,
    form: CardForm,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("alg", &self.key.algorithm())
            .field("kid", &self.kid)
            .field("jku", &self.jku)
            .field("form", &self.form)
            .finish_non_exhaustive()
    }
}

/// Why a card could not be signed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignError {
    /// The card has no canonical form (not an object, a repeated name, too deep).
    Card(JcsError),
    /// The card's `signatures` is there and is not a list (to append to).
    SignaturesNotAList,
    /// The key failed to sign.
    Key(KeyError),
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignError::Card(e) => write!(f, "the agent card cannot be signed: {e}"),
            SignError::SignaturesNotAList => {
                f.write_str("the agent card's `signatures` is not a list")
            }
            SignError::Key(e) => write!(f, "the agent card cannot be signed: {e}"),
        }
    }
}

impl std::error::Error for SignError {}

impl Signer {
    /// A signer with `key`, named `kid` in the protected header.
    pub fn new(key: SigningKey, kid: impl Into<String>) -> Self {
        Signer {
            key,
            kid: kid.into(),
            jku: None,
            header: None,
            form: CardForm::Spec,
        }
    }

    /// The URL of the JWK Set holding the public key, for the protected header's `jku`.
    pub fn jku(mut self, url: impl Into<String>) -> Self {
        self.jku = Some(url.into());
        self
    }

    /// The unprotected header (`header`): not signed, so nothing a verifier trusts.
    pub fn header(mut self, header: Map<String, Value>) -> Self {
        self.header = Some(header);
        self
    }

    /// The canonical form to sign (default [`CardForm::Spec`]).
    pub fn form(mut self, form: CardForm) -> Self {
        self.form = form;
        self
    }

    /// The signature of `card` (a JSON object; its `signatures` are not signed), as the
    /// `AgentCardSignature` JSON object to add to its `signatures`.
    pub fn sign(&self, card: &Value) -> Result<Value, SignError> {
        let payload = card_payload(card, self.form).map_err(SignError::Card)?;
        // The header's members in the spec's order (§8.4.2); serde_json's own map keeps
        // insertion order only with `preserve_order`, so the JSON is written by hand.
        let quote = |s: &str| Value::String(s.to_owned()).to_string();
        let mut header = format!(
            "{{\"alg\":{},\"typ\":\"JOSE\",\"kid\":{}",
            quote(self.key.algorithm().name()),
            quote(&self.kid)
        );
        if let Some(jku) = &self.jku {
            header.push_str(",\"jku\":");
            header.push_str(&quote(jku));
        }
        header.push('}');
        let protected = URL_SAFE_NO_PAD.encode(header.as_bytes());
        let input = format!("{protected}.{}", URL_SAFE_NO_PAD.encode(payload));
        let signature = self.key.sign(input.as_bytes()).map_err(SignError::Key)?;
        let mut out = Map::new();
        out.insert("protected".into(), Value::String(protected));
        out.insert(
            "signature".into(),
            Value::String(URL_SAFE_NO_PAD.encode(signature)),
        );
        if let Some(header) = &self.header {
            out.insert("header".into(), Value::Object(header.clone()));
        }
        Ok(Value::Object(out))
    }

    /// A copy of `card` with its signature appended to `signatures`.
    pub fn signed(&self, card: &Value) -> Result<Value, SignError> {
        let signature = self.sign(card)?;
        let mut card = card.clone();
        let Value::Object(members) = &mut card else {
            return Err(SignError::Card(JcsError::NotAnObject));
        };
        if members.get("signatures").is_some_and(Value::is_null) {
            members.remove("signatures");
        }
        match members
            .entry("signatures")
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(list) => list.push(signature),
            _ => return Err(SignError::SignaturesNotAList),
        }
        Ok(card)
    }

    /// [`Signer::signed`] on a card's raw JSON, as [`jcs::parse`] reads it.
    pub fn signed_json(&self, card: &[u8]) -> Result<Value, SignError> {
        self.signed(&jcs::parse(card).map_err(SignError::Card)?)
    }
}
