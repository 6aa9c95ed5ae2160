//! The fast path of reading a request: a well-formed v1 request read straight from the bytes of its
//! body into the typed params, with no `serde_json::Value` tree built, walked and dropped in between
//! (a tenth of a server's cost per small request went there).
//!
//! It reads only requests it can read exactly as `serde_json::from_slice::<Value>` followed by
//! [`JsonRpcRequest::parse`] reads them, and answers `None` for everything else: not JSON, not an
//! object, a key twice among the members it reads, a `jsonrpc` or `method` written with escapes, a
//! method that is not a v1 one, params that fail to read, text that is not Unicode or nests deeper
//! than [`MAX_DIRECT_DEPTH`]. The caller then takes the slow path, which names the error (parse error,
//! invalid request, unknown method, invalid params with the field path) exactly as before.

use a2a_support::limits::json_nests_at_most;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Id, JSONRPC_VERSION, JsonRpcRequest};
use crate::operations::{MethodParams, Operation};

/// Nesting deeper than this is left to the slow path. serde_json's parse into a `Value` refuses 128
/// levels, but members the fast path skips (unknown ones, and the params while the envelope is read)
/// are skipped without counting their depth; under this bound both paths accept the same documents.
pub const MAX_DIRECT_DEPTH: usize = 100;

/// The envelope members a request is read by; serde's derive skips the others, as `parse` ignores
/// them, and refuses a known member twice (the slow path then keeps the last, as a `Value` does).
#[derive(Deserialize)]
struct Envelope<'a> {
    /// Borrowed: an escaped spelling fails here and is read by the slow path.
    jsonrpc: &'a str,
    /// Absent is `None` (a notification); `null` is `Some(Id::Null)`, so not serde's `Option`.
    #[serde(default, deserialize_with = "present_id")]
    id: Option<Id>,
    method: &'a str,
    /// The params' text, read once the method says which type it holds (it may come first).
    #[serde(default, borrow)]
    params: Option<&'a RawValue>,
}

pub(super) fn present_id<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Id>, D::Error> {
    Id::deserialize(deserializer).map(Some)
}

impl JsonRpcRequest<MethodParams> {
    /// Reads a well-formed request to a v1 method straight from the bytes of its body, without a
    /// `serde_json::Value` in between; `None` for anything else (not JSON, not an object, a known
    /// member twice, a `jsonrpc` or `method` written with escapes, a method that is not a v1 one,
    /// params that fail to read, text that is not Unicode, nesting deeper than
    /// [`MAX_DIRECT_DEPTH`]), which the caller reads with `serde_json::from_slice` and
    /// [`parse`](Self::parse) to learn what is wrong. Whatever it reads, those two read the same.
    /// Check the body against the server's [`Limits`](crate::limits::Limits) first: this does not.
    ///
    /// ```
    /// use a2a_protocol::jsonrpc::{Id, JsonRpcRequest};
    /// use a2a_protocol::operations::MethodParams;
    ///
    /// let body = br#"{"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "task-1"}}"#;
    /// let request = JsonRpcRequest::read_direct(body).unwrap();
    /// assert_eq!(request.id, Some(Id::Number(7)));
    /// let MethodParams::GetTask(params) = &request.params else { panic!() };
    /// assert_eq!(params.id, "task-1");
    ///
    /// // Wrong params: the slow path names the field.
    /// let wrong = br#"{"jsonrpc": "2.0", "id": 8, "method": "GetTask", "params": {"id": 7}}"#;
    /// assert!(JsonRpcRequest::read_direct(wrong).is_none());
    /// let json: serde_json::Value = serde_json::from_slice(wrong).unwrap();
    /// assert_eq!(JsonRpcRequest::parse(&json).unwrap_err().path, "params.id");
    /// ```
    pub fn read_direct(body: &[u8]) -> Option<Self> {
        if !may_read_directly(body) {
            return None;
        }
        let envelope: Envelope<'_> = serde_json::from_slice(body).ok()?;
        if envelope.jsonrpc != JSONRPC_VERSION {
            return None;
        }
        let operation = Operation::from_jsonrpc_method(envelope.method)?;
        // Absent and `null` params are `{}`; any other shape but an object is the slow path's error.
        let text = envelope.params.map_or("{}", RawValue::get);
        let params = read_whole_object(text, |params| {
            MethodParams::read_params_from(operation, params)
        })?;
        Some(JsonRpcRequest {
            id: envelope.id,
            method: envelope.method.to_owned(),
            params,
        })
    }
}

/// Whether `body` may be read on a fast path at all: Unicode throughout (the slow path's parse into
/// a `Value` reads every string, a fast path not those it skips), nested at most
/// [`MAX_DIRECT_DEPTH`] deep, and an object (serde's derive would read an array as the members in
/// order).
pub(super) fn may_read_directly(body: &[u8]) -> bool {
    a2a_types::json::check_unicode(body).is_ok()
        && json_nests_at_most(body, MAX_DIRECT_DEPTH)
        && first_byte(body) == Some(b'{')
}

/// `text` read by `read` when it is one JSON object and nothing after it; `None` when it is not
/// one, or does not read.
pub(super) fn read_whole_object<'a, T>(
    text: &'a str,
    read: impl FnOnce(
        &mut serde_json::Deserializer<serde_json::de::StrRead<'a>>,
    ) -> Result<T, serde_json::Error>,
) -> Option<T> {
    if first_byte(text.as_bytes()) != Some(b'{') {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = read(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// The first byte that is not JSON whitespace.
pub(super) fn first_byte(text: &[u8]) -> Option<u8> {
    text.iter()
        .copied()
        .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The slow path's reading of `body`, as the server does it.
    fn slow(body: &str) -> Option<JsonRpcRequest> {
        let json: Value = serde_json::from_slice(body.as_bytes()).ok()?;
        JsonRpcRequest::parse(&json).ok()
    }

    fn direct(body: &str) -> Option<JsonRpcRequest> {
        JsonRpcRequest::read_direct(body.as_bytes())
    }

    const SEND: &str = r#"{"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}], "metadata": {"k": [1, {"x": null}]}}, "configuration": {"historyLength": 3}}"#;

    #[test]
    fn a_well_formed_request_reads_as_the_slow_path_reads_it() {
        let bodies = [
            format!(r#"{{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {SEND}}}"#),
            // Params before the method, an unknown member, a string id.
            format!(
                r#"{{"params": {SEND}, "extra": {{"a": [1, 2]}}, "method": "SendStreamingMessage", "id": "r-1", "jsonrpc": "2.0"}}"#
            ),
            // A null id, and a notification (no id).
            r#"{"jsonrpc": "2.0", "id": null, "method": "GetTask", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"jsonrpc": "2.0", "method": "GetTask", "params": {"id": "t-1"}}"#.to_owned(),
            // Absent and null params are `{}`.
            r#"{"jsonrpc": "2.0", "id": 2, "method": "ListTasks"}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 3, "method": "ListTasks", "params": null}"#.to_owned(),
            // Escapes in the params.
            r#"{"jsonrpc": "2.0", "id": 4, "method": "GetTask", "params": {"id": "t-\u00e9\"1"}}"#
                .to_owned(),
        ];
        for body in &bodies {
            let read = direct(body).unwrap_or_else(|| panic!("not read directly: {body}"));
            assert_eq!(Some(read), slow(body), "{body}");
        }
        assert_eq!(direct(&bodies[3]).unwrap().id, None);
        assert_eq!(direct(&bodies[2]).unwrap().id, Some(Id::Null));
    }

    #[test]
    fn anything_but_a_well_formed_v1_request_is_left_to_the_slow_path() {
        let deep = format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {{"id": "t-1"}}, "x": {}1{}}}"#,
            "[".repeat(MAX_DIRECT_DEPTH),
            "]".repeat(MAX_DIRECT_DEPTH)
        );
        let refused = [
            // Not JSON, not an object, an array read by position.
            "{".to_owned(),
            r#"["2.0", 1, "GetTask", {"id": "t-1"}]"#.to_owned(),
            // Envelope errors the slow path names.
            r#"{"jsonrpc": "1.0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"id": 1, "method": "GetTask", "params": {"id": "t-1"}}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1.5, "method": "GetTask", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTasks", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": ["t-1"]}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": "t-1"}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": 7}}"#.to_owned(),
            // Read by the slow path, which keeps the last of a key twice or reads the escape.
            r#"{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "GetTask", "params": {"id": "t-1"}}"#
                .to_owned(),
            r#"{"jsonrpc": "2\u002e0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}}"#
                .to_owned(),
            // A lone surrogate in a skipped member, and nesting the `Value` parse might refuse.
            r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}, "x": "\ud800"}"#
                .to_owned(),
            deep,
        ];
        for body in &refused {
            assert!(direct(body).is_none(), "read directly: {body}");
        }
        assert_eq!(slow(&refused[10]).unwrap().id, Some(Id::Number(2)));
        assert!(slow(&refused[11]).is_some());
        // One level less is read, as the slow path reads it.
        let shallower = refused[13].replacen('[', "", 1).replacen(']', "", 1);
        assert_eq!(direct(&shallower), slow(&shallower));
        assert!(direct(&shallower).is_some());
    }
}
