//! The official Python SDK's value rules the bridge follows, so both convert alike: base64 read the way
//! the SDK reads it, PEP 440 version comparison, and small "empty means absent" helpers (those v0.3's
//! protobuf conversion needs too live in `v0_3::sdk_values`, with the timestamp reader).

use std::cmp::Ordering;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{BridgeError, BridgeErrorKind};
use crate::JsonObject;

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
    crate::protojson::format_timestamp(time)
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
    crate::protojson::canonicalize_numbers(&mut value);
    match value {
        Value::Object(object) => object,
        _ => unreachable!("canonicalizing keeps an object an object"),
    }
}

/// A v1 `Value` from v0.3 JSON, canonicalized like [`to_struct`].
pub(crate) fn to_value(mut value: Value) -> Value {
    crate::protojson::canonicalize_numbers(&mut value);
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

/// A PEP 440 version (what the SDK compares protocol versions with, through `packaging`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pep440 {
    epoch: u64,
    release: Vec<u64>,
    pre: Option<(u8, u64)>,
    post: Option<u64>,
    dev: Option<u64>,
    local: bool,
}

impl Pep440 {
    /// Parses a version as `packaging.version.Version` does (case-insensitive, with the spellings it
    /// normalizes); `None` where it raises `InvalidVersion`.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let lower = text.trim().to_ascii_lowercase();
        let mut rest = lower.strip_prefix('v').unwrap_or(&lower);
        let mut version = Pep440 {
            epoch: 0,
            release: Vec::new(),
            pre: None,
            post: None,
            dev: None,
            local: false,
        };
        if let Some((epoch, after)) = rest.split_once('!') {
            version.epoch = digits(epoch)?;
            rest = after;
        }
        if let Some((main, local)) = rest.split_once('+') {
            let valid = !local.is_empty()
                && local
                    .split(['.', '-', '_'])
                    .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()));
            if !valid {
                return None;
            }
            version.local = true;
            rest = main;
        }
        let release_end = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_digit()
                    || (c == '.' && rest[i + 1..].starts_with(|n: char| n.is_ascii_digit())))
            })
            .map_or(rest.len(), |(i, _)| i);
        for part in rest[..release_end].split('.') {
            version.release.push(digits(part)?);
        }
        let mut rest = &rest[release_end..];
        // Pre-release: a, b, rc (and alpha, beta, c, pre, preview).
        let pre_kinds: [(&str, u8); 8] = [
            ("alpha", 0),
            ("beta", 1),
            ("preview", 2),
            ("pre", 2),
            ("rc", 2),
            ("a", 0),
            ("b", 1),
            ("c", 2),
        ];
        let try_label = |rest: &str, labels: &[(&str, u8)]| -> Option<(u8, u64, usize)> {
            let sep = usize::from(rest.starts_with(['.', '-', '_']));
            let body = &rest[sep..];
            let (label, kind) = labels.iter().find(|(l, _)| body.starts_with(l))?;
            let after = &body[label.len()..];
            let sep2 = usize::from(after.starts_with(['.', '-', '_']));
            let number_len = after[sep2..].bytes().take_while(u8::is_ascii_digit).count();
            let (number, used) = if number_len == 0 {
                (0, 0)
            } else {
                (digits(&after[sep2..sep2 + number_len])?, sep2 + number_len)
            };
            Some((*kind, number, sep + label.len() + used))
        };
        if let Some((kind, number, used)) = try_label(rest, &pre_kinds) {
            version.pre = Some((kind, number));
            rest = &rest[used..];
        }
        if let Some(number) = rest.strip_prefix('-').and_then(|n| {
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits(n))
                .flatten()
        }) {
            version.post = Some(number);
            rest = "";
        } else if let Some((_, number, used)) =
            try_label(rest, &[("post", 0), ("rev", 0), ("r", 0)])
        {
            version.post = Some(number);
            rest = &rest[used..];
        }
        if let Some((_, number, used)) = try_label(rest, &[("dev", 0)]) {
            version.dev = Some(number);
            rest = &rest[used..];
        }
        rest.is_empty().then_some(version)
    }

    /// The release's first number, `Version.major`.
    pub(crate) fn major(&self) -> u64 {
        self.release.first().copied().unwrap_or(0)
    }

    fn key(&self) -> SortKey {
        let mut release = self.release.clone();
        while release.last() == Some(&0) {
            release.pop();
        }
        let pre = match (self.pre, self.post, self.dev) {
            (None, None, Some(_)) => (0, 0, 0),
            (Some((kind, n)), _, _) => (1, kind, n),
            (None, _, _) => (2, 0, 0),
        };
        let post = self.post.map_or((0, 0), |n| (1, n));
        let dev = self.dev.map_or((1, 0), |n| (0, n));
        (self.epoch, release, pre, post, dev, self.local)
    }
}

impl PartialOrd for Pep440 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pep440 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Epoch, release without trailing zeros, pre-release, post-release, dev release, local label: the
/// order `packaging` sorts versions in.
type SortKey = (u64, Vec<u64>, (u8, u8, u64), (u8, u64), (u8, u64), bool);

fn digits(text: &str) -> Option<u64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
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
        assert_eq!(Pep440::parse("1.2.3").unwrap().major(), 1);
        assert!(Pep440::parse("1.0-1").is_some());
        assert!(Pep440::parse("1..0").is_none());
    }
}
