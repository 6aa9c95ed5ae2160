//! Reading and writing ProtoJSON text with errors that say where the problem is.
//!
//! `serde_json::from_str` works on every message too, but its errors give only a line and column; these
//! functions add the field path (`status.message.parts[0].raw`), which is what a server needs to answer a
//! client and what a person needs to fix a payload.
//!
//! Tracking the path costs time on every field, so each function first runs plain `serde_json` and only
//! on failure runs again with the path tracked: a valid document costs what `serde_json` costs, and an
//! invalid one gets the same error it would have had from a single path-tracking pass.
//!
//! Both functions that read hold the whole document to one rule: bytes that are not UTF-8 and `\u`
//! escapes of a lone surrogate are errors (at `.`) even inside an unknown field that is otherwise
//! ignored. An error's text longer than 400 bytes is cut to its first 200 and last 100 characters.
//!
//! The code lives in `a2a_support::json`, shared with `a2a_types::json` (the same [`JsonError`]), so
//! both crates read JSON text by one rule.
//!
//! ```
//! use a2a_proto::v1::Task;
//!
//! let err = a2a_proto::json::from_str::<Task>(r#"{"id":"t-1","status":{"state":"TASK_STATE_PAUSED"}}"#)
//!     .unwrap_err();
//! assert_eq!(err.path(), "status.state");
//! ```

pub use a2a_support::json::{JsonError, from_slice, from_str, to_string, to_string_pretty};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{GetTaskRequest, SendMessageRequest};

    /// ProtoJSON messages are objects; a2a-types reads them the same way (its `json` module tests).
    #[test]
    fn a_message_is_never_read_from_an_array() {
        let positional = from_str::<GetTaskRequest>(r#"[null, "task-1", 0]"#).unwrap_err();
        assert!(positional.to_string().contains("sequence"), "{positional}");
        let nested =
            from_str::<SendMessageRequest>(r#"{"message": ["m-1", "ROLE_USER"]}"#).unwrap_err();
        assert!(nested.to_string().contains("message"), "{nested}");
        assert!(nested.to_string().contains("sequence"), "{nested}");
    }
}
