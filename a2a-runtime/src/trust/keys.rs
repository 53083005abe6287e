//! JWS algorithms and keys (RFC 7518), over aws-lc-rs.

use aws_lc_rs::signature::{self as sig, KeyPair as _};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use serde_json::{json, Value};
use std::fmt;

/// A JWS algorithm (RFC 7518 §3, RFC 8037): the ones a card signature may use here.
///
/// `none` is not one: it can never be named, allowed or verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
    /// ECDSA on P-521 with SHA-512.
    ES512,
    /// Ed25519 (RFC 8037).
    EdDSA,
    /// RSASSA-PKCS1-v1_5 with SHA-256 (keys of 2048 bits and more).
    RS256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RS384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RS512,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// RSASSA-PSS with SHA-384.
    PS384,
    /// RSASSA-PSS with SHA-512.
    PS512,
    /// HMAC with SHA-256: a shared secret, not a signature; verified only when allowed.
    HS256,
    /// HMAC with SHA-384.
    HS384,
    /// HMAC with SHA-512.
    HS512,
}

impl Algorithm {
    /// Every algorithm, in the order above.
    pub const ALL: [Algorithm; 13] = [
        Algorithm::ES256,
        Algorithm::ES384,
        Algorithm::ES512,
        Algorithm::EdDSA,
        Algorithm::RS256,
        Algorithm::RS384,
        Algorithm::RS512,
        Algorithm::PS256,
        Algorithm::PS384,
        Algorithm::PS512,
        Algorithm::HS256,
        Algorithm::HS384,
        Algorithm::HS512,
    ];

    /// The asymmetric algorithms: what a [`Verifier`](crate::trust::Verifier) allows unless
    /// told otherwise (never a MAC, whose key anyone who can verify can sign with).
    pub const SIGNATURES: [Algorithm; 10] = [
        Algorithm::ES256,
        Algorithm::ES384,
        Algorithm::ES512,
        Algorithm::EdDSA,
        Algorithm::RS256,
        Algorithm::RS384,
        Algorithm::RS512,
        Algorithm::PS256,
        Algorithm::PS384,
        Algorithm::PS512,
    ];

    /// Its `alg` name (`"ES256"`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::ES256 => "ES256",
            Algorithm::ES384 => "ES384",
            Algorithm::ES512 => "ES512",
            Algorithm::EdDSA => "EdDSA",
            Algorithm::RS256 => "RS256",
            Algorithm::RS384 => "RS384",
            Algorithm::RS512 => "RS512",
            Algorithm::PS256 => "PS256",
            Algorithm::PS384 => "PS384",
            Algorithm::PS512 => "PS512",
            Algorithm::HS256 => "HS256",
            Algorithm::HS384 => "HS384",
            Algorithm::HS512 => "HS512",
        }
    }

    /// The algorithm an `alg` names, exactly (JOSE names are case-sensitive); `None` for any
    /// other, `none` included.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The kind of key it takes.
    pub fn key_kind(self) -> KeyKind {
        match self {
            Algorithm::ES256 => KeyKind::P256,
            Algorithm::ES384 => KeyKind::P384,
            Algorithm::ES512 => KeyKind::P521,
            Algorithm::EdDSA => KeyKind::Ed25519,
            Algorithm::RS256
            | Algorithm::RS384
            | Algorithm::RS512
            | Algorithm::PS256
            | Algorithm::PS384
            | Algorithm::PS512 => KeyKind::Rsa,
            Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512 => KeyKind::Secret,
        }
    }

    fn hmac(self) -> Option<aws_lc_rs::hmac::Algorithm> {
        match self {
            Algorithm::HS256 => Some(aws_lc_rs::hmac::HMAC_SHA256),
            Algorithm::HS384 => Some(aws_lc_rs::hmac::HMAC_SHA384),
            Algorithm::HS512 => Some(aws_lc_rs::hmac::HMAC_SHA512),
            _ => None,
        }
    }

    fn verification(self) -> Option<&'static dyn sig::VerificationAlgorithm> {
        Some(match self {
            Algorithm::ES256 => &sig::ECDSA_P256_SHA256_FIXED,
            Algorithm::ES384 => &sig::ECDSA_P384_SHA384_FIXED,
            Algorithm::ES512 => &sig::ECDSA_P521_SHA512_FIXED,
            Algorithm::EdDSA => &sig::ED25519,
            Algorithm::RS256 => &sig::RSA_PKCS1_2048_8192_SHA256,
            Algorithm::RS384 => &sig::RSA_PKCS1_2048_8192_SHA384,
            Algorithm::RS512 => &sig::RSA_PKCS1_2048_8192_SHA512,
            Algorithm::PS256 => &sig::RSA_PSS_2048_8192_SHA256,
            Algorithm::PS384 => &sig::RSA_PSS_2048_8192_SHA384,
            Algorithm::PS512 => &sig::RSA_PSS_2048_8192_SHA512,
            Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512 => return None,
        })
    }

    fn ecdsa_signing(self) -> Option<&'static sig::EcdsaSigningAlgorithm> {
        match self {
            Algorithm::ES256 => Some(&sig::ECDSA_P256_SHA256_FIXED_SIGNING),
            Algorithm::ES384 => Some(&sig::ECDSA_P384_SHA384_FIXED_SIGNING),
            Algorithm::ES512 => Some(&sig::ECDSA_P521_SHA512_FIXED_SIGNING),
            _ => None,
        }
    }

    fn rsa_encoding(self) -> Option<&'static dyn sig::RsaEncoding> {
        match self {
            Algorithm::RS256 => Some(&sig::RSA_PKCS1_SHA256),
            Algorithm::RS384 => Some(&sig::RSA_PKCS1_SHA384),
            Algorithm::RS512 => Some(&sig::RSA_PKCS1_SHA512),
            Algorithm::PS256 => Some(&sig::RSA_PSS_SHA256),
            Algorithm::PS384 => Some(&sig::RSA_PSS_SHA384),
            Algorithm::PS512 => Some(&sig::RSA_PSS_SHA512),
            _ => None,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a key: which algorithms it can serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyKind {
    /// An EC key on P-256 (ES256).
    P256,
    /// An EC key on P-384 (ES384).
    P384,
    /// An EC key on P-521 (ES512).
    P521,
    /// An Ed25519 key (EdDSA).
    Ed25519,
    /// An RSA key (RS*, PS*).
    Rsa,
    /// A shared secret (HS*).
    Secret,
}

impl fmt::Display for KeyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyKind::P256 => "an EC P-256 key",
            KeyKind::P384 => "an EC P-384 key",
            KeyKind::P521 => "an EC P-521 key",
            KeyKind::Ed25519 => "an Ed25519 key",
            KeyKind::Rsa => "an RSA key",
            KeyKind::Secret => "a shared secret",
        })
    }
}

/// Why a key could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError(String);

impl KeyError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        KeyError(reason.into())
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

/// A public key (or a shared secret) to verify card signatures with.
///
/// Read from a JWK (RFC 7517: `EC` on P-256, P-384 or P-521, `OKP` Ed25519, `RSA`, `oct`), or
/// from a `SubjectPublicKeyInfo` (DER, or PEM `PUBLIC KEY`). A JWK's `alg`, when it has one, binds
/// the key to that algorithm: a signature naming another is refused.
///
/// ```
/// use a2a_runtime::trust::{KeyKind, VerifyingKey};
/// use serde_json::json;
///
/// let key = VerifyingKey::from_jwk(&json!({
///     "kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
/// })).unwrap();
/// assert_eq!(key.kind(), KeyKind::Ed25519);
/// ```
#[derive(Clone)]
pub struct VerifyingKey {
    kind: KeyKind,
    /// EC: the uncompressed point or an SPKI; Ed25519: the raw key or an SPKI; RSA: an SPKI or
    /// an RSAPublicKey; a secret: its bytes.
    bytes: Vec<u8>,
    alg: Option<Algorithm>,
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("kind", &self.kind)
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

fn b64url(field: &str, value: Option<&Value>) -> Result<Vec<u8>, KeyError> {
    let text = value
        .and_then(Value::as_str)
        .ok_or_else(|| KeyError::new(format!("the JWK has no `{field}` string")))?;
    URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|e| KeyError::new(format!("the JWK's `{field}` is not base64url: {e}")))
}

impl VerifyingKey {
    /// A key from a JWK (a JSON object). The JWK's `use`, when present, must be `sig`.
    pub fn from_jwk(jwk: &Value) -> Result<Self, KeyError> {
        let Value::Object(members) = jwk else {
            return Err(KeyError::new("a JWK is a JSON object"));
        };
        if let Some(usage) = members.get("use") {
            if usage != "sig" {
                return Err(KeyError::new(format!(
                    "the JWK's `use` is {usage}, not \"sig\""
                )));
            }
        }
        let alg = match members.get("alg") {
            None => None,
            Some(Value::String(name)) => Some(Algorithm::from_name(name).ok_or_else(|| {
                KeyError::new(format!(
                    "the JWK's `alg` {name:?} is not an algorithm this verifier knows"
                ))
            })?),
            Some(other) => {
                return Err(KeyError::new(format!(
                    "the JWK's `alg` is {other}, not a string"
                )))
            }
        };
        let kty = members.get("kty").and_then(Value::as_str).unwrap_or("");
        let crv = members.get("crv").and_then(Value::as_str).unwrap_or("");
        let (kind, bytes) = match (kty, crv) {
            ("EC", "P-256" | "P-384" | "P-521") => {
                let kind = match crv {
                    "P-256" => KeyKind::P256,
                    "P-384" => KeyKind::P384,
                    _ => KeyKind::P521,
                };
                let size = match kind {
                    KeyKind::P256 => 32,
                    KeyKind::P384 => 48,
                    _ => 66,
                };
                let x = b64url("x", members.get("x"))?;
                let y = b64url("y", members.get("y"))?;
                if x.len() != size || y.len() != size {
                    return Err(KeyError::new(format!(
                        "the JWK's `x` and `y` must be {size} bytes each on {crv}"
                    )));
                }
                let mut point = Vec::with_capacity(1 + 2 * size);
                point.push(0x04);
                point.extend_from_slice(&x);
                point.extend_from_slice(&y);
                (kind, point)
            }
            ("OKP", "Ed25519") => {
                let x = b64url("x", members.get("x"))?;
                if x.len() != 32 {
                    return Err(KeyError::new("the JWK's `x` must be 32 bytes for Ed25519"));
                }
                (KeyKind::Ed25519, x)
            }
            ("RSA", _) => {
                let n = b64url("n", members.get("n"))?;
                let e = b64url("e", members.get("e"))?;
                let components = aws_lc_rs::rsa::PublicKeyComponents { n: &n, e: &e };
                let der =
                    aws_lc_rs::encoding::AsDer::<aws_lc_rs::encoding::PublicKeyX509Der>::as_der(
                        &components,
                    )
                    .map_err(|_| {
                        KeyError::new("the JWK's `n` and `e` are not an RSA public key")
                    })?;
                (KeyKind::Rsa, der.as_ref().to_vec())
            }
            ("oct", _) => {
                let k = b64url("k", members.get("k"))?;
                if k.is_empty() {
                    return Err(KeyError::new("the JWK's `k` is empty"));
                }
                (KeyKind::Secret, k)
            }
            ("EC" | "OKP", _) => {
                return Err(KeyError::new(format!(
                "the JWK's curve {crv:?} is not one of P-256, P-384, P-521 (EC) or Ed25519 (OKP)"
            )))
            }
            _ => {
                return Err(KeyError::new(format!(
                    "the JWK's `kty` {kty:?} is not EC, OKP, RSA or oct"
                )))
            }
        };
        let key = VerifyingKey { kind, bytes, alg };
        if let Some(alg) = alg {
            if alg.key_kind() != kind {
                return Err(KeyError::new(format!(
                    "the JWK's `alg` {alg} does not take {kind}"
                )));
            }
        }
        key.check()?;
        Ok(key)
    }

    /// A key from a `SubjectPublicKeyInfo` in DER: EC (P-256, P-384, P-521), Ed25519 or RSA.
    pub fn from_spki_der(der: &[u8]) -> Result<Self, KeyError> {
        let tries: [(KeyKind, &'static dyn sig::VerificationAlgorithm); 5] = [
            (KeyKind::P256, &sig::ECDSA_P256_SHA256_FIXED),
            (KeyKind::P384, &sig::ECDSA_P384_SHA384_FIXED),
            (KeyKind::P521, &sig::ECDSA_P521_SHA512_FIXED),
            (KeyKind::Ed25519, &sig::ED25519),
            (KeyKind::Rsa, &sig::RSA_PKCS1_2048_8192_SHA256),
        ];
        for (kind, alg) in tries {
            if sig::ParsedPublicKey::new(alg, der).is_ok() {
                let key = VerifyingKey {
                    kind,
                    bytes: der.to_vec(),
                    alg: None,
                };
                key.check()?;
                return Ok(key);
            }
        }
        Err(KeyError::new(
            "the DER is no EC (P-256, P-384, P-521), Ed25519 or RSA (2048 bits or more) public key",
        ))
    }

    /// A key from PEM: `PUBLIC KEY` (a `SubjectPublicKeyInfo`) or `RSA PUBLIC KEY`.
    pub fn from_pem(pem: &str) -> Result<Self, KeyError> {
        let (label, der) = pem_decode(pem)?;
        match label.as_str() {
            "PUBLIC KEY" => Self::from_spki_der(&der),
            "RSA PUBLIC KEY" => {
                let key = VerifyingKey {
                    kind: KeyKind::Rsa,
                    bytes: der,
                    alg: None,
                };
                key.check()?;
                Ok(key)
            }
            other => Err(KeyError::new(format!(
                "a PEM `{other}` is not a public key (`PUBLIC KEY` or `RSA PUBLIC KEY`)"
            ))),
        }
    }

    /// A shared secret, for HS256, HS384 and HS512 (which a verifier allows only when told to).
    pub fn secret(bytes: impl Into<Vec<u8>>) -> Self {
        VerifyingKey {
            kind: KeyKind::Secret,
            bytes: bytes.into(),
            alg: None,
        }
    }

    /// This key bound to one algorithm: a signature naming another is refused.
    pub fn with_algorithm(mut self, alg: Algorithm) -> Result<Self, KeyError> {
        if alg.key_kind() != self.kind {
            return Err(KeyError::new(format!("{alg} does not take {}", self.kind)));
        }
        self.alg = Some(alg);
        Ok(self)
    }

    /// The kind of key.
    pub fn kind(&self) -> KeyKind {
        self.kind
    }

    /// The one algorithm this key is bound to, if any (a JWK's `alg`).
    pub fn algorithm(&self) -> Option<Algorithm> {
        self.alg
    }

    fn check(&self) -> Result<(), KeyError> {
        let alg = match self.kind {
            KeyKind::P256 => &sig::ECDSA_P256_SHA256_FIXED as &dyn sig::VerificationAlgorithm,
            KeyKind::P384 => &sig::ECDSA_P384_SHA384_FIXED,
            KeyKind::P521 => &sig::ECDSA_P521_SHA512_FIXED,
            KeyKind::Ed25519 => &sig::ED25519,
            KeyKind::Rsa => {
                // The RS* and PS* algorithms here take keys of 2048 bits and more.
                let bits = sig::RsaSubjectPublicKey::from_der(&self.bytes)
                    .map(|k| k.modulus_len() * 8)
                    .map_err(|e| KeyError::new(format!("the RSA key is refused: {e}")))?;
                if bits < 2048 {
                    return Err(KeyError::new(format!(
                        "the RSA key has {bits} bits, fewer than 2048"
                    )));
                }
                return Ok(());
            }
            KeyKind::Secret => return Ok(()),
        };
        sig::ParsedPublicKey::new(alg, &self.bytes)
            .map(|_| ())
            .map_err(|e| KeyError::new(format!("{} is refused: {e}", self.kind)))
    }

    /// Verifies `signature` over `message` with `alg`: `Ok` when it verifies. The caller checked
    /// that `alg` takes this kind of key.
    pub(crate) fn verify(&self, alg: Algorithm, message: &[u8], signature: &[u8]) -> bool {
        if let Some(hmac) = alg.hmac() {
            let key = aws_lc_rs::hmac::Key::new(hmac, &self.bytes);
            return aws_lc_rs::hmac::verify(&key, message, signature).is_ok();
        }
        match alg.verification() {
            Some(verification) => sig::UnparsedPublicKey::new(verification, &self.bytes)
                .verify(message, signature)
                .is_ok(),
            None => false,
        }
    }
}

/// The one PEM block in `pem`: its label and its bytes.
fn pem_decode(pem: &str) -> Result<(String, Vec<u8>), KeyError> {
    let text = pem.trim();
    let rest = text
        .strip_prefix("-----BEGIN ")
        .ok_or_else(|| KeyError::new("not PEM: no `-----BEGIN` line"))?;
    let (label, rest) = rest
        .split_once("-----")
        .ok_or_else(|| KeyError::new("not PEM: the `-----BEGIN` line is not closed"))?;
    let end = format!("-----END {label}-----");
    let body = rest
        .split_once(end.as_str())
        .map(|(body, _)| body)
        .ok_or_else(|| KeyError::new(format!("not PEM: no `{end}` line")))?;
    let base64: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let der = STANDARD
        .decode(base64)
        .map_err(|e| KeyError::new(format!("the PEM `{label}` is not base64: {e}")))?;
    Ok((label.to_owned(), der))
}

/// A private key (or a shared secret) to sign cards with, bound to one algorithm. Cheap to
/// clone (the clones share the key).
///
/// ```
/// use a2a_runtime::trust::{Algorithm, SigningKey};
///
/// let key = SigningKey::generate(Algorithm::ES256).unwrap();
/// let jwk = key.public_jwk("key-1"); // to publish in a JWK Set
/// assert_eq!(jwk["crv"], "P-256");
/// ```
#[derive(Clone)]
pub struct SigningKey {
    alg: Algorithm,
    inner: std::sync::Arc<Private>,
}

enum Private {
    Ecdsa(sig::EcdsaKeyPair),
    Ed25519(sig::Ed25519KeyPair),
    Rsa(sig::RsaKeyPair),
    Secret(Vec<u8>),
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A new random key for `alg` (EC, Ed25519, or RSA of 2048 bits). Errors for a MAC: make
    /// a secret with [`SigningKey::secret`].
    pub fn generate(alg: Algorithm) -> Result<Self, KeyError> {
        let failed = |_| KeyError::new(format!("no {alg} key could be generated"));
        let inner = match alg.key_kind() {
            KeyKind::P256 | KeyKind::P384 | KeyKind::P521 => Private::Ecdsa(
                sig::EcdsaKeyPair::generate(alg.ecdsa_signing().ok_or_else(|| failed(()))?)
                    .map_err(|_| failed(()))?,
            ),
            KeyKind::Ed25519 => {
                Private::Ed25519(sig::Ed25519KeyPair::generate().map_err(|_| failed(()))?)
            }
            KeyKind::Rsa => Private::Rsa(
                sig::RsaKeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048)
                    .map_err(|_| failed(()))?,
            ),
            KeyKind::Secret => {
                return Err(KeyError::new(format!(
                    "{alg} takes a shared secret: use SigningKey::secret"
                )))
            }
        };
        Ok(SigningKey {
            alg,
            inner: std::sync::Arc::new(inner),
        })
    }

    /// A key from a PKCS#8 `PrivateKeyInfo` in DER, for `alg` (which must take it).
    pub fn from_pkcs8_der(alg: Algorithm, der: &[u8]) -> Result<Self, KeyError> {
        let refused = |e: aws_lc_rs::error::KeyRejected| {
            KeyError::new(format!("the key is no {} for {alg}: {e}", alg.key_kind()))
        };
        let inner = match alg.key_kind() {
            KeyKind::P256 | KeyKind::P384 | KeyKind::P521 => Private::Ecdsa(
                sig::EcdsaKeyPair::from_pkcs8(
                    alg.ecdsa_signing()
                        .ok_or_else(|| KeyError::new("no ECDSA algorithm"))?,
                    der,
                )
                .map_err(refused)?,
            ),
            KeyKind::Ed25519 => Private::Ed25519(
                sig::Ed25519KeyPair::from_pkcs8_maybe_unchecked(der).map_err(refused)?,
            ),
            KeyKind::Rsa => Private::Rsa(sig::RsaKeyPair::from_pkcs8(der).map_err(refused)?),
            KeyKind::Secret => {
                return Err(KeyError::new(format!(
                    "{alg} takes a shared secret: use SigningKey::secret"
                )))
            }
        };
        Ok(SigningKey {
            alg,
            inner: std::sync::Arc::new(inner),
        })
    }

    /// A key from PEM, for `alg`: `PRIVATE KEY` (PKCS#8), `EC PRIVATE KEY` (SEC 1) or
    /// `RSA PRIVATE KEY` (PKCS#1).
    pub fn from_pem(alg: Algorithm, pem: &str) -> Result<Self, KeyError> {
        let (label, der) = pem_decode(pem)?;
        let refused = |e: aws_lc_rs::error::KeyRejected| {
            KeyError::new(format!("the `{label}` is refused for {alg}: {e}"))
        };
        match label.as_str() {
            "PRIVATE KEY" => Self::from_pkcs8_der(alg, &der),
            "EC PRIVATE KEY" => {
                let signing = alg
                    .ecdsa_signing()
                    .ok_or_else(|| KeyError::new(format!("an EC key does not sign {alg}")))?;
                let pair =
                    sig::EcdsaKeyPair::from_private_key_der(signing, &der).map_err(refused)?;
                Ok(SigningKey {
                    alg,
                    inner: std::sync::Arc::new(Private::Ecdsa(pair)),
                })
            }
            "RSA PRIVATE KEY" if alg.key_kind() == KeyKind::Rsa => Ok(SigningKey {
                alg,
                inner: std::sync::Arc::new(Private::Rsa(
                    sig::RsaKeyPair::from_der(&der).map_err(refused)?,
                )),
            }),
            other => Err(KeyError::new(format!(
                "a PEM `{other}` is not a private key for {alg}"
            ))),
        }
    }

    /// A shared secret, for HS256, HS384 or HS512.
    pub fn secret(alg: Algorithm, secret: impl Into<Vec<u8>>) -> Result<Self, KeyError> {
        let secret = secret.into();
        if alg.key_kind() != KeyKind::Secret || secret.is_empty() {
            return Err(KeyError::new(format!(
                "{alg} does not take a shared secret (or the secret is empty)"
            )));
        }
        Ok(SigningKey {
            alg,
            inner: std::sync::Arc::new(Private::Secret(secret)),
        })
    }

    /// The algorithm it signs with.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The public half as a JWK with this `kid` (and `alg`, `use: "sig"`), for a JWK Set; a
    /// shared secret gives an `oct` JWK **with** the secret in it.
    pub fn public_jwk(&self, kid: &str) -> Value {
        let b64 = |bytes: &[u8]| URL_SAFE_NO_PAD.encode(bytes);
        let mut jwk = match &*self.inner {
            Private::Ecdsa(pair) => {
                let point = pair.public_key().as_ref();
                let size = (point.len() - 1) / 2;
                let crv = match self.alg {
                    Algorithm::ES256 => "P-256",
                    Algorithm::ES384 => "P-384",
                    _ => "P-521",
                };
                json!({"kty": "EC", "crv": crv, "x": b64(&point[1..1 + size]), "y": b64(&point[1 + size..])})
            }
            Private::Ed25519(pair) => {
                json!({"kty": "OKP", "crv": "Ed25519", "x": b64(pair.public_key().as_ref())})
            }
            Private::Rsa(pair) => {
                let public = pair.public_key();
                json!({
                    "kty": "RSA",
                    "n": b64(public.modulus().big_endian_without_leading_zero()),
                    "e": b64(public.exponent().big_endian_without_leading_zero()),
                })
            }
            Private::Secret(secret) => json!({"kty": "oct", "k": b64(secret)}),
        };
        if let Value::Object(members) = &mut jwk {
            members.insert("kid".into(), Value::String(kid.into()));
            members.insert("alg".into(), Value::String(self.alg.name().into()));
            members.insert("use".into(), Value::String("sig".into()));
        }
        jwk
    }

    /// The key that verifies this key's signatures, bound to its algorithm.
    pub fn verifying_key(&self) -> VerifyingKey {
        let (kind, bytes) = match &*self.inner {
            Private::Ecdsa(pair) => (self.alg.key_kind(), pair.public_key().as_ref().to_vec()),
            Private::Ed25519(pair) => (KeyKind::Ed25519, pair.public_key().as_ref().to_vec()),
            Private::Rsa(pair) => (KeyKind::Rsa, pair.public_key().as_ref().to_vec()),
            Private::Secret(secret) => (KeyKind::Secret, secret.clone()),
        };
        VerifyingKey {
            kind,
            bytes,
            alg: Some(self.alg),
        }
    }

    /// The signature of `message`.
    pub(crate) fn sign(&self, message: &[u8]) -> Result<Vec<u8>, KeyError> {
        let failed = || KeyError::new(format!("{} signing failed", self.alg));
        match &*self.inner {
            Private::Ecdsa(pair) => pair
                .sign(&aws_lc_rs::rand::SystemRandom::new(), message)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| failed()),
            Private::Ed25519(pair) => Ok(pair.sign(message).as_ref().to_vec()),
            Private::Rsa(pair) => {
                let encoding = self.alg.rsa_encoding().ok_or_else(failed)?;
                let mut out = vec![0; pair.public_modulus_len()];
                pair.sign(
                    encoding,
                    &aws_lc_rs::rand::SystemRandom::new(),
                    message,
                    &mut out,
                )
                .map_err(|_| failed())?;
                Ok(out)
            }
            Private::Secret(secret) => {
                let hmac = self.alg.hmac().ok_or_else(failed)?;
                let key = aws_lc_rs::hmac::Key::new(hmac, secret);
                Ok(aws_lc_rs::hmac::sign(&key, message).as_ref().to_vec())
            }
        }
    }
}
