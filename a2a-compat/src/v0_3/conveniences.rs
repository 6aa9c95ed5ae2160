//! Whether an A2A v0.3 task state is final or waiting on the client, as for v1's `TaskState`.

use crate::v0_3::TaskState;

impl TaskState {
    /// Whether the task is over: `completed`, `failed`, `canceled` or `rejected`.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// Whether the task is paused until the client acts: `input-required` or `auth-required`.
    pub fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(test: fn(TaskState) -> bool) -> Vec<String> {
        let all = [
            "submitted",
            "working",
            "input-required",
            "completed",
            "canceled",
            "failed",
            "rejected",
            "auth-required",
            "unknown",
        ];
        all.iter()
            .map(|name| serde_json::from_value::<TaskState>(serde_json::json!(name)).unwrap())
            .filter(|state| test(*state))
            .map(|state| state.to_string())
            .collect()
    }

    #[test]
    fn terminal_and_interrupted_states_match_v1() {
        assert_eq!(
            states(TaskState::is_terminal),
            ["completed", "canceled", "failed", "rejected"]
        );
        assert_eq!(
            states(TaskState::is_interrupted),
            ["input-required", "auth-required"]
        );
    }

    #[test]
    fn both_versions_agree_through_the_bridge() {
        for name in [
            "submitted",
            "working",
            "input-required",
            "completed",
            "canceled",
            "failed",
            "rejected",
            "auth-required",
        ] {
            let state: TaskState = serde_json::from_value(serde_json::json!(name)).unwrap();
            let v1 = a2a_types::v1::TaskState::from(state);
            assert_eq!(v1.is_terminal(), state.is_terminal(), "{name}");
            assert_eq!(v1.is_interrupted(), state.is_interrupted(), "{name}");
        }
    }
}
