//! Authentication parsing on any bytes: the input as an `Authorization` header value (and as a
//! bare token) through `StaticTokens` and `JwtAuthenticator`, and as a JWT's header or payload
//! under a real signature's shape. A refusal, never a panic, and never a pass: no input carries a
//! signature of the key the verifier trusts (made at start) or the configured token (random).
//! The same bytes as a W3C `traceparent`/`tracestate`: parsed or refused, and a parsed one written
//! back reads the same.
#![no_main]
use a2a_runtime::auth::{bearer_token, sign_jwt, Caller, JwtAuthenticator, StaticTokens};
use a2a_runtime::telemetry::TraceContext;
use a2a_runtime::trust::{Algorithm, KeySet, SigningKey};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

struct Fixture {
    tokens: StaticTokens,
    jwt: JwtAuthenticator,
    signed: String,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let key = SigningKey::generate(Algorithm::ES256).unwrap();
        // A token no input can guess: the x coordinate of a fresh key, base64url.
        let secret: String = SigningKey::generate(Algorithm::ES256).unwrap().public_jwk("x")["x"]
            .as_str()
            .unwrap()
            .to_owned();
        let signed = sign_jwt(&serde_json::json!({"sub": "s", "exp": 4102444800u64}), &key, "k").unwrap();
        Fixture {
            tokens: StaticTokens::new().bearer(secret, Caller::new("a")),
            jwt: JwtAuthenticator::new(KeySet::new().with("k", key.verifying_key()))
                .algorithms(Algorithm::ALL),
            signed,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    let text = String::from_utf8_lossy(data);
    assert!(fixture.jwt.verify(&text).is_err());
    if let Ok(value) = http::HeaderValue::from_bytes(data) {
        let request = http::Request::get("/").header("authorization", value.clone()).body(()).unwrap();
        let (parts, ()) = request.into_parts();
        let _ = bearer_token(&parts.headers);
        assert!(fixture.tokens.caller_of(&parts).is_err());
        let mut headers = http::HeaderMap::new();
        headers.insert("traceparent", value.clone());
        headers.insert("tracestate", value);
        if let Some(trace) = TraceContext::from_headers(&headers) {
            let mut out = http::HeaderMap::new();
            trace.insert_into(&mut out);
            let again = TraceContext::from_headers(&out).expect("a written traceparent reads");
            assert_eq!((again.trace_id, again.parent_id, again.flags), (trace.trace_id, trace.parent_id, trace.flags));
        }
    }
    // The signed token with its header, payload or signature replaced by the input.
    let pieces: Vec<&str> = fixture.signed.split('.').collect();
    for i in 0..3 {
        let mut forged = pieces.clone();
        if forged[i] == text {
            continue;
        }
        forged[i] = &text;
        assert!(fixture.jwt.verify(&forged.join(".")).is_err());
    }
});
