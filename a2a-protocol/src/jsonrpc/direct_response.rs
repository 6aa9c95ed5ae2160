//! The fast path of reading a response: a successful v1 response read straight from its bytes into
//! the typed result, with no `serde_json::Value` tree built, cloned, walked and dropped in between.
//! A client reads one per call and one per streamed event; through the tree, a streamed event cost
//! it about 1.8 times what this path does.
//!
//! It reads only what [`a2a_types::json::value_from_slice`] followed by
//! [`JsonRpcResponse::parse`] reads, and reads it the same, answering `None` for everything else:
//! not Unicode, nesting deeper than [`MAX_DIRECT_DEPTH`](super::MAX_DIRECT_DEPTH), not an object,
//! a key twice in any object, an envelope member other than `jsonrpc`, `id`, `result` and `error`
//! or one of them twice, a `jsonrpc` that is not `"2.0"` as written, no `id`, an `error` (rare, and
//! the slow path reads it), a result that is not an object or fails to read. The caller then takes
//! the slow path, which names the problem.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::direct::{may_read_directly, present_id, read_whole_object};
use super::{Id, JSONRPC_VERSION, JsonRpcResponse};
use crate::operations::{MethodResult, Operation};

/// A response's envelope; any other member sends the response to the slow path.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    /// Borrowed: an escaped spelling fails here and is read by the slow path.
    jsonrpc: &'a str,
    #[serde(default, deserialize_with = "present_id")]
    id: Option<Id>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

impl JsonRpcResponse<MethodResult> {
    /// Reads a successful response to `operation` straight from the bytes of its body (or of one
    /// streamed event), without a `serde_json::Value` in between; `None` for anything else (an error
    /// response, an envelope member it does not read, a key twice in any object, a result that does
    /// not read, text that is not Unicode or nests too deep), which the caller reads with
    /// [`from_slice`](Self::from_slice) to learn what it holds. Whatever it reads, that reads the same. Check the body against the client's
    /// [`Limits`](crate::limits::Limits) first: this does not.
    ///
    /// ```
    /// use a2a_protocol::jsonrpc::{Id, JsonRpcResponse};
    /// use a2a_protocol::operations::{MethodResult, Operation};
    ///
    /// let body = br#"{"jsonrpc": "2.0", "id": 7, "result": {"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}}"#;
    /// let response = JsonRpcResponse::read_direct(body, Operation::GetTask).unwrap();
    /// assert_eq!(response.id, Id::Number(7));
    /// let Ok(MethodResult::GetTask(task)) = &response.outcome else { panic!() };
    /// assert_eq!(task.id, "t-1");
    ///
    /// // An error, or a result that does not read: the slow path says what it is.
    /// let wrong = br#"{"jsonrpc": "2.0", "id": 8, "result": {"id": 7}}"#;
    /// assert!(JsonRpcResponse::read_direct(wrong, Operation::GetTask).is_none());
    /// let error = JsonRpcResponse::from_slice(wrong, Operation::GetTask).unwrap_err();
    /// assert_eq!(error.path, "result.id");
    /// ```
    pub fn read_direct(body: &[u8], operation: Operation) -> Option<Self> {
        if !may_read_directly(body) {
            return None;
        }
        let text = std::str::from_utf8(body).ok()?;
        // The typed read refuses a key twice where it reads; this covers what it skips.
        if !a2a_support::json::keys_unique(text) {
            return None;
        }
        let envelope: Envelope<'_> = serde_json::from_str(text).ok()?;
        if envelope.jsonrpc != JSONRPC_VERSION || envelope.error.is_some() {
            return None;
        }
        let id = envelope.id?;
        let result = read_whole_object(envelope.result?.get(), |result| {
            MethodResult::read_result_from(operation, result)
        })?;
        Some(JsonRpcResponse {
            id,
            outcome: Ok(result),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::MAX_DIRECT_DEPTH;
    use crate::operations::Operation::{
        DeleteTaskPushNotificationConfig, GetTask, ListTasks, SendMessage, SendStreamingMessage,
    };

    /// The slow path's reading of `body`, as a client does it.
    fn slow(body: &str, operation: Operation) -> Option<JsonRpcResponse> {
        JsonRpcResponse::from_slice(body.as_bytes(), operation).ok()
    }

    fn direct(body: &str, operation: Operation) -> Option<JsonRpcResponse> {
        JsonRpcResponse::read_direct(body.as_bytes(), operation)
    }

    const TASK: &str = r#"{"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-12-01T02:31:42.539Z"}, "artifacts": [{"artifactId": "a", "parts": [{"text": "hi \u00e9"}], "metadata": {"k": [1, {"x": null}]}}], "metadata": {"n": 2}}"#;

    #[test]
    fn a_successful_response_reads_as_the_slow_path_reads_it() {
        let bodies = [
            (format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {TASK}}}"#), GetTask),
            (format!(r#"{{"result": {{"task": {TASK}}}, "id": "r-1", "jsonrpc": "2.0"}}"#), SendMessage),
            (format!(r#"{{"jsonrpc": "2.0", "id": null, "result": {{"task": {TASK}}}}}"#), SendStreamingMessage),
            (
                r#"{"jsonrpc":"2.0","id":3,"result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"chunks","parts":[{"text":"chunk-3 "}]},"append":true,"lastChunk":false}}}"#.to_owned(),
                SendStreamingMessage,
            ),
            (format!(r#"{{"jsonrpc": "2.0", "id": 4, "result": {{"tasks": [{TASK}], "nextPageToken": "", "pageSize": 1, "totalSize": 1}}}}"#), ListTasks),
            (r#"{"jsonrpc": "2.0", "id": 5, "result": {}}"#.to_owned(), DeleteTaskPushNotificationConfig),
            // Members of the result this version does not know are skipped by both.
            (format!(r#"{{"jsonrpc": "2.0", "id": 6, "result": {{"task": {TASK}, "later": {{"a": [1]}}}}}}"#), SendMessage),
        ];
        for (body, operation) in &bodies {
            let read =
                direct(body, *operation).unwrap_or_else(|| panic!("not read directly: {body}"));
            assert_eq!(Some(read), slow(body, *operation), "{body}");
        }
    }

    #[test]
    fn anything_but_a_successful_well_formed_response_is_left_to_the_slow_path() {
        // In a member the typed read skips (a free-form one has a nesting limit of its own); two
        // levels are the envelope and the result.
        let deep = format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"id": "t-1", "status": {{"state": "TASK_STATE_WORKING"}}, "later": {}1{}}}}}"#,
            "[".repeat(MAX_DIRECT_DEPTH - 1),
            "]".repeat(MAX_DIRECT_DEPTH - 1)
        );
        let refused = [
            // Not JSON, an array, an error response, no result, both.
            "{".to_owned(),
            r#"["2.0", 1, {"id": "t-1"}]"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no such task"}}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1}"#.to_owned(),
            format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {TASK}, "error": {{"code": -32001, "message": "x"}}}}"#),
            // The envelope: a wrong or escaped version, no id, a bad id, a member twice, an unknown one.
            format!(r#"{{"jsonrpc": "1.0", "id": 1, "result": {TASK}}}"#),
            format!(r#"{{"jsonrpc": "2\u002e0", "id": 1, "result": {TASK}}}"#),
            format!(r#"{{"jsonrpc": "2.0", "result": {TASK}}}"#),
            format!(r#"{{"jsonrpc": "2.0", "id": 1.5, "result": {TASK}}}"#),
            format!(r#"{{"jsonrpc": "2.0", "id": 1, "id": 2, "result": {TASK}}}"#),
            format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {TASK}, "extra": {{"a": 1, "a": 2}}}}"#),
            // The result: not an object, not a task, a key twice where the typed read skips.
            r#"{"jsonrpc": "2.0", "id": 1, "result": null}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "result": ["t-1"]}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"id": 7}}"#.to_owned(),
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}, "later": {"a": 1, "a": 2}}}"#.to_owned(),
            // A lone surrogate, and nesting the slow path's parse might refuse.
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"id": "t-\ud800", "status": {"state": "TASK_STATE_WORKING"}}}"#.to_owned(),
            deep,
        ];
        for body in &refused {
            assert!(direct(body, GetTask).is_none(), "read directly: {body}");
        }
        // The slow path reads the error response and the unknown member; it refuses the key twice.
        assert!(slow(&refused[2], GetTask).unwrap().outcome.is_err());
        assert!(slow(&refused[10], GetTask).is_none());
        assert!(slow(&refused[14], GetTask).is_none());
        // One level less is read, as the slow path reads it.
        let shallower = refused[16].replacen('[', "", 1).replacen(']', "", 1);
        assert!(direct(&shallower, GetTask).is_some());
        assert_eq!(direct(&shallower, GetTask), slow(&shallower, GetTask));
    }
}
