//! Response bodies written straight from the typed results: a result's ProtoJSON goes from its
//! generated encoder ([`a2a_types::json::WriteJson`], the bytes `serde_json` would write from its
//! `Serialize`, without serde's serializer in between) into the body's bytes, and a JSON-RPC
//! envelope around it is written as text, without first building the whole answer as a
//! `serde_json::Value` tree and then writing that tree out (what `MethodResult::to_json` and
//! `JsonRpcResponse::to_json` do, at about twice the cost per answer). The members are the same;
//! only their order may differ (a `Value` object sorts its keys), which JSON leaves free.

use a2a_protocol::jsonrpc::Id;
use a2a_protocol::operations::MethodResult;
use a2a_types::json::WriteJson;
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

/// `message`'s ProtoJSON appended to `out` by its generated encoder; `false` (and `out` as it was)
/// if it failed (a timestamp out of JSON's range).
fn append_message<T: WriteJson + ?Sized>(out: &mut Vec<u8>, message: &T) -> bool {
    match a2a_types::json::to_vec(message) {
        Ok(bytes) => {
            out.extend_from_slice(&bytes);
            true
        }
        Err(_) => false,
    }
}

/// The result's ProtoJSON appended to `out`, as `MethodResult::to_json` writes it.
fn append_result(out: &mut Vec<u8>, result: &MethodResult) {
    let written = match result {
        MethodResult::SendMessage(response) => append_message(out, response),
        MethodResult::SendStreamingMessage(event) | MethodResult::SubscribeToTask(event) => {
            append_message(out, event)
        }
        MethodResult::GetTask(task) | MethodResult::CancelTask(task) => append_message(out, task),
        MethodResult::ListTasks(page) => append_message(out, page),
        MethodResult::CreateTaskPushNotificationConfig(config)
        | MethodResult::GetTaskPushNotificationConfig(config) => append_message(out, config),
        MethodResult::ListTaskPushNotificationConfigs(page) => append_message(out, page),
        MethodResult::GetExtendedAgentCard(card) => append_message(out, card),
        // `Empty`, and any result a later spec adds, through their `Value`.
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
    use a2a_protocol::jsonrpc::JsonRpcResponse;
    use a2a_types::v1::{
        Artifact, Message, Part, SendMessageResponse, StreamResponse, Task,
        TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskState, TaskStatus,
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
            MethodResult::GetTaskPushNotificationConfig(TaskPushNotificationConfig {
                id: Some("push-1".into()),
                task_id: Some("task-1".into()),
                url: "https://example.com/hook".into(),
                ..Default::default()
            }),
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
