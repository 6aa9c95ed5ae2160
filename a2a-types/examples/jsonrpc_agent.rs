//! A small A2A agent speaking the JSON-RPC binding over HTTP: its card at the well-known path,
//! `SendMessage`, `GetTask`, `ListTasks`, `CancelTask`, `SendStreamingMessage` as server-sent events,
//! JSON-RPC errors, and the `A2A-Version` check. The agent itself (the handler logic) keeps tasks in
//! memory and echoes what it is told; everything between the `protocol glue` markers is what it takes
//! to put it on the wire with `a2a_types::{jsonrpc, sse, errors, service, operations}` and axum.
//!
//! ```sh
//! cargo run -p a2a-spec-types --example jsonrpc_agent -- --listen 127.0.0.1:8000
//! cargo run -p a2a-spec-types --example jsonrpc_agent -- --self-test   # start on a free port, drive it, exit
//! ```
//!
//! `--self-test` (also the example's `#[test]`, so `cargo test` runs it) talks to the agent through a
//! plain TCP socket, prints each exchange, and fails on any unexpected answer.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::errors::{Error, ErrorKind};
use a2a_types::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse, MethodParams, MethodResult};
use a2a_types::operations::Operation;
use a2a_types::service::{
    A2A_VERSION_HEADER, MEDIA_TYPE_EVENT_STREAM, MEDIA_TYPE_JSON, ProtocolVersion,
    WELL_KNOWN_AGENT_CARD_PATH,
};
use a2a_types::sse::{self, JsonDecoder, StreamItem};
use a2a_types::v1::{
    AgentCard, AgentSkill, Artifact, CancelTaskRequest, GetTaskRequest, ListTasksRequest,
    ListTasksResponse, Message, Part, SendMessageRequest, SendMessageResponse, StreamResponse,
    Task, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;

// --- handler logic: the agent, which knows nothing of JSON-RPC, HTTP or SSE ---

/// An agent that echoes messages back as tasks, kept in memory.
struct EchoAgent {
    card: AgentCard,
    tasks: Mutex<Vec<Task>>,
}

impl EchoAgent {
    fn new(url: &str) -> Self {
        let card = AgentCard::builder("Echo", "Repeats what it is told, as a task.", "1.0.0")
            .jsonrpc(url)
            .streaming(true)
            .default_input_modes(["text/plain"])
            .default_output_modes(["text/plain"])
            .skill(AgentSkill {
                id: "echo".into(),
                name: "Echo".into(),
                description: "Answers with the text it was sent.".into(),
                tags: vec!["demo".into()],
                ..Default::default()
            })
            .build()
            .expect("a valid card");
        EchoAgent {
            card,
            tasks: Mutex::new(Vec::new()),
        }
    }

    fn new_task(&self, message: &Message, state: TaskState) -> Task {
        let mut tasks = self.tasks.lock().unwrap();
        let context_id = message.context_id.clone().unwrap_or_else(|| "ctx-1".into());
        let mut task = Task::new(
            format!("task-{}", tasks.len() + 1),
            context_id,
            TaskStatus::now(state),
        );
        task.history.push(message.clone());
        tasks.push(task.clone());
        task
    }

    fn update(&self, task: &Task) {
        let mut tasks = self.tasks.lock().unwrap();
        if let Some(stored) = tasks.iter_mut().find(|t| t.id == task.id) {
            *stored = task.clone();
        }
    }

    fn send(&self, request: SendMessageRequest) -> Result<SendMessageResponse, Error> {
        let text = request.message.text();
        let mut task = self.new_task(&request.message, TaskState::Completed);
        task = task.artifact(Artifact::new(
            "echo",
            [Part::text(format!("You said: {text}"))],
        ));
        self.update(&task);
        Ok(SendMessageResponse::Task(task))
    }

    fn get_task(&self, request: &GetTaskRequest) -> Result<Task, Error> {
        let tasks = self.tasks.lock().unwrap();
        tasks
            .iter()
            .find(|task| task.id == request.id)
            .cloned()
            .ok_or_else(|| {
                Error::with_message(ErrorKind::TaskNotFound, format!("no task {}", request.id))
                    .with_metadata("taskId", request.id.clone())
            })
    }

    fn list_tasks(&self, request: &ListTasksRequest) -> ListTasksResponse {
        let tasks = self.tasks.lock().unwrap();
        let tasks: Vec<Task> = tasks
            .iter()
            .filter(|task| request.context_id.is_none() || task.context_id == request.context_id)
            .cloned()
            .collect();
        ListTasksResponse {
            page_size: tasks.len() as i32,
            total_size: tasks.len() as i32,
            tasks,
            ..Default::default()
        }
    }

    fn cancel(&self, request: &CancelTaskRequest) -> Result<Task, Error> {
        let mut task = self.get_task(&GetTaskRequest {
            id: request.id.clone(),
            ..Default::default()
        })?;
        if task.status.state.is_terminal() {
            return Err(Error::with_message(
                ErrorKind::TaskNotCancelable,
                format!("task {} is already {:?}", task.id, task.status.state),
            ));
        }
        task.status = TaskStatus::now(TaskState::Canceled);
        self.update(&task);
        Ok(task)
    }

    /// Streams the work on a message: the task, then the echo word by word, then completion.
    async fn stream(
        self: Arc<Self>,
        request: SendMessageRequest,
        events: mpsc::Sender<StreamResponse>,
    ) {
        let task = self.new_task(&request.message, TaskState::Working);
        let context_id = task.context_id.clone().unwrap_or_default();
        let _ = events.send(StreamResponse::Task(task.clone())).await;
        for (index, word) in request.message.text().split_whitespace().enumerate() {
            tokio::time::sleep(Duration::from_millis(5)).await;
            let piece = Artifact::new("echo", [Part::text(format!("{word} "))]);
            let update =
                TaskArtifactUpdateEvent::new(&task.id, &context_id, piece).append(index > 0);
            if events
                .send(StreamResponse::ArtifactUpdate(update))
                .await
                .is_err()
            {
                return; // the client went away
            }
        }
        let done = TaskStatusUpdateEvent::new(
            &task.id,
            &context_id,
            TaskStatus::now(TaskState::Completed),
        );
        let _ = events.send(StreamResponse::StatusUpdate(done)).await;
        let mut finished = task;
        finished.status = TaskStatus::now(TaskState::Completed);
        self.update(&finished);
    }
}

// --- protocol glue ---

fn router(agent: Arc<EchoAgent>) -> Router {
    Router::new()
        .route(WELL_KNOWN_AGENT_CARD_PATH, get(agent_card))
        .route("/", post(rpc))
        .with_state(agent)
}

async fn agent_card(State(agent): State<Arc<EchoAgent>>) -> Response {
    let card = serde_json::to_string(&agent.card).expect("a card serializes");
    ([(CONTENT_TYPE, MEDIA_TYPE_JSON)], card).into_response()
}

fn respond(response: JsonRpcResponse) -> Response {
    let body = response.to_json().to_string();
    ([(CONTENT_TYPE, MEDIA_TYPE_JSON)], body).into_response()
}

async fn rpc(State(agent): State<Arc<EchoAgent>>, headers: HeaderMap, body: Bytes) -> Response {
    let version = headers
        .get(A2A_VERSION_HEADER)
        .map(|v| v.to_str().unwrap_or("?"));
    let outcome = handle(agent, version, &body);
    outcome.unwrap_or_else(|(id, error)| respond(JsonRpcResponse::error(id, error)))
}

/// Why a request failed, with its id when it could be read.
type Failure = (Option<Id>, Error);

// A failure is answered at once; its size costs nothing worth a box.
#[allow(clippy::result_large_err)]
fn handle(agent: Arc<EchoAgent>, version: Option<&str>, body: &[u8]) -> Result<Response, Failure> {
    let json = serde_json::from_slice(body).map_err(|e| e.to_string());
    let json: Value = json.map_err(|e| (None, Error::with_message(ErrorKind::JsonParse, e)))?;
    let request = JsonRpcRequest::parse(&json).map_err(|e| (e.id.clone(), e.to_error()))?;
    let id = request.id.clone();
    let fail = |error: Error| (id.clone(), error);
    let asked = ProtocolVersion::from_header(version);
    if !asked.is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0)) {
        return Err(fail(Error::new(ErrorKind::VersionNotSupported)));
    }
    let capabilities = &agent.card.capabilities;
    let capable = request.params.operation().check_capabilities(capabilities);
    capable.map_err(|kind| fail(Error::new(kind)))?;
    let result = match request.params {
        MethodParams::SendStreamingMessage(params) => return Ok(stream(id, agent, params)),
        MethodParams::SendMessage(params) => agent.send(params).map(MethodResult::SendMessage),
        MethodParams::GetTask(params) => agent.get_task(&params).map(MethodResult::GetTask),
        MethodParams::ListTasks(params) => Ok(MethodResult::ListTasks(agent.list_tasks(&params))),
        MethodParams::CancelTask(params) => agent.cancel(&params).map(MethodResult::CancelTask),
        _ => Err(Error::new(ErrorKind::UnsupportedOperation)),
    };
    let result = result.map_err(fail)?;
    let id = id.unwrap_or(Id::Null);
    Ok(respond(JsonRpcResponse::result(id, result)))
}

/// Each event the agent produces becomes one SSE event holding a whole JSON-RPC response.
fn stream(id: Option<Id>, agent: Arc<EchoAgent>, params: SendMessageRequest) -> Response {
    let (events, received) = mpsc::channel(16);
    tokio::spawn(agent.stream(params, events));
    let id = id.unwrap_or(Id::Null);
    let body = ReceiverStream::new(received).map(move |event| {
        let event = MethodResult::SendStreamingMessage(event);
        sse::encode_json(&JsonRpcResponse::result(id.clone(), event).to_json())
    });
    let headers = [(CONTENT_TYPE, MEDIA_TYPE_EVENT_STREAM)];
    (headers, Body::from_stream(body)).into_response()
}

// --- end of protocol glue ---

async fn serve(listener: tokio::net::TcpListener) {
    let url = format!(
        "http://{}/",
        listener.local_addr().expect("a bound listener")
    );
    let agent = Arc::new(EchoAgent::new(&url));
    axum::serve(listener, router(agent))
        .await
        .expect("the server runs");
}

/// One HTTP/1.0 exchange over a plain socket: the status line, the content type and the body.
async fn exchange(
    address: SocketAddr,
    method: &str,
    path: &str,
    version: Option<&str>,
    body: &str,
) -> std::io::Result<(String, String, String)> {
    let mut socket = tokio::net::TcpStream::connect(address).await?;
    let version = version
        .map(|v| format!("{A2A_VERSION_HEADER}: {v}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {address}\r\nContent-Type: {MEDIA_TYPE_JSON}\r\n\
         Content-Length: {}\r\n{version}\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    socket.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.lines().next().unwrap_or_default().to_owned();
    let content_type = head
        .lines()
        .find_map(|line| {
            line.to_ascii_lowercase()
                .strip_prefix("content-type:")
                .map(|v| v.trim().to_owned())
        })
        .unwrap_or_default();
    Ok((status, content_type, body.to_owned()))
}

/// Calls one method and returns its typed response, printing the exchange.
async fn call(
    address: SocketAddr,
    version: Option<&str>,
    request: Value,
) -> Result<JsonRpcResponse, String> {
    println!(
        ">>> POST / {}\n{request}",
        version
            .map(|v| format!("({A2A_VERSION_HEADER}: {v})"))
            .unwrap_or_default()
    );
    let (status, content_type, body) =
        exchange(address, "POST", "/", version, &request.to_string())
            .await
            .map_err(|e| e.to_string())?;
    println!("<<< {status} {content_type}\n{body}\n");
    let method = request["method"].as_str().unwrap_or_default();
    let operation = Operation::from_jsonrpc_method(method).ok_or(format!("no method {method}"))?;
    let body: Value = serde_json::from_str(&body).map_err(|e| format!("not JSON: {e}"))?;
    JsonRpcResponse::parse(&body, operation).map_err(|e| e.to_string())
}

fn expect(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("unexpected answer: {what}"))
    }
}

fn failure(response: &JsonRpcResponse) -> Option<ErrorKind> {
    response.outcome.as_ref().err().map(|error| error.kind)
}

/// Starts the agent on a free port of 127.0.0.1 and drives it through every feature.
async fn self_test() -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let server = tokio::spawn(serve(listener));
    let v1 = Some("1.0");

    println!(">>> GET {WELL_KNOWN_AGENT_CARD_PATH}");
    let (status, _, body) = exchange(address, "GET", WELL_KNOWN_AGENT_CARD_PATH, None, "")
        .await
        .map_err(|e| e.to_string())?;
    println!("<<< {status}\n{body}\n");
    let card: AgentCard = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    expect(
        card.name == "Echo" && card.capabilities.streaming == Some(true),
        "the card",
    )?;

    let message = json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Book a table for two"}]});
    let sent = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}}),
    )
    .await?;
    let Ok(MethodResult::SendMessage(SendMessageResponse::Task(task))) = &sent.outcome else {
        return Err(format!("SendMessage answered {sent:?}"));
    };
    expect(
        task.artifacts[0].text() == "You said: Book a table for two",
        "the echo",
    )?;

    let got = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": "g", "method": "GetTask", "params": {"id": task.id}}),
    )
    .await?;
    expect(
        matches!(&got.outcome, Ok(MethodResult::GetTask(t)) if t == task)
            && got.id == Id::from("g"),
        "GetTask",
    )?;
    let listed = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": 3, "method": "ListTasks", "params": {}}),
    )
    .await?;
    expect(
        matches!(&listed.outcome, Ok(MethodResult::ListTasks(l)) if l.tasks.len() == 1),
        "ListTasks",
    )?;
    let cancel = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": 4, "method": "CancelTask", "params": {"id": task.id}}),
    )
    .await?;
    expect(
        failure(&cancel) == Some(ErrorKind::TaskNotCancelable),
        "CancelTask of a completed task",
    )?;
    let missing = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": 5, "method": "GetTask", "params": {"id": "nope"}}),
    )
    .await?;
    expect(
        failure(&missing) == Some(ErrorKind::TaskNotFound),
        "GetTask of a missing task",
    )?;
    let old = call(
        address,
        None,
        json!({"jsonrpc": "2.0", "id": 6, "method": "GetTask", "params": {"id": task.id}}),
    )
    .await?;
    expect(
        failure(&old) == Some(ErrorKind::VersionNotSupported),
        "no A2A-Version",
    )?;
    let invalid = call(
        address,
        v1,
        json!({"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": 42}}),
    )
    .await?;
    expect(
        failure(&invalid) == Some(ErrorKind::InvalidParams),
        "invalid params",
    )?;
    let push = call(address, v1, json!({"jsonrpc": "2.0", "id": 8, "method": "GetTaskPushNotificationConfig", "params": {"taskId": task.id, "id": "p"}})).await?;
    expect(
        failure(&push) == Some(ErrorKind::PushNotificationNotSupported),
        "push notifications",
    )?;

    let request = json!({"jsonrpc": "2.0", "id": 9, "method": "SendStreamingMessage", "params": {"message": message}});
    println!(">>> POST / ({A2A_VERSION_HEADER}: 1.0)\n{request}");
    let (status, content_type, body) = exchange(address, "POST", "/", v1, &request.to_string())
        .await
        .map_err(|e| e.to_string())?;
    println!("<<< {status} {content_type}\n{body}");
    expect(
        content_type.starts_with(MEDIA_TYPE_EVENT_STREAM),
        "the stream's content type",
    )?;
    let mut decoder = JsonDecoder::<Value>::new();
    let mut events = Vec::new();
    for item in decoder.feed(body.as_bytes()) {
        match item.map_err(|e| e.to_string())? {
            StreamItem::Data(response) => {
                let response = JsonRpcResponse::parse(&response, Operation::SendStreamingMessage);
                match response.map_err(|e| e.to_string())?.outcome {
                    Ok(MethodResult::SendStreamingMessage(event)) => events.push(event),
                    other => return Err(format!("the stream held {other:?}")),
                }
            }
            StreamItem::Error(error) => return Err(format!("the stream failed: {error}")),
        }
    }
    decoder.finish().map_err(|e| e.to_string())?;
    expect(
        matches!(events.first(), Some(StreamResponse::Task(_))),
        "the stream starts with the task",
    )?;
    expect(events.len() == 7, "a task, five words and the final status")?;
    expect(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "the stream ends completed",
    )?;
    server.abort();
    println!(
        "self-test passed: card, 8 calls and a stream of {} events",
        events.len()
    );
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["--self-test"] => match tokio::time::timeout(Duration::from_secs(20), self_test()).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => fail(&error),
            Err(_) => fail("timed out after 20 s"),
        },
        ["--listen", address] => {
            let address: SocketAddr = address
                .parse()
                .unwrap_or_else(|e| fail(&format!("--listen {address}: {e}")));
            if !address.ip().is_loopback() {
                fail("this demo listens on a loopback address only, such as 127.0.0.1:8000");
            }
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .unwrap_or_else(|e| fail(&e.to_string()));
            println!("listening on http://{address}/ (card at {WELL_KNOWN_AGENT_CARD_PATH})");
            serve(listener).await;
        }
        _ => fail("usage: jsonrpc_agent --listen 127.0.0.1:PORT | --self-test"),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

#[test]
fn self_test_passes() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime
        .block_on(async { tokio::time::timeout(Duration::from_secs(20), self_test()).await });
    assert_eq!(outcome.expect("the self-test finishes within 20 s"), Ok(()));
}
