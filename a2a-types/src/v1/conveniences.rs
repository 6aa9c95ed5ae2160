//! Small helpers an agent needs at every turn: whether a task's state is final or waiting on the
//! client, constructors for the two streaming update events, and the text of a message, artifact or
//! part.
//!
//! ```
//! use a2a_types::v1::{
//!     Artifact, Message, Part, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
//! };
//!
//! let question = Message::agent("m-2", [Part::text("Which dates?"), Part::url("https://maps.example/lisbon")]);
//! assert_eq!(question.text(), "Which dates?");
//!
//! let update = TaskStatusUpdateEvent::new(
//!     "task-7f3a",
//!     "ctx-lisbon-trip",
//!     TaskStatus::now(TaskState::InputRequired).message(question),
//! );
//! assert!(update.status.state.is_interrupted() && !update.status.state.is_terminal());
//!
//! let chunk = TaskArtifactUpdateEvent::new("task-7f3a", "ctx-lisbon-trip", Artifact::new("itinerary", [Part::text("Day 1: Alfama")]))
//!     .append(true)
//!     .last_chunk(false);
//! assert_eq!(chunk.artifact.text(), "Day 1: Alfama");
//! ```

use crate::JsonObject;
use crate::v1::{
    Artifact, Message, Part, PartContent, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};

impl TaskState {
    /// Whether the task is over: COMPLETED, FAILED, CANCELED or REJECTED. No further update follows,
    /// so a stream about the task ends after it.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// Whether the task is paused until the client acts: INPUT_REQUIRED or AUTH_REQUIRED. A stream
    /// ends here too; the task goes on when the client sends the next message.
    pub fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }
}

impl TaskStatusUpdateEvent {
    /// A status change of task `task_id` in conversation `context_id`.
    pub fn new(
        task_id: impl Into<String>,
        context_id: impl Into<String>,
        status: TaskStatus,
    ) -> Self {
        Self {
            task_id: task_id.into(),
            context_id: context_id.into(),
            status,
            ..Default::default()
        }
    }

    /// Sets the metadata.
    pub fn metadata(mut self, metadata: JsonObject) -> Self {
        self.metadata = Some(metadata);
        self
    }
}

impl TaskArtifactUpdateEvent {
    /// An artifact (or a piece of one) produced by task `task_id` in conversation `context_id`.
    pub fn new(
        task_id: impl Into<String>,
        context_id: impl Into<String>,
        artifact: Artifact,
    ) -> Self {
        Self {
            task_id: task_id.into(),
            context_id: context_id.into(),
            artifact,
            ..Default::default()
        }
    }

    /// Whether the parts add to the artifact of the same id sent earlier (`true`) or replace it
    /// (`false`, the default, which the wire form leaves out).
    pub fn append(mut self, append: bool) -> Self {
        self.append = Some(append);
        self
    }

    /// Whether this is the artifact's last piece.
    pub fn last_chunk(mut self, last_chunk: bool) -> Self {
        self.last_chunk = Some(last_chunk);
        self
    }

    /// Sets the metadata.
    pub fn metadata(mut self, metadata: JsonObject) -> Self {
        self.metadata = Some(metadata);
        self
    }
}

impl Part {
    /// The text of a text part; `None` for file, URL and data parts.
    pub fn as_text(&self) -> Option<&str> {
        match &self.content {
            Some(PartContent::Text(text)) => Some(text),
            _ => None,
        }
    }
}

impl Message {
    /// The text parts, in order.
    pub fn text_parts(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(Part::as_text)
    }

    /// The text parts joined by newlines (as the official Python SDK's `get_message_text` joins them);
    /// empty when there are none.
    pub fn text(&self) -> String {
        join_lines(self.text_parts())
    }
}

impl Artifact {
    /// The text parts, in order.
    pub fn text_parts(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(Part::as_text)
    }

    /// The text parts joined by newlines; empty when there are none.
    pub fn text(&self) -> String {
        join_lines(self.text_parts())
    }
}

fn join_lines<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (index, text) in texts.enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProtoEnum;
    use crate::v1::{StreamResponse, Task};
    use serde_json::json;

    #[test]
    fn every_state_is_terminal_interrupted_or_active() {
        let terminal: Vec<&str> = TaskState::VALUES
            .iter()
            .filter(|(_, number)| TaskState::from_number(*number).is_terminal())
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(
            terminal,
            [
                "TASK_STATE_COMPLETED",
                "TASK_STATE_FAILED",
                "TASK_STATE_CANCELED",
                "TASK_STATE_REJECTED"
            ]
        );
        let interrupted: Vec<&str> = TaskState::VALUES
            .iter()
            .filter(|(_, number)| TaskState::from_number(*number).is_interrupted())
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(
            interrupted,
            ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"]
        );
        // A state from a newer peer is neither: the task may still be running.
        let newer = TaskState::from_number(42);
        assert!(!newer.is_terminal() && !newer.is_interrupted());
    }

    #[test]
    fn a_task_read_from_json_says_whether_it_is_over() {
        let task: Task = serde_json::from_value(json!({
            "id": "task-7f3a",
            "status": {"state": "TASK_STATE_REJECTED", "timestamp": "2026-04-01T09:30:00Z"}
        }))
        .unwrap();
        assert!(task.status.state.is_terminal());
    }

    #[test]
    fn update_events_write_the_wire_form() {
        let status = TaskStatusUpdateEvent::new(
            "task-7f3a",
            "ctx-lisbon-trip",
            TaskStatus {
                state: TaskState::Working,
                ..Default::default()
            },
        )
        .metadata(json!({"step": 2}).as_object().unwrap().clone());
        assert_eq!(
            serde_json::to_value(StreamResponse::StatusUpdate(status)).unwrap(),
            json!({"statusUpdate": {"taskId": "task-7f3a", "contextId": "ctx-lisbon-trip",
                   "status": {"state": "TASK_STATE_WORKING"}, "metadata": {"step": 2}}})
        );

        let artifact = TaskArtifactUpdateEvent::new(
            "task-7f3a",
            "ctx-lisbon-trip",
            Artifact::new("itinerary", [Part::text("Day 2: Sintra")]).name("Itinerary"),
        )
        .append(true)
        .last_chunk(true);
        assert_eq!(
            serde_json::to_value(StreamResponse::ArtifactUpdate(artifact)).unwrap(),
            json!({"artifactUpdate": {"taskId": "task-7f3a", "contextId": "ctx-lisbon-trip",
                   "artifact": {"artifactId": "itinerary", "name": "Itinerary",
                                "parts": [{"text": "Day 2: Sintra"}]},
                   "append": true, "lastChunk": true}})
        );
        // The flags have no presence in the proto: `false` is the default and left out.
        let replace = TaskArtifactUpdateEvent::new("t", "c", Artifact::default()).append(false);
        assert_eq!(replace.append, Some(false));
        assert_eq!(serde_json::to_value(replace).unwrap().get("append"), None);
    }

    #[test]
    fn text_skips_other_parts_and_joins_with_newlines() {
        let message: Message = serde_json::from_value(json!({
            "messageId": "m-2", "role": "ROLE_AGENT",
            "parts": [
                {"text": "Two options:"},
                {"data": {"hotels": ["Alfama Inn", "Bairro Suites"]}},
                {"url": "https://maps.example/lisbon", "mediaType": "text/html"},
                {"raw": "aGVsbG8=", "mediaType": "text/plain"},
                {"text": "Which do you prefer?"}
            ]
        }))
        .unwrap();
        assert_eq!(message.text(), "Two options:\nWhich do you prefer?");
        assert_eq!(
            message.text_parts().collect::<Vec<_>>(),
            ["Two options:", "Which do you prefer?"]
        );
        assert_eq!(message.parts[1].as_text(), None);
        assert_eq!(message.parts[3].as_text(), None, "raw bytes are not text");
        assert_eq!(Message::user("m-3", []).text(), "");
        let artifact = Artifact::new("a", [Part::data(json!(1)), Part::text("only")]);
        assert_eq!(artifact.text(), "only");
    }
}
