//! Methods: each method's params ([`params`]) and result ([`results`]) converted both ways, and whole
//! JSON-RPC requests and responses converted to and from the v1 surface's own types, the operation
//! ([`Operation`]) and its typed params and result ([`MethodParams`], [`MethodResult`]).

use super::{BridgeError, BridgeErrorKind};
use crate::v0_3;
use crate::v0_3::JsonRpcId;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_types::v1;

mod params;
mod results;

/// The error for an operation v0.3 has no method for: `ListTasks`, and any a later v1 adds.
fn no_v0_3_method(operation: Operation) -> BridgeError {
    let reason = if operation == Operation::ListTasks {
        "v0.3 has no method to list tasks"
    } else {
        "v0.3 has no method for this operation"
    };
    BridgeError::new(BridgeErrorKind::NoCounterpart {
        name: operation.jsonrpc_method().to_owned(),
        reason,
    })
}

/// A v0.3 JSON-RPC request as the v1 params it stands for (which name the operation), with its
/// JSON-RPC id. Fails where the params fail (`params...`).
pub fn upgrade_request(
    request: v0_3::A2aRequest,
) -> Result<(JsonRpcId, MethodParams), BridgeError> {
    use v0_3::A2aRequest as R;
    Ok(match request {
        R::SendMessage(r) => (r.id.clone(), MethodParams::SendMessage(r.try_into()?)),
        R::SendStreamingMessage(r) => (
            r.id.clone(),
            MethodParams::SendStreamingMessage(r.try_into()?),
        ),
        R::GetTask(r) => (r.id.clone(), MethodParams::GetTask(r.try_into()?)),
        R::CancelTask(r) => (r.id.clone(), MethodParams::CancelTask(r.into())),
        R::SetTaskPushNotificationConfig(r) => (
            r.id.clone(),
            MethodParams::CreateTaskPushNotificationConfig(r.into()),
        ),
        R::GetTaskPushNotificationConfig(r) => (
            r.id.clone(),
            MethodParams::GetTaskPushNotificationConfig(r.into()),
        ),
        R::TaskResubscription(r) => (r.id.clone(), MethodParams::SubscribeToTask(r.into())),
        R::ListTaskPushNotificationConfig(r) => (
            r.id.clone(),
            MethodParams::ListTaskPushNotificationConfigs(r.into()),
        ),
        R::DeleteTaskPushNotificationConfig(r) => (
            r.id.clone(),
            MethodParams::DeleteTaskPushNotificationConfig(r.into()),
        ),
        R::GetAuthenticatedExtendedCard(r) => {
            (r.id.clone(), MethodParams::GetExtendedAgentCard(r.into()))
        }
    })
}

/// v1 params as the v0.3 JSON-RPC request with this id. Fails for `ListTasks`, which v0.3 does not
/// have (as for any operation a later v1 adds), and where the params fail.
pub fn downgrade_request(
    id: JsonRpcId,
    params: MethodParams,
) -> Result<v0_3::A2aRequest, BridgeError> {
    let jsonrpc = v0_3::JsonRpcVersion;
    let at_params = |e: BridgeError| e.at("params");
    Ok(match params {
        MethodParams::SendMessage(r) => v0_3::SendMessageRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.try_into().map_err(at_params)?,
        }
        .into(),
        MethodParams::SendStreamingMessage(r) => v0_3::SendStreamingMessageRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.try_into().map_err(at_params)?,
        }
        .into(),
        MethodParams::GetTask(r) => v0_3::GetTaskRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        MethodParams::ListTasks(_) => return Err(no_v0_3_method(Operation::ListTasks)),
        MethodParams::CancelTask(r) => v0_3::CancelTaskRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        MethodParams::CreateTaskPushNotificationConfig(r) => {
            v0_3::SetTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        MethodParams::GetTaskPushNotificationConfig(r) => {
            v0_3::GetTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        MethodParams::ListTaskPushNotificationConfigs(r) => {
            v0_3::ListTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        MethodParams::DeleteTaskPushNotificationConfig(r) => {
            v0_3::DeleteTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        MethodParams::SubscribeToTask(r) => v0_3::TaskResubscriptionRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        MethodParams::GetExtendedAgentCard(_) => v0_3::GetAuthenticatedExtendedCardRequest {
            id,
            jsonrpc,
            method: Default::default(),
        }
        .into(),
        // An operation a later v1 adds.
        #[allow(unreachable_patterns)]
        other => return Err(no_v0_3_method(other.operation())),
    })
}

/// The result of a v0.3 JSON-RPC response to a request for `operation` (a v0.3 response does not say
/// which method it answers, so the caller does). An error response fails with [`BridgeErrorKind::ErrorResponse`]; a
/// result of the wrong shape with [`BridgeErrorKind::InvalidJson`].
pub fn upgrade_response(
    operation: Operation,
    response: v0_3::JsonRpcResponse,
) -> Result<MethodResult, BridgeError> {
    if let v0_3::JsonRpcResponse::Error(error) = response {
        return Err(BridgeError::new(BridgeErrorKind::ErrorResponse {
            error: error.error,
        }));
    }
    // The variant serde picked may belong to another method with the same result shape (a task answers
    // `tasks/get` and `tasks/cancel` alike), so read the response again as the method's own type.
    let json = serde_json::to_value(&response).expect("a v0.3 response is always JSON");
    fn read<T: serde::de::DeserializeOwned>(
        type_name: &str,
        json: serde_json::Value,
    ) -> Result<T, BridgeError> {
        serde_json::from_value(json).map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: type_name.to_owned(),
                message: e.to_string(),
            })
        })
    }
    Ok(match operation {
        Operation::SendMessage => MethodResult::SendMessage(
            read::<v0_3::SendMessageSuccessResponse>("SendMessageSuccessResponse", json)?
                .try_into()?,
        ),
        Operation::SendStreamingMessage | Operation::SubscribeToTask => {
            let event: v1::StreamResponse = read::<v0_3::SendStreamingMessageSuccessResponse>(
                "SendStreamingMessageSuccessResponse",
                json,
            )?
            .try_into()?;
            if operation == Operation::SubscribeToTask {
                MethodResult::SubscribeToTask(event)
            } else {
                MethodResult::SendStreamingMessage(event)
            }
        }
        Operation::GetTask => MethodResult::GetTask(
            read::<v0_3::GetTaskSuccessResponse>("GetTaskSuccessResponse", json)?.try_into()?,
        ),
        Operation::CancelTask => MethodResult::CancelTask(
            read::<v0_3::CancelTaskSuccessResponse>("CancelTaskSuccessResponse", json)?
                .try_into()?,
        ),
        Operation::CreateTaskPushNotificationConfig => {
            MethodResult::CreateTaskPushNotificationConfig(
                read::<v0_3::SetTaskPushNotificationConfigSuccessResponse>(
                    "SetTaskPushNotificationConfigSuccessResponse",
                    json,
                )?
                .into(),
            )
        }
        Operation::GetTaskPushNotificationConfig => MethodResult::GetTaskPushNotificationConfig(
            read::<v0_3::GetTaskPushNotificationConfigSuccessResponse>(
                "GetTaskPushNotificationConfigSuccessResponse",
                json,
            )?
            .into(),
        ),
        Operation::ListTaskPushNotificationConfigs => {
            MethodResult::ListTaskPushNotificationConfigs(
                read::<v0_3::ListTaskPushNotificationConfigSuccessResponse>(
                    "ListTaskPushNotificationConfigSuccessResponse",
                    json,
                )?
                .into(),
            )
        }
        Operation::DeleteTaskPushNotificationConfig => {
            read::<v0_3::DeleteTaskPushNotificationConfigSuccessResponse>(
                "DeleteTaskPushNotificationConfigSuccessResponse",
                json,
            )?;
            MethodResult::DeleteTaskPushNotificationConfig(Empty)
        }
        Operation::GetExtendedAgentCard => MethodResult::GetExtendedAgentCard(
            read::<v0_3::GetAuthenticatedExtendedCardSuccessResponse>(
                "GetAuthenticatedExtendedCardSuccessResponse",
                json,
            )?
            .into(),
        ),
        // `ListTasks`, and any operation a later v1 adds.
        other => return Err(no_v0_3_method(other)),
    })
}

/// A v1 result as the v0.3 JSON-RPC success response with this id. Fails for `ListTasks`, which v0.3
/// does not have (as for any operation a later v1 adds), and where the result fails.
pub fn downgrade_response(
    id: Option<JsonRpcId>,
    result: MethodResult,
) -> Result<v0_3::JsonRpcResponse, BridgeError> {
    use v0_3::JsonRpcResponse as R;
    let at_result = |e: BridgeError| e.at("result");
    let mut out = match result {
        MethodResult::SendMessage(r) => R::SendMessage(r.try_into().map_err(at_result)?),
        MethodResult::SendStreamingMessage(r) | MethodResult::SubscribeToTask(r) => {
            R::SendStreamingMessage(r.try_into().map_err(at_result)?)
        }
        MethodResult::GetTask(r) => R::GetTask(r.try_into().map_err(at_result)?),
        MethodResult::CancelTask(r) => R::CancelTask(r.try_into().map_err(at_result)?),
        MethodResult::CreateTaskPushNotificationConfig(r) => {
            R::SetTaskPushNotificationConfig(r.into())
        }
        MethodResult::GetTaskPushNotificationConfig(r) => {
            R::GetTaskPushNotificationConfig(r.into())
        }
        MethodResult::ListTaskPushNotificationConfigs(r) => {
            R::ListTaskPushNotificationConfig(r.into())
        }
        MethodResult::DeleteTaskPushNotificationConfig(Empty) => {
            R::DeleteTaskPushNotificationConfig(
                v0_3::DeleteTaskPushNotificationConfigSuccessResponse {
                    id: None,
                    jsonrpc: Default::default(),
                    result: (),
                },
            )
        }
        MethodResult::GetExtendedAgentCard(r) => {
            R::GetAuthenticatedExtendedCard(r.try_into().map_err(at_result)?)
        }
        MethodResult::ListTasks(_) => return Err(no_v0_3_method(Operation::ListTasks)),
        // An operation a later v1 adds.
        #[allow(unreachable_patterns)]
        other => return Err(no_v0_3_method(other.operation())),
    };
    match &mut out {
        R::Error(r) => r.id = id,
        R::SendMessage(r) => r.id = id,
        R::SendStreamingMessage(r) => r.id = id,
        R::GetTask(r) => r.id = id,
        R::CancelTask(r) => r.id = id,
        R::SetTaskPushNotificationConfig(r) => r.id = id,
        R::GetTaskPushNotificationConfig(r) => r.id = id,
        R::ListTaskPushNotificationConfig(r) => r.id = id,
        R::DeleteTaskPushNotificationConfig(r) => r.id = id,
        R::GetAuthenticatedExtendedCard(r) => r.id = id,
    }
    Ok(out)
}
