//! The README's client quickstart: resolves an agent, sends it a message and prints the streamed answer.
use a2a_client::{A2aClient, ClientConfig};
use a2a_types::v1::{Message, Part, SendMessageRequest, StreamResponse};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let agent = args.get(1).map_or("http://127.0.0.1:8080", String::as_str);
    let client = A2aClient::connect(agent, ClientConfig::default()).await?;
    let request = SendMessageRequest {
        message: Message::user("quickstart-1", [Part::text("Find a hotel in Lisbon")]),
        ..Default::default()
    };
    let mut stream = client.send_streaming_message(request).await?;
    while let Some(event) = stream.next().await {
        match event? {
            StreamResponse::StatusUpdate(update) => println!("[{:?}]", update.status.state),
            StreamResponse::ArtifactUpdate(update) => println!("{}", update.artifact.text()),
            StreamResponse::Message(message) => println!("{}", message.text()),
            _ => {}
        }
    }
    Ok(())
}
