//! `interop-client-rest URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) over
//! the HTTP+JSON (REST) binding of A2A v1, through every method, its error replies, a live stream
//! and a tenant's routes, with `a2a_runtime::client::Client` on
//! `a2a_types::v1::Protocol`, asked for HTTP+JSON: the client takes the card's REST interface,
//! encodes every call on its route and decodes every reply and stream with `a2a_types::v1`,
//! each with `A2A-Version: 1.0`. Two steps send a raw request on purpose, one without
//! `A2A-Version` and one on a route no method has, and decode the reply with
//! `Decoder::decode_http`.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{context, fallback_client, raw, runtime, TIMEOUT};
use a2a_interop::{ensure, text_of, user_text, Steps, WEBHOOK_URL};
use a2a_types::rt::client::Client;
use a2a_types::rt::rest::RestMethod;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    encode_call, method, A2aError, AgentCard, CallError, CancelTaskRequest, Decoder,
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Protocol, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use a2a_types::version::ProtocolVersion;
use serde::Serialize;

/// The tenant of the tenant steps (the SDK's REST server mounts every route under `/{tenant}`).
const TENANT: &str = "acme";

/// The text that makes the SDK agent fail after its stream has started (py/agent.py).
const FAIL_TRIGGER: &str = "fail while working";

/// `VERB /path` of the request the client sends for `params` of method `M` (the same
/// `encode_call` the client calls), for what a step saw.
fn route<M>(params: &M::Params) -> String
where
    M: RestMethod,
    M::Params: Serialize,
{
    match encode_call::<M>(Binding::HttpJson, &a2a_types::rt::RequestId::Null, params) {
        Ok(request) => format!("{} {}", request.verb, request.path),
        Err(e) => format!("{}: {e}", M::NAME),
    }
}

/// A typed error as a step reports it: variant, code, message, and the ErrorInfo's reason.
fn describe(error: &A2aError) -> String {
    let reason = error
        .details()
        .iter()
        .find_map(|d| d.reason().map(str::to_owned))
        .unwrap_or_else(|| "no ErrorInfo".to_string());
    format!(
        "A2aError::{} ({}: {:?}, reason {reason})",
        error.name(),
        error.code(),
        error.message()
    )
}

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

/// The tenant the SDK handed to the agent, which py/agent.py writes in the artifact's metadata.
fn tenant_seen(task: &Task) -> Option<String> {
    let metadata = task.artifacts.first()?.metadata.as_ref()?;
    metadata.get("tenant")?.as_str().map(str::to_owned)
}

fn send(message: Message, tenant: Option<&str>) -> SendMessageRequest {
    SendMessageRequest {
        message,
        tenant: tenant.map(str::to_owned),
        ..Default::default()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base] = args.as_slice() else {
        eprintln!("usage: interop-client-rest URL   (the a2a-sdk agent's base URL)");
        std::process::exit(2);
    };
    let base = base.trim_end_matches('/');
    let rt = runtime();
    let mut steps = Steps::default();

    let mut connected = None;
    steps.step("agent card: the HTTP+JSON 1.0 interface", || {
        let client = rt
            .block_on(
                Client::<Protocol>::builder()
                    .bindings([Binding::HttpJson])
                    .request_timeout(TIMEOUT)
                    .connect(base),
            )
            .map_err(|e| format!("no client on the card: {e}"))?;
        let card: AgentCard = serde_json::from_value(client.card().clone())
            .map_err(|e| format!("not a v1 AgentCard: {e}"))?;
        let interface = client.interface().clone();
        ensure(
            interface.binding == Binding::HttpJson && interface.version == ProtocolVersion::V1_0,
            || format!("the client took {interface:?}, expected HTTP+JSON 1.0"),
        )?;
        ensure(card.capabilities.streaming == Some(true), || {
            "the card does not declare streaming".to_string()
        })?;
        // The card lists JSON-RPC first; a REST client takes the REST interface all the same.
        let first = card
            .supported_interfaces
            .first()
            .map(|i| &i.protocol_binding);
        connected = Some(client);
        Ok(format!(
            "{:?}: HTTP+JSON {} at {} (the card's first interface: {first:?}), {} interface(s)",
            card.name,
            interface.version,
            interface.url,
            card.supported_interfaces.len()
        ))
    });
    let client =
        connected.unwrap_or_else(|| fallback_client(&format!("{base}/"), Binding::HttpJson));
    let endpoint = client.interface().url.trim_end_matches('/').to_owned();

    let mut first_task = String::new();
    steps.step("SendMessage (POST /message:send)", || {
        let params = send(user_text("rest-msg-1", "hi over REST"), None);
        match rt.block_on(client.call::<method::SendMessage>(&params)) {
            Ok(SendMessageResponse::Task(task)) => {
                completed_hello(&task)?;
                ensure(
                    task.history.iter().any(|m| m.message_id == "rest-msg-1"),
                    || "the task's history lacks our message".to_string(),
                )?;
                ensure(tenant_seen(&task).is_none(), || {
                    format!("a tenant {:?} without one", tenant_seen(&task))
                })?;
                first_task = task.id.clone();
                Ok(format!(
                    "{}: task {} completed, artifact \"Hello World\"",
                    route::<method::SendMessage>(&params),
                    task.id
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTask with historyLength=1 (GET /tasks/{id}?...)", || {
        let params = GetTaskRequest {
            id: first_task.clone(),
            history_length: Some(1),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Ok(task) if task.id == first_task => {
                completed_hello(&task)?;
                ensure(task.history.len() <= 1, || {
                    format!("{} history messages, asked for 1", task.history.len())
                })?;
                Ok(format!(
                    "{}: task {}, {} history message(s)",
                    route::<method::GetTask>(&params),
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
                "{}: {}",
                route::<method::GetTask>(&params),
                describe(&error)
            )),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTask with historyLength=-1 is InvalidParams", || {
        let params = GetTaskRequest {
            id: first_task.clone(),
            history_length: Some(-1),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTask>(&params)) {
            Err(CallError::Agent(error @ A2aError::InvalidParams { .. })) => Ok(format!(
                "{}: {}",
                route::<method::GetTask>(&params),
                describe(&error)
            )),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "SendMessage of an empty message is InvalidParams with a BadRequest",
        || {
            let params = send(Message::default(), None);
            match rt.block_on(client.call::<method::SendMessage>(&params)) {
                Err(CallError::Agent(error @ A2aError::InvalidParams { .. })) => {
                    let details = error.details();
                    let fields: Vec<&str> = details
                        .iter()
                        .filter(|d| d.type_url().ends_with("google.rpc.BadRequest"))
                        .filter_map(|d| d.get("fieldViolations")?.as_array())
                        .flatten()
                        .filter_map(|v| v.get("field")?.as_str())
                        .collect();
                    ensure(fields.contains(&"message.message_id"), || {
                        format!("BadRequest fields {fields:?}, expected message.message_id")
                    })?;
                    Ok(format!(
                        "{}: {}, BadRequest on {fields:?}",
                        route::<method::SendMessage>(&params),
                        describe(&error)
                    ))
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    steps.step(
        "CancelTask of a completed task is TaskNotCancelable",
        || {
            let params = CancelTaskRequest {
                id: first_task.clone(),
                ..Default::default()
            };
            match rt.block_on(client.call::<method::CancelTask>(&params)) {
                Err(CallError::Agent(error @ A2aError::TaskNotCancelable { .. })) => Ok(format!(
                    "{}: {}",
                    route::<method::CancelTask>(&params),
                    describe(&error)
                )),
                other => Err(format!("{other:?}")),
            }
        },
    );

    steps.step("a call without A2A-Version is VersionNotSupported", || {
        // Raw on purpose: `Client` always sends its module's version, and the point is the
        // SDK's answer to none (it reads a missing header as 0.3, which its v1 routes refuse).
        let url = format!("{endpoint}/tasks/{first_task}");
        let reply = rt.block_on(raw("GET", &url, None))?;
        match Decoder::new()
            .binding(Binding::HttpJson)
            .decode_http::<Task>(&reply.http())
        {
            Err(CallError::Agent(error @ A2aError::VersionNotSupported { .. })) => Ok(format!(
                "GET {url} -> {}: {}",
                reply.status,
                describe(&error)
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "a route the SDK does not serve: malformed, its HTTP status kept",
        || {
            // Raw on purpose: no method has this route, so `Client` cannot send it. Starlette
            // answers a plain-text 404.
            let url = format!("{endpoint}/tasks/{first_task}");
            let reply = rt.block_on(raw("DELETE", &url, Some(ProtocolVersion::V1_0)))?;
            match Decoder::new()
                .binding(Binding::HttpJson)
                .decode_http::<Task>(&reply.http())
            {
                Err(CallError::Malformed(e)) if e.http_status() == Some(404) => Ok(format!(
                    "DELETE {url} -> {}: ClientError {:?}",
                    reply.status,
                    e.reason()
                )),
                other => Err(context(other, &reply)),
            }
        },
    );

    let mut streamed_task = String::new();
    steps.step(
        "SendStreamingMessage (POST /message:stream), decoded as it arrives",
        || {
            let params = send(user_text("rest-msg-2", "stream over REST"), None);
            let (events, saw) = stream::<method::SendStreamingMessage>(&rt, &client, &params);
            let events = events
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{e:?}"))?;
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
            Ok(format!("{saw}: {}", kinds.join(", ")))
        },
    );

    steps.step(
        "a stream that fails after it started ends with an `error` event: Internal",
        || {
            let params = send(user_text("rest-msg-3", FAIL_TRIGGER), None);
            let (events, saw) = stream::<method::SendStreamingMessage>(&rt, &client, &params);
            let kinds: Vec<String> = events
                .iter()
                .map(|e| match e {
                    Ok(event) => kind(event),
                    Err(CallError::Agent(error)) => describe(error),
                    Err(other) => format!("{other:?}"),
                })
                .collect();
            match events.as_slice() {
                [Ok(StreamResponse::Task(_)), Ok(StreamResponse::StatusUpdate(_)), Err(CallError::Agent(A2aError::Internal { .. }))] => {
                    Ok(format!("{saw}: {}", kinds.join(", ")))
                }
                _ => Err(format!(
                    "events {kinds:?}, expected a task, a status and an Internal error"
                )),
            }
        },
    );

    steps.step(
        "SubscribeToTask of a completed task: one JSON error, UnsupportedOperation",
        || {
            let params = SubscribeToTaskRequest {
                id: streamed_task.clone(),
                ..Default::default()
            };
            // Refused before the stream started: a plain error reply, the stream's one item.
            let (events, saw) = stream::<method::SubscribeToTask>(&rt, &client, &params);
            match events.as_slice() {
                [Err(CallError::Agent(error @ A2aError::UnsupportedOperation { .. }))] => {
                    Ok(format!("{saw}: {}", describe(error)))
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    steps.step("ListTasks with query parameters (GET /tasks?...)", || {
        // An enum, a boolean and a number in the query: the failed task is left out by status.
        let params = ListTasksRequest {
            status: Some(TaskState::Completed),
            include_artifacts: Some(true),
            page_size: Some(50),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::ListTasks>(&params)) {
            Ok(list) => {
                let ids: Vec<&str> = list.tasks.iter().map(|t| t.id.as_str()).collect();
                ensure(
                    ids.contains(&first_task.as_str()) && ids.contains(&streamed_task.as_str()),
                    || format!("tasks {ids:?}, expected {first_task} and {streamed_task}"),
                )?;
                for task in &list.tasks {
                    ensure(task.status.state == TaskState::Completed, || {
                        format!("task {} is {:?}", task.id, task.status.state)
                    })?;
                    completed_hello(task)?;
                }
                Ok(format!(
                    "{}: {} completed task(s) with their artifacts",
                    route::<method::ListTasks>(&params),
                    list.tasks.len()
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let push = TaskPushNotificationConfig {
        id: Some("rest-push-1".to_string()),
        task_id: Some(first_task.clone()),
        url: WEBHOOK_URL.to_string(),
        token: Some("rest-token".to_string()),
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
                Ok(format!(
                    "{}: config {:?} stored",
                    route::<method::CreateTaskPushNotificationConfig>(&push),
                    config.id
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    steps.step("GetTaskPushNotificationConfig", || {
        let params = GetTaskPushNotificationConfigRequest {
            task_id: first_task.clone(),
            id: "rest-push-1".to_string(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::GetTaskPushNotificationConfig>(&params)) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "{}: config {:?}",
                    route::<method::GetTaskPushNotificationConfig>(&params),
                    config.id
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let list_pushes = || {
        let params = ListTaskPushNotificationConfigsRequest {
            task_id: first_task.clone(),
            page_size: Some(10),
            ..Default::default()
        };
        rt.block_on(client.call::<method::ListTaskPushNotificationConfigs>(&params))
            .map(|list| {
                (
                    route::<method::ListTaskPushNotificationConfigs>(&params),
                    list,
                )
            })
            .map_err(|e| format!("{e:?}"))
    };

    steps.step("ListTaskPushNotificationConfigs", || {
        let (saw, list) = list_pushes()?;
        ensure(list.configs.len() == 1, || {
            format!("configs {:?}, expected the one stored", list.configs)
        })?;
        same_push(&list.configs[0])?;
        Ok(format!("{saw}: 1 config, {:?}", list.configs[0].id))
    });

    steps.step("DeleteTaskPushNotificationConfig", || {
        let params = DeleteTaskPushNotificationConfigRequest {
            task_id: first_task.clone(),
            id: "rest-push-1".to_string(),
            ..Default::default()
        };
        match rt.block_on(client.call::<method::DeleteTaskPushNotificationConfig>(&params)) {
            Ok(empty) => Ok(format!(
                "{}: deleted; result {empty:?}",
                route::<method::DeleteTaskPushNotificationConfig>(&params)
            )),
            other => Err(format!("{other:?}")),
        }
    });

    steps.step(
        "ListTaskPushNotificationConfigs after the delete: none left",
        || {
            let (saw, list) = list_pushes()?;
            ensure(list.configs.is_empty(), || {
                format!("configs {:?}, expected none", list.configs)
            })?;
            Ok(format!("{saw}: 0 configs"))
        },
    );

    steps.step("GetExtendedAgentCard (GET /extendedAgentCard)", || {
        let params = GetExtendedAgentCardRequest::default();
        match rt.block_on(client.call::<method::GetExtendedAgentCard>(&params)) {
            Ok(card) => {
                let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
                ensure(skills.contains(&"extended_hello"), || {
                    format!("skills {skills:?}, expected the extended card's extended_hello")
                })?;
                Ok(format!(
                    "{}: {:?} with skills {skills:?}",
                    route::<method::GetExtendedAgentCard>(&params),
                    card.name
                ))
            }
            other => Err(format!("{other:?}")),
        }
    });

    let mut tenant_task = String::new();
    steps.step(
        "SendMessage under a tenant (POST /{tenant}/message:send)",
        || {
            let params = send(user_text("rest-msg-4", "hi from a tenant"), Some(TENANT));
            let saw = route::<method::SendMessage>(&params);
            ensure(saw == format!("POST /{TENANT}/message:send"), || {
                format!("route {saw}")
            })?;
            match rt.block_on(client.call::<method::SendMessage>(&params)) {
                Ok(SendMessageResponse::Task(task)) => {
                    completed_hello(&task)?;
                    let seen = tenant_seen(&task);
                    ensure(seen.as_deref() == Some(TENANT), || {
                        format!("the agent saw tenant {seen:?}, expected {TENANT:?}")
                    })?;
                    tenant_task = task.id.clone();
                    Ok(format!(
                        "{saw}: task {}, the agent was handed tenant {TENANT:?}",
                        task.id
                    ))
                }
                other => Err(format!("{other:?}")),
            }
        },
    );

    steps.step("GetTask under a tenant, and without it", || {
        let get = |tenant: Option<&str>| {
            let params = GetTaskRequest {
                id: tenant_task.clone(),
                tenant: tenant.map(str::to_owned),
                ..Default::default()
            };
            match rt.block_on(client.call::<method::GetTask>(&params)) {
                Ok(task) if task.id == tenant_task => Ok(route::<method::GetTask>(&params)),
                other => Err(format!("{other:?}")),
            }
        };
        let with = get(Some(TENANT))?;
        // The SDK's in-memory store does not partition tasks by tenant.
        let without = get(None)?;
        Ok(format!(
            "{with}; {without}: the same task (tenants share the SDK's store)"
        ))
    });

    steps.finish("interop-client-rest", "the a2a-sdk REST agent");
}

/// Calls streaming method `M` and collects its items, each decoded as it arrived; gives them and
/// a word on the exchange.
#[allow(clippy::type_complexity)]
fn stream<M>(
    rt: &tokio::runtime::Runtime,
    client: &Client<Protocol>,
    params: &M::Params,
) -> (Vec<Result<StreamResponse, CallError>>, String)
where
    M: RestMethod<Result = StreamResponse>,
    M::Params: Serialize + Clone,
{
    let items = rt.block_on(async {
        let mut stream = client.stream::<M>(params);
        let mut items = Vec::new();
        while let Some(item) = stream.next().await {
            items.push(item);
        }
        items
    });
    let saw = format!("{}: {} item(s)", route::<M>(params), items.len());
    (items, saw)
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
