//! The JSON-RPC form of an error (spec section 9.5): `{"code", "message", "data": [Any...]}`, and the
//! reading of a details list, which the HTTP+JSON form shares.

use serde_json::{Value, json};

use super::{BAD_REQUEST_TYPE, ERROR_INFO_TYPE, Error, ErrorKind, ErrorShapeError};
use a2a_types::JsonObject;
use a2a_types::validate::FieldViolation;

impl Error {
    /// The JSON-RPC `error` object (section 9.5); without `data` when the error is [bare](Error::bare)
    /// and holds no details (details given to a bare error are written, never dropped).
    pub fn to_jsonrpc(&self) -> Value {
        let has_details = !self.metadata.is_empty()
            || !self.field_violations.is_empty()
            || !self.other_details.is_empty();
        if self.bare && !has_details {
            return json!({"code": self.kind.jsonrpc_code(), "message": self.message});
        }
        json!({
            "code": self.kind.jsonrpc_code(),
            "message": self.message,
            "data": self.details(),
        })
    }

    /// Reads a JSON-RPC `error` object: the code names the error; the details are read from `data`
    /// when it is a list; without `data` (or with `null`) the error is [bare](Error::bare). An
    /// object `data` (what a v0.3 peer sends) is accepted and dropped, as the SDK's clients drop it
    /// (see `TryFrom<&v0_3::JsonRpcError>` in `a2a-spec-compat`).
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
            None | Some(Value::Null) => error.bare = true,
            Some(Value::Array(details)) => error.read_details(details, "data")?,
            Some(Value::Object(_)) => {}
            Some(_) => return Err(ErrorShapeError::at("data", "neither a list nor an object")),
        }
        Ok(error)
    }

    /// Takes the first `ErrorInfo`'s metadata and every `BadRequest`'s violations; keeps the rest.
    pub(super) fn read_details(
        &mut self,
        details: &[Value],
        path: &str,
    ) -> Result<(), ErrorShapeError> {
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

pub(super) fn read_message(object: &JsonObject, path: &str) -> Result<String, ErrorShapeError> {
    match object.get("message") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(message)) => Ok(message.clone()),
        Some(_) => Err(ErrorShapeError::at(path, "not a string")),
    }
}
