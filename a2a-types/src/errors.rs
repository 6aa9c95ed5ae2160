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
//! | v0.3 JSON-RPC, feature `v0_3` | `{"code", "message", "data": <metadata>}` | `From<&Error> for v0_3::JsonRpcError`, and back |
//!
//! The details are ProtoJSON `Any` objects: a `google.rpc.ErrorInfo` whose reason names the error
//! (sections 10.6 and 11.6) and whose domain is `a2a-protocol.org`, then, for invalid params, a
//! `google.rpc.BadRequest` with one field violation per invalid field.
//!
//! ```
//! use a2a_types::errors::{Error, ErrorKind};
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

use crate::JsonObject;
use crate::validate::{FieldViolation, Violations};

/// The `@type` of a `google.rpc.ErrorInfo` detail.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The `@type` of a `google.rpc.BadRequest` detail.
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";
/// The `domain` of every A2A `ErrorInfo` (sections 10.6 and 11.6).
pub const ERROR_DOMAIN: &str = "a2a-protocol.org";

/// A gRPC status code (the canonical codes of `google.rpc.Code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GrpcCode {
    /// 0.
    Ok,
    /// 1.
    Cancelled,
    /// 2.
    Unknown,
    /// 3.
    InvalidArgument,
    /// 4.
    DeadlineExceeded,
    /// 5.
    NotFound,
    /// 6.
    AlreadyExists,
    /// 7.
    PermissionDenied,
    /// 8.
    ResourceExhausted,
    /// 9.
    FailedPrecondition,
    /// 10.
    Aborted,
    /// 11.
    OutOfRange,
    /// 12.
    Unimplemented,
    /// 13.
    Internal,
    /// 14.
    Unavailable,
    /// 15.
    DataLoss,
    /// 16.
    Unauthenticated,
}

impl GrpcCode {
    const ALL: [GrpcCode; 17] = [
        GrpcCode::Ok,
        GrpcCode::Cancelled,
        GrpcCode::Unknown,
        GrpcCode::InvalidArgument,
        GrpcCode::DeadlineExceeded,
        GrpcCode::NotFound,
        GrpcCode::AlreadyExists,
        GrpcCode::PermissionDenied,
        GrpcCode::ResourceExhausted,
        GrpcCode::FailedPrecondition,
        GrpcCode::Aborted,
        GrpcCode::OutOfRange,
        GrpcCode::Unimplemented,
        GrpcCode::Internal,
        GrpcCode::Unavailable,
        GrpcCode::DataLoss,
        GrpcCode::Unauthenticated,
    ];

    /// The numeric code (`grpc-status`).
    pub const fn code(self) -> i32 {
        self as i32
    }

    /// The name, as the REST error body's `status` carries it: `NOT_FOUND`.
    pub const fn name(self) -> &'static str {
        match self {
            GrpcCode::Ok => "OK",
            GrpcCode::Cancelled => "CANCELLED",
            GrpcCode::Unknown => "UNKNOWN",
            GrpcCode::InvalidArgument => "INVALID_ARGUMENT",
            GrpcCode::DeadlineExceeded => "DEADLINE_EXCEEDED",
            GrpcCode::NotFound => "NOT_FOUND",
            GrpcCode::AlreadyExists => "ALREADY_EXISTS",
            GrpcCode::PermissionDenied => "PERMISSION_DENIED",
            GrpcCode::ResourceExhausted => "RESOURCE_EXHAUSTED",
            GrpcCode::FailedPrecondition => "FAILED_PRECONDITION",
            GrpcCode::Aborted => "ABORTED",
            GrpcCode::OutOfRange => "OUT_OF_RANGE",
            GrpcCode::Unimplemented => "UNIMPLEMENTED",
            GrpcCode::Internal => "INTERNAL",
            GrpcCode::Unavailable => "UNAVAILABLE",
            GrpcCode::DataLoss => "DATA_LOSS",
            GrpcCode::Unauthenticated => "UNAUTHENTICATED",
        }
    }

    /// The code with this number.
    pub fn from_code(code: i32) -> Option<GrpcCode> {
        GrpcCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The code with this name.
    pub fn from_name(name: &str) -> Option<GrpcCode> {
        GrpcCode::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for GrpcCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every error A2A v1 defines: the A2A-specific errors of section 3.3.2 and the JSON-RPC 2.0 standard
/// errors of section 9.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// -32700 `JSONParseError`: the body is not JSON.
    JsonParse,
    /// -32600 `InvalidRequestError`: the body is not a valid request.
    InvalidRequest,
    /// -32601 `MethodNotFoundError`: no such method.
    MethodNotFound,
    /// -32602 `InvalidParamsError`: the params (the request message) are invalid.
    InvalidParams,
    /// -32603 `InternalError`: the server failed.
    Internal,
    /// -32001 `TaskNotFoundError`.
    TaskNotFound,
    /// -32002 `TaskNotCancelableError`.
    TaskNotCancelable,
    /// -32003 `PushNotificationNotSupportedError`.
    PushNotificationNotSupported,
    /// -32004 `UnsupportedOperationError`.
    UnsupportedOperation,
    /// -32005 `ContentTypeNotSupportedError`.
    ContentTypeNotSupported,
    /// -32006 `InvalidAgentResponseError`.
    InvalidAgentResponse,
    /// -32007 `ExtendedAgentCardNotConfiguredError`.
    ExtendedAgentCardNotConfigured,
    /// -32008 `ExtensionSupportRequiredError`.
    ExtensionSupportRequired,
    /// -32009 `VersionNotSupportedError`: the `A2A-Version` asked for is not served.
    VersionNotSupported,
}

impl ErrorKind {
    /// Every error.
    pub const ALL: [ErrorKind; 14] = [
        ErrorKind::JsonParse,
        ErrorKind::InvalidRequest,
        ErrorKind::MethodNotFound,
        ErrorKind::InvalidParams,
        ErrorKind::Internal,
        ErrorKind::TaskNotFound,
        ErrorKind::TaskNotCancelable,
        ErrorKind::PushNotificationNotSupported,
        ErrorKind::UnsupportedOperation,
        ErrorKind::ContentTypeNotSupported,
        ErrorKind::InvalidAgentResponse,
        ErrorKind::ExtendedAgentCardNotConfigured,
        ErrorKind::ExtensionSupportRequired,
        ErrorKind::VersionNotSupported,
    ];

    /// The JSON-RPC error code (sections 5.4 and 9.5).
    pub const fn jsonrpc_code(self) -> i64 {
        match self {
            ErrorKind::JsonParse => -32700,
            ErrorKind::InvalidRequest => -32600,
            ErrorKind::MethodNotFound => -32601,
            ErrorKind::InvalidParams => -32602,
            ErrorKind::Internal => -32603,
            ErrorKind::TaskNotFound => -32001,
            ErrorKind::TaskNotCancelable => -32002,
            ErrorKind::PushNotificationNotSupported => -32003,
            ErrorKind::UnsupportedOperation => -32004,
            ErrorKind::ContentTypeNotSupported => -32005,
            ErrorKind::InvalidAgentResponse => -32006,
            ErrorKind::ExtendedAgentCardNotConfigured => -32007,
            ErrorKind::ExtensionSupportRequired => -32008,
            ErrorKind::VersionNotSupported => -32009,
        }
    }

    /// The gRPC status (section 5.4; for the standard errors, the category of section 3.3.2 they
    /// belong to: validation is `INVALID_ARGUMENT`, an unknown method `NOT_FOUND`, a failure
    /// `INTERNAL`).
    pub const fn grpc_code(self) -> GrpcCode {
        match self {
            ErrorKind::TaskNotFound | ErrorKind::MethodNotFound => GrpcCode::NotFound,
            ErrorKind::JsonParse
            | ErrorKind::InvalidRequest
            | ErrorKind::InvalidParams
            | ErrorKind::ContentTypeNotSupported => GrpcCode::InvalidArgument,
            ErrorKind::Internal | ErrorKind::InvalidAgentResponse => GrpcCode::Internal,
            ErrorKind::TaskNotCancelable
            | ErrorKind::PushNotificationNotSupported
            | ErrorKind::UnsupportedOperation
            | ErrorKind::ExtendedAgentCardNotConfigured
            | ErrorKind::ExtensionSupportRequired
            | ErrorKind::VersionNotSupported => GrpcCode::FailedPrecondition,
        }
    }

    /// The HTTP status of the HTTP+JSON binding (section 5.4, and as for [`ErrorKind::grpc_code`]).
    pub const fn http_status(self) -> u16 {
        match self.grpc_code() {
            GrpcCode::NotFound => 404,
            GrpcCode::Internal => 500,
            _ => 400,
        }
    }

    /// The `reason` of the `google.rpc.ErrorInfo` naming this error: the error's name in
    /// UPPER_SNAKE_CASE without `Error` (sections 10.6 and 11.6). `JsonParse` has `UNKNOWN_ERROR`, as
    /// the SDK writes: the spec gives parse errors no reason, and a server that cannot parse a request
    /// cannot tell what it was.
    pub const fn reason(self) -> &'static str {
        match self {
            ErrorKind::JsonParse => "UNKNOWN_ERROR",
            ErrorKind::InvalidRequest => "INVALID_REQUEST",
            ErrorKind::MethodNotFound => "METHOD_NOT_FOUND",
            ErrorKind::InvalidParams => "INVALID_PARAMS",
            ErrorKind::Internal => "INTERNAL_ERROR",
            ErrorKind::TaskNotFound => "TASK_NOT_FOUND",
            ErrorKind::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            ErrorKind::PushNotificationNotSupported => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            ErrorKind::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            ErrorKind::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            ErrorKind::InvalidAgentResponse => "INVALID_AGENT_RESPONSE",
            ErrorKind::ExtendedAgentCardNotConfigured => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            ErrorKind::ExtensionSupportRequired => "EXTENSION_SUPPORT_REQUIRED",
            ErrorKind::VersionNotSupported => "VERSION_NOT_SUPPORTED",
        }
    }

    /// The message to use when there is nothing more specific to say: the standard messages of
    /// section 9.5 for the JSON-RPC errors, the SDK's for the A2A errors.
    pub const fn default_message(self) -> &'static str {
        match self {
            ErrorKind::JsonParse => "Invalid JSON payload",
            ErrorKind::InvalidRequest => "Request payload validation error",
            ErrorKind::MethodNotFound => "Method not found",
            ErrorKind::InvalidParams => "Invalid parameters",
            ErrorKind::Internal => "Internal error",
            ErrorKind::TaskNotFound => "Task not found",
            ErrorKind::TaskNotCancelable => "Task cannot be canceled",
            ErrorKind::PushNotificationNotSupported => "Push Notification is not supported",
            ErrorKind::UnsupportedOperation => "This operation is not supported",
            ErrorKind::ContentTypeNotSupported => "Incompatible content types",
            ErrorKind::InvalidAgentResponse => "Invalid agent response",
            ErrorKind::ExtendedAgentCardNotConfigured => {
                "Authenticated Extended Card is not configured"
            }
            ErrorKind::ExtensionSupportRequired => "Extension support required",
            ErrorKind::VersionNotSupported => "Version not supported",
        }
    }

    /// Whether this is one of the A2A-specific errors (codes -32001 to -32099) rather than a JSON-RPC
    /// standard error.
    pub const fn is_a2a_specific(self) -> bool {
        let code = self.jsonrpc_code();
        code <= -32001 && code >= -32099
    }

    /// The error with this JSON-RPC code.
    pub fn from_jsonrpc_code(code: i64) -> Option<ErrorKind> {
        ErrorKind::ALL
            .into_iter()
            .find(|e| e.jsonrpc_code() == code)
    }

    /// The error an `ErrorInfo` reason names.
    pub fn from_reason(reason: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|e| e.reason() == reason)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason(), self.jsonrpc_code())
    }
}

impl std::error::Error for ErrorKind {}

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
        }
    }

    /// Adds one entry to the `ErrorInfo` metadata.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
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

    /// The JSON-RPC `error` object (section 9.5).
    pub fn to_jsonrpc(&self) -> Value {
        json!({
            "code": self.kind.jsonrpc_code(),
            "message": self.message,
            "data": self.details(),
        })
    }

    /// The HTTP+JSON error body, `google.rpc.Status` as JSON in the AIP-193 shape (section 11.6); the
    /// HTTP status to answer with is [`ErrorKind::http_status`].
    pub fn to_rest(&self) -> Value {
        json!({"error": {
            "code": self.kind.http_status(),
            "status": self.kind.grpc_code().name(),
            "message": self.message,
            "details": self.details(),
        }})
    }

    /// Reads a JSON-RPC `error` object: the code names the error; the details are read from `data`
    /// when it is a list (a v0.3 peer sends an object, which is kept as metadata).
    pub fn from_jsonrpc(error: &Value) -> Result<Self, ErrorShapeError> {
        let object = error
            .as_object()
            .ok_or_else(|| ErrorShapeError::at("", "the error is not a JSON object"))?;
        let code = object
            .get("code")
            .and_then(Value::as_i64)
            .ok_or_else(|| ErrorShapeError::at("code", "missing or not an integer"))?;
        let kind = ErrorKind::from_jsonrpc_code(code).ok_or_else(|| {
            ErrorShapeError::at("code", format!("{code} is not an A2A error code"))
        })?;
        let message = read_message(object, "message")?;
        let mut error = Error::with_message(kind, message);
        match object.get("data") {
            None | Some(Value::Null) => {}
            Some(Value::Array(details)) => error.read_details(details, "data")?,
            Some(Value::Object(data)) => error.metadata = data.clone(),
            Some(_) => return Err(ErrorShapeError::at("data", "neither a list nor an object")),
        }
        Ok(error)
    }

    /// Reads an HTTP+JSON error body: the `ErrorInfo` reason names the error (the HTTP status alone is
    /// ambiguous, section 11.6).
    pub fn from_rest(body: &Value) -> Result<Self, ErrorShapeError> {
        let status = body
            .get("error")
            .and_then(Value::as_object)
            .ok_or_else(|| ErrorShapeError::at("error", "missing or not an object"))?;
        let message = read_message(status, "error.message")?;
        let details = match status.get("details") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(details)) => details.as_slice(),
            Some(_) => return Err(ErrorShapeError::at("error.details", "not a list")),
        };
        let reason = details
            .iter()
            .find(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))
            .and_then(|info| info.get("reason"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ErrorShapeError::at("error.details", "no google.rpc.ErrorInfo with a reason")
            })?;
        let kind = ErrorKind::from_reason(reason).ok_or_else(|| {
            ErrorShapeError::at(
                "error.details",
                format!("{reason:?} is not an A2A error reason"),
            )
        })?;
        let mut error = Error::with_message(kind, message);
        error.read_details(details, "error.details")?;
        Ok(error)
    }

    /// Takes the first `ErrorInfo`'s metadata and every `BadRequest`'s violations; keeps the rest.
    fn read_details(&mut self, details: &[Value], path: &str) -> Result<(), ErrorShapeError> {
        let mut seen_info = false;
        for (index, detail) in details.iter().enumerate() {
            let at = |field: &str| format!("{path}[{index}]{field}");
            let type_url = detail
                .get("@type")
                .and_then(Value::as_str)
                .ok_or_else(|| ErrorShapeError::at(&at(".@type"), "missing or not a string"))?;
            match type_url {
                ERROR_INFO_TYPE if !seen_info => {
                    seen_info = true;
                    match detail.get("metadata") {
                        None | Some(Value::Null) => {}
                        Some(Value::Object(metadata)) => self.metadata = metadata.clone(),
                        Some(_) => {
                            return Err(ErrorShapeError::at(&at(".metadata"), "not an object"));
                        }
                    }
                }
                BAD_REQUEST_TYPE => {
                    let violations = detail
                        .get("fieldViolations")
                        .or_else(|| detail.get("field_violations"));
                    let violations = match violations {
                        None | Some(Value::Null) => &[][..],
                        Some(Value::Array(list)) => list.as_slice(),
                        Some(_) => {
                            return Err(ErrorShapeError::at(&at(".fieldViolations"), "not a list"));
                        }
                    };
                    for (v_index, violation) in violations.iter().enumerate() {
                        let text = |name: &str| -> Result<String, ErrorShapeError> {
                            match violation.get(name) {
                                None | Some(Value::Null) => Ok(String::new()),
                                Some(Value::String(s)) => Ok(s.clone()),
                                Some(_) => Err(ErrorShapeError::at(
                                    &at(&format!(".fieldViolations[{v_index}].{name}")),
                                    "not a string",
                                )),
                            }
                        };
                        self.field_violations.push(FieldViolation {
                            field: text("field")?,
                            description: text("description")?,
                        });
                    }
                }
                _ => self.other_details.push(detail.clone()),
            }
        }
        Ok(())
    }
}

fn read_message(object: &JsonObject, path: &str) -> Result<String, ErrorShapeError> {
    match object.get("message") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(message)) => Ok(message.clone()),
        Some(_) => Err(ErrorShapeError::at(path, "not a string")),
    }
}

/// A gRPC error status as a server sends it: `grpc-status`, `grpc-message`, and the encoded
/// `google.rpc.Status` for the `grpc-status-details-bin` trailer (feature `proto`).
#[cfg(feature = "proto")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrpcStatus {
    /// The status code.
    pub code: GrpcCode,
    /// The message.
    pub message: String,
    /// The encoded `google.rpc.Status`, whose code and message are the two above.
    pub details_bin: Vec<u8>,
}

#[cfg(feature = "proto")]
impl Error {
    /// The gRPC status of the error (section 10.6): an `ErrorInfo` detail, and a `BadRequest` when
    /// there are field violations. `ErrorInfo.metadata` holds strings: other JSON values are written
    /// as JSON text, and the `errors` entry of invalid params is left out, as the `BadRequest` carries
    /// it. Details other than these two cannot be packed from JSON and are left out.
    pub fn to_grpc_status(&self) -> GrpcStatus {
        use a2a_proto::rpc;

        let skip_errors =
            self.kind == ErrorKind::InvalidParams && !self.field_violations.is_empty();
        let metadata = self
            .metadata
            .iter()
            .filter(|(key, _)| !(skip_errors && key.as_str() == "errors"))
            .map(|(key, value)| {
                let text = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                (key.clone(), text)
            })
            .collect();
        let info = rpc::ErrorInfo {
            reason: self.kind.reason().to_owned(),
            domain: ERROR_DOMAIN.to_owned(),
            metadata,
        };
        let mut details = vec![rpc::Any::pack(rpc::ERROR_INFO_TYPE_URL, &info)];
        if !self.field_violations.is_empty() {
            let bad_request = rpc::BadRequest {
                field_violations: self
                    .field_violations
                    .iter()
                    .map(|v| rpc::FieldViolation {
                        field: v.field.clone(),
                        description: v.description.clone(),
                    })
                    .collect(),
            };
            details.push(rpc::Any::pack(rpc::BAD_REQUEST_TYPE_URL, &bad_request));
        }
        let code = self.kind.grpc_code();
        let status = rpc::Status {
            code: code.code(),
            message: self.message.clone(),
            details,
        };
        GrpcStatus {
            code,
            message: self.message.clone(),
            details_bin: status.to_bytes(),
        }
    }

    /// Reads the encoded `google.rpc.Status` of a `grpc-status-details-bin` trailer: its A2A
    /// `ErrorInfo` names the error; `BadRequest` violations are read, and for invalid params also
    /// listed as the `errors` metadata, as the SDK's client does. Other details are skipped.
    pub fn from_grpc_status(details_bin: &[u8]) -> Result<Self, ErrorShapeError> {
        use a2a_proto::rpc;

        let status = rpc::Status::from_bytes(details_bin)
            .map_err(|e| ErrorShapeError::at("", format!("not a google.rpc.Status: {e}")))?;
        let mut kind = None;
        let mut metadata = JsonObject::new();
        let mut field_violations = Vec::new();
        for (index, detail) in status.details.iter().enumerate() {
            let at = format!("details[{index}]");
            let decode_error = |e: a2a_proto::rpc::DecodeError| {
                ErrorShapeError::at(&at, format!("{}: {e}", detail.type_url))
            };
            match detail.type_url.as_str() {
                rpc::ERROR_INFO_TYPE_URL if kind.is_none() => {
                    let info = detail.unpack::<rpc::ErrorInfo>().map_err(decode_error)?;
                    if info.domain != ERROR_DOMAIN {
                        continue;
                    }
                    kind = Some(ErrorKind::from_reason(&info.reason).ok_or_else(|| {
                        ErrorShapeError::at(
                            &format!("{at}.reason"),
                            format!("{:?} is not an A2A error reason", info.reason),
                        )
                    })?);
                    metadata = info
                        .metadata
                        .into_iter()
                        .map(|(key, value)| (key, Value::String(value)))
                        .collect();
                }
                rpc::BAD_REQUEST_TYPE_URL => {
                    let bad_request = detail.unpack::<rpc::BadRequest>().map_err(decode_error)?;
                    field_violations.extend(bad_request.field_violations.into_iter().map(|v| {
                        FieldViolation {
                            field: v.field,
                            description: v.description,
                        }
                    }));
                }
                _ => {}
            }
        }
        let kind = kind.ok_or_else(|| {
            ErrorShapeError::at(
                "details",
                "no google.rpc.ErrorInfo of domain a2a-protocol.org",
            )
        })?;
        if kind == ErrorKind::InvalidParams && !field_violations.is_empty() {
            let errors: Vec<Value> = field_violations
                .iter()
                .map(|v| json!({"field": v.field, "message": v.description}))
                .collect();
            metadata.entry("errors").or_insert(Value::Array(errors));
        }
        let mut error = Error::with_message(kind, status.message);
        error.metadata = metadata;
        error.field_violations = field_violations;
        Ok(error)
    }
}

/// tonic's `Status` (feature `grpc`): what a tonic server returns and a tonic client receives. The
/// code, the message and the `google.rpc.Status` details are those of [`Error::to_grpc_status`].
#[cfg(feature = "grpc")]
impl From<&Error> for tonic::Status {
    fn from(error: &Error) -> Self {
        let status = error.to_grpc_status();
        tonic::Status::with_details(
            tonic::Code::from_i32(status.code.code()),
            status.message,
            tonic::codegen::Bytes::from(status.details_bin),
        )
    }
}

#[cfg(feature = "grpc")]
impl From<Error> for tonic::Status {
    fn from(error: Error) -> Self {
        tonic::Status::from(&error)
    }
}

#[cfg(feature = "grpc")]
impl Error {
    /// Reads the A2A error a tonic client received, from the status's binary details (see
    /// [`Error::from_grpc_status`]). A status without A2A details (a plain transport or server
    /// failure) is an error naming what is missing; `status.code()` still tells what happened.
    pub fn from_tonic_status(status: &tonic::Status) -> Result<Self, ErrorShapeError> {
        Error::from_grpc_status(status.details())
    }
}

impl ErrorKind {
    /// Whether A2A v0.3 defines this error; v1 added `ExtensionSupportRequired` and
    /// `VersionNotSupported`.
    pub const fn in_v0_3(self) -> bool {
        !matches!(
            self,
            ErrorKind::ExtensionSupportRequired | ErrorKind::VersionNotSupported
        )
    }

    /// The error a v0.3 client is sent: this one where v0.3 defines it, else `Internal`.
    pub const fn for_v0_3(self) -> ErrorKind {
        if self.in_v0_3() {
            self
        } else {
            ErrorKind::Internal
        }
    }
}

/// The v0.3 JSON-RPC error object (feature `v0_3`): the code as v0.3 knows it, the message, and the
/// metadata as `data` (v0.3 has no typed details).
#[cfg(feature = "v0_3")]
impl From<&Error> for crate::v0_3::JsonRpcError {
    fn from(error: &Error) -> Self {
        crate::v0_3::JsonRpcError {
            code: error.kind.for_v0_3().jsonrpc_code(),
            data: (!error.metadata.is_empty()).then(|| Value::Object(error.metadata.clone())),
            message: error.message.clone(),
        }
    }
}

/// Reads a v0.3 JSON-RPC error object (feature `v0_3`): its `data`, when an object, becomes the
/// metadata. Fails on a code A2A does not define.
#[cfg(feature = "v0_3")]
impl TryFrom<&crate::v0_3::JsonRpcError> for Error {
    type Error = ErrorShapeError;

    fn try_from(error: &crate::v0_3::JsonRpcError) -> Result<Self, ErrorShapeError> {
        Error::from_jsonrpc(&serde_json::to_value(error).expect("a JSON-RPC error serializes"))
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
    fn at(path: &str, problem: impl Into<String>) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "grpc")]
    fn every_error_survives_a_tonic_status() {
        for kind in ErrorKind::ALL {
            let error = Error::with_message(kind, format!("{kind:?} for task-9"))
                .with_metadata("taskId", "task-9");
            let status = tonic::Status::from(&error);
            assert_eq!(status.code() as i32, kind.grpc_code().code(), "{kind:?}");
            assert_eq!(status.message(), format!("{kind:?} for task-9"));
            assert_eq!(
                Error::from_tonic_status(&status).unwrap(),
                error,
                "{kind:?}"
            );
        }
        let plain = tonic::Status::unavailable("connection refused");
        let error = Error::from_tonic_status(&plain).unwrap_err();
        assert!(error.to_string().contains("ErrorInfo"), "{error}");
    }

    /// The mapping of the spec's section 5.4 table, row by row.
    #[test]
    fn a2a_errors_map_as_the_spec_table_says() {
        let table = [
            (ErrorKind::TaskNotFound, -32001, "NOT_FOUND", 404),
            (
                ErrorKind::TaskNotCancelable,
                -32002,
                "FAILED_PRECONDITION",
                400,
            ),
            (
                ErrorKind::PushNotificationNotSupported,
                -32003,
                "FAILED_PRECONDITION",
                400,
            ),
            (
                ErrorKind::UnsupportedOperation,
                -32004,
                "FAILED_PRECONDITION",
                400,
            ),
            (
                ErrorKind::ContentTypeNotSupported,
                -32005,
                "INVALID_ARGUMENT",
                400,
            ),
            (ErrorKind::InvalidAgentResponse, -32006, "INTERNAL", 500),
            (
                ErrorKind::ExtendedAgentCardNotConfigured,
                -32007,
                "FAILED_PRECONDITION",
                400,
            ),
            (
                ErrorKind::ExtensionSupportRequired,
                -32008,
                "FAILED_PRECONDITION",
                400,
            ),
            (
                ErrorKind::VersionNotSupported,
                -32009,
                "FAILED_PRECONDITION",
                400,
            ),
        ];
        for (kind, code, grpc, http) in table {
            assert!(kind.is_a2a_specific());
            assert_eq!(kind.jsonrpc_code(), code, "{kind:?}");
            assert_eq!(kind.grpc_code().name(), grpc, "{kind:?}");
            assert_eq!(kind.http_status(), http, "{kind:?}");
            assert_eq!(ErrorKind::from_jsonrpc_code(code), Some(kind));
            assert_eq!(ErrorKind::from_reason(kind.reason()), Some(kind));
        }
        let specific = ErrorKind::ALL
            .iter()
            .filter(|e| e.is_a2a_specific())
            .count();
        assert_eq!(specific, table.len());
        assert_eq!(
            GrpcCode::from_name("FAILED_PRECONDITION").map(GrpcCode::code),
            Some(9)
        );
        assert_eq!(GrpcCode::from_code(5), Some(GrpcCode::NotFound));
    }

    #[test]
    fn every_error_round_trips_through_both_shapes() {
        for kind in ErrorKind::ALL {
            let mut error = Error::with_message(kind, format!("{kind:?} happened"))
                .with_metadata("taskId", "task-9");
            error.field_violations.push(FieldViolation {
                field: "message.parts".into(),
                description: "At least one part is required".into(),
            });
            error.other_details.push(
                json!({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}),
            );
            assert_eq!(Error::from_jsonrpc(&error.to_jsonrpc()).unwrap(), error);
            assert_eq!(Error::from_rest(&error.to_rest()).unwrap(), error);
        }
    }

    #[test]
    fn reads_the_spec_examples() {
        let jsonrpc = json!({
            "code": -32602,
            "message": "Invalid parameters",
            "data": [{
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.parts", "description": "At least one part is required"}]
            }]
        });
        let error = Error::from_jsonrpc(&jsonrpc).unwrap();
        assert_eq!(error.kind, ErrorKind::InvalidParams);
        assert_eq!(error.field_violations[0].field, "message.parts");
        let rest = json!({"error": {
            "code": 404,
            "status": "NOT_FOUND",
            "message": "The specified task ID does not exist or is not accessible",
            "details": [{
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org",
                "metadata": {"taskId": "task-123", "timestamp": "2025-11-09T10:30:00.000Z"}
            }]
        }});
        let error = Error::from_rest(&rest).unwrap();
        assert_eq!(error.kind, ErrorKind::TaskNotFound);
        assert_eq!(error.metadata["taskId"], "task-123");
    }

    #[test]
    fn malformed_errors_name_the_path() {
        let cases = [
            (json!({"code": "x"}), "code"),
            (json!({"code": -31999, "message": "?"}), "code"),
            (json!({"code": -32001, "message": 7}), "message"),
            (
                json!({"code": -32001, "data": [{"reason": "X"}]}),
                "data[0].@type",
            ),
            (
                json!({"code": -32602, "data": [{"@type": BAD_REQUEST_TYPE, "fieldViolations": [{"field": 1}]}]}),
                "data[0].fieldViolations[0].field",
            ),
        ];
        for (object, path) in cases {
            assert_eq!(
                Error::from_jsonrpc(&object).unwrap_err().path,
                path,
                "{object}"
            );
        }
        let no_reason = json!({"error": {"code": 400, "message": "bad", "details": []}});
        assert_eq!(
            Error::from_rest(&no_reason).unwrap_err().path,
            "error.details"
        );
    }

    #[cfg(feature = "proto")]
    #[test]
    fn grpc_status_round_trips() {
        let error =
            Error::with_message(ErrorKind::TaskNotFound, "Task with ID 'task-123' not found")
                .with_metadata("taskId", "task-123");
        let status = error.to_grpc_status();
        assert_eq!(status.code, GrpcCode::NotFound);
        assert_eq!(Error::from_grpc_status(&status.details_bin), Ok(error));

        let violations = Violations::from(vec![FieldViolation::at(
            "message",
            "parts",
            "Field is required.",
        )]);
        let invalid = Error::from(&violations);
        let status = invalid.to_grpc_status();
        assert_eq!(status.code, GrpcCode::InvalidArgument);
        assert_eq!(Error::from_grpc_status(&status.details_bin), Ok(invalid));

        // Non-string metadata travels as JSON text.
        let counted = Error::new(ErrorKind::Internal).with_metadata("attempt", 2);
        let read = Error::from_grpc_status(&counted.to_grpc_status().details_bin).unwrap();
        assert_eq!(read.metadata["attempt"], "2");

        assert_eq!(Error::from_grpc_status(b"\xff\xff").unwrap_err().path, "");
        let no_info = a2a_proto::rpc::Status {
            code: 13,
            message: "x".into(),
            details: vec![],
        };
        let bytes = no_info.to_bytes();
        assert_eq!(Error::from_grpc_status(&bytes).unwrap_err().path, "details");
    }

    #[cfg(feature = "v0_3")]
    #[test]
    fn v0_3_error_objects() {
        use crate::v0_3::JsonRpcError;

        let error = Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", "t-1");
        let v0_3 = JsonRpcError::from(&error);
        assert_eq!(v0_3.code, -32001);
        assert_eq!(v0_3.data, Some(json!({"taskId": "t-1"})));
        assert_eq!(Error::try_from(&v0_3), Ok(error));
        let newer = Error::new(ErrorKind::VersionNotSupported);
        assert_eq!(JsonRpcError::from(&newer).code, -32603);
        assert_eq!(JsonRpcError::from(&newer).data, None);
        let unknown = JsonRpcError {
            code: -1,
            data: None,
            message: "?".into(),
        };
        assert_eq!(Error::try_from(&unknown).unwrap_err().path, "code");
    }

    #[test]
    fn violations_become_invalid_params() {
        let violations = Violations::from(vec![FieldViolation::at(
            "message",
            "role",
            "Field is required.",
        )]);
        let error = Error::from(&violations);
        assert_eq!(error.kind, ErrorKind::InvalidParams);
        assert_eq!(error.field_violations, violations.clone().into_vec());
        assert_eq!(error.to_jsonrpc(), violations.to_jsonrpc_error());
    }
}
