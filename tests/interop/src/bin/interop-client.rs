//! `interop-client URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) through
//! every A2A v1 method, with `a2a_types::v1` encoding the calls and decoding the replies; every
//! call carries `A2A-Version: 1.0`.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{content_type, context, read_chunks, read_whole, Client, STREAM_READ};
use a2a_interop::{ensure, text_of, user_text, Steps, WEBHOOK_URL};
use a2a_types::v1::{
    decode_reply, method, A2aError, AgentCard, CallError, CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Request, SendMessageRequest, SendMessageResponse, StreamDecoder,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use a2a_types::version::ProtocolVersion;
use serde_json::Value;

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
    let [base] = args.as_slice() else {
        eprintln!("usage: interop-client URL   (the a2a-sdk agent's base URL)");
        std::process::exit(2);
    };
    let base = base.trim_end_matches('/');
    let mut client = Client::new(Some(ProtocolVersion::V1_0));
    let mut steps = Steps::default();

    steps.step("agent card", || {
        let url = format!("{base}/.well-known/agent-card.json");
        let reply = client.get(&url)?;
        let card: AgentCard = serde_json::from_slice(&reply.body)
            .map_err(|e| context(format!("not a v1 AgentCard: {e}"), &reply))?;
        let json: Value = serde_json::from_slice(&reply.body).map_err(|e| e.to_string())?;
        let version = ProtocolVersion::from_agent_card(&json);
        ensure(version == Some(ProtocolVersion::V1_0), || {
            format!("the card declares {version:?}, expected 1.0")
        })?;
        ensure(card.capabilities.streaming == Some(true), || {
            "the card does not declare streaming".to_string()
        })?;
        // The SDK's card lists its v0.3 interface too; this client speaks 1.0.
        let interface = card
            .supported_interfaces
            .iter()
            .find(|i| {
                i.protocol_binding == "JSONRPC"
                    && ProtocolVersion::parse(&i.protocol_version) == Ok(ProtocolVersion::V1_0)
            })
            .ok_or("no JSON-RPC 1.0 interface in the card")?;
        ensure(card.capabilities.push_notifications == Some(true), || {
            "the card does not declare push notifications".to_string()
        })?;
        ensure(card.capabilities.extended_agent_card == Some(true), || {
            "the card does not declare an extended card".to_string()
        })?;
        client.endpoint = interface.url.clone();
        Ok(format!(
            "{:?} v{}, JSON-RPC at {}, {} skill(s)",
            card.name,
            card.version,
            interface.url,
            card.skills.len()
        ))
    });

    let hello = user_text("rust-msg-1", "hi from Rust");
    let mut first_task = String::new();
    steps.step("SendMessage", || {
        let reply = client.call(&Request::SendMessage(SendMessageRequest {
            message: hello.clone(),
            ..Default::default()
        }))?;
        match decode_reply::<method::SendMessage>(&reply.body) {
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
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask", || {
        let reply = client.call(&Request::GetTask(GetTaskRequest {
            id: first_task.clone(),
            ..Default::default()
        }))?;
        match decode_reply::<method::GetTask>(&reply.body) {
            Ok(task) if task.id == first_task => {
                completed_hello(&task)?;
                Ok(format!(
                    "task {} completed, {} history message(s)",
                    task.id,
                    task.history.len()
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask of an unknown id is TaskNotFound", || {
        let reply = client.call(&Request::GetTask(GetTaskRequest {
            id: "no-such-task".to_string(),
            ..Default::default()
        }))?;
        match decode_reply::<method::GetTask>(&reply.body) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => Ok(format!(
                "A2aError::TaskNotFound ({}: {}), {} detail(s)",
                error.code(),
                error.message(),
                error.details().len()
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "CancelTask of a completed task is TaskNotCancelable",
        || {
            let reply = client.call(&Request::CancelTask(CancelTaskRequest {
                id: first_task.clone(),
                ..Default::default()
            }))?;
            match decode_reply::<method::CancelTask>(&reply.body) {
                Err(CallError::Agent(error @ A2aError::TaskNotCancelable { .. })) => Ok(format!(
                    "A2aError::TaskNotCancelable ({}: {})",
                    error.code(),
                    error.message()
                )),
                other => Err(context(other, &reply)),
            }
        },
    );

    let mut streamed_task = String::new();
    steps.step("SendStreamingMessage, decoded as it arrives", || {
        let request = Request::SendStreamingMessage(SendMessageRequest {
            message: user_text("rust-msg-2", "stream to Rust"),
            ..Default::default()
        });
        let response = client.post(&request, "text/event-stream")?;
        let content_type = content_type(&response);
        ensure(content_type.starts_with("text/event-stream"), || {
            format!("content type {content_type:?}, expected text/event-stream")
        })?;
        let mut decoder = StreamDecoder::<StreamResponse>::new();
        let mut events = Vec::new();
        let reads = read_chunks(response, |chunk| {
            for item in decoder.feed(chunk) {
                events.push(item.map_err(|e| format!("event {}: {e}", events.len() + 1))?);
            }
            Ok(())
        })?;
        decoder.finish().map_err(|e| e.to_string())?;
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
            "{} events over {reads} reads of at most {STREAM_READ} bytes: {}",
            events.len(),
            kinds.join(", ")
        ))
    });

    steps.step(
        "SubscribeToTask of a completed task: one JSON error",
        || {
            let request = Request::SubscribeToTask(SubscribeToTaskRequest {
                id: streamed_task.clone(),
                ..Default::default()
            });
            let response = client.post(&request, "text/event-stream")?;
            let reply = read_whole(response)?;
            // A streaming call refused before it starts: the agent answers one plain JSON body.
            match decode_reply::<method::SubscribeToTask>(&reply.body) {
                Err(CallError::Agent(error @ A2aError::UnsupportedOperation { .. })) => {
                    Ok(format!(
                        "A2aError::UnsupportedOperation ({}: {}), content type {}",
                        error.code(),
                        error.message(),
                        reply.content_type
                    ))
                }
                other => Err(context(other, &reply)),
            }
        },
    );

    steps.step("ListTasks", || {
        let reply = client.call(&Request::ListTasks(ListTasksRequest::default()))?;
        match decode_reply::<method::ListTasks>(&reply.body) {
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
            other => Err(context(other, &reply)),
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
        let reply = client.call(&Request::CreateTaskPushNotificationConfig(push.clone()))?;
        match decode_reply::<method::CreateTaskPushNotificationConfig>(&reply.body) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!("config {:?} for task {first_task} stored", push.id))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTaskPushNotificationConfig", || {
        let reply = client.call(&Request::GetTaskPushNotificationConfig(
            GetTaskPushNotificationConfigRequest {
                task_id: first_task.clone(),
                id: "rust-push-1".to_string(),
                ..Default::default()
            },
        ))?;
        match decode_reply::<method::GetTaskPushNotificationConfig>(&reply.body) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!("config {:?}, url {}", config.id, config.url))
            }
            other => Err(context(other, &reply)),
        }
    });

    let list_pushes = |client: &mut Client| {
        let reply = client.call(&Request::ListTaskPushNotificationConfigs(
            ListTaskPushNotificationConfigsRequest {
                task_id: first_task.clone(),
                ..Default::default()
            },
        ))?;
        decode_reply::<method::ListTaskPushNotificationConfigs>(&reply.body)
            .map_err(|e| context(e, &reply))
    };

    steps.step("ListTaskPushNotificationConfigs", || {
        let list = list_pushes(&mut client)?;
        ensure(list.configs.len() == 1, || {
            format!("configs {:?}, expected the one stored", list.configs)
        })?;
        same_push(&list.configs[0])?;
        Ok(format!("1 config: {:?}", list.configs[0].id))
    });

    steps.step("DeleteTaskPushNotificationConfig", || {
        let reply = client.call(&Request::DeleteTaskPushNotificationConfig(
            DeleteTaskPushNotificationConfigRequest {
                task_id: first_task.clone(),
                id: "rust-push-1".to_string(),
                ..Default::default()
            },
        ))?;
        match decode_reply::<method::DeleteTaskPushNotificationConfig>(&reply.body) {
            Ok(empty) => Ok(format!(
                "deleted; result {empty:?} from body {}",
                String::from_utf8_lossy(&reply.body)
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "ListTaskPushNotificationConfigs after the delete: none left",
        || {
            let list = list_pushes(&mut client)?;
            ensure(list.configs.is_empty(), || {
                format!("configs {:?}, expected none", list.configs)
            })?;
            Ok("0 configs".to_string())
        },
    );

    steps.step("GetExtendedAgentCard", || {
        let reply = client.call(&Request::GetExtendedAgentCard(
            GetExtendedAgentCardRequest::default(),
        ))?;
        match decode_reply::<method::GetExtendedAgentCard>(&reply.body) {
            Ok(card) => {
                let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
                ensure(skills.contains(&"extended_hello"), || {
                    format!("skills {skills:?}, expected the extended card's extended_hello")
                })?;
                Ok(format!("{:?} with skills {skills:?}", card.name))
            }
            other => Err(context(other, &reply)),
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
