//! An A2A agent whose traces and metrics go to an OpenTelemetry collector over OTLP/HTTP.
//!
//! What a2a-runtime's `otel` feature needs from an application, and nothing more:
//!
//! 1. a tracer provider and a meter provider, here exporting OTLP over HTTP (protobuf) to a
//!    collector (`http://127.0.0.1:4318` by default: an OpenTelemetry Collector, Jaeger, Grafana
//!    Alloy, ...);
//! 2. the meter provider installed as the global one, **before the first request**;
//! 3. a `tracing` subscriber with the `tracing-opentelemetry` layer (and, here, the log lines on
//!    stderr);
//! 4. at shutdown, the providers flushed.
//!
//! Then every call is a span `a2a.call` in the caller's trace (from its `traceparent`), with
//! `a2a.execute`, `a2a.store` and `a2a.push` below it; push notifications carry the trace on to
//! the webhook; and the metrics `rpc.server.call.duration`, `a2a.server.requests`,
//! `a2a.server.active_streams`, `a2a.tasks` and `a2a.push.deliveries` are exported every
//! [`Telemetry::METRICS_INTERVAL`].
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let telemetry = otel_agent::Telemetry::install("http://127.0.0.1:4318", "my-agent")?;
//! // ... serve (see `otel_agent::router`) ...
//! telemetry.shutdown().await;
//! # Ok(())
//! # }
//! ```

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::MemoryStore;
use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
use a2a_types::rt::server::AgentRouter;
use a2a_types::v1::A2aServer;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::Layer as _;

/// The agent: answers every message with its text, in a task that completes.
pub struct Echo;

impl AgentExecutor for Echo {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let text = cx.text();
        task.start_work(None).await?;
        task.add_text_artifact("echo", &text).await?;
        task.complete(None).await
    }
}

/// The agent's card, served at `base`.
pub fn card(base: &str) -> serde_json::Value {
    serde_json::json!({
        "name": "otel-agent",
        "description": "Echoes messages; its traces and metrics go to an OTLP collector",
        "version": "1.0.0",
        "supportedInterfaces": [
            {"url": base, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": base, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true, "pushNotifications": true},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Echoes the message", "tags": ["echo"]}]
    })
}

/// The agent's router at `base`, with push notifications (`push` says which webhook URLs may be
/// called; [`PushUrlPolicy::default`] refuses loopback and private addresses).
///
/// # Panics
///
/// Outside a Tokio runtime (the push dispatcher keeps the runtime's handle).
pub fn router(base: &str, push: PushUrlPolicy) -> Result<axum::Router, Box<dyn std::error::Error>> {
    let sender = PushSender::new(push)?;
    let handler = RequestHandler::builder(Echo)
        .push_notifications(Arc::new(MemoryStore::new()), PushDispatcher::new(sender))
        .build();
    Ok(AgentRouter::new(&card(base))?
        .service(A2aServer::new(handler))
        .into_router()?)
}

/// The installed providers; [`shutdown`](Self::shutdown) flushes them.
pub struct Telemetry {
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

impl Telemetry {
    /// How often the metrics are exported.
    pub const METRICS_INTERVAL: Duration = Duration::from_secs(10);

    /// Exports to the OTLP/HTTP collector at `endpoint` (`/v1/traces` and `/v1/metrics` below
    /// it) as service `service`, and installs the global subscriber (the OpenTelemetry layer,
    /// and `info` log lines on stderr) and the global meter provider. Call it once, inside a
    /// Tokio runtime (the exports are sent on it), before serving.
    pub fn install(endpoint: &str, service: &str) -> Result<Telemetry, Box<dyn std::error::Error>> {
        let endpoint = endpoint.trim_end_matches('/');
        let http = OtlpHttp::new()?;
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(http.clone())
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/traces"))
            .build()?;
        let metrics = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_http_client(http)
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/metrics"))
            .build()?;
        let resource = Resource::builder()
            .with_service_name(service.to_owned())
            .build();
        let tracer = SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build();
        let meter = SdkMeterProvider::builder()
            .with_reader(
                PeriodicReader::builder(metrics)
                    .with_interval(Self::METRICS_INTERVAL)
                    .build(),
            )
            .with_resource(resource)
            .build();
        opentelemetry::global::set_meter_provider(meter.clone());
        let subscriber = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(tracer.tracer("otel-agent")))
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    .with_filter(tracing_subscriber::filter::LevelFilter::INFO),
            );
        tracing::subscriber::set_global_default(subscriber)?;
        Ok(Telemetry { tracer, meter })
    }

    /// Exports what is left and stops the exporters. Blocks a thread of its own while the last
    /// exports are sent, not the runtime.
    pub async fn shutdown(self) {
        let done = tokio::task::spawn_blocking(move || {
            let traces = self.tracer.shutdown();
            let metrics = self.meter.shutdown();
            (traces, metrics)
        })
        .await;
        if let Ok((traces, metrics)) = done {
            for (what, result) in [("traces", traces), ("metrics", metrics)] {
                if let Err(e) = result {
                    eprintln!("otel-agent: the last {what} were not exported: {e}");
                }
            }
        }
    }
}

/// The OTLP exporter's HTTP client, over reqwest (rustls) on the application's Tokio runtime.
///
/// The exporter sends from a thread of its own, not from the runtime; each request is spawned
/// onto the runtime it was made in, and its reply awaited from the exporter's thread.
#[derive(Clone, Debug)]
pub struct OtlpHttp {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
}

impl OtlpHttp {
    /// A client on the current Tokio runtime, with a 10-second timeout per export.
    pub fn new() -> Result<OtlpHttp, Box<dyn std::error::Error>> {
        Ok(OtlpHttp {
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()?,
            runtime: tokio::runtime::Handle::try_current()?,
        })
    }
}

#[async_trait::async_trait]
impl HttpClient for OtlpHttp {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let request = reqwest::Request::try_from(request)?;
        let client = self.client.clone();
        self.runtime
            .spawn(async move {
                let response = client.execute(request).await?;
                let mut reply = Response::builder().status(response.status());
                for (name, value) in response.headers() {
                    reply = reply.header(name, value);
                }
                Ok(reply.body(response.bytes().await?)?)
            })
            .await?
    }
}
