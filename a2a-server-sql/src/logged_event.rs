//! The form of an event in a task's log (`a2a_task_events.event`): its ProtoJSON, except that a
//! status or artifact update of the task itself is kept without its `taskId` and `contextId`.
//! The row's `task_id` and the task's `context_id` already say them, and in a logged update they
//! were about half of the bytes: every logged byte is parsed, copied into the index and written
//! to the database's log at each commit, so a streamed event cost the store noticeably more.
//!
//! Reading takes both forms, so logs written before this form are read unchanged: an update read
//! without either id gets the task's back. An update whose ids are kept leaves out at most one of
//! them (ProtoJSON leaves out an empty one), so it reads back as written; one written naming
//! neither task nor context, which the protocol forbids (it requires both), reads back naming
//! its task.

use std::mem;

use a2a_server::store::StoreError;
use a2a_types::v1::StreamResponse;

use crate::columns::{from_json, to_json};

/// The ids an update carries, `None` for any other event.
fn update_ids(event: &mut StreamResponse) -> Option<(&mut String, &mut String)> {
    match event {
        StreamResponse::StatusUpdate(update) => Some((&mut update.task_id, &mut update.context_id)),
        StreamResponse::ArtifactUpdate(update) => {
            Some((&mut update.task_id, &mut update.context_id))
        }
        // A task or message, or an event of a later release (the union is non-exhaustive).
        _ => None,
    }
}

/// The logged form of `event`, an event of the task `task_id` in the context `context_id`.
/// `event` is left as it was; it is taken mutably only so that its ids are set aside while it is
/// written, instead of copying the whole event. An update that names another task or context is
/// kept whole.
pub(crate) fn to_log(
    event: &mut StreamResponse,
    task_id: &str,
    context_id: &str,
) -> Result<String, StoreError> {
    let set_aside = match update_ids(event) {
        Some((task, context))
            if !task.is_empty()
                && !context.is_empty()
                && task == task_id
                && context == context_id =>
        {
            Some((mem::take(task), mem::take(context)))
        }
        _ => None,
    };
    let json = to_json("event", event);
    if let (Some((task, context)), Some((task_id, context_id))) = (set_aside, update_ids(event)) {
        *task_id = task;
        *context_id = context;
    }
    json
}

/// An event read from the log of the task `task_id` (its context `context_id`, `None` when it is
/// not known: for copies that always hold the whole event), in either form.
pub(crate) fn from_log(
    task_id: &str,
    context_id: Option<&str>,
    json: &str,
) -> Result<StreamResponse, StoreError> {
    let mut event: StreamResponse = from_json("event", task_id, json)?;
    if let Some((task, context)) = update_ids(&mut event)
        && task.is_empty()
        && context.is_empty()
    {
        task_id.clone_into(task);
        context_id.unwrap_or_default().clone_into(context);
    }
    Ok(event)
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{
        Artifact, Message, Part, TaskArtifactUpdateEvent, TaskState, TaskStatus,
        TaskStatusUpdateEvent,
    };

    use super::*;

    fn chunk(task_id: &str, context_id: &str) -> StreamResponse {
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::new(
            task_id,
            context_id,
            Artifact::new("artifact-1", [Part::text("chunk-1 ")]),
        ))
    }

    fn working(task_id: &str, context_id: &str) -> StreamResponse {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            task_id,
            context_id,
            TaskStatus::now(TaskState::Working),
        ))
    }

    /// Logs `event` of task `task-a` in context `ctx-a` and reads it back; the logged text.
    fn round_trip(event: StreamResponse) -> String {
        let mut logged = event.clone();
        let json = to_log(&mut logged, "task-a", "ctx-a").expect("written");
        assert_eq!(logged, event, "the event is left as it was");
        let read = from_log("task-a", Some("ctx-a"), &json).expect("read");
        assert_eq!(read, event, "read back from {json}");
        json
    }

    #[test]
    fn updates_of_the_task_are_logged_without_their_ids() {
        for event in [chunk("task-a", "ctx-a"), working("task-a", "ctx-a")] {
            let json = round_trip(event.clone());
            assert!(
                !json.contains("task-a") && !json.contains("ctx-a"),
                "{json}"
            );
            let whole = to_json("event", &event).expect("written");
            assert!(
                json.len() < whole.len(),
                "{json} is not shorter than {whole}"
            );
        }
    }

    #[test]
    fn other_events_are_logged_whole() {
        let message = StreamResponse::Message(
            Message::agent("m-1", [Part::text("hi")])
                .task_id("task-a")
                .context_id("ctx-a"),
        );
        for event in [
            chunk("task-b", "ctx-a"),
            chunk("task-a", "ctx-b"),
            working("task-a", ""),
            working("", "ctx-a"),
            message,
        ] {
            let json = round_trip(event.clone());
            assert_eq!(json, to_json("event", &event).expect("written"));
        }
    }

    #[test]
    fn an_update_naming_neither_task_nor_context_reads_back_naming_its_task() {
        let mut event = working("", "");
        let json = to_log(&mut event, "task-a", "ctx-a").expect("written");
        let read = from_log("task-a", Some("ctx-a"), &json).expect("read");
        if let Some((task, context)) = update_ids(&mut event) {
            *task = "task-a".into();
            *context = "ctx-a".into();
        }
        assert_eq!(read, event);
    }

    #[test]
    fn whole_events_of_earlier_logs_are_read_as_they_are() {
        let event = chunk("task-a", "ctx-a");
        let whole = to_json("event", &event).expect("written");
        assert_eq!(
            from_log("task-a", Some("ctx-a"), &whole).expect("read"),
            event
        );
        assert_eq!(from_log("task-a", None, &whole).expect("read"), event);
    }

    #[test]
    fn an_unreadable_event_names_its_task() {
        let problem = from_log("task-z", Some("ctx-a"), "{\"artifactUpdate\":").unwrap_err();
        assert!(problem.to_string().contains("task-z"), "{problem}");
    }
}
