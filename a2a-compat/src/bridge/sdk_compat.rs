//! The official Python SDK's value rules the bridge follows, so both convert alike: base64 read the way
//! the SDK reads it, PEP 440 version comparison, and small "empty means absent" helpers (those v0.3's
//! protobuf conversion needs too live in `v0_3::sdk_values`, with the timestamp reader).

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{BridgeError, BridgeErrorKind};
use a2a_protocol::service::pep440::Pep440;
use a2a_types::JsonObject;

/// Decodes base64 as CPython's `base64.b64decode(text)` does without `validate=True`: characters outside
/// the standard alphabet are skipped, decoding stops at the padding that completes a quantum, and a
/// missing pad is an error. (URL-safe `-` and `_` are outside that alphabet, so they are skipped too.)
pub(crate) fn decode_base64_like_python(text: &str) -> Result<Vec<u8>, String> {
    if !text.is_ascii() {
        return Err("the text holds characters outside ASCII".to_owned());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let mut quad_pos = 0u8;
    let mut left = 0u8;
    let mut pads = 0u8;
    for &byte in text.as_bytes() {
        if byte == b'=' {
            if quad_pos >= 2 {
                pads += 1;
                if quad_pos + pads >= 4 {
                    return Ok(out);
                }
            }
            continue;
        }
        let Some(sextet) = sextet(byte) else {
            continue;
        };
        pads = 0;
        match quad_pos {
            0 => {
                left = sextet;
                quad_pos = 1;
            }
            1 => {
                out.push((left << 2) | (sextet >> 4));
                left = sextet & 0x0f;
                quad_pos = 2;
            }
            2 => {
                out.push((left << 4) | (sextet >> 2));
                left = sextet & 0x03;
                quad_pos = 3;
            }
            _ => {
                out.push((left << 6) | sextet);
                quad_pos = 0;
            }
        }
    }
    match quad_pos {
        0 => Ok(out),
        1 => Err("the number of data characters is 1 more than a multiple of 4".to_owned()),
        _ => Err("incorrect padding".to_owned()),
    }
}

fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Standard padded base64, as the SDK writes `FileWithBytes.bytes`.
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Writes a timestamp as the SDK writes `TaskStatus.timestamp` (protobuf's `ToJsonString`): UTC, `Z`,
/// and 0, 3, 6 or 9 fraction digits.
pub(crate) fn format_timestamp(time: &DateTime<Utc>) -> Result<String, String> {
    a2a_support::protojson::format_timestamp(time).map_err(|error| error.to_string())
}

/// Whether a JSON value is true the way Python's `bool()` sees it.
pub(crate) fn python_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// A v1 `Struct` from v0.3 JSON: integral doubles written as integers, as ProtoJSON reads them.
pub(crate) fn to_struct(object: JsonObject) -> JsonObject {
    let mut value = Value::Object(object);
    a2a_support::protojson::canonicalize_numbers(&mut value);
    match value {
        Value::Object(object) => object,
        _ => unreachable!("canonicalizing keeps an object an object"),
    }
}

/// A v1 `Value` from v0.3 JSON, canonicalized like [`to_struct`].
pub(crate) fn to_value(mut value: Value) -> Value {
    a2a_support::protojson::canonicalize_numbers(&mut value);
    value
}

/// `Some` of a non-empty object (the SDK's `if metadata:`), as a v1 `Struct`.
pub(crate) fn nonempty_struct(object: Option<JsonObject>) -> Option<JsonObject> {
    object.filter(|o| !o.is_empty()).map(to_struct)
}

/// `Some` of a non-empty string (`x or None`).
pub(crate) fn nonempty(text: Option<String>) -> Option<String> {
    text.filter(|s| !s.is_empty())
}

pub(crate) use crate::v0_3::sdk_values::{nonempty_list, nonempty_string};

/// `Some(true)` for true, `None` for false: a v1 `bool` without presence.
pub(crate) fn true_or_unset(flag: Option<bool>) -> Option<bool> {
    flag.filter(|b| *b)
}

/// The SDK's `is_legacy_version`: a valid version at least 0.3 and below 1.0.
pub(crate) fn is_legacy_version(version: &str) -> bool {
    let (Some(version), Some(low), Some(high)) = (
        Pep440::parse(version),
        Pep440::parse("0.3"),
        Pep440::parse("1.0"),
    ) else {
        return false;
    };
    low <= version && version < high
}

/// The error for a oneof member a later v1 spec adds, which v0.3 has no form for: `message` is the
/// v1 message holding the oneof, `value` that message (or the oneof) with only the member set, whose
/// ProtoJSON key names the member.
pub(crate) fn member_without_counterpart<T: serde::Serialize>(
    message: &str,
    value: &T,
) -> BridgeError {
    let member = serde_json::to_value(value)
        .ok()
        .and_then(|json| json.as_object()?.keys().next().cloned())
        .unwrap_or_else(|| "<unknown member>".to_owned());
    BridgeError::new(BridgeErrorKind::NoCounterpart {
        name: format!("{message}.{member}"),
        reason: "v0.3 has no form for this member of the oneof",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_like_python() {
        assert_eq!(
            decode_base64_like_python("aGVs bG8=garbage").unwrap(),
            b"hello"
        );
        assert_eq!(
            decode_base64_like_python("aGVsbG8").unwrap_err(),
            "incorrect padding"
        );
        assert_eq!(decode_base64_like_python("").unwrap(), b"");
        assert!(decode_base64_like_python("a").is_err());
        assert!(decode_base64_like_python("é").is_err());
    }

    #[test]
    fn timestamps_like_the_sdk() {
        let t = |s: &str| {
            crate::v0_3::sdk_values::parse_timestamp_like_sdk(s)
                .map(|t| format_timestamp(&t).unwrap())
        };
        assert_eq!(t("2025-01-31T12:00:00Z").unwrap(), "2025-01-31T12:00:00Z");
        assert_eq!(
            t("2025-01-31T12:00:00+00:00").unwrap(),
            "2025-01-31T12:00:00Z"
        );
        assert_eq!(
            t("2025-01-31T12:00:00.5+02:00").unwrap(),
            "2025-01-31T10:00:00.500Z"
        );
        assert_eq!(
            t("2025-01-31T12:00:00-01:30").unwrap(),
            "2025-01-31T13:30:00Z"
        );
        assert!(t("2025-01-31T12:00:00").is_err());
        assert!(t("2025-01-31t12:00:00Z").is_err());
        assert!(t("2025-01-31T12:00:00.1234567891Z").is_err());
        assert!(t("2025-01-31T12:00:00Zx").is_err());
        assert!(t("yesterday").is_err());
    }

    #[test]
    fn versions() {
        for legacy in [
            "0.3",
            "0.3.0",
            "0.3.5",
            "v0.3",
            "0.9",
            "1.0rc1",
            "0.3.post1",
        ] {
            assert!(is_legacy_version(legacy), "{legacy}");
        }
        for other in ["", "0.2", "1.0", "1.0.0", "0.3rc1", "0.3.dev1", "x", "2"] {
            assert!(!is_legacy_version(other), "{other}");
        }
    }
}
