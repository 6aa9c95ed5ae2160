//! The verbs that call an agent through `a2a_client`, any binding and either protocol version:
//! `discover` ([`discover`]), `send` and `stream` ([`message`]), `get`, `list`, `cancel` and
//! `subscribe` ([`tasks`]), `push set|get|list|delete` ([`push`]). Each prints as it goes
//! ([`output`]) and ends with the exit status its outcome calls for ([`outcome`]).

pub mod args;
pub mod connect;
pub mod discover;
pub mod message;
pub mod output;
pub mod push;
pub mod tasks;

use a2a_types::v1::TaskState;

use crate::failure::Failure;
use output::state_name;

/// The exit status of a call that left task `task_id` in `state`: success while the task
/// completed or goes on, [`Failure::task_ended`] when it failed, was canceled or rejected,
/// [`Failure::task_waits`] when it waits for the caller.
fn outcome(task_id: &str, state: TaskState) -> Result<Vec<u8>, Failure> {
    let name = state_name(state);
    match state {
        TaskState::Failed | TaskState::Canceled | TaskState::Rejected => {
            Err(Failure::task_ended(format!("task {task_id} ended {name}")))
        }
        TaskState::InputRequired | TaskState::AuthRequired => Err(Failure::task_waits(format!(
            "task {task_id} is {name}: answer with `a2a send URL TEXT --task {task_id}`"
        ))),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_has_its_exit_status() {
        assert_eq!(outcome("t", TaskState::Completed), Ok(Vec::new()));
        assert_eq!(outcome("t", TaskState::Working), Ok(Vec::new()));
        for ended in [TaskState::Failed, TaskState::Canceled, TaskState::Rejected] {
            let failure = outcome("t", ended).unwrap_err();
            assert_eq!(failure.exit_code(), std::process::ExitCode::from(5));
        }
        for waiting in [TaskState::InputRequired, TaskState::AuthRequired] {
            let failure = outcome("t", waiting).unwrap_err();
            assert_eq!(failure.label(), "waiting");
            assert_eq!(failure.exit_code(), std::process::ExitCode::from(6));
        }
    }
}
