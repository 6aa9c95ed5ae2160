//! `google.protobuf.Timestamp` fields: RFC 3339, within the range and precision protobuf holds.
//!
//! This is the one place the rule is written: the serde types' timestamp fields, the JSON writer and
//! `a2a-proto`'s own `Timestamp` message all read and write through [`parse_timestamp`] and
//! [`format_timestamp`], and all fail with [`TimestampError`].

use std::fmt;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::de;
use serde::{Deserialize, Deserializer, Serializer};

use super::Key;

/// The earliest instant a Timestamp holds, 0001-01-01T00:00:00Z, in seconds since the Unix epoch.
pub const TIMESTAMP_MIN_SECONDS: i64 = -62_135_596_800;
/// The last whole second a Timestamp holds, 9999-12-31T23:59:59Z, in seconds since the Unix epoch.
pub const TIMESTAMP_MAX_SECONDS: i64 = 253_402_300_799;

/// Why a point in time cannot be written as, or read from, ProtoJSON timestamp text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimestampError {
    /// The value lies outside 0001-01-01T00:00:00Z ..= 9999-12-31T23:59:59.999999999Z, or its
    /// fraction is outside 0..=999,999,999 nanoseconds.
    OutOfRange {
        /// Whole seconds since the Unix epoch.
        seconds: i64,
        /// The fraction of a second, in nanoseconds.
        nanos: i32,
    },
    /// A leap second (second 60), which chrono can hold but a Timestamp cannot.
    LeapSecond {
        /// Whole seconds since the Unix epoch of the second before it.
        seconds: i64,
    },
    /// The text is not an RFC 3339 date-time a Timestamp can hold.
    Syntax {
        /// The text that was given.
        text: String,
        /// What the reader objected to.
        reason: String,
    },
}

impl fmt::Display for TimestampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutOfRange { seconds, nanos } => write!(
                f,
                "timestamp out of range (seconds {seconds}, nanos {nanos}): ProtoJSON allows \
                 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"
            ),
            Self::LeapSecond { seconds } => write!(
                f,
                "timestamp after second {seconds} is a leap second (second 60), which a protobuf \
                 Timestamp cannot hold"
            ),
            Self::Syntax { text, reason } => write!(f, "invalid timestamp {text:?}: {reason}"),
        }
    }
}

impl std::error::Error for TimestampError {}

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
pub fn format_timestamp(time: &DateTime<Utc>) -> Result<String, TimestampError> {
    check_range(time)?;
    Ok(time.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

/// Parses an RFC 3339 timestamp with any offset, checking the ProtoJSON range.
pub fn parse_timestamp(text: &str) -> Result<DateTime<Utc>, TimestampError> {
    let syntax = |reason: String| TimestampError::Syntax {
        text: text.to_owned(),
        reason,
    };
    let time = DateTime::parse_from_rfc3339(text)
        .map_err(|e| {
            syntax(format!(
                "expected RFC 3339 such as 2026-03-14T09:26:53.589Z ({e})"
            ))
        })?
        .with_timezone(&Utc);
    // What RFC 3339 allows but a Timestamp cannot hold is rejected, as protobuf's own JSON parsers
    // reject it, rather than changed silently: a leap second (second 60, which chrono keeps as a
    // nanosecond count of one second or more) and more than 9 fraction digits (chrono drops the rest).
    use chrono::Timelike as _;
    if time.nanosecond() >= 1_000_000_000 {
        return Err(syntax(
            "a leap second (second 60) has no protobuf Timestamp".to_owned(),
        ));
    }
    let fraction_digits = text.split_once('.').map_or(0, |(_, rest)| {
        rest.bytes().take_while(u8::is_ascii_digit).count()
    });
    if fraction_digits > 9 {
        return Err(syntax(format!(
            "{fraction_digits} fraction digits, a protobuf Timestamp holds at most 9"
        )));
    }
    // An offset can push an in-range local time out of range in UTC (e.g. year 0001 at +01:00).
    check_range(&time)?;
    Ok(time)
}

/// Fails unless `time` lies in years 0001 to 9999 and is not a leap second.
fn check_range(time: &DateTime<Utc>) -> Result<(), TimestampError> {
    let seconds = time.timestamp();
    let nanos = time.timestamp_subsec_nanos();
    if nanos >= 1_000_000_000 {
        return Err(TimestampError::LeapSecond { seconds });
    }
    if (TIMESTAMP_MIN_SECONDS..=TIMESTAMP_MAX_SECONDS).contains(&seconds) {
        Ok(())
    } else {
        Err(TimestampError::OutOfRange {
            seconds,
            // Below 1e9 here, so it fits.
            nanos: nanos as i32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Second 60 and a tenth fraction digit are RFC 3339 but no protobuf Timestamp: rejected, never
    /// rounded (a2a-proto's `wkt::Timestamp` reads through this function; a2a_types' `json` tests read
    /// one in a `TaskStatus`).
    #[test]
    fn leap_seconds_and_excess_fraction_digits_are_rejected() {
        for text in [
            "2026-06-30T23:59:60Z",
            "2026-06-30T12:00:60Z",
            "2026-06-30T23:59:60.5Z",
            "2026-03-14T09:26:53.1234567891Z",
        ] {
            let error = parse_timestamp(text).unwrap_err().to_string();
            assert!(
                error.contains("leap second") || error.contains("fraction digits"),
                "{error}"
            );
        }
        for text in [
            "2026-03-14T09:26:53.123456789Z",
            "2026-03-14T09:26:59+02:00",
        ] {
            assert!(parse_timestamp(text).is_ok(), "{text}");
        }
    }

    /// A leap second chrono holds is refused on the way out too, naming it, so nothing is written
    /// that the reader above refuses.
    #[test]
    fn a_leap_second_is_not_written() {
        let leap = DateTime::from_timestamp(1_782_863_999, 1_500_000_000).unwrap();
        let error = format_timestamp(&leap).unwrap_err();
        assert!(
            matches!(error, TimestampError::LeapSecond { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("leap second"), "{error}");
    }

    /// The range is the same on both sides of the epoch's year 0001 and 9999 borders.
    #[test]
    fn the_range_is_years_0001_to_9999() {
        let first = DateTime::from_timestamp(TIMESTAMP_MIN_SECONDS, 0).unwrap();
        let last = DateTime::from_timestamp(TIMESTAMP_MAX_SECONDS, 999_999_999).unwrap();
        assert_eq!(format_timestamp(&first).unwrap(), "0001-01-01T00:00:00Z");
        assert_eq!(
            format_timestamp(&last).unwrap(),
            "9999-12-31T23:59:59.999999999Z"
        );
        for outside in [TIMESTAMP_MIN_SECONDS - 1, TIMESTAMP_MAX_SECONDS + 1] {
            let time = DateTime::from_timestamp(outside, 0).unwrap();
            assert!(matches!(
                format_timestamp(&time),
                Err(TimestampError::OutOfRange { .. })
            ));
        }
    }
}
