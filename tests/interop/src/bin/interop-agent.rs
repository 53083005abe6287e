//! `interop-agent PORT_FILE`: an A2A v1 agent on a2a-agent's request handler
//! (`a2a_agent::RequestHandler` over the [`AgentExecutor`] below, served as `A2aServer` by
//! a2a-runtime's server, `server::AgentRouter`), for a2a-sdk 1.3.0's own Python client to call
//! (tests/interop/py/client.py), over JSON-RPC, over the HTTP+JSON (REST) binding and over gRPC.
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: its card (JSON-RPC 1.0 at `/`, then HTTP+JSON 1.0 at
//!   `/`, then gRPC 1.0 at `127.0.0.1:PORT`; streaming, push notifications and an extended card
//!   on);
//! - gRPC: `lf.a2a.v1.A2AService` on the same port (HTTP/2), 1.0;
//! - `POST /`: JSON-RPC, A2A 1.0 and 0.3 (a request without `A2A-Version` is 0.3, served by the
//!   same handler through the generated conversions, `a2a_types::v0_3::Compat`, with 0.3's
//!   method names and shapes); every other path: REST, 1.0 (the server decodes both with the
//!   generated decoders, negotiates `A2A-Version` and frames the streams). The card carries
//!   0.3's members beside 1.0's, and a 0.3 twin of the JSON-RPC interface.
//!
//! What is the agent's own is what it does with a message ([`Greeter`]) and its card. Each
//! message makes a task that goes working, gets one artifact saying `Hello from Rust: <text>`,
//! and completes; streamed, one event every [`event_gap`] (20 ms). Through a tenant's route
//! (`/{tenant}/message:send`, or a JSON-RPC `tenant`) the task's metadata says
//! `{"tenant": ...}`. The text [`QUOTA_TRIGGER`] is refused before any task exists with the
//! agent's own error, [`InteropError::QuotaExceeded`] (code -32050; over REST HTTP 429 with its
//! ErrorInfo), from `#[derive(AgentError)]`.
//!
//! Everything else is the request handler's: task ids and history, the task store (in memory,
//! per tenant: a tenant's task is found through its routes only), `GetTask`, `ListTasks`
//! (filters, `historyLength`, artifacts only with `includeArtifacts`), `CancelTask`
//! (`TaskNotCancelable` for a finished task), `SubscribeToTask` (`UnsupportedOperation` for a
//! finished one), the streams, the push-notification configs (in memory; a URL on loopback over
//! plain HTTP is allowed, as the interop webhook is; every task here has finished before a
//! config is registered, so nothing is ever delivered) and the extended card (the card plus one
//! skill).
//!
//! Each call is logged to stderr, one line ([`logged`]), for run.sh to print when a step fails.

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::MemoryStore;
use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
use a2a_interop::serve::{event_gap, logged, serve};
use a2a_interop::{InteropError, PROTOCOL_VERSION, QUOTA_TRIGGER};
use a2a_types::rt::server::AgentRouter;
use a2a_types::rt::Binding;
use a2a_types::v0_3;
use a2a_types::v1::{
    A2aServer, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, ServiceError,
    StreamResponse, Task, TaskState, TaskStatus,
};
use std::sync::Arc;

/// What the agent does with a message; the request handler keeps the task's lifecycle.
struct Greeter;

impl AgentExecutor for Greeter {
    /// The quota trigger is refused before any task exists, unary or streaming (a stream never
    /// begins), with the agent's own error.
    async fn admit(&self, cx: &TaskContext) -> Result<(), ServiceError> {
        match cx.text() == QUOTA_TRIGGER {
            true => Err(ServiceError::custom(&InteropError::QuotaExceeded {
                retry_after_secs: 30,
            })),
            false => Ok(()),
        }
    }

    /// Working, the greeting as an artifact, completed. A streamed call gets them one
    /// [`event_gap`] apart (the handler sends the task, submitted, with the first).
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let streamed = cx.call.method == "SendStreamingMessage";
        let pause = || async move {
            if streamed && !event_gap().is_zero() {
                tokio::time::sleep(event_gap()).await;
            }
        };
        match &cx.call.tenant {
            // A status update cannot set the task's metadata: the whole task, working, does.
            Some(tenant) => {
                let metadata =
                    serde_json::Map::from_iter([("tenant".into(), tenant.clone().into())]);
                task.send(StreamResponse::Task(Task {
                    id: cx.task_id.clone(),
                    context_id: Some(cx.context_id.clone()),
                    status: TaskStatus {
                        state: TaskState::Working,
                        ..Default::default()
                    },
                    metadata: Some(metadata),
                    ..Default::default()
                }))
                .await?
            }
            None => task.start_work(None).await?,
        }
        pause().await;
        let greeting = format!("Hello from Rust: {}", cx.text());
        task.add_text_artifact("greeting", &greeting).await?;
        pause().await;
        task.complete(None).await
    }
}

/// The public card, or the extended one (`GetExtendedAgentCard`), which has one more skill.
fn card(port: u16, extended: bool) -> AgentCard {
    let mut skills = vec![AgentSkill {
        id: "greet".to_string(),
        name: "Greets".to_string(),
        description: "answers a message with a greeting that repeats it".to_string(),
        tags: vec!["greeting".to_string()],
        ..Default::default()
    }];
    if extended {
        skills.push(AgentSkill {
            id: "greet_by_name".to_string(),
            name: "Greets by name".to_string(),
            description: "the skill only the extended card lists".to_string(),
            tags: vec!["greeting".to_string()],
            ..Default::default()
        });
    }
    AgentCard {
        name: if extended {
            "Rust Interop Agent (extended)".to_string()
        } else {
            "Rust Interop Agent".to_string()
        },
        description: "An a2a-types agent that greets whoever calls it".to_string(),
        // JSON-RPC first, the agent's preferred interface; the REST routes at the same base;
        // gRPC on the same port, its URL the target a gRPC client dials (`host:port`).
        supported_interfaces: [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
            .into_iter()
            .map(|binding| AgentInterface {
                url: match binding {
                    Binding::Grpc => format!("127.0.0.1:{port}"),
                    _ => format!("http://127.0.0.1:{port}/"),
                },
                protocol_binding: binding.name().to_string(),
                protocol_version: PROTOCOL_VERSION.to_string(),
                tenant: None,
            })
            .collect(),
        version: "0.1.0".to_string(),
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            extended_agent_card: Some(true),
            ..Default::default()
        },
        default_input_modes: vec!["text/plain".to_string()],
        default_output_modes: vec!["text/plain".to_string()],
        skills,
        ..Default::default()
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port_file] = args.as_slice() else {
        eprintln!("usage: interop-agent PORT_FILE");
        std::process::exit(2);
    };
    serve("interop-agent", port_file, |port| {
        // The interop webhook is on loopback over plain HTTP, which the default policy refuses.
        let policy = PushUrlPolicy {
            allow_loopback: true,
            allow_http: true,
            ..Default::default()
        };
        let sender = PushSender::new(policy).expect("the push sender builds");
        let handler = RequestHandler::builder(Greeter)
            .push_notifications(Arc::new(MemoryStore::new()), PushDispatcher::new(sender))
            .extended_card(card(port, true))
            .build();
        // Both versions from the one handler, as `handler.router(&card)` serves them, each
        // call logged: 1.0 as itself, 0.3 through the generated conversions.
        let v0_3 = v0_3::A2aServer::new(v0_3::Compat(Arc::new(handler.clone())));
        Ok(AgentRouter::new(&card(port, false))?
            .service(logged("interop-agent", A2aServer::new(handler)))
            .service(logged("interop-agent", v0_3)))
    })
    .await;
}
