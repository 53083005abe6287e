//! a2a-agent's push sender posting to `a2a_runtime::trust::webhook` on 127.0.0.1: the registered
//! token and credentials are taken and the event arrives as sent; a wrong token or wrong
//! credentials get 401, which the sender reports as a final failure (no retry of a refusal).

use a2a_agent::push::{PushFailure, PushSender, PushUrlPolicy};
use a2a_runtime::trust::webhook::{webhook_route, WebhookReceiver};
use a2a_types::v1::{
    AuthenticationInfo, StreamResponse, TaskPushNotificationConfig, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

async fn receiver() -> (String, Arc<Mutex<Vec<StreamResponse>>>) {
    let received = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&received);
    let route = webhook_route(
        WebhookReceiver::new()
            .token("tok-123")
            .authorization("Bearer", "secret"),
        move |event: StreamResponse| {
            let sink = Arc::clone(&sink);
            async move { sink.lock().unwrap().push(event) }
        },
    );
    let app = axum::Router::new().route("/webhook", route);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/webhook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}

fn config(url: &str, token: &str, credentials: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        id: Some("cfg".into()),
        task_id: Some("t-1".into()),
        url: url.into(),
        token: Some(token.into()),
        authentication: Some(AuthenticationInfo {
            scheme: "Bearer".into(),
            credentials: Some(credentials.into()),
        }),
        ..Default::default()
    }
}

fn event() -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t-1".into(),
        context_id: "ctx-1".into(),
        status: TaskStatus {
            state: TaskState::Working,
            ..Default::default()
        },
        metadata: None,
    })
}

#[tokio::test]
async fn the_agents_push_sender_is_received_with_its_token_checked() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let (url, received) = receiver().await;
        let sender = PushSender::builder(PushUrlPolicy {
            allow_loopback: true,
            allow_http: true,
            allow_private: false,
        })
        .timeout(Duration::from_secs(5))
        .attempts(2)
        .backoff(Duration::from_millis(10), Duration::from_millis(10))
        .build()
        .unwrap();

        let delivered = sender
            .deliver(&config(&url, "tok-123", "secret"), &event())
            .await
            .unwrap();
        assert_eq!(delivered.status, 200);
        assert_eq!(received.lock().unwrap().as_slice(), &[event()]);

        for (token, credentials) in [("tok-12", "secret"), ("tok-123", "guess")] {
            let err = sender
                .deliver(&config(&url, token, credentials), &event())
                .await
                .unwrap_err();
            assert!(matches!(err.failure(), PushFailure::Status(401)), "{err}");
        }
        assert_eq!(
            received.lock().unwrap().len(),
            1,
            "nothing refused reached the callback"
        );
    })
    .await
    .unwrap();
}
