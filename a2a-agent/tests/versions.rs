//! One handler, both protocol versions, through the real server (`RequestHandler::router`): a
//! task made over A2A 0.3 is read, followed and listed over 1.0 and the other way round, each
//! answer in its caller's version; 0.3's errors are 0.3's. (Issue 32.)

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::MemoryStore;
mod common;

use a2a_agent::RequestHandler;
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentInterface};
use common::echo::Echo;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

async fn serve(v0_3: bool) -> String {
    serve_tuned(v0_3, |b| b).await
}

/// [`serve`], the handler's builder given to `tune` last.
async fn serve_tuned(
    v0_3: bool,
    tune: impl FnOnce(a2a_agent::RequestHandlerBuilder<Echo>) -> a2a_agent::RequestHandlerBuilder<Echo>,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let card = AgentCard {
        name: "versions".into(),
        supported_interfaces: vec![
            AgentInterface {
                url: base.clone(),
                protocol_binding: "JSONRPC".into(),
                protocol_version: "1.0".into(),
                ..Default::default()
            },
            AgentInterface {
                url: base.clone(),
                protocol_binding: "HTTP+JSON".into(),
                protocol_version: "1.0".into(),
                ..Default::default()
            },
        ],
        // What the calls below use (the server refuses what the card does not declare).
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            ..Default::default()
        },
        ..Default::default()
    };
    let dispatcher = PushDispatcher::new(PushSender::new(local()).unwrap());
    let builder = RequestHandler::builder(Echo)
        .push_notifications(std::sync::Arc::new(MemoryStore::new()), dispatcher)
        .v0_3(v0_3);
    let handler = tune(builder).build();
    let router = handler.router(&card).unwrap().into_router().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// A JSON-RPC call; `version` is the `A2A-Version` header (none: 0.3).
fn request(
    base: &str,
    version: Option<&str>,
    method: &str,
    params: Value,
) -> reqwest::RequestBuilder {
    let mut request = reqwest::Client::new()
        .post(base)
        .timeout(Duration::from_secs(10))
        .header("content-type", "application/json")
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string());
    if let Some(version) = version {
        request = request.header("A2A-Version", version);
    }
    request
}

async fn rpc(base: &str, version: Option<&str>, method: &str, params: Value) -> Value {
    let reply = request(base, version, method, params).send().await.unwrap();
    serde_json::from_slice(&reply.bytes().await.unwrap()).unwrap()
}

/// The `data` of each SSE event of a streaming call, as JSON, until the stream ends.
async fn events(base: &str, version: Option<&str>, method: &str, params: Value) -> Vec<Value> {
    let reply = request(base, version, method, params).send().await.unwrap();
    let text = String::from_utf8(reply.bytes().await.unwrap().to_vec()).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect()
}

fn message_0_3(text: &str) -> Value {
    json!({"kind": "message", "role": "user", "messageId": format!("m-{text}"),
           "parts": [{"kind": "text", "text": text}]})
}

#[tokio::test]
async fn a_task_made_over_0_3_is_followed_canceled_and_listed_across_versions() {
    let base = serve(true).await;
    // Made over 0.3 (no A2A-Version), not blocking: a 0.3 task, with `kind`.
    let made = rpc(
        &base,
        None,
        "message/send",
        json!({
            "message": message_0_3("hang"), "configuration": {"blocking": false}
        }),
    )
    .await;
    let task = &made["result"];
    assert_eq!(task["kind"], "task", "{made}");
    let id = task["id"].as_str().unwrap().to_owned();
    // Followed over 1.0: the task first, in 1.0's shape.
    let follow = {
        let (base, id) = (base.clone(), id.clone());
        tokio::spawn(async move {
            events(&base, Some("1.0"), "SubscribeToTask", json!({"id": id})).await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Canceled over 0.3: 0.3's state names.
    let canceled = rpc(&base, None, "tasks/cancel", json!({"id": id})).await;
    assert_eq!(
        canceled["result"]["status"]["state"], "canceled",
        "{canceled}"
    );
    assert_eq!(canceled["result"]["kind"], "task");
    let followed = tokio::time::timeout(Duration::from_secs(10), follow)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        followed[0]["result"]["task"]["id"],
        id.as_str(),
        "{followed:?}"
    );
    assert_eq!(
        followed.last().unwrap()["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_CANCELED",
        "{followed:?}"
    );
    // Listed over 1.0 (a method 0.3 has not got), read back over 0.3.
    let listed = rpc(&base, Some("1.0"), "ListTasks", json!({})).await;
    let tasks = listed["result"]["tasks"].as_array().unwrap();
    assert!(
        tasks
            .iter()
            .any(|t| t["id"] == id.as_str() && t["status"]["state"] == "TASK_STATE_CANCELED"),
        "{listed}"
    );
    let got = rpc(
        &base,
        None,
        "tasks/get",
        json!({"id": id, "historyLength": 5}),
    )
    .await;
    assert_eq!(got["result"]["status"]["state"], "canceled", "{got}");
    assert_eq!(got["result"]["history"][0]["kind"], "message");
    assert_eq!(got["result"]["history"][0]["role"], "user");
    // And the other way: made over 1.0, read over 0.3.
    let made = rpc(
        &base,
        Some("1.0"),
        "SendMessage",
        json!({
            "message": {"role": "ROLE_USER", "messageId": "m-v1", "parts": [{"text": "from 1.0"}]}
        }),
    )
    .await;
    let id = made["result"]["task"]["id"].as_str().unwrap();
    let got = rpc(&base, None, "tasks/get", json!({"id": id})).await;
    assert_eq!(got["result"]["status"]["state"], "completed", "{got}");
    assert_eq!(
        got["result"]["artifacts"][0]["parts"][0],
        json!({"kind": "text", "text": "from 1.0"})
    );
}

/// A2A 0.3's HTTP+JSON binding (`/v1/...`, the ProtoJSON of 0.3's proto), without
/// `A2A-Version`; `version` sets one.
fn rest(base: &str, verb: &str, path: &str, version: Option<&str>) -> reqwest::RequestBuilder {
    let verb = reqwest::Method::from_bytes(verb.as_bytes()).unwrap();
    let mut request = reqwest::Client::new()
        .request(verb, format!("{base}{path}"))
        .timeout(Duration::from_secs(10))
        .header("content-type", "application/json");
    if let Some(version) = version {
        request = request.header("A2A-Version", version);
    }
    request
}

async fn rest_json(request: reqwest::RequestBuilder) -> (u16, Value) {
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    (
        status,
        serde_json::from_slice(&reply.bytes().await.unwrap()).unwrap(),
    )
}

/// A task made over 0.3's HTTP+JSON binding is followed over it, canceled over 1.0's, and read
/// back over both 0.3 bindings, each answer in its binding's and version's shape; 0.3's REST
/// replies carry no `kind` (0.3's proto has none). With 0.3 off, its paths are 1.0 requests
/// without a version, refused as before.
#[tokio::test]
async fn a_task_made_over_0_3_rest_is_followed_and_canceled_across_versions() {
    let base = serve(true).await;
    let body = json!({
        "message": {"messageId": "m-rest", "role": "ROLE_USER", "content": [{"text": "hang"}]},
        "configuration": {"blocking": false},
    });
    let (status, made) =
        rest_json(rest(&base, "POST", "v1/message:send", None).body(body.to_string())).await;
    assert_eq!(status, 200, "{made}");
    let id = made["task"]["id"].as_str().unwrap().to_owned();
    assert!(made["task"].get("kind").is_none(), "{made}");
    assert!(
        made["task"]["status"]["state"]
            .as_str()
            .unwrap()
            .starts_with("TASK_STATE_"),
        "{made}"
    );
    // Followed over 0.3's REST binding: StreamResponse events.
    let follow = {
        let (base, id) = (base.clone(), id.clone());
        tokio::spawn(async move {
            let reply = rest(&base, "GET", &format!("v1/tasks/{id}:subscribe"), None)
                .send()
                .await
                .unwrap();
            let text = String::from_utf8(reply.bytes().await.unwrap().to_vec()).unwrap();
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| serde_json::from_str::<Value>(d.trim()).unwrap())
                .collect::<Vec<_>>()
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Canceled over 1.0's REST binding.
    let (status, canceled) = rest_json(rest(
        &base,
        "POST",
        &format!("tasks/{id}:cancel"),
        Some("1.0"),
    ))
    .await;
    assert_eq!(status, 200, "{canceled}");
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    let followed = tokio::time::timeout(Duration::from_secs(10), follow)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(followed[0]["task"]["id"], id.as_str(), "{followed:?}");
    let last = &followed.last().unwrap()["statusUpdate"];
    assert_eq!(
        last["status"]["state"], "TASK_STATE_CANCELLED",
        "{followed:?}"
    );
    assert_eq!(last["final"], true, "{followed:?}");
    // Read back over 0.3 REST (its proto's names) and over 0.3 JSON-RPC (its JSON's).
    let path = format!("v1/tasks/{id}?historyLength=1");
    let (status, got) = rest_json(rest(&base, "GET", &path, None)).await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["status"]["state"], "TASK_STATE_CANCELLED", "{got}");
    assert_eq!(got["history"][0]["role"], "ROLE_USER", "{got}");
    assert_eq!(got["history"][0]["content"][0], json!({"text": "hang"}));
    let got = rpc(&base, None, "tasks/get", json!({"id": id})).await;
    assert_eq!(got["result"]["status"]["state"], "canceled", "{got}");
    // 0.3's errors over its REST binding: the error's HTTP status and a google.rpc.Status.
    let (status, missing) = rest_json(rest(&base, "GET", "v1/tasks/no-such-task", None)).await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(missing["error"]["status"], "NOT_FOUND", "{missing}");
    let (status, bad) = rest_json(rest(&base, "POST", "v1/message:send", None).body("{")).await;
    assert_eq!(status, 400, "{bad}");

    // 0.3 off: a request without a version is refused, as any 0.3 request is.
    let base = serve(false).await;
    let (status, refused) =
        rest_json(rest(&base, "POST", "v1/message:send", None).body(body.to_string())).await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("A2A 0.3"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_0_3_stream_ends_with_a_final_status_update_in_0_3_shape() {
    let base = serve(true).await;
    let events = events(
        &base,
        None,
        "message/stream",
        json!({"message": message_0_3("streamed")}),
    )
    .await;
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["result"]["kind"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(kinds.first(), Some(&"task"), "{events:?}");
    assert!(kinds.contains(&"artifact-update"), "{kinds:?}");
    let last = &events.last().unwrap()["result"];
    assert_eq!(
        (last["kind"].as_str(), last["final"].as_bool()),
        (Some("status-update"), Some(true)),
        "{last}"
    );
    assert_eq!(last["status"]["state"], "completed");
    // A 1.0 caller of the same stream gets 1.0's shape.
    let v1 = self::events(
        &base,
        Some("1.0"),
        "SendStreamingMessage",
        json!({
            "message": {"role": "ROLE_USER", "messageId": "m-s1", "parts": [{"text": "x"}]}
        }),
    )
    .await;
    assert!(v1[0]["result"]["task"].is_object(), "{v1:?}");
}

#[tokio::test]
async fn push_configs_registered_over_0_3_are_the_same_configs_over_1_0() {
    let base = serve(true).await;
    let made = rpc(
        &base,
        None,
        "message/send",
        json!({"message": message_0_3("done")}),
    )
    .await;
    let id = made["result"]["id"].as_str().unwrap();
    let set = rpc(&base, None, "tasks/pushNotificationConfig/set", json!({
        "taskId": id, "pushNotificationConfig": {"id": "p1", "url": "http://127.0.0.1:9/hook", "token": "t"}
    }))
    .await;
    assert_eq!(set["result"]["pushNotificationConfig"]["id"], "p1", "{set}");
    let v1 = rpc(
        &base,
        Some("1.0"),
        "GetTaskPushNotificationConfig",
        json!({"taskId": id, "id": "p1"}),
    )
    .await;
    assert_eq!(v1["result"]["url"], "http://127.0.0.1:9/hook", "{v1}");
    let listed = rpc(
        &base,
        None,
        "tasks/pushNotificationConfig/list",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        listed["result"][0]["pushNotificationConfig"]["token"], "t",
        "{listed}"
    );
    let deleted = rpc(
        &base,
        None,
        "tasks/pushNotificationConfig/delete",
        json!({"id": id, "pushNotificationConfigId": "p1"}),
    )
    .await;
    assert_eq!(deleted["result"], Value::Null, "{deleted}");
    assert!(deleted.get("error").is_none(), "{deleted}");
    let gone = rpc(
        &base,
        Some("1.0"),
        "ListTaskPushNotificationConfigs",
        json!({"taskId": id}),
    )
    .await;
    assert_eq!(
        gone["result"]["configs"].as_array().map_or(0, Vec::len),
        0,
        "{gone}"
    );
}

#[tokio::test]
async fn errors_over_0_3_are_0_3_and_name_the_member() {
    let base = serve(true).await;
    let missing = rpc(&base, None, "tasks/get", json!({"id": "nope"})).await;
    assert_eq!(missing["error"]["code"], -32001, "{missing}");
    let bad = rpc(
        &base,
        None,
        "message/send",
        json!({"message": {
            "kind": "message", "role": "user", "messageId": "m",
            "parts": [{"kind": "file", "file": {"bytes": "not base64!"}}]
        }}),
    )
    .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let text = bad["error"]["message"].as_str().unwrap();
    assert!(
        text.starts_with("params.message.parts[0].file.bytes: invalid base64"),
        "{text}"
    );
    // The 1.0 method names are not 0.3's.
    let unknown = rpc(
        &base,
        None,
        "SendMessage",
        json!({"message": message_0_3("x")}),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
}

async fn card_of(base: &str) -> Value {
    let reply = reqwest::get(format!("{base}.well-known/agent-card.json"))
        .await
        .unwrap();
    serde_json::from_slice(&reply.bytes().await.unwrap()).unwrap()
}

#[tokio::test]
async fn the_card_declares_0_3_and_the_switch_turns_it_off() {
    let base = serve(true).await;
    let card = card_of(&base).await;
    assert_eq!(card["preferredTransport"], "JSONRPC");
    assert_eq!(card["url"], base.as_str());
    // 0.3 is served over both JSON bindings (HTTP+JSON by translation, `/v1/...`).
    assert_eq!(
        card["additionalInterfaces"],
        json!([{"url": base, "transport": "JSONRPC"}, {"url": base, "transport": "HTTP+JSON"}])
    );
    for binding in ["JSONRPC", "HTTP+JSON"] {
        let twin = json!({"url": base, "protocolBinding": binding, "protocolVersion": "0.3"});
        assert!(
            card["supportedInterfaces"]
                .as_array()
                .unwrap()
                .contains(&twin),
            "{card}"
        );
    }
    // Off: a request without A2A-Version is 0.3, which this agent then refuses.
    let base = serve(false).await;
    let refused = rpc(
        &base,
        None,
        "message/send",
        json!({"message": message_0_3("x")}),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32009, "{refused}");
    let card = card_of(&base).await;
    assert!(card.get("preferredTransport").is_none(), "{card}");
}

/// A server of 0.3's module alone (no service with HTTP+JSON routes of its own) serves 0.3's
/// HTTP+JSON binding too.
#[tokio::test]
async fn a_0_3_only_server_serves_0_3_over_http_json() {
    let base = serve_0_3_only().await;
    let body = json!({"message": {"messageId": "m-old", "role": "ROLE_USER",
        "content": [{"text": "hi"}]}});
    let (status, sent) =
        rest_json(rest(&base, "POST", "v1/message:send", None).body(body.to_string())).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(
        sent["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{sent}"
    );
    let id = sent["task"]["id"].as_str().unwrap();
    let (status, got) = rest_json(rest(&base, "GET", &format!("v1/tasks/{id}"), None)).await;
    assert_eq!((status, &got["id"]), (200, &json!(id)), "{got}");
    // 1.0's paths: this server has none (no service of 1.0's module).
    let path = format!("tasks/{id}");
    let reply = rest(&base, "GET", &path, Some("1.0")).send().await.unwrap();
    assert_eq!(reply.status().as_u16(), 404);
}

/// An agent that declares 0.3 only (its interface's version), served by the same handler.
async fn serve_0_3_only() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let card = AgentCard {
        name: "old".into(),
        supported_interfaces: vec![
            AgentInterface {
                url: base.clone(),
                protocol_binding: "JSONRPC".into(),
                protocol_version: "0.3".into(),
                ..Default::default()
            },
            AgentInterface {
                url: base.clone(),
                protocol_binding: "HTTP+JSON".into(),
                protocol_version: "0.3".into(),
                ..Default::default()
            },
        ],
        // What the calls below use (the server refuses what the card does not declare).
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            ..Default::default()
        },
        ..Default::default()
    };
    let handler = RequestHandler::builder(Echo).build();
    let v0_3 =
        a2a_types::v0_3::A2aServer::new(a2a_types::v0_3::Compat(std::sync::Arc::new(handler)));
    let router = a2a_types::rt::server::AgentRouter::new(&card)
        .unwrap()
        .service(v0_3)
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

fn send_v1(text: &str) -> a2a_types::v1::SendMessageRequest {
    use a2a_types::v1::{Message, Part, PartContent, Role};
    a2a_types::v1::SendMessageRequest {
        message: Message {
            message_id: format!("m-{text}"),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text(text.into()),
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A client written against 1.0 (`AnyClient`) calls an agent that speaks only 0.3, and one that
/// speaks both, and gets 1.0 types from either.
#[tokio::test]
async fn a_1_0_client_calls_a_0_3_only_agent_through_the_conversions() {
    use a2a_types::v1::{
        method, CancelTaskRequest, GetTaskRequest, SendMessageResponse, StreamResponse, TaskState,
    };
    use a2a_types::{rt::version::ProtocolVersion, AnyClient};
    use futures_util::StreamExt as _;
    let old = AnyClient::connect(&serve_0_3_only().await).await.unwrap();
    assert_eq!(old.version(), ProtocolVersion::V0_3);
    let both = AnyClient::connect(&serve(true).await).await.unwrap();
    assert_eq!(both.version(), ProtocolVersion::V1_0);
    for client in [&old, &both] {
        let reply = client
            .call::<method::SendMessage>(&send_v1("hello"))
            .await
            .unwrap();
        let SendMessageResponse::Task(task) = reply else {
            panic!("{reply:?}");
        };
        assert_eq!(task.status.state, TaskState::Completed);
        let got = client
            .call::<method::GetTask>(&GetTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(
            got.artifacts[0].parts[0].content,
            a2a_types::v1::PartContent::Text("hello".into())
        );
        // A 0.3 agent's error is 1.0's, by code.
        let e = client
            .call::<method::CancelTask>(&CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        let a2a_types::rt::client::CallError::Agent(e) = e else {
            panic!("{e:?}");
        };
        assert!(
            matches!(e, a2a_types::v1::A2aError::TaskNotCancelable { .. }),
            "{e:?}"
        );
        // Streams: 1.0 events either way, the last the completed status.
        let events: Vec<_> = client
            .stream::<method::SendStreamingMessage>(&send_v1("streamed"))
            .collect()
            .await;
        let last = events.last().unwrap().as_ref().unwrap();
        assert!(
            matches!(last, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed),
            "{events:?}"
        );
    }
    // Params 0.3 cannot express fail before the call, naming the member.
    let mut odd = send_v1("x");
    odd.message.parts[0].filename = Some("x.txt".into());
    let e = old.call::<method::SendMessage>(&odd).await.unwrap_err();
    assert!(
        e.to_string().contains("params.message.parts[0].filename"),
        "{e}"
    );
}

/// Our 0.3 client over 0.3's HTTP+JSON binding (`/v1/...`, the ProtoJSON of 0.3's proto), against
/// the handler's 0.3 REST routes: every method, a stream, the typed errors; and the same through
/// `AnyClient` in 1.0's types.
#[tokio::test]
async fn our_0_3_client_speaks_0_3_over_http_json() {
    use a2a_types::rt::{client::CallError, Binding};
    use a2a_types::v0_3::{self, method, A2aError};
    use futures_util::StreamExt as _;
    let base = serve(true).await;
    let client = a2a_types::rt::client::Client::<v0_3::Protocol>::builder()
        .bindings([Binding::HttpJson])
        .connect(&base)
        .await
        .unwrap();
    assert_eq!(client.binding(), Binding::HttpJson);
    let message = |text: &str| {
        serde_json::from_value::<v0_3::MessageSendParams>(json!({"message": message_0_3(text)}))
            .unwrap()
    };
    let sent = client
        .call::<method::SendMessage>(&message("over rest"))
        .await
        .unwrap();
    let v0_3::SendMessageResult::Task(task) = sent else {
        panic!("{sent:?}");
    };
    assert_eq!(task.status.state, v0_3::TaskState::Completed);
    let text = |task: &v0_3::Task| serde_json::to_value(&task.artifacts[0].parts[0]).unwrap();
    assert_eq!(text(&task), json!({"kind": "text", "text": "over rest"}));
    let query = serde_json::from_value(json!({"id": task.id, "historyLength": 1})).unwrap();
    let got = client.call::<method::GetTask>(&query).await.unwrap();
    assert_eq!((got.id.as_str(), got.history.len()), (task.id.as_str(), 1));
    let ids = serde_json::from_value::<v0_3::TaskIdParams>(json!({"id": task.id})).unwrap();
    match client.call::<method::CancelTask>(&ids).await {
        Err(CallError::Agent(A2aError::TaskNotCancelable { .. })) => {}
        other => panic!("{other:?}"),
    }
    let missing = serde_json::from_value(json!({"id": "no-such-task"})).unwrap();
    match client.call::<method::GetTask>(&missing).await {
        Err(CallError::Agent(A2aError::TaskNotFound { .. })) => {}
        other => panic!("{other:?}"),
    }
    // A stream: the task, working, the artifact, completed (final), each a 0.3 event.
    let events: Vec<_> = client
        .stream::<method::SendStreamingMessage>(&message("streamed"))
        .collect()
        .await;
    let kinds: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_value(e.as_ref().unwrap()).unwrap()["kind"].to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "\"task\"",
            "\"status-update\"",
            "\"artifact-update\"",
            "\"status-update\""
        ],
        "{events:?}"
    );
    let last = serde_json::to_value(events.last().unwrap().as_ref().unwrap()).unwrap();
    assert_eq!(
        (last["status"]["state"].clone(), last["final"].clone()),
        (json!("completed"), json!(true))
    );
    // Resubscribing to a finished task: 0.3's error.
    let resubscribed: Vec<_> = client
        .stream::<method::SubscribeToTask>(&ids)
        .collect()
        .await;
    assert!(
        matches!(
            resubscribed.as_slice(),
            [Err(CallError::Agent(A2aError::UnsupportedOperation { .. }))]
        ),
        "{resubscribed:?}"
    );
    // Push configs: set, get, list, delete.
    let config = serde_json::from_value(json!({
        "taskId": task.id,
        "pushNotificationConfig": {"id": "p1", "url": "http://127.0.0.1:9/hook", "token": "t"},
    }))
    .unwrap();
    let set = client
        .call::<method::SetTaskPushNotificationConfig>(&config)
        .await
        .unwrap();
    assert_eq!(
        (
            set.task_id.as_str(),
            set.push_notification_config.id.as_deref()
        ),
        (task.id.as_str(), Some("p1"))
    );
    let which =
        serde_json::from_value(json!({"id": task.id, "pushNotificationConfigId": "p1"})).unwrap();
    let got = client
        .call::<method::GetTaskPushNotificationConfig>(&which)
        .await
        .unwrap();
    assert_eq!(got.push_notification_config.token.as_deref(), Some("t"));
    let listed = client
        .call::<method::ListTaskPushNotificationConfigs>(
            &serde_json::from_value(json!({"id": task.id})).unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    let which =
        serde_json::from_value(json!({"id": task.id, "pushNotificationConfigId": "p1"})).unwrap();
    client
        .call::<method::DeleteTaskPushNotificationConfig>(&which)
        .await
        .unwrap();
    // The same agent through AnyClient, in 1.0's types.
    let any = a2a_types::AnyClient::from(client);
    let reply = any
        .call::<a2a_types::v1::method::SendMessage>(&send_v1("any"))
        .await
        .unwrap();
    assert!(
        matches!(reply, a2a_types::v1::SendMessageResponse::Task(t) if t.status.state == a2a_types::v1::TaskState::Completed)
    );
}

/// What a webhook on 127.0.0.1 received: each notification's path, token and JSON body.
type Received = Arc<Mutex<Vec<(String, String, Value)>>>;

/// A webhook (`POST /{name}`) that records what it receives, and its base URL.
async fn webhook() -> (String, Received) {
    let received = Received::default();
    let record = {
        let received = Arc::clone(&received);
        move |uri: axum::http::Uri, headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let token = headers
                .get(a2a_agent::push::NOTIFICATION_TOKEN_HEADER)
                .map(|t| t.to_str().unwrap().to_owned())
                .unwrap_or_default();
            let body = serde_json::from_slice(&body).unwrap();
            received
                .lock()
                .unwrap()
                .push((uri.path().to_owned(), token, body));
            std::future::ready(axum::http::StatusCode::OK)
        }
    };
    let app = axum::Router::new().route("/{name}", axum::routing::post(record));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, received)
}

/// Push configs set over 0.3 (with the message, and with `tasks/pushNotificationConfig/set`)
/// and over 1.0 on one task: each webhook gets its caller's version, 0.3's the task as it
/// stands (`kind: task`, 0.3's state names, the token in `X-A2A-Notification-Token`), 1.0's
/// each event as a `StreamResponse`.
async fn pushes_go_in_the_version_that_set_them(base: &str) {
    let (hooks, received) = webhook().await;
    let made = rpc(
        base,
        None,
        "message/send",
        json!({
            "message": message_0_3("hang"),
            "configuration": {"blocking": false, "pushNotificationConfig": {
                "id": "old-with-message", "url": format!("{hooks}/old-with-message"), "token": "t1"
            }}
        }),
    )
    .await;
    let id = made["result"]["id"].as_str().expect("a task").to_owned();
    let set = rpc(base, None, "tasks/pushNotificationConfig/set", json!({
        "taskId": id, "pushNotificationConfig": {"id": "old", "url": format!("{hooks}/old"), "token": "t2"}
    }))
    .await;
    assert_eq!(
        set["result"]["pushNotificationConfig"]["id"], "old",
        "{set}"
    );
    let created = rpc(
        base,
        Some("1.0"),
        "CreateTaskPushNotificationConfig",
        json!({"taskId": id, "id": "new", "url": format!("{hooks}/new"), "token": "t3"}),
    )
    .await;
    assert_eq!(created["result"]["id"], "new", "{created}");
    let canceled = rpc(base, Some("1.0"), "CancelTask", json!({"id": id})).await;
    assert_eq!(
        canceled["result"]["status"]["state"], "TASK_STATE_CANCELED",
        "{canceled}"
    );
    // Until each webhook has heard of the cancel.
    let ended = |path: &str, body: &Value| match path {
        "/new" => body["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED",
        _ => body["status"]["state"] == "canceled",
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let got = received.lock().unwrap().clone();
        let done = ["/old-with-message", "/old", "/new"].iter().all(|hook| {
            got.iter()
                .any(|(path, _, body)| path == hook && ended(path, body))
        });
        if done {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not every webhook heard: {got:#?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for (path, token, body) in received.lock().unwrap().iter() {
        match path.as_str() {
            "/new" => {
                assert_eq!(token, "t3");
                let event: a2a_types::v1::StreamResponse =
                    serde_json::from_value(body.clone()).unwrap();
                assert!(
                    matches!(&event, a2a_types::v1::StreamResponse::StatusUpdate(u) if u.task_id == id),
                    "{body}"
                );
            }
            old => {
                let expected = if old == "/old" { "t2" } else { "t1" };
                assert_eq!(token, expected, "{old}");
                assert_eq!(body["kind"], "task", "{old}: {body}");
                assert_eq!(body["id"], id.as_str());
                assert_eq!(
                    body["history"][0]["parts"][0],
                    json!({"kind": "text", "text": "hang"})
                );
                let task: a2a_types::v0_3::Task = serde_json::from_value(body.clone()).unwrap();
                assert_eq!(task.id, id);
            }
        }
    }
}

#[tokio::test]
async fn push_notifications_go_in_the_version_of_the_call_that_set_their_config() {
    pushes_go_in_the_version_that_set_them(&serve(true).await).await;
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_notifications_through_a_sqlite_outbox_go_in_the_version_that_set_them() {
    use a2a_agent::{cluster::SqliteFeed, store::SqliteStore};
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("tasks.db"))
        .await
        .unwrap();
    let feed = Arc::new(SqliteFeed::start(&store).await.unwrap());
    pushes_go_in_the_version_that_set_them(&serve_outbox(store, feed).await).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_notifications_through_a_postgres_outbox_go_in_the_version_that_set_them() {
    use a2a_agent::{cluster::PostgresFeed, store::PostgresStore};
    let Some(url) = common::postgres_url() else {
        return;
    };
    let store = PostgresStore::connect(&url).await.unwrap();
    let feed = Arc::new(PostgresFeed::start(&store).await.unwrap());
    pushes_go_in_the_version_that_set_them(&serve_outbox(store, feed).await).await;
}

/// [`serve`] with `store` as the task store and the push config store (so their outbox), and
/// `feed`: a replica's handler.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
async fn serve_outbox<S: a2a_agent::store::TaskStore + a2a_agent::store::PushConfigStore>(
    store: S,
    feed: Arc<dyn a2a_agent::cluster::EventFeed>,
) -> String {
    let store = Arc::new(store);
    serve_tuned(true, |b| {
        let dispatcher = PushDispatcher::new(PushSender::new(local()).unwrap());
        b.task_store(store.clone())
            .push_notifications(store, dispatcher)
            .event_feed(feed)
    })
    .await
}

/// Webhooks on 127.0.0.1 over plain HTTP allowed.
fn local() -> PushUrlPolicy {
    PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    }
}
