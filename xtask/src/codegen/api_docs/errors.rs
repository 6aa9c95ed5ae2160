//! The error model of the descriptions: every error A2A v1 defines and the errors the spec lists
//! for each operation, written here because they are specification text, not proto.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow};

use crate::codegen::operations::Rpc;

/// One error of the error model (sections 3.3.2, 5.4 and 9.5): its name in the spec, JSON-RPC code,
/// gRPC status, HTTP status, `google.rpc.ErrorInfo` reason and default message.
#[derive(Debug)]
pub(super) struct ErrorEntry {
    pub(super) name: &'static str,
    pub(super) code: i64,
    pub(super) grpc_status: &'static str,
    pub(super) http_status: u16,
    pub(super) reason: &'static str,
    pub(super) message: &'static str,
}

const fn error(
    name: &'static str,
    code: i64,
    grpc_status: &'static str,
    http_status: u16,
    reason: &'static str,
    message: &'static str,
) -> ErrorEntry {
    ErrorEntry {
        name,
        code,
        grpc_status,
        http_status,
        reason,
        message,
    }
}

/// Every error A2A v1 defines, in the order of `a2a_protocol::errors::ErrorKind::ALL`.
pub(super) const ERRORS: &[ErrorEntry] = &[
    error(
        "JSONParseError",
        -32700,
        "INVALID_ARGUMENT",
        400,
        "UNKNOWN_ERROR",
        "Invalid JSON payload",
    ),
    error(
        "InvalidRequestError",
        -32600,
        "INVALID_ARGUMENT",
        400,
        "INVALID_REQUEST",
        "Request payload validation error",
    ),
    error(
        "MethodNotFoundError",
        -32601,
        "NOT_FOUND",
        404,
        "METHOD_NOT_FOUND",
        "Method not found",
    ),
    error(
        "InvalidParamsError",
        -32602,
        "INVALID_ARGUMENT",
        400,
        "INVALID_PARAMS",
        "Invalid parameters",
    ),
    error(
        "InternalError",
        -32603,
        "INTERNAL",
        500,
        "INTERNAL_ERROR",
        "Internal error",
    ),
    error(
        "TaskNotFoundError",
        -32001,
        "NOT_FOUND",
        404,
        "TASK_NOT_FOUND",
        "Task not found",
    ),
    error(
        "TaskNotCancelableError",
        -32002,
        "FAILED_PRECONDITION",
        400,
        "TASK_NOT_CANCELABLE",
        "Task cannot be canceled",
    ),
    error(
        "PushNotificationNotSupportedError",
        -32003,
        "FAILED_PRECONDITION",
        400,
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        "Push Notification is not supported",
    ),
    error(
        "UnsupportedOperationError",
        -32004,
        "FAILED_PRECONDITION",
        400,
        "UNSUPPORTED_OPERATION",
        "This operation is not supported",
    ),
    error(
        "ContentTypeNotSupportedError",
        -32005,
        "INVALID_ARGUMENT",
        400,
        "CONTENT_TYPE_NOT_SUPPORTED",
        "Incompatible content types",
    ),
    error(
        "InvalidAgentResponseError",
        -32006,
        "INTERNAL",
        500,
        "INVALID_AGENT_RESPONSE",
        "Invalid agent response",
    ),
    error(
        "ExtendedAgentCardNotConfiguredError",
        -32007,
        "FAILED_PRECONDITION",
        400,
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        "Authenticated Extended Card is not configured",
    ),
    error(
        "ExtensionSupportRequiredError",
        -32008,
        "FAILED_PRECONDITION",
        400,
        "EXTENSION_SUPPORT_REQUIRED",
        "Extension support required",
    ),
    error(
        "VersionNotSupportedError",
        -32009,
        "FAILED_PRECONDITION",
        400,
        "VERSION_NOT_SUPPORTED",
        "Version not supported",
    ),
];

/// The errors the spec lists for each operation (section 3.1, "Errors").
pub(super) const OPERATION_ERRORS: &[(&str, &[&str])] = &[
    (
        "SendMessage",
        &[
            "ContentTypeNotSupportedError",
            "UnsupportedOperationError",
            "TaskNotFoundError",
        ],
    ),
    (
        "SendStreamingMessage",
        &[
            "UnsupportedOperationError",
            "ContentTypeNotSupportedError",
            "TaskNotFoundError",
        ],
    ),
    ("GetTask", &["TaskNotFoundError"]),
    ("ListTasks", &[]),
    (
        "CancelTask",
        &["TaskNotCancelableError", "TaskNotFoundError"],
    ),
    (
        "SubscribeToTask",
        &["UnsupportedOperationError", "TaskNotFoundError"],
    ),
    (
        "CreateTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "GetTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "ListTaskPushNotificationConfigs",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "GetExtendedAgentCard",
        &[
            "UnsupportedOperationError",
            "ExtendedAgentCardNotConfiguredError",
        ],
    ),
    (
        "DeleteTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
];

/// Errors any operation can answer, in either binding: invalid input, an unserved version, a
/// required extension the client did not ask for, a server failure (sections 3.2.6, 3.3.2, 4.6).
const EVERY_OPERATION_ERRORS: &[&str] = &[
    "InvalidParamsError",
    "VersionNotSupportedError",
    "ExtensionSupportRequiredError",
    "InternalError",
];

/// The error an agent answers when the capability an operation needs is not declared (section
/// 3.3.4); the capability names are those of the operations generator.
const CAPABILITY_ERRORS: &[(&str, &str)] = &[
    ("streaming", "UnsupportedOperationError"),
    ("push_notifications", "PushNotificationNotSupportedError"),
    ("extended_agent_card", "UnsupportedOperationError"),
];

/// The errors section 3.1 of the spec lists for an RPC, if [`OPERATION_ERRORS`] has it.
pub(super) fn spec_errors(rpc: &str) -> Option<&'static [&'static str]> {
    OPERATION_ERRORS
        .iter()
        .find(|(name, _)| *name == rpc)
        .map(|(_, errors)| *errors)
}

fn error_entry(name: &str) -> Result<&'static ErrorEntry> {
    ERRORS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| anyhow!("{name} is not in ERRORS"))
}

/// Every error `rpc` can answer: the spec's list for it, the error of its missing capability, and the
/// errors of every operation; each once, in that order. An RPC newer than [`OPERATION_ERRORS`] gets
/// the last two only (a spec bump still regenerates); the unit test `every_rpc_has_its_errors` names it.
pub(super) fn operation_errors(rpc: &Rpc) -> Result<Vec<&'static ErrorEntry>> {
    let specific = spec_errors(&rpc.name).unwrap_or(&[]);
    let capability = match rpc.capability {
        Some(capability) => Some(
            CAPABILITY_ERRORS
                .iter()
                .find(|(c, _)| *c == capability)
                .map(|(_, e)| *e)
                .ok_or_else(|| anyhow!("capability {capability} has no CAPABILITY_ERRORS entry"))?,
        ),
        None => None,
    };
    let mut seen = BTreeSet::new();
    let mut errors = Vec::new();
    for name in specific
        .iter()
        .copied()
        .chain(capability)
        .chain(EVERY_OPERATION_ERRORS.iter().copied())
    {
        if seen.insert(name) {
            errors.push(error_entry(name)?);
        }
    }
    Ok(errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::operations::v1_service;

    #[test]
    fn every_rpc_has_its_errors() {
        let (_, rpcs) = v1_service().unwrap();
        for rpc in &rpcs {
            assert!(
                spec_errors(&rpc.name).is_some(),
                "RPC {} has no entry in OPERATION_ERRORS (xtask/src/codegen/api_docs/errors.rs): add the errors section 3.1 of the spec lists for it",
                rpc.name
            );
            let errors = operation_errors(rpc).unwrap();
            assert!(
                errors.iter().any(|e| e.name == "InternalError"),
                "{}",
                rpc.name
            );
        }
        let cancel = rpcs.iter().find(|r| r.name == "CancelTask").unwrap();
        let names: Vec<_> = operation_errors(cancel)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(&names[..2], ["TaskNotCancelableError", "TaskNotFoundError"]);
        let subscribe = rpcs.iter().find(|r| r.name == "SubscribeToTask").unwrap();
        let names: Vec<_> = operation_errors(subscribe)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert!(names.contains(&"UnsupportedOperationError"));

        // An RPC the table does not know yet still gets the errors every operation has.
        let mut renamed = v1_service().unwrap().1.remove(2);
        renamed.name = "FetchTask".into();
        let names: Vec<_> = operation_errors(&renamed)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, EVERY_OPERATION_ERRORS);
    }
}
