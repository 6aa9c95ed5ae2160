//! Parsing JSON into any type of this crate with errors that name the field at fault.
//!
//! `serde_json::from_str` reads every type here, but when a document is wrong its error says only
//! what was wrong and where in the text (`unknown variant "TASK_STATE_PAUSED" ... at line 1 column
//! 47`). These functions add the field's path (`status.state`), which is what a server needs to tell a
//! client and what a person needs to fix a payload:
//!
//! ```
//! use a2a_types::v1::Task;
//!
//! let task: Task = a2a_types::json::from_str(r#"{"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}"#)?;
//! assert_eq!(task.id, "t-1");
//!
//! let error = a2a_types::json::from_str::<Task>(
//!     r#"{"id": "t-1", "status": {"state": "TASK_STATE_WORKING", "timestamp": "yesterday"}}"#,
//! )
//! .unwrap_err();
//! assert_eq!(error.path(), "status.timestamp");
//! assert!(error.to_string().starts_with("at `status.timestamp`: "), "{error}");
//! # Ok::<(), a2a_types::json::JsonError>(())
//! ```
//!
//! A part's content (`text`, `raw`, `url`, `data`) and the other oneof members a message holds directly
//! are read with the message, so for them the path names the message (`history[1].parts[0]`) and the
//! error's text names the member.
//!
//! Valid input costs the same as `serde_json`: it is parsed plainly, and only a document that fails is
//! parsed a second time, tracking the path, to describe the failure.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A JSON document that does not hold the expected type, with the path of the offending field.
#[derive(Debug)]
pub struct JsonError {
    path: String,
    source: serde_json::Error,
}

impl JsonError {
    /// The path of the field at fault, such as `status.timestamp` or `history[0].parts[1].raw` (`.`
    /// for the document as a whole, e.g. for a syntax error before the first field).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The `serde_json` error underneath (with line and column for text input).
    pub fn inner(&self) -> &serde_json::Error {
        &self.source
    }

    /// Takes the `serde_json` error out.
    pub fn into_inner(self) -> serde_json::Error {
        self.source
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.source)
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl From<serde_path_to_error::Error<serde_json::Error>> for JsonError {
    fn from(error: serde_path_to_error::Error<serde_json::Error>) -> Self {
        Self {
            path: error.path().to_string(),
            source: error.into_inner(),
        }
    }
}

/// Parses a `T` from JSON text.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    serde_json::from_str(text).or_else(|_| with_path(serde_json::Deserializer::from_str(text)))
}

/// Parses a `T` from JSON bytes (which must be UTF-8).
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonError> {
    serde_json::from_slice(bytes)
        .or_else(|_| with_path(serde_json::Deserializer::from_slice(bytes)))
}

/// Converts a parsed JSON value into a `T`.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, JsonError> {
    T::deserialize(&value).or_else(|_| Ok(serde_path_to_error::deserialize(&value)?))
}

/// The second, path-tracking parse of a document that failed the plain one.
fn with_path<'de, T: DeserializeOwned, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<T, JsonError> {
    let value = serde_path_to_error::deserialize(&mut deserializer)?;
    // Only trailing characters can fail after the value; they belong to the document as a whole.
    deserializer.end().map_err(|source| JsonError {
        path: ".".to_owned(),
        source,
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{PartContent, SendMessageRequest, StreamResponse, Task, TaskState};
    use serde_json::json;

    /// ProtoJSON messages are objects: serde's derive would read a struct from an array, by position.
    #[test]
    fn a_message_is_never_read_from_an_array() {
        let positional =
            serde_json::from_str::<crate::v1::GetTaskRequest>(r#"[null, "task-1", 0]"#)
                .unwrap_err();
        assert!(
            positional.to_string().contains("expected a JSON object"),
            "{positional}"
        );
        let nested =
            from_str::<SendMessageRequest>(r#"{"message": ["m-1", "ROLE_USER", []]}"#).unwrap_err();
        assert_eq!(nested.path(), "message", "{nested}");
        assert!(
            nested.to_string().contains("expected a JSON object"),
            "{nested}"
        );
        let value = serde_json::from_value::<Task>(json!(["t-1", "", {"state": 2}])).unwrap_err();
        assert!(
            value.to_string().contains("expected a JSON object"),
            "{value}"
        );
        // Objects still read, through every entry point.
        assert_eq!(from_str::<Task>(TASK).unwrap().id, "task-7f3a");
    }

    const TASK: &str = r#"{
        "id": "task-7f3a",
        "contextId": "ctx-lisbon-trip",
        "status": {"state": "TASK_STATE_INPUT_REQUIRED", "timestamp": "2026-04-01T09:30:00Z"},
        "history": [
            {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Find a hotel"}]},
            {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "Which dates?"},
                {"raw": "aGVsbG8=", "mediaType": "text/plain"}]}
        ]
    }"#;

    #[test]
    fn valid_documents_parse_as_with_serde_json() {
        let expected: Task = serde_json::from_str(TASK).unwrap();
        assert_eq!(from_str::<Task>(TASK).unwrap(), expected);
        assert_eq!(from_slice::<Task>(TASK.as_bytes()).unwrap(), expected);
        let value: Value = serde_json::from_str(TASK).unwrap();
        let task: Task = from_value(value).unwrap();
        assert_eq!(task, expected);
        assert_eq!(task.status.state, TaskState::InputRequired);
        assert_eq!(
            task.history[1].parts[1].content,
            Some(PartContent::Raw(b"hello".to_vec()))
        );
    }

    #[test]
    fn errors_name_the_field_for_text_bytes_and_values() {
        let broken = TASK.replace("ROLE_AGENT", "ROLE_PILOT");
        let plain = serde_json::from_str::<Task>(&broken)
            .unwrap_err()
            .to_string();
        for error in [
            from_str::<Task>(&broken).unwrap_err(),
            from_slice::<Task>(broken.as_bytes()).unwrap_err(),
        ] {
            assert_eq!(error.path(), "history[1].role");
            assert_eq!(
                error.inner().to_string(),
                plain,
                "the same error, with a path"
            );
            assert!(error.to_string().starts_with("at `history[1].role`: "));
        }
        let value: Value = serde_json::from_str(&broken).unwrap();
        let error = from_value::<Task>(value).unwrap_err();
        assert_eq!(error.path(), "history[1].role");
    }

    #[test]
    fn a_part_content_error_names_the_member() {
        // A part's content members sit in the part itself (a flattened oneof); the path still ends at
        // the member.
        let broken = TASK.replace("aGVsbG8=", "not base64!");
        let error = from_str::<Task>(&broken).unwrap_err();
        assert_eq!(error.path(), "history[1].parts[1].raw");
        assert!(error.to_string().contains("base64"), "{error}");
    }

    #[test]
    fn enum_and_oneof_errors_name_their_field() {
        let request = json!({
            "message": {"messageId": "m-1", "role": "ROLE_PILOT", "parts": [{"text": "hi"}]}
        });
        let error = from_value::<SendMessageRequest>(request).unwrap_err();
        assert_eq!(error.path(), "message.role");
        assert!(error.to_string().contains("ROLE_PILOT"), "{error}");

        let two_members = r#"{"task": {"id": "t"}, "message": {"messageId": "m"}}"#;
        let error = from_str::<StreamResponse>(two_members).unwrap_err();
        assert!(error.to_string().starts_with("at `"), "{error}");
    }

    #[test]
    fn syntax_and_trailing_errors_belong_to_the_document() {
        let error = from_str::<Task>(r#"{"id": "t-1"} extra"#).unwrap_err();
        assert_eq!(error.path(), ".");
        assert!(error.inner().is_syntax(), "{error}");
        let error = from_str::<Task>(r#"{"id": "t-1", "status": {"state": }"#).unwrap_err();
        assert_eq!(error.path(), "status.state");
        assert!(error.inner().is_syntax(), "{error}");
        let error = from_slice::<Task>(b"\xff").unwrap_err();
        assert_eq!(error.path(), ".");
    }
}
