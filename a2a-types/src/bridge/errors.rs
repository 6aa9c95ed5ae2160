//! A2A errors: v0.3's JSON-RPC error objects and the errors v1 defines.

use std::fmt;

use serde_json::{Value, json};

use super::{BridgeError, BridgeErrorKind};
use crate::errors::ErrorKind;
use crate::{JsonObject, v0_3};

/// An A2A error as the SDK defines it for v1: its JSON-RPC code, its `google.rpc.ErrorInfo` reason, and
/// the HTTP and gRPC status the REST and gRPC bindings answer with.
///
/// v0.3 defines the same codes except [`ErrorCode::ExtensionSupportRequired`] (-32008) and
/// [`ErrorCode::VersionNotSupported`] (-32009).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// -32700: the body is not JSON.
    JsonParse,
    /// -32600: the body is not a valid JSON-RPC request.
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: the params are invalid.
    InvalidParams,
    /// -32603: anything else that went wrong in the server.
    Internal,
    /// -32001.
    TaskNotFound,
    /// -32002.
    TaskNotCancelable,
    /// -32003.
    PushNotificationNotSupported,
    /// -32004.
    UnsupportedOperation,
    /// -32005.
    ContentTypeNotSupported,
    /// -32006.
    InvalidAgentResponse,
    /// -32007 (v0.3: `AuthenticatedExtendedCardNotConfiguredError`).
    ExtendedAgentCardNotConfigured,
    /// -32008, new in v1.
    ExtensionSupportRequired,
    /// -32009, new in v1: the `A2A-Version` the client asked for is not served.
    VersionNotSupported,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 14] = [
        ErrorCode::JsonParse,
        ErrorCode::InvalidRequest,
        ErrorCode::MethodNotFound,
        ErrorCode::InvalidParams,
        ErrorCode::Internal,
        ErrorCode::TaskNotFound,
        ErrorCode::TaskNotCancelable,
        ErrorCode::PushNotificationNotSupported,
        ErrorCode::UnsupportedOperation,
        ErrorCode::ContentTypeNotSupported,
        ErrorCode::InvalidAgentResponse,
        ErrorCode::ExtendedAgentCardNotConfigured,
        ErrorCode::ExtensionSupportRequired,
        ErrorCode::VersionNotSupported,
    ];

    /// The same error in the v1 error model, which holds its codes, reason and statuses
    /// ([`crate::errors`]); the two enums list the errors in the same order.
    pub const fn kind(self) -> ErrorKind {
        ErrorKind::ALL[self as usize]
    }

    /// The JSON-RPC error code.
    pub const fn code(self) -> i64 {
        self.kind().jsonrpc_code()
    }

    /// The error with this JSON-RPC code.
    pub fn from_code(code: i64) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|e| e.code() == code)
    }

    /// Whether v0.3 defines this code; a v1 error with another code reaches a v0.3 client as
    /// [`ErrorCode::Internal`].
    pub const fn in_v0_3(self) -> bool {
        self.kind().in_v0_3()
    }

    /// The `reason` of the `google.rpc.ErrorInfo` the SDK attaches (`UNKNOWN_ERROR` for a parse error,
    /// which has none of its own).
    pub const fn reason(self) -> &'static str {
        self.kind().reason()
    }

    /// The HTTP status of the REST binding; `None` for a parse error, which has no mapping.
    pub const fn http_status(self) -> Option<u16> {
        match self {
            ErrorCode::JsonParse => None,
            _ => Some(self.kind().http_status()),
        }
    }

    /// The gRPC status of the gRPC binding; `None` for a parse error, which has no mapping.
    pub const fn grpc_status(self) -> Option<&'static str> {
        match self {
            ErrorCode::JsonParse => None,
            _ => Some(self.kind().grpc_code().name()),
        }
    }

    /// The message the SDK uses when none is given.
    pub const fn default_message(self) -> &'static str {
        match self {
            ErrorCode::JsonParse => "Invalid JSON payload",
            ErrorCode::InvalidRequest => "Invalid Request",
            ErrorCode::MethodNotFound => "Method not found",
            ErrorCode::InvalidParams => "Invalid params",
            ErrorCode::Internal => "Internal error",
            _ => self.kind().default_message(),
        }
    }

    /// The code a v0.3 client receives: this one where v0.3 defines it, else `Internal` (-32603).
    pub const fn for_v0_3(self) -> ErrorCode {
        if self.in_v0_3() {
            self
        } else {
            ErrorCode::Internal
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason(), self.code())
    }
}

pub use crate::errors::{ERROR_DOMAIN, ERROR_INFO_TYPE};

/// An A2A error in v1: a code, a message, and data (the SDK's `A2AError.data`, a JSON object).
///
/// On the v1 JSON-RPC wire ([`V1Error::to_jsonrpc`]) the data travels as the `metadata` of a
/// `google.rpc.ErrorInfo` in the error's `data` list; in v0.3 it is the error's `data` itself.
#[derive(Clone, Debug, PartialEq)]
pub struct V1Error {
    pub code: ErrorCode,
    pub message: String,
    pub data: Option<JsonObject>,
}

impl V1Error {
    /// An error with the SDK's default message and no data.
    pub fn new(code: ErrorCode) -> Self {
        V1Error {
            code,
            message: code.default_message().to_owned(),
            data: None,
        }
    }

    /// The v1 JSON-RPC error object, as the SDK writes it: `code`, `message` and a `data` list whose
    /// one entry is a `google.rpc.ErrorInfo` with the reason, the A2A domain and the data as metadata.
    /// (The SDK adds a `google.rpc.BadRequest` for `InvalidParams` errors with validation details;
    /// this does not.)
    pub fn to_jsonrpc(&self) -> Value {
        json!({
            "code": self.code.code(),
            "message": self.message,
            "data": [{
                "@type": ERROR_INFO_TYPE,
                "reason": self.code.reason(),
                "domain": ERROR_DOMAIN,
                "metadata": self.data.clone().unwrap_or_default(),
            }],
        })
    }

    /// Reads a v1 JSON-RPC error object as the SDK's client does: the code picks the error, the data is
    /// the `metadata` of the first `google.rpc.ErrorInfo` in `data` (`None` when empty). Fails on a code
    /// A2A does not define.
    pub fn from_jsonrpc(error: &Value) -> Result<Self, BridgeError> {
        let code = error.get("code").and_then(Value::as_i64);
        let kind = code.and_then(ErrorCode::from_code).ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::NotAnA2aError {
                code: code.unwrap_or_default(),
            })
            .at("code")
        })?;
        let message = match error.get("message") {
            Some(Value::String(message)) => message.clone(),
            _ => kind.default_message().to_owned(),
        };
        let data = error
            .get("data")
            .and_then(Value::as_array)
            .and_then(|details| {
                details
                    .iter()
                    .find(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))
            })
            .and_then(|info| info.get("metadata"))
            .and_then(Value::as_object)
            .filter(|metadata| !metadata.is_empty())
            .cloned();
        Ok(V1Error {
            code: kind,
            message,
            data,
        })
    }
}

impl fmt::Display for V1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for V1Error {}

/// The code and message; the data is lost, as in the SDK's v0.3 client, which builds the error from
/// the code and message alone.
impl From<v0_3::A2aError> for V1Error {
    fn from(error: v0_3::A2aError) -> Self {
        let error = v0_3::JsonRpcError::from(error);
        V1Error {
            code: ErrorCode::from_code(error.code)
                .expect("every v0.3 A2A error code is an A2A code"),
            message: error.message,
            data: None,
        }
    }
}

/// As for [`v0_3::A2aError`], also accepting v1's two new codes. Fails
/// ([`BridgeErrorKind::NotAnA2aError`]) on any other code.
impl TryFrom<v0_3::JsonRpcError> for V1Error {
    type Error = BridgeError;

    fn try_from(error: v0_3::JsonRpcError) -> Result<Self, BridgeError> {
        let code = ErrorCode::from_code(error.code).ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::NotAnA2aError { code: error.code }).at("code")
        })?;
        Ok(V1Error {
            code,
            message: error.message,
            data: None,
        })
    }
}

/// As the SDK answers a v0.3 client: the code where v0.3 defines it, else -32603; the message; the data
/// as `data`.
impl From<V1Error> for v0_3::JsonRpcError {
    fn from(error: V1Error) -> Self {
        v0_3::JsonRpcError {
            code: error.code.for_v0_3().code(),
            data: error.data.map(Value::Object),
            message: error.message,
        }
    }
}

/// As [`v0_3::JsonRpcError::from`], typed.
impl From<V1Error> for v0_3::A2aError {
    fn from(error: V1Error) -> Self {
        v0_3::A2aError::try_from(v0_3::JsonRpcError::from(error))
            .expect("every code v0.3 is given is one of its A2A codes")
    }
}

#[cfg(test)]
mod tests {
    use super::{ErrorCode, ErrorKind};

    /// `ErrorCode` predates the v1 error model (`crate::errors`) and stays for the bridge's API,
    /// reading its facts from it by position; this holds the order and the few deliberate
    /// differences, where the bridge follows the SDK's v0.3 conversions:
    /// a parse error has no REST or gRPC mapping there, and the standard errors keep the SDK's messages.
    #[test]
    fn the_bridge_codes_agree_with_the_error_model() {
        assert_eq!(ErrorCode::ALL.len(), ErrorKind::ALL.len());
        for (code, kind) in ErrorCode::ALL.into_iter().zip(ErrorKind::ALL) {
            assert_eq!(code.code(), kind.jsonrpc_code(), "{code:?}");
            assert_eq!(code.reason(), kind.reason(), "{code:?}");
            assert_eq!(code.in_v0_3(), kind.in_v0_3(), "{code:?}");
            assert_eq!(
                code.for_v0_3().code(),
                kind.for_v0_3().jsonrpc_code(),
                "{code:?}"
            );
            if code != ErrorCode::JsonParse {
                assert_eq!(code.http_status(), Some(kind.http_status()), "{code:?}");
                assert_eq!(
                    code.grpc_status(),
                    Some(kind.grpc_code().name()),
                    "{code:?}"
                );
            }
            if kind.is_a2a_specific() {
                assert_eq!(code.default_message(), kind.default_message(), "{code:?}");
            }
        }
    }
}
