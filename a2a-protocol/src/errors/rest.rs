//! The HTTP+JSON form of an error (spec section 11.6): `google.rpc.Status` as JSON in the AIP-193
//! shape, `{"error": {"code", "status", "message", "details": [Any...]}}`.

use serde_json::{Value, json};

use super::jsonrpc::read_message;
use super::{ERROR_INFO_TYPE, Error, ErrorKind, ErrorShapeError};

impl Error {
    /// The HTTP+JSON error body, `google.rpc.Status` as JSON in the AIP-193 shape (section 11.6); the
    /// HTTP status to answer with is [`Error::http_status`].
    pub fn to_rest(&self) -> Value {
        json!({"error": {
            "code": self.http_status(),
            "status": self.grpc_code().name(),
            "message": self.message,
            "details": self.details(),
        }})
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
}
