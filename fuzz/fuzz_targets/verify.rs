//! The card verifier on any bytes (`a2a_runtime::trust::Verifier::verify_json`), and on a signed
//! card whose members the input changes: a typed error, never a panic, and never a pass (no
//! input can carry a signature of the key the verifier trusts, which is made at start).
#![no_main]
use a2a_runtime::trust::{Algorithm, KeySet, Signer, SigningKey, Verifier};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

struct Fixture {
    verifier: Verifier,
    signed: serde_json::Value,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let key = SigningKey::generate(Algorithm::ES256).unwrap();
        let keys = KeySet::new().with("k", key.verifying_key());
        let card = serde_json::json!({"name": "fuzz", "description": "", "version": "1", "skills": []});
        let signed = Signer::new(key, "k").signed(&card).unwrap();
        Fixture { verifier: Verifier::new(keys).algorithms(Algorithm::ALL), signed }
    })
}

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    // Any bytes as a card: a card the fuzzer wrote was never signed by the key.
    assert!(fixture.verifier.verify_json(data).is_err());
    // The signed card with a member set to the input (as JSON if it is JSON, else as a string):
    // a changed `name` must fail; a changed `protected` or `signature` must fail.
    let value = serde_json::from_slice(data)
        .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(data).into_owned()));
    for pointer in ["/name", "/signatures/0/protected", "/signatures/0/signature"] {
        let mut card = fixture.signed.clone();
        let slot = card.pointer_mut(pointer).unwrap();
        if *slot == value {
            continue;
        }
        *slot = value.clone();
        assert!(fixture.verifier.verify(&card).is_err(), "{pointer} = {value}");
    }
});
