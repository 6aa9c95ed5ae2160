//! Reading and writing ProtoJSON text with errors that say where the problem is.
//!
//! `serde_json::from_str` works on every message too, but its errors give only a line and column; these
//! functions add the field path (`status.message.parts[0].raw`), which is what a server needs to answer a
//! client and what a person needs to fix a payload.
//!
//! Tracking the path costs time on every field, so each function first runs plain `serde_json` and only
//! on failure runs again with the path tracked: a valid document costs what `serde_json` costs, and an
//! invalid one gets the same error it would have had from a single path-tracking pass.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A ProtoJSON document that could not be read or written, with the path of the offending field.
#[derive(Debug)]
pub struct JsonError {
    path: String,
    source: serde_json::Error,
}

impl JsonError {
    /// The path of the field at fault, such as `status.timestamp` or `parts[1].raw` (`.` for the
    /// document itself).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The underlying `serde_json` error (line and column for input errors).
    pub fn inner(&self) -> &serde_json::Error {
        &self.source
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

/// Parses one message from ProtoJSON text.
///
/// ```
/// use a2a_proto::v1::Task;
///
/// let err = a2a_proto::json::from_str::<Task>(r#"{"id":"t-1","status":{"state":"TASK_STATE_PAUSED"}}"#)
///     .unwrap_err();
/// assert_eq!(err.path(), "status.state");
/// ```
pub fn from_str<M: DeserializeOwned>(text: &str) -> Result<M, JsonError> {
    serde_json::from_str(text).or_else(|_| with_path(serde_json::Deserializer::from_str(text)))
}

/// Parses one message from ProtoJSON bytes (which must be UTF-8).
pub fn from_slice<M: DeserializeOwned>(bytes: &[u8]) -> Result<M, JsonError> {
    serde_json::from_slice(bytes)
        .or_else(|_| with_path(serde_json::Deserializer::from_slice(bytes)))
}

/// The second, path-tracking parse of a document that failed the plain one.
fn with_path<'de, M: DeserializeOwned, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<M, JsonError> {
    let message = serde_path_to_error::deserialize(&mut deserializer)?;
    // Trailing characters after the document are an error of the document as a whole.
    deserializer.end().map_err(|source| JsonError {
        path: ".".to_owned(),
        source,
    })?;
    Ok(message)
}

/// Writes one message as compact ProtoJSON; fails only on values ProtoJSON cannot express (an
/// out-of-range timestamp, a NaN in a `Value`), naming the field.
pub fn to_string<M: Serialize>(message: &M) -> Result<String, JsonError> {
    serde_json::to_string(message).or_else(|_| {
        let mut out = Vec::new();
        serde_path_to_error::serialize(message, &mut serde_json::Serializer::new(&mut out))?;
        Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
    })
}

/// Writes one message as indented ProtoJSON.
pub fn to_string_pretty<M: Serialize>(message: &M) -> Result<String, JsonError> {
    serde_json::to_string_pretty(message).or_else(|_| {
        let mut out = Vec::new();
        serde_path_to_error::serialize(message, &mut serde_json::Serializer::pretty(&mut out))?;
        Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
    })
}

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
