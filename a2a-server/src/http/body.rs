//! Response bodies written straight from the typed results: a result's ProtoJSON goes from its
//! `Serialize` into the body's bytes, and a JSON-RPC envelope around it is written as text, without
//! first building the whole answer as a `serde_json::Value` tree and then writing that tree out (what
//! `MethodResult::to_json` and `JsonRpcResponse::to_json` do, at about twice the cost per answer).
//! The members are the same; only their order may differ (a `Value` object sorts its keys), which
//! JSON leaves free.

use a2a_types::jsonrpc::{Id, MethodResult};
use a2a_types::serde::Serialize;

/// `value`'s JSON appended to `out`; `false` (and `out` as it was) if its serialization failed.
fn append<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> bool {
    let start = out.len();
    let written = serde_json::to_writer(&mut *out, value).is_ok();
    if !written {
        out.truncate(start);
    }
    written
}

/// The result's ProtoJSON appended to `out`, as `MethodResult::to_json` writes it.
fn append_result(out: &mut Vec<u8>, result: &MethodResult) {
    let written = match result {
        MethodResult::SendMessage(response) => append(out, response),
        MethodResult::SendStreamingMessage(event) | MethodResult::SubscribeToTask(event) => {
            append(out, event)
        }
        MethodResult::GetTask(task) | MethodResult::CancelTask(task) => append(out, task),
        MethodResult::ListTasks(page) => append(out, page),
        // The rarer results (and any a later spec adds) through their `Value`.
        _ => false,
    };
    if !written {
        append(out, &result.to_json());
    }
}

/// serde_json writes UTF-8 only; the check is kept rather than assumed (no `unsafe`).
fn text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The result's ProtoJSON (an HTTP+JSON response body).
pub(crate) fn result(result: &MethodResult) -> String {
    let mut out = Vec::with_capacity(512);
    append_result(&mut out, result);
    text(out)
}

/// A JSON-RPC 2.0 success response: `{"jsonrpc":"2.0","id":…,"result":…}`.
pub(crate) fn jsonrpc_result(id: &Id, result: &MethodResult) -> String {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    append(&mut out, id);
    out.extend_from_slice(br#","result":"#);
    append_result(&mut out, result);
    out.push(b'}');
    text(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::jsonrpc::JsonRpcResponse;
    use a2a_types::v1::{
        Artifact, Message, Part, SendMessageResponse, StreamResponse, Task,
        TaskArtifactUpdateEvent, TaskState, TaskStatus,
    };
    use serde_json::Value;

    fn task() -> Task {
        let mut task = Task::new("task-1", "ctx-1", TaskStatus::now(TaskState::Completed));
        task.history
            .push(Message::user("m-1", [Part::text("hi \"there\"\n")]));
        task.artifacts
            .push(Artifact::new("a-1", [Part::text("é ✓")]));
        task
    }

    /// Every result written straight reads back as the very JSON the `Value` route writes.
    #[test]
    fn the_bodies_are_the_json_of_the_value_route() {
        let update = TaskArtifactUpdateEvent::new(
            "task-1",
            "ctx-1",
            Artifact::new("a-2", [Part::text("x")]),
        );
        let results = [
            MethodResult::SendMessage(SendMessageResponse::Task(task())),
            MethodResult::SendMessage(SendMessageResponse::Message(Message::user(
                "m-2",
                [Part::text("r")],
            ))),
            MethodResult::GetTask(task()),
            MethodResult::CancelTask(task()),
            MethodResult::SendStreamingMessage(StreamResponse::ArtifactUpdate(update.clone())),
            MethodResult::SubscribeToTask(StreamResponse::Task(task())),
        ];
        for result in results {
            let expected = result.to_json();
            let written: Value = serde_json::from_str(&super::result(&result)).unwrap();
            assert_eq!(written, expected, "{result:?}");
            for id in [Id::Number(7), Id::String("req \"1\"".into()), Id::Null] {
                let envelope = JsonRpcResponse::result(id.clone(), result.clone()).to_json();
                let written: Value = serde_json::from_str(&jsonrpc_result(&id, &result)).unwrap();
                assert_eq!(written, envelope, "{id:?} {result:?}");
            }
        }
    }
}
