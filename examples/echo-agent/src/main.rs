//! `echo-agent [--listen 127.0.0.1:3000]`: serves the echo agent over HTTP (JSON-RPC at `/`, in
//! A2A 1.0 and 0.3, HTTP+JSON below it, the card at `/.well-known/agent-card.json`) until Ctrl-C.

use a2a_runtime::server::{serve, AgentRouter};
use echo_agent::a2a::A2aServer;
use echo_agent::{a2a_v0_3, card, Echo};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let listen = match args.as_slice() {
        [] => "127.0.0.1:3000".to_string(),
        [flag, addr] if flag == "--listen" => addr.clone(),
        _ => {
            eprintln!("usage: echo-agent [--listen ADDR]");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(&listen).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("echo-agent: cannot listen on {listen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let base = format!(
        "http://{}",
        listener.local_addr().map_or(listen, |a| a.to_string())
    );
    // A2A 1.0, and 0.3 over JSON-RPC from the same service (a request without A2A-Version is 0.3).
    let echo = Arc::new(Echo);
    let router = AgentRouter::new(&card(&base)).and_then(|router| {
        router
            .service(A2aServer::from_arc(Arc::clone(&echo)))
            .service(a2a_v0_3::A2aServer::new(a2a_v0_3::Compat(echo)))
            .into_router()
    });
    let router = match router {
        Ok(router) => router,
        Err(e) => {
            eprintln!("echo-agent: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "echo-agent: serving {base} (card at {base}/.well-known/agent-card.json); Ctrl-C stops"
    );
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match serve(listener, router, ctrl_c, Duration::from_secs(5)).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("echo-agent: {e}");
            ExitCode::FAILURE
        }
    }
}
