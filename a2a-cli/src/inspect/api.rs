//! The inspector's HTTP server: the page and its assets, and the small JSON API the page calls:
//! `POST /api/card` (the card, its checks and interfaces), `POST /api/chat` (a message sent, the
//! answer streamed back as server-sent events), `POST /api/tasks` (the agent's tasks), `GET
//! /api/exchange?after=N` (the raw exchange). Each request passes the [`guard`](super::guard) first.

use std::sync::Arc;

use a2a_client::card::candidates;
use a2a_client::{A2aClient, Binding, CardResolver, ClientError};
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    GetTaskRequest, ListTasksRequest, Message, Part, SendMessageRequest, SendMessageResponse,
    StreamResponse,
};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::guard::{Guard, Refused};
use super::page;
use super::state::{ClientKey, Inspector};

type Shared = State<Arc<Inspector>>;

/// The server's routes.
pub fn router(inspector: Arc<Inspector>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/{asset}", get(asset))
        .route("/api/config", get(config))
        .route("/api/card", post(card))
        .route("/api/chat", post(chat))
        .route("/api/tasks", post(tasks))
        .route("/api/exchange", get(exchange))
        .with_state(inspector)
}

fn guard(inspector: &Inspector) -> Guard<'_> {
    Guard {
        port: inspector.address.port(),
        token: &inspector.token,
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.status, self.reason).into_response()
    }
}

/// A failed API request: its status and a one-line message for the page (as `{"error": …}`).
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad_request(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

impl From<Refused> for ApiError {
    fn from(refused: Refused) -> Self {
        ApiError {
            status: refused.status,
            message: refused.reason.to_owned(),
        }
    }
}

/// A failed call to the agent: the client's one-line error.
impl From<ClientError> for ApiError {
    fn from(error: ClientError) -> Self {
        ApiError {
            status: StatusCode::BAD_GATEWAY,
            message: error.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_response(self.status, &json!({"error": self.message}))
    }
}

type ApiResult = Result<Response, ApiError>;

/// The page itself: only at the printed URL, whose `token` it then sends with each API call.
async fn index(State(inspector): Shared, request: Request) -> Response {
    let guard = guard(&inspector);
    if let Err(refused) = guard.check_site(request.headers()) {
        return refused.into_response();
    }
    let token = request.uri().query().and_then(|query| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
    });
    if let Err(refused) = guard.check_token(token) {
        return refused.into_response();
    }
    page::respond("index.html").unwrap_or_else(|| StatusCode::NOT_FOUND.into_response())
}

/// The page's script and style sheet (no secrets: they need no token).
async fn asset(
    State(inspector): Shared,
    axum::extract::Path(name): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = guard(&inspector).check_site(&headers) {
        return refused.into_response();
    }
    page::respond(&name).unwrap_or_else(|| StatusCode::NOT_FOUND.into_response())
}

/// What the page starts with: the agent named on the command line.
async fn config(State(inspector): Shared, headers: HeaderMap) -> ApiResult {
    guard(&inspector).check_api(&headers)?;
    Ok(json_response(
        StatusCode::OK,
        &json!({"agentUrl": inspector.default_url}),
    ))
}

/// The agent, binding and version a request of the page names.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Target {
    url: String,
    binding: Option<String>,
    version: Option<String>,
}

/// A chat message of the page.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chat {
    #[serde(flatten)]
    target: Target,
    text: String,
    task_id: Option<String>,
    context_id: Option<String>,
}

/// An API request's JSON body, checked.
fn read<T: for<'de> Deserialize<'de>>(
    inspector: &Inspector,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<T, ApiError> {
    guard(inspector).check_api(headers)?;
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("the request: {e}")))
}

/// The agent URL of a request, checked.
fn check_agent_url(url: &str) -> Result<(), ApiError> {
    crate::call::connect::check_url(url).map_err(|e| ApiError::bad_request(e.line()))
}

/// `POST /api/card`: the card, whether it follows the card rules (each violation), its signatures,
/// and the interfaces the page can call.
async fn card(State(inspector): Shared, headers: HeaderMap, body: Bytes) -> ApiResult {
    let target: Target = read(&inspector, &headers, &body)?;
    check_agent_url(&target.url)?;
    let config = inspector.config();
    let resolved = CardResolver::from_config(&config)?
        .resolve(&target.url)
        .await?;
    let card = &resolved.card;
    let violations: Vec<Value> = match card.check() {
        Ok(()) => Vec::new(),
        Err(violations) => violations
            .iter()
            .map(
                |v| json!({"field": v.field.to_string(), "description": v.description.to_string()}),
            )
            .collect(),
    };
    let signatures = match (&inspector.verifier, card.signatures.len()) {
        (_, 0) => json!({"status": "unsigned", "detail": "the card carries no signature"}),
        (None, count) => json!({
            "status": "not verified",
            "detail": format!("{count} signature(s); start `a2a inspect` with --jwks KEYS.json to verify them"),
        }),
        (Some(verifier), _) => match resolved.verify(verifier) {
            Ok(signature) => json!({
                "status": "verified",
                "detail": format!("signatures[{}] verifies with key `{}` ({})", signature.index, signature.kid, signature.algorithm),
            }),
            Err(reason) => json!({"status": "not trusted", "detail": reason.to_string()}),
        },
    };
    let interfaces: Vec<Value> = candidates(
        card,
        &Binding::ALL,
        &[ProtocolVersion::V1_0, ProtocolVersion::V0_3],
    )
    .iter()
    .map(|c| json!({"binding": c.binding.protocol_binding(), "version": c.version.to_string(), "url": c.interface.url}))
    .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({
            "card": card,
            "documentVersion": resolved.document_version.to_string(),
            "violations": violations,
            "signatures": signatures,
            "interfaces": interfaces,
        }),
    ))
}

/// The client for `target` (made, and kept, on first use): only its binding and version.
async fn client_for(inspector: &Inspector, target: &Target) -> Result<A2aClient, ApiError> {
    check_agent_url(&target.url)?;
    let binding = match target.binding.as_deref() {
        Some(name) => Some(
            Binding::from_protocol_binding(name)
                .or_else(|| name.parse().ok())
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "binding: {name:?} is not JSONRPC, HTTP+JSON or GRPC"
                    ))
                })?,
        ),
        None => None,
    };
    let version = match target.version.as_deref() {
        Some(text) => Some(
            text.parse::<ProtocolVersion>()
                .map_err(|e| ApiError::bad_request(format!("version: {e}")))?,
        ),
        None => None,
    };
    let mut config = inspector.config();
    if let Some(binding) = binding {
        config = config.only(binding);
    }
    if let Some(version) = version {
        config = config.only_version(version);
    }
    let key: ClientKey = (
        target.url.clone(),
        config.preference.clone(),
        config.versions.clone(),
    );
    if let Some(client) = inspector.client(&key) {
        return Ok(client);
    }
    let client = A2aClient::connect(&target.url, config).await?;
    inspector.keep_client(key, client.clone());
    Ok(client)
}

/// `POST /api/chat`: sends the message (streaming when the card says the agent streams) and answers
/// with `text/event-stream`: `event` events (each a `StreamResponse`, or the one answer of a
/// non-streaming agent, as A2A v1 JSON), an `error` event if the call fails, then `end`.
async fn chat(State(inspector): Shared, headers: HeaderMap, body: Bytes) -> ApiResult {
    let chat: Chat = read(&inspector, &headers, &body)?;
    let client = client_for(&inspector, &chat.target).await?;
    let mut message = Message::user(fresh_message_id(), [Part::text(chat.text)]);
    message.task_id = chat.task_id.filter(|id| !id.is_empty());
    message.context_id = chat.context_id.filter(|id| !id.is_empty());
    let request = SendMessageRequest {
        message,
        ..Default::default()
    };
    let (sender, receiver) = mpsc::channel::<Result<String, std::convert::Infallible>>(16);
    let agent = chat.target.url.clone();
    tokio::spawn(async move {
        let events = Events {
            sender,
            inspector,
            agent,
        };
        let streams = client.card().capabilities.streaming == Some(true);
        let outcome = if streams {
            stream_answer(&client, request, &events).await
        } else {
            match client.send_message(request).await {
                Ok(SendMessageResponse::Task(task)) => {
                    events.send(&StreamResponse::Task(task)).await;
                    Ok(())
                }
                Ok(SendMessageResponse::Message(message)) => {
                    events.send(&StreamResponse::Message(message)).await;
                    Ok(())
                }
                Ok(other) => {
                    let json = serde_json::to_value(&other).unwrap_or(Value::Null);
                    events.event("event", &json).await;
                    Ok(())
                }
                Err(e) => Err(e),
            }
        };
        if let Err(e) = outcome {
            events
                .event("error", &json!({"error": e.to_string()}))
                .await;
        }
        events.event("end", &json!({})).await;
    });
    let mut response = Response::new(Body::from_stream(ReceiverStream::new(receiver)));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Relays each event of a streamed answer.
async fn stream_answer(
    client: &A2aClient,
    request: SendMessageRequest,
    events: &Events,
) -> Result<(), ClientError> {
    let mut stream = client.send_streaming_message(request).await?;
    while let Some(event) = stream.next().await {
        events.send(&event?).await;
    }
    Ok(())
}

/// The server-sent events of one chat answer.
struct Events {
    sender: mpsc::Sender<Result<String, std::convert::Infallible>>,
    inspector: Arc<Inspector>,
    agent: String,
}

impl Events {
    /// An answer's event, noting the task it names.
    async fn send(&self, event: &StreamResponse) {
        let task_id = match event {
            StreamResponse::Task(task) => Some(&task.id),
            StreamResponse::StatusUpdate(update) => Some(&update.task_id),
            StreamResponse::ArtifactUpdate(update) => Some(&update.task_id),
            StreamResponse::Message(message) => message.task_id.as_ref(),
            _ => None,
        };
        if let Some(task_id) = task_id {
            self.inspector.saw_task(&self.agent, task_id);
        }
        let json = serde_json::to_value(event).unwrap_or(Value::Null);
        self.event("event", &json).await;
    }

    /// One server-sent event; a page that went away ends nothing else.
    async fn event(&self, name: &str, data: &Value) {
        let _ = self
            .sender
            .send(Ok(format!("event: {name}\ndata: {data}\n\n")))
            .await;
    }
}

/// `POST /api/tasks`: the agent's tasks, newest first: one page of ListTasks with history and
/// artifacts; for an agent without ListTasks (A2A v0.3) the tasks it answered with in this run,
/// each read with GetTask.
async fn tasks(State(inspector): Shared, headers: HeaderMap, body: Bytes) -> ApiResult {
    let target: Target = read(&inspector, &headers, &body)?;
    let client = client_for(&inspector, &target).await?;
    if client.protocol_version() != ProtocolVersion::V0_3 {
        let request = ListTasksRequest {
            page_size: Some(50),
            include_artifacts: Some(true),
            ..Default::default()
        };
        let listing = client.list_tasks(request).await?;
        return Ok(json_response(
            StatusCode::OK,
            &json!({"via": "ListTasks", "tasks": listing.tasks}),
        ));
    }
    let mut tasks = Vec::new();
    for id in inspector.seen_tasks(&target.url) {
        let request = GetTaskRequest {
            id,
            ..Default::default()
        };
        tasks.push(client.get_task(request).await?);
    }
    Ok(json_response(
        StatusCode::OK,
        &json!({"via": "GetTask of the tasks seen in this run (A2A v0.3 has no ListTasks)", "tasks": tasks}),
    ))
}

/// `GET /api/exchange?after=N`: the raw exchange records numbered after N.
async fn exchange(State(inspector): Shared, request: Request) -> ApiResult {
    guard(&inspector).check_api(request.headers())?;
    let after = request
        .uri()
        .query()
        .and_then(|query| query.split('&').find_map(|p| p.strip_prefix("after=")))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Ok(json_response(
        StatusCode::OK,
        &json!({"records": inspector.log.after(after)}),
    ))
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut response = (status, body.to_string()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A message id no other message of this run uses: the process id, the time and a counter.
fn fresh_message_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("inspect-{}-{nanos}-{count}", std::process::id())
}
