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

    /// The underlying `serde_json` error (line and column for input errors). A text longer than 400
    /// bytes is cut to its first 200 and last 100 characters; that error then holds the line and column
    /// in its text only.
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
        Self::new(error.path().to_string(), error.into_inner())
    }
}

/// The longest error text (in bytes) kept whole; see [`JsonError::inner`].
const MAX_ERROR_TEXT: usize = 400;
/// Characters kept from the start and from the end of a longer one.
const KEPT_HEAD: usize = 200;
const KEPT_TAIL: usize = 100;

impl JsonError {
    /// An error at `path`. serde's messages quote the offending value whole, however large; a text
    /// longer than 400 bytes keeps its first 200 and last 100 characters (the line and column are at the
    /// end) around a note of how much was left out, as `a2a-types` does.
    fn new(path: String, source: serde_json::Error) -> Self {
        let text = source.to_string();
        if text.len() <= MAX_ERROR_TEXT {
            return Self { path, source };
        }
        let head_end = text
            .char_indices()
            .nth(KEPT_HEAD)
            .map_or(text.len(), |(at, _)| at);
        let tail_start = text
            .char_indices()
            .rev()
            .nth(KEPT_TAIL - 1)
            .map_or(0, |(at, _)| at)
            .max(head_end);
        let bounded = format!(
            "{}… [{} of {} bytes left out] …{}",
            &text[..head_end],
            tail_start - head_end,
            text.len(),
            &text[tail_start..]
        );
        Self {
            path,
            source: <serde_json::Error as serde::de::Error>::custom(bounded),
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
    let message = serde_json::from_str(text)
        .or_else(|_| with_path(serde_json::Deserializer::from_str(text)))?;
    // A `str` is UTF-8 already: only escapes remain to check.
    unicode_result(surrogate_problem(text.as_bytes()))?;
    Ok(message)
}

/// Parses one message from ProtoJSON bytes, which must be UTF-8 throughout.
///
/// Both functions hold the whole document to one rule, as `a2a-types` does: bytes that are not UTF-8
/// and `\u` escapes of a lone surrogate are errors (at `.`) even inside an unknown field that is
/// otherwise ignored.
pub fn from_slice<M: DeserializeOwned>(bytes: &[u8]) -> Result<M, JsonError> {
    let message = serde_json::from_slice(bytes)
        .or_else(|_| with_path(serde_json::Deserializer::from_slice(bytes)))?;
    check_unicode(bytes)?;
    Ok(message)
}

fn check_unicode(bytes: &[u8]) -> Result<(), JsonError> {
    unicode_result(unicode_problem(bytes))
}

fn unicode_result(problem: Option<String>) -> Result<(), JsonError> {
    match problem {
        None => Ok(()),
        Some(problem) => Err(JsonError::new(
            ".".to_owned(),
            <serde_json::Error as serde::de::Error>::custom(problem),
        )),
    }
}

/// Checks that JSON text is Unicode throughout, ignored unknown fields included: bytes that are not
/// UTF-8 and `\u` escapes of a lone surrogate are errors wherever they sit. serde_json rejects both in
/// the strings it reads but skips them in members it ignores, so without this check whether a document
/// was accepted depended on which members a type happens to read.
fn unicode_problem(bytes: &[u8]) -> Option<String> {
    if let Err(error) = std::str::from_utf8(bytes) {
        return Some(format!(
            "invalid UTF-8 at byte {}: JSON text must be Unicode, unknown fields included",
            error.valid_up_to()
        ));
    }
    surrogate_problem(bytes)
}

/// The lone-surrogate half of [`unicode_problem`], for text known to be UTF-8 (a `&str`).
fn surrogate_problem(bytes: &[u8]) -> Option<String> {
    let hex4 = |at: usize| {
        let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let mut at = 0;
    // memchr: this scan runs over every document read, and a byte-by-byte search costs a fifth of
    // the parse of a small one.
    while let Some(offset) = memchr::memchr(b'\\', &bytes[at..]) {
        let escape = at + offset;
        at = escape + 2;
        if bytes.get(escape + 1) != Some(&b'u') {
            continue;
        }
        let Some(unit) = hex4(escape + 2) else {
            continue;
        };
        at = escape + 6;
        let paired = match unit {
            0xd800..=0xdbff => {
                let low = (bytes.get(escape + 6..escape + 8) == Some(&b"\\u"[..]))
                    .then(|| hex4(escape + 8))
                    .flatten();
                at = escape + 12;
                low.is_some_and(|low| (0xdc00..=0xdfff).contains(&low))
            }
            0xdc00..=0xdfff => false,
            _ => true,
        };
        if !paired {
            return Some(format!(
                "lone surrogate `\\u{unit:04x}` at byte {escape}: JSON text must be Unicode, unknown fields included"
            ));
        }
    }
    None
}

/// The second, path-tracking parse of a document that failed the plain one.
fn with_path<'de, M: DeserializeOwned, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<M, JsonError> {
    let message = serde_path_to_error::deserialize(&mut deserializer)?;
    // Trailing characters after the document are an error of the document as a whole.
    deserializer
        .end()
        .map_err(|source| JsonError::new(".".to_owned(), source))?;
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
