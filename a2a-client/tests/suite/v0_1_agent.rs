//! An A2A v0.1 agent written in the test from the v0.1 JSON Schema's generated types
//! (`a2a_compat::v0_1`): its card at `/.well-known/agent.json` (with `url` and
//! `authentication.schemes`, no `protocolVersion`), and v0.1's JSON-RPC methods at `/a2a`, answered
//! as the schema says: lower case states, `sessionId`, parts by `type`, server-sent events for
//! `tasks/sendSubscribe` and `tasks/resubscribe`.
//!
//! It is strict: a request must read as its v0.1 type and write back exactly as sent, so a member
//! v0.1 does not know (`messageId`, `kind`, `contextId`) or a shape it does not have is refused with
//! JSON-RPC error -32602 (-32601 for a method v0.1 does not have), and a missing bearer token with
//! -32600. The behaviour is chosen by the text sent: `slow` leaves the task working (cancelable,
//! resubscribable: a resubscription sees it complete), anything else completes with an artifact
//! echoing the text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use a2a_compat::v0_1::{
    A2aRequest, AgentAuthentication, AgentCapabilities, AgentCard, AgentSkill, Artifact,
    CancelTaskResponse, GetTaskPushNotificationResponse, GetTaskResponse, JsonRpcError, JsonRpcId,
    Message, MessageRole, Part, SendTaskResponse, SendTaskStreamingRequest,
    SendTaskStreamingResponse, SendTaskStreamingResult, SetTaskPushNotificationResponse, Task,
    TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskSendParams, TaskState, TaskStatus,
    TaskStatusUpdateEvent, TextPart,
};
use axum::response::Response;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::agent::{Chunk, FakeAgent, Recorded, json_response, serve, sse, status_only};

/// The token the card's `Bearer` scheme is satisfied with.
pub const TOKEN: &str = "v0.1-token";

/// What the agent holds: its tasks and each task's one push config, by task id.
#[derive(Default)]
struct Held {
    tasks: HashMap<String, Task>,
    push: HashMap<String, TaskPushNotificationConfig>,
}

type Shared = Arc<Mutex<Held>>;

/// Starts the agent on 127.0.0.1 (stopped when the returned agent is dropped).
pub async fn start() -> FakeAgent {
    let held = Shared::default();
    serve(move |request, _, base| answer(&held, request, base)).await
}

fn answer(held: &Shared, request: &Recorded, base: &str) -> Response {
    match request.path.as_str() {
        "/.well-known/agent.json" => json_response(200, &to_json(&card(base))),
        "/a2a" => match request.header("authorization") {
            Some(value) if value == format!("Bearer {TOKEN}") => rpc(held, &request.body),
            _ => error_response(&request.body, -32600, "a bearer token is required"),
        },
        _ => status_only(404),
    }
}

fn card(base: &str) -> AgentCard {
    AgentCard {
        name: "v0.1 agent".into(),
        description: Some("A v0.1 agent written in the test".into()),
        url: format!("{base}/a2a"),
        provider: None,
        version: "0.1.0".into(),
        documentation_url: None,
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            ..Default::default()
        },
        authentication: Some(AgentAuthentication {
            schemes: vec!["Bearer".into()],
            credentials: None,
        }),
        default_input_modes: Some(vec!["text".into()]),
        default_output_modes: Some(vec!["text".into()]),
        skills: vec![AgentSkill {
            id: "echo".into(),
            name: "Echo".into(),
            description: Some("Echoes the text".into()),
            tags: Some(vec!["echo".into()]),
            examples: None,
            input_modes: None,
            output_modes: None,
        }],
    }
}

fn to_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).expect("the v0.1 types write JSON")
}

/// `body` read as the v0.1 type `T`, refused unless `T` writes it back exactly as it was sent.
fn read_strictly<T: DeserializeOwned + Serialize>(body: &Value) -> Result<T, String> {
    let typed: T = serde_json::from_value(body.clone()).map_err(|e| e.to_string())?;
    let back = to_json(&typed);
    if &back == body {
        Ok(typed)
    } else {
        Err(format!("not v0.1 as sent: {body} reads as {back}"))
    }
}

fn error_response(body: &Value, code: i64, message: &str) -> Response {
    let response = GetTaskResponse {
        id: serde_json::from_value(body["id"].clone()).ok(),
        error: Some(JsonRpcError {
            code,
            message: message.into(),
            data: None,
        }),
        ..Default::default()
    };
    json_response(200, &to_json(&response))
}

const TASK_NOT_FOUND: (i64, &str) = (-32001, "Task not found");

fn rpc(held: &Shared, body: &Value) -> Response {
    let refuse = |(code, message): (i64, &str)| error_response(body, code, message);
    if body["method"] == "tasks/sendSubscribe" {
        return match read_strictly::<SendTaskStreamingRequest>(body) {
            Ok(request) => {
                let task = start_task(held, request.params);
                let events = stream_of(&task, true);
                events_response(&request.id, events)
            }
            Err(why) => refuse((-32602, &why)),
        };
    }
    const METHODS: [&str; 6] = [
        "tasks/send",
        "tasks/get",
        "tasks/cancel",
        "tasks/pushNotification/set",
        "tasks/pushNotification/get",
        "tasks/resubscribe",
    ];
    if !body["method"]
        .as_str()
        .is_some_and(|method| METHODS.contains(&method))
    {
        return refuse((-32601, "Method not found"));
    }
    let request = match read_strictly::<A2aRequest>(body) {
        Ok(request) => request,
        Err(why) => return refuse((-32602, &why)),
    };
    let mut state = held.lock().expect("lock");
    match request {
        A2aRequest::SendTask(request) => {
            drop(state);
            let task = start_task(held, request.params);
            let response = SendTaskResponse {
                id: request.id,
                result: Some(task),
                ..Default::default()
            };
            json_response(200, &to_json(&response))
        }
        A2aRequest::GetTask(request) => {
            let Some(mut task) = state.tasks.get(&request.params.id).cloned() else {
                return refuse(TASK_NOT_FOUND);
            };
            // v0.1: no history unless asked for, and then the last `historyLength` messages.
            let keep = request.params.history_length.unwrap_or(0).max(0) as usize;
            let history = task.history.take().unwrap_or_default();
            let skip = history.len().saturating_sub(keep);
            task.history = (keep > 0).then(|| history.into_iter().skip(skip).collect());
            let response = GetTaskResponse {
                id: request.id,
                result: Some(task),
                ..Default::default()
            };
            json_response(200, &to_json(&response))
        }
        A2aRequest::CancelTask(request) => {
            let Some(task) = state.tasks.get_mut(&request.params.id) else {
                return refuse(TASK_NOT_FOUND);
            };
            if task.status.state != TaskState::Working {
                return refuse((-32002, "Task cannot be canceled"));
            }
            task.status = status(TaskState::Canceled);
            let response = CancelTaskResponse {
                id: request.id,
                result: Some(task.clone()),
                ..Default::default()
            };
            json_response(200, &to_json(&response))
        }
        A2aRequest::SetTaskPushNotification(request) => {
            if !state.tasks.contains_key(&request.params.id) {
                return refuse(TASK_NOT_FOUND);
            }
            let config = request.params;
            state.push.insert(config.id.clone(), config.clone());
            let response = SetTaskPushNotificationResponse {
                id: request.id,
                result: Some(config),
                ..Default::default()
            };
            json_response(200, &to_json(&response))
        }
        A2aRequest::GetTaskPushNotification(request) => {
            let Some(config) = state.push.get(&request.params.id).cloned() else {
                return refuse(TASK_NOT_FOUND);
            };
            let response = GetTaskPushNotificationResponse {
                id: request.id,
                result: Some(config),
                ..Default::default()
            };
            json_response(200, &to_json(&response))
        }
        A2aRequest::TaskResubscription(request) => {
            let Some(task) = state.tasks.get_mut(&request.params.id) else {
                return refuse(TASK_NOT_FOUND);
            };
            // A working task goes on to complete while the subscriber listens.
            let events = stream_of(task, false);
            let done = Some(text_message(MessageRole::Agent, "done"));
            task.status = status(TaskState::Completed);
            task.history.get_or_insert_with(Vec::new).extend(done);
            events_response(&request.id, events)
        }
    }
}

fn status(state: TaskState) -> TaskStatus {
    TaskStatus {
        state,
        message: None,
        timestamp: Some("2025-04-09T10:00:00Z".into()),
    }
}

fn text_message(role: MessageRole, text: &str) -> Message {
    Message {
        role,
        parts: vec![text_part(text)],
        metadata: None,
    }
}

fn text_part(text: &str) -> Part {
    Part::Text(TextPart {
        text: text.into(),
        type_: Default::default(),
        metadata: None,
    })
}

fn text_of(message: &Message) -> String {
    message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Text(part) => Some(part.text.as_str()),
            _ => None,
        })
        .collect()
}

fn echo(text: &str) -> Artifact {
    Artifact {
        name: Some("echo".into()),
        parts: vec![text_part(&format!("echo: {text}"))],
        description: None,
        index: Some(0),
        append: None,
        last_chunk: None,
        metadata: None,
    }
}

/// Starts (or continues) the task `params` names, as the text says.
fn start_task(held: &Shared, params: TaskSendParams) -> Task {
    let text = text_of(&params.message);
    let mut state = held.lock().expect("lock");
    let task = state
        .tasks
        .entry(params.id.clone())
        .or_insert_with(|| Task {
            id: params.id.clone(),
            session_id: Some(
                params
                    .session_id
                    .clone()
                    .unwrap_or_else(|| "session-1".into()),
            ),
            status: status(TaskState::Submitted),
            artifacts: None,
            history: Some(Vec::new()),
            metadata: None,
        });
    let history = task.history.get_or_insert_with(Vec::new);
    history.push(params.message);
    if text.starts_with("slow") {
        task.status = status(TaskState::Working);
    } else {
        history.push(text_message(MessageRole::Agent, "done"));
        task.artifacts = Some(vec![echo(&text)]);
        task.status = status(TaskState::Completed);
    }
    task.clone()
}

/// The events a stream of `task` sends: working, the echo artifact, then completed (final).
fn stream_of(task: &Task, from_the_start: bool) -> Vec<SendTaskStreamingResult> {
    let status_event = |state: TaskState, last: bool| {
        SendTaskStreamingResult::Status(TaskStatusUpdateEvent {
            id: task.id.clone(),
            status: status(state),
            final_: Some(last),
            metadata: None,
        })
    };
    let text = task
        .history
        .iter()
        .flatten()
        .find(|m| m.role == MessageRole::User)
        .map(text_of)
        .unwrap_or_default();
    let mut events = Vec::new();
    if from_the_start || task.status.state == TaskState::Working {
        events.push(status_event(TaskState::Working, false));
    }
    events.push(SendTaskStreamingResult::Artifact(TaskArtifactUpdateEvent {
        id: task.id.clone(),
        artifact: echo(&text),
        metadata: None,
    }));
    events.push(status_event(TaskState::Completed, true));
    events
}

fn events_response(id: &Option<JsonRpcId>, events: Vec<SendTaskStreamingResult>) -> Response {
    let chunks = events
        .into_iter()
        .map(|event| {
            let response = SendTaskStreamingResponse {
                id: id.clone(),
                result: Some(event),
                ..Default::default()
            };
            Chunk::Text(format!("data: {}\n\n", to_json(&response)))
        })
        .collect();
    sse(chunks)
}
