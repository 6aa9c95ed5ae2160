//! OpenTelemetry (feature `opentelemetry`): each request's `traceparent` names the call's own span.
//!
//! With a `tracing-opentelemetry` layer installed, the client's `a2a.call` / `a2a.stream` span is an
//! OpenTelemetry span (a client span, a child of whatever span the caller is in); its context is
//! written as `traceparent` by the SDK's [`TraceContextPropagator`], so the agent's span becomes
//! its child in the same trace. Without such a layer the span has no valid context and the client
//! falls back to a new random trace per call ([`TraceParent::new_root`]).

use std::collections::HashMap;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::trace::{TRACEPARENT, TraceParent};

/// The `traceparent` naming `span`, when it is an OpenTelemetry span with a valid context.
pub(crate) fn traceparent_of(span: &tracing::Span) -> Option<TraceParent> {
    let context = span.context();
    if !context.span().span_context().is_valid() {
        return None;
    }
    let mut carrier = HashMap::new();
    TraceContextPropagator::new().inject_context(&context, &mut carrier);
    carrier
        .get(TRACEPARENT)
        .and_then(|value| TraceParent::parse(value))
}
