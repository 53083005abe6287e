//! `interop-client-any URL`: a client written against A2A 1.0 only (`a2a_types::AnyClient` and
//! `a2a_types::v1`), driving an agent that speaks A2A 0.3 only: a2a-sdk 0.3.26's server
//! (tests/interop/py/agent_v0_3.py). `AnyClient::connect` finds no 1.0 interface on the card and
//! connects in 0.3; every call's params are converted down and its result up through the
//! conversions generated between `v0_3` and `v1`, so each step reads 1.0 types.
//!
//! `interop-client-any --rest URL`: the same against that agent served over 0.3's HTTP+JSON
//! binding alone (`agent_v0_3.py --rest`): `AnyClient::connect` takes the card's HTTP+JSON
//! interface and speaks 0.3's REST (`/v1/message:send`, the ProtoJSON of 0.3's proto). That
//! server names no error beyond its HTTP status (404 for an unknown task, 409 for a task that
//! cannot be canceled, as a2a-sdk 0.3.26 maps them): those steps check the status, as the SDK's
//! own 0.3 client reads it.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::runtime;
use a2a_interop::{ensure, Steps, WEBHOOK_URL};
use a2a_types::rt::client::CallError;
use a2a_types::v1::{
    method, A2aError, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, Message, Part, PartContent, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
    TaskState,
};
use a2a_types::version::ProtocolVersion;
use a2a_types::AnyClient;
use futures_util::StreamExt as _;

fn send(id: &str, text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: id.into(),
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

fn completed_hello(task: &Task) -> Result<(), String> {
    ensure(task.status.state == TaskState::Completed, || {
        format!("task state {:?}, expected Completed", task.status.state)
    })?;
    let parts: Vec<&PartContent> = task
        .artifacts
        .iter()
        .flat_map(|a| a.parts.iter().map(|p| &p.content))
        .collect();
    ensure(parts == [&PartContent::Text("Hello World".into())], || {
        format!("artifact parts {parts:?}, expected the text \"Hello World\"")
    })
}

fn kind(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(t) => format!("task {:?}", t.status.state),
        StreamResponse::StatusUpdate(u) => format!("status {:?}", u.status.state),
        StreamResponse::ArtifactUpdate(_) => "artifact".into(),
        StreamResponse::Message(_) => "message".into(),
        StreamResponse::Unknown(_) => "unknown".into(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (rest, base) = match args.as_slice() {
        [flag, base] if flag == "--rest" => (true, base),
        [base] => (false, base),
        _ => {
            eprintln!("usage: interop-client-any [--rest] URL   (a 0.3-only agent's base URL)");
            std::process::exit(2);
        }
    };
    let binding = match rest {
        true => a2a_types::rt::Binding::HttpJson,
        false => a2a_types::rt::Binding::JsonRpc,
    };
    // Over REST, the SDK's server says which error by its HTTP status alone.
    let by_status = |e: &A2aError, status: i64| rest && e.code() == status;
    let rt = runtime();
    let mut steps = Steps::default();
    let client = match rt.block_on(AnyClient::connect(base)) {
        Ok(client) => client,
        Err(e) => {
            println!("FAILED AnyClient::connect: {e}");
            std::process::exit(1);
        }
    };
    steps.step("AnyClient::connect speaks 0.3 to a 0.3-only card", || {
        ensure(client.version() == ProtocolVersion::V0_3, || {
            format!("connected in {}", client.version())
        })?;
        let AnyClient::V0_3(old) = &client else {
            return Err("not a 0.3 client".into());
        };
        ensure(old.binding() == binding, || {
            format!("over {}, expected {}", old.binding(), binding)
        })?;
        Ok(format!(
            "no 1.0 interface on the card: connected in 0.3 over {binding}"
        ))
    });

    let mut first = String::new();
    steps.step(
        "SendMessage (as message/send), a v1::Task back",
        || match rt.block_on(client.call::<method::SendMessage>(&send("any-1", "hi from 1.0"))) {
            Ok(SendMessageResponse::Task(task)) => {
                completed_hello(&task)?;
                first = task.id.clone();
                Ok(format!("task {} {:?}", task.id, task.status.state))
            }
            other => Err(format!("{other:?}")),
        },
    );

    steps.step("GetTask (as tasks/get)", || {
        let params = GetTaskRequest {
            id: first.clone(),
            history_length: Some(5),
            ..Default::default()
        };
        let task = rt
            .block_on(client.call::<method::GetTask>(&params))
            .map_err(|e| format!("{e}"))?;
        completed_hello(&task)?;
        ensure(
            task.history.first().map(|m| &m.role) == Some(&Role::User),
            || format!("history {:?}", task.history),
        )?;
        Ok(format!(
            "{} history message(s), roles in 1.0's enum",
            task.history.len()
        ))
    });

    steps.step("GetTask of an unknown id is A2aError::TaskNotFound", || {
        let params = GetTaskRequest {
            id: "no-such-task".into(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Err(CallError::Agent(e @ A2aError::TaskNotFound { .. })) => {
                Ok(format!("{}: {}", e.code(), e.message()))
            }
            Err(CallError::Agent(e)) if by_status(&e, 404) => {
                Ok(format!("HTTP 404: {} (the status names it)", e.message()))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "CancelTask of a completed task is TaskNotCancelable",
        || {
            let params = CancelTaskRequest {
                id: first.clone(),
                ..Default::default()
            };
            match rt.block_on(client.call::<method::CancelTask>(&params)) {
                Err(CallError::Agent(e @ A2aError::TaskNotCancelable { .. })) => {
                    Ok(format!("{}: {}", e.code(), e.message()))
                }
                Err(CallError::Agent(e)) if by_status(&e, 409) => {
                    Ok(format!("HTTP 409: {} (the status names it)", e.message()))
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    let mut streamed = String::new();
    steps.step(
        "SendStreamingMessage (as message/stream), 1.0 events",
        || {
            let events = rt.block_on(async {
                let mut stream =
                    client.stream::<method::SendStreamingMessage>(&send("any-2", "stream to 1.0"));
                let mut events = Vec::new();
                while let Some(item) = stream.next().await {
                    events.push(item.map_err(|e| format!("event {}: {e}", events.len() + 1))?);
                }
                Ok::<_, String>(events)
            })?;
            let kinds: Vec<String> = events.iter().map(kind).collect();
            ensure(
                kinds.first().is_some_and(|k| k.starts_with("task"))
                    && kinds.last().map(String::as_str) == Some("status Completed")
                    && kinds.iter().any(|k| k == "artifact"),
                || format!("events {kinds:?}"),
            )?;
            if let Some(StreamResponse::Task(t)) = events.first() {
                streamed = t.id.clone();
            }
            Ok(kinds.join(", "))
        },
    );

    steps.step(
        "SubscribeToTask (as tasks/resubscribe) of a finished task fails",
        || {
            let params = SubscribeToTaskRequest {
                id: streamed.clone(),
                ..Default::default()
            };
            let first = rt.block_on(async {
                client
                    .stream::<method::SubscribeToTask>(&params)
                    .next()
                    .await
            });
            match first {
                Some(Err(CallError::Agent(e))) => Ok(format!("{}: {}", e.code(), e.message())),
                // The SDK's REST server raises inside its SSE response: the stream breaks off.
                Some(Err(CallError::Malformed(e)))
                    if rest && e.kind() == a2a_types::rt::client::ClientErrorKind::Interrupted =>
                {
                    Ok("the SDK's REST server broke the stream off (it raises inside it)".into())
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    let config = TaskPushNotificationConfig {
        task_id: Some(first.clone()),
        id: Some("any-push-1".into()),
        url: WEBHOOK_URL.into(),
        token: Some("any-token".into()),
        ..Default::default()
    };
    steps.step(
        "CreateTaskPushNotificationConfig (as tasks/pushNotificationConfig/set)",
        || {
            let got = rt
                .block_on(client.call::<method::CreateTaskPushNotificationConfig>(&config))
                .map_err(|e| format!("{e}"))?;
            ensure(
                got.url == WEBHOOK_URL && got.task_id == config.task_id,
                || format!("{got:?}"),
            )?;
            Ok(format!(
                "config {:?} for task {:?}, flat in 1.0",
                got.id, got.task_id
            ))
        },
    );

    steps.step("GetTaskPushNotificationConfig", || {
        let params = GetTaskPushNotificationConfigRequest {
            task_id: first.clone(),
            id: "any-push-1".into(),
            ..Default::default()
        };
        let got = rt
            .block_on(client.call::<method::GetTaskPushNotificationConfig>(&params))
            .map_err(|e| format!("{e}"))?;
        ensure(got.token.as_deref() == Some("any-token"), || {
            format!("{got:?}")
        })?;
        Ok(format!("config {:?}", got.id))
    });

    // a2a-sdk 0.3.26's REST server has no list (its handler raises NotImplementedError: 500)
    // and no delete route (405): over REST those steps check that the client says so.
    let unserved = |result: Result<String, String>, status: i64| match result {
        Err(e) if rest && e.contains(&format!("({status})")) => Ok(format!(
            "HTTP {status}, as a2a-sdk 0.3.26's REST server answers it: {e}"
        )),
        other => other,
    };
    let list = |want: usize| {
        let params = ListTaskPushNotificationConfigsRequest {
            task_id: first.clone(),
            ..Default::default()
        };
        let page = rt
            .block_on(client.call::<method::ListTaskPushNotificationConfigs>(&params))
            .map_err(|e| format!("{e}"))?;
        ensure(page.configs.len() == want, || format!("{page:?}"))?;
        Ok(format!("{} config(s), a 1.0 page", page.configs.len()))
    };
    steps.step("ListTaskPushNotificationConfigs", || unserved(list(1), 500));

    steps.step(
        "DeleteTaskPushNotificationConfig (0.3's null is 1.0's Empty)",
        || {
            let params = DeleteTaskPushNotificationConfigRequest {
                task_id: first.clone(),
                id: "any-push-1".into(),
                ..Default::default()
            };
            let deleted = rt
                .block_on(client.call::<method::DeleteTaskPushNotificationConfig>(&params))
                .map(|_| "deleted".to_owned())
                .map_err(|e| format!("{e}"));
            unserved(deleted, 405)
        },
    );
    steps.step("ListTaskPushNotificationConfigs after the delete", || {
        unserved(list(0), 500)
    });

    steps.step(
        "GetExtendedAgentCard (as agent/getAuthenticatedExtendedCard)",
        || {
            let card = rt
                .block_on(
                    client.call::<method::GetExtendedAgentCard>(
                        &GetExtendedAgentCardRequest::default(),
                    ),
                )
                .map_err(|e| format!("{e}"))?;
            let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
            ensure(skills.contains(&"extended_hello"), || {
                format!("skills {skills:?}")
            })?;
            let interface = card.supported_interfaces.first();
            ensure(
                interface.is_some_and(|i| i.protocol_version.starts_with("0.3")),
                || format!("interfaces {:?}", card.supported_interfaces),
            )?;
            Ok(format!(
                "{:?}, skills {skills:?}, its 0.3 interface in 1.0's list",
                card.name
            ))
        },
    );

    steps.finish("interop-client-any", "the a2a-sdk 0.3.26 agent");
}
