//! The crate README's quickstart: an agent whose tasks, event logs, push configs, webhook deliveries
//! and running executions are kept in one SQLite file, so that a restart loses none of them.
use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_server_sql::{RETENTION_INTERVAL, RetentionPolicy, SqliteStore};
use a2a_types::{a2a_skill, skills, v1::AgentCard};
use tokio::net::TcpListener;

/// Say back what you were told.
#[a2a_skill(tags("echo"))]
fn echo(text: &str) -> String {
    format!("You said: {text}")
}
struct Echo;
#[async_trait]
impl AgentExecutor for Echo {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        Ok(events
            .complete_with_text(echo(&context.message.text()))
            .await?)
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tasks.sqlite3".to_owned());
    // Tasks that are over go a day after their last change (the default keeps them 7 days).
    let day = Duration::from_secs(24 * 60 * 60);
    let policy = RetentionPolicy::recommended().terminal_tasks_after(day);
    let store = SqliteStore::open(&path)
        .await?
        .with_retention(Some(policy), RETENTION_INTERVAL);
    let http = TcpListener::bind("127.0.0.1:0").await?;
    let grpc = TcpListener::bind("127.0.0.1:0").await?;
    let card = AgentCard::builder("Echo", "Says back what it is told.", "1.0.0")
        .jsonrpc(format!("http://{}/jsonrpc", http.local_addr()?))
        .http_json(format!("http://{}/rest", http.local_addr()?))
        .grpc(grpc.local_addr()?.to_string())
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skills(skills![echo])
        .build()?;
    let server = A2aServer::builder(card, Echo)
        .task_store(store.clone())
        .push_config_store(store.clone())
        .push_outbox(store.clone())
        .execution_queue(store)
        .build();
    let serving = server.serve(http, grpc).await?;
    println!("serving on {}, tasks in {path}", serving.base_url());
    serving.wait().await;
    Ok(())
}
