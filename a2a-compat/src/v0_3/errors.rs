//! The A2A v0.3 form of the v1 error model ([`a2a_protocol::errors`]): v0.3's JSON-RPC error object, whose `data` is free
//! JSON, and its typed error union, converted as the official Python SDK converts them.
//!
//! v1 → v0.3 keeps the code (where v0.3 has it), the message and the metadata (as `data`). v0.3 → v1
//! keeps the code and the message and drops `data`: the SDK's clients build their error from those
//! two alone (its v0.3 client passes only the message on; its v1 client reads metadata only from a
//! `google.rpc.ErrorInfo` in a `data` list, which v0.3 never sends), so a bridged error reads the same
//! in Rust and in Python.

use serde_json::Value;

use a2a_protocol::errors::{Error, ErrorKind, ErrorShapeError};

use crate::v0_3;

/// As the SDK answers a v0.3 client: the code where v0.3 defines it, else -32603 Internal error
/// ([`ErrorKind::for_v0_3`]); the message; the metadata as `data` (absent when empty). v0.3 has no
/// typed details, so field violations and other details are not carried.
impl From<&Error> for v0_3::JsonRpcError {
    fn from(error: &Error) -> Self {
        v0_3::JsonRpcError {
            code: error.kind.for_v0_3().jsonrpc_code(),
            data: (!error.metadata.is_empty()).then(|| Value::Object(error.metadata.clone())),
            message: error.message.clone(),
        }
    }
}

impl From<Error> for v0_3::JsonRpcError {
    fn from(error: Error) -> Self {
        v0_3::JsonRpcError::from(&error)
    }
}

/// As the SDK's clients read a v0.3 error: the code names the error and the message is kept; `data`
/// is dropped (see the module docs). Fails, at `code`, on a code A2A does not define; v1's two new
/// codes (-32008, -32009) are accepted.
impl TryFrom<&v0_3::JsonRpcError> for Error {
    type Error = ErrorShapeError;

    fn try_from(error: &v0_3::JsonRpcError) -> Result<Self, ErrorShapeError> {
        let kind = ErrorKind::from_jsonrpc_code(error.code).ok_or_else(|| {
            ErrorShapeError::at("code", format!("{} is not an A2A error code", error.code))
        })?;
        Ok(Error::with_message(kind, error.message.clone()))
    }
}

impl TryFrom<v0_3::JsonRpcError> for Error {
    type Error = ErrorShapeError;

    fn try_from(error: v0_3::JsonRpcError) -> Result<Self, ErrorShapeError> {
        Error::try_from(&error)
    }
}

/// A typed v0.3 error, read as [`v0_3::JsonRpcError`] is: code and message. Every v0.3 error is one
/// of A2A's, so this cannot fail.
impl From<v0_3::A2aError> for Error {
    fn from(error: v0_3::A2aError) -> Self {
        Error::try_from(v0_3::JsonRpcError::from(error))
            .expect("every v0.3 error code is an A2A error code")
    }
}

/// The typed v0.3 error a v0.3 client is sent, as [`v0_3::JsonRpcError::from`] writes it.
impl From<&Error> for v0_3::A2aError {
    fn from(error: &Error) -> Self {
        v0_3::A2aError::try_from(v0_3::JsonRpcError::from(error))
            .expect("ErrorKind::for_v0_3 gives a code v0.3 defines")
    }
}

impl From<Error> for v0_3::A2aError {
    fn from(error: Error) -> Self {
        v0_3::A2aError::from(&error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v0_3_error_objects() {
        use crate::v0_3::JsonRpcError;
        use a2a_protocol::errors::ErrorKind;
        use serde_json::json;

        let error = Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", "t-1");
        let v0_3 = JsonRpcError::from(&error);
        assert_eq!(v0_3.code, -32001);
        assert_eq!(v0_3.data, Some(json!({"taskId": "t-1"})));
        // Back: code and message; `data` is dropped, as the SDK's clients drop it.
        assert_eq!(
            Error::try_from(&v0_3),
            Ok(Error::new(ErrorKind::TaskNotFound))
        );
        let as_json = serde_json::to_value(&v0_3).unwrap();
        assert_eq!(
            Error::from_jsonrpc(&as_json),
            Ok(Error::new(ErrorKind::TaskNotFound))
        );
        let typed = crate::v0_3::A2aError::from(&error);
        assert_eq!(Error::from(typed), Error::new(ErrorKind::TaskNotFound));
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
}
