//! The example end to end: the agent exports over OTLP/HTTP to a collector on 127.0.0.1, which
//! decodes the protobuf bodies it receives. A client call in a span of the test's own trace must
//! arrive as the agent's spans in that trace, and the metrics by their names.
//!
//! One test function: the subscriber and the meter provider are process-wide.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_agent::push::PushUrlPolicy;
use a2a_types::rt::client::Client;
use a2a_types::rt::telemetry::TraceContext;
use a2a_types::v1::{method, Protocol, SendMessageRequest};
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use prost::Message as _;

#[derive(Default)]
struct Collected {
    /// (span name, trace id, service.name) of every span.
    spans: Vec<(String, Vec<u8>, String)>,
    metrics: BTreeSet<String>,
    content_types: BTreeSet<String>,
}

type Shared = Arc<Mutex<Collected>>;

fn service_name(resource: Option<&opentelemetry_proto::tonic::resource::v1::Resource>) -> String {
    use opentelemetry_proto::tonic::common::v1::any_value::Value;
    resource
        .into_iter()
        .flat_map(|r| &r.attributes)
        .find(|kv| kv.key == "service.name")
        .and_then(|kv| kv.value.as_ref()?.value.as_ref())
        .map(|v| match v {
            Value::StringValue(s) => s.clone(),
            other => format!("{other:?}"),
        })
        .unwrap_or_default()
}

async fn collector() -> (String, Shared) {
    let seen: Shared = Arc::default();
    let traces = Arc::clone(&seen);
    let metrics = Arc::clone(&seen);
    let content_type = |headers: &HeaderMap| {
        headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let app = axum::Router::new()
        .route(
            "/v1/traces",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| async move {
                let Ok(request) = ExportTraceServiceRequest::decode(body) else {
                    return StatusCode::BAD_REQUEST;
                };
                let mut seen = traces.lock().unwrap();
                seen.content_types.insert(content_type(&headers));
                for resource in request.resource_spans {
                    let service = service_name(resource.resource.as_ref());
                    for span in resource.scope_spans.into_iter().flat_map(|s| s.spans) {
                        seen.spans.push((span.name, span.trace_id, service.clone()));
                    }
                }
                StatusCode::OK
            }),
        )
        .route(
            "/v1/metrics",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| async move {
                let Ok(request) = ExportMetricsServiceRequest::decode(body) else {
                    return StatusCode::BAD_REQUEST;
                };
                let mut seen = metrics.lock().unwrap();
                seen.content_types.insert(content_type(&headers));
                for resource in request.resource_metrics {
                    for metric in resource.scope_metrics.into_iter().flat_map(|s| s.metrics) {
                        seen.metrics.insert(metric.name);
                    }
                }
                StatusCode::OK
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_exports_its_spans_and_metrics_over_otlp_http() {
    let (otlp, seen) = collector().await;
    let telemetry = otel_agent::Telemetry::install(&otlp, "otel-agent-test").unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = otel_agent::router(&base, PushUrlPolicy::default()).unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });

    // A call from a client of another stack, in a trace it names.
    let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    let trace = TraceContext::parse(parent, None).unwrap();
    let client = Client::<Protocol>::builder()
        .request_timeout(Duration::from_secs(10))
        .header("traceparent".parse().unwrap(), parent.parse().unwrap())
        .connect(&base)
        .await
        .unwrap();
    let params: SendMessageRequest = serde_json::from_value(serde_json::json!({
        "message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hello"}]}
    }))
    .unwrap();
    let reply = client.call::<method::SendMessage>(&params).await.unwrap();
    assert!(format!("{reply:?}").contains("hello"), "{reply:?}");

    tokio::time::timeout(Duration::from_secs(20), telemetry.shutdown())
        .await
        .expect("the last exports are sent within 20 s");

    let seen = seen.lock().unwrap();
    let in_trace: BTreeSet<&str> = seen
        .spans
        .iter()
        .filter(|(_, id, _)| id.as_slice() == trace.trace_id)
        .map(|(name, _, _)| name.as_str())
        .collect();
    assert_eq!(
        in_trace,
        BTreeSet::from(["a2a.call", "a2a.execute", "a2a.store"]),
        "all spans: {:?}",
        seen.spans
    );
    assert!(seen
        .spans
        .iter()
        .all(|(_, id, s)| id.as_slice() == trace.trace_id && s == "otel-agent-test"));
    for name in [
        "rpc.server.call.duration",
        "a2a.server.requests",
        "a2a.tasks",
    ] {
        assert!(seen.metrics.contains(name), "{name} in {:?}", seen.metrics);
    }
    assert_eq!(
        seen.content_types,
        BTreeSet::from(["application/x-protobuf".to_owned()])
    );
    eprintln!(
        "  collector: {} spans, every one in the caller's trace ({:?}); metrics {:?}",
        seen.spans.len(),
        in_trace,
        seen.metrics
    );
}
