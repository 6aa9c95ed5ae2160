//! Streaming over HTTP (§9.4.2, §11.7): the answer is `200` with `Content-Type: text/event-stream`,
//! and each event's `data` is one JSON object: a JSON-RPC response of the request's id whose
//! `result` is a `StreamResponse` (JSON-RPC), or the `StreamResponse` itself (HTTP+JSON), first the
//! task (or a message), the last one ending the task.

use a2a_client::Binding;
use serde_json::Value;

use super::super::helpers::truncate;
use super::super::run::CheckResult;
use super::calls::{Op, VERSION, Wire, jsonrpc_envelope, send_request};
use super::shape::Schema;

/// The `data` of each event of an SSE body (its `data:` lines joined by newlines, as the SSE
/// format defines).
pub(crate) fn events(body: &str) -> Vec<String> {
    let mut events = Vec::new();
    let mut data: Option<String> = None;
    for line in body.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            events.extend(data.take());
        } else if let Some(value) = line.strip_prefix("data:") {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match &mut data {
                Some(text) => {
                    text.push('\n');
                    text.push_str(value);
                }
                None => data = Some(value.to_owned()),
            }
        }
    }
    events
}

pub(super) async fn check(wire: &Wire) -> CheckResult {
    let id = wire.id();
    let request = Op::Stream(send_request("tck-stream-001", None));
    let answer = wire.request(&request, id, Some(VERSION)).await?;
    let essence = answer.content_type.split(';').next().unwrap_or("").trim();
    if answer.status != 200 || !essence.eq_ignore_ascii_case("text/event-stream") {
        return Err(format!(
            "HTTP {} with Content-Type {:?}, expected 200 text/event-stream: {}",
            answer.status,
            answer.content_type,
            truncate(&String::from_utf8_lossy(&answer.body), 200)
        ));
    }
    let body = String::from_utf8_lossy(&answer.body);
    let events = events(&body);
    let mut responses = Vec::new();
    for (index, data) in events.iter().enumerate() {
        let value: Value = serde_json::from_str(data).map_err(|e| {
            format!(
                "event {index}: data is not one JSON value ({e}): {}",
                truncate(data, 200)
            )
        })?;
        let response = if wire.binding == Binding::JsonRpc {
            let envelope =
                jsonrpc_envelope(&value, id).map_err(|e| format!("event {index}: {e}"))?;
            envelope
                .get("result")
                .cloned()
                .ok_or_else(|| format!("event {index} is an error: {}", truncate(data, 200)))?
        } else {
            value
        };
        let problems = Schema::v1().problems("lf.a2a.v1.StreamResponse", &response);
        if !problems.is_empty() {
            return Err(format!("event {index}: {}", problems.join("; ")));
        }
        responses.push(response);
    }
    let Some(first) = responses.first() else {
        return Err(format!("no event in the stream: {}", truncate(&body, 200)));
    };
    if first.get("task").is_none() && first.get("message").is_none() {
        return Err(format!(
            "the first event is neither the task nor a message: {first}"
        ));
    }
    let last = responses.last().unwrap_or(first);
    let final_state = last
        .pointer("/statusUpdate/status/state")
        .or_else(|| last.pointer("/task/status/state"));
    if final_state != Some(&Value::from("TASK_STATE_COMPLETED")) {
        return Err(format!("the last event does not complete the task: {last}"));
    }
    Ok(format!(
        "text/event-stream, {} events, each data one {}StreamResponse",
        responses.len(),
        if wire.binding == Binding::JsonRpc {
            "JSON-RPC response of a "
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::events;

    #[test]
    fn events_are_split_at_blank_lines_and_their_data_lines_joined() {
        let body = "id: 1\ndata: {\"a\":1}\n\n: a comment\ndata:{\"b\":\ndata: 2}\n\nid: 3\n\n";
        assert_eq!(events(body), ["{\"a\":1}", "{\"b\":\n2}"]);
    }
}
