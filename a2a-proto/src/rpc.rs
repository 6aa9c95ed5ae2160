//! The `google.rpc` error messages A2A's gRPC binding puts in a status (spec section 10.6): `Status`,
//! and the `ErrorInfo`, `BadRequest` and `RetryInfo` details it carries as `google.protobuf.Any`.
//!
//! A gRPC server sends the encoded [`Status`] in the `grpc-status-details-bin` trailer. Only the fields
//! A2A uses are declared; protobuf skips the others when decoding.

use prost::Message;

/// Why encoded bytes are not the message expected.
pub use prost::DecodeError;

/// `google.rpc.Status`: the code, message and details of an error.
#[derive(Clone, PartialEq, Message)]
pub struct Status {
    /// The gRPC status code.
    #[prost(int32, tag = "1")]
    pub code: i32,
    /// The developer-facing message.
    #[prost(string, tag = "2")]
    pub message: String,
    /// The details, each a packed message.
    #[prost(message, repeated, tag = "3")]
    pub details: Vec<Any>,
}

/// `google.protobuf.Any`: a message in binary form with the URL of its type.
#[derive(Clone, PartialEq, Message)]
pub struct Any {
    /// `type.googleapis.com/<full name>`.
    #[prost(string, tag = "1")]
    pub type_url: String,
    /// The encoded message.
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}

/// `google.rpc.ErrorInfo`: why an error happened, as a reason within a domain.
#[derive(Clone, PartialEq, Message)]
pub struct ErrorInfo {
    /// The error's name in UPPER_SNAKE_CASE, e.g. `TASK_NOT_FOUND`.
    #[prost(string, tag = "1")]
    pub reason: String,
    /// Who defines the reason: `a2a-protocol.org` for A2A.
    #[prost(string, tag = "2")]
    pub domain: String,
    /// Context of the error.
    #[prost(btree_map = "string, string", tag = "3")]
    pub metadata: std::collections::BTreeMap<String, String>,
}

/// `google.rpc.BadRequest`: the fields of a request that are invalid.
#[derive(Clone, PartialEq, Message)]
pub struct BadRequest {
    /// One entry per invalid field.
    #[prost(message, repeated, tag = "1")]
    pub field_violations: Vec<FieldViolation>,
}

/// `google.rpc.BadRequest.FieldViolation`.
#[derive(Clone, PartialEq, Message)]
pub struct FieldViolation {
    /// The path of the field, e.g. `message.parts`.
    #[prost(string, tag = "1")]
    pub field: String,
    /// What is wrong with it.
    #[prost(string, tag = "2")]
    pub description: String,
}

/// `google.rpc.RetryInfo`: when a client may try a refused call again.
#[derive(Clone, PartialEq, Message)]
pub struct RetryInfo {
    /// How long to wait first.
    #[prost(message, optional, tag = "1")]
    pub retry_delay: Option<ProtoDuration>,
}

/// `google.protobuf.Duration`: a span of time in seconds and nanoseconds.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct ProtoDuration {
    /// Whole seconds.
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    /// The nanoseconds beyond them.
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

/// The type URL prefix of every packed detail.
pub const TYPE_URL_PREFIX: &str = "type.googleapis.com/";

/// The `@type` of a packed `ErrorInfo`.
pub const ERROR_INFO_TYPE_URL: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The `@type` of a packed `BadRequest`.
pub const BAD_REQUEST_TYPE_URL: &str = "type.googleapis.com/google.rpc.BadRequest";
/// The `@type` of a packed `RetryInfo`.
pub const RETRY_INFO_TYPE_URL: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// The gRPC trailer that carries the encoded [`Status`].
pub const STATUS_DETAILS_TRAILER: &str = "grpc-status-details-bin";

impl Any {
    /// Packs a message under its type URL.
    pub fn pack(type_url: &str, message: &impl Message) -> Self {
        Any {
            type_url: type_url.to_owned(),
            value: message.encode_to_vec(),
        }
    }

    /// Unpacks the message, whatever the type URL says.
    pub fn unpack<M: Message + Default>(&self) -> Result<M, prost::DecodeError> {
        M::decode(self.value.as_slice())
    }
}

impl Status {
    /// The status in the protobuf binary format, for `grpc-status-details-bin`.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode_to_vec()
    }

    /// Reads a status in the protobuf binary format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, prost::DecodeError> {
        Status::decode(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field numbers are google.rpc's: the encoding starts as any protobuf library writes it.
    #[test]
    fn status_encodes_with_the_google_rpc_field_numbers() {
        let info = ErrorInfo {
            reason: "TASK_NOT_FOUND".into(),
            domain: "a2a-protocol.org".into(),
            metadata: [("taskId".to_owned(), "t-1".to_owned())].into(),
        };
        let status = Status {
            code: 5,
            message: "gone".into(),
            details: vec![Any::pack(ERROR_INFO_TYPE_URL, &info)],
        };
        let bytes = status.encode_to_vec();
        // Field 1 varint 5; field 2 "gone"; field 3 the Any, starting with its type URL.
        assert_eq!(&bytes[..8], b"\x08\x05\x12\x04gone");
        assert_eq!(bytes[8], 0x1a);
        let decoded = Status::decode(bytes.as_slice()).unwrap();
        assert_eq!(decoded, status);
        assert_eq!(
            ErrorInfo::decode(decoded.details[0].value.as_slice()).unwrap(),
            info
        );
    }
}
