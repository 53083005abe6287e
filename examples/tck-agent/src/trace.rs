//! `--trace log|otel`: what the tracing bench (bench/trace-bench.sh) compares with no subscriber.
//!
//! - `log`: a `tracing-subscriber` fmt layer at `info` on stderr: one line per request (target
//!   `a2a_runtime::request`) with its span's fields, as an axum or tonic user has from
//!   `tower-http`'s trace layer.
//! - `otel`: every span through `tracing-opentelemetry` into the OpenTelemetry SDK (a batch
//!   processor), and the metrics through a periodic reader (every second), both to exporters that
//!   drop what they get: the whole cost of tracing in the agent, without a collector's network
//!   and serialization.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::data::ResourceMetrics;
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider, Temporality};
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::Layer as _;

/// What is installed; dropping it shuts the SDK down and prints how many spans it exported.
pub struct Installed {
    otel: Option<(SdkTracerProvider, SdkMeterProvider, Arc<AtomicU64>)>,
}

impl Drop for Installed {
    fn drop(&mut self) {
        if let Some((tracer, meter, spans)) = self.otel.take() {
            let _ = tracer.shutdown();
            let _ = meter.shutdown();
            eprintln!(
                "tck-agent: {} spans exported (dropped)",
                spans.load(Ordering::Relaxed)
            );
        }
    }
}

/// Installs the global subscriber for `mode`.
pub fn install(mode: &str) -> Result<Installed, String> {
    let log = || {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_filter(tracing_subscriber::filter::LevelFilter::INFO)
    };
    match mode {
        "log" => {
            tracing::subscriber::set_global_default(tracing_subscriber::registry().with(log()))
                .map_err(|e| e.to_string())?;
            Ok(Installed { otel: None })
        }
        "otel" => {
            let spans = Arc::new(AtomicU64::new(0));
            let tracer = SdkTracerProvider::builder()
                .with_batch_exporter(Discard(Arc::clone(&spans)))
                .build();
            let meter = SdkMeterProvider::builder()
                .with_reader(
                    PeriodicReader::builder(Discard(Arc::new(AtomicU64::new(0))))
                        .with_interval(Duration::from_secs(1))
                        .build(),
                )
                .build();
            opentelemetry::global::set_meter_provider(meter.clone());
            let layer = tracing_opentelemetry::layer().with_tracer(tracer.tracer("tck-agent"));
            tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))
                .map_err(|e| e.to_string())?;
            Ok(Installed {
                otel: Some((tracer, meter, spans)),
            })
        }
        _ => Err(format!("unknown --trace `{mode}` (log or otel)")),
    }
}

/// An exporter that counts what it gets and drops it.
#[derive(Debug)]
struct Discard(Arc<AtomicU64>);

impl SpanExporter for Discard {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        self.0.fetch_add(batch.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}

impl PushMetricExporter for Discard {
    async fn export(&self, _metrics: &ResourceMetrics) -> OTelSdkResult {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn force_flush(&self) -> OTelSdkResult {
        Ok(())
    }

    fn shutdown_with_timeout(&self, _timeout: Duration) -> OTelSdkResult {
        Ok(())
    }

    fn temporality(&self) -> Temporality {
        Temporality::Cumulative
    }
}
