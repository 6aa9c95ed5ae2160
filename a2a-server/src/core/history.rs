//! `historyLength`: how much of a task's history an answer carries.

use a2a_protocol::errors::Error;
use a2a_types::v1::Task;

use crate::errors::invalid;

/// The history length a request asks for: `None` is all of it; negative is an error.
pub(crate) fn check_history_length(
    length: Option<i32>,
    field: &str,
) -> Result<Option<usize>, Error> {
    match length {
        None => Ok(None),
        Some(n) if n < 0 => Err(invalid(field, format!("must not be negative, not {n}"))),
        Some(n) => Ok(Some(n as usize)),
    }
}

/// The task with only its `length` most recent history messages (all for `None`).
pub(crate) fn trim_history(mut task: Task, length: Option<usize>) -> Task {
    if let Some(length) = length {
        let drop = task.history.len().saturating_sub(length);
        task.history.drain(..drop);
    }
    task
}
