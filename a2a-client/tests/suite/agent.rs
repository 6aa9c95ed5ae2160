//! A scriptable loopback agent for the tests: an axum server on 127.0.0.1 that records every request
//! and answers each with what the test's handler returns, its card pointing back at itself.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// One request as the agent saw it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: Value,
    /// The body as text (a form, say, where `body` is JSON's null).
    pub text: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// What the handler is given: the request, its index among all requests, and the agent's base URL.
pub type Handler = dyn Fn(&Recorded, usize, &str) -> Response + Send + Sync;

#[derive(Clone)]
struct Shared {
    handler: Arc<Handler>,
    requests: Arc<Mutex<Vec<Recorded>>>,
    base: String,
}

/// A running agent; the server task is aborted when it is dropped.
pub struct FakeAgent {
    pub base: String,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeAgent {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeAgent {
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }

    /// The requests to anything but the card.
    pub fn calls(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| !r.path.starts_with("/.well-known/"))
            .collect()
    }
}

pub async fn serve(
    handler: impl Fn(&Recorded, usize, &str) -> Response + Send + Sync + 'static,
) -> FakeAgent {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let shared = Shared {
        handler: Arc::new(handler),
        requests: requests.clone(),
        base: base.clone(),
    };
    let app = Router::new().fallback(answer).with_state(shared);
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    FakeAgent {
        base,
        requests,
        task,
    }
}

async fn answer(State(shared): State<Shared>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let recorded = Recorded {
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or_default().to_owned(),
        headers: parts.headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    };
    let index = {
        let mut requests = shared.requests.lock().expect("lock");
        requests.push(recorded.clone());
        requests.len() - 1
    };
    (shared.handler)(&recorded, index, &shared.base)
}

/// A v1 card with one interface per `(path, binding)` under `base`.
pub fn card(base: &str, interfaces: &[(&str, &str)]) -> Value {
    json!({
        "name": "Test agent",
        "description": "Answers what the test says",
        "version": "1.0.0",
        "supportedInterfaces": interfaces.iter().map(|(path, binding)| json!({
            "url": format!("{base}{path}"), "protocolBinding": binding, "protocolVersion": "1.0"
        })).collect::<Vec<_>>(),
        "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": []
    })
}

pub fn json_response(status: u16, body: &Value) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("response")
}

pub fn with_header(mut response: Response, name: &'static str, value: &str) -> Response {
    response
        .headers_mut()
        .insert(name, HeaderValue::from_str(value).expect("header value"));
    response
}

pub fn status_only(status: u16) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).expect("status"))
        .body(Body::empty())
        .expect("response")
}

/// A JSON-RPC success response echoing the request's id.
pub fn rpc_result(request: &Recorded, result: Value) -> Response {
    json_response(
        200,
        &json!({"jsonrpc": "2.0", "id": request.body["id"], "result": result}),
    )
}

/// A task as ProtoJSON.
pub fn task(id: &str, state: &str) -> Value {
    json!({"id": id, "contextId": "ctx-1", "status": {"state": state}})
}

/// One chunk of a server-sent event stream, or the connection breaking.
pub enum Chunk {
    Text(String),
    /// Ends the body with an error: the connection is cut without finishing the response.
    Break,
    /// Keeps the connection open without sending anything (until the client goes).
    Hang,
    /// Sends the text again and again, forever (until the client goes).
    Forever(String),
}

/// An event-stream response sending `chunks` in order; after the last one the stream ends cleanly
/// unless a chunk said otherwise.
pub fn sse(chunks: Vec<Chunk>) -> Response {
    streamed(200, "text/event-stream", chunks)
}

/// A response of any status and content type whose body is sent as `chunks`.
pub fn streamed(status: u16, content_type: &str, chunks: Vec<Chunk>) -> Response {
    let (sender, receiver) = mpsc::channel::<Result<Bytes, std::io::Error>>(1);
    tokio::spawn(async move {
        for chunk in chunks {
            match chunk {
                Chunk::Text(text) => {
                    if sender.send(Ok(Bytes::from(text))).await.is_err() {
                        return;
                    }
                }
                Chunk::Break => {
                    let _ = sender
                        .send(Err(std::io::Error::other("cut by the test")))
                        .await;
                    return;
                }
                Chunk::Hang => {
                    sender.closed().await;
                    return;
                }
                Chunk::Forever(text) => loop {
                    if sender.send(Ok(Bytes::from(text.clone()))).await.is_err() {
                        return;
                    }
                    tokio::task::yield_now().await;
                },
            }
        }
    });
    Response::builder()
        .status(status)
        .header("content-type", content_type)
        .body(Body::from_stream(ReceiverStream::new(receiver)))
        .expect("response")
}

/// One SSE event whose data is a JSON-RPC result, with an optional event id.
pub fn rpc_event(request: &Recorded, id: Option<&str>, result: Value) -> Chunk {
    let data = json!({"jsonrpc": "2.0", "id": request.body["id"], "result": result});
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    Chunk::Text(format!("{id}data: {data}\n\n"))
}

/// [`card`] as the typed card.
pub fn v1_card(base: &str, interfaces: &[(&str, &str)]) -> a2a_types::v1::AgentCard {
    serde_json::from_value(card(base, interfaces)).expect("a valid card")
}

/// Serves one tonic service (a fake gRPC agent) on a new port of 127.0.0.1; its address, and the
/// task serving it (aborted by the test when done).
pub async fn serve_grpc<S>(service: S) -> (String, tokio::task::JoinHandle<()>)
where
    S: tonic::codegen::Service<
            tonic::codegen::http::Request<tonic::body::Body>,
            Response = tonic::codegen::http::Response<tonic::body::Body>,
            Error = std::convert::Infallible,
        > + tonic::server::NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    let task = tokio::spawn(async move {
        let _ = tonic::transport::Server::builder()
            .add_service(service)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener))
            .await;
    });
    (address, task)
}
