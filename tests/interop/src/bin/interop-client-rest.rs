//! `interop-client-rest URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) over
//! the HTTP+JSON (REST) binding of A2A v1, through every method, its error replies, a live stream
//! and a tenant's routes. The interface comes from the agent card (`pick_interface`); every call
//! is encoded with `a2a_types::v1::encode_rest_request` and every reply decoded with
//! `decode_rest_reply` (`RestStreamDecoder` for streams); every call carries `A2A-Version: 1.0`
//! but one, which checks the SDK's refusal of a call without it.
//!
//! Prints one line per step; exits 1 when a step failed, 2 on bad arguments.

use a2a_interop::http::{
    content_type, context, read_chunks, read_whole, Client, Reply, STREAM_READ,
};
use a2a_interop::{ensure, text_of, user_text, Steps, WEBHOOK_URL};
use a2a_types::rt::rest::HttpRequest;
use a2a_types::v1::{
    decode_rest_reply, encode_rest_request, method, A2aError, AgentCard, CallError,
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, RestStreamDecoder, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use a2a_types::version::{binding, pick_interface, ProtocolVersion};
use serde::Serialize;
use serde_json::Value;

/// The tenant of the tenant steps (the SDK's REST server mounts every route under `/{tenant}`).
const TENANT: &str = "acme";

/// The text that makes the SDK agent fail after its stream has started (py/agent.py).
const FAIL_TRIGGER: &str = "fail while working";

/// Encodes `params` for method `M` (`encode_rest_request`) and sends it; the reply read whole.
fn call<M>(client: &Client, params: &M::Params) -> Result<(HttpRequest, Reply), String>
where
    M: a2a_types::rt::rest::RestMethod,
    M::Params: Serialize,
{
    let request = encode_rest_request::<M>(params).map_err(|e| format!("{}: {e}", M::NAME))?;
    let reply = client.rest(&request)?;
    Ok((request, reply))
}

/// `VERB /path -> HTTP status`, for what a step saw.
fn route(request: &HttpRequest, reply: &Reply) -> String {
    format!("{} {} -> {}", request.verb, request.path, reply.status)
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
    let mut client = Client::new(Some(ProtocolVersion::V1_0));
    let mut steps = Steps::default();

    steps.step("agent card: the HTTP+JSON 1.0 interface", || {
        let reply = client.get(&format!("{base}/.well-known/agent-card.json"))?;
        let json: Value = serde_json::from_slice(&reply.body)
            .map_err(|e| context(format!("not JSON: {e}"), &reply))?;
        let card: AgentCard = serde_json::from_value(json.clone())
            .map_err(|e| context(format!("not a v1 AgentCard: {e}"), &reply))?;
        let interface = pick_interface(&json, &[binding::HTTP_JSON])
            .ok_or("the card offers no HTTP+JSON interface in a version a2a-types speaks")?;
        ensure(interface.version == ProtocolVersion::V1_0, || {
            format!("HTTP+JSON in {}, expected 1.0", interface.version)
        })?;
        ensure(card.capabilities.streaming == Some(true), || {
            "the card does not declare streaming".to_string()
        })?;
        // The card lists JSON-RPC first; a REST client takes the REST interface all the same.
        let first = card
            .supported_interfaces
            .first()
            .map(|i| &i.protocol_binding);
        client.endpoint = interface.url.clone();
        Ok(format!(
            "{:?}: HTTP+JSON {} at {} (the card's first interface: {first:?}), {} interface(s)",
            card.name,
            interface.version,
            interface.url,
            card.supported_interfaces.len()
        ))
    });

    let mut first_task = String::new();
    steps.step("SendMessage (POST /message:send)", || {
        let params = send(user_text("rest-msg-1", "hi over REST"), None);
        let (request, reply) = call::<method::SendMessage>(&client, &params)?;
        match decode_rest_reply::<method::SendMessage>(&reply.http()) {
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
                    route(&request, &reply),
                    task.id
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask with historyLength=1 (GET /tasks/{id}?...)", || {
        let params = GetTaskRequest {
            id: first_task.clone(),
            history_length: Some(1),
            ..Default::default()
        };
        let (request, reply) = call::<method::GetTask>(&client, &params)?;
        match decode_rest_reply::<method::GetTask>(&reply.http()) {
            Ok(task) if task.id == first_task => {
                completed_hello(&task)?;
                ensure(task.history.len() <= 1, || {
                    format!("{} history messages, asked for 1", task.history.len())
                })?;
                Ok(format!(
                    "{}: task {}, {} history message(s)",
                    route(&request, &reply),
                    task.id,
                    task.history.len()
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask of an unknown id is TaskNotFound", || {
        let params = GetTaskRequest {
            id: "no-such-task".to_string(),
            ..Default::default()
        };
        let (request, reply) = call::<method::GetTask>(&client, &params)?;
        match decode_rest_reply::<method::GetTask>(&reply.http()) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => {
                ensure(reply.status == 404, || format!("HTTP {}", reply.status))?;
                Ok(format!("{}: {}", route(&request, &reply), describe(&error)))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask with historyLength=-1 is InvalidParams", || {
        let params = GetTaskRequest {
            id: first_task.clone(),
            history_length: Some(-1),
            ..Default::default()
        };
        let (request, reply) = call::<method::GetTask>(&client, &params)?;
        match decode_rest_reply::<method::GetTask>(&reply.http()) {
            Err(CallError::Agent(error @ A2aError::InvalidParams { .. })) => {
                Ok(format!("{}: {}", route(&request, &reply), describe(&error)))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "SendMessage of an empty message is InvalidParams with a BadRequest",
        || {
            let params = send(Message::default(), None);
            let (request, reply) = call::<method::SendMessage>(&client, &params)?;
            match decode_rest_reply::<method::SendMessage>(&reply.http()) {
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
                        route(&request, &reply),
                        describe(&error)
                    ))
                }
                other => Err(context(other, &reply)),
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
            let (request, reply) = call::<method::CancelTask>(&client, &params)?;
            match decode_rest_reply::<method::CancelTask>(&reply.http()) {
                Err(CallError::Agent(error @ A2aError::TaskNotCancelable { .. })) => {
                    Ok(format!("{}: {}", route(&request, &reply), describe(&error)))
                }
                other => Err(context(other, &reply)),
            }
        },
    );

    steps.step("a call without A2A-Version is VersionNotSupported", || {
        // The SDK reads a missing header as 0.3, which its v1 routes refuse.
        let mut unversioned = Client::new(None);
        unversioned.endpoint = client.endpoint.clone();
        let params = GetTaskRequest {
            id: first_task.clone(),
            ..Default::default()
        };
        let (request, reply) = call::<method::GetTask>(&unversioned, &params)?;
        match decode_rest_reply::<method::GetTask>(&reply.http()) {
            Err(CallError::Agent(error @ A2aError::VersionNotSupported { .. })) => {
                Ok(format!("{}: {}", route(&request, &reply), describe(&error)))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "a route the SDK does not serve: malformed, its HTTP status kept",
        || {
            // Written by hand: no method has this route. Starlette answers a plain-text 404.
            let request = HttpRequest {
                verb: "DELETE",
                path: format!("/tasks/{first_task}"),
                body: None,
            };
            let reply = client.rest(&request)?;
            match decode_rest_reply::<method::GetTask>(&reply.http()) {
                Err(CallError::Malformed(e)) if e.http_status() == Some(404) => Ok(format!(
                    "{}: ClientError {:?}",
                    route(&request, &reply),
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
            let (events, saw) = stream::<method::SendStreamingMessage>(&client, &params)?;
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
            let (events, saw) = stream::<method::SendStreamingMessage>(&client, &params)?;
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
            let request = encode_rest_request::<method::SubscribeToTask>(&params)
                .map_err(|e| e.to_string())?;
            let reply = read_whole(client.send_rest(&request, "text/event-stream")?)?;
            // Refused before the stream started: a plain error reply, not SSE.
            match decode_rest_reply::<method::SubscribeToTask>(&reply.http()) {
                Err(CallError::Agent(error @ A2aError::UnsupportedOperation { .. })) => {
                    Ok(format!(
                        "{} ({}): {}",
                        route(&request, &reply),
                        reply.content_type,
                        describe(&error)
                    ))
                }
                other => Err(context(other, &reply)),
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
        let (request, reply) = call::<method::ListTasks>(&client, &params)?;
        match decode_rest_reply::<method::ListTasks>(&reply.http()) {
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
                    route(&request, &reply),
                    list.tasks.len()
                ))
            }
            other => Err(context(other, &reply)),
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
        let (request, reply) = call::<method::CreateTaskPushNotificationConfig>(&client, &push)?;
        match decode_rest_reply::<method::CreateTaskPushNotificationConfig>(&reply.http()) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "{}: config {:?} stored",
                    route(&request, &reply),
                    config.id
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTaskPushNotificationConfig", || {
        let params = GetTaskPushNotificationConfigRequest {
            task_id: first_task.clone(),
            id: "rest-push-1".to_string(),
            ..Default::default()
        };
        let (request, reply) = call::<method::GetTaskPushNotificationConfig>(&client, &params)?;
        match decode_rest_reply::<method::GetTaskPushNotificationConfig>(&reply.http()) {
            Ok(config) => {
                same_push(&config)?;
                Ok(format!(
                    "{}: config {:?}",
                    route(&request, &reply),
                    config.id
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    let list_pushes = |client: &Client| {
        let params = ListTaskPushNotificationConfigsRequest {
            task_id: first_task.clone(),
            page_size: Some(10),
            ..Default::default()
        };
        let (request, reply) = call::<method::ListTaskPushNotificationConfigs>(client, &params)?;
        decode_rest_reply::<method::ListTaskPushNotificationConfigs>(&reply.http())
            .map(|list| (route(&request, &reply), list))
            .map_err(|e| context(e, &reply))
    };

    steps.step("ListTaskPushNotificationConfigs", || {
        let (saw, list) = list_pushes(&client)?;
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
        let (request, reply) = call::<method::DeleteTaskPushNotificationConfig>(&client, &params)?;
        match decode_rest_reply::<method::DeleteTaskPushNotificationConfig>(&reply.http()) {
            Ok(empty) => Ok(format!(
                "{}: deleted; result {empty:?} from body {}",
                route(&request, &reply),
                String::from_utf8_lossy(&reply.body)
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "ListTaskPushNotificationConfigs after the delete: none left",
        || {
            let (saw, list) = list_pushes(&client)?;
            ensure(list.configs.is_empty(), || {
                format!("configs {:?}, expected none", list.configs)
            })?;
            Ok(format!("{saw}: 0 configs"))
        },
    );

    steps.step("GetExtendedAgentCard (GET /extendedAgentCard)", || {
        let (request, reply) =
            call::<method::GetExtendedAgentCard>(&client, &GetExtendedAgentCardRequest::default())?;
        match decode_rest_reply::<method::GetExtendedAgentCard>(&reply.http()) {
            Ok(card) => {
                let skills: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
                ensure(skills.contains(&"extended_hello"), || {
                    format!("skills {skills:?}, expected the extended card's extended_hello")
                })?;
                Ok(format!(
                    "{}: {:?} with skills {skills:?}",
                    route(&request, &reply),
                    card.name
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    let mut tenant_task = String::new();
    steps.step(
        "SendMessage under a tenant (POST /{tenant}/message:send)",
        || {
            let params = send(user_text("rest-msg-4", "hi from a tenant"), Some(TENANT));
            let (request, reply) = call::<method::SendMessage>(&client, &params)?;
            ensure(request.path == format!("/{TENANT}/message:send"), || {
                format!("path {}", request.path)
            })?;
            match decode_rest_reply::<method::SendMessage>(&reply.http()) {
                Ok(SendMessageResponse::Task(task)) => {
                    completed_hello(&task)?;
                    let seen = tenant_seen(&task);
                    ensure(seen.as_deref() == Some(TENANT), || {
                        format!("the agent saw tenant {seen:?}, expected {TENANT:?}")
                    })?;
                    tenant_task = task.id.clone();
                    Ok(format!(
                        "{}: task {}, the agent was handed tenant {TENANT:?}",
                        route(&request, &reply),
                        task.id
                    ))
                }
                other => Err(context(other, &reply)),
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
            let (request, reply) = call::<method::GetTask>(&client, &params)?;
            match decode_rest_reply::<method::GetTask>(&reply.http()) {
                Ok(task) if task.id == tenant_task => Ok(route(&request, &reply)),
                other => Err(context(other, &reply)),
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

/// Sends a streaming call and decodes its SSE body as it arrives, [`STREAM_READ`] bytes at a
/// time, with `RestStreamDecoder`; gives every item and a word on the exchange.
#[allow(clippy::type_complexity)]
fn stream<M>(
    client: &Client,
    params: &M::Params,
) -> Result<(Vec<Result<StreamResponse, CallError>>, String), String>
where
    M: a2a_types::rt::rest::RestMethod,
    M::Params: Serialize,
{
    let request = encode_rest_request::<M>(params).map_err(|e| e.to_string())?;
    let response = client.send_rest(&request, "text/event-stream")?;
    let status = response.status().as_u16();
    let content_type = content_type(&response);
    ensure(content_type.starts_with("text/event-stream"), || {
        format!("HTTP {status}, content type {content_type:?}, expected text/event-stream")
    })?;
    let mut decoder = RestStreamDecoder::<StreamResponse>::new();
    let mut items = Vec::new();
    let reads = read_chunks(response, |chunk| {
        items.extend(decoder.feed(chunk));
        Ok(())
    })?;
    decoder.finish().map_err(|e| format!("{e:?}"))?;
    let saw = format!(
        "{} {} -> {status}, {} event(s) over {reads} reads of at most {STREAM_READ} bytes",
        request.verb,
        request.path,
        items.len()
    );
    Ok((items, saw))
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
