//! The A2A errors the server's pieces answer with, in one place for the operations, the stores
//! and the push configs alike: a bad field, an absent task, a state named in a message; and a
//! refused caller as gRPC says it.

use a2a_protocol::errors::{Error, ErrorKind};
use tonic::Status;

use crate::auth::AccessDenied;
use a2a_types::v1::TaskState;
use a2a_types::validate::FieldViolation;

/// An `InvalidParams` error naming the field.
pub fn invalid(field: &str, problem: impl Into<String>) -> Error {
    let problem = problem.into();
    let mut error = Error::with_message(ErrorKind::InvalidParams, format!("{field}: {problem}"));
    error.field_violations.push(FieldViolation {
        field: field.to_owned(),
        description: problem,
    });
    error
}

/// `TaskNotFound` for this id (also the answer for another owner's task).
pub fn not_found(id: &str) -> Error {
    Error::with_message(ErrorKind::TaskNotFound, format!("no task {id}"))
        .with_metadata("taskId", id)
}

/// The state's ProtoJSON name (`TASK_STATE_COMPLETED`), for messages.
pub(crate) fn state_name(state: TaskState) -> String {
    serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"))
}

/// A refusal as gRPC says it: `UNAUTHENTICATED`, or `PERMISSION_DENIED` for a caller without the
/// operation's scopes (spec section 3.3.2).
pub(crate) fn denied_status(refusal: impl Into<AccessDenied>) -> Status {
    match refusal.into() {
        AccessDenied::Unauthenticated(refusal) => Status::unauthenticated(refusal.0),
        AccessDenied::Forbidden(refusal) => Status::permission_denied(refusal.message),
    }
}
