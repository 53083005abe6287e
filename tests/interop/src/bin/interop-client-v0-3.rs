//! `interop-client-v0-3 URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) through
//! every A2A 0.3 method, with `a2a_runtime::client::Client` on
//! `a2a_types::v0_3::Protocol` only: the client takes the card's 0.3 interface (the SDK's card
//! lists 1.0 beside it), writes the calls and reads the replies with `a2a_types::v0_3`, and, like
//! a v0.3 client, sends no `A2A-Version` header, which the SDK's server reads as 0.3.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{fallback_client, runtime, TIMEOUT};
use a2a_interop::v0_3::{text_of, user_text};
use a2a_interop::{ensure, Steps, WEBHOOK_URL};
use a2a_types::rt::client::Client;
use a2a_types::rt::Binding;
use a2a_types::v0_3::{
    method, A2aError, AgentCard, CallError, DeleteTaskPushNotificationConfigParams,
    GetAuthenticatedExtendedCardParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, MessageSendParams, Protocol, PushNotificationConfig,
    SendMessageResult, StreamEvent, Task, TaskIdParams, TaskPushNotificationConfig,
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
    let rt = runtime();
    let mut steps = Steps::default();

    let mut connected = None;
    steps.step("agent card (v0.3 members)", || {
        let client = rt
            .block_on(
                Client::<Protocol>::builder()
                    .request_timeout(TIMEOUT)
                    .connect(base),
            )
            .map_err(|e| format!("no client on the card: {e}"))?;
        // a2a-sdk serves one card for both versions: the v1 members plus the v0.3 ones.
        let card: AgentCard = serde_json::from_value(client.card().clone())
            .map_err(|e| format!("not a v0.3 AgentCard: {e}"))?;
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
        let interface = client.interface().clone();
        ensure(
            interface.binding == Binding::JsonRpc && interface.version == ProtocolVersion::V0_3,
            || format!("the client took {interface:?}, expected JSON-RPC 0.3"),
        )?;
        connected = Some(client);
        Ok(format!(
            "{:?} v{}, protocolVersion {}, JSON-RPC 0.3 at {} (the card's url: {}), {} skill(s)",
            card.name,
            card.version,
            card.protocol_version,
            interface.url,
            card.url,
            card.skills.len()
        ))
    });
    let client =
        connected.unwrap_or_else(|| fallback_client(&format!("{base}/"), Binding::JsonRpc));

    let mut first_task = String::new();
    steps.step("message/send", || {
        let params = MessageSendParams {
            message: user_text("rust03-msg-1", "hi from Rust in 0.3"),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::SendMessage>(&params)) {
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
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("tasks/get", || {
        let params = TaskQueryParams {
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

    steps.step("tasks/get of an unknown id is TaskNotFound", || {
        let params = TaskQueryParams {
            id: "no-such-task".to_string(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => Ok(format!(
                "A2aError::TaskNotFound ({}: {})",
                error.code(),
                error.message()
            )),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "tasks/cancel of a completed task is TaskNotCancelable",
        || {
            let params = TaskIdParams {
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
    steps.step("message/stream, decoded as it arrives", || {
        let params = MessageSendParams {
            message: user_text("rust03-msg-2", "stream to Rust in 0.3"),
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
            "status Completed (final)",
        ];
        ensure(kinds == expected, || {
            format!("events {kinds:?}, expected {expected:?}")
        })?;
        if let Some(StreamEvent::Task(task)) = events.first() {
            streamed_task = task.id.clone();
        }
        Ok(format!(
            "{} events, each decoded as it arrived: {}",
            events.len(),
            kinds.join(", ")
        ))
    });

    steps.step(
        "tasks/resubscribe of a completed task is UnsupportedOperation",
        || {
            let params = TaskIdParams {
                id: streamed_task.clone(),
                ..Default::default()
            };
            // Refused before the stream starts (one JSON body), or as the stream's one event
            // (what the SDK's v0.3 layer does): the same one item either way.
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
        match rt.block_on(client.call::<method::SetTaskPushNotificationConfig>(&push)) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "config {:?} for task {} stored",
                    config.push_notification_config.id, config.task_id
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("tasks/pushNotificationConfig/get", || {
        let params = GetTaskPushNotificationConfigParams {
            id: first_task.clone(),
            push_notification_config_id: Some("rust03-push-1".to_string()),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTaskPushNotificationConfig>(&params)) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "config {:?}, url {}",
                    config.push_notification_config.id, config.push_notification_config.url
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let list_pushes = || {
        let params = ListTaskPushNotificationConfigParams {
            id: first_task.clone(),
            ..Default::default()
        };
        rt.block_on(client.call::<method::ListTaskPushNotificationConfigs>(&params))
            .map_err(|e| format!("{e:?}"))
    };

    steps.step("tasks/pushNotificationConfig/list", || {
        let configs = list_pushes()?;
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
        let params = DeleteTaskPushNotificationConfigParams {
            id: first_task.clone(),
            push_notification_config_id: "rust03-push-1".to_string(),
            ..Default::default()
        };
        // The SDK's v0.3 layer answers with neither `result` nor `error`: success for a void
        // result.
        match rt.block_on(client.call::<method::DeleteTaskPushNotificationConfig>(&params)) {
            Ok(result) => Ok(format!("deleted; result {result}")),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "tasks/pushNotificationConfig/list after the delete: none left",
        || {
            let configs = list_pushes()?;
            ensure(configs.is_empty(), || {
                format!("configs {configs:?}, expected none")
            })?;
            Ok("0 configs".to_string())
        },
    );

    steps.step("agent/getAuthenticatedExtendedCard", || {
        let params = GetAuthenticatedExtendedCardParams::default();
        match rt.block_on(client.call::<method::GetExtendedAgentCard>(&params)) {
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
            other => Err(format!("{other:?}")),
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
