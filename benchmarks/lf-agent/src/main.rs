//! `a2a-lf-agent`: the official Rust SDK's server (`a2a-server-lf`, with its `DefaultRequestHandler` and
//! in-memory task store) serving the two behaviours that `a2a-example-agent --load` drives, so the load
//! test can measure it beside the workspace's own server and the Python SDK's in the same run.
//!
//! - a message whose id starts with `tck-stream-001`: working, one text artifact
//!   ("Stream hello from TCK"), completed;
//! - any other message (the load sends `tck-complete-task`): completed, status message "Hello from TCK".
//!
//! It binds `127.0.0.1` on a port the OS picks, serves the agent card at
//! `/.well-known/agent-card.json`, JSON-RPC at `/jsonrpc` and HTTP+JSON under `/rest` (a2a-server-lf
//! publishes no gRPC transport), and prints `listening on URL` once it accepts connections. It runs
//! until killed or until its standard input closes, so it never outlives the load test that started it.

use std::sync::Arc;

use a2a::{
    A2AError, Artifact, Message, Part, Role, StreamResponse, TaskArtifactUpdateEvent, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use a2a_server::agent_card::agent_card_router;
use a2a_server::jsonrpc::jsonrpc_router;
use a2a_server::rest::rest_router;
use a2a_server::{
    AgentExecutor, DefaultRequestHandler, ExecutorContext, InMemoryTaskStore, StaticAgentCard,
};
use futures::stream::{self, BoxStream};
use tokio::io::AsyncReadExt;

/// The agent's logic: the two load behaviours, as a2a-server-lf's executor stream.
struct LoadBehaviours;

fn status(ctx: &ExecutorContext, state: TaskState, message: Option<Message>) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: ctx.task_id.clone(),
        context_id: ctx.context_id.clone(),
        status: TaskStatus {
            state,
            message,
            timestamp: None,
        },
        metadata: None,
    })
}

fn agent_text(ctx: &ExecutorContext, text: &str) -> Message {
    let mut message = Message::new(Role::Agent, vec![Part::text(text)]);
    message.task_id = Some(ctx.task_id.clone());
    message.context_id = Some(ctx.context_id.clone());
    message
}

impl AgentExecutor for LoadBehaviours {
    fn execute(
        &self,
        ctx: ExecutorContext,
    ) -> BoxStream<'static, Result<StreamResponse, A2AError>> {
        let streamed = ctx
            .message
            .as_ref()
            .is_some_and(|m| m.message_id.starts_with("tck-stream-001"));
        let events = if streamed {
            let artifact = StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
                task_id: ctx.task_id.clone(),
                context_id: ctx.context_id.clone(),
                artifact: Artifact {
                    artifact_id: a2a::new_artifact_id(),
                    name: Some("output".into()),
                    description: None,
                    parts: vec![Part::text("Stream hello from TCK")],
                    metadata: None,
                    extensions: None,
                },
                append: None,
                last_chunk: Some(true),
                metadata: None,
            });
            vec![
                status(&ctx, TaskState::Working, None),
                artifact,
                status(&ctx, TaskState::Completed, None),
            ]
        } else {
            let done = agent_text(&ctx, "Hello from TCK");
            vec![status(&ctx, TaskState::Completed, Some(done))]
        };
        Box::pin(stream::iter(events.into_iter().map(Ok)))
    }

    fn cancel(&self, ctx: ExecutorContext) -> BoxStream<'static, Result<StreamResponse, A2AError>> {
        let canceled = status(&ctx, TaskState::Canceled, None);
        Box::pin(stream::iter([Ok(canceled)]))
    }
}

/// The public card: JSON-RPC and HTTP+JSON at `base`, streaming declared.
fn card(base: &str) -> Result<a2a::AgentCard, serde_json::Error> {
    serde_json::from_value(serde_json::json!({
        "name": "a2a-server-lf load agent",
        "description": "The official Rust SDK's server under the workspace's load test",
        "version": "0.0.0",
        "supportedInterfaces": [
            {"url": format!("{base}/jsonrpc"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": format!("{base}/rest"), "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true, "pushNotifications": false},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "load", "name": "load", "description": "completes or streams", "tags": ["load"]}]
    }))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let handler = Arc::new(DefaultRequestHandler::new(
        LoadBehaviours,
        InMemoryTaskStore::new(),
    ));
    let app = axum::Router::new()
        .nest("/jsonrpc", jsonrpc_router(handler.clone()))
        .nest("/rest", rest_router(handler))
        .merge(agent_card_router(Arc::new(StaticAgentCard::new(card(
            &base,
        )?))));
    println!("listening on {base}");
    // Stops when the parent closes our standard input (or dies), whichever side ends first.
    let stdin_closed = async {
        let mut sink = [0u8; 64];
        let mut stdin = tokio::io::stdin();
        while matches!(stdin.read(&mut sink).await, Ok(n) if n > 0) {}
    };
    tokio::select! {
        served = axum::serve(listener, app) => served?,
        () = stdin_closed => {}
    }
    Ok(())
}
