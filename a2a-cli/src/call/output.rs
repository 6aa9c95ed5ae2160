//! What the agent verbs print, as it arrives: for people, tasks by their state, text and artifacts,
//! one event per line of a stream; with `--json`, each answer as one ProtoJSON object per line (the
//! serde form of the A2A v1 types). Each line is flushed at once, so a stream shows as it comes.

use std::io::Write;

use a2a_types::v1::{
    Artifact, Message, Part, PartContent, Role, StreamResponse, Task, TaskPushNotificationConfig,
    TaskState,
};
use serde::Serialize;

use crate::failure::Failure;

/// Writes answers to stdout, for people or as JSON lines.
pub struct Printer {
    json: bool,
    out: std::io::Stdout,
}

impl Printer {
    /// A printer for people, or of JSON lines with `json`.
    pub fn new(json: bool) -> Self {
        Self {
            json,
            out: std::io::stdout(),
        }
    }

    /// Whether answers are printed as JSON lines.
    pub fn json(&self) -> bool {
        self.json
    }

    /// Prints `value` as one line of compact JSON (in either mode).
    pub fn json_line<T: Serialize>(&mut self, value: &T) -> Result<(), Failure> {
        let line = serde_json::to_string(value)
            .map_err(|e| Failure::transport(format!("cannot print the answer as JSON: {e}")))?;
        self.line(&line)
    }

    /// Prints `text` and a line break, at once.
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        let mut out = self.out.lock();
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(|e| Failure::input(format!("cannot write stdout: {e}")))
    }

    /// Prints several lines.
    pub fn lines(&mut self, lines: &[String]) -> Result<(), Failure> {
        lines.iter().try_for_each(|line| self.line(line))
    }

    /// A task: its JSON, or its state, status message and artifacts (and its history with
    /// `history`: the caller asked for the task itself, not for the answer to a message).
    pub fn task(&mut self, task: &Task, history: bool) -> Result<(), Failure> {
        if self.json {
            return self.json_line(task);
        }
        let mut lines = task_lines(task);
        if history && !task.history.is_empty() {
            lines.push("  history:".to_owned());
            for message in &task.history {
                lines.extend(message_lines(message, "    "));
            }
        }
        self.lines(&lines)
    }

    /// One event of a stream.
    pub fn event(&mut self, event: &StreamResponse) -> Result<(), Failure> {
        if self.json {
            return self.json_line(event);
        }
        let lines = match event {
            StreamResponse::Task(task) => task_lines(task),
            StreamResponse::Message(message) => message_lines(message, ""),
            StreamResponse::StatusUpdate(update) => {
                let mut lines = vec![format!(
                    "task {}: {}",
                    update.task_id,
                    state_name(update.status.state)
                )];
                if let Some(message) = &update.status.message {
                    lines.extend(message_lines(message, "  "));
                }
                lines
            }
            StreamResponse::ArtifactUpdate(update) => {
                // A closing chunk without parts only marks the artifact complete.
                let mut lines =
                    if update.artifact.parts.is_empty() && update.last_chunk == Some(true) {
                        Vec::new()
                    } else {
                        artifact_lines(&update.artifact, "")
                    };
                if update.last_chunk == Some(true) {
                    lines.push(format!(
                        "artifact {} complete",
                        artifact_name(&update.artifact)
                    ));
                }
                lines
            }
            _ => vec![format!("{event:?}")],
        };
        self.lines(&lines)
    }

    /// A push-notification config.
    pub fn push_config(&mut self, config: &TaskPushNotificationConfig) -> Result<(), Failure> {
        if self.json {
            return self.json_line(config);
        }
        let mut line = format!(
            "push config {} of task {}: {}",
            config.id.as_deref().unwrap_or("(no id)"),
            config.task_id.as_deref().unwrap_or("(no task)"),
            config.url
        );
        if let Some(auth) = &config.authentication {
            line.push_str(&format!(" (authentication {})", auth.scheme));
        }
        self.line(&line)
    }
}

/// A task state's short name: `completed`, `input-required`, ...
pub fn state_name(state: TaskState) -> String {
    let name = serde_json::to_value(state)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"));
    name.strip_prefix("TASK_STATE_")
        .unwrap_or(&name)
        .to_ascii_lowercase()
        .replace('_', "-")
}

/// A task for people: `task ID (context C): STATE`, then its status message and artifacts.
pub fn task_lines(task: &Task) -> Vec<String> {
    let mut lines = vec![format!(
        "task {} (context {}): {}",
        task.id,
        task.context_id.as_deref().unwrap_or("none"),
        state_name(task.status.state)
    )];
    if let Some(message) = &task.status.message {
        lines.extend(message_lines(message, "  "));
    }
    for artifact in &task.artifacts {
        lines.extend(artifact_lines(artifact, "  "));
    }
    lines
}

/// A message for people: `agent: TEXT` (or `user:`), one line per part.
pub fn message_lines(message: &Message, indent: &str) -> Vec<String> {
    let who = if message.role == Role::User {
        "user"
    } else {
        "agent"
    };
    message
        .parts
        .iter()
        .map(|part| format!("{indent}{who}: {}", part_text(part)))
        .collect()
}

/// An artifact for people: `artifact NAME: TEXT`, one line per part.
fn artifact_lines(artifact: &Artifact, indent: &str) -> Vec<String> {
    let name = artifact_name(artifact);
    if artifact.parts.is_empty() {
        return vec![format!("{indent}artifact {name}: (no parts)")];
    }
    artifact
        .parts
        .iter()
        .map(|part| format!("{indent}artifact {name}: {}", part_text(part)))
        .collect()
}

/// An artifact's name, else its id.
fn artifact_name(artifact: &Artifact) -> &str {
    artifact.name.as_deref().unwrap_or(&artifact.artifact_id)
}

/// One part on one line: its text (line breaks shown as `\n`), a file's name, type and size or URL,
/// or data as compact JSON.
fn part_text(part: &Part) -> String {
    let file = || {
        let name = part.filename.as_deref().unwrap_or("file");
        match part.media_type.as_deref() {
            Some(media_type) => format!("{name} ({media_type}"),
            None => format!("{name} ("),
        }
    };
    match &part.content {
        Some(PartContent::Text(text)) => text.replace('\n', "\\n"),
        Some(PartContent::Raw(bytes)) => {
            let opened = file();
            let separator = if opened.ends_with('(') { "" } else { ", " };
            format!("{opened}{separator}{} bytes)", bytes.len())
        }
        Some(PartContent::Url(url)) => {
            let opened = file();
            let separator = if opened.ends_with('(') { "" } else { ", " };
            format!("{opened}{separator}at {url})")
        }
        Some(PartContent::Data(data)) => format!("data {data}"),
        _ => "(empty part)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_names_are_short() {
        assert_eq!(state_name(TaskState::InputRequired), "input-required");
        assert_eq!(state_name(TaskState::Completed), "completed");
    }

    #[test]
    fn parts_are_one_line_each() {
        assert_eq!(part_text(&Part::text("a\nb")), "a\\nb");
        assert_eq!(
            part_text(&Part::raw(vec![1, 2, 3], "image/png").filename("x.png")),
            "x.png (image/png, 3 bytes)"
        );
        assert_eq!(
            part_text(&Part::data(serde_json::json!({"a": 1}))),
            "data {\"a\":1}"
        );
    }
}
