//! The v0.3 protobuf messages (package `a2a.v1`: ProtoJSON on v0.3's HTTP+JSON binding, protobuf on
//! its gRPC binding) translated to the v1 operations and back, for [`super::rest_v0_3`] and
//! [`super::grpc_v0_3`]: each request message through `a2a_compat::v0_3::proto` to its v0.3
//! JSON-RPC params, then through `a2a_compat::bridge` to the v1 params; each v1 result the same way
//! back. Errors are written as the official SDK 0.3's servers write them on these two bindings, which
//! v0.3 leaves without an error body of their own: an HTTP status with `{"code", "message"}`, a gRPC
//! status whose message starts with the v0.3 error's type name.

use a2a_compat::bridge::BridgeError;
use a2a_compat::v0_3;
use a2a_proto::v0_3 as pb;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_types::proto::ConversionError;
use a2a_types::v1;
use serde_json::{Value, json};

use crate::errors::invalid;

/// The request message of one v0.3 RPC.
#[derive(Debug)]
pub(crate) enum ProtoRequest {
    SendMessage(pb::SendMessageRequest),
    SendStreamingMessage(pb::SendMessageRequest),
    GetTask(pb::GetTaskRequest),
    CancelTask(pb::CancelTaskRequest),
    SubscribeToTask(pb::TaskSubscriptionRequest),
    CreatePushConfig(pb::CreateTaskPushNotificationConfigRequest),
    GetPushConfig(pb::GetTaskPushNotificationConfigRequest),
    ListPushConfigs(pb::ListTaskPushNotificationConfigRequest),
    DeletePushConfig(pb::DeleteTaskPushNotificationConfigRequest),
    GetCard,
}

/// The answer message of one unary v0.3 RPC.
#[derive(Debug)]
pub(crate) enum ProtoResult {
    SendMessage(pb::SendMessageResponse),
    Task(pb::Task),
    PushConfig(pb::TaskPushNotificationConfig),
    PushConfigs(pb::ListTaskPushNotificationConfigResponse),
    Empty,
    Card(pb::AgentCard),
}

/// A request field that does not convert: `InvalidParams` naming it.
fn bad_request(error: ConversionError) -> Error {
    invalid(&error.path(), error.reason())
}

fn bridged(error: BridgeError) -> Error {
    error.to_v1_error()
}

/// A result that does not convert to v0.3: the server's fault, named by the field.
fn unconvertible(error: impl std::fmt::Display) -> Error {
    Error::with_message(
        ErrorKind::Internal,
        format!("the result has no A2A v0.3 form: {error}"),
    )
}

fn send_params(request: pb::SendMessageRequest) -> Result<v1::SendMessageRequest, Error> {
    let params = v0_3::MessageSendParams::try_from(request).map_err(bad_request)?;
    v1::SendMessageRequest::try_from(params).map_err(bridged)
}

/// The v1 params a v0.3 request message stands for.
pub(crate) fn upgrade(request: ProtoRequest) -> Result<MethodParams, Error> {
    use ProtoRequest as R;
    Ok(match request {
        R::SendMessage(r) => MethodParams::SendMessage(send_params(r)?),
        R::SendStreamingMessage(r) => MethodParams::SendStreamingMessage(send_params(r)?),
        R::GetTask(r) => {
            let params = v0_3::TaskQueryParams::try_from(r).map_err(bad_request)?;
            MethodParams::GetTask(params.try_into().map_err(bridged)?)
        }
        R::CancelTask(r) => {
            MethodParams::CancelTask(v0_3::TaskIdParams::try_from(r).map_err(bad_request)?.into())
        }
        R::SubscribeToTask(r) => MethodParams::SubscribeToTask(
            v0_3::TaskIdParams::try_from(r).map_err(bad_request)?.into(),
        ),
        R::CreatePushConfig(r) => MethodParams::CreateTaskPushNotificationConfig(
            v0_3::TaskPushNotificationConfig::try_from(r)
                .map_err(bad_request)?
                .into(),
        ),
        R::GetPushConfig(r) => MethodParams::GetTaskPushNotificationConfig(
            v0_3::GetTaskPushNotificationConfigRequestParams::try_from(r)
                .map_err(bad_request)?
                .into(),
        ),
        R::ListPushConfigs(r) => MethodParams::ListTaskPushNotificationConfigs(
            v0_3::ListTaskPushNotificationConfigParams::try_from(r)
                .map_err(bad_request)?
                .into(),
        ),
        R::DeletePushConfig(r) => MethodParams::DeleteTaskPushNotificationConfig(
            v0_3::DeleteTaskPushNotificationConfigParams::try_from(r)
                .map_err(bad_request)?
                .into(),
        ),
        R::GetCard => {
            MethodParams::GetExtendedAgentCard(v1::GetExtendedAgentCardRequest::default())
        }
    })
}

fn task(task: v1::Task) -> Result<pb::Task, Error> {
    let task = v0_3::Task::try_from(task).map_err(unconvertible)?;
    pb::Task::try_from(task).map_err(unconvertible)
}

fn push_config(
    config: v1::TaskPushNotificationConfig,
) -> Result<pb::TaskPushNotificationConfig, Error> {
    pb::TaskPushNotificationConfig::try_from(v0_3::TaskPushNotificationConfig::from(config))
        .map_err(unconvertible)
}

/// The v0.3 answer message of a unary v1 result.
pub(crate) fn downgrade(result: MethodResult) -> Result<ProtoResult, Error> {
    Ok(match result {
        MethodResult::SendMessage(response) => {
            let result = v0_3::SendMessageResult::try_from(response).map_err(unconvertible)?;
            ProtoResult::SendMessage(
                pb::SendMessageResponse::try_from(result).map_err(unconvertible)?,
            )
        }
        MethodResult::GetTask(t) | MethodResult::CancelTask(t) => ProtoResult::Task(task(t)?),
        MethodResult::CreateTaskPushNotificationConfig(config)
        | MethodResult::GetTaskPushNotificationConfig(config) => {
            ProtoResult::PushConfig(push_config(config)?)
        }
        MethodResult::ListTaskPushNotificationConfigs(list) => {
            let list = v0_3::ListTaskPushNotificationConfigSuccessResponse::from(list);
            ProtoResult::PushConfigs(
                pb::ListTaskPushNotificationConfigResponse::try_from(list)
                    .map_err(unconvertible)?,
            )
        }
        MethodResult::DeleteTaskPushNotificationConfig(_) => ProtoResult::Empty,
        MethodResult::GetExtendedAgentCard(card) => {
            let card = v0_3::AgentCard::try_from(card).map_err(unconvertible)?;
            ProtoResult::Card(pb::AgentCard::try_from(card).map_err(unconvertible)?)
        }
        other => {
            return Err(unconvertible(format!(
                "{} has no v0.3 RPC",
                other.operation()
            )));
        }
    })
}

/// One event of a stream as v0.3's `StreamResponse`.
pub(crate) fn downgrade_event(event: v1::StreamResponse) -> Result<pb::StreamResponse, Error> {
    let event = v0_3::SendStreamingMessageResult::try_from(event).map_err(unconvertible)?;
    pb::StreamResponse::try_from(event).map_err(unconvertible)
}

/// The name of the v0.3 error type, which the SDK 0.3's gRPC server puts before the message.
fn v0_3_error_name(kind: ErrorKind) -> &'static str {
    match kind.for_v0_3() {
        ErrorKind::JsonParse => "JSONParseError",
        ErrorKind::InvalidRequest => "InvalidRequestError",
        ErrorKind::MethodNotFound => "MethodNotFoundError",
        ErrorKind::InvalidParams => "InvalidParamsError",
        ErrorKind::TaskNotFound => "TaskNotFoundError",
        ErrorKind::TaskNotCancelable => "TaskNotCancelableError",
        ErrorKind::PushNotificationNotSupported => "PushNotificationNotSupportedError",
        ErrorKind::UnsupportedOperation => "UnsupportedOperationError",
        ErrorKind::ContentTypeNotSupported => "ContentTypeNotSupportedError",
        ErrorKind::InvalidAgentResponse => "InvalidAgentResponseError",
        ErrorKind::ExtendedAgentCardNotConfigured => "AuthenticatedExtendedCardNotConfiguredError",
        _ => "InternalError",
    }
}

/// The HTTP status the SDK 0.3's HTTP+JSON server answers an error with.
pub(crate) fn http_status(error: &Error) -> u16 {
    match error.kind.for_v0_3() {
        ErrorKind::JsonParse | ErrorKind::InvalidRequest => 400,
        ErrorKind::MethodNotFound
        | ErrorKind::TaskNotFound
        | ErrorKind::ExtendedAgentCardNotConfigured => 404,
        ErrorKind::InvalidParams => 422,
        ErrorKind::TaskNotCancelable => 409,
        ErrorKind::PushNotificationNotSupported | ErrorKind::UnsupportedOperation => 501,
        ErrorKind::ContentTypeNotSupported => 415,
        ErrorKind::InvalidAgentResponse => 502,
        _ => 500,
    }
}

/// The HTTP+JSON error body: the SDK's `{"message"}`, with the v0.3 JSON-RPC code beside it (as the
/// JavaScript SDK writes it), since several errors share a status.
pub(crate) fn rest_error_body(error: &Error) -> Value {
    let error = v0_3::JsonRpcError::from(error);
    json!({"code": error.code, "message": error.message})
}

/// The gRPC status of an error, as the SDK 0.3's gRPC server aborts a call with it (its code, and
/// the message after the v0.3 error's type name), with v1's `google.rpc.Status` details beside it:
/// the `ErrorInfo` the JavaScript SDK's v0.3 client types the error by.
pub(crate) fn grpc_status(error: &Error) -> tonic::Status {
    use tonic::Code;
    let code = match error.kind.for_v0_3() {
        ErrorKind::InvalidRequest | ErrorKind::InvalidParams => Code::InvalidArgument,
        ErrorKind::MethodNotFound | ErrorKind::TaskNotFound => Code::NotFound,
        ErrorKind::TaskNotCancelable
        | ErrorKind::PushNotificationNotSupported
        | ErrorKind::UnsupportedOperation
        | ErrorKind::ContentTypeNotSupported => Code::Unimplemented,
        ErrorKind::ExtendedAgentCardNotConfigured => Code::NotFound,
        _ => Code::Internal,
    };
    let details = tonic::Status::from(error).details().to_vec();
    tonic::Status::with_details(
        code,
        format!("{}: {}", v0_3_error_name(error.kind), error.message),
        details.into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_take_the_sdk_0_3_forms() {
        let error = Error::with_message(ErrorKind::TaskNotCancelable, "Task cannot be canceled");
        assert_eq!(http_status(&error), 409);
        assert_eq!(
            rest_error_body(&error),
            json!({"code": -32002, "message": "Task cannot be canceled"})
        );
        let status = grpc_status(&error);
        assert_eq!(status.code(), tonic::Code::Unimplemented);
        assert_eq!(
            status.message(),
            "TaskNotCancelableError: Task cannot be canceled"
        );
        // The v1 details beside it name the error by its ErrorInfo reason.
        assert_eq!(
            Error::from_tonic_status(&status).ok().map(|e| e.kind),
            Some(ErrorKind::TaskNotCancelable)
        );
        // v1's own errors fall back to what v0.3 has: an internal error.
        let error = Error::new(ErrorKind::VersionNotSupported);
        assert_eq!(http_status(&error), 500);
        assert!(grpc_status(&error).message().starts_with("InternalError: "));
    }

    #[test]
    fn a_request_without_a_task_name_is_invalid_params_naming_the_field() {
        let error = upgrade(ProtoRequest::GetTask(pb::GetTaskRequest::default())).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidParams);
        assert!(error.message.contains("name"), "{error}");
    }
}
