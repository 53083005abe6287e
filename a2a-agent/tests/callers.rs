//! Callers through the real server, over both bindings: authentication (static bearer tokens and
//! JWTs) before anything is decoded, the caller reaching the executor, tenants bound to callers,
//! and each caller's tasks and push configs its own. (Issue 29.)

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::MemoryStore;
use a2a_agent::{
    AccessPolicy, AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater,
};
use a2a_types::rt::auth::{sign_jwt, Authenticator, Caller, JwtAuthenticator, StaticTokens};
use a2a_types::rt::server::{AgentRouter, JSONRPC_ACCESS_DENIED};
use a2a_types::rt::trust::{Algorithm, KeySet, SigningKey};
use a2a_types::v1::A2aServer;
use serde_json::{json, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Completes every task with one artifact naming its caller and tenant; a message `wait` leaves
/// the task waiting for input instead.
struct WhoAmI;

impl AgentExecutor for WhoAmI {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        if cx.text() == "wait" {
            return task.require_input(None).await;
        }
        let me = format!(
            "{}@{}",
            cx.caller().id(),
            cx.call.tenant.as_deref().unwrap_or("")
        );
        task.add_text_artifact("who", &me).await?;
        task.complete(None).await
    }
}

fn card(base: &str) -> Value {
    json!({
        "name": "callers", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": base, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": base, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true, "pushNotifications": true},
        "defaultInputModes": ["text"], "defaultOutputModes": ["text"],
        "skills": [],
        "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
        "securityRequirements": [{"schemes": {"bearer": {"list": []}}}]
    })
}

/// Serves the agent with `auth` on 127.0.0.1 (push notifications to loopback allowed); the base
/// URL.
async fn serve(auth: impl Authenticator) -> String {
    serve_with(auth, None::<Admins>).await
}

/// Callers with the claim `role: admin` may do anything to any task, and list every owner's.
struct Admins;

impl AccessPolicy for Admins {
    fn allows(&self, caller: &Caller, _method: &str, _task: &a2a_types::v1::Task, _: &str) -> bool {
        self.lists_every_owner(caller)
    }

    fn lists_every_owner(&self, caller: &Caller) -> bool {
        caller.claim("role") == Some(&json!("admin"))
    }
}

/// [`serve`], with an access policy.
async fn serve_with(auth: impl Authenticator, access: Option<impl AccessPolicy>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let policy = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    };
    let dispatcher = PushDispatcher::new(PushSender::new(policy).unwrap());
    let mut handler = RequestHandler::builder(WhoAmI)
        .push_notifications(std::sync::Arc::new(MemoryStore::new()), dispatcher);
    if let Some(access) = access {
        handler = handler.access_policy(access);
    }
    let handler = handler.build();
    let router = AgentRouter::new(&card(&base))
        .unwrap()
        .authenticate(auth)
        .service(A2aServer::new(handler))
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

struct Reply {
    status: u16,
    challenge: Vec<String>,
    body: Value,
}

async fn call(
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let client = reqwest::Client::new();
    let mut request = client
        .request(method, url)
        .header("A2A-Version", "1.0")
        .timeout(Duration::from_secs(10));
    if let Some(token) = token {
        request = request.header("authorization", token);
    }
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let bytes = response.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        challenge,
        body,
    }
}

fn message(id: &str) -> Value {
    json!({"role": "ROLE_USER", "messageId": id, "parts": [{"text": "hi"}]})
}

/// SendMessage over JSON-RPC, `tenant` in its params.
async fn rpc_send(base: &str, token: Option<&str>, tenant: Option<&str>) -> Reply {
    let mut params = json!({"message": message("m-rpc")});
    if let Some(tenant) = tenant {
        params["tenant"] = json!(tenant);
    }
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": params});
    call(reqwest::Method::POST, format!("{base}/"), token, Some(body)).await
}

/// SendMessage over HTTP+JSON, `tenant` as the route's first segment.
async fn rest_send(base: &str, token: Option<&str>, tenant: Option<&str>) -> Reply {
    let url = match tenant {
        Some(t) => format!("{base}/{t}/message:send"),
        None => format!("{base}/message:send"),
    };
    let body = json!({"message": message("m-rest")});
    call(reqwest::Method::POST, url, token, Some(body)).await
}

/// The artifact text of a completed task in a send's reply (`result.task` or `task`).
fn who(reply: &Reply) -> String {
    let task = reply.body.get("result").unwrap_or(&reply.body);
    task["task"]["artifacts"][0]["parts"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no artifact in {}", reply.body))
        .to_owned()
}

fn assert_unauthenticated(reply: &Reply, rpc: bool, invalid: bool, what: &str) {
    assert_eq!(reply.status, 401, "{what}: {}", reply.body);
    let expected = match invalid {
        true => r#"Bearer error="invalid_token""#,
        false => "Bearer",
    };
    assert_eq!(reply.challenge, [expected], "{what}");
    let expected = match rpc {
        true => json!({"jsonrpc": "2.0", "id": null,
                       "error": {"code": JSONRPC_ACCESS_DENIED, "message": "Unauthenticated"}}),
        false => json!({"error": {"code": 401, "status": "UNAUTHENTICATED",
                                  "message": "Unauthenticated"}}),
    };
    assert_eq!(
        reply.body, expected,
        "{what}: the same answer, whatever was wrong"
    );
}

fn tokens() -> StaticTokens {
    StaticTokens::new()
        .bearer("t-alice", Caller::new("alice"))
        .bearer("t-bob", Caller::new("bob").with_tenants(["acme"]))
        .bearer(
            "t-carol",
            Caller::new("carol").with_tenants(["", "acme", "globex"]),
        )
        .bearer("t-dave", Caller::new("dave"))
        .bearer("t-erin", Caller::new("erin"))
}

#[tokio::test]
async fn static_tokens_admit_their_callers_and_refuse_everyone_else() {
    let base = serve(tokens()).await;
    // The card stays public.
    let card = call(
        reqwest::Method::GET,
        format!("{base}/.well-known/agent-card.json"),
        None,
        None,
    )
    .await;
    assert_eq!(card.status, 200);
    assert!(card.body["securitySchemes"]["bearer"].is_object());

    for rpc in [true, false] {
        let send = |token, tenant| {
            let base = base.clone();
            async move {
                match rpc {
                    true => rpc_send(&base, token, tenant).await,
                    false => rest_send(&base, token, tenant).await,
                }
            }
        };
        assert_unauthenticated(&send(None, None).await, rpc, false, "no credentials");
        assert_unauthenticated(
            &send(Some("Basic YTpi"), None).await,
            rpc,
            false,
            "another scheme",
        );
        for bad in [
            "Bearer t-mallory",
            "Bearer",
            "Bearer t-alice2",
            "Bearer t-alic",
        ] {
            assert_unauthenticated(&send(Some(bad), None).await, rpc, true, bad);
        }
        let huge = format!("Bearer {}", "x".repeat(20_000));
        assert_unauthenticated(&send(Some(&huge), None).await, rpc, true, "a huge header");

        // The caller reaches the executor, in the tenant it may use.
        assert_eq!(who(&send(Some("Bearer t-alice"), None).await), "alice@");
        assert_eq!(
            who(&send(Some("Bearer t-bob"), None).await),
            "bob@acme",
            "its only tenant"
        );
        assert_eq!(
            who(&send(Some("Bearer t-bob"), Some("acme")).await),
            "bob@acme"
        );
        assert_eq!(
            who(&send(Some("Bearer t-carol"), None).await),
            "carol@",
            "the default"
        );
        assert_eq!(
            who(&send(Some("Bearer t-carol"), Some("globex")).await),
            "carol@globex"
        );

        // A tenant the caller may not use: 403, whether it exists or not.
        for (token, tenant) in [
            ("Bearer t-alice", "acme"),
            ("Bearer t-bob", "globex"),
            ("Bearer t-bob", "nowhere"),
        ] {
            let reply = send(Some(token), Some(tenant)).await;
            assert_eq!(reply.status, 403, "{token} in {tenant}: {}", reply.body);
            let error = match rpc {
                true => {
                    assert_eq!(reply.body["id"], 7);
                    &reply.body["error"]
                }
                false => {
                    assert_eq!(reply.body["error"]["status"], "PERMISSION_DENIED");
                    &reply.body["error"]
                }
            };
            assert_eq!(error["message"], "Permission denied");
        }
    }
    // Other methods are behind the same door.
    let get = call(
        reqwest::Method::GET,
        format!("{base}/tasks/any"),
        None,
        None,
    )
    .await;
    assert_unauthenticated(&get, false, false, "GetTask over REST");
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[tokio::test]
async fn jwts_are_verified_before_anything_is_decoded() {
    let issuer = SigningKey::generate(Algorithm::ES256).unwrap();
    let auth = JwtAuthenticator::new(KeySet::new().with("k1", issuer.verifying_key()))
        .issuer("https://login.test")
        .audience("https://agent.test");
    let base = serve(auth).await;
    let claims = |change: &dyn Fn(&mut Value)| {
        let mut c = json!({"sub": "dave", "iss": "https://login.test",
                           "aud": "https://agent.test", "exp": now() + 300,
                           "tenants": ["acme"]});
        change(&mut c);
        c
    };
    let bearer = |token: String| format!("Bearer {token}");
    let good = bearer(sign_jwt(&claims(&|_| {}), &issuer, "k1").unwrap());
    assert_eq!(who(&rpc_send(&base, Some(&good), None).await), "dave@acme");
    assert_eq!(
        who(&rest_send(&base, Some(&good), Some("acme")).await),
        "dave@acme"
    );

    let other_key = SigningKey::generate(Algorithm::ES256).unwrap();
    let rsa = SigningKey::generate(Algorithm::RS256).unwrap();
    let hmac_with_public_bytes = SigningKey::secret(Algorithm::HS256, b"k1".to_vec()).unwrap();
    let unsigned = {
        use base64::Engine as _;
        let b64 =
            |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
        format!(
            "{}.{}.",
            b64(&json!({"alg": "none", "kid": "k1"})),
            b64(&claims(&|_| {}))
        )
    };
    let bad: Vec<(&str, String)> = vec![
        (
            "expired",
            bearer(sign_jwt(&claims(&|c| c["exp"] = json!(now() - 3600)), &issuer, "k1").unwrap()),
        ),
        (
            "wrongly signed",
            bearer(sign_jwt(&claims(&|_| {}), &other_key, "k1").unwrap()),
        ),
        (
            "another audience",
            bearer(
                sign_jwt(
                    &claims(&|c| c["aud"] = json!("https://other.test")),
                    &issuer,
                    "k1",
                )
                .unwrap(),
            ),
        ),
        (
            "another issuer",
            bearer(
                sign_jwt(
                    &claims(&|c| c["iss"] = json!("https://evil.test")),
                    &issuer,
                    "k1",
                )
                .unwrap(),
            ),
        ),
        ("alg none", bearer(unsigned)),
        (
            "RS256 by an unknown key",
            bearer(sign_jwt(&claims(&|_| {}), &rsa, "k1").unwrap()),
        ),
        (
            "HS256 against an EC key",
            bearer(sign_jwt(&claims(&|_| {}), &hmac_with_public_bytes, "k1").unwrap()),
        ),
        ("not a JWT", "Bearer abc.def".to_owned()),
        ("garbage", "Bearer ..".to_owned()),
    ];
    for (what, token) in &bad {
        assert_unauthenticated(&rpc_send(&base, Some(token), None).await, true, true, what);
        assert_unauthenticated(
            &rest_send(&base, Some(token), None).await,
            false,
            true,
            what,
        );
    }
    // A JWT caller bound to acme may not name globex.
    assert_eq!(
        rpc_send(&base, Some(&good), Some("globex")).await.status,
        403
    );
}

#[tokio::test]
async fn a_tower_layer_may_authenticate_instead() {
    // No authenticator on the router: a layer puts the caller in the extensions.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = AgentRouter::new(&card(&base))
        .unwrap()
        .service(A2aServer::new(RequestHandler::builder(WhoAmI).build()))
        .into_router()
        .unwrap()
        .layer(axum::middleware::from_fn(
            |mut request: axum::extract::Request, next: axum::middleware::Next| async move {
                request.extensions_mut().insert(Caller::new("from-layer"));
                next.run(request).await
            },
        ));
    tokio::spawn(async move { axum::serve(listener, router).await });
    assert_eq!(who(&rpc_send(&base, None, None).await), "from-layer@");
}

/// One call of `method` over either binding, as `token`'s caller, about task `id` (and push
/// config `config`): the HTTP status and the body as text.
async fn act(base: &str, token: &str, rpc: bool, method: &str, id: &str) -> (u16, String) {
    let config = "cfg-1";
    let push = json!({"taskId": id, "id": config, "url": "http://127.0.0.1:9/hook",
                      "token": "alice-secret",
                      "authentication": {"scheme": "Bearer", "credentials": "alice-credential"}});
    let continued = json!({"message": {"role": "ROLE_USER", "messageId": format!("m-{method}"),
                                        "taskId": id, "parts": [{"text": "more"}]}});
    let (params, verb, path, body): (Value, reqwest::Method, String, Option<Value>) = match method {
        "GetTask" => (
            json!({"id": id}),
            reqwest::Method::GET,
            format!("/tasks/{id}"),
            None,
        ),
        "CancelTask" => (
            json!({"id": id}),
            reqwest::Method::POST,
            format!("/tasks/{id}:cancel"),
            Some(json!({})),
        ),
        "SubscribeToTask" => (
            json!({"id": id}),
            reqwest::Method::POST,
            format!("/tasks/{id}:subscribe"),
            Some(json!({})),
        ),
        "SendMessage" => (
            continued.clone(),
            reqwest::Method::POST,
            "/message:send".to_owned(),
            Some(continued),
        ),
        "CreateTaskPushNotificationConfig" => (
            push.clone(),
            reqwest::Method::POST,
            format!("/tasks/{id}/pushNotificationConfigs"),
            Some(push),
        ),
        "GetTaskPushNotificationConfig" => (
            json!({"taskId": id, "id": config}),
            reqwest::Method::GET,
            format!("/tasks/{id}/pushNotificationConfigs/{config}"),
            None,
        ),
        "ListTaskPushNotificationConfigs" => (
            json!({"taskId": id}),
            reqwest::Method::GET,
            format!("/tasks/{id}/pushNotificationConfigs"),
            None,
        ),
        "DeleteTaskPushNotificationConfig" => (
            json!({"taskId": id, "id": config}),
            reqwest::Method::DELETE,
            format!("/tasks/{id}/pushNotificationConfigs/{config}"),
            None,
        ),
        other => panic!("no such method {other}"),
    };
    let client = reqwest::Client::new();
    let request = match rpc {
        true => client
            .post(format!("{base}/"))
            .header("content-type", "application/json")
            .body(
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string(),
            ),
        false => {
            let request = client.request(verb, format!("{base}{path}"));
            match body {
                Some(body) => request
                    .header("content-type", "application/json")
                    .body(body.to_string()),
                None => request,
            }
        }
    };
    let response = request
        .header("A2A-Version", "1.0")
        .header("authorization", format!("Bearer {token}"))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

const TASK_METHODS: [&str; 8] = [
    "GetTask",
    "CancelTask",
    "SubscribeToTask",
    "SendMessage",
    "CreateTaskPushNotificationConfig",
    "GetTaskPushNotificationConfig",
    "ListTaskPushNotificationConfigs",
    "DeleteTaskPushNotificationConfig",
];

#[tokio::test]
async fn nothing_of_one_caller_is_another_callers() {
    let base = serve(tokens()).await;
    for rpc in [true, false] {
        // Alice's task, waiting for input, with a push config carrying her credentials.
        let reply = match rpc {
            true => {
                let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                                  "params": {"message": {"role": "ROLE_USER", "messageId": "w",
                                             "parts": [{"text": "wait"}]}}});
                call(
                    reqwest::Method::POST,
                    format!("{base}/"),
                    Some("Bearer t-alice"),
                    Some(body),
                )
                .await
            }
            false => {
                let body = json!({"message": {"role": "ROLE_USER", "messageId": "w",
                                              "parts": [{"text": "wait"}]}});
                call(
                    reqwest::Method::POST,
                    format!("{base}/message:send"),
                    Some("Bearer t-alice"),
                    Some(body),
                )
                .await
            }
        };
        let task = reply.body.get("result").unwrap_or(&reply.body)["task"].clone();
        assert_eq!(
            task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
            "{}",
            reply.body
        );
        let id = task["id"].as_str().unwrap().to_owned();
        let (status, set) = act(
            &base,
            "t-alice",
            rpc,
            "CreateTaskPushNotificationConfig",
            &id,
        )
        .await;
        assert_eq!(status, 200, "{set}");

        // Every task method of dave's (alice's tenant is his too) on alice's task answers exactly what it answers for a task
        // that does not exist (the ids aside).
        let missing = uuid_like(&id);
        for method in TASK_METHODS {
            let (status, theirs) = act(&base, "t-dave", rpc, method, &id).await;
            let (missing_status, none) = act(&base, "t-dave", rpc, method, &missing).await;
            assert_eq!(status, missing_status, "{method}: {theirs}");
            assert_eq!(theirs, none.replace(&missing, &id), "{method} (rpc {rpc})");
            assert!(
                theirs.contains("not found") || theirs.contains("NOT_FOUND"),
                "{method}: {theirs}"
            );
            assert!(!theirs.contains("alice-"), "{method} leaks: {theirs}");
        }

        // Dave lists none of alice's; alice lists hers, and her config keeps its credentials.
        let list = |token: &'static str| {
            let base = base.clone();
            async move {
                match rpc {
                    true => {
                        let body =
                            json!({"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {}});
                        call(
                            reqwest::Method::POST,
                            format!("{base}/"),
                            Some(token),
                            Some(body),
                        )
                        .await
                        .body["result"]
                            .clone()
                    }
                    false => {
                        call(
                            reqwest::Method::GET,
                            format!("{base}/tasks"),
                            Some(token),
                            None,
                        )
                        .await
                        .body
                    }
                }
            }
        };
        let daves = list("Bearer t-dave").await;
        assert!(!daves.to_string().contains(&id), "{daves}");
        let alices = list("Bearer t-alice").await;
        assert!(alices.to_string().contains(&id), "{alices}");
        let (status, mine) = act(&base, "t-alice", rpc, "GetTaskPushNotificationConfig", &id).await;
        assert_eq!(status, 200);
        assert!(mine.contains("alice-credential"), "{mine}");
        // Dave's attempts changed nothing: the task still waits, with its config.
        let (_, task) = act(&base, "t-alice", rpc, "GetTask", &id).await;
        assert!(task.contains("TASK_STATE_INPUT_REQUIRED"), "{task}");
        let (status, _) = act(&base, "t-alice", rpc, "CancelTask", &id).await;
        assert_eq!(status, 200);
    }
}

/// An id of the same shape as `id` that no task has.
fn uuid_like(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_ascii_hexdigit() { '0' } else { c })
        .collect()
}

#[tokio::test]
async fn an_access_policy_widens_what_a_caller_sees_but_never_anothers_credentials() {
    let mut claims = serde_json::Map::new();
    claims.insert("role".into(), json!("admin"));
    let tokens = tokens().bearer("t-root", Caller::new("root").with_claims(claims));
    let base = serve_with(tokens, Some(Admins)).await;
    let body =
        json!({"message": {"role": "ROLE_USER", "messageId": "w", "parts": [{"text": "wait"}]}});
    let reply = call(
        reqwest::Method::POST,
        format!("{base}/message:send"),
        Some("Bearer t-alice"),
        Some(body),
    )
    .await;
    let id = reply.body["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        act(
            &base,
            "t-alice",
            false,
            "CreateTaskPushNotificationConfig",
            &id
        )
        .await
        .0,
        200
    );

    // The admin reads alice's task and lists it; dave still does neither.
    let (status, task) = act(&base, "t-root", false, "GetTask", &id).await;
    assert_eq!(status, 200, "{task}");
    assert_eq!(act(&base, "t-dave", false, "GetTask", &id).await.0, 404);
    let listed = call(
        reqwest::Method::GET,
        format!("{base}/tasks"),
        Some("Bearer t-root"),
        None,
    )
    .await;
    assert!(listed.body.to_string().contains(&id), "{}", listed.body);
    // Alice's push config is hers alone: the admin sees none of it.
    let (status, configs) = act(
        &base,
        "t-root",
        false,
        "ListTaskPushNotificationConfigs",
        &id,
    )
    .await;
    assert_eq!(status, 200);
    assert!(!configs.contains("alice-"), "{configs}");
    assert_eq!(
        act(&base, "t-root", false, "GetTaskPushNotificationConfig", &id)
            .await
            .0,
        404
    );
    // The admin cancels it; it stays alice's.
    let (status, canceled) = act(&base, "t-root", false, "CancelTask", &id).await;
    assert_eq!(status, 200, "{canceled}");
    assert!(canceled.contains("TASK_STATE_CANCELED"), "{canceled}");
    let (status, task) = act(&base, "t-alice", false, "GetTask", &id).await;
    assert_eq!(status, 200);
    assert!(task.contains("TASK_STATE_CANCELED"), "{task}");
}

/// What a test subscriber saw: each span's name and fields, each event's fields.
#[derive(Default)]
struct Seen {
    spans: Vec<(String, Vec<(String, String)>)>,
    events: Vec<Vec<(String, String)>>,
}

/// A subscriber that keeps what it sees, every field as recorded (no formatting layer between).
struct Recorder(std::sync::Arc<std::sync::Mutex<Seen>>);

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut seen = self.0.lock().unwrap();
        let mut fields = Vec::new();
        span.record(&mut Fields(&mut fields));
        seen.spans.push((span.metadata().name().to_owned(), fields));
        tracing::span::Id::from_u64(seen.spans.len() as u64)
    }
    fn record(&self, id: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut seen = self.0.lock().unwrap();
        let index = id.into_u64() as usize - 1;
        values.record(&mut Fields(&mut seen.spans[index].1));
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().events.push(fields);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn every_call_has_a_span_and_a_log_line() {
    // The process's subscriber (the other tests of this binary run beside it): erin's calls are
    // this test's.
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Seen::default()));
    tracing::subscriber::set_global_default(Recorder(seen.clone())).unwrap();
    let base = serve(tokens()).await;
    assert_eq!(
        who(&rpc_send(&base, Some("Bearer t-erin"), None).await),
        "erin@"
    );
    let missing = act(&base, "t-erin", false, "GetTask", "no-such-task").await;
    assert_eq!(missing.0, 404);
    let seen = seen.lock().unwrap();
    let field = |fields: &[(String, String)], name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let erins =
        |fields: &[(String, String)]| field(fields, "enduser.id").as_deref() == Some("erin");
    let calls: Vec<_> = seen
        .spans
        .iter()
        .filter(|(name, fields)| name == "a2a.call" && erins(fields))
        .collect();
    assert_eq!(calls.len(), 2, "{:?}", seen.spans);
    let (_, send) = calls[0];
    assert_eq!(field(send, "rpc.system").as_deref(), Some("a2a"));
    assert_eq!(field(send, "rpc.method").as_deref(), Some("SendMessage"));
    assert_eq!(field(send, "a2a.binding").as_deref(), Some("JSONRPC"));
    assert_eq!(field(send, "a2a.version").as_deref(), Some("1.0"));
    assert_eq!(field(send, "a2a.error_code"), None);
    let (_, get) = calls[1];
    assert_eq!(field(get, "rpc.method").as_deref(), Some("GetTask"));
    assert_eq!(field(get, "a2a.binding").as_deref(), Some("HTTP+JSON"));
    assert_eq!(field(get, "a2a.error_code").as_deref(), Some("-32001"));
    // The execution has a span of its own, inside the call's.
    assert!(seen.spans.iter().any(|(name, fields)| name == "a2a.execute"
        && field(fields, "a2a.work").as_deref() == Some("execute")));
    // And each store call.
    assert!(seen.spans.iter().any(|(name, fields)| name == "a2a.store"
        && field(fields, "db.operation").as_deref() == Some("create_task")));
    // A log line per call, with what it took (events name no caller: found by method and error).
    let lines: Vec<_> = seen
        .events
        .iter()
        .filter(|fields| field(fields, "elapsed_us").is_some())
        .collect();
    assert!(lines
        .iter()
        .any(|f| field(f, "method").as_deref() == Some("SendMessage")
            && field(f, "error_code").is_none()));
    assert!(lines
        .iter()
        .any(|f| field(f, "method").as_deref() == Some("GetTask")
            && field(f, "error_code").as_deref() == Some("-32001")));
}
