//! Value-level rules both of v0.3's converters (to its protobuf, `v0_3::proto`, and to v1, `bridge`)
//! apply as the official SDK does: reading a `TaskStatus.timestamp` (`+00:00` is first rewritten to
//! `Z`, then protobuf-python's `Timestamp.FromJsonString` rules apply), and empty meaning absent.

use chrono::{DateTime, Utc};

/// Parses `original`: `YYYY-MM-DDTHH:MM:SS[.fraction]` (an upper-case `T`, at most nine fraction digits,
/// the date and time fields as Python's `strptime` reads them) followed by `Z` or a `±HH:MM` offset,
/// within years 0001 to 9999 in UTC. The error says what is wrong.
pub(crate) fn parse_timestamp_like_sdk(original: &str) -> Result<DateTime<Utc>, String> {
    let text = original.replace("+00:00", "Z");
    let offset_at = text
        .find('Z')
        .or_else(|| text.find('+'))
        .or_else(|| text.rfind('-'))
        .ok_or("missing a time zone offset (`Z` or `±HH:MM`)")?;
    let local = &text[..offset_at];
    let (whole, fraction) = local.split_once('.').unwrap_or((local, ""));
    if whole.contains('t') {
        return Err("a lowercase `t` is not accepted".into());
    }
    let mut seconds = parse_date_time(whole)?;
    if fraction.len() > 9 {
        return Err(format!("more than 9 fraction digits in {fraction:?}"));
    }
    let nanos = if fraction.is_empty() {
        0
    } else {
        let padded = format!("{fraction:0<9}");
        digits(&padded, 9).ok_or_else(|| format!("invalid fraction {fraction:?}"))?
    };
    let offset = &text[offset_at..];
    if let Some(rest) = offset.strip_prefix('Z') {
        if !rest.is_empty() {
            return Err(format!("unexpected {rest:?} after `Z`"));
        }
    } else {
        let invalid = || format!("invalid time zone offset {offset:?}");
        let (hours, minutes) = offset[1..].split_once(':').ok_or_else(invalid)?;
        let hours = i64::from(digits(hours, 9).ok_or_else(invalid)?);
        let minutes = i64::from(digits(minutes, 9).ok_or_else(invalid)?);
        let shift = (hours * 60 + minutes) * 60;
        seconds += if offset.starts_with('+') {
            -shift
        } else {
            shift
        };
    }
    // 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the range of google.protobuf.Timestamp.
    if !(-62_135_596_800..=253_402_300_799).contains(&seconds) {
        return Err("outside years 0001 to 9999".to_owned());
    }
    DateTime::from_timestamp(seconds, nanos).ok_or_else(|| "not a valid time".to_owned())
}

/// `None` for the empty string, as the SDK's `value or None`.
pub(crate) fn nonempty_string(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

/// `None` for the empty list, as the SDK's `list(x) if x else None`.
pub(crate) fn nonempty_list<T>(items: Vec<T>) -> Option<Vec<T>> {
    (!items.is_empty()).then_some(items)
}

/// Digits only, one to `max` of them.
fn digits(text: &str, max: usize) -> Option<u32> {
    if text.is_empty() || text.len() > max || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `%Y-%m-%dT%H:%M:%S` as Python's `strptime` reads it: a four-digit year, the other fields one or
/// two digits within their ranges, and a real calendar date. Returns seconds since the epoch.
fn parse_date_time(text: &str) -> Result<i64, String> {
    let mismatch = || format!("{text:?} does not match YYYY-MM-DDTHH:MM:SS");
    let (date, time) = text.split_once('T').ok_or_else(mismatch)?;
    fn fields(part: &str, separator: char) -> Option<[&str; 3]> {
        let mut fields = part.split(separator);
        match ([fields.next(), fields.next(), fields.next()], fields.next()) {
            ([Some(a), Some(b), Some(c)], None) => Some([a, b, c]),
            _ => None,
        }
    }
    let field = |text: &str, len: std::ops::RangeInclusive<usize>, max: u32| {
        Some(text)
            .filter(|text| len.contains(&text.len()))
            .and_then(|text| digits(text, 4))
            .filter(|value| *value <= max)
            .ok_or_else(mismatch)
    };
    let [year, month, day] = fields(date, '-').ok_or_else(mismatch)?;
    let [hour, minute, second] = fields(time, ':').ok_or_else(mismatch)?;
    let (year, month, day) = (
        field(year, 4..=4, 9999)?,
        field(month, 1..=2, 12)?,
        field(day, 1..=2, 31)?,
    );
    let (hour, minute, second) = (
        field(hour, 1..=2, 23)?,
        field(minute, 1..=2, 59)?,
        field(second, 1..=2, 61)?,
    );
    let invalid = || format!("{text:?} is not a valid date and time");
    let date =
        chrono::NaiveDate::from_ymd_opt(i32::try_from(year).map_err(|_| invalid())?, month, day)
            .filter(|_| year > 0)
            .ok_or_else(invalid)?;
    // Python's `datetime` has no leap seconds: 60 and 61 match the pattern but are no time.
    let date_time = date
        .and_hms_opt(hour, minute, second)
        .filter(|_| second < 60)
        .ok_or_else(invalid)?;
    Ok(date_time.and_utc().timestamp())
}
