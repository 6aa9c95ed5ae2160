//! The observer hook (`ClientConfig::observer`): on every binding, A2A v1 and v0.3, a unary call and a
//! streaming call to a loopback server are seen as they cross the wire: the request (its method,
//! URL, headers and body or protobuf message), the answer's head, and its body, each stream chunk or
//! gRPC message, all under one exchange number; and the calls answer as they do unobserved.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_client::observe::{Observed, Payload, Wire};
use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_protocol::errors::Error;
use a2a_protocol::service::ProtocolVersion;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{AgentCard, AgentSkill, Message, Part, SendMessageRequest, StreamResponse};
use tokio::net::TcpListener;

const LIMIT: Duration = Duration::from_secs(20);

/// Answers every message with its text reversed, working first.
struct Reverse;

#[async_trait]
impl AgentExecutor for Reverse {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        let reversed: String = context.message.text().chars().rev().collect();
        events.complete_with_text(reversed).await?;
        Ok(())
    }
}

async fn serve() -> a2a_server::Serving {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (h, g) = (http.local_addr().unwrap(), grpc.local_addr().unwrap());
    let card = AgentCard::builder("Observed", "Reverses text.", "1.0.0")
        .jsonrpc(format!("http://{h}/jsonrpc"))
        .http_json(format!("http://{h}/rest"))
        .grpc(g.to_string())
        .jsonrpc_v0_3(format!("http://{h}/jsonrpc"))
        .http_json_v0_3(format!("http://{h}/rest"))
        .grpc_v0_3(g.to_string())
        .streaming(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "reverse".into(),
            name: "Reverse".into(),
            description: "Reverses text.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .unwrap();
    A2aServer::builder(card, Reverse)
        .build()
        .serve(http, grpc)
        .await
        .unwrap()
}

fn request(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(format!("m-{text}"), [Part::text(text)]),
        ..Default::default()
    }
}

/// A payload's text: the bytes, or a protobuf message's ProtoJSON.
fn text(payload: &Payload) -> String {
    match payload {
        Payload::Bytes(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Payload::Protobuf { json, .. } => json.to_string(),
        _ => String::new(),
    }
}

/// Checks one observed exchange: a request carrying `sent`, then the answer's head, then bodies
/// that hold `answered`; returns the count of body records.
fn check_exchange(records: &[Observed], sent: &str, answered: &str, context: &str) -> usize {
    let exchange = records[0].exchange;
    assert!(
        records.iter().all(|r| r.exchange == exchange),
        "{context}: {records:#?}"
    );
    let Wire::Request {
        method, url, body, ..
    } = &records[0].wire
    else {
        panic!("{context}: the first record is no request: {records:#?}");
    };
    assert!(!method.is_empty() && !url.is_empty(), "{context}");
    assert!(text(body).contains(sent), "{context}: {}", text(body));
    assert!(
        matches!(&records[1].wire, Wire::Response { status, .. } if status.contains("OK")),
        "{context}: {:#?}",
        records[1]
    );
    let bodies: Vec<String> = records[2..]
        .iter()
        .map(|r| match &r.wire {
            Wire::Body(payload) => text(payload),
            other => panic!("{context}: {other:?} after the head"),
        })
        .collect();
    assert!(
        bodies.concat().contains(answered),
        "{context}: {answered} not in {bodies:?}"
    );
    bodies.len()
}

#[tokio::test]
async fn the_observer_sees_each_exchange_on_every_binding_and_version() {
    let serving = serve().await;
    for version in [ProtocolVersion::V1_0, ProtocolVersion::V0_3] {
        for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
            let context = format!("{binding} {version}");
            let seen: Arc<Mutex<Vec<Observed>>> = Arc::default();
            let log = seen.clone();
            let config = ClientConfig::default()
                .only(binding)
                .only_version(version)
                .timeout(LIMIT)
                .observer(move |observed: Observed| log.lock().unwrap().push(observed));
            let client = A2aClient::connect(&serving.base_url(), config)
                .await
                .unwrap();
            assert_eq!(client.protocol_version(), version, "{context}");

            client.send_message(request("unary")).await.unwrap();
            let unary: Vec<Observed> = std::mem::take(&mut *seen.lock().unwrap());
            assert!(
                unary.iter().all(|r| r.binding == binding),
                "{context}: {unary:#?}"
            );
            check_exchange(&unary, "unary", "yranu", &context);

            let mut stream = client
                .send_streaming_message(request("streamed"))
                .await
                .unwrap();
            let mut events = 0;
            while let Some(event) = tokio::time::timeout(LIMIT, stream.next()).await.unwrap() {
                if let StreamResponse::Task(_) | StreamResponse::StatusUpdate(_) = event.unwrap() {
                    events += 1;
                }
            }
            assert!(events > 0, "{context}");
            let streamed: Vec<Observed> = std::mem::take(&mut *seen.lock().unwrap());
            let parts = check_exchange(&streamed, "streamed", "demaerts", &context);
            assert!(parts >= 2, "{context}: the stream in {parts} part(s)");
            assert_ne!(streamed[0].exchange, unary[0].exchange, "{context}");
        }
    }
}
