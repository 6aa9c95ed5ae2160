//! Temporary refusals ([`Error::unavailable`]): a server at a cap, or briefly unable to serve, says so
//! as the spec's system errors (§3.3.2: JSON-RPC `-32603`, HTTP `503 Service Unavailable` with
//! `Retry-After`, gRPC `UNAVAILABLE`), with a `google.rpc.RetryInfo` detail saying when to try again,
//! so a client tells "try later" from a failure.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Error, ErrorKind, GrpcCode};

/// The `@type` of a `google.rpc.RetryInfo` detail.
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

impl Error {
    /// A temporary refusal: an [`ErrorKind::Internal`] error carrying a `google.rpc.RetryInfo`
    /// whose `retryDelay` is `retry_after` (in whole seconds, at least one), answered over HTTP+JSON
    /// with status 503 and `Retry-After`, and over gRPC as `UNAVAILABLE`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use a2a_protocol::errors::Error;
    ///
    /// let error = Error::unavailable("this caller has its 64 streams open", Duration::from_secs(2));
    /// assert_eq!(error.to_jsonrpc()["code"], -32603);
    /// assert_eq!((error.http_status(), error.grpc_code().name()), (503, "UNAVAILABLE"));
    /// assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    /// assert_eq!(Error::from_rest(&error.to_rest()).unwrap().retry_after(), Some(Duration::from_secs(2)));
    /// let status = error.to_grpc_status();
    /// assert_eq!(Error::from_grpc_status(&status.details_bin).unwrap().retry_after(), Some(Duration::from_secs(2)));
    /// ```
    pub fn unavailable(message: impl Into<String>, retry_after: Duration) -> Self {
        let seconds = retry_after.as_secs().max(1);
        let mut error = Error::with_message(ErrorKind::Internal, message);
        error
            .other_details
            .push(json!({"@type": RETRY_INFO_TYPE, "retryDelay": format!("{seconds}s")}));
        error
    }

    /// When to try again, from a `google.rpc.RetryInfo` detail (`None` without one, or with a
    /// `retryDelay` that is not a ProtoJSON duration).
    pub fn retry_after(&self) -> Option<Duration> {
        self.other_details
            .iter()
            .find(|detail| detail.get("@type").and_then(Value::as_str) == Some(RETRY_INFO_TYPE))
            .and_then(|detail| detail.get("retryDelay"))
            .and_then(Value::as_str)
            .and_then(parse_duration)
    }

    /// Whether this is a temporary refusal ([`Error::unavailable`]).
    fn is_unavailable(&self) -> bool {
        self.kind == ErrorKind::Internal && self.retry_after().is_some()
    }

    /// The HTTP status to answer with: [`ErrorKind::http_status`], or 503 for a temporary refusal.
    pub fn http_status(&self) -> u16 {
        if self.is_unavailable() {
            503
        } else {
            self.kind.http_status()
        }
    }

    /// The gRPC status code: [`ErrorKind::grpc_code`], or `UNAVAILABLE` for a temporary refusal.
    pub fn grpc_code(&self) -> GrpcCode {
        if self.is_unavailable() {
            GrpcCode::Unavailable
        } else {
            self.kind.grpc_code()
        }
    }
}

/// A ProtoJSON duration (`"5s"`, `"1.500s"`): seconds with up to nine fraction digits.
fn parse_duration(text: &str) -> Option<Duration> {
    let number = text.strip_suffix('s')?;
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 9 {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let seconds: u64 = whole.parse().ok()?;
    let nanos: u32 = if fraction.is_empty() {
        0
    } else {
        format!("{fraction:0<9}").parse().ok()?
    };
    Some(Duration::new(seconds, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protojson_durations_read_and_others_do_not() {
        assert_eq!(parse_duration("5s"), Some(Duration::from_secs(5)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(
            parse_duration("0.000000001s"),
            Some(Duration::from_nanos(1))
        );
        for bad in ["5", "s", "-1s", "1.s0", "1.1234567890s", "1e3s", " 1s"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_temporary_refusal_survives_every_binding_and_others_keep_their_status() {
        let error = Error::unavailable("busy", Duration::from_millis(200));
        assert_eq!(
            error.retry_after(),
            Some(Duration::from_secs(1)),
            "at least a second"
        );
        let back = Error::from_jsonrpc(&error.to_jsonrpc()).expect("reads back");
        assert_eq!(back, error);
        assert_eq!(error.to_rest()["error"]["code"], 503);
        assert_eq!(error.to_rest()["error"]["status"], "UNAVAILABLE");
        let failure = Error::new(ErrorKind::Internal);
        assert_eq!(
            (failure.http_status(), failure.grpc_code()),
            (500, GrpcCode::Internal)
        );
    }
}
