//! A2A v0.1 agents: the step between the v0.3 JSON-RPC the [`v0_3`](super::v0_3) transport writes and
//! reads and v0.1's own (`tasks/send`, `tasks/sendSubscribe`, `sessionId`, parts by `type`, lower
//! case states), through [`a2a_compat::bridge`]'s older steps. The v0.3 JSON-RPC transport speaks
//! v0.1 by passing every request through [`downgrade`] and every answer through [`upgrade`].
//!
//! v0.1 has seven methods: send, stream, get, cancel, resubscribe, and set and get of a task's one
//! push config. Every other operation is refused by name. Each request is checked whole before it is
//! sent: v1 → v0.3 → v0.1 and back up again, and every field whose value does not come back is
//! named in [`ClientError::NotConvertible`] (a `tenant`, a part's `mediaType` on a text part, a push
//! config's `id`, a message's `referenceTaskIds` or `extensions`, a send's `acceptedOutputModes`
//! or `returnImmediately`), never dropped silently. One loss is accepted: the message's `messageId`,
//! which v0.1 has no place for, and which every v1 message must carry.
//!
//! A v0.1 client names its tasks: a send without a task id starts a task under a new id made here
//! (128 random bits, unique, not secret: the agent, not the id, guards who reads a task).

use a2a_compat::bridge::{self, OlderVersion};
use a2a_compat::v0_3;
use a2a_protocol::operations::{MethodParams, Operation};
use serde_json::Value;

use super::v0_3::{Downgrader, not_convertible, refuse_losses};
use crate::ClientError;

/// The operations v0.1 has a method for.
const V0_1_OPERATIONS: [Operation; 7] = [
    Operation::SendMessage,
    Operation::SendStreamingMessage,
    Operation::GetTask,
    Operation::CancelTask,
    Operation::SubscribeToTask,
    Operation::CreateTaskPushNotificationConfig,
    Operation::GetTaskPushNotificationConfig,
];

/// The v0.1 JSON-RPC request for `params`, or what would not survive the way there.
pub(crate) fn downgrade(
    downgrader: &Downgrader,
    params: MethodParams,
) -> Result<(Operation, Value), ClientError> {
    let operation = params.operation();
    let name = operation.jsonrpc_method();
    if !V0_1_OPERATIONS.contains(&operation) {
        return Err(ClientError::NotConvertible {
            message: format!("{name} has no A2A v0.1 counterpart"),
        });
    }
    let params = name_the_task(params);
    let original = params.to_json();
    let v0_3 = serde_json::to_value(downgrader.convert(params)?).map_err(|e| {
        ClientError::InvalidRequest {
            message: format!("the v0.3 request: {e}"),
        }
    })?;
    let (_, v0_1) = bridge::downgrade_json_from_v0_3(OlderVersion::V0_1, "A2ARequest", v0_3)
        .map_err(not_convertible)?;
    let (_, up) = bridge::upgrade_json_to_v0_3(OlderVersion::V0_1, "A2ARequest", v0_1.clone())
        .map_err(not_convertible)?;
    let up: v0_3::A2aRequest =
        a2a_types::json::from_value(up).map_err(|e| ClientError::NotConvertible {
            message: format!("{name}: the v0.1 request does not read back as v0.3: {e}"),
        })?;
    let (_, back) = bridge::upgrade_request(up).map_err(not_convertible)?;
    let mut back = back.to_json();
    // v0.1 messages have no id; the bridge derives one going up. The agent never sees ours.
    if let (Some(sent), Some(message)) = (
        original.pointer("/message/messageId"),
        back.get_mut("message"),
    ) {
        message["messageId"] = sent.clone();
    }
    refuse_losses(name, &original, &back, "an A2A v0.1 agent")?;
    Ok((operation, v0_1))
}

/// A send to no task named: to a new task, named here (v0.1 requires the client to name it).
fn name_the_task(params: MethodParams) -> MethodParams {
    match params {
        MethodParams::SendMessage(mut request) if request.message.task_id.is_none() => {
            request.message.task_id = Some(new_task_id());
            MethodParams::SendMessage(request)
        }
        MethodParams::SendStreamingMessage(mut request) if request.message.task_id.is_none() => {
            request.message.task_id = Some(new_task_id());
            MethodParams::SendStreamingMessage(request)
        }
        other => other,
    }
}

fn new_task_id() -> String {
    format!("task-{:032x}", fastrand::u128(..))
}

/// The v0.1 schema type of the answer to `operation` (a stream's events are each one response).
fn response_type(operation: Operation) -> &'static str {
    match operation {
        Operation::SendMessage => "SendTaskResponse",
        Operation::CancelTask => "CancelTaskResponse",
        Operation::CreateTaskPushNotificationConfig => "SetTaskPushNotificationResponse",
        Operation::GetTaskPushNotificationConfig => "GetTaskPushNotificationResponse",
        Operation::SendStreamingMessage | Operation::SubscribeToTask => "SendTaskStreamingResponse",
        _ => "GetTaskResponse",
    }
}

/// A v0.1 JSON-RPC response to `operation` as the v0.3 response it says the same as; an error
/// response keeps its error as it is.
pub(crate) fn upgrade(operation: Operation, json: Value) -> Result<Value, String> {
    if json.get("error").is_some_and(|e| !e.is_null()) {
        return Ok(json);
    }
    bridge::upgrade_json_to_v0_3(OlderVersion::V0_1, response_type(operation), json)
        .map(|(_, v0_3)| v0_3)
        .map_err(|e| format!("the v0.1 answer to {}: {e}", operation.jsonrpc_method()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{Message, Part, SendMessageRequest, SubscribeToTaskRequest};

    fn send(message: Message) -> MethodParams {
        MethodParams::SendMessage(SendMessageRequest {
            message,
            ..Default::default()
        })
    }

    #[test]
    fn a_send_is_tasks_send_to_a_task_named_by_the_client() {
        let mut message = Message::user("m-1", [Part::text("tell me a joke")]);
        message.context_id = Some("s-1".into());
        let (operation, request) = downgrade(&Downgrader::new(), send(message)).expect("v0.1");
        assert_eq!(operation, Operation::SendMessage);
        assert_eq!(request["method"], "tasks/send");
        let params = &request["params"];
        assert!(
            params["id"]
                .as_str()
                .is_some_and(|id| id.starts_with("task-"))
        );
        assert_eq!(params["sessionId"], "s-1");
        assert_eq!(params["message"]["parts"][0]["type"], "text");
        assert!(params["message"].get("messageId").is_none(), "{request}");
    }

    #[test]
    fn what_v0_1_cannot_carry_is_refused_by_name() {
        let downgrader = Downgrader::new();
        let mut message = Message::user("m-1", [Part::text("hi")]);
        message.reference_task_ids = vec!["t-0".into()];
        let error = downgrade(&downgrader, send(message)).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`params.message.referenceTaskIds`"),
            "{error}"
        );
        let list = MethodParams::ListTaskPushNotificationConfigs(Default::default());
        let error = downgrade(&downgrader, list).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("ListTaskPushNotificationConfigs has no A2A v0.1 counterpart"),
            "{error}"
        );
        let resubscribe = MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id: "t-1".into(),
            tenant: Some("acme".into()),
        });
        let error = downgrade(&downgrader, resubscribe).unwrap_err();
        assert!(error.to_string().contains("`params.tenant`"), "{error}");
    }
}
