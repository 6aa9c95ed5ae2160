//! CancelTask: the running executor is told to stop, and the cancellation is applied like any
//! other event (a task that is over refuses it).

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent};

use crate::auth::Owner;
use crate::core::execution::apply::apply_keeping;
use crate::core::state::ServerState;
use crate::core::tasks::task;
use crate::errors::state_name;

/// CancelTask: tells the running executor to stop and records the cancellation.
pub(crate) async fn cancel(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
) -> Result<Task, Error> {
    let stored = task(state, owner, task_id).await?;
    if stored.task.status.state.is_terminal() {
        return Err(Error::with_message(
            ErrorKind::TaskNotCancelable,
            format!(
                "task {task_id} is already {}",
                state_name(stored.task.status.state)
            ),
        )
        .with_metadata("taskId", task_id));
    }
    if let Some(cancel) = state.running().get(task_id) {
        cancel.send_replace(true);
    }
    let context_id = stored.task.context_id.clone().unwrap_or_default();
    let canceled =
        TaskStatusUpdateEvent::new(task_id, context_id, TaskStatus::now(TaskState::Canceled));
    let (task, _) = apply_keeping(
        state,
        owner,
        task_id,
        StreamResponse::StatusUpdate(canceled),
        Task::clone,
    )
    .await?;
    Ok(task)
}
