//! `tck-agent [--listen 127.0.0.1:9999] [--store memory | sqlite:PATH | postgres:URL]
//! [--auth-tokens FILE | --auth-jwks FILE] [--trace log|otel] [--public-url URL]
//! [--sqlite-sync full|normal] [--lease-ttl MS] [--executions FILE] [--versions 1.0,0.3|1.0]
//! [--card full|bare]`:
//! serves the TCK's system under test until killed (or Ctrl-C), in A2A 1.0 and, over JSON-RPC,
//! 0.3 from the same handler (`--versions 1.0`: 1.0 alone, and a card without 0.3's members). With `--auth-tokens` (see [`tck_agent::auth_tokens`]), every call needs one of the
//! file's bearer tokens; with `--auth-jwks`, a JWT signed by a key of that JWK Set (its `sub` the
//! caller, no issuer or audience checked); either way the card declares the bearer scheme.
//! Without them, every call is the anonymous caller. Webhooks on loopback over plain HTTP
//! are allowed, as the TCK's receiver needs; nothing else outside the public internet. With
//! `--trace`, spans and request log lines are collected (see `trace.rs`); without it, nothing
//! subscribes. With `--public-url`, the card names that URL (a balancer in front of replicas)
//! instead of the address it listens on. With `--store postgres:URL` it is one of any number of
//! replicas on that database (with `sqlite:PATH`, of the processes on that file): it listens for
//! the others' task events (`PostgresFeed`; `SqliteFeed` polls the file), so a
//! stream on it follows a task another replica runs, and holds a lease on each task it runs
//! (`--lease-ttl` milliseconds, 30,000 by default): a replica killed mid-task has its tasks
//! failed by another once the lease expires; one stopped with Ctrl-C or SIGTERM hands them over
//! at once. `--executions FILE` records each execution's start and end there (the cluster
//! tests). `--sqlite-sync normal` opens the SQLite store with
//! `synchronous = NORMAL` (no sync per commit) instead of its durable default, for the bench.

mod trace;

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::{Durability, MemoryStore, PushConfigStore, TaskStore};
use a2a_agent::RequestHandler;
use a2a_types::rt::auth::JwtAuthenticator;
use a2a_types::rt::server::{serve, AgentRouter};
use a2a_types::rt::trust::KeySet;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tck_agent::{auth_tokens, bare, card, secured, ClusterExecutor};

const USAGE: &str =
    "usage: tck-agent [--listen ADDR] [--store memory|sqlite:PATH|postgres:URL] [--auth-tokens FILE | --auth-jwks FILE] [--trace log|otel] [--public-url URL] [--sqlite-sync full|normal] [--lease-ttl MS] [--executions FILE] [--versions 1.0,0.3|1.0] [--card full|bare]";

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tck-agent: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let mut listen = "127.0.0.1:9999".to_owned();
    let mut store = "memory".to_owned();
    let mut tokens: Option<Box<dyn FnOnce(AgentRouter) -> AgentRouter>> = None;
    let mut _traced = None;
    let mut public_url: Option<String> = None;
    let mut durability = Durability::PowerLoss;
    let mut lease_ttl = a2a_agent::DEFAULT_LEASE_TTL;
    let mut executions: Option<String> = None;
    let mut serve_v0_3 = true;
    let mut bare_card = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        match flag.as_str() {
            "--listen" => listen = value,
            "--store" => store = value,
            "--auth-tokens" => {
                let text = std::fs::read_to_string(&value)
                    .map_err(|e| format!("cannot read the tokens file {value}: {e}"))?;
                let tokens_read = auth_tokens(&text).map_err(|e| format!("{value}: {e}"))?;
                tokens = Some(Box::new(move |r: AgentRouter| r.authenticate(tokens_read)));
            }
            "--auth-jwks" => {
                let text = std::fs::read_to_string(&value)
                    .map_err(|e| format!("cannot read the JWK Set {value}: {e}"))?;
                let jwks: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| format!("{value}: not JSON: {e}"))?;
                let keys = KeySet::from_jwks(&jwks).map_err(|e| format!("{value}: {e}"))?;
                let jwt = JwtAuthenticator::new(keys);
                tokens = Some(Box::new(move |r: AgentRouter| r.authenticate(jwt)));
            }
            "--trace" => _traced = Some(trace::install(&value)?),
            "--sqlite-sync" => {
                durability = match value.as_str() {
                    "full" => Durability::PowerLoss,
                    "normal" => Durability::ProcessCrash,
                    _ => return Err(format!("--sqlite-sync `{value}`: full or normal")),
                }
            }
            "--executions" => executions = Some(value),
            "--versions" => {
                serve_v0_3 = match value.as_str() {
                    "1.0,0.3" | "0.3,1.0" => true,
                    "1.0" => false,
                    _ => return Err(format!("--versions `{value}`: 1.0,0.3 or 1.0")),
                }
            }
            "--card" => {
                bare_card = match value.as_str() {
                    "full" => false,
                    "bare" => true,
                    _ => return Err(format!("--card `{value}`: full or bare")),
                }
            }
            "--lease-ttl" => {
                let ms: u64 = value
                    .parse()
                    .map_err(|_| format!("--lease-ttl `{value}`: a number of milliseconds"))?;
                lease_ttl = Duration::from_millis(ms);
            }
            "--public-url" => {
                let url = value.trim_end_matches('/');
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(format!("--public-url `{value}` is not an http(s) URL"));
                }
                public_url = Some(url.to_owned());
            }
            _ => return Err(format!("unknown flag `{flag}`\n{USAGE}")),
        }
    }
    let (tasks, configs, feed) = open_store(&store, durability).await?;
    let listener = tokio::net::TcpListener::bind(&listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let listening = format!(
        "http://{}",
        listener.local_addr().map_or(listen, |a| a.to_string())
    );
    let base = public_url.unwrap_or_else(|| listening.clone());
    let policy = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    };
    let sender = PushSender::new(policy).map_err(|e| e.to_string())?;
    let executor = ClusterExecutor::new(executions.as_deref().map(std::path::Path::new))
        .map_err(|e| format!("cannot open the executions log: {e}"))?;
    let handler = RequestHandler::builder(executor)
        .task_store(tasks)
        .lease_ttl(lease_ttl)
        .v0_3(serve_v0_3);
    // On PostgreSQL, one replica of many: the others' live events reach this one's streams.
    let handler = match feed {
        Some(feed) => handler.event_feed(feed),
        None => handler,
    };
    let handler = handler
        .push_notifications(configs, PushDispatcher::new(sender))
        .extended_card(match tokens {
            Some(_) => secured(card(&base, true)),
            None => card(&base, true),
        })
        .build();
    let public = match tokens {
        Some(_) => secured(card(&base, false)),
        None => card(&base, false),
    };
    // The bare card: the TCK's capability checks (the handler serves what it always does; the
    // server refuses what the card does not declare).
    let public = match bare_card {
        true => bare(public),
        false => public,
    };
    let stopping = handler.clone();
    // A2A 1.0, and 0.3 over JSON-RPC from the same handler (a request without A2A-Version is 0.3).
    let router = handler.router(&public).map_err(|e| e.to_string())?;
    let router = match tokens {
        Some(authenticate) => authenticate(router),
        None => router,
    };
    let router = router.into_router().map_err(|e| e.to_string())?;
    eprintln!("tck-agent: serving {listening} with the {store} store; Ctrl-C stops");
    if listening != base {
        eprintln!("tck-agent: the card names {base}");
    }
    serve(listener, router, stop_signal(), Duration::from_secs(5))
        .await
        .map_err(|e| e.to_string())?;
    // Another replica settles what still runs at once, rather than when the leases expire.
    stopping.shutdown(Duration::from_secs(5)).await;
    Ok(())
}

/// Ctrl-C, or SIGTERM (what a process manager stops a replica with).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The task store, the push-config store, and on PostgreSQL the replicas' event feed.
type Stores = (
    Arc<dyn TaskStore>,
    Arc<dyn PushConfigStore>,
    Option<Arc<dyn a2a_agent::cluster::EventFeed>>,
);

async fn open_store(spec: &str, durability: Durability) -> Result<Stores, String> {
    fn both<S: TaskStore + PushConfigStore>(store: S) -> Stores {
        let store = Arc::new(store);
        (store.clone(), store, None)
    }
    if spec == "memory" {
        return Ok(both(MemoryStore::new()));
    }
    if let Some(path) = spec.strip_prefix("sqlite:") {
        let store = a2a_agent::store::SqliteStore::open_with(path, durability)
            .await
            .map_err(|e| format!("cannot open the SQLite store {path}: {e}"))?;
        // Other processes on the file are replicas too: their events and asks, by polling.
        let feed = a2a_agent::cluster::SqliteFeed::start(&store)
            .await
            .map_err(|e| format!("cannot poll the SQLite store {path}: {e}"))?;
        let (tasks, configs, _) = both(store);
        return Ok((tasks, configs, Some(Arc::new(feed))));
    }
    if let Some(url) = spec.strip_prefix("postgres:") {
        let store = a2a_agent::store::PostgresStore::connect(url)
            .await
            .map_err(|e| format!("cannot connect the PostgreSQL store: {e}"))?;
        let feed = a2a_agent::cluster::PostgresFeed::start(&store)
            .await
            .map_err(|e| format!("cannot listen for other replicas' events: {e}"))?;
        let (tasks, configs, _) = both(store);
        return Ok((tasks, configs, Some(Arc::new(feed))));
    }
    Err(format!("unknown store `{spec}`\n{USAGE}"))
}
