//! `a2a-protocol-server-agent`: tomtom215/a2a-rust's server (`a2a-protocol-server` 0.15, its
//! `RequestHandler` and JSON-RPC dispatcher) on one of its task stores, serving the two behaviours
//! that the store benchmark (`a2a-example-agent --load-stores`) drives, so the benchmark can measure
//! it beside the workspace's own server on the same stores in the same run.
//!
//! ```text
//! a2a-protocol-server-agent --store memory|sqlite:PATH|postgres:URL
//! ```
//!
//! - a message whose id starts with `load-chunks`: working, one text artifact in [`LOAD_CHUNKS`]
//!   appended chunks `chunk-1 `, `chunk-2 `, …, completed (the benchmark's streamed task);
//! - any other message (the benchmark sends `tck-complete-task`): working, then completed with the
//!   agent message "Hello from TCK", as the example agent's behaviour table does.
//!
//! The stores are the crate's own: `InMemoryTaskStore` (the handler's default), `SqliteTaskStore`
//! (its pool runs WAL with `synchronous = NORMAL`, as ours does) and `PostgresTaskStore` (a URL's
//! `options=-c search_path=…` puts its tables in the benchmark's schema). Each makes its tables on
//! start.
//!
//! It binds `127.0.0.1` on a port the OS picks, serves JSON-RPC and the agent card
//! (`/.well-known/agent-card.json`) there, and prints `listening on URL` once it accepts
//! connections. It runs until killed or until its standard input closes, so it never outlives the
//! benchmark that started it.

use std::sync::Arc;

use a2a_protocol_server::store::{PostgresTaskStore, SqliteTaskStore};
use a2a_protocol_server::{
    AgentExecutor, EventEmitter, EventQueueWriter, JsonRpcDispatcher, RequestContext,
    RequestHandlerBuilder, Server,
};
use a2a_protocol_types::error::A2aResult;
use a2a_protocol_types::{
    AgentCard, AgentInterface, AgentSkill, ContextId, Message, Part, StreamResponse, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use tokio::io::AsyncReadExt;

/// How many chunks the `load-chunks` artifact has (a2a-testkit's `behaviour::table::LOAD_CHUNKS`).
const LOAD_CHUNKS: usize = 50;

/// The agent's logic: the store benchmark's two behaviours.
struct StoreBenchmarkBehaviours;

impl StoreBenchmarkBehaviours {
    async fn run(ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = EventEmitter::new(ctx, queue);
        emit.status(TaskState::Working).await?;
        if ctx.message.id.0.starts_with("load-chunks") {
            for number in 1..=LOAD_CHUNKS {
                let chunk = vec![Part::text(format!("chunk-{number} "))];
                emit.artifact(
                    "chunks",
                    chunk,
                    Some(number > 1),
                    Some(number == LOAD_CHUNKS),
                )
                .await?;
            }
            return emit.status(TaskState::Completed).await;
        }
        // Written out here: `EventEmitter::status` carries no status message, and ours completes
        // this task with one.
        let mut done = Message::agent(
            format!("{}-done", ctx.task_id),
            vec![Part::text("Hello from TCK")],
        );
        done.task_id = Some(ctx.task_id.clone());
        done.context_id = Some(ContextId::new(ctx.context_id.clone()));
        let mut status = TaskStatus::new(TaskState::Completed);
        status.message = Some(done);
        queue
            .write(StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
                task_id: ctx.task_id.clone(),
                context_id: ContextId::new(ctx.context_id.clone()),
                status,
                metadata: None,
            }))
            .await
    }
}

impl AgentExecutor for StoreBenchmarkBehaviours {
    fn execute<'a>(
        &'a self,
        ctx: &'a RequestContext,
        queue: &'a dyn EventQueueWriter,
    ) -> std::pin::Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(Self::run(ctx, queue))
    }
}

/// The handler on the store `choice` names.
async fn handler(
    choice: &str,
    card: AgentCard,
) -> Result<RequestHandlerBuilder, Box<dyn std::error::Error>> {
    let builder = RequestHandlerBuilder::new(StoreBenchmarkBehaviours).with_agent_card(card);
    Ok(if choice == "memory" {
        builder
    } else if let Some(path) = choice.strip_prefix("sqlite:") {
        let store = SqliteTaskStore::new(&format!("sqlite:{path}")).await;
        builder.with_task_store(store.map_err(|e| format!("--store {choice:?}: {e}"))?)
    } else if let Some(url) = choice.strip_prefix("postgres:") {
        let store = PostgresTaskStore::new(url).await;
        builder.with_task_store(store.map_err(|e| format!("--store {choice:?}: {e}"))?)
    } else {
        return Err(format!(
            "--store: expected memory, sqlite:PATH or postgres:URL, got {choice:?}"
        )
        .into());
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let choice = match args.as_slice() {
        [] => "memory",
        [flag, value] if flag == "--store" => value.as_str(),
        _ => {
            return Err(
                "usage: a2a-protocol-server-agent [--store memory|sqlite:PATH|postgres:URL]".into(),
            );
        }
    };
    let server = Server::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", server.local_addr()?);
    let card = AgentCard::new(
        "a2a-protocol-server store benchmark agent",
        "0.0.0",
        AgentInterface::jsonrpc(base.clone()),
    )
    .with_description("a2a-protocol-server 0.15 under the workspace's store benchmark")
    .with_streaming(true)
    .with_skill(AgentSkill::new("load", "load", "completes or streams").with_tags(["load"]));
    let handler = Arc::new(handler(choice, card).await?.build()?);
    println!("listening on {base}");
    // Stops when the parent closes our standard input (or dies), whichever side ends first.
    let stdin_closed = async {
        let mut sink = [0u8; 64];
        let mut stdin = tokio::io::stdin();
        while matches!(stdin.read(&mut sink).await, Ok(n) if n > 0) {}
    };
    server
        .serve_with_shutdown(JsonRpcDispatcher::new(handler), stdin_closed)
        .await;
    Ok(())
}
