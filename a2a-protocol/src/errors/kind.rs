//! Which error: [`ErrorKind`], with the code, status and reason each binding gives it, and the gRPC
//! status codes ([`GrpcCode`]) the gRPC and HTTP+JSON bindings name.

use std::fmt;

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
