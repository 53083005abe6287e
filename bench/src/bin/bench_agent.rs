//! `bench_agent [--canned] PORT_FILE`: the Rust agents of `bench/serve-bench.sh`, as a user runs
//! one: tokio's multi-threaded runtime (a worker per core), a2a-runtime's server, no per-call
//! logging. Binds 127.0.0.1 on a free port, writes the port to PORT_FILE, serves until killed.
//!
//! - Without `--canned`, **the agent**: a2a-agent's `RequestHandler` (memory store) over an
//!   executor that does what the interop agent's does: each message makes a task that goes
//!   working, gets one artifact (`Hello from Rust: <text>`) and completes; streamed, four events
//!   (the task, working, the artifact, completed).
//! - With `--canned`, **the server's floor**: the same server and card, and a service that answers
//!   every `SendMessage` with one completed task and every `SendStreamingMessage` with its four
//!   events, made once at start-up by running the agent above on one message: the same bytes
//!   (but for the ids and the message's own text), with no task kept, no executor, no store.
//!
//! The agent against the floor, measured in one run, is what the request handler costs a call.

use a2a_agent::RequestHandler;
use a2a_bench::agent::Greeter;
use a2a_types::rt::server::{serve, AgentRouter};
use a2a_types::rt::service::{self, RequestContext};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    A2aServer, A2aService, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, EventStream,
    Message, Role, SendMessageRequest, SendMessageResponse, ServiceError, StreamResponse,
};
use futures_util::StreamExt as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: bench_agent [--canned] PORT_FILE";

/// The floor: the agent's answers, made once, given to every call.
struct Canned {
    reply: SendMessageResponse,
    events: Arc<[StreamResponse]>,
}

impl A2aService for Canned {
    async fn send_message(
        &self,
        _cx: RequestContext,
        _params: SendMessageRequest,
    ) -> Result<SendMessageResponse, ServiceError> {
        Ok(self.reply.clone())
    }

    async fn send_streaming_message(
        &self,
        _cx: RequestContext,
        _params: SendMessageRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let events = Arc::clone(&self.events);
        Ok(service::events(
            (0..events.len()).map(move |i| Ok(events[i].clone())),
        ))
    }
}

impl Canned {
    /// The agent's answers to one message, blocking and streamed.
    async fn record() -> Result<Canned, String> {
        let agent = RequestHandler::builder(Greeter).build();
        let cx = |method| RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, method);
        let reply = agent
            .send_message(cx("SendMessage"), message())
            .await
            .map_err(|e| format!("the agent failed its first message: {e}"))?;
        let stream = agent
            .send_streaming_message(cx("SendStreamingMessage"), message())
            .await
            .map_err(|e| format!("the agent failed its first stream: {e}"))?;
        let events = stream
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("the agent's first stream broke: {e}"))?;
        Ok(Canned {
            reply,
            events: events.into(),
        })
    }
}

/// A message like the ones `serve_load` sends.
fn message() -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: "bench-agent-start".into(),
            role: Role::User,
            parts: vec![a2a_agent::text_part("hello from serve_load")],
            ..Default::default()
        },
        ..Default::default()
    }
}

fn card(port: u16) -> AgentCard {
    AgentCard {
        name: "Rust bench agent".into(),
        description: "The agent serve-bench.sh measures".into(),
        // gRPC on the same port (the target `host:port`), for bench/grpc-bench.sh.
        supported_interfaces: [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
            .into_iter()
            .map(|binding| AgentInterface {
                url: match binding {
                    Binding::Grpc => format!("127.0.0.1:{port}"),
                    _ => format!("http://127.0.0.1:{port}/"),
                },
                protocol_binding: binding.name().into(),
                protocol_version: "1.0".into(),
                tenant: None,
            })
            .collect(),
        version: "0.1.0".into(),
        capabilities: AgentCapabilities {
            streaming: Some(true),
            ..Default::default()
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "greet".into(),
            name: "Greets".into(),
            description: "answers a message with a greeting that repeats it".into(),
            tags: vec!["greeting".into()],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_agent: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (port_file, canned) = match args.as_slice() {
        [port_file] => (port_file, false),
        [flag, port_file] if flag == "--canned" => (port_file, true),
        _ => return Err(USAGE.to_owned()),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let router = AgentRouter::new(&card(port)).map_err(|e| e.to_string())?;
    let router = match canned {
        true => router.service(A2aServer::new(Canned::record().await?)),
        false => router.service(A2aServer::new(RequestHandler::builder(Greeter).build())),
    };
    let router = router.into_router().map_err(|e| e.to_string())?;
    std::fs::write(port_file, format!("{port}\n"))
        .map_err(|e| format!("cannot write {port_file}: {e}"))?;
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve(listener, router, ctrl_c, Duration::from_secs(2))
        .await
        .map_err(|e| e.to_string())
}
