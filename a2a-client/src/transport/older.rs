//! A2A v0.2 and v0.1 agents: the step between the v0.3 JSON-RPC the [`v0_3`](super::v0_3) transport
//! writes and reads and theirs, through [`a2a_compat::bridge`]'s older steps. The v0.3 JSON-RPC
//! transport speaks an older version by passing every request through [`downgrade`] and every
//! answer through [`upgrade`].
//!
//! Each request is checked whole before it is sent: v1 → v0.3 → the older version (read as that
//! version's schema type) and back up again, and every field whose value does not come back is named
//! in [`ClientError::NotConvertible`], never dropped silently. Operations the version has no method
//! for are refused by name.
//!
//! - **v0.2** (0.2.6) has every request field v0.3 has: request side, the two schemas differ only by
//!   v0.3's `agent/getAuthenticatedExtendedCard` (v0.2 serves its extended card by an HTTP GET, not
//!   JSON-RPC: [`super::older_card`]). So a v0.2 request is the v0.3 request, checked through the
//!   v0.2 types; answers are read as v0.3's, which every v0.2 answer is.
//! - **v0.1** (0.1.0) has seven methods: send, stream, get, cancel, resubscribe, and set and get of a
//!   task's one push config. What it cannot carry is refused: a `tenant`, a part's `mediaType` on a
//!   text part, a push config's `id`, a message's `referenceTaskIds` or `extensions`, a send's
//!   `acceptedOutputModes` or `returnImmediately`. One loss is accepted: the message's `messageId`,
//!   which v0.1 has no place for, and which every v1 message must carry. A v0.1 client names its
//!   tasks: a send without a task id starts a task under a new id made here (128 random bits,
//!   unique, not secret: the agent, not the id, guards who reads a task). Answers and stream events
//!   are upgraded v0.1 → v0.3 → v1; what they cannot carry up is the bridge's to say: a v0.1
//!   message's id is derived from its content (`v0.1-…`), an update event names no session (its
//!   `contextId` is the task's id, not the task's `sessionId`), an artifact's `index` becomes its
//!   `artifactId`, and a v0.1 stream starts with no task.

use a2a_compat::bridge::{self, OlderVersion};
use a2a_compat::v0_3;
use a2a_protocol::operations::{MethodParams, Operation};
use serde_json::Value;

use super::v0_3::{Downgrader, not_convertible, refuse_losses};
use crate::ClientError;

/// The operations v0.2 has a JSON-RPC method for.
const V0_2_OPERATIONS: [Operation; 9] = [
    Operation::SendMessage,
    Operation::SendStreamingMessage,
    Operation::GetTask,
    Operation::CancelTask,
    Operation::SubscribeToTask,
    Operation::CreateTaskPushNotificationConfig,
    Operation::GetTaskPushNotificationConfig,
    Operation::ListTaskPushNotificationConfigs,
    Operation::DeleteTaskPushNotificationConfig,
];

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

/// The `version` JSON-RPC request for `params`, or what would not survive the way there.
pub(crate) fn downgrade(
    version: OlderVersion,
    downgrader: &Downgrader,
    params: MethodParams,
) -> Result<(Operation, Value), ClientError> {
    let operation = params.operation();
    let name = operation.jsonrpc_method();
    let v0_1 = version == OlderVersion::V0_1;
    let operations: &[Operation] = if v0_1 {
        &V0_1_OPERATIONS
    } else {
        &V0_2_OPERATIONS
    };
    if !operations.contains(&operation) {
        return Err(ClientError::NotConvertible {
            message: format!("{name} has no A2A v{} counterpart", version.as_str()),
        });
    }
    let params = if v0_1 { name_the_task(params) } else { params };
    let original = params.to_json();
    let v0_3 = serde_json::to_value(downgrader.convert(params)?).map_err(|e| {
        ClientError::InvalidRequest {
            message: format!("the v0.3 request: {e}"),
        }
    })?;
    let (_, older) =
        bridge::downgrade_json_from_v0_3(version, "A2ARequest", v0_3).map_err(not_convertible)?;
    let (_, up) = bridge::upgrade_json_to_v0_3(version, "A2ARequest", older.clone())
        .map_err(not_convertible)?;
    let up: v0_3::A2aRequest =
        a2a_types::json::from_value(up).map_err(|e| ClientError::NotConvertible {
            message: format!(
                "{name}: the v{} request does not read back as v0.3: {e}",
                version.as_str()
            ),
        })?;
    let (_, back) = bridge::upgrade_request(up).map_err(not_convertible)?;
    let mut back = back.to_json();
    // v0.1 messages have no id; the bridge derives one going up. The agent never sees ours.
    if let (true, Some(sent), Some(message)) = (
        v0_1,
        original.pointer("/message/messageId"),
        back.get_mut("message"),
    ) {
        message["messageId"] = sent.clone();
    }
    let agent = format!("an A2A v{} agent", version.as_str());
    refuse_losses(name, &original, &back, &agent)?;
    Ok((operation, older))
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

/// A `version` JSON-RPC response to `operation` as the v0.3 response it says the same as; an error
/// response keeps its error as it is, and so does a v0.2 response (v0.3 reads every v0.2 answer).
pub(crate) fn upgrade(
    version: OlderVersion,
    operation: Operation,
    json: Value,
) -> Result<Value, String> {
    if version != OlderVersion::V0_1 || json.get("error").is_some_and(|e| !e.is_null()) {
        return Ok(json);
    }
    bridge::upgrade_json_to_v0_3(OlderVersion::V0_1, response_type(operation), json)
        .map(|(_, v0_3)| v0_3)
        .map_err(|e| format!("the v0.1 answer to {}: {e}", operation.jsonrpc_method()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{
        CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest, Message, Part,
        SendMessageConfiguration, SendMessageRequest, SubscribeToTaskRequest,
        TaskPushNotificationConfig,
    };

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
        let (operation, request) =
            downgrade(OlderVersion::V0_1, &Downgrader::new(), send(message)).expect("v0.1");
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

    /// Every loss the module's documentation names for v0.1, each refused naming its path; and what
    /// v0.1 does carry (send metadata, history length, a push config without id, file names and
    /// media types, cancel metadata) goes through.
    #[test]
    fn what_v0_1_cannot_carry_is_refused_by_name() {
        let downgrader = Downgrader::new();
        let with = |change: fn(&mut SendMessageRequest)| {
            let mut request = SendMessageRequest {
                message: Message::user("m-1", [Part::text("hi")]),
                ..Default::default()
            };
            change(&mut request);
            MethodParams::SendMessage(request)
        };
        let refused: Vec<(MethodParams, &str)> = vec![
            (
                with(|r| r.message.reference_task_ids = vec!["t-0".into()]),
                "`params.message.referenceTaskIds`",
            ),
            (
                with(|r| r.message.extensions = vec!["urn:x".into()]),
                "`params.message.extensions`",
            ),
            (
                with(|r| r.message.parts[0].media_type = Some("text/markdown".into())),
                "`params.message.parts[0].mediaType`",
            ),
            (with(|r| r.tenant = Some("acme".into())), "`params.tenant`"),
            (
                with(|r| {
                    r.configuration = Some(SendMessageConfiguration {
                        accepted_output_modes: vec!["text/plain".into()],
                        ..Default::default()
                    })
                }),
                "`params.configuration.acceptedOutputModes`",
            ),
            (
                with(|r| {
                    r.configuration = Some(SendMessageConfiguration {
                        return_immediately: Some(true),
                        ..Default::default()
                    })
                }),
                "`params.configuration.returnImmediately`",
            ),
            (
                MethodParams::CreateTaskPushNotificationConfig(TaskPushNotificationConfig {
                    task_id: Some("t-1".into()),
                    id: Some("cfg-1".into()),
                    url: "https://h/hook".into(),
                    ..Default::default()
                }),
                "`params.id`",
            ),
            (
                MethodParams::GetTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest {
                    task_id: "t-1".into(),
                    id: "cfg-1".into(),
                    ..Default::default()
                }),
                "`params.id`",
            ),
            (
                MethodParams::SubscribeToTask(SubscribeToTaskRequest {
                    id: "t-1".into(),
                    tenant: Some("acme".into()),
                }),
                "`params.tenant`",
            ),
            (
                MethodParams::ListTaskPushNotificationConfigs(Default::default()),
                "ListTaskPushNotificationConfigs has no A2A v0.1 counterpart",
            ),
            (
                MethodParams::DeleteTaskPushNotificationConfig(Default::default()),
                "DeleteTaskPushNotificationConfig has no A2A v0.1 counterpart",
            ),
            (
                MethodParams::GetExtendedAgentCard(Default::default()),
                "GetExtendedAgentCard has no A2A v0.1 counterpart",
            ),
        ];
        for (params, named) in refused {
            let error = downgrade(OlderVersion::V0_1, &downgrader, params).unwrap_err();
            assert!(
                matches!(&error, ClientError::NotConvertible { message } if message.contains(named)),
                "{named}: {error}"
            );
        }

        let mut metadata = serde_json::Map::new();
        metadata.insert("trace".into(), "abc".into());
        let carried = [
            with(|r| {
                r.message.parts =
                    vec![Part::raw(b"%PDF".to_vec(), "application/pdf").filename("a.pdf")];
                r.configuration = Some(SendMessageConfiguration {
                    history_length: Some(3),
                    task_push_notification_config: Some(TaskPushNotificationConfig {
                        url: "https://h/hook".into(),
                        token: Some("t".into()),
                        ..Default::default()
                    }),
                    ..Default::default()
                });
                let mut metadata = serde_json::Map::new();
                metadata.insert("k".into(), "v".into());
                r.metadata = Some(metadata);
            }),
            MethodParams::CancelTask(CancelTaskRequest {
                id: "t-1".into(),
                metadata: Some(metadata),
                ..Default::default()
            }),
            MethodParams::GetTask(GetTaskRequest {
                id: "t-1".into(),
                history_length: Some(5),
                ..Default::default()
            }),
        ];
        for params in carried {
            let operation = params.operation();
            downgrade(OlderVersion::V0_1, &downgrader, params)
                .unwrap_or_else(|e| panic!("{operation}: {e}"));
        }
    }

    #[test]
    fn a_v0_2_request_is_v0_3_checked_through_the_v0_2_types() {
        let downgrader = Downgrader::new();
        let message = Message::user("m-1", [Part::text("hi")]);
        let (operation, request) =
            downgrade(OlderVersion::V0_2, &downgrader, send(message)).expect("v0.2");
        assert_eq!(operation, Operation::SendMessage);
        assert_eq!(request["method"], "message/send");
        assert_eq!(request["params"]["message"]["messageId"], "m-1");
        assert_eq!(request["params"]["message"]["parts"][0]["kind"], "text");
        let card = MethodParams::GetExtendedAgentCard(Default::default());
        let error = downgrade(OlderVersion::V0_2, &downgrader, card).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("GetExtendedAgentCard has no A2A v0.2 counterpart"),
            "{error}"
        );
        // The bridge's own v0.3 → v0.2 step refuses v0.3's extended card method as well: the
        // list of operations is not the only guard.
        let v0_3 = serde_json::json!({"jsonrpc": "2.0", "id": 1,
                                      "method": "agent/getAuthenticatedExtendedCard"});
        assert!(bridge::downgrade_json_from_v0_3(OlderVersion::V0_2, "A2ARequest", v0_3).is_err());
    }
}
