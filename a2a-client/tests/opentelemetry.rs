//! OpenTelemetry export (feature `opentelemetry`, the client's too): a client call made inside a
//! caller's span, to a server in the same test, on JSON-RPC, HTTP+JSON and gRPC, produces a server
//! span (`a2a.call`, kind server) in the caller's trace, the child of the client's own span, whose
//! attributes name the operation, the binding and the task id; a streaming call's server span lasts
//! until its stream ends. Spans are read from the SDK's
//! in-memory exporter; the subscriber is this test thread's (a current-thread runtime), so the
//! tests of this binary do not see each other's spans.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_protocol::errors::Error;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{
    AgentCard, AgentSkill, GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse,
};
use opentelemetry::trace::{SpanKind, TraceContextExt, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tokio::net::TcpListener;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;

const LIMIT: Duration = Duration::from_secs(20);

/// How long the agent works on `slow` before it completes.
const SLOW_WORK: Duration = Duration::from_millis(300);

/// Completes every task, after [`SLOW_WORK`] for the text `slow`.
struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        if context.message.text() == "slow" {
            events.working().await?;
            tokio::time::sleep(SLOW_WORK).await;
        }
        events.complete_with_text("done").await?;
        Ok(())
    }
}

async fn serve() -> a2a_server::Serving {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (h, g) = (http.local_addr().unwrap(), grpc.local_addr().unwrap());
    let card = AgentCard::builder("Traced", "Completes every task.", "1.0.0")
        .jsonrpc(format!("http://{h}/jsonrpc"))
        .http_json(format!("http://{h}/rest"))
        .grpc(g.to_string())
        .streaming(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "done".into(),
            name: "Done".into(),
            description: "Completes every task.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .unwrap();
    A2aServer::builder(card, Done)
        .build()
        .serve(http, grpc)
        .await
        .unwrap()
}

fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .rev()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.as_str().into_owned())
}

/// The finished server spans of `operation` over `binding`, waiting (bounded) for them to end.
async fn server_spans(
    exporter: &InMemorySpanExporter,
    operation: &str,
    binding: &str,
) -> Vec<SpanData> {
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        let spans: Vec<SpanData> = exporter
            .get_finished_spans()
            .unwrap()
            .into_iter()
            .filter(|span| {
                span.name == "a2a.call"
                    && span.span_kind == SpanKind::Server
                    && attribute(span, "operation").as_deref() == Some(operation)
                    && attribute(span, "binding").as_deref() == Some(binding)
            })
            .collect();
        if !spans.is_empty() {
            return spans;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {operation} server span over {binding}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The finished server span of `operation` over `binding` in the trace `trace` (waiting, bounded).
async fn server_span_in(
    exporter: &InMemorySpanExporter,
    operation: &str,
    binding: &str,
    trace: opentelemetry::trace::TraceId,
) -> SpanData {
    server_spans(exporter, operation, binding)
        .await
        .into_iter()
        .find(|s| s.span_context.trace_id() == trace)
        .unwrap_or_else(|| panic!("{binding}: no {operation} server span in the caller's trace"))
}

/// Every binding, with its name on the wire (the server span's `binding` attribute).
const BINDINGS: [(Binding, &str); 3] = [
    (Binding::JsonRpc, "JSONRPC"),
    (Binding::HttpJson, "HTTP+JSON"),
    (Binding::Grpc, "GRPC"),
];

/// A client of the test's server that speaks only `binding`.
async fn connect(serving: &a2a_server::Serving, binding: Binding) -> A2aClient {
    A2aClient::connect(
        &serving.base_url(),
        ClientConfig::default().only(binding).timeout(LIMIT),
    )
    .await
    .unwrap()
}

/// This thread's spans exported to memory through `tracing-opentelemetry`, until the guard drops.
fn export_spans_in_memory() -> (
    InMemorySpanExporter,
    SdkTracerProvider,
    tracing::subscriber::DefaultGuard,
) {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
    let guard = tracing::subscriber::set_default(subscriber);
    (exporter, provider, guard)
}

#[tokio::test]
async fn the_server_span_continues_the_callers_trace_on_every_binding() {
    let (exporter, provider, _subscriber) = export_spans_in_memory();

    let serving = serve().await;
    for (binding, wire_name) in BINDINGS {
        let client = connect(&serving, binding).await;
        let caller = tracing::info_span!("caller");
        let caller_trace = caller.context().span().span_context().trace_id();
        assert_ne!(caller_trace, opentelemetry::trace::TraceId::INVALID);

        let request = SendMessageRequest {
            message: Message::user(format!("m-{wire_name}"), [Part::text("hello")]),
            ..Default::default()
        };
        let SendMessageResponse::Task(task) = client
            .send_message(request)
            .instrument(caller.clone())
            .await
            .unwrap()
        else {
            panic!("{binding}: a message instead of a task");
        };
        client
            .get_task(GetTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .instrument(caller.clone())
            .await
            .unwrap();
        drop(caller);

        let spans = exporter.get_finished_spans().unwrap();
        let client_spans: Vec<&SpanData> = spans
            .iter()
            .filter(|s| s.name == "a2a.call" && s.span_kind == SpanKind::Client)
            .filter(|s| s.span_context.trace_id() == caller_trace)
            .collect();
        for operation in ["SendMessage", "GetTask"] {
            let server = server_span_in(&exporter, operation, wire_name, caller_trace).await;
            assert_eq!(
                attribute(&server, "task_id").as_deref(),
                Some(task.id.as_str()),
                "{binding}: {operation}"
            );
            assert!(server.parent_span_is_remote, "{binding}: {operation}");
            let parent = client_spans
                .iter()
                .find(|c| c.span_context.span_id() == server.parent_span_id)
                .unwrap_or_else(|| {
                    panic!("{binding}: {operation}'s server span is not a client span's child")
                });
            assert_eq!(
                attribute(parent, "operation").as_deref(),
                Some(operation),
                "{binding}"
            );
        }
    }
    serving.shutdown().await;
    provider.shutdown().unwrap();
}

#[tokio::test]
async fn a_traceparent_given_to_the_client_wins_over_its_span() {
    let (exporter, provider, _subscriber) = export_spans_in_memory();
    let serving = serve().await;
    // A traceparent given explicitly wins over the client span: the server joins that trace.
    let given = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let client = A2aClient::connect(
        &serving.base_url(),
        ClientConfig::default()
            .only(Binding::JsonRpc)
            .timeout(LIMIT),
    )
    .await
    .unwrap()
    .with_trace_parent(given)
    .unwrap();
    client
        .send_message(SendMessageRequest {
            message: Message::user("m-given", [Part::text("hello")]),
            ..Default::default()
        })
        .await
        .unwrap();
    let server = server_spans(&exporter, "SendMessage", "JSONRPC").await;
    assert_eq!(
        server[0].span_context.trace_id().to_string(),
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    serving.shutdown().await;
    provider.shutdown().unwrap();
}

#[tokio::test]
async fn a_streaming_calls_server_span_lasts_until_its_stream_ends() {
    let (exporter, provider, _subscriber) = export_spans_in_memory();
    let serving = serve().await;
    for (binding, wire_name) in BINDINGS {
        let client = connect(&serving, binding).await;
        let caller = tracing::info_span!("caller");
        let caller_trace = caller.context().span().span_context().trace_id();
        let request = SendMessageRequest {
            message: Message::user(format!("m-slow-{wire_name}"), [Part::text("slow")]),
            ..Default::default()
        };
        let mut stream = client
            .send_streaming_message(request)
            .instrument(caller.clone())
            .await
            .unwrap();
        let mut events = 0;
        while let Some(event) = tokio::time::timeout(LIMIT, stream.next()).await.unwrap() {
            event.unwrap();
            events += 1;
        }
        assert!(events >= 2, "{binding}: {events} events");
        drop(caller);

        let server =
            server_span_in(&exporter, "SendStreamingMessage", wire_name, caller_trace).await;
        // The agent worked SLOW_WORK between the stream's first event and its last: a span that
        // ended when the stream was handed over would be shorter.
        let lasted = server
            .end_time
            .duration_since(server.start_time)
            .unwrap_or_default();
        assert!(
            lasted >= SLOW_WORK,
            "{binding}: the streaming call's span lasted {lasted:?}"
        );
    }
    serving.shutdown().await;
    provider.shutdown().unwrap();
}
