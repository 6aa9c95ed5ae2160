//! The errors of v0.3 agents on HTTP+JSON and gRPC, read into the one v1 error model.
//!
//! v0.3 gives these two bindings no error body of its own (only JSON-RPC has error objects), so the
//! client reads what the official SDK 0.3 servers send, the de facto form deployed agents answer
//! with:
//!
//! - **HTTP+JSON**: an HTTP status and `{"message": "..."}`, sometimes with the error's JSON-RPC
//!   `code` beside it (the JavaScript SDK sends `{"code": -32002, "message": ...}` with a 400). A code
//!   A2A defines names the error whatever the status; without one, the status names it as the SDK
//!   maps them (404 task not found, 409 not cancelable, 400 invalid request, 422 invalid params,
//!   415 content type not supported, 501 unsupported operation or push notifications not supported,
//!   502 invalid agent response, 500 internal error). A body in the v1 form
//!   (`{"error": {..., "details": [ErrorInfo]}}`) is read as v1 reads it.
//! - **gRPC**: a status whose message starts with the v0.3 error's type name
//!   (`TaskNotFoundError: Task not found`); a status with v1 `ErrorInfo` details is read as v1 reads
//!   it.
//!
//! Anything else (a proxy's 502 page, a status without a name) is a transport error, as on v1.

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::Operation;
use serde_json::Value;

use crate::{Binding, ClientError};

/// The v0.3 error type names the SDK's gRPC server puts before the message.
const V0_3_ERROR_NAMES: [(&str, ErrorKind); 12] = [
    ("JSONParseError", ErrorKind::JsonParse),
    ("InvalidRequestError", ErrorKind::InvalidRequest),
    ("MethodNotFoundError", ErrorKind::MethodNotFound),
    ("InvalidParamsError", ErrorKind::InvalidParams),
    ("InternalError", ErrorKind::Internal),
    ("TaskNotFoundError", ErrorKind::TaskNotFound),
    ("TaskNotCancelableError", ErrorKind::TaskNotCancelable),
    (
        "PushNotificationNotSupportedError",
        ErrorKind::PushNotificationNotSupported,
    ),
    ("UnsupportedOperationError", ErrorKind::UnsupportedOperation),
    (
        "ContentTypeNotSupportedError",
        ErrorKind::ContentTypeNotSupported,
    ),
    ("InvalidAgentResponseError", ErrorKind::InvalidAgentResponse),
    (
        "AuthenticatedExtendedCardNotConfiguredError",
        ErrorKind::ExtendedAgentCardNotConfigured,
    ),
];

/// The A2A error a v0.3 HTTP+JSON answer with a status other than 2xx carries, or a transport error
/// when its body says nothing A2A.
pub(crate) fn rest_error(operation: Operation, status: u16, body: &Value) -> ClientError {
    const REST: Binding = Binding::HttpJson;
    if let Ok(error) = Error::from_rest(body) {
        return ClientError::A2a {
            binding: REST,
            error,
        };
    }
    let message = body.get("message").and_then(Value::as_str);
    // The body's own code is more precise than the status, which several errors share (the
    // JavaScript SDK answers 400 for every error it raises).
    let coded = body
        .get("code")
        .and_then(Value::as_i64)
        .and_then(ErrorKind::from_jsonrpc_code);
    match (message, coded.or_else(|| kind_of_status(operation, status))) {
        (Some(message), Some(kind)) => ClientError::A2a {
            binding: REST,
            error: Error::with_message(kind, message),
        },
        (None, Some(kind)) if coded.is_some() => ClientError::A2a {
            binding: REST,
            error: Error::new(kind),
        },
        _ => ClientError::transport(
            Some(REST),
            format!(
                "HTTP {status} without an A2A error: {}",
                a2a_types::json::bounded(&body.to_string())
            ),
        ),
    }
}

/// The error the SDK 0.3 answers `operation` with this status for.
fn kind_of_status(operation: Operation, status: u16) -> Option<ErrorKind> {
    let push = matches!(
        operation,
        Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig
            | Operation::ListTaskPushNotificationConfigs
            | Operation::DeleteTaskPushNotificationConfig
    );
    Some(match status {
        400 => ErrorKind::InvalidRequest,
        // The SDK also answers 404 for an unknown method and a missing extended card: which one the
        // operation tells.
        404 if operation == Operation::GetExtendedAgentCard => {
            ErrorKind::ExtendedAgentCardNotConfigured
        }
        404 => ErrorKind::TaskNotFound,
        409 => ErrorKind::TaskNotCancelable,
        415 => ErrorKind::ContentTypeNotSupported,
        422 => ErrorKind::InvalidParams,
        500 => ErrorKind::Internal,
        501 if push => ErrorKind::PushNotificationNotSupported,
        501 => ErrorKind::UnsupportedOperation,
        502 => ErrorKind::InvalidAgentResponse,
        _ => return None,
    })
}

/// The A2A error a v0.3 gRPC status carries; any other status as [`crate::transport::grpc::status_error`]
/// reads it (unreachable, over the budget, transport).
pub(crate) fn status_error(status: &tonic::Status) -> ClientError {
    const GRPC: Binding = Binding::Grpc;
    if let Ok(error) = Error::from_tonic_status(status) {
        return ClientError::A2a {
            binding: GRPC,
            error,
        };
    }
    let named = status.message().split_once(": ").and_then(|(name, rest)| {
        V0_3_ERROR_NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, kind)| Error::with_message(*kind, rest))
    });
    match named {
        Some(error) => ClientError::A2a {
            binding: GRPC,
            error,
        },
        None => crate::transport::grpc::status_error(status),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_sdk_rest_errors_are_typed_by_status() {
        let error = rest_error(
            Operation::GetTask,
            404,
            &json!({"message": "Task not found"}),
        );
        assert_eq!(error.a2a_kind(), Some(ErrorKind::TaskNotFound), "{error}");
        assert_eq!(
            error.a2a_error().map(|e| e.message.as_str()),
            Some("Task not found")
        );
        let error = rest_error(Operation::CancelTask, 409, &json!({"message": "no"}));
        assert_eq!(error.a2a_kind(), Some(ErrorKind::TaskNotCancelable));
        let error = rest_error(
            Operation::GetTaskPushNotificationConfig,
            501,
            &json!({"message": "x"}),
        );
        assert_eq!(
            error.a2a_kind(),
            Some(ErrorKind::PushNotificationNotSupported)
        );
        // A router's own 404, without the SDK's message, is no A2A error.
        let error = rest_error(Operation::GetTask, 404, &json!({"detail": "Not Found"}));
        assert!(matches!(error, ClientError::Transport { .. }), "{error}");
        let error = rest_error(Operation::GetTask, 418, &json!({"message": "teapot"}));
        assert!(matches!(error, ClientError::Transport { .. }), "{error}");
    }

    /// The JavaScript SDK's v0.3 HTTP+JSON errors carry the JSON-RPC code with a 400: the code names
    /// the error, not the status (a not-cancelable task was an invalid request before).
    #[test]
    fn a_code_in_the_body_names_the_error_before_the_status() {
        let body = json!({"code": -32002, "message": "Task cannot be canceled"});
        let error = rest_error(Operation::CancelTask, 400, &body);
        assert_eq!(
            error.a2a_kind(),
            Some(ErrorKind::TaskNotCancelable),
            "{error}"
        );
        assert_eq!(
            error.a2a_error().map(|e| e.message.as_str()),
            Some("Task cannot be canceled")
        );
        let error = rest_error(Operation::GetTask, 400, &json!({"code": -32001}));
        assert_eq!(error.a2a_kind(), Some(ErrorKind::TaskNotFound), "{error}");
        // A code A2A does not define leaves the status to name it.
        let body = json!({"code": 7, "message": "odd"});
        let error = rest_error(Operation::GetTask, 404, &body);
        assert_eq!(error.a2a_kind(), Some(ErrorKind::TaskNotFound), "{error}");
    }

    #[test]
    fn the_sdk_grpc_errors_are_typed_by_name() {
        let status =
            tonic::Status::unimplemented("TaskNotCancelableError: Task cannot be canceled");
        let error = status_error(&status);
        assert_eq!(
            error.a2a_kind(),
            Some(ErrorKind::TaskNotCancelable),
            "{error}"
        );
        assert_eq!(
            error.a2a_error().map(|e| e.message.as_str()),
            Some("Task cannot be canceled")
        );
        let status = tonic::Status::unimplemented("Method not implemented!");
        assert!(matches!(
            status_error(&status),
            ClientError::Transport { .. }
        ));
        let status = tonic::Status::not_found("SomethingElse: x");
        assert!(matches!(
            status_error(&status),
            ClientError::Transport { .. }
        ));
    }
}
