//! Signing and verifying agent cards (`trust`): every algorithm both ways, the card as received
//! (members this version does not know), tampering, and every kind of bad signature a typed
//! error, never a pass and never a panic.
#![cfg(feature = "trust")]

use a2a_runtime::trust::{
    card_payload, Algorithm, CardForm, KeyKind, KeySet, SignatureFailure, Signer, SigningKey,
    Verifier, VerifyError, VerifyingKey,
};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};

fn card() -> Value {
    json!({
        "name": "Grüße-Agent ✓",
        "description": "",
        "version": "1.0.0",
        "supportedInterfaces": [{"url": "http://127.0.0.1:1/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": true, "extensions": [
            {"uri": "https://example.com/ext/v1", "required": false, "params": {"n": 1.5, "deep": {"list": [1, "", {"x": null}]}}},
        ]},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": [], "examples": []}],
    })
}

fn signer(alg: Algorithm, kid: &str) -> (Signer, KeySet) {
    let key = SigningKey::generate(alg).unwrap();
    let keys = KeySet::new().with(kid, key.verifying_key());
    (Signer::new(key, kid), keys)
}

fn failure(err: VerifyError) -> SignatureFailure {
    match err {
        VerifyError::NoneVerified(mut errors) => {
            assert_eq!(errors.len(), 1, "{errors:?}");
            errors.remove(0).reason
        }
        other => panic!("expected one failed signature, got {other:?}"),
    }
}

#[test]
fn every_algorithm_signs_and_verifies_and_a_flipped_bit_fails() {
    for alg in Algorithm::ALL {
        let (signer, keys) = signer_for(alg);
        let signed = signer.signed(&card()).unwrap();
        let verifier = Verifier::new(keys).algorithms(Algorithm::ALL);
        let verified = verifier.verify(&signed).unwrap();
        assert_eq!(verified.algorithm, alg);
        assert_eq!(verified.form, CardForm::Spec);
        // The protected header: alg, typ JOSE, kid.
        let protected = signed["signatures"][0]["protected"].as_str().unwrap();
        let header: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(protected).unwrap()).unwrap();
        assert_eq!(
            header,
            json!({"alg": alg.name(), "typ": "JOSE", "kid": "k"})
        );
        // One bit of the signature flipped.
        let mut bytes = URL_SAFE_NO_PAD
            .decode(signed["signatures"][0]["signature"].as_str().unwrap())
            .unwrap();
        bytes[0] ^= 1;
        let mut flipped = signed.clone();
        flipped["signatures"][0]["signature"] = json!(URL_SAFE_NO_PAD.encode(bytes));
        assert_eq!(
            failure(verifier.verify(&flipped).unwrap_err()),
            SignatureFailure::BadSignature,
            "{alg}"
        );
    }
}

fn signer_for(alg: Algorithm) -> (Signer, KeySet) {
    match alg.key_kind() {
        KeyKind::Secret => {
            let key = SigningKey::secret(alg, b"a shared secret of some length".to_vec()).unwrap();
            let keys = KeySet::new().with("k", key.verifying_key());
            (Signer::new(key, "k"), keys)
        }
        _ => signer(alg, "k"),
    }
}

#[test]
fn the_signer_does_not_change_the_card_and_appends_to_existing_signatures() {
    let original = card();
    let (first, keys1) = signer(Algorithm::ES256, "one");
    let (second, keys2) = signer(Algorithm::EdDSA, "two");
    let once = first.signed(&original).unwrap();
    assert_eq!(original, card(), "the card given is unchanged");
    let twice = second.signed(&once).unwrap();
    assert_eq!(twice["signatures"].as_array().unwrap().len(), 2);
    // Either key verifies the card; the result names which signature did.
    let v = Verifier::new(keys2).verify(&twice).unwrap();
    assert_eq!((v.index, v.kid.as_str()), (1, "two"));
    let v = Verifier::new(keys1).verify(&twice).unwrap();
    assert_eq!((v.index, v.kid.as_str()), (0, "one"));
}

#[test]
fn tampering_fails() {
    let (signer, keys) = signer(Algorithm::ES256, "k");
    let signed = signer.signed(&card()).unwrap();
    let verifier = Verifier::new(keys);
    let mut changed = signed.clone();
    changed["skills"][0]["name"] = json!("T");
    assert_eq!(
        failure(verifier.verify(&changed).unwrap_err()),
        SignatureFailure::BadSignature
    );
    let mut added = signed.clone();
    added["iconUrl"] = json!("https://evil.example/icon.png");
    assert_eq!(
        failure(verifier.verify(&added).unwrap_err()),
        SignatureFailure::BadSignature
    );
    let mut nested = signed.clone();
    nested["capabilities"]["extensions"][0]["params"]["n"] = json!(2);
    assert_eq!(
        failure(verifier.verify(&nested).unwrap_err()),
        SignatureFailure::BadSignature
    );
    // What the presence rule leaves out may change: the canonical form is the same.
    let mut default = signed.clone();
    default["securityRequirements"] = json!([]);
    assert!(verifier.verify(&default).is_ok());
}

#[test]
fn a_card_with_members_this_version_does_not_know_verifies_as_received() {
    let mut card = card();
    card["futureCapability"] = json!({"mode": "quantum", "levels": [1, 2, 3], "empty": ""});
    card["capabilities"]["teleport"] = json!(true);
    let (signer, keys) = signer(Algorithm::EdDSA, "k");
    let raw = serde_json::to_vec(&signer.signed(&card).unwrap()).unwrap();
    let verifier = Verifier::new(keys);
    assert_eq!(verifier.verify_json(&raw).unwrap().form, CardForm::Spec);
    // Without the unknown member (what a typed round trip gives), it fails: the trap.
    let mut typed: Value = serde_json::from_slice(&raw).unwrap();
    typed.as_object_mut().unwrap().remove("futureCapability");
    assert_eq!(
        failure(verifier.verify(&typed).unwrap_err()),
        SignatureFailure::BadSignature
    );
}

#[test]
fn a_signature_over_the_clean_empty_form_verifies_and_says_so() {
    let (signer, keys) = signer(Algorithm::ES256, "k");
    let signed = signer.form(CardForm::CleanEmpty).signed(&card()).unwrap();
    let verified = Verifier::new(keys.clone()).verify(&signed).unwrap();
    assert_eq!(verified.form, CardForm::CleanEmpty);
    // The forms differ on this card (empty description, empty lists, "" in params).
    assert_ne!(
        card_payload(&card(), CardForm::Spec).unwrap(),
        card_payload(&card(), CardForm::CleanEmpty).unwrap()
    );
    // A verifier that accepts only the spec's form refuses it.
    let strict = Verifier::new(keys).forms([CardForm::Spec]);
    assert_eq!(
        failure(strict.verify(&signed).unwrap_err()),
        SignatureFailure::BadSignature
    );
}

fn with_protected(header: &str) -> Value {
    let mut card = card();
    card["signatures"] =
        json!([{"protected": URL_SAFE_NO_PAD.encode(header), "signature": "AAAA"}]);
    card
}

#[test]
fn bad_signatures_are_typed_errors() {
    let (_, keys) = signer(Algorithm::ES256, "k");
    let verifier = Verifier::new(keys.clone());
    let cases: Vec<(Value, SignatureFailure)> = vec![
        (
            with_protected(r#"{"kid":"k"}"#),
            SignatureFailure::MissingAlg,
        ),
        (
            with_protected(r#"{"alg":"ES256"}"#),
            SignatureFailure::MissingKid,
        ),
        (
            with_protected(r#"{"alg":"none","kid":"k"}"#),
            SignatureFailure::AlgNone,
        ),
        (
            with_protected(r#"{"alg":"NONE","kid":"k"}"#),
            SignatureFailure::AlgNone,
        ),
        (
            with_protected(r#"{"alg":"ES999","kid":"k"}"#),
            SignatureFailure::UnknownAlgorithm("ES999".into()),
        ),
        (
            with_protected(r#"{"alg":"HS256","kid":"k"}"#),
            SignatureFailure::AlgorithmNotAllowed(Algorithm::HS256),
        ),
        (
            with_protected(r#"{"alg":"ES256","kid":"other"}"#),
            SignatureFailure::UnknownKid("other".into()),
        ),
        (
            with_protected(r#"{"alg":"EdDSA","kid":"k"}"#),
            SignatureFailure::KeyMismatch {
                algorithm: Algorithm::EdDSA,
                key: KeyKind::P256,
            },
        ),
        (
            with_protected(r#"{"alg":"ES256","kid":"k","crit":["b64"]}"#),
            SignatureFailure::CriticalHeader,
        ),
        (
            with_protected(r#"[1,2]"#),
            SignatureFailure::ProtectedNotObject,
        ),
        (
            with_protected(r#"{"alg":"ES256","kid":"k","kid":"x"}"#),
            SignatureFailure::ProtectedNotObject,
        ),
        (
            with_protected("not json"),
            SignatureFailure::ProtectedNotObject,
        ),
        (
            with_protected(r#"{"alg":"ES256","kid":"k"}"#),
            SignatureFailure::BadSignature,
        ),
    ];
    for (card, expected) in cases {
        assert_eq!(failure(verifier.verify(&card).unwrap_err()), expected);
    }
    let mut bad = card();
    bad["signatures"] = json!([{"protected": "!!!", "signature": "AAAA"}]);
    assert_eq!(
        failure(verifier.verify(&bad).unwrap_err()),
        SignatureFailure::ProtectedNotBase64
    );
    bad["signatures"] = json!([{"protected": URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256","kid":"k"}"#), "signature": "a+b/"}]);
    assert_eq!(
        failure(verifier.verify(&bad).unwrap_err()),
        SignatureFailure::SignatureNotBase64
    );
    bad["signatures"] = json!(["x"]);
    assert!(matches!(
        failure(verifier.verify(&bad).unwrap_err()),
        SignatureFailure::Malformed(_)
    ));
    bad["signatures"] = json!([{"protected": 1}]);
    assert!(matches!(
        failure(verifier.verify(&bad).unwrap_err()),
        SignatureFailure::Malformed(_)
    ));
    // The card itself.
    bad["signatures"] = json!([]);
    assert_eq!(verifier.verify(&bad), Err(VerifyError::NoSignatures));
    bad.as_object_mut().unwrap().remove("signatures");
    assert_eq!(verifier.verify(&bad), Err(VerifyError::NoSignatures));
    bad["signatures"] = json!({"protected": "x"});
    assert_eq!(verifier.verify(&bad), Err(VerifyError::SignaturesNotAList));
    assert!(matches!(
        verifier.verify(&json!([bad])),
        Err(VerifyError::Card(_))
    ));
    assert!(matches!(
        verifier.verify_json(b"{\"a\":1,\"a\":2}"),
        Err(VerifyError::Card(_))
    ));
    let deep = format!(
        "{{\"signatures\":[1],\"x\":{}{}}}",
        "[".repeat(300),
        "]".repeat(300)
    );
    assert!(matches!(
        verifier.verify_json(deep.as_bytes()),
        Err(VerifyError::Card(_))
    ));
    // A key bound to another algorithm of its kind.
    let rs256 = SigningKey::generate(Algorithm::RS256).unwrap();
    let bound = VerifyingKey::from_jwk(&rs256.public_jwk("r")).unwrap();
    assert_eq!(bound.algorithm(), Some(Algorithm::RS256));
    let signed = Signer::new(SigningKey::generate(Algorithm::PS256).unwrap(), "r")
        .signed(&card())
        .unwrap();
    let verifier = Verifier::new(KeySet::new().with("r", bound));
    assert_eq!(
        failure(verifier.verify(&signed).unwrap_err()),
        SignatureFailure::KeyMismatch {
            algorithm: Algorithm::PS256,
            key: KeyKind::Rsa
        }
    );
}

#[test]
fn keys_read_from_jwks_and_pem() {
    let key = SigningKey::generate(Algorithm::ES384).unwrap();
    let jwks = json!({"keys": [key.public_jwk("a"), SigningKey::generate(Algorithm::EdDSA).unwrap().public_jwk("b")]});
    let set = KeySet::from_jwks(&jwks).unwrap();
    assert_eq!(set.len(), 2);
    let signed = Signer::new(key, "a").signed(&card()).unwrap();
    assert_eq!(Verifier::new(set).verify(&signed).unwrap().kid, "a");
    // Bad JWKs are errors, not keys.
    for bad in [
        json!({"kty": "EC", "crv": "P-256", "x": "AAAA", "y": "AAAA"}),
        json!({"kty": "EC", "crv": "P-192", "x": "AAAA", "y": "AAAA"}),
        json!({"kty": "OKP", "crv": "Ed448", "x": "AAAA"}),
        json!({"kty": "RSA", "n": "AQAB", "e": "AQAB"}),
        json!({"kty": "oct", "k": ""}),
        json!({"kty": "XYZ"}),
        json!({"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "use": "enc"}),
        json!({"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "alg": "ES256"}),
        json!("not an object"),
    ] {
        assert!(VerifyingKey::from_jwk(&bad).is_err(), "{bad}");
    }
    assert!(KeySet::from_jwks(&json!({"keys": [{"kty": "oct", "k": "AA"}]})).is_err());
    assert!(
        VerifyingKey::from_pem("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----")
            .is_err()
    );
    assert!(VerifyingKey::from_pem("nope").is_err());
    assert!(SigningKey::from_pem(
        Algorithm::ES256,
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
    )
    .is_err());
    assert!(SigningKey::generate(Algorithm::HS256).is_err());
    assert!(SigningKey::secret(Algorithm::ES256, b"x".to_vec()).is_err());
}
