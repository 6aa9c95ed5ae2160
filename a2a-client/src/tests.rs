//! The client's own tests, no Python needed: binding choice from a card, and each transport against a
//! loopback socket that answers one canned HTTP response per connection (errors of every shape, a
//! stream that fails midway, unreadable answers, a port nobody listens on). The full protocol runs
//! against the SDK's server in `a2a-testkit/tests/sdk_server.rs`.

use std::sync::{Arc, Mutex};

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::MethodParams;
use a2a_protocol::sse;
use a2a_types::v1::{
    AgentCard, AgentInterface, GetTaskRequest, StreamResponse, SubscribeToTaskRequest, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::*;

/// A loopback server answering every connection with `response` (a whole HTTP/1.1 response) and
/// recording each request it read.
struct Canned {
    base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

async fn canned(response: String) -> Canned {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buffer = [0u8; 4096];
            // Read the head, then as much body as Content-Length says.
            while let Ok(n @ 1..) = socket.read(&mut buffer).await {
                request.extend_from_slice(&buffer[..n]);
                let text = String::from_utf8_lossy(&request).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            seen.lock()
                .expect("lock")
                .push(String::from_utf8_lossy(&request).to_string());
            let _ = socket.write_all(response.as_bytes()).await;
            let _ = socket.shutdown().await;
        }
    });
    Canned { base, requests }
}

fn http_response(status: &str, content_type: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// An event-stream response without a length: the body ends when the connection closes.
fn sse_response(body: &str) -> String {
    format!("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{body}")
}

/// A card with only what the client reads: its interfaces (the client does not judge the rest).
fn card_with(interfaces: &[(&str, &str, &str)]) -> AgentCard {
    AgentCard {
        name: "Canned".into(),
        supported_interfaces: interfaces
            .iter()
            .map(|(url, binding, version)| AgentInterface::new(*url, *binding, *version))
            .collect(),
        ..Default::default()
    }
}

fn card_for(url: &str, protocol_binding: &str) -> AgentCard {
    card_with(&[(url, protocol_binding, "1.0")])
}

fn client(url: &str, binding: Binding) -> A2aClient {
    let config = ClientConfig::default().bearer_token("t0k");
    A2aClient::from_card(card_for(url, binding.protocol_binding()), config).expect("a client")
}

fn get_task(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        history_length: Some(2),
        ..Default::default()
    }
}

#[test]
fn the_first_preferred_binding_the_card_offers_for_v1_is_chosen() {
    let card = card_with(&[
        ("http://h/v03", "JSONRPC", "0.3"),
        ("h:50051", "GRPC", "1.0"),
        ("http://h/rest", "HTTP+JSON", "1.0"),
        ("http://h/rpc", "JSONRPC", "1.0"),
    ]);
    let (binding, interface) = choose_interface(&card, &Binding::ALL).expect("a choice");
    assert_eq!(
        (binding, interface.url.as_str()),
        (Binding::JsonRpc, "http://h/rpc")
    );
    let (binding, interface) =
        choose_interface(&card, &[Binding::Grpc, Binding::JsonRpc]).expect("a choice");
    assert_eq!(
        (binding, interface.url.as_str()),
        (Binding::Grpc, "h:50051")
    );

    let old = card_with(&[("http://h/v03", "JSONRPC", "0.3")]);
    let error = choose_interface(&old, &Binding::ALL).unwrap_err();
    assert!(
        matches!(&error, ClientError::NoSupportedInterface { offered } if offered == &["JSONRPC 0.3"]),
        "{error}"
    );
}

#[test]
fn a_v0_3_card_ranks_its_interfaces_by_its_preferred_transport() {
    use crate::card::candidates;
    use a2a_compat::bridge::AnyAgentCard;
    use a2a_protocol::service::ProtocolVersion;
    // As the SDK 0.3 writes a card: the preferred interface at `url`, and again among the others.
    let card = AnyAgentCard::from_json(serde_json::json!({
        "name": "v0.3 agent", "description": "", "version": "1", "protocolVersion": "0.3.0",
        "url": "h:50051", "preferredTransport": "GRPC",
        "additionalInterfaces": [
            {"url": "http://h/rpc", "transport": "JSONRPC"},
            {"url": "http://h/rest", "transport": "HTTP+JSON"},
            {"url": "h:50051", "transport": "GRPC"}
        ],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []
    }))
    .expect("a v0.3 card")
    .into_v1();
    let ranked = |preference: &[Binding]| -> Vec<(Binding, String)> {
        candidates(
            &card,
            preference,
            &[ProtocolVersion::V1_0, ProtocolVersion::V0_3],
        )
        .into_iter()
        .map(|c| (c.binding, c.interface.url))
        .collect()
    };
    assert_eq!(
        ranked(&Binding::ALL),
        [
            (Binding::Grpc, "h:50051".to_owned()),
            (Binding::JsonRpc, "http://h/rpc".to_owned()),
            (Binding::HttpJson, "http://h/rest".to_owned()),
        ]
    );
    // The configured preference leaves bindings out; it does not reorder the agent's choice.
    assert_eq!(
        ranked(&[Binding::HttpJson, Binding::JsonRpc]),
        [
            (Binding::JsonRpc, "http://h/rpc".to_owned()),
            (Binding::HttpJson, "http://h/rest".to_owned()),
        ]
    );
}

#[test]
fn bindings_read_from_their_names() {
    for binding in Binding::ALL {
        assert_eq!(
            Binding::from_protocol_binding(binding.protocol_binding()),
            Some(binding)
        );
        assert_eq!(binding.to_string().parse::<Binding>(), Ok(binding));
    }
    assert_eq!("rest".parse::<Binding>(), Ok(Binding::HttpJson));
    assert!("soap".parse::<Binding>().unwrap_err().contains("soap"));
}

#[tokio::test]
async fn a_jsonrpc_error_is_typed_and_the_service_parameters_are_sent() {
    let error = Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", "t-1");
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": error.to_jsonrpc()});
    let server = canned(http_response(
        "200 OK",
        "application/json",
        &body.to_string(),
    ))
    .await;
    let client = client(&format!("{}/rpc", server.base), Binding::JsonRpc);
    let failure = client.get_task(get_task("t-1")).await.unwrap_err();
    assert_eq!(
        failure.a2a_kind(),
        Some(ErrorKind::TaskNotFound),
        "{failure}"
    );
    assert_eq!(
        failure.a2a_error().map(|e| &e.metadata["taskId"]),
        Some(&"t-1".into())
    );
    let request = server.requests.lock().expect("lock")[0].to_ascii_lowercase();
    assert!(request.starts_with("post /rpc http/1.1"), "{request}");
    assert!(request.contains("\r\na2a-version: 1.0\r\n"), "{request}");
    assert!(
        request.contains("\r\nauthorization: bearer t0k\r\n"),
        "{request}"
    );
    assert!(request.contains(r#""method":"gettask""#), "{request}");
}

#[tokio::test]
async fn an_http_json_error_body_is_the_same_error_kind() {
    let body = Error::new(ErrorKind::TaskNotFound).to_rest().to_string();
    let server = canned(http_response("404 Not Found", "application/json", &body)).await;
    let client = client(&format!("{}/base", server.base), Binding::HttpJson);
    let failure = client.get_task(get_task("t 1")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::A2a { binding: Binding::HttpJson, error } if error.kind == ErrorKind::TaskNotFound),
        "{failure}"
    );
    let request = server.requests.lock().expect("lock")[0].clone();
    assert!(
        request.starts_with("GET /base/tasks/t%201?historyLength=2 HTTP/1.1"),
        "{request}"
    );
}

#[tokio::test]
async fn an_http_status_without_an_a2a_body_is_a_transport_error() {
    let server = canned(http_response(
        "502 Bad Gateway",
        "text/plain",
        "upstream down",
    ))
    .await;
    let client = client(&server.base, Binding::HttpJson);
    let failure = client.get_task(get_task("t-1")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::Transport { message, .. } if message.contains("502")),
        "{failure}"
    );
}

#[tokio::test]
async fn a_result_of_the_wrong_shape_names_the_field() {
    let body = r#"{"jsonrpc": "2.0", "id": 1, "result": {"id": 7, "status": {"state": "TASK_STATE_WORKING"}}}"#;
    let server = canned(http_response("200 OK", "application/json", body)).await;
    let client = client(&server.base, Binding::JsonRpc);
    let failure = client.get_task(get_task("t-1")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::InvalidResponse { message, .. } if message.contains("result.id")),
        "{failure}"
    );
}

#[tokio::test]
async fn an_error_event_ends_a_stream_with_the_typed_error() {
    let update = StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
        "t-1",
        "c-1",
        TaskStatus::now(TaskState::Working),
    ));
    let mut body = sse::encode_stream_response(&update).expect("encode");
    body.push_str(
        &sse::encode_json_error(&Error::new(ErrorKind::TaskNotFound).to_rest()).expect("encode"),
    );
    let server = canned(sse_response(&body)).await;
    let client = client(&server.base, Binding::HttpJson);
    let request = SubscribeToTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    };
    let mut stream = client.subscribe_to_task(request).await.expect("a stream");
    assert_eq!(
        stream.next().await.expect("an event").expect("data"),
        update
    );
    let failure = stream.next().await.expect("the error").unwrap_err();
    assert_eq!(
        failure.a2a_kind(),
        Some(ErrorKind::TaskNotFound),
        "{failure}"
    );
    assert!(stream.next().await.is_none());
    let request = server.requests.lock().expect("lock")[0].to_ascii_lowercase();
    assert!(
        request.contains("\r\naccept: text/event-stream\r\n"),
        "{request}"
    );
}

#[tokio::test]
async fn a_stream_refused_before_it_starts_is_the_typed_error() {
    let error = Error::new(ErrorKind::UnsupportedOperation);
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": error.to_jsonrpc()});
    let server = canned(http_response(
        "200 OK",
        "application/json",
        &body.to_string(),
    ))
    .await;
    let client = client(&server.base, Binding::JsonRpc);
    let request = SubscribeToTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    };
    let failure = client.subscribe_to_task(request).await.unwrap_err();
    assert_eq!(
        failure.a2a_kind(),
        Some(ErrorKind::UnsupportedOperation),
        "{failure}"
    );
}

#[tokio::test]
async fn a_truncated_stream_is_resubscribed_then_reported_as_not_resumable() {
    let server = canned(sse_response("data: {\"jsonrpc\": \"2.0\", \"id\": 1, ")).await;
    let client = client(&server.base, Binding::JsonRpc);
    let request = SubscribeToTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    };
    let stream = client.subscribe_to_task(request).await.expect("a stream");
    let failure = stream.collect().await.unwrap_err();
    let ClientError::NotResumable { cause, reason, .. } = &failure else {
        panic!("{failure}")
    };
    assert!(
        matches!(**cause, ClientError::InvalidResponse { .. }),
        "{failure}"
    );
    assert!(
        reason.contains("3 resubscriptions to task t-1 failed"),
        "{failure}"
    );
    // The first request and three resubscriptions, each to the task's stream.
    let requests = server.requests.lock().expect("lock").clone();
    assert_eq!(requests.len(), 4, "{requests:?}");
    assert!(requests.iter().all(|r| r.contains("\"SubscribeToTask\"")));
}

#[tokio::test]
async fn nobody_listening_is_unreachable_on_every_binding() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    for binding in Binding::ALL {
        let url = match binding {
            Binding::Grpc => address.to_string(),
            _ => format!("http://{address}"),
        };
        let failure = client(&url, binding)
            .get_task(get_task("t-1"))
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::Unreachable { binding: Some(b), .. } if *b == binding),
            "{binding}: {failure}"
        );
    }
}

#[tokio::test]
async fn streaming_and_unary_operations_are_not_mixed_up() {
    let client = client("http://127.0.0.1:9", Binding::JsonRpc);
    let subscribe = MethodParams::SubscribeToTask(SubscribeToTaskRequest::default());
    assert!(matches!(
        client.call(subscribe).await,
        Err(ClientError::InvalidRequest { .. })
    ));
    let get = MethodParams::GetTask(GetTaskRequest::default());
    assert!(matches!(
        client.stream(get).await,
        Err(ClientError::InvalidRequest { .. })
    ));
}

/// A v0.2 card at `url`, declaring an extended card or not, as the client reads it.
fn v0_2_card(url: &str, extended: bool) -> AgentCard {
    let json = serde_json::json!({
        "name": "v0.2", "description": "d", "url": url, "version": "1",
        "protocolVersion": "0.2.6", "capabilities": {},
        "supportsAuthenticatedExtendedCard": extended,
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [],
    });
    crate::card::read_card_json(json).expect("a v0.2 card").0
}

#[tokio::test]
async fn a_v0_2_extended_card_is_a_get_beside_the_card_url_with_the_credentials() {
    let extended = serde_json::json!({
        "name": "v0.2 extended", "description": "d", "url": "http://h/a2a/v1", "version": "1",
        "protocolVersion": "0.2.6", "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "more", "name": "More", "description": "m", "tags": []}],
    });
    let server = canned(http_response(
        "200 OK",
        "application/json",
        &extended.to_string(),
    ))
    .await;
    let url = format!("{}/a2a/v1", server.base);
    let config = ClientConfig::default().bearer_token("t0k");
    let refused = A2aClient::from_card(v0_2_card(&url, false), config.clone())
        .expect("a client")
        .get_extended_agent_card(Default::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, ClientError::NotConvertible { message }
            if message.contains("GetExtendedAgentCard has no A2A v0.2 counterpart")),
        "{refused}"
    );
    assert!(server.requests.lock().expect("lock").is_empty());

    let card = A2aClient::from_card(v0_2_card(&url, true), config)
        .expect("a client")
        .get_extended_agent_card(Default::default())
        .await
        .expect("the extended card");
    assert_eq!(
        (card.name.as_str(), card.skills[0].id.as_str()),
        ("v0.2 extended", "more")
    );
    let request = server.requests.lock().expect("lock")[0].to_ascii_lowercase();
    assert!(
        request.starts_with("get /a2a/agent/authenticatedextendedcard http/1.1"),
        "{request}"
    );
    assert!(
        request.contains("\r\nauthorization: bearer t0k\r\n"),
        "{request}"
    );
}
