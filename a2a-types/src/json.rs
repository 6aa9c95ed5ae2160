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
//!
//! Writing: [`to_vec`] and [`to_string`] give the bytes `serde_json::to_vec` and `serde_json::to_string`
//! give for every message of [`crate::v1`] (each implements [`WriteJson`]), through encoders generated
//! per message that write straight into a buffer, without serde's serializer in between:
//!
//! ```
//! use a2a_types::v1::Task;
//!
//! let task: Task = a2a_types::json::from_str(r#"{"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}"#)?;
//! assert_eq!(a2a_types::json::to_vec(&task)?, serde_json::to_vec(&task)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The code lives in `a2a_support::json`, shared with `a2a_proto::json` (the same [`JsonError`]), so
//! both crates hold JSON text to one rule.

pub use a2a_support::json::{
    JsonError, KEPT_HEAD, KEPT_TAIL, MAX_ERROR_TEXT, bounded, check_unicode, from_slice, from_str,
    from_value, value_from_slice, value_from_str,
};
pub use a2a_support::json_write::{WriteJson, json_len, to_string, to_vec};
/// Reads `text` as `T` the way serde's derive would (the reading the generated in-place readers of
/// the v1 messages stand in for), with the same path-naming errors as [`from_str`]: for the tests that
/// compare the two on every input.
#[doc(hidden)]
pub fn from_str_by_reference<T: a2a_support::protojson::ReferenceRead>(
    text: &str,
) -> Result<T, JsonError> {
    from_str::<ByReference<T>>(text).map(|read| read.0)
}

/// A message read through [`a2a_support::protojson::ReferenceRead`].
struct ByReference<T>(T);

impl<'de, T: a2a_support::protojson::ReferenceRead> serde::Deserialize<'de> for ByReference<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::read_reference(deserializer).map(ByReference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{PartContent, SendMessageRequest, StreamResponse, Task, TaskState};
    use serde_json::{Value, json};

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

    /// A leap second is RFC 3339 but no protobuf Timestamp: a2a_support's timestamp rule rejects it
    /// (its own tests hold the rule), and a2a_types' reader names the field.
    #[test]
    fn a_leap_second_is_an_error_naming_the_field() {
        let task = from_str::<crate::v1::TaskStatus>(
            r#"{"state": "TASK_STATE_WORKING", "timestamp": "2026-06-30T23:59:60Z"}"#,
        )
        .unwrap_err();
        assert_eq!(task.path(), "timestamp", "{task}");
    }
}
