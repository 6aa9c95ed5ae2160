//! OpenTelemetry (feature `opentelemetry`): each call's `a2a.call` span continues the caller's trace.
//!
//! The request's W3C `traceparent` (the header, or the gRPC metadata of the same name) is read by
//! the SDK's [`TraceContextPropagator`] and becomes the remote parent of the span, so a
//! `tracing-opentelemetry` layer exports the server's span in the caller's trace, as the child of
//! the caller's span. The span's fields (`operation`, `binding`, `task_id`) become its attributes;
//! `otel.kind = "server"` makes it a server span. Without such a layer nothing changes.
//!
//! Wiring an exporter is the program's: install a `tracing-opentelemetry` layer over a tracer
//! provider whose exporter sends the spans on. For OTLP, the exporter is the `opentelemetry-otlp`
//! crate's, e.g. `opentelemetry_otlp::SpanExporter::builder().with_tonic()
//! .with_endpoint("http://collector:4317").build()?` (its `grpc-tonic` feature):
//!
//! ```no_run
//! use opentelemetry::trace::TracerProvider as _;
//! use opentelemetry_sdk::trace::{SdkTracerProvider, SpanExporter};
//! use tracing_subscriber::layer::SubscriberExt as _;
//!
//! /// Exports the spans of this process (the server's `a2a.call` spans among them) through
//! /// `exporter`, in batches from a background thread. Shut the provider down before exiting, so
//! /// what is still buffered is sent.
//! fn export_spans(
//!     exporter: impl SpanExporter + 'static,
//! ) -> Result<SdkTracerProvider, Box<dyn std::error::Error>> {
//!     let provider = SdkTracerProvider::builder()
//!         .with_batch_exporter(exporter)
//!         .build();
//!     let subscriber = tracing_subscriber::registry()
//!         .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("my-agent")));
//!     tracing::subscriber::set_global_default(subscriber)?;
//!     Ok(provider)
//! }
//! ```

use std::collections::HashMap;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Makes the caller's span, named by `traceparent`, the parent of `span`; an absent or invalid
/// value leaves `span` a root (the propagator refuses what the W3C format refuses).
pub(crate) fn continue_trace(span: &tracing::Span, traceparent: Option<&str>) {
    let Some(traceparent) = traceparent else {
        return;
    };
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    let parent = TraceContextPropagator::new().extract(&carrier);
    if parent.span().span_context().is_valid()
        && let Err(error) = span.set_parent(parent)
    {
        // Only when no OpenTelemetry layer is installed, or the span was already started.
        tracing::trace!(%error, "the caller's trace is not continued");
    }
}
