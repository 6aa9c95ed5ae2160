//! A new task the agent ended before it was first written (an agent that answers at once): the
//! events it sent are written with the task, in one write, and no execution is recorded, since
//! nothing is left to run again. A blocking SendMessage then costs one write where it cost three
//! (the task with its record, the events, the record's end) and is answered with the task as that
//! write left it.

use a2a_types::v1::StreamResponse;
use tokio::sync::mpsc;

use crate::core::execution::events::{ends_stream_at, to_stream_event};
use crate::executor::AgentEvent;

/// Whether `event` ends the task's stream (as [`ends_stream_at`] says for a status), or is a
/// message.
fn ends_stream(event: &AgentEvent) -> bool {
    match event {
        AgentEvent::Status(status) => ends_stream_at(status.state),
        AgentEvent::Artifact { .. } => false,
        AgentEvent::Message(_) => true,
    }
}

/// Adds to `batch` the events queued behind it, up to one that ends the task's stream. When none
/// has ended it yet, the agent gets one turn of the scheduler and the queue is read again: an
/// agent that answers at once has usually sent everything by then.
pub(crate) async fn take_queued(
    batch: &mut Vec<AgentEvent>,
    events: &mut mpsc::Receiver<AgentEvent>,
) {
    for turn in 0..2 {
        if turn == 1 {
            tokio::task::yield_now().await;
        }
        while !batch.last().is_some_and(ends_stream) {
            match events.try_recv() {
                Ok(event) => batch.push(event),
                Err(_) => break,
            }
        }
        if batch.last().is_some_and(ends_stream) {
            return;
        }
    }
}

/// `batch` as the task's stream carries it, when its last event ends the task (a terminal
/// status); `None` when the task goes on.
pub(crate) fn ending_batch(
    batch: &mut Vec<AgentEvent>,
    task_id: &str,
    context_id: &str,
) -> Option<Vec<StreamResponse>> {
    let ends =
        matches!(batch.last(), Some(AgentEvent::Status(status)) if status.state.is_terminal());
    ends.then(|| {
        batch
            .drain(..)
            .map(|event| to_stream_event(event, task_id, context_id))
            .collect()
    })
}
