//! Parsing JSON into any serde type with errors that name the field at fault, and the rules for JSON
//! text that both type crates share (re-exported as `a2a_types::json` and `a2a_proto::json`).
//!
//! `serde_json::from_str` reads every generated type, but when a document is wrong its error says only
//! what was wrong and where in the text (`unknown variant "TASK_STATE_PAUSED" ... at line 1 column
//! 47`). [`from_str`], [`from_slice`] and [`from_value`] add the field's path (`status.state`), which is
//! what a server needs to tell a client and what a person needs to fix a payload:
//!
//! ```
//! #[derive(Debug, serde::Deserialize)]
//! struct Status {
//!     state: String,
//! }
//! #[derive(Debug, serde::Deserialize)]
//! struct Task {
//!     id: String,
//!     status: Status,
//! }
//!
//! let task: Task = a2a_support::json::from_str(r#"{"id": "t-1", "status": {"state": "WORKING"}}"#)?;
//! assert_eq!(task.status.state, "WORKING");
//!
//! let error = a2a_support::json::from_str::<Task>(r#"{"id": "t-1", "status": {"state": 7}}"#)
//!     .unwrap_err();
//! assert_eq!(error.path(), "status.state");
//! assert!(error.to_string().starts_with("at `status.state`: "), "{error}");
//! # Ok::<(), a2a_support::json::JsonError>(())
//! ```
//!
//! Valid input costs the same as `serde_json`: it is parsed plainly, and only a document that fails is
//! parsed a second time, tracking the path, to describe the failure. Writing ([`to_string`],
//! [`to_string_pretty`]) works the same way round.

use std::fmt;

use serde::Deserialize as _;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

mod key_scan;

pub use key_scan::keys_unique;

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

    /// The `serde_json` error underneath (with line and column for text input). A text longer than
    /// [`MAX_ERROR_TEXT`] is [`bounded`]; that error then holds the line and column in its text only.
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
        Self::new(error.path().to_string(), error.into_inner())
    }
}

impl JsonError {
    /// An error at `path`; a text longer than [`MAX_ERROR_TEXT`] is [`bounded`] (serde's messages
    /// quote the offending value whole, however large).
    pub fn new(path: String, source: serde_json::Error) -> Self {
        let text = source.to_string();
        let source = if text.len() > MAX_ERROR_TEXT {
            <serde_json::Error as serde::de::Error>::custom(bounded(&text))
        } else {
            source
        };
        Self { path, source }
    }
}

/// The longest error text (in bytes) kept whole. Longer ones keep their first [`KEPT_HEAD`] and last
/// [`KEPT_TAIL`] characters around a note of how much was left out, so an error that quotes a 50 MB
/// value is still one short line, with what went wrong and where.
pub const MAX_ERROR_TEXT: usize = 400;
/// Characters kept from the start of a long error text.
pub const KEPT_HEAD: usize = 200;
/// Characters kept from the end of a long error text (where serde puts the line and column).
pub const KEPT_TAIL: usize = 100;

/// `text` if it is at most [`MAX_ERROR_TEXT`] bytes long; otherwise its start and end around
/// `… [N of M bytes left out] …`.
pub fn bounded(text: &str) -> String {
    if text.len() <= MAX_ERROR_TEXT {
        return text.to_owned();
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
    format!(
        "{}… [{} of {} bytes left out] …{}",
        &text[..head_end],
        tail_start - head_end,
        text.len(),
        &text[tail_start..]
    )
}

/// Parses a `T` from JSON text. Text that is not Unicode (a `\u` escape of a lone surrogate), even in
/// an unknown field the type ignores, is an error ([`check_unicode`]).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let value = serde_json::from_str(text)
        .or_else(|_| with_path(serde_json::Deserializer::from_str(text)))?;
    // A `str` is UTF-8 already: only escapes remain to check.
    unicode_result(surrogate_problem(text.as_bytes()))?;
    Ok(value)
}

/// Parses a `T` from JSON bytes, which must be UTF-8 throughout, unknown fields included
/// ([`check_unicode`]).
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonError> {
    let value = serde_json::from_slice(bytes)
        .or_else(|_| with_path(serde_json::Deserializer::from_slice(bytes)))?;
    check_unicode(bytes)?;
    Ok(value)
}

/// The rule for text in both type crates: a document must be Unicode
/// throughout. Bytes that are not UTF-8 and `\u` escapes of a lone surrogate are errors wherever they
/// sit, in an ignored unknown field too, where serde_json alone would skip them. [`from_str`] and
/// [`from_slice`] check it after a successful parse; call it before `serde_json::from_slice` to apply
/// the same rule.
pub fn check_unicode(bytes: &[u8]) -> Result<(), JsonError> {
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

/// Writes `value` as compact JSON; fails only on values JSON cannot express (an out-of-range
/// timestamp, a NaN in a `serde_json::Value`), naming the field.
pub fn to_string<T: Serialize>(value: &T) -> Result<String, JsonError> {
    serde_json::to_string(value).or_else(|_| {
        let mut out = Vec::new();
        serde_path_to_error::serialize(value, &mut serde_json::Serializer::new(&mut out))?;
        Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
    })
}

/// Writes `value` as indented JSON, as [`to_string`] does.
pub fn to_string_pretty<T: Serialize>(value: &T) -> Result<String, JsonError> {
    serde_json::to_string_pretty(value).or_else(|_| {
        let mut out = Vec::new();
        serde_path_to_error::serialize(value, &mut serde_json::Serializer::pretty(&mut out))?;
        Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
    })
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
    deserializer
        .end()
        .map_err(|source| JsonError::new(".".to_owned(), source))?;
    Ok(value)
}

#[doc(hidden)] // for a2a_types' v0.3 unions, which quote what they found
/// `value` as JSON text for an error message, cut after [`KEPT_HEAD`] bytes (`…` and the length in
/// bytes of a long string): the whole text of a 50 MB value is never built.
pub fn shown(value: &Value) -> String {
    /// Keeps the first bytes written, then stops the serializer.
    struct Limited(Vec<u8>);

    impl std::io::Write for Limited {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let room = KEPT_HEAD + 1 - self.0.len();
            self.0.extend_from_slice(&bytes[..bytes.len().min(room)]);
            if self.0.len() > KEPT_HEAD {
                return Err(std::io::Error::other("long enough"));
            }
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    let mut out = Limited(Vec::new());
    if serde_json::to_writer(&mut out, value).is_ok() {
        return String::from_utf8_lossy(&out.0).into_owned();
    }
    out.0.truncate(KEPT_HEAD);
    let mut text = String::from_utf8_lossy(&out.0)
        .trim_end_matches('\u{fffd}')
        .to_owned();
    text.push('…');
    if let Value::String(long) = value {
        text.push_str(&format!(" ({} bytes)", long.len()));
    }
    text
}

/// Parses a JSON document into a [`Value`] with protobuf's rule for objects: a key twice in one object
/// is an error naming the object's path and the key (`serde_json::from_str` keeps the last silently).
///
/// ```
/// let error = a2a_support::json::value_from_str(r#"{"kind": "file", "file": {}, "kind": "text"}"#)
///     .unwrap_err();
/// assert_eq!(error.to_string(), "at `.`: duplicate key \"kind\" in JSON object at line 1 column 44");
/// ```
pub fn value_from_str(text: &str) -> Result<Value, JsonError> {
    from_str::<UniqueKeys>(text).map(|v| v.0)
}

/// [`value_from_str`] for bytes (which must be UTF-8).
pub fn value_from_slice(bytes: &[u8]) -> Result<Value, JsonError> {
    from_slice::<UniqueKeys>(bytes).map(|v| v.0)
}

/// A [`Value`] read with no key twice in any of its objects: what `a2a_types` reads free-form members
/// (`metadata`, `data`) of v0.3 and agent cards of either version with.
#[doc(hidden)]
#[derive(Debug)]
pub struct UniqueKeys(pub Value);

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(UniqueKeysVisitor)
            .map(UniqueKeys)
    }
}

/// A JSON object with no key twice in it or in any object inside it.
#[doc(hidden)] // the v0.3 types; the v1 types read theirs with `protojson`'s one-pass reader
#[derive(Debug)]
pub struct UniqueObject(pub serde_json::Map<String, Value>);

impl<'de> serde::Deserialize<'de> for UniqueObject {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        unique_object(deserializer).map(UniqueObject)
    }
}

#[doc(hidden)] // called by the generated v0.3 types of a2a_types
/// Any JSON value with no key twice in any of its objects (generated v0.3 fields).
pub fn unique_value<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    UniqueKeys::deserialize(deserializer).map(|v| v.0)
}

#[doc(hidden)] // called by the generated v0.3 types of a2a_types
/// [`unique_value`] for an optional member: `null` is `None`.
pub fn optional_unique_value<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Value>, D::Error> {
    Ok(Option::<UniqueKeys>::deserialize(deserializer)?.map(|v| v.0))
}

#[doc(hidden)] // called by the generated v0.3 types of a2a_types
/// [`unique_object`] for an optional member: `null` is `None`.
pub fn optional_unique_object<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<serde_json::Map<String, Value>>, D::Error> {
    Ok(Option::<UniqueObject>::deserialize(deserializer)?.map(|v| v.0))
}

/// The v0.3 free-form members (`data`, `metadata`): no key twice, and within the nesting limit.
macro_rules! within_depth_limit {
    ($($limited:ident: $reader:ident -> $ty:ty;)*) => {$(
        #[doc = concat!("[`", stringify!($reader), "`] within the nesting limit.")]
        #[doc(hidden)] // called by the generated v0.3 types of a2a_types
        pub fn $limited<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
            let value = $reader(deserializer)?;
            crate::protojson::FreeForm::check_depth(&value, 0).map_err(serde::de::Error::custom)?;
            Ok(value)
        }
    )*};
}

within_depth_limit! {
    optional_unique_value_within_depth_limit: optional_unique_value -> Option<Value>;
    unique_object_within_depth_limit: unique_object -> serde_json::Map<String, Value>;
    optional_unique_object_within_depth_limit: optional_unique_object -> Option<serde_json::Map<String, Value>>;
}

/// A JSON object with no key twice, as [`UniqueKeys`] reads it.
#[doc(hidden)] // called by the generated v0.3 types of a2a_types
pub fn unique_object<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<serde_json::Map<String, Value>, D::Error> {
    struct ObjectVisitor;

    impl<'de> serde::de::Visitor<'de> for ObjectVisitor {
        type Value = serde_json::Map<String, Value>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            unique_entries(map)
        }
    }

    deserializer.deserialize_map(ObjectVisitor)
}

fn unique_entries<'de, A: serde::de::MapAccess<'de>>(
    mut map: A,
) -> Result<serde_json::Map<String, Value>, A::Error> {
    match map.next_key::<String>()? {
        Some(first) => unique_entries_after(first, map),
        None => Ok(serde_json::Map::new()),
    }
}

/// [`unique_entries`] of a map whose first member name, `first`, was read already.
#[doc(hidden)] // for a2a_types' v0.3 unions, which read the first member name themselves
pub fn unique_entries_after<'de, A: serde::de::MapAccess<'de>>(
    first: String,
    mut map: A,
) -> Result<serde_json::Map<String, Value>, A::Error> {
    use serde_json::map::Entry;
    let mut object = serde_json::Map::new();
    let mut next = Some(first);
    while let Some(key) = next {
        let value = map.next_value::<UniqueKeys>()?.0;
        match object.entry(key) {
            Entry::Vacant(entry) => {
                entry.insert(value);
            }
            // The same words as a2a-proto's `google.protobuf.Struct` reader.
            Entry::Occupied(entry) => {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key {:?} in JSON object",
                    entry.key()
                )));
            }
        }
        next = map.next_key::<String>()?;
    }
    Ok(object)
}

/// Builds a [`Value`] with no key twice in any of its objects.
#[doc(hidden)]
pub struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        UniqueKeys::deserialize(deserializer).map(|v| v.0)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element::<UniqueKeys>()? {
            items.push(item.0);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        unique_entries(map).map(Value::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)] // read for their errors
    struct Part {
        text: String,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Message {
        parts: Vec<Part>,
    }

    #[test]
    fn long_error_texts_keep_their_start_and_end() {
        let short = "x".repeat(MAX_ERROR_TEXT);
        assert_eq!(bounded(&short), short);
        let long = format!("{}{}{}", "a".repeat(300), "b".repeat(1000), "c".repeat(300));
        let cut = bounded(&long);
        assert_eq!(
            cut,
            format!(
                "{}… [1300 of 1600 bytes left out] …{}",
                "a".repeat(KEPT_HEAD),
                "c".repeat(KEPT_TAIL)
            )
        );
        // Characters, not bytes, and never a cut inside one.
        let wide = "é".repeat(500);
        assert!(bounded(&wide).starts_with(&"é".repeat(KEPT_HEAD)));
    }

    #[test]
    fn errors_name_the_path_and_stay_short() {
        let huge = "A".repeat(100_000);
        let text = format!(r#"{{"parts": [{{"text": "a"}}, {{"text": ["{huge}"]}}]}}"#);
        let error = from_str::<Message>(&text).unwrap_err();
        assert_eq!(error.path(), "parts[1].text");
        assert!(error.to_string().len() < 600, "{}", error.to_string().len());
        let error = from_slice::<Message>(br#"{"parts": [{"text": 1}]} x"#).unwrap_err();
        assert_eq!(error.path(), "parts[0].text");
        let error = from_str::<Message>(r#"{"parts": []} x"#).unwrap_err();
        assert_eq!(error.path(), ".");
        assert!(error.inner().is_syntax(), "{error}");
    }

    #[test]
    fn text_must_be_unicode_even_where_it_is_ignored() {
        // `ignored` is an unknown member: serde_json alone would skip its lone surrogate.
        let lone = r#"{"parts": [], "ignored": "\ud800"}"#;
        let error = from_str::<Message>(lone).unwrap_err();
        assert_eq!(error.path(), ".");
        assert!(
            error
                .to_string()
                .contains("lone surrogate `\\ud800` at byte"),
            "{error}"
        );
        let paired = r#"{"parts": [], "ignored": "\ud83d\ude00"}"#;
        assert!(from_str::<Message>(paired).is_ok());
        let mut bytes = br#"{"parts": [], "ignored": "x"}"#.to_vec();
        bytes[26] = 0xff;
        let error = from_slice::<Message>(&bytes).unwrap_err();
        assert!(
            error.to_string().contains("invalid UTF-8 at byte 26"),
            "{error}"
        );
        assert!(check_unicode(&bytes).is_err());
    }

    #[test]
    fn values_are_read_with_no_key_twice() {
        let error = value_from_str(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
        assert_eq!(error.path(), "a");
        assert!(error.to_string().contains("duplicate key \"b\""), "{error}");
        let value = value_from_slice(br#"{"a": [{"b": 1}, {"b": 2}]}"#).unwrap();
        assert_eq!(value["a"][1]["b"], 2);
    }

    #[test]
    fn shown_values_are_cut_without_writing_them_whole() {
        assert_eq!(shown(&Value::from("short")), "\"short\"");
        let long = shown(&Value::from("x".repeat(1_000_000)));
        assert!(long.ends_with("… (1000000 bytes)"), "{long}");
        assert!(long.len() < KEPT_HEAD + 20);
    }

    #[test]
    fn writing_names_the_field_a_value_cannot_be_written_for() {
        let mut map = std::collections::BTreeMap::new();
        map.insert("ok", vec![1.0]);
        map.insert("bad", vec![f64::NAN]);
        // serde_json writes NaN as null; a map key that is not a string is its error case.
        assert_eq!(to_string(&map).unwrap(), r#"{"bad":[null],"ok":[1.0]}"#);
        let keyed = std::collections::BTreeMap::from([((1, 2), "v")]);
        let error = to_string_pretty(&keyed).unwrap_err();
        assert!(
            error.to_string().contains("key must be a string"),
            "{error}"
        );
    }
}
