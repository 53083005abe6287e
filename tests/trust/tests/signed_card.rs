//! A card signed at startup by `AgentRouter::sign_card`, fetched and verified by the client
//! (`ClientBuilder::verify_card`) over the bytes served: a member this version does not know
//! included; an unsigned card or one signed by an unknown key refused.

use a2a_runtime::client::{BuildError, Client};
use a2a_runtime::server::AgentRouter;
use a2a_runtime::trust::{Algorithm, KeySet, Signer, SigningKey, Verifier, VerifyError};
use a2a_types::v1::{self, A2aServer, A2aService};
use serde_json::json;
use std::time::Duration;

/// An agent that serves only its card (every method has the spec's default answer).
struct CardOnly;

impl A2aService for CardOnly {}

async fn serve(signer: Option<Signer>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let card = json!({
        "name": "signed agent", "description": "", "version": "1",
        "supportedInterfaces": [{"url": format!("{base}/a2a"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [],
        "aMemberFromTheFuture": {"x": [1, 2, 3]},
    });
    let mut router = AgentRouter::new(&card).unwrap();
    if let Some(signer) = signer {
        router = router.sign_card(signer);
    }
    let app = router
        .service(A2aServer::new(CardOnly))
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

#[tokio::test]
async fn the_client_verifies_the_card_the_server_signed_at_startup() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let key = SigningKey::generate(Algorithm::ES256).unwrap();
        let keys = KeySet::new().with("k1", key.verifying_key());
        let base = serve(Some(Signer::new(key, "k1"))).await;
        let client = Client::<v1::Protocol>::builder()
            .verify_card(Verifier::new(keys.clone()))
            .connect(&base)
            .await
            .unwrap();
        let verified = client.verified_card().unwrap();
        assert_eq!(
            (verified.kid.as_str(), verified.algorithm),
            ("k1", Algorithm::ES256)
        );
        assert_eq!(
            client.card()["aMemberFromTheFuture"],
            json!({"x": [1, 2, 3]})
        );

        // An unsigned card, and one signed by a key the verifier does not know: refused.
        let unsigned = serve(None).await;
        let err = Client::<v1::Protocol>::builder()
            .verify_card(Verifier::new(keys.clone()))
            .connect(&unsigned)
            .await
            .unwrap_err();
        assert_eq!(err, BuildError::Untrusted(VerifyError::NoSignatures));
        let other = serve(Some(Signer::new(
            SigningKey::generate(Algorithm::ES256).unwrap(),
            "k2",
        )))
        .await;
        let err = Client::<v1::Protocol>::builder()
            .verify_card(Verifier::new(keys))
            .connect(&other)
            .await
            .unwrap_err();
        assert!(
            matches!(err, BuildError::Untrusted(VerifyError::NoneVerified(_))),
            "{err}"
        );
        assert!(err.to_string().contains("unknown kid \"k2\""), "{err}");
        // Without a verifier, the same card is taken as it is.
        assert!(Client::<v1::Protocol>::builder()
            .connect(&unsigned)
            .await
            .unwrap()
            .verified_card()
            .is_none());
    })
    .await
    .unwrap();
}
