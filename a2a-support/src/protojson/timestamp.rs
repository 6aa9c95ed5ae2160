//! `google.protobuf.Timestamp` fields: RFC 3339, within the range and precision protobuf holds.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::de;
use serde::{Deserialize, Deserializer, Serializer};

use super::Key;

/// Timestamps: RFC 3339 in UTC with `Z` and 0, 3, 6 or 9 fraction digits out; any offset in; the
/// ProtoJSON range (years 0001 to 9999) enforced both ways.
pub mod optional_timestamp {
    use super::*;

    /// Writes a timestamp field.
    pub fn serialize<S: Serializer>(
        value: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(time) => serializer
                .serialize_str(&format_timestamp(time).map_err(serde::ser::Error::custom)?),
            None => serializer.serialize_none(),
        }
    }

    /// Reads a timestamp field (`null` is absent).
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<Key>::deserialize(deserializer)?
            .map(|text| parse_timestamp(&text).map_err(de::Error::custom))
            .transpose()
    }
}

/// Formats a timestamp as ProtoJSON does; fails outside years 0001 to 9999 and on a leap second,
/// which chrono can hold (a nanosecond count of a second or more) and would write as `:60`, a text
/// [`parse_timestamp`] rejects: what is written here always reads back.
pub fn format_timestamp(time: &DateTime<Utc>) -> Result<String, String> {
    use chrono::Timelike as _;
    check_range(time)?;
    if time.nanosecond() >= 1_000_000_000 {
        return Err(format!(
            "timestamp {} is a leap second (second 60), which a protobuf Timestamp cannot hold",
            time.to_rfc3339_opts(SecondsFormat::AutoSi, true)
        ));
    }
    Ok(time.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

/// Parses an RFC 3339 timestamp with any offset, checking the ProtoJSON range.
pub fn parse_timestamp(text: &str) -> Result<DateTime<Utc>, String> {
    let time = DateTime::parse_from_rfc3339(text)
        .map_err(|e| format!("invalid timestamp {text:?}: expected RFC 3339 such as 2026-03-14T09:26:53.589Z ({e})"))?
        .with_timezone(&Utc);
    check_protojson_form(text, &time)?;
    check_range(&time)?;
    Ok(time)
}

/// What RFC 3339 allows but a `google.protobuf.Timestamp` cannot hold, rejected as protobuf's own JSON
/// parsers reject it (rather than changed silently): a leap second (second 60, which chrono keeps as
/// a nanosecond count of one second or more) and more than 9 fraction digits (chrono drops the rest).
fn check_protojson_form(text: &str, time: &DateTime<Utc>) -> Result<(), String> {
    use chrono::Timelike as _;
    if time.nanosecond() >= 1_000_000_000 {
        return Err(format!(
            "invalid timestamp {text:?}: a leap second (second 60) has no protobuf Timestamp"
        ));
    }
    let fraction_digits = text.split_once('.').map_or(0, |(_, rest)| {
        rest.bytes().take_while(u8::is_ascii_digit).count()
    });
    if fraction_digits > 9 {
        return Err(format!(
            "invalid timestamp {text:?}: {fraction_digits} fraction digits, a protobuf Timestamp holds at most 9"
        ));
    }
    Ok(())
}

fn check_range(time: &DateTime<Utc>) -> Result<(), String> {
    use chrono::Datelike as _;
    if (1..=9999).contains(&time.year()) {
        Ok(())
    } else {
        Err(format!(
            "timestamp {time} out of range: ProtoJSON allows 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"
        ))
    }
}

#[cfg(test)]
mod tests {
    /// Second 60 and a tenth fraction digit are RFC 3339 but no protobuf Timestamp: rejected, never
    /// rounded (a2a-proto's `wkt::Timestamp` agrees, in its own tests; a2a_types' `json` tests read one in
    /// a `TaskStatus`).
    #[test]
    fn leap_seconds_and_excess_fraction_digits_are_rejected() {
        for text in [
            "2026-06-30T23:59:60Z",
            "2026-06-30T12:00:60Z",
            "2026-06-30T23:59:60.5Z",
            "2026-03-14T09:26:53.1234567891Z",
        ] {
            let error = super::parse_timestamp(text).unwrap_err();
            assert!(
                error.contains("leap second") || error.contains("fraction digits"),
                "{error}"
            );
        }
        for text in [
            "2026-03-14T09:26:53.123456789Z",
            "2026-03-14T09:26:59+02:00",
        ] {
            assert!(super::parse_timestamp(text).is_ok(), "{text}");
        }
    }
}
