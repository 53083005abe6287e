//! The Rust side of tests/trust/run.sh (see its README):
//!
//! ```text
//! trust-interop verify DIR      verify the cards a2a-sdk signed in DIR/sdk/
//! trust-interop sign DIR        sign DIR/inputs/ into DIR/rust/ for a2a-sdk's verifier
//! trust-interop webhook PORT_FILE TOKEN ACCEPT REFUSE
//!                               a webhook on 127.0.0.1 until ACCEPT notifications were
//!                               taken and REFUSE refused (or 60 s passed)
//! ```
//!
//! Every check prints one line; the last line is `N passed, N failed`; the exit status is 1
//! when a check failed.

use a2a_runtime::trust::webhook::{webhook_route, WebhookReceiver, TOKEN_HEADER};
use a2a_runtime::trust::{
    card_payload, jcs, Algorithm, CardForm, KeySet, Signer, SigningKey, Verifier, VerifyError,
};
use a2a_types::v1::StreamResponse;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn check(&mut self, ok: bool, line: String) {
        match ok {
            true => {
                self.passed += 1;
                println!("  {line}");
            }
            false => {
                self.failed += 1;
                println!("  {line}  FAILED");
            }
        }
    }

    fn finish(self) -> ExitCode {
        println!("{} passed, {} failed", self.passed, self.failed);
        match self.failed {
            0 => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        }
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The cards a2a-sdk signed verify; its tampered ones do not. Also measures, on each card,
/// whether the SDK's canonical form (its `_clean_empty`) differs from the spec's.
fn verify(dir: &Path) -> ExitCode {
    let sdk = dir.join("sdk");
    let jwks: Value = serde_json::from_slice(&read(&sdk.join("jwks.json"))).expect("jwks.json");
    let verifier = Verifier::new(KeySet::from_jwks(&jwks).expect("the SDK's JWK Set"));
    let mut tally = Tally::default();
    let (mut verified, mut by_form, mut differs, mut matches_clean) = (0, [0usize; 2], 0, 0);
    for path in json_files(&sdk.join("cards")) {
        let raw = read(&path);
        match verifier.verify_json(&raw) {
            Ok(v) => {
                verified += 1;
                by_form[usize::from(v.form == CardForm::CleanEmpty)] += 1;
                tally.check(
                    true,
                    format!(
                        "{}: verified ({} {}, {} form)",
                        name(&path),
                        v.kid,
                        v.algorithm,
                        v.form.name()
                    ),
                );
            }
            Err(e) => tally.check(false, format!("{}: {e}", name(&path))),
        }
        // The SDK's own payload, beside ours.
        let payload = sdk.join("payloads").join(name(&path));
        if let Ok(theirs) = std::fs::read(&payload) {
            let card = jcs::parse(&raw).expect("the card parses");
            let spec = card_payload(&card, CardForm::Spec).expect("spec form");
            let clean = card_payload(&card, CardForm::CleanEmpty).expect("clean-empty form");
            differs += usize::from(spec != theirs);
            matches_clean += usize::from(clean == theirs);
            tally.check(
                clean == theirs,
                format!(
                    "{}: the SDK's payload is our clean-empty form; the spec's form {}",
                    name(&path),
                    if spec == theirs {
                        "is the same"
                    } else {
                        "differs"
                    }
                ),
            );
        }
    }
    let mut refused = 0;
    for path in json_files(&sdk.join("tampered")) {
        match verifier.verify_json(&read(&path)) {
            Ok(v) => tally.check(
                false,
                format!(
                    "{}: verified ({v:?}), but it was tampered with",
                    name(&path)
                ),
            ),
            Err(e) => {
                refused += 1;
                tally.check(
                    matches!(e, VerifyError::NoneVerified(_)),
                    format!("{}: refused: {e}", name(&path)),
                );
            }
        }
    }
    println!(
        "rust verify: {verified} SDK-signed cards verified ({} in the spec's form, {} only in the clean-empty form); \
         {refused} tampered cards refused; the SDK's form differs from the spec's on {differs} cards, \
         equals our clean-empty form on {matches_clean}",
        by_form[0], by_form[1]
    );
    tally.finish()
}

/// Signs the input cards with ES256 and EdDSA keys for a2a-sdk's verifier, with the
/// expectations it checks.
fn sign(dir: &Path) -> ExitCode {
    let out = dir.join("rust");
    for sub in ["cards", "spec-only", "tampered", "newer"] {
        std::fs::create_dir_all(out.join(sub)).expect("the output folders");
    }
    let mut expect = serde_json::Map::new();
    let mut jwks = Vec::new();
    let mut tally = Tally::default();
    let write = |path: PathBuf, value: &Value| {
        std::fs::write(&path, serde_json::to_vec_pretty(value).unwrap()).expect("write a card");
    };
    for alg in [Algorithm::ES256, Algorithm::EdDSA] {
        let kid = format!("rust-{alg}");
        let key = SigningKey::generate(alg).expect("a key");
        jwks.push(key.public_jwk(&kid));
        let keys = KeySet::new().with(kid.clone(), key.verifying_key());
        let spec = Signer::new(key.clone(), kid.clone());
        // The same key signing a2a-sdk's form, which its verifier checks.
        let clean = Signer::new(key, kid.clone()).form(CardForm::CleanEmpty);
        let verifier = Verifier::new(keys);
        let mut inputs: Vec<(String, Value)> = json_files(&dir.join("inputs"))
            .into_iter()
            .map(|p| {
                let card = jcs::parse(&read(&p)).expect("an input card");
                (name(&p).trim_end_matches(".json").to_owned(), card)
            })
            .collect();
        for (name, card) in inputs.drain(..) {
            // Two signatures: the spec's form, and a2a-sdk's.
            let both = clean.signed(&spec.signed(&card).unwrap()).unwrap();
            let spec_only = spec.signed(&card).unwrap();
            let clean_only = clean.signed(&card).unwrap();
            let same =
                card_payload(&card, CardForm::Spec) == card_payload(&card, CardForm::CleanEmpty);
            let file = format!("{name}.{}.json", alg.name());
            tally.check(
                verifier.verify(&both).is_ok(),
                format!("{file}: signed, verifies in Rust"),
            );
            write(out.join("cards").join(&file), &both);
            expect.insert(format!("cards/{file}"), json!(true));
            write(out.join("spec-only").join(&file), &spec_only);
            expect.insert(format!("spec-only/{file}"), json!(same));
            let mut changed = both.clone();
            changed["name"] = json!(format!("{}!", changed["name"].as_str().unwrap_or("")));
            let mut added = both.clone();
            added["documentationUrl"] = json!("https://evil.example/docs");
            let flipped = flip(&clean_only);
            for (kind, bad) in [("changed", changed), ("added", added), ("flipped", flipped)] {
                let file = format!("{name}.{}.{kind}.json", alg.name());
                tally.check(
                    verifier.verify(&bad).is_err(),
                    format!("{file}: tampered, refused in Rust"),
                );
                write(out.join("tampered").join(&file), &bad);
                expect.insert(format!("tampered/{file}"), json!(false));
            }
        }
        // A card with a member a2a-sdk 1.3.0 does not know, signed over the card as it is: the
        // SDK reads the card into its types before verifying, drops the member, and cannot
        // verify it (the trap a tolerant reader has; we verify over the card as received).
        let mut newer = json!({
            "name": "newer", "description": "a card from a newer agent", "version": "2",
            "supportedInterfaces": [{"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": true}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"], "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"]}],
        });
        newer["futureCapability"] = json!({"mode": "quantum"});
        let signed = clean.signed(&spec.signed(&newer).unwrap()).unwrap();
        let file = format!("unknown-member.{}.json", alg.name());
        tally.check(
            verifier.verify(&signed).is_ok(),
            format!("{file}: signed with a member the SDK does not know, verifies in Rust"),
        );
        write(out.join("newer").join(&file), &signed);
        expect.insert(format!("newer/{file}"), json!(false));
    }
    let cards = expect.keys().filter(|k| k.starts_with("cards/")).count();
    println!(
        "rust sign: {cards} cards signed (ES256 and EdDSA; each in both forms, and in the spec's \
         alone), {} tampered, {} with a member a2a-sdk 1.3.0 does not know",
        expect.keys().filter(|k| k.starts_with("tampered/")).count(),
        expect.keys().filter(|k| k.starts_with("newer/")).count()
    );
    write(out.join("jwks.json"), &json!({ "keys": jwks }));
    write(out.join("expect.json"), &Value::Object(expect));
    tally.finish()
}

fn flip(card: &Value) -> Value {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    let mut card = card.clone();
    let sig = card["signatures"][0]["signature"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let mut bytes = URL_SAFE_NO_PAD.decode(sig).unwrap_or_default();
    let middle = bytes.len() / 2;
    if let Some(b) = bytes.get_mut(middle) {
        *b ^= 1;
    }
    card["signatures"][0]["signature"] = json!(URL_SAFE_NO_PAD.encode(bytes));
    card
}

/// A webhook on 127.0.0.1 taking the registered token and `Authorization: Bearer
/// rust-webhook-secret`, until `accept` notifications were taken and `refuse` refused.
fn webhook(port_file: &Path, token: &str, accept: usize, refuse: usize) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let receiver = WebhookReceiver::new()
            .token(token)
            .authorization("Bearer", "rust-webhook-secret");
        let events = Arc::new(std::sync::Mutex::new(Vec::<StreamResponse>::new()));
        let refused = Arc::new(AtomicUsize::new(0));
        let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<()>(16);
        let sink = Arc::clone(&events);
        let tx = done_tx.clone();
        let route = webhook_route(receiver.clone(), move |event: StreamResponse| {
            let sink = Arc::clone(&sink);
            let tx = tx.clone();
            async move {
                sink.lock().unwrap().push(event);
                let _ = tx.send(()).await;
            }
        });
        // Counts refusals with a layer in front of the route: a 401 from the route itself.
        let counter = Arc::clone(&refused);
        let tx = done_tx.clone();
        let app = axum::Router::new()
            .route("/webhook", route)
            .layer(axum::middleware::from_fn(
                move |request: axum::extract::Request, next: axum::middleware::Next| {
                    let counter = Arc::clone(&counter);
                    let tx = tx.clone();
                    async move {
                        let response = next.run(request).await;
                        if response.status().is_client_error() {
                            counter.fetch_add(1, Ordering::SeqCst);
                            let _ = tx.send(()).await;
                        }
                        response
                    }
                },
            ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let port = listener.local_addr().expect("an address").port();
        std::fs::write(port_file, port.to_string()).expect("the port file");
        let server = tokio::spawn(async move { axum::serve(listener, app).await });
        let deadline = tokio::time::sleep(Duration::from_secs(60));
        tokio::pin!(deadline);
        loop {
            let taken = events.lock().unwrap().len();
            if taken >= accept && refused.load(Ordering::SeqCst) >= refuse {
                break;
            }
            tokio::select! {
                _ = done_rx.recv() => {}
                () = &mut deadline => break,
            }
        }
        server.abort();
        let events = events.lock().unwrap();
        let mut tally = Tally::default();
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| match e {
                StreamResponse::Task(_) => "task",
                StreamResponse::Message(_) => "message",
                StreamResponse::StatusUpdate(_) => "statusUpdate",
                StreamResponse::ArtifactUpdate(_) => "artifactUpdate",
                _ => "unknown",
            })
            .collect();
        tally.check(
            events.len() == accept,
            format!(
                "{} notifications taken ({})",
                events.len(),
                kinds.join(", ")
            ),
        );
        tally.check(
            refused.load(Ordering::SeqCst) == refuse,
            format!(
                "{} notifications refused (a wrong {TOKEN_HEADER} or Authorization)",
                refused.load(Ordering::SeqCst)
            ),
        );
        let text = events.iter().find_map(|e| match e {
            StreamResponse::ArtifactUpdate(u) => {
                Some(serde_json::to_value(&u.artifact).unwrap_or_default())
            }
            _ => None,
        });
        tally.check(
            text.as_ref()
                .is_some_and(|a| a.to_string().contains("Grüße ✓ 😀")),
            "the artifact's non-ASCII text arrived intact".into(),
        );
        println!(
            "rust webhook: {} taken, {} refused",
            events.len(),
            refused.load(Ordering::SeqCst)
        );
        tally.finish()
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["verify", dir] => verify(Path::new(dir)),
        ["sign", dir] => sign(Path::new(dir)),
        ["webhook", port_file, token, accept, refuse] => webhook(
            Path::new(port_file),
            token,
            accept.parse().expect("ACCEPT is a number"),
            refuse.parse().expect("REFUSE is a number"),
        ),
        _ => {
            eprintln!("usage: trust-interop verify DIR | sign DIR | webhook PORT_FILE TOKEN ACCEPT REFUSE");
            ExitCode::from(2)
        }
    }
}
