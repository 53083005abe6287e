//! `interop-client-v0-3 URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) through
//! every A2A 0.3 method, built on `a2a_types::v0_3` only: its `Request::encode` writes the calls,
//! its `decode_reply` and `StreamDecoder` read the replies. Like a v0.3 client it sends no
//! `A2A-Version` header, which the SDK's server reads as 0.3.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{content_type, context, read_chunks, read_whole, Client, STREAM_READ};
use a2a_interop::v0_3::{text_of, user_text};
use a2a_interop::{ensure, Steps, WEBHOOK_URL};
use a2a_types::v0_3::{
    decode_reply, method, A2aError, AgentCard, CallError, DeleteTaskPushNotificationConfigParams,
    GetAuthenticatedExtendedCardParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, MessageSendParams, PushNotificationConfig, Request,
    SendMessageResult, StreamDecoder, StreamEvent, Task, TaskIdParams, TaskPushNotificationConfig,
    TaskQueryParams, TaskState,
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
    let [base] = args.as_slice() else {
        eprintln!("usage: interop-client-v0-3 URL   (the a2a-sdk agent's base URL)");
        std::process::exit(2);
    };
    let base = base.trim_end_matches('/');
    let mut client = Client::new(None);
    let mut steps = Steps::default();

    steps.step("agent card (v0.3 members)", || {
        let url = format!("{base}/.well-known/agent-card.json");
        let reply = client.get(&url)?;
        // a2a-sdk serves one card for both versions: the v1 members plus the v0.3 ones.
        let card: AgentCard = serde_json::from_slice(&reply.body)
            .map_err(|e| context(format!("not a v0.3 AgentCard: {e}"), &reply))?;
        let version = ProtocolVersion::parse(&card.protocol_version);
        ensure(version == Ok(ProtocolVersion::V0_3), || {
            format!("protocolVersion {:?}, expected 0.3", card.protocol_version)
        })?;
        ensure(card.preferred_transport == "JSONRPC", || {
            format!("preferredTransport {:?}", card.preferred_transport)
        })?;
        ensure(
            card.capabilities.streaming == Some(true)
                && card.capabilities.push_notifications == Some(true),
            || format!("capabilities {:?}", card.capabilities),
        )?;
        ensure(
            card.supports_authenticated_extended_card == Some(true),
            || "the card does not offer an authenticated extended card".to_string(),
        )?;
        client.endpoint = card.url.clone();
        Ok(format!(
            "{:?} v{}, protocolVersion {}, JSON-RPC at {}, {} skill(s)",
            card.name,
            card.version,
            card.protocol_version,
            card.url,
            card.skills.len()
        ))
    });

    let mut first_task = String::new();
    steps.step("message/send", || {
        let reply = client.call(&Request::SendMessage(MessageSendParams {
            message: user_text("rust03-msg-1", "hi from Rust in 0.3"),
            ..Default::default()
        }))?;
        match decode_reply::<method::SendMessage>(&reply.body) {
            Ok(SendMessageResult::Task(task)) => {
                completed_hello(&task)?;
                ensure(
                    task.history.iter().any(|m| m.message_id == "rust03-msg-1"),
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

    steps.step("tasks/get", || {
        let reply = client.call(&Request::GetTask(TaskQueryParams {
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

    steps.step("tasks/get of an unknown id is TaskNotFound", || {
        let reply = client.call(&Request::GetTask(TaskQueryParams {
            id: "no-such-task".to_string(),
            ..Default::default()
        }))?;
        match decode_reply::<method::GetTask>(&reply.body) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => Ok(format!(
                "A2aError::TaskNotFound ({}: {})",
                error.code(),
                error.message()
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "tasks/cancel of a completed task is TaskNotCancelable",
        || {
            let reply = client.call(&Request::CancelTask(TaskIdParams {
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
    steps.step("message/stream, decoded as it arrives", || {
        let request = Request::SendStreamingMessage(MessageSendParams {
            message: user_text("rust03-msg-2", "stream to Rust in 0.3"),
            ..Default::default()
        });
        let response = client.post(&request, "text/event-stream")?;
        let content_type = content_type(&response);
        ensure(content_type.starts_with("text/event-stream"), || {
            format!("content type {content_type:?}, expected text/event-stream")
        })?;
        let mut decoder = StreamDecoder::<StreamEvent>::new();
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
            "status Completed (final)",
        ];
        ensure(kinds == expected, || {
            format!("events {kinds:?}, expected {expected:?}")
        })?;
        if let Some(StreamEvent::Task(task)) = events.first() {
            streamed_task = task.id.clone();
        }
        Ok(format!(
            "{} events over {reads} reads of at most {STREAM_READ} bytes: {}",
            events.len(),
            kinds.join(", ")
        ))
    });

    steps.step(
        "tasks/resubscribe of a completed task is UnsupportedOperation",
        || {
            let request = Request::SubscribeToTask(TaskIdParams {
                id: streamed_task.clone(),
                ..Default::default()
            });
            let response = client.post(&request, "text/event-stream")?;
            let reply = read_whole(response)?;
            // Refused before the stream starts (one JSON body), or as the stream's one event.
            let outcome = if reply.content_type.starts_with("text/event-stream") {
                let mut decoder = StreamDecoder::<StreamEvent>::new();
                let mut items = decoder.feed(&reply.body);
                if let Err(e) = decoder.finish() {
                    items.push(Err(e));
                }
                match <[_; 1]>::try_from(items) {
                    Ok([item]) => item,
                    Err(items) => return Err(context(items, &reply)),
                }
            } else {
                decode_reply::<method::SubscribeToTask>(&reply.body)
            };
            match outcome {
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

    let push = TaskPushNotificationConfig {
        task_id: first_task.clone(),
        push_notification_config: PushNotificationConfig {
            id: Some("rust03-push-1".to_string()),
            url: WEBHOOK_URL.to_string(),
            token: Some("rust03-token".to_string()),
            authentication: None,
        },
    };
    let same_push = |config: &TaskPushNotificationConfig| {
        let (got, want) = (
            &config.push_notification_config,
            &push.push_notification_config,
        );
        ensure(
            config.task_id == push.task_id
                && got.id == want.id
                && got.url == want.url
                && got.token == want.token,
            || format!("config {config:?}, expected {push:?}"),
        )
    };

    steps.step("tasks/pushNotificationConfig/set", || {
        let reply = client.call(&Request::SetTaskPushNotificationConfig(push.clone()))?;
        match decode_reply::<method::SetTaskPushNotificationConfig>(&reply.body) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "config {:?} for task {} stored",
                    config.push_notification_config.id, config.task_id
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("tasks/pushNotificationConfig/get", || {
        let reply = client.call(&Request::GetTaskPushNotificationConfig(
            GetTaskPushNotificationConfigParams {
                id: first_task.clone(),
                push_notification_config_id: Some("rust03-push-1".to_string()),
                ..Default::default()
            },
        ))?;
        match decode_reply::<method::GetTaskPushNotificationConfig>(&reply.body) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "config {:?}, url {}",
                    config.push_notification_config.id, config.push_notification_config.url
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    let list_pushes = |client: &mut Client| {
        let reply = client.call(&Request::ListTaskPushNotificationConfigs(
            ListTaskPushNotificationConfigParams {
                id: first_task.clone(),
                ..Default::default()
            },
        ))?;
        decode_reply::<method::ListTaskPushNotificationConfigs>(&reply.body)
            .map_err(|e| context(e, &reply))
    };

    steps.step("tasks/pushNotificationConfig/list", || {
        let configs = list_pushes(&mut client)?;
        ensure(configs.len() == 1, || {
            format!("configs {configs:?}, expected the one stored")
        })?;
        same_push(&configs[0])?;
        Ok(format!(
            "1 config: {:?}",
            configs[0].push_notification_config.id
        ))
    });

    steps.step("tasks/pushNotificationConfig/delete", || {
        let reply = client.call(&Request::DeleteTaskPushNotificationConfig(
            DeleteTaskPushNotificationConfigParams {
                id: first_task.clone(),
                push_notification_config_id: "rust03-push-1".to_string(),
                ..Default::default()
            },
        ))?;
        match decode_reply::<method::DeleteTaskPushNotificationConfig>(&reply.body) {
            Ok(result) => Ok(format!(
                "deleted; result {result} from body {}",
                String::from_utf8_lossy(&reply.body)
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "tasks/pushNotificationConfig/list after the delete: none left",
        || {
            let configs = list_pushes(&mut client)?;
            ensure(configs.is_empty(), || {
                format!("configs {configs:?}, expected none")
            })?;
            Ok("0 configs".to_string())
        },
    );

    steps.step("agent/getAuthenticatedExtendedCard", || {
        let reply = client.call(&Request::GetExtendedAgentCard(
            GetAuthenticatedExtendedCardParams::default(),
        ))?;
        match decode_reply::<method::GetExtendedAgentCard>(&reply.body) {
            Ok(card) => {
                let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
                ensure(skills.contains(&"extended_hello"), || {
                    format!("skills {skills:?}, expected the extended card's extended_hello")
                })?;
                Ok(format!(
                    "{:?}, protocolVersion {}, skills {skills:?}",
                    card.name, card.protocol_version
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.finish("interop-client-v0-3", "the a2a-sdk agent (A2A 0.3)");
}

/// A short name for a stream event.
fn kind(event: &StreamEvent) -> String {
    match event {
        StreamEvent::Task(task) => format!("task {:?}", task.status.state),
        StreamEvent::Message(message) => format!("message {:?}", text_of(&message.parts)),
        StreamEvent::StatusUpdate(update) => format!(
            "status {:?}{}",
            update.status.state,
            if update.r#final { " (final)" } else { "" }
        ),
        StreamEvent::ArtifactUpdate(update) => {
            format!("artifact {:?}", text_of(&update.artifact.parts))
        }
        StreamEvent::Unknown(unknown) => format!("unknown {:?}", unknown.name()),
    }
}
