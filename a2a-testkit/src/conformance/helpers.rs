//! Helpers of the conformance checks: unique message ids, request builders, and the comparisons
//! each check reports through.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_client::{A2aClient, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, Task, TaskState,
};

use super::run::CheckResult;

/// A message id no other run of this process or another shares, after the behaviour prefix.
pub(super) fn message_id(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "{prefix}-{}-{nanos:x}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

pub(super) fn unknown_id() -> String {
    message_id("no-such-task")
}

pub(super) fn user_message(prefix: &str, text: &str) -> Message {
    Message::user(message_id(prefix), [Part::text(text)])
}

pub(super) fn send(message: Message) -> SendMessageRequest {
    SendMessageRequest {
        message,
        ..Default::default()
    }
}

pub(super) fn send_returning_immediately(message: Message) -> SendMessageRequest {
    SendMessageRequest {
        message,
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub(super) fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

pub(super) fn cancel(id: &str) -> CancelTaskRequest {
    CancelTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

pub(super) fn failed(what: &str, error: ClientError) -> String {
    format!("{what}: {error}")
}

pub(super) async fn send_for_task(
    client: &A2aClient,
    request: SendMessageRequest,
) -> Result<Task, String> {
    match client.send_message(request).await {
        Ok(SendMessageResponse::Task(task)) => Ok(task),
        Ok(SendMessageResponse::Message(message)) => Err(format!(
            "expected a task, got a message: {:?}",
            message.text()
        )),
        Ok(_) => Err("expected a task, got an unknown result".into()),
        Err(error) => Err(failed("SendMessage", error)),
    }
}

pub(super) async fn completed_task(client: &A2aClient) -> Result<Task, String> {
    let task = send_for_task(client, send(user_message("tck-complete-task", "hello"))).await?;
    expect_state(&task, TaskState::Completed)?;
    Ok(task)
}

pub(super) fn expect_state(task: &Task, state: TaskState) -> Result<(), String> {
    if task.status.state == state {
        Ok(())
    } else {
        Err(format!(
            "task {} is {:?}, expected {state:?}",
            task.id, task.status.state
        ))
    }
}

pub(super) fn expect_error<T: fmt::Debug>(
    result: Result<T, ClientError>,
    kind: ErrorKind,
) -> CheckResult {
    match result {
        Err(error) if error.a2a_kind() == Some(kind) => Ok(format!("{kind} as expected")),
        Err(error) => Err(format!("expected {kind}, got {error}")),
        Ok(value) => Err(format!(
            "expected {kind}, the call succeeded: {}",
            truncate(&format!("{value:?}"), 160)
        )),
    }
}

pub(super) fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
