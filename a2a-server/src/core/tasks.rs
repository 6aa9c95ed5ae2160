//! The operations that read tasks: one task (GetTask, and the check every task-bound operation
//! makes), a page of them (ListTasks), and a stream of one (SubscribeToTask).

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{ListTasksRequest, ListTasksResponse, StreamResponse};

use crate::auth::Owner;
use crate::core::history::{check_history_length, fit_answer, trim_history};
use crate::core::state::ServerState;
use crate::core::streams::{EventStream, task_stream};
use crate::errors::{invalid, not_found, state_name};
use crate::store::StoredTask;

/// The owner's task, or `TaskNotFound`.
pub(crate) async fn task(
    state: &ServerState,
    owner: &Owner,
    id: &str,
) -> Result<StoredTask, Error> {
    state
        .tasks
        .get(owner, id)
        .await
        .map_err(|e| e.to_error(id))?
        .ok_or_else(|| not_found(id))
}

/// ListTasks: a page of the owner's tasks.
pub(crate) async fn list_tasks(
    state: &ServerState,
    owner: &Owner,
    request: &ListTasksRequest,
) -> Result<ListTasksResponse, Error> {
    let config = &state.config;
    let page_size = match request.page_size {
        None | Some(0) => config.default_page_size,
        Some(n) if n < 1 || n as usize > config.max_page_size => {
            return Err(invalid(
                "pageSize",
                format!("must be between 1 and {}, not {n}", config.max_page_size),
            ));
        }
        Some(n) => n as usize,
    };
    let history_length = check_history_length(request.history_length, "historyLength")?;
    let page = state
        .tasks
        .list(owner, request, page_size)
        .await
        .map_err(|e| e.to_error(""))?;
    let tasks = page
        .tasks
        .into_iter()
        .map(|task| {
            let mut task = trim_history(task, history_length);
            if request.include_artifacts != Some(true) {
                task.artifacts.clear();
            }
            task
        })
        .collect();
    // `nextPageToken` is written even when empty (§3.1.4); `..Default::default()` keeps this
    // building when the spec adds a field.
    #[allow(clippy::needless_update)]
    let response = ListTasksResponse {
        tasks,
        next_page_token: page.next_page_token,
        page_size: page_size as i32,
        total_size: page.total_size as i32,
        ..Default::default()
    };
    Ok(response)
}

/// SubscribeToTask: the task, then its events; or, resuming after `last_event_id`, the events
/// after it.
pub(crate) async fn subscribe(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    last_event_id: Option<u64>,
) -> Result<EventStream, Error> {
    let stored = task(state, owner, task_id).await?;
    let task_state = stored.task.status.state;
    match last_event_id {
        Some(last) => task_stream(state, owner, task_id, None, last),
        None if task_state.is_terminal() => Err(Error::with_message(
            ErrorKind::UnsupportedOperation,
            format!(
                "task {task_id} is {}; there is nothing left to subscribe to",
                state_name(task_state)
            ),
        )
        .with_metadata("taskId", task_id)),
        None => {
            let first = StreamResponse::Task(fit_answer(
                stored.task,
                None,
                state.config.limits.max_bytes(),
            )?);
            task_stream(state, owner, task_id, Some(first), stored.version)
        }
    }
}
