//! The gRPC form of an error (spec section 10.6, feature `proto`): the status code, the message and
//! the binary `google.rpc.Status` of the `grpc-status-details-bin` trailer; with feature `grpc`,
//! tonic's `Status`.

use serde_json::{Value, json};

use super::{ERROR_DOMAIN, Error, ErrorKind, ErrorShapeError, GrpcCode};
use a2a_types::JsonObject;
use a2a_types::validate::FieldViolation;

/// A gRPC error status as a server sends it: `grpc-status`, `grpc-message`, and the encoded
/// `google.rpc.Status` for the `grpc-status-details-bin` trailer (feature `proto`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrpcStatus {
    /// The status code.
    pub code: GrpcCode,
    /// The message.
    pub message: String,
    /// The encoded `google.rpc.Status`, whose code and message are the two above.
    pub details_bin: Vec<u8>,
}

impl Error {
    /// The gRPC status of the error (section 10.6): an `ErrorInfo` detail, and a `BadRequest` when
    /// there are field violations. `ErrorInfo.metadata` holds strings: other JSON values are written
    /// as JSON text, and the `errors` entry of invalid params is left out, as the `BadRequest` carries
    /// it. A temporary refusal's `RetryInfo` is packed too; other details cannot be packed from
    /// JSON and are left out.
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
        if let Some(delay) = self.retry_after() {
            let retry = rpc::RetryInfo {
                retry_delay: Some(rpc::ProtoDuration {
                    seconds: i64::try_from(delay.as_secs()).unwrap_or(i64::MAX),
                    nanos: 0,
                }),
            };
            details.push(rpc::Any::pack(rpc::RETRY_INFO_TYPE_URL, &retry));
        }
        let code = self.grpc_code();
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
    /// listed as the `errors` metadata, as the SDK's client does; a `RetryInfo` is kept as the
    /// error's detail of that type (so [`Error::retry_after`] reads it). Other details are skipped.
    pub fn from_grpc_status(details_bin: &[u8]) -> Result<Self, ErrorShapeError> {
        use a2a_proto::rpc;

        let status = rpc::Status::from_bytes(details_bin)
            .map_err(|e| ErrorShapeError::at("", format!("not a google.rpc.Status: {e}")))?;
        let mut kind = None;
        let mut metadata = JsonObject::new();
        let mut field_violations = Vec::new();
        let mut retry_after = None;
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
                rpc::RETRY_INFO_TYPE_URL => {
                    let retry = detail.unpack::<rpc::RetryInfo>().map_err(decode_error)?;
                    retry_after = retry
                        .retry_delay
                        .map(|delay| u64::try_from(delay.seconds).unwrap_or(0));
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
        let mut error = match retry_after {
            Some(seconds) if kind == ErrorKind::Internal => {
                Error::unavailable(status.message, std::time::Duration::from_secs(seconds))
            }
            _ => Error::with_message(kind, status.message),
        };
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
