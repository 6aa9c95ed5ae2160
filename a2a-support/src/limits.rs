//! A decode budget: how many bytes, and how many elements, one document may have before anything is
//! decoded, so a server bounds the memory one request can make it hold (re-exported as
//! `a2a_protocol::limits` for JSON and `a2a_proto::limits`, which adds the walk of protobuf binary).
//!
//! A decoded value can hold many times its input: an empty element costs a whole Rust struct (a
//! 3-byte `{}` task in a list is a `Task` of several hundred bytes). Bounding the bytes alone bounds
//! memory only up to that ratio; bounding the count of elements as well bounds it directly:
//!
//! > bytes held by a decoded value ≤ [`BYTES_PER_ELEMENT`] × elements + [`BYTES_PER_BYTE`] × input bytes
//!
//! [`Limits`] holds both numbers, one budget for both encodings: an element is one JSON value, or one
//! protobuf field. [`Limits::check_json`] applies them with a counting pre-scan that allocates nothing
//! and stops at the first value over the budget, before the real parse commits any memory;
//! [`Limits::check_with`] applies them with the counter of another encoding (`a2a_proto::limits`
//! counts protobuf fields with it). [`from_slice`] reads any type under a budget.
//!
//! ```
//! use a2a_support::limits::{Limit, Limits};
//!
//! let limits = Limits::default().with_max_elements(8);
//! let ok = br#"{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}"#;
//! assert_eq!(limits.check_json(ok), Ok(6));
//! let message: serde_json::Value = a2a_support::limits::from_slice(ok, &limits)?;
//! assert_eq!(message["parts"][0]["text"], "hi");
//!
//! let hostile = br#"{"messageId": "m-1", "parts": [{}, {}, {}, {}, {}, {}, {}, {}]}"#;
//! let error = limits.check_json(hostile).unwrap_err();
//! assert_eq!((error.limit, error.max, error.path.as_str()), (Limit::Elements, 8, "parts[5]"));
//! assert_eq!(error.to_string(), "more than 8 JSON values (the max_elements limit) at `parts[5]`");
//! # Ok::<(), a2a_support::limits::ReadError>(())
//! ```
//!
//! # What counts in JSON
//!
//! One element is one JSON value: the document itself, each array item and each member's value (a
//! member's name is not counted apart from its value). `{"a": [1, 2]}` is 4 elements. The count is
//! exact for valid JSON; on invalid JSON it never undercounts what a parser would read before the
//! first syntax error, which the parse then reports.
//!
//! # Defaults, and what they bound
//!
//! | limit | default | why |
//! |---|---|---|
//! | [`max_bytes`](Limits::max_bytes) | [`DEFAULT_MAX_BYTES`] (16 MiB) | as `a2a_protocol::sse::DEFAULT_MAX_EVENT_SIZE`: a file part of about 12 MB inline (base64) fits |
//! | [`max_elements`](Limits::max_elements) | [`DEFAULT_MAX_ELEMENTS`] (100,000) | 50 times the values of the benchmark's 51 KB task (1,851) and 10 times a task of 1,000 messages of a few parts each; at most ~100 MB of structs |
//!
//! With the defaults a document holds at most ~100 MB of structs plus about twice its text whatever
//! its shape ([`Limits::max_held_bytes`]: 136 MB), and real documents far less (the measured worst
//! shapes, empty tasks, hold 440 bytes per JSON value and 451 per protobuf field). Servers with other
//! needs set their own numbers; [`Limits::unlimited`] turns the budget off. The measured ratios per
//! shape are in the crate docs of `a2a_types` and `a2a_proto` ("Limits", "Hostile input").
//!
//! # Cost
//!
//! The JSON pre-scan reads the bytes once without allocating (strings are skipped with `memchr`): on
//! the six documents of the workspace benchmark (0.5 to 51 KB) it costs 0.10 to 0.14 of a typed decode
//! of the same document with `a2a_types` (`cargo bench --manifest-path benchmarks/Cargo.toml --bench
//! budget`), and nothing when the byte limit alone refuses the input. [`Limits::unlimited`] skips
//! it.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::json::JsonError;

/// The default [`Limits::max_bytes`]: 16 MiB.
pub const DEFAULT_MAX_BYTES: usize = 16 * 1024 * 1024;

/// The default [`Limits::max_elements`]: 100,000 JSON values.
pub const DEFAULT_MAX_ELEMENTS: usize = 100_000;

/// The most bytes one counted element (a JSON value, a protobuf field) makes a decoded value of either
/// type crate hold (an empty task in a list: its struct, plus the list's spare capacity), measured by
/// the workspace's `allocation` tests for every shape they try (at most 440 per JSON value, 451 per
/// protobuf field).
pub const BYTES_PER_ELEMENT: usize = 1_024;

/// The most bytes one input byte makes a decoded value hold beyond the per-element cost (strings and
/// bytes keep their content, up to twice over while a list grows).
pub const BYTES_PER_BYTE: usize = 2;

/// How many bytes and elements one document may have; see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    max_bytes: usize,
    max_elements: usize,
}

impl Default for Limits {
    /// [`DEFAULT_MAX_BYTES`] and [`DEFAULT_MAX_ELEMENTS`].
    fn default() -> Self {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            max_elements: DEFAULT_MAX_ELEMENTS,
        }
    }
}

impl Limits {
    /// No limit at all: every check passes without reading the input.
    pub const fn unlimited() -> Self {
        Limits {
            max_bytes: usize::MAX,
            max_elements: usize::MAX,
        }
    }

    /// These limits with at most `max_bytes` bytes per document.
    #[must_use]
    pub const fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// These limits with at most `max_elements` JSON values per document.
    #[must_use]
    pub const fn with_max_elements(mut self, max_elements: usize) -> Self {
        self.max_elements = max_elements;
        self
    }

    /// The most bytes a document may have.
    pub const fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// The most JSON values a document may have.
    pub const fn max_elements(&self) -> usize {
        self.max_elements
    }

    /// The bound these limits put on what a document decoded by either type crate holds, in bytes:
    /// [`BYTES_PER_ELEMENT`] × `max_elements` + [`BYTES_PER_BYTE`] × `max_bytes` (saturating).
    pub const fn max_held_bytes(&self) -> usize {
        BYTES_PER_ELEMENT
            .saturating_mul(self.max_elements)
            .saturating_add(BYTES_PER_BYTE.saturating_mul(self.max_bytes))
    }

    /// Checks a JSON document against the limits, without parsing it into anything: its size, then
    /// its count of values, stopping at the first one over the budget. Returns the count.
    pub fn check_json(&self, bytes: &[u8]) -> Result<usize, LimitError> {
        self.check_with(bytes, Counted::JsonValues, |bytes, max| {
            count_json_values(bytes, max).map_err(|at| path_at(bytes, at))
        })
    }

    /// Checks a document of any encoding against the limits: its size, then `count`, which counts its
    /// elements (`counted` says what they are) up to the given most and returns the count, or the
    /// path of the first element over it. `count` never runs when the size is over the budget or the
    /// element limit is off ([`Limits::unlimited`]; the count is then 0). `a2a_proto::limits` counts
    /// protobuf fields with it.
    pub fn check_with(
        &self,
        bytes: &[u8],
        counted: Counted,
        count: impl FnOnce(&[u8], usize) -> Result<usize, String>,
    ) -> Result<usize, LimitError> {
        if bytes.len() > self.max_bytes {
            return Err(LimitError {
                counted,
                ..self.over_bytes(bytes.len())
            });
        }
        if self.max_elements == usize::MAX {
            return Ok(0);
        }
        count(bytes, self.max_elements).map_err(|path| LimitError {
            limit: Limit::Elements,
            max: self.max_elements,
            observed: self.max_elements.saturating_add(1),
            path,
            counted,
        })
    }

    /// Checks a size in bytes against [`max_bytes`](Self::max_bytes), e.g. a `Content-Length`
    /// before the body is read.
    pub fn check_bytes(&self, len: usize) -> Result<(), LimitError> {
        if len > self.max_bytes {
            return Err(self.over_bytes(len));
        }
        Ok(())
    }

    fn over_bytes(&self, len: usize) -> LimitError {
        LimitError {
            limit: Limit::Bytes,
            max: self.max_bytes,
            observed: len,
            path: ".".to_owned(),
            counted: Counted::JsonValues,
        }
    }
}

/// Which limit a document exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`Limits::max_bytes`].
    Bytes,
    /// [`Limits::max_elements`].
    Elements,
}

impl Limit {
    /// The limit's name as in [`Limits`]' builder: `max_bytes`, `max_elements`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Bytes => "max_bytes",
            Limit::Elements => "max_elements",
        }
    }
}

/// A document over its budget: which limit, its value, what was seen, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LimitError {
    /// The limit exceeded.
    pub limit: Limit,
    /// The limit's value.
    pub max: usize,
    /// What was seen: the document's size for [`Limit::Bytes`]; for [`Limit::Elements`] `max + 1`,
    /// since counting stops at the first value over the limit.
    pub observed: usize,
    /// The path of the first element over the limit, by JSON names (`parts[5]`, `metadata.k1`; in
    /// protobuf binary, a field the schema does not know is `#` and its number), `.` for the whole
    /// document; long keys are shortened.
    pub path: String,
    /// What the elements counted are: JSON values or protobuf fields.
    pub counted: Counted,
}

/// What [`Limits::max_elements`] counts in the document checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Counted {
    /// JSON values ([`Limits::check_json`]; also what a [`Limit::Bytes`] error from
    /// [`Limits::check_bytes`] says).
    JsonValues,
    /// Protobuf fields on the wire (`a2a_proto::limits`).
    ProtobufFields,
}

impl Counted {
    /// The elements' name in an error message: `JSON values`, `protobuf fields`.
    pub fn name(self) -> &'static str {
        match self {
            Counted::JsonValues => "JSON values",
            Counted::ProtobufFields => "protobuf fields",
        }
    }
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Bytes => write!(
                f,
                "{} bytes, more than the {} bytes allowed (the max_bytes limit)",
                self.observed, self.max
            ),
            Limit::Elements => write!(
                f,
                "more than {} {} (the max_elements limit) at `{}`",
                self.max,
                self.counted.name(),
                self.path
            ),
        }
    }
}

impl std::error::Error for LimitError {}

/// A document that could not be read under its [`Limits`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// Over the budget; nothing was parsed.
    Limit(LimitError),
    /// Within the budget, but not the JSON expected.
    Json(JsonError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Limit(error) => error.fmt(f),
            ReadError::Json(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Limit(error) => Some(error),
            ReadError::Json(error) => Some(error),
        }
    }
}

impl From<LimitError> for ReadError {
    fn from(error: LimitError) -> Self {
        ReadError::Limit(error)
    }
}

impl From<JsonError> for ReadError {
    fn from(error: JsonError) -> Self {
        ReadError::Json(error)
    }
}

/// [`crate::json::from_slice`] under a budget: [`Limits::check_json`] first, then the parse.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8], limits: &Limits) -> Result<T, ReadError> {
    limits.check_json(bytes)?;
    Ok(crate::json::from_slice(bytes)?)
}

/// Whether no array or object in `bytes` nests more than `max` levels deep, read as the pre-scan
/// reads (once, strings skipped with `memchr`, nothing allocated). On text that is not JSON the
/// answer is only as good as the text: callers parse it afterwards anyway.
pub fn json_nests_at_most(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match byte {
            b'"' => at = skip_string(bytes, at),
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    true
}

/// The longest key kept whole in a [`LimitError`]'s path.
const MAX_PATH_KEY: usize = 64;

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// Characters that can continue a number or a literal (`true`, `1e-5`): a scalar is one run of them.
fn is_scalar_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'+' | b'.')
}

/// The offset just after the string whose opening quote is before `at` (the end of the input for
/// an unterminated one).
fn skip_string(bytes: &[u8], mut at: usize) -> usize {
    while let Some(found) = bytes
        .get(at..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        at += found;
        if bytes[at] == b'"' {
            return at + 1;
        }
        at += 2;
    }
    bytes.len()
}

/// Whether the next byte after `at` that is not white space is `:` (so the string before `at` was a
/// member's name), and where that byte is.
fn colon_after(bytes: &[u8], mut at: usize) -> (bool, usize) {
    while bytes.get(at).is_some_and(|&b| is_space(b)) {
        at += 1;
    }
    (bytes.get(at) == Some(&b':'), at)
}

/// Counts the JSON values of `bytes`; `Err(offset)` of the first value past `max`. Lenient: any byte
/// that starts no value is skipped, so invalid input is counted at least as far as a parser reads it.
fn count_json_values(bytes: &[u8], max: usize) -> Result<usize, usize> {
    let mut count = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let start = at;
        match byte {
            b'"' => {
                let end = skip_string(bytes, at + 1);
                let (is_name, colon) = colon_after(bytes, end);
                if is_name {
                    at = colon + 1;
                    continue;
                }
                at = end;
            }
            b'{' | b'[' => at += 1,
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                at += 1;
                while bytes.get(at).is_some_and(|&b| is_scalar_byte(b)) {
                    at += 1;
                }
            }
            _ => {
                at += 1;
                continue;
            }
        }
        count += 1;
        if count > max {
            return Err(start);
        }
    }
    Ok(count)
}

/// One level of the path to a value.
enum Frame {
    /// Inside an array, at this item.
    Array(usize),
    /// Inside an object, at the member whose name spans these bytes (quotes excluded).
    Object(Option<(usize, usize)>),
}

/// The JSON path of the value starting at offset `target` (found by [`count_json_values`]): walked
/// again with a stack of levels, only when a limit was exceeded.
fn path_at(bytes: &[u8], target: usize) -> String {
    let mut stack: Vec<Frame> = Vec::new();
    let mut at = 0;
    while at < target {
        match bytes[at] {
            b'"' => {
                let end = skip_string(bytes, at + 1);
                let (is_name, colon) = colon_after(bytes, end);
                if is_name {
                    if let Some(Frame::Object(name)) = stack.last_mut() {
                        *name = Some((at + 1, end.saturating_sub(1).max(at + 1)));
                    }
                    at = colon + 1;
                } else {
                    at = end;
                }
                continue;
            }
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Array(index)) = stack.last_mut() {
                    *index += 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Array(index) => path.push_str(&format!("[{index}]")),
            Frame::Object(name) => {
                if !path.is_empty() {
                    path.push('.');
                }
                let (from, to) = name.unwrap_or((0, 0));
                let name = String::from_utf8_lossy(&bytes[from..to]);
                match name.char_indices().nth(MAX_PATH_KEY) {
                    Some((cut, _)) => {
                        path.push_str(&name[..cut]);
                        path.push('…');
                    }
                    None => path.push_str(&name),
                }
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_scan_skips_brackets_in_strings() {
        assert!(json_nests_at_most(br#"{"a": "[[[{{{\"[["}"#, 1));
        assert!(!json_nests_at_most(br#"{"a": [{"b": "]]]"}]}"#, 2));
        assert!(json_nests_at_most(br#"{"a": [{"b": "]]]"}]}"#, 3));
    }

    fn values(text: &str) -> usize {
        Limits::unlimited()
            .with_max_elements(usize::MAX - 1)
            .check_json(text.as_bytes())
            .unwrap()
    }

    #[test]
    fn counts_every_value_and_no_member_name() {
        assert_eq!(values("{}"), 1);
        assert_eq!(values(r#"{"a": [1, 2]}"#), 4);
        assert_eq!(values(r#"[true, false, null, -1.5e3, "x"]"#), 6);
        assert_eq!(values(r#"{"k\"": "v:", "s": "a\\", "t": {}}"#), 4);
        assert_eq!(values(" \"\" "), 1);
        assert_eq!(values(""), 0);
    }

    #[test]
    fn the_element_limit_passes_at_n_and_fails_at_n_plus_1_naming_the_path() {
        let text = br#"{"messageId": "m", "parts": [{"text": "a"}, {"text": "b"}]}"#;
        assert_eq!(Limits::default().check_json(text), Ok(7));
        assert_eq!(
            Limits::default().with_max_elements(7).check_json(text),
            Ok(7)
        );
        let error = Limits::default()
            .with_max_elements(6)
            .check_json(text)
            .unwrap_err();
        assert_eq!(
            error,
            LimitError {
                limit: Limit::Elements,
                max: 6,
                observed: 7,
                path: "parts[1].text".to_owned(),
                counted: Counted::JsonValues,
            }
        );
        let error = Limits::default()
            .with_max_elements(5)
            .check_json(text)
            .unwrap_err();
        assert_eq!(error.path, "parts[1]");
        let error = Limits::default()
            .with_max_elements(0)
            .check_json(text)
            .unwrap_err();
        assert_eq!(error.path, ".");
    }

    #[test]
    fn the_byte_limit_passes_at_n_and_fails_at_n_plus_1() {
        let text = br#"{"id": "t-1"}"#;
        let n = text.len();
        assert!(Limits::default().with_max_bytes(n).check_json(text).is_ok());
        let error = Limits::default()
            .with_max_bytes(n - 1)
            .check_json(text)
            .unwrap_err();
        assert_eq!(
            (error.limit, error.max, error.observed, error.path.as_str()),
            (Limit::Bytes, n - 1, n, ".")
        );
        assert_eq!(
            error.to_string(),
            "13 bytes, more than the 12 bytes allowed (the max_bytes limit)"
        );
    }

    #[test]
    fn paths_name_keys_and_indexes_and_stay_short() {
        let long = "k".repeat(10_000);
        let text = format!(r#"{{"metadata": {{"{long}": [0, 1, [2, 3]]}}}}"#);
        let error = Limits::default()
            .with_max_elements(6)
            .check_json(text.as_bytes())
            .unwrap_err();
        assert!(error.path.starts_with("metadata.kkkk"), "{}", error.path);
        assert!(error.path.ends_with("…[2][0]"), "{}", error.path);
        assert!(error.to_string().len() < 200);
    }

    #[test]
    fn invalid_input_is_counted_without_panicking() {
        for text in [
            "\"unterminated",
            "{\"a\" ",
            "[1,,,]",
            "}}]]{[",
            "\\",
            "\"\\",
            "xyz",
            "{\"a\":",
        ] {
            let _ = Limits::default()
                .with_max_elements(1)
                .check_json(text.as_bytes());
            let _ = values(text);
        }
        // A parser reads `[1, 2` as two values before failing: at least as many are counted.
        assert_eq!(values("[1, 2"), 3);
    }

    #[test]
    fn unlimited_never_reads_the_input() {
        assert_eq!(Limits::unlimited().check_json(b"[[[[[[[["), Ok(0));
        assert_eq!(Limits::unlimited().max_held_bytes(), usize::MAX);
    }

    /// A task as `a2a_types::v1::Task` reads one, as far as these documents go.
    #[derive(Debug, serde::Deserialize)]
    struct Task {
        id: String,
        #[serde(default)]
        #[allow(dead_code)] // read, to be counted and checked
        status: serde_json::Value,
    }

    #[test]
    fn from_slice_reads_under_the_budget_and_reports_either_failure() {
        let limits = Limits::default().with_max_elements(3);
        let task: Task = from_slice(br#"{"id": "t-1", "status": {}}"#, &limits).unwrap();
        assert_eq!(task.id, "t-1");
        assert!(matches!(
            from_slice::<Task>(br#"{"id": "t-1", "status": {}, "x": 1}"#, &limits),
            Err(ReadError::Limit(_))
        ));
        assert!(matches!(
            from_slice::<Task>(br#"{"id": 7}"#, &limits),
            Err(ReadError::Json(_))
        ));
    }

    #[test]
    fn other_encodings_are_checked_with_their_counter_under_the_same_rule() {
        let limits = Limits::default().with_max_elements(2);
        let counter = |bytes: &[u8], max: usize| {
            if bytes.len() > max {
                Err(format!("#{}", max + 1))
            } else {
                Ok(bytes.len())
            }
        };
        assert_eq!(
            limits.check_with(b"ab", Counted::ProtobufFields, counter),
            Ok(2)
        );
        let error = limits
            .check_with(b"abc", Counted::ProtobufFields, counter)
            .unwrap_err();
        assert_eq!(
            (error.limit, error.observed, error.path.as_str()),
            (Limit::Elements, 3, "#3")
        );
        assert_eq!(
            error.to_string(),
            "more than 2 protobuf fields (the max_elements limit) at `#3`"
        );
        let error = limits
            .with_max_bytes(1)
            .check_with(b"ab", Counted::ProtobufFields, |_, _| {
                unreachable!("over the bytes")
            })
            .unwrap_err();
        assert_eq!(
            (error.limit, error.counted),
            (Limit::Bytes, Counted::ProtobufFields)
        );
        assert_eq!(
            Limits::unlimited().check_with(b"ab", Counted::ProtobufFields, |_, _| unreachable!()),
            Ok(0)
        );
    }
}
