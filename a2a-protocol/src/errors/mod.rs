//! The A2A error model of v1: every A2A error and JSON-RPC standard error, with the code each binding
//! gives it, and conversions to and from the error shapes on the wire.
//!
//! [`ErrorKind`] names an error; [`Error`] is one occurrence of it with a message and details. The
//! mapping follows the spec's error tables (section 5.4 for the A2A errors, section 9.5 for the JSON-RPC
//! standard errors, section 3.3.2 for the error categories the standard errors fall into), and matches
//! what the official Python SDK 1.3.0 writes:
//!
//! | binding | shape | conversions |
//! |---|---|---|
//! | JSON-RPC (section 9.5) | `{"code", "message", "data": [Any...]}` | [`Error::to_jsonrpc`], [`Error::from_jsonrpc`] |
//! | HTTP+JSON (section 11.6) | `{"error": {"code", "status", "message", "details": [Any...]}}` (google.rpc.Status as JSON) | [`Error::to_rest`], [`Error::from_rest`] |
//! | gRPC (section 10.6), feature `proto` | status code, message, binary `google.rpc.Status` for `grpc-status-details-bin` | `Error::to_grpc_status`, `Error::from_grpc_status`; with feature `grpc`, `From<Error> for tonic::Status` and `Error::from_tonic_status` |
//! | v0.3 JSON-RPC, crate `a2a-spec-compat` | `{"code", "message", "data": <metadata>}` | `From<&Error> for v0_3::JsonRpcError`, and back |
//!
//! The details are ProtoJSON `Any` objects: a `google.rpc.ErrorInfo` whose reason names the error
//! (sections 10.6 and 11.6) and whose domain is `a2a-protocol.org`, then, for invalid params, a
//! `google.rpc.BadRequest` with one field violation per invalid field.
//!
//! A [bare](Error::bare) error has no details: its JSON-RPC object has no `data`, as the SDK's server
//! writes the standard errors it has nothing to add to (a body that is not JSON, an unknown method, a
//! failure it did not foresee). Its HTTP+JSON body and gRPC status still carry the `ErrorInfo`, the
//! only thing there that names the error.
//!
//! ```
//! use a2a_protocol::errors::{Error, ErrorKind};
//!
//! let error = Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", "task-123");
//! let object = error.to_jsonrpc();
//! assert_eq!(object["code"], -32001);
//! assert_eq!(object["data"][0]["reason"], "TASK_NOT_FOUND");
//! assert_eq!(error.to_rest()["error"]["status"], "NOT_FOUND");
//! assert_eq!(Error::from_jsonrpc(&object).unwrap(), error);
//! ```

use std::fmt;

use serde_json::{Value, json};

use a2a_types::JsonObject;
use a2a_types::validate::{FieldViolation, Violations};

#[cfg(feature = "proto")]
mod grpc;
mod jsonrpc;
mod kind;
mod rest;
mod retry;
#[cfg(test)]
mod tests;

#[cfg(feature = "proto")]
pub use grpc::GrpcStatus;
pub use kind::{ErrorKind, GrpcCode};
pub use retry::RETRY_INFO_TYPE;

/// The `@type` of a `google.rpc.ErrorInfo` detail.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The `@type` of a `google.rpc.BadRequest` detail.
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";
/// The `domain` of every A2A `ErrorInfo` (sections 10.6 and 11.6).
pub const ERROR_DOMAIN: &str = "a2a-protocol.org";

/// One A2A error as a peer sends or receives it: which error, a message, and the details.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Error {
    /// Which error.
    pub kind: ErrorKind,
    /// Human-readable; peers must not depend on its wording.
    pub message: String,
    /// The `metadata` of the `ErrorInfo` detail: context such as `{"taskId": "task-123"}` (the SDK's
    /// `A2AError.data`).
    pub metadata: JsonObject,
    /// The field violations of a `google.rpc.BadRequest` detail, for invalid params.
    pub field_violations: Vec<FieldViolation>,
    /// Any other details, kept as their ProtoJSON `Any` objects (each has an `@type`).
    pub other_details: Vec<Value>,
    /// No details at all: the JSON-RPC object is written without `data` (see [`Error::bare`]; details
    /// added to it anyway are written, with the `ErrorInfo`). Read
    /// back from a JSON-RPC object that has no `data`.
    pub bare: bool,
}

impl Error {
    /// The error with its default message and no details.
    pub fn new(kind: ErrorKind) -> Self {
        Self::with_message(kind, kind.default_message())
    }

    /// The error with this message and no details.
    pub fn with_message(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            metadata: JsonObject::new(),
            field_violations: Vec::new(),
            other_details: Vec::new(),
            bare: false,
        }
    }

    /// The error with this message and no details, not even the `ErrorInfo` naming it: its JSON-RPC
    /// object is `{"code", "message"}`, as the SDK's server writes a JSON-RPC standard error it has
    /// nothing to add to. (The HTTP+JSON and gRPC forms still carry the `ErrorInfo`.)
    ///
    /// ```
    /// use a2a_protocol::errors::{Error, ErrorKind};
    ///
    /// let error = Error::bare(ErrorKind::MethodNotFound, "Method not found");
    /// let object = error.to_jsonrpc();
    /// assert_eq!(object, serde_json::json!({"code": -32601, "message": "Method not found"}));
    /// assert_eq!(Error::from_jsonrpc(&object).unwrap(), error);
    /// ```
    pub fn bare(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            bare: true,
            ..Self::with_message(kind, message)
        }
    }

    /// Adds one entry to the `ErrorInfo` metadata (a bare error stops being bare).
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self.bare = false;
        self
    }

    /// The `details` list shared by the JSON-RPC `data` and the REST body: an `ErrorInfo`, a
    /// `BadRequest` when there are field violations, then the other details.
    pub fn details(&self) -> Vec<Value> {
        let mut details = vec![json!({
            "@type": ERROR_INFO_TYPE,
            "reason": self.kind.reason(),
            "domain": ERROR_DOMAIN,
            "metadata": self.metadata,
        })];
        if !self.field_violations.is_empty() {
            let violations: Vec<Value> = self
                .field_violations
                .iter()
                .map(|v| json!({"field": v.field, "description": v.description}))
                .collect();
            details.push(json!({"@type": BAD_REQUEST_TYPE, "fieldViolations": violations}));
        }
        details.extend(self.other_details.iter().cloned());
        details
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

/// Invalid params from validation, as the SDK reports them: the violations both in the `BadRequest`
/// and (as `errors`) in the `ErrorInfo` metadata. Built from [`Violations::to_jsonrpc_error`], so both
/// stay one shape.
impl From<&Violations> for Error {
    fn from(violations: &Violations) -> Self {
        Error::from_jsonrpc(&violations.to_jsonrpc_error())
            .expect("Violations::to_jsonrpc_error writes a well-formed -32602 error")
    }
}

impl From<Violations> for Error {
    fn from(violations: Violations) -> Self {
        Error::from(&violations)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for Error {}

/// An error object that is not shaped as its binding requires, with the path of the offending member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorShapeError {
    /// Where in the object: `code`, `data[1].fieldViolations`, `error.details`.
    pub path: String,
    /// What is wrong there.
    pub problem: String,
}

impl ErrorShapeError {
    /// What is wrong at `path`.
    pub fn at(path: &str, problem: impl Into<String>) -> Self {
        ErrorShapeError {
            path: path.to_owned(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for ErrorShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "invalid error object: {}", self.problem)
        } else {
            write!(f, "invalid error object at {}: {}", self.path, self.problem)
        }
    }
}

impl std::error::Error for ErrorShapeError {}
