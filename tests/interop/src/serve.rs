//! The agent side's start-up, shared by the v1 and the v0.3 agent: binding a free loopback port,
//! telling run.sh the port, and serving the agent's card and service with a2a-runtime's server
//! (`a2a_types::rt::server`). Routing, SSE, version negotiation and the card endpoint
//! are the server's; what goes into the bodies is the job of the a2a-types module the agent's
//! service is written against.

use a2a_types::rt::server::{self, AgentRouter};
use a2a_types::rt::service::{
    BoxFuture, Dispatch, Outcome, Protocol, RequestContext, ServiceError,
};
use a2a_types::rt::version::ProtocolModule;
use std::time::Duration;

/// The pause between two streamed events, so the client reads them as they happen: 20 ms, or
/// `A2A_INTEROP_EVENT_GAP_MS` (bench/serve-bench.sh sets 0, so a stream measures the server and
/// not this sleep).
pub fn event_gap() -> Duration {
    static GAP: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *GAP.get_or_init(|| {
        let ms = std::env::var("A2A_INTEROP_EVENT_GAP_MS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(20);
        Duration::from_millis(ms)
    })
}

/// Binds 127.0.0.1 on a free port, builds the agent's router for that port, writes the port to
/// `port_file` and serves until killed (or Ctrl-C). Exits with status 1 when it cannot.
pub async fn serve(
    name: &str,
    port_file: &str,
    agent: impl FnOnce(u16) -> std::result::Result<AgentRouter, server::ServerError>,
) {
    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
        Ok(listener) => listener,
        Err(e) => fail(name, format!("cannot bind 127.0.0.1: {e}")),
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let router = agent(port)
        .and_then(|router| router.into_router())
        .unwrap_or_else(|e| fail(name, e.to_string()));
    if let Err(e) = std::fs::write(port_file, format!("{port}\n")) {
        fail(name, format!("cannot write {port_file}: {e}"));
    }
    eprintln!("{name}: serving on 127.0.0.1:{port}");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = server::serve(listener, router, ctrl_c, Duration::from_secs(2)).await {
        fail(name, e.to_string());
    }
}

fn fail(name: &str, message: String) -> ! {
    eprintln!("{name}: {message}");
    std::process::exit(1);
}

/// `service` with one line on stderr per call, `NAME: BINDING METHOD [tenant T] -> outcome`, for
/// run.sh to print when a step fails: the log of an agent whose methods are not its own code (they
/// are the request handler's).
pub fn logged<D: Dispatch>(name: &'static str, service: D) -> Logged<D> {
    Logged { name, service }
}

/// A service that logs its calls: see [`logged`].
pub struct Logged<D> {
    name: &'static str,
    service: D,
}

type Result<P> = std::result::Result<
    Outcome<<P as Protocol>::Reply, <P as ProtocolModule>::Error>,
    ServiceError<<P as ProtocolModule>::Error>,
>;

impl<D: Dispatch> Dispatch for Logged<D> {
    type Protocol = D::Protocol;

    fn dispatch(
        &self,
        cx: RequestContext,
        request: <Self::Protocol as Protocol>::Request,
    ) -> BoxFuture<Result<Self::Protocol>> {
        let tenant = cx
            .tenant
            .as_deref()
            .map(|t| format!(" tenant {t}"))
            .unwrap_or_default();
        let call = format!("{}: {} {}{tenant}", self.name, cx.binding.name(), cx.method);
        let outcome = self.service.dispatch(cx, request);
        Box::pin(async move {
            let outcome = outcome.await;
            match &outcome {
                Ok(Outcome::Unary(_)) => eprintln!("{call} -> ok"),
                Ok(Outcome::Stream(_)) => eprintln!("{call} -> a stream"),
                Err(e) => eprintln!("{call} -> {e}"),
            }
            outcome
        })
    }
}
