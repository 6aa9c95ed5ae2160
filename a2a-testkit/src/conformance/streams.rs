//! The streaming checks (`SendStreamingMessage` of each streaming behaviour) and what they read
//! from a stream: its states, its artifact texts, its last state.

use a2a_client::A2aClient;
use a2a_types::v1::{Part, StreamResponse, TaskState};

use super::helpers::{failed, send, user_message};
use super::run::CheckResult;

/// The states and artifact texts of a stream, in order, as one line.
pub(super) fn describe_events(events: &[StreamResponse]) -> Vec<String> {
    events
        .iter()
        .map(|event| match event {
            StreamResponse::Task(task) => format!("task({:?})", task.status.state),
            StreamResponse::Message(message) => format!("message({:?})", message.text()),
            StreamResponse::StatusUpdate(update) => format!("status({:?})", update.status.state),
            StreamResponse::ArtifactUpdate(update) => {
                let text: String = update
                    .artifact
                    .parts
                    .iter()
                    .filter_map(Part::as_text)
                    .collect();
                format!(
                    "artifact({text:?}{})",
                    if update.append == Some(true) {
                        ", append"
                    } else {
                        ""
                    }
                )
            }
            _ => "unknown event".to_owned(),
        })
        .collect()
}

/// The last state a stream reported.
pub(super) fn final_state(events: &[StreamResponse]) -> Option<TaskState> {
    events.iter().rev().find_map(|event| match event {
        StreamResponse::Task(task) => Some(task.status.state),
        StreamResponse::StatusUpdate(update) => Some(update.status.state),
        _ => None,
    })
}

pub(super) async fn stream_events(
    client: &A2aClient,
    prefix: &str,
) -> Result<Vec<StreamResponse>, String> {
    let stream = client
        .send_streaming_message(send(user_message(prefix, "stream, please")))
        .await
        .map_err(|e| failed("SendStreamingMessage", e))?;
    let events = stream
        .collect()
        .await
        .map_err(|e| failed("the stream", e))?;
    if events.is_empty() {
        return Err("the stream ended without an event".into());
    }
    Ok(events)
}

pub(super) fn artifact_texts(events: &[StreamResponse]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamResponse::ArtifactUpdate(update) => Some(
                update
                    .artifact
                    .parts
                    .iter()
                    .filter_map(Part::as_text)
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

pub(super) async fn stream_text(
    client: &A2aClient,
    prefix: &str,
    text: Option<&str>,
) -> CheckResult {
    let events = stream_events(client, prefix).await?;
    let seen = describe_events(&events);
    if final_state(&events) != Some(TaskState::Completed) {
        return Err(format!("the stream did not end completed: {seen:?}"));
    }
    let texts = artifact_texts(&events);
    match text {
        Some(text) => {
            let working_at = events.iter().position(|e| {
                matches!(e, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Working)
            });
            let artifact_at = events
                .iter()
                .position(|e| matches!(e, StreamResponse::ArtifactUpdate(_)));
            if texts != [text] {
                return Err(format!(
                    "artifact texts {texts:?}, expected [{text:?}]: {seen:?}"
                ));
            }
            if !matches!((working_at, artifact_at), (Some(w), Some(a)) if w < a) {
                return Err(format!("expected working, then the artifact: {seen:?}"));
            }
        }
        None if !texts.is_empty() => return Err(format!("unexpected artifacts: {seen:?}")),
        None => {}
    }
    Ok(seen.join(" → "))
}

pub(super) async fn stream_file(client: &A2aClient) -> CheckResult {
    let events = stream_events(client, "tck-stream-artifact-file").await?;
    let seen = describe_events(&events);
    if final_state(&events) != Some(TaskState::Completed) {
        return Err(format!("the stream did not end completed: {seen:?}"));
    }
    let file = events.iter().find_map(|event| match event {
        StreamResponse::ArtifactUpdate(update) => update.artifact.parts.iter().find(|p| {
            p.filename.as_deref() == Some("output.txt")
                && p.media_type.as_deref() == Some("text/plain")
        }),
        _ => None,
    });
    match file {
        Some(_) => Ok(format!("{} with file output.txt", seen.join(" → "))),
        None => Err(format!("no file part output.txt (text/plain): {seen:?}")),
    }
}

pub(super) async fn stream_chunked(client: &A2aClient) -> CheckResult {
    let events = stream_events(client, "tck-stream-artifact-chunked").await?;
    let seen = describe_events(&events);
    let chunks: Vec<(String, bool, bool)> = events
        .iter()
        .filter_map(|event| match event {
            StreamResponse::ArtifactUpdate(update) => Some((
                update
                    .artifact
                    .parts
                    .iter()
                    .filter_map(Part::as_text)
                    .collect(),
                update.append == Some(true),
                update.last_chunk == Some(true),
            )),
            _ => None,
        })
        .collect();
    let expected = [
        ("chunk-1 ".to_owned(), false, false),
        ("chunk-2".to_owned(), true, true),
    ];
    if chunks != expected {
        return Err(format!(
            "chunks (text, append, lastChunk) {chunks:?}, expected {expected:?}"
        ));
    }
    if final_state(&events) != Some(TaskState::Completed) {
        return Err(format!("the stream did not end completed: {seen:?}"));
    }
    Ok(seen.join(" → "))
}

pub(super) async fn stream_message(client: &A2aClient) -> CheckResult {
    let events = stream_events(client, "tck-message-response").await?;
    match events.as_slice() {
        [StreamResponse::Message(message)] if message.text() == "Direct message response" => {
            Ok(format!("one message {:?}", message.text()))
        }
        _ => Err(format!(
            "expected one message event: {:?}",
            describe_events(&events)
        )),
    }
}
