//! The events of an execution as its task's stream carries them, and what each does to the task.

use a2a_types::v1::{
    StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent,
};

use crate::executor::AgentEvent;

/// Whether a stream of a message's events ends after this one: the task is over or waits.
pub(crate) fn ends_stream(event: &StreamResponse) -> bool {
    match event {
        StreamResponse::StatusUpdate(update) => ends_stream_at(update.status.state),
        StreamResponse::Task(task) => ends_stream_at(task.status.state),
        StreamResponse::Message(_) => true,
        _ => false,
    }
}

/// Whether a task in `state` has ended its stream: it is over, or waits for the client.
pub(crate) fn ends_stream_at(state: TaskState) -> bool {
    state.is_terminal() || state.is_interrupted()
}

/// The event as the task's stream carries it: ids filled in.
pub(crate) fn to_stream_event(
    event: AgentEvent,
    task_id: &str,
    context_id: &str,
) -> StreamResponse {
    match event {
        AgentEvent::Status(mut status) => {
            if let Some(message) = &mut status.message {
                message.task_id = Some(task_id.to_owned());
                message.context_id = Some(context_id.to_owned());
            }
            StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(task_id, context_id, status))
        }
        AgentEvent::Artifact {
            artifact,
            append,
            last_chunk,
        } => {
            let mut update = TaskArtifactUpdateEvent::new(task_id, context_id, artifact);
            if append {
                update = update.append(true);
            }
            StreamResponse::ArtifactUpdate(update.last_chunk(last_chunk))
        }
        AgentEvent::Message(mut message) => {
            message.task_id = Some(task_id.to_owned());
            message.context_id = Some(context_id.to_owned());
            StreamResponse::Message(message)
        }
    }
}

/// The task after `event`.
pub(crate) fn change(task: &mut Task, event: &StreamResponse) {
    match event {
        StreamResponse::StatusUpdate(update) => {
            if let Some(message) = &update.status.message {
                task.history.push(message.clone());
            }
            task.status = update.status.clone();
        }
        StreamResponse::ArtifactUpdate(update) => {
            let artifacts = &mut task.artifacts;
            match artifacts
                .iter_mut()
                .find(|a| a.artifact_id == update.artifact.artifact_id)
            {
                Some(existing) if update.append == Some(true) => {
                    existing.parts.extend(update.artifact.parts.iter().cloned())
                }
                Some(existing) => *existing = update.artifact.clone(),
                None => artifacts.push(update.artifact.clone()),
            }
        }
        StreamResponse::Message(message) => task.history.push(message.clone()),
        _ => {}
    }
}
