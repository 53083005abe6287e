//! One trace across client, agent and webhook, and the metrics, with OpenTelemetry's in-memory
//! exporters (feature `otel`). (Issue 29.)
//!
//! The runtime's client calls `SendMessage` inside a span; the agent (the real server on
//! 127.0.0.1) runs the task and sends a push notification to a webhook (also on 127.0.0.1). The
//! webhook's `traceparent`, the agent's spans and the client's span must share one trace id. The
//! server runs each request on a task of its own, so the agent's spans join the trace only
//! through the `traceparent` the client sent.
//!
//! One test function: the tracer and meter providers are process-wide.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
use a2a_agent::store::MemoryStore;
use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
use a2a_types::rt::client::Client;
use a2a_types::rt::server::AgentRouter;
use a2a_types::rt::telemetry::TraceContext;
use a2a_types::v1::{method, A2aServer, Protocol, SendMessageRequest};
use axum::http::HeaderMap;
use opentelemetry::trace::{SpanId, TraceId, TracerProvider as _};
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::json;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;

struct Done;

impl AgentExecutor for Done {
    async fn execute(&self, _cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        task.add_text_artifact("answer", "done").await?;
        task.complete(None).await
    }
}

/// The `traceparent` of every request the webhook got.
type Seen = Arc<Mutex<Vec<Option<String>>>>;

async fn webhook() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let kept = Arc::clone(&seen);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap| {
            let kept = Arc::clone(&kept);
            async move {
                let parent = headers.get("traceparent").and_then(|v| v.to_str().ok());
                kept.lock().unwrap().push(parent.map(str::to_owned));
                axum::http::StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

async fn agent() -> (String, PushDispatcher) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let policy = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    };
    let dispatcher = PushDispatcher::new(PushSender::new(policy).unwrap());
    let handler = RequestHandler::builder(Done)
        .push_notifications(Arc::new(MemoryStore::new()), dispatcher.clone())
        .build();
    let card = json!({
        "name": "traced", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": base, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": base, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "capabilities": {"pushNotifications": true, "streaming": true},
        "defaultInputModes": ["text"], "defaultOutputModes": ["text"], "skills": []
    });
    let router = AgentRouter::new(&card)
        .unwrap()
        .service(A2aServer::new(handler))
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (base, dispatcher)
}

fn send(text: &str, hook: Option<&str>) -> SendMessageRequest {
    let mut params = json!({
        "message": {"messageId": format!("m-{text}"), "role": "ROLE_USER", "parts": [{"text": text}]}
    });
    if let Some(hook) = hook {
        params["configuration"] =
            json!({"taskPushNotificationConfig": {"url": hook, "token": "t"}});
    }
    serde_json::from_value(params).unwrap()
}

fn named<'a>(spans: &'a [SpanData], name: &str) -> Vec<&'a SpanData> {
    spans.iter().filter(|s| s.name == name).collect()
}

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

/// The data points of metric `name`: each one's attributes and value (a histogram's count).
fn points(metrics: &[ResourceMetrics], name: &str) -> Vec<(Vec<KeyValue>, f64)> {
    let mut out = Vec::new();
    for metric in metrics
        .iter()
        .flat_map(|r| r.scope_metrics())
        .flat_map(|s| s.metrics())
        .filter(|m| m.name() == name)
    {
        let attrs = |a: &mut dyn Iterator<Item = &KeyValue>| a.cloned().collect::<Vec<_>>();
        match metric.data() {
            AggregatedMetrics::U64(MetricData::Sum(sum)) => out.extend(
                sum.data_points()
                    .map(|p| (attrs(&mut p.attributes()), p.value() as f64)),
            ),
            AggregatedMetrics::I64(MetricData::Sum(sum)) => out.extend(
                sum.data_points()
                    .map(|p| (attrs(&mut p.attributes()), p.value() as f64)),
            ),
            AggregatedMetrics::F64(MetricData::Histogram(h)) => out.extend(
                h.data_points()
                    .map(|p| (attrs(&mut p.attributes()), p.count() as f64)),
            ),
            other => panic!("{name}: unexpected data {other:?}"),
        }
    }
    out
}

/// The value of the point of `name` whose attributes include every one of `with`.
fn value(metrics: &[ResourceMetrics], name: &str, with: &[(&str, Value)]) -> Option<f64> {
    points(metrics, name)
        .into_iter()
        .find(|(attrs, _)| {
            with.iter().all(|(k, v)| {
                attrs
                    .iter()
                    .any(|kv| kv.key.as_str() == *k && kv.value == *v)
            })
        })
        .map(|(_, v)| v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_trace_from_client_through_agent_to_webhook_and_the_metrics() {
    let spans = InMemorySpanExporter::default();
    let tracer_provider = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let metrics = InMemoryMetricExporter::default();
    let meter_provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics.clone()).build())
        .build();
    // Before the first request: the runtime's instruments are made on first use.
    opentelemetry::global::set_meter_provider(meter_provider.clone());
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(tracer_provider.tracer("traces-test")));
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let (hook, seen) = webhook().await;
    let (base, dispatcher) = agent().await;
    let client = Client::<Protocol>::builder()
        .request_timeout(Duration::from_secs(10))
        .connect(&base)
        .await
        .unwrap();

    // The client's call, in a span of its own (the trace's root).
    let root = tracing::info_span!("client.request");
    let root_context = root.context();
    let root_span = opentelemetry::trace::TraceContextExt::span(&root_context);
    let trace_id = root_span.span_context().trace_id();
    let root_id = root_span.span_context().span_id();
    assert_ne!(trace_id, TraceId::INVALID);
    client
        .call::<method::SendMessage>(&send("traced", Some(&hook)))
        .instrument(root.clone())
        .await
        .unwrap();
    drop(root);

    // A call from outside any span: a trace of its own. Then one that carries a traceparent by
    // hand, from a client of another stack.
    client
        .call::<method::SendMessage>(&send("untraced", None))
        .await
        .unwrap();
    let foreign = TraceContext::parse(
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        None,
    )
    .unwrap();
    let mut headers = reqwest::header::HeaderMap::new();
    foreign.insert_into(&mut headers);
    let reply = reqwest::Client::new()
        .post(&base)
        .headers(headers)
        .header("A2A-Version", "1.0")
        .header("content-type", "application/json")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "none"}})
                .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    // A stream, opened and read to its end.
    {
        let mut events = client.stream::<method::SendStreamingMessage>(&send("streamed", None));
        while let Some(event) = events.next().await {
            event.unwrap();
        }
    }

    // The webhook got the notifications, each carrying the client's trace.
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            dispatcher.idle().await;
            if !seen.lock().unwrap().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the webhook is called within 10 s");
    let hooked = seen.lock().unwrap().clone();
    for parent in &hooked {
        let parent = parent
            .as_deref()
            .expect("every notification has a traceparent");
        let parent = TraceContext::parse(parent, None).expect("a valid traceparent");
        assert_eq!(
            TraceId::from_bytes(parent.trace_id),
            trace_id,
            "the webhook is in the client's trace"
        );
    }

    tracer_provider.force_flush().unwrap();
    let finished = spans.get_finished_spans().unwrap();
    let in_trace: Vec<&SpanData> = finished
        .iter()
        .filter(|s| s.span_context.trace_id() == trace_id)
        .collect();
    let names = |spans: &[&SpanData]| {
        let mut names: Vec<String> = spans.iter().map(|s| s.name.to_string()).collect();
        names.sort();
        names.dedup();
        names
    };
    assert_eq!(
        names(&in_trace),
        [
            "a2a.call",
            "a2a.execute",
            "a2a.push",
            "a2a.store",
            "client.request"
        ],
        "every span of the traced call is in the client's trace"
    );
    // The server's call span is the client span's child, through the traceparent alone.
    let calls: Vec<&&SpanData> = in_trace.iter().filter(|s| s.name == "a2a.call").collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].parent_span_id, root_id);
    assert!(calls[0].parent_span_is_remote);
    assert_eq!(
        attribute(calls[0], "rpc.method"),
        Some(&Value::from("SendMessage"))
    );
    // The task it made, named on the call's span as on the execution's.
    let executed = named(&finished, "a2a.execute");
    let task_id = attribute(calls[0], "a2a.task_id").expect("a2a.call names its task");
    assert!(executed
        .iter()
        .any(|s| s.span_context.trace_id() == trace_id
            && attribute(s, "a2a.task_id") == Some(task_id)));
    // The webhook's parent is the push delivery's span.
    let pushes = named(&finished, "a2a.push");
    let push_ids: Vec<SpanId> = pushes.iter().map(|s| s.span_context.span_id()).collect();
    for parent in hooked.iter().flatten() {
        let parent = TraceContext::parse(parent, None).unwrap();
        assert!(push_ids.contains(&SpanId::from_bytes(parent.parent_id)));
    }

    // The untraced call has a trace of its own; the foreign traceparent was joined.
    let other_calls: Vec<&SpanData> = named(&finished, "a2a.call")
        .into_iter()
        .filter(|s| s.span_context.trace_id() != trace_id)
        .collect();
    assert!(other_calls.len() >= 3, "{other_calls:?}");
    let foreign_call = other_calls
        .iter()
        .find(|s| s.span_context.trace_id() == TraceId::from_bytes(foreign.trace_id))
        .expect("the call with a hand-made traceparent joins that trace");
    assert_eq!(
        foreign_call.parent_span_id,
        SpanId::from_bytes(foreign.parent_id)
    );
    // An error answered: its code, the task it named, and the span's status.
    assert_eq!(
        attribute(foreign_call, "a2a.error_code"),
        Some(&Value::from(-32001_i64))
    );
    assert_eq!(
        attribute(foreign_call, "a2a.task_id"),
        Some(&Value::from("none"))
    );
    assert_eq!(foreign_call.status, opentelemetry::trace::Status::error(""));

    // The metrics.
    meter_provider.force_flush().unwrap();
    let exported = metrics.get_finished_metrics().unwrap();
    let ok = |m: &'static str| {
        vec![
            ("rpc.method", Value::from(m)),
            ("a2a.outcome", Value::from("ok")),
        ]
    };
    assert_eq!(
        value(&exported, "a2a.server.requests", &ok("SendMessage")),
        Some(2.0)
    );
    assert_eq!(
        value(&exported, "rpc.server.call.duration", &ok("SendMessage")),
        Some(2.0)
    );
    let not_found = [
        ("rpc.method", Value::from("GetTask")),
        ("a2a.outcome", Value::from("error")),
        ("a2a.error_code", Value::from(-32001_i64)),
    ];
    assert_eq!(
        value(&exported, "a2a.server.requests", &not_found),
        Some(1.0)
    );
    // Three tasks completed; none left working or submitted.
    let state = |s: &'static str| [("a2a.task.state", Value::from(s))];
    assert_eq!(
        value(&exported, "a2a.tasks", &state("TASK_STATE_COMPLETED")),
        Some(3.0)
    );
    for s in ["TASK_STATE_WORKING", "TASK_STATE_SUBMITTED"] {
        assert_eq!(value(&exported, "a2a.tasks", &state(s)).unwrap_or(0.0), 0.0);
    }
    let delivered = value(
        &exported,
        "a2a.push.deliveries",
        &[("a2a.outcome", Value::from("delivered"))],
    );
    assert_eq!(delivered, Some(hooked.len() as f64));
    // The stream was counted while it lived, and is no longer.
    let streams = [("rpc.method", Value::from("SendStreamingMessage"))];
    assert_eq!(
        value(&exported, "a2a.server.active_streams", &streams),
        Some(0.0)
    );
    eprintln!(
        "  {} spans in the client's trace, {} notifications, {} spans in all",
        in_trace.len(),
        hooked.len(),
        finished.len()
    );
}
