//! The README's server quickstart: an agent that answers over JSON-RPC, HTTP+JSON and gRPC.
use a2a_protocol::errors::Error;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
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
async fn main() -> std::io::Result<()> {
    let http = TcpListener::bind("127.0.0.1:0").await?;
    let grpc = TcpListener::bind("127.0.0.1:0").await?;
    let card = AgentCard::builder("Echo", "Says back what it is told.", "1.0.0")
        .jsonrpc(format!("http://{}/jsonrpc", http.local_addr()?))
        .http_json(format!("http://{}/rest", http.local_addr()?))
        .grpc(grpc.local_addr()?.to_string())
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skills(skills![echo])
        .build()
        .expect("the card is valid");
    let server = A2aServer::builder(card, Echo).build();
    let serving = server.serve(http, grpc).await?;
    println!("serving on {}", serving.base_url());
    serving.wait().await;
    Ok(())
}
