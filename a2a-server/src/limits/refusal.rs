//! How a caller over a limit is answered on each binding: HTTP 429 with `Retry-After` (HTTP+JSON
//! and JSON-RPC, each with its own error body) and gRPC `RESOURCE_EXHAUSTED`, each carrying a
//! `google.rpc.ErrorInfo` (reason `RATE_LIMIT_EXCEEDED`) and a `google.rpc.RetryInfo`.

use std::collections::BTreeMap;
use std::time::Duration;

use a2a_proto::rpc;
use a2a_protocol::errors::{ERROR_DOMAIN, ERROR_INFO_TYPE, RETRY_INFO_TYPE};
use a2a_protocol::service::MEDIA_TYPE_JSON;
use axum::body::{Body, Bytes};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The `ErrorInfo` reason of every refusal here.
pub(crate) const REASON: &str = "RATE_LIMIT_EXCEEDED";
/// The JSON-RPC code: A2A defines none for this, so the spec's system error (`InternalError`), as
/// the server's other temporary refusals; the `ErrorInfo` reason tells them apart.
const JSONRPC_CODE: i64 = -32603;

/// Which binding a router serves, so a refusal is written in its form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    JsonRpc,
    Rest,
    Grpc,
}

/// Why a request is refused, and when the caller may try again.
#[derive(Clone, Debug)]
pub(crate) struct Refusal {
    pub(crate) message: String,
    pub(crate) retry_after: Duration,
}

impl Refusal {
    /// The answer in `binding`'s form; `id` is the JSON-RPC request's id, when it was read.
    pub(crate) fn answer(&self, binding: Binding, id: Option<&Value>) -> Response {
        match binding {
            Binding::Rest => self.http(json!({"error": {
                "code": 429,
                "status": "RESOURCE_EXHAUSTED",
                "message": self.message,
                "details": self.json_details(),
            }})),
            Binding::JsonRpc => self.http(json!({
                "jsonrpc": "2.0",
                "id": id.cloned().unwrap_or(Value::Null),
                "error": {"code": JSONRPC_CODE, "message": self.message, "data": self.json_details()},
            })),
            Binding::Grpc => self.grpc(),
        }
    }

    fn http(&self, body: Value) -> Response {
        let mut response = (
            StatusCode::TOO_MANY_REQUESTS,
            [(CONTENT_TYPE, MEDIA_TYPE_JSON)],
            body.to_string(),
        )
            .into_response();
        // RFC 9110 section 10.2.3: whole seconds, so the wait is rounded up.
        let seconds = self.retry_after.as_secs() + u64::from(self.retry_after.subsec_nanos() > 0);
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        response
    }

    fn json_details(&self) -> Value {
        json!([
            {"@type": ERROR_INFO_TYPE, "reason": REASON, "domain": ERROR_DOMAIN, "metadata": {}},
            {"@type": RETRY_INFO_TYPE, "retryDelay": proto_json_duration(self.retry_after)},
        ])
    }

    fn grpc(&self) -> Response {
        let info = rpc::ErrorInfo {
            reason: REASON.to_owned(),
            domain: ERROR_DOMAIN.to_owned(),
            metadata: BTreeMap::new(),
        };
        let retry = rpc::RetryInfo {
            retry_delay: Some(rpc::ProtoDuration {
                seconds: i64::try_from(self.retry_after.as_secs()).unwrap_or(i64::MAX),
                nanos: i32::try_from(self.retry_after.subsec_nanos()).unwrap_or(0),
            }),
        };
        let status = rpc::Status {
            code: tonic::Code::ResourceExhausted as i32,
            message: self.message.clone(),
            details: vec![
                rpc::Any::pack(rpc::ERROR_INFO_TYPE_URL, &info),
                rpc::Any::pack(rpc::RETRY_INFO_TYPE_URL, &retry),
            ],
        };
        let details = Bytes::from(status.to_bytes());
        tonic::Status::with_details(
            tonic::Code::ResourceExhausted,
            self.message.clone(),
            details,
        )
        .into_http::<Body>()
    }
}

/// A ProtoJSON duration, in milliseconds rounded up (`"0.250s"`).
fn proto_json_duration(wait: Duration) -> String {
    let millis = wait.as_nanos().div_ceil(1_000_000);
    format!("{}.{:03}s", millis / 1000, millis % 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_proto_json_rounded_up_to_the_millisecond() {
        assert_eq!(
            proto_json_duration(Duration::from_micros(250_001)),
            "0.251s"
        );
        assert_eq!(proto_json_duration(Duration::from_secs(2)), "2.000s");
    }
}
