//! `interop-client [--grpc] URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py)
//! through every A2A v1 method over JSON-RPC, with `a2a_runtime::client::Client` on
//! `a2a_types::v1::Protocol`: the client picks the JSON-RPC 1.0 interface from the card, sends
//! every call with `A2A-Version: 1.0`, and decodes every reply and stream with `a2a_types::v1`.
//! With `--grpc` (against `agent.py --grpc`), the client is asked for gRPC and takes the card's
//! GRPC interface: the same calls as protobuf messages on the SDK's GrpcHandler.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{fallback_client, runtime, TIMEOUT};
use a2a_interop::{ensure, text_of, user_text, Steps, WEBHOOK_URL};
use a2a_types::rt::client::Client;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    method, A2aError, AgentCard, CallError, CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Protocol, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use a2a_types::version::ProtocolVersion;

fn completed_hello(task: &Task) -> Result<(), String> {
    ensure(task.status.state == TaskState::Completed, || {
        format!("task state {:?}, expected Completed", task.status.state)
    })?;
    let text = task
        .artifacts
        .iter()
        .map(|a| text_of(&a.parts))
        .collect::<Vec<_>>();
    ensure(text == ["Hello World"], || {
        format!("artifact texts {text:?}, expected [\"Hello World\"]")
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (binding, base) = match args.as_slice() {
        [flag, base] if flag == "--grpc" => (Binding::Grpc, base),
        [base] => (Binding::JsonRpc, base),
        _ => {
            eprintln!("usage: interop-client [--grpc] URL   (the a2a-sdk agent's base URL)");
            std::process::exit(2);
        }
    };
    let base = base.trim_end_matches('/');
    let rt = runtime();
    let mut steps = Steps::default();

    let mut connected = None;
    steps.step("agent card", || {
        let client = rt
            .block_on(
                Client::<Protocol>::builder()
                    .bindings([binding])
                    .request_timeout(TIMEOUT)
                    .connect(base),
            )
            .map_err(|e| format!("no client on the card: {e}"))?;
        let json = client.card();
        let card: AgentCard =
            serde_json::from_value(json.clone()).map_err(|e| format!("not a v1 AgentCard: {e}"))?;
        let version = ProtocolVersion::from_agent_card(json);
        ensure(version == Some(ProtocolVersion::V1_0), || {
            format!("the card declares {version:?}, expected 1.0")
        })?;
        ensure(card.capabilities.streaming == Some(true), || {
            "the card does not declare streaming".to_string()
        })?;
        // The SDK's card lists its v0.3 interface too; this client speaks 1.0.
        let interface = client.interface().clone();
        ensure(
            interface.binding == binding && interface.version == ProtocolVersion::V1_0,
            || format!("the client took {interface:?}, expected {binding} 1.0"),
        )?;
        ensure(card.capabilities.push_notifications == Some(true), || {
            "the card does not declare push notifications".to_string()
        })?;
        ensure(card.capabilities.extended_agent_card == Some(true), || {
            "the card does not declare an extended card".to_string()
        })?;
        connected = Some(client);
        Ok(format!(
            "{:?} v{}, {binding} at {}, {} skill(s)",
            card.name,
            card.version,
            interface.url,
            card.skills.len()
        ))
    });
    let client =
        connected.unwrap_or_else(|| fallback_client(&format!("{base}/"), Binding::JsonRpc));

    let hello = user_text("rust-msg-1", "hi from Rust");
    let mut first_task = String::new();
    steps.step("SendMessage", || {
        let params = SendMessageRequest {
            message: hello.clone(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::SendMessage>(&params)) {
            Ok(SendMessageResponse::Task(task)) => {
                completed_hello(&task)?;
                ensure(
                    task.history.iter().any(|m| m.message_id == "rust-msg-1"),
                    || "the task's history lacks our message".to_string(),
                )?;
                first_task = task.id.clone();
                Ok(format!(
                    "task {} completed, artifact \"Hello World\"",
                    task.id
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTask", || {
        let params = GetTaskRequest {
            id: first_task.clone(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Ok(task) if task.id == first_task => {
                completed_hello(&task)?;
                Ok(format!(
                    "task {} completed, {} history message(s)",
                    task.id,
                    task.history.len()
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTask of an unknown id is TaskNotFound", || {
        let params = GetTaskRequest {
            id: "no-such-task".to_string(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => Ok(format!(
                "A2aError::TaskNotFound ({}: {}), {} detail(s)",
                error.code(),
                error.message(),
                error.details().len()
            )),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "CancelTask of a completed task is TaskNotCancelable",
        || {
            let params = CancelTaskRequest {
                id: first_task.clone(),
                ..Default::default()
            };
            match rt.block_on(client.call::<method::CancelTask>(&params)) {
                Err(CallError::Agent(error @ A2aError::TaskNotCancelable { .. })) => Ok(format!(
                    "A2aError::TaskNotCancelable ({}: {})",
                    error.code(),
                    error.message()
                )),
                other => Err(format!("{other:?}")),
            }
        },
    );

    let mut streamed_task = String::new();
    steps.step("SendStreamingMessage, decoded as it arrives", || {
        let params = SendMessageRequest {
            message: user_text("rust-msg-2", "stream to Rust"),
            ..Default::default()
        };
        let events = rt.block_on(async {
            let mut stream = client.stream::<method::SendStreamingMessage>(&params);
            let mut events = Vec::new();
            while let Some(item) = stream.next().await {
                events.push(item.map_err(|e| format!("event {}: {e}", events.len() + 1))?);
            }
            Ok::<_, String>(events)
        })?;
        let kinds: Vec<String> = events.iter().map(kind).collect();
        let expected = [
            "task Submitted",
            "status Working",
            "artifact \"Hello World\"",
            "status Completed",
        ];
        ensure(kinds == expected, || {
            format!("events {kinds:?}, expected {expected:?}")
        })?;
        if let Some(StreamResponse::Task(task)) = events.first() {
            streamed_task = task.id.clone();
        }
        Ok(format!(
            "{} events, each decoded as it arrived: {}",
            events.len(),
            kinds.join(", ")
        ))
    });

    steps.step(
        "SubscribeToTask of a completed task: one JSON error",
        || {
            let params = SubscribeToTaskRequest {
                id: streamed_task.clone(),
                ..Default::default()
            };
            // A streaming call refused before it starts: the agent answers one plain JSON body,
            // which the stream gives as its one item.
            let items = rt.block_on(async {
                let mut stream = client.stream::<method::SubscribeToTask>(&params);
                let mut items = Vec::new();
                while let Some(item) = stream.next().await {
                    items.push(item);
                }
                items
            });
            match items.as_slice() {
                [Err(CallError::Agent(error @ A2aError::UnsupportedOperation { .. }))] => {
                    Ok(format!(
                        "the stream's one item: A2aError::UnsupportedOperation ({}: {})",
                        error.code(),
                        error.message(),
                    ))
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    steps.step("ListTasks", || {
        match rt.block_on(client.call::<method::ListTasks>(&ListTasksRequest::default())) {
            Ok(list) => {
                let ids: Vec<&str> = list.tasks.iter().map(|t| t.id.as_str()).collect();
                ensure(
                    ids.contains(&first_task.as_str()) && ids.contains(&streamed_task.as_str()),
                    || format!("tasks {ids:?}, expected {first_task} and {streamed_task}"),
                )?;
                Ok(format!(
                    "{} task(s), total size {}",
                    list.tasks.len(),
                    list.total_size
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let push = TaskPushNotificationConfig {
        id: Some("rust-push-1".to_string()),
        task_id: Some(first_task.clone()),
        url: WEBHOOK_URL.to_string(),
        token: Some("rust-token".to_string()),
        ..Default::default()
    };
    let same_push = |config: &TaskPushNotificationConfig| {
        ensure(
            config.id == push.id
                && config.task_id == push.task_id
                && config.url == push.url
                && config.token == push.token,
            || format!("config {config:?}, expected {push:?}"),
        )
    };

    steps.step("CreateTaskPushNotificationConfig", || {
        match rt.block_on(client.call::<method::CreateTaskPushNotificationConfig>(&push)) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!("config {:?} for task {first_task} stored", push.id))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTaskPushNotificationConfig", || {
        let params = GetTaskPushNotificationConfigRequest {
            task_id: first_task.clone(),
            id: "rust-push-1".to_string(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTaskPushNotificationConfig>(&params)) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!("config {:?}, url {}", config.id, config.url))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let list_pushes = || {
        let params = ListTaskPushNotificationConfigsRequest {
            task_id: first_task.clone(),
            ..Default::default()
        };
        rt.block_on(client.call::<method::ListTaskPushNotificationConfigs>(&params))
            .map_err(|e| format!("{e:?}"))
    };

    steps.step("ListTaskPushNotificationConfigs", || {
        let list = list_pushes()?;
        ensure(list.configs.len() == 1, || {
            format!("configs {:?}, expected the one stored", list.configs)
        })?;
        same_push(&list.configs[0])?;
        Ok(format!("1 config: {:?}", list.configs[0].id))
    });

    steps.step("DeleteTaskPushNotificationConfig", || {
        let params = DeleteTaskPushNotificationConfigRequest {
            task_id: first_task.clone(),
            id: "rust-push-1".to_string(),
            ..Default::default()
        };
        // The SDK answers `"result": null`, which the void result reads as success.
        match rt.block_on(client.call::<method::DeleteTaskPushNotificationConfig>(&params)) {
            Ok(empty) => Ok(format!("deleted; result {empty:?}")),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "ListTaskPushNotificationConfigs after the delete: none left",
        || {
            let list = list_pushes()?;
            ensure(list.configs.is_empty(), || {
                format!("configs {:?}, expected none", list.configs)
            })?;
            Ok("0 configs".to_string())
        },
    );

    steps.step("GetExtendedAgentCard", || {
        let params = GetExtendedAgentCardRequest::default();
        match rt.block_on(client.call::<method::GetExtendedAgentCard>(&params)) {
            Ok(card) => {
                let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
                ensure(skills.contains(&"extended_hello"), || {
                    format!("skills {skills:?}, expected the extended card's extended_hello")
                })?;
                Ok(format!("{:?} with skills {skills:?}", card.name))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.finish("interop-client", "the a2a-sdk agent");
}

/// A short name for a stream event.
fn kind(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => format!("task {:?}", task.status.state),
        StreamResponse::Message(message) => format!("message {:?}", text_of(&message.parts)),
        StreamResponse::StatusUpdate(update) => format!("status {:?}", update.status.state),
        StreamResponse::ArtifactUpdate(update) => {
            format!("artifact {:?}", text_of(&update.artifact.parts))
        }
        StreamResponse::Unknown(unknown) => format!("unknown {:?}", unknown.name()),
    }
}
