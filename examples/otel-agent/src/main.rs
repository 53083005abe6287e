//! `otel-agent [--listen 127.0.0.1:3000] [--otlp http://127.0.0.1:4318]`: serves the agent,
//! exporting its traces and metrics to the OTLP/HTTP collector, until Ctrl-C; then flushes them.

use a2a_agent::push::PushUrlPolicy;
use a2a_types::rt::server::serve;
use std::process::ExitCode;
use std::time::Duration;

#[tokio::main]
async fn main() -> ExitCode {
    let mut listen = "127.0.0.1:3000".to_owned();
    let mut otlp = "http://127.0.0.1:4318".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let slot = match flag.as_str() {
            "--listen" => &mut listen,
            "--otlp" => &mut otlp,
            _ => return usage(),
        };
        match args.next() {
            Some(value) => *slot = value,
            None => return usage(),
        }
    }
    let telemetry = match otel_agent::Telemetry::install(&otlp, "otel-agent") {
        Ok(telemetry) => telemetry,
        Err(e) => return fail(format!("cannot export to {otlp}: {e}")),
    };
    let listener = match tokio::net::TcpListener::bind(&listen).await {
        Ok(listener) => listener,
        Err(e) => return fail(format!("cannot listen on {listen}: {e}")),
    };
    let base = format!(
        "http://{}",
        listener.local_addr().map_or(listen, |a| a.to_string())
    );
    let router = match otel_agent::router(&base, PushUrlPolicy::default()) {
        Ok(router) => router,
        Err(e) => return fail(e.to_string()),
    };
    eprintln!("otel-agent: serving {base}, exporting to {otlp}; Ctrl-C stops");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let served = serve(listener, router, ctrl_c, Duration::from_secs(5)).await;
    telemetry.shutdown().await;
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e.to_string()),
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: otel-agent [--listen ADDR] [--otlp URL]");
    ExitCode::from(2)
}

fn fail(message: String) -> ExitCode {
    eprintln!("otel-agent: {message}");
    ExitCode::FAILURE
}
