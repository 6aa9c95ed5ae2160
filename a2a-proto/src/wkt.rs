//! The protobuf well-known types whose ProtoJSON form A2A payloads depend on.
//!
//! `google.protobuf.Timestamp`, `Struct`, `Value` and `ListValue` are defined here rather than taken from
//! `pbjson-types`, because that crate writes them in ways other ProtoJSON implementations do not:
//! timestamps as `+00:00` instead of `Z`, and every `Value` number with a fraction (`42.0`). The binary
//! encoding is the standard one (same field numbers and types), so these types are wire-compatible with
//! every other protobuf implementation; only their JSON is ours.

use std::collections::BTreeMap;
use std::fmt;

use a2a_support::protojson as timestamp;
use chrono::{DateTime, Utc};
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A point in time, stored as seconds and nanoseconds since the Unix epoch (`google.protobuf.Timestamp`).
///
/// In JSON it is an RFC 3339 string in UTC with a `Z` suffix and 0, 3, 6 or 9 fraction digits, as
/// ProtoJSON prescribes. Any RFC 3339 offset is accepted on input and converted to UTC.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::prost::Message)]
pub struct Timestamp {
    /// Whole seconds since 1970-01-01T00:00:00Z; must lie within years 0001 to 9999.
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    /// Fraction of a second in nanoseconds, from 0 to 999,999,999 (also for times before the epoch).
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

/// Why a [`Timestamp`] cannot be written as, or read from, RFC 3339 text: the one timestamp rule of the
/// workspace, shared with the serde types' timestamp fields.
pub use a2a_support::protojson::TimestampError;

impl Timestamp {
    /// The earliest representable instant, 0001-01-01T00:00:00Z.
    pub const MIN_SECONDS: i64 = timestamp::TIMESTAMP_MIN_SECONDS;
    /// The last whole second representable, 9999-12-31T23:59:59Z.
    pub const MAX_SECONDS: i64 = timestamp::TIMESTAMP_MAX_SECONDS;

    /// Converts to a `chrono` date-time, checking the ProtoJSON range.
    pub fn to_datetime(&self) -> Result<DateTime<Utc>, TimestampError> {
        let out_of_range = || TimestampError::OutOfRange {
            seconds: self.seconds,
            nanos: self.nanos,
        };
        if !(Self::MIN_SECONDS..=Self::MAX_SECONDS).contains(&self.seconds) {
            return Err(out_of_range());
        }
        let nanos = u32::try_from(self.nanos)
            .ok()
            .filter(|n| *n < 1_000_000_000)
            .ok_or_else(out_of_range)?;
        DateTime::from_timestamp(self.seconds, nanos).ok_or_else(out_of_range)
    }

    /// Parses RFC 3339 text with any offset, checking the ProtoJSON range.
    pub fn parse_rfc3339(text: &str) -> Result<Self, TimestampError> {
        timestamp::parse_timestamp(text).map(Self::from)
    }

    /// Formats as ProtoJSON does: UTC, `Z`, and 0, 3, 6 or 9 fraction digits.
    pub fn to_rfc3339(&self) -> Result<String, TimestampError> {
        timestamp::format_timestamp(&self.to_datetime()?)
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(value: DateTime<Utc>) -> Self {
        Self {
            seconds: value.timestamp(),
            // Always below 1e9 for a `DateTime` (leap seconds are folded by `timestamp_subsec_nanos`).
            nanos: value.timestamp_subsec_nanos().min(999_999_999) as i32,
        }
    }
}

impl TryFrom<Timestamp> for DateTime<Utc> {
    type Error = TimestampError;

    fn try_from(value: Timestamp) -> Result<Self, Self::Error> {
        value.to_datetime()
    }
}

impl ::prost::Name for Timestamp {
    const NAME: &'static str = "Timestamp";
    const PACKAGE: &'static str = "google.protobuf";
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.to_rfc3339().map_err(ser::Error::custom)?;
        serializer.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TimestampVisitor;

        impl Visitor<'_> for TimestampVisitor {
            type Value = Timestamp;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 timestamp string")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Timestamp, E> {
                Timestamp::parse_rfc3339(text).map_err(E::custom)
            }
        }

        deserializer.deserialize_str(TimestampVisitor)
    }
}

/// The only value of `google.protobuf.NullValue`: JSON `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::prost::Enumeration)]
#[repr(i32)]
pub enum NullValue {
    /// JSON `null`.
    NullValue = 0,
}

/// Any JSON value (`google.protobuf.Value`).
///
/// Numbers are IEEE doubles, as in JSON itself. On output an integral number up to 2^53 in magnitude is
/// written without a fraction (`42`, not `42.0`); on input an integer too large for a double becomes the
/// nearest double rather than an error. NaN and infinities have no JSON form and fail serialization.
///
/// Objects and arrays may nest at most [`MAX_NESTING_DEPTH`](crate::MAX_NESTING_DEPTH) deep, in JSON
/// and in binary alike (see [`depth`]).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct Value {
    /// Which kind of JSON value this is; `None` is written as `null`.
    pub kind: ::core::option::Option<value::Kind>,
}

/// The kinds a [`Value`] can hold.
pub mod value {
    /// One JSON value.
    #[derive(Clone, PartialEq, ::prost::Oneof)]
    pub enum Kind {
        /// `null`.
        #[prost(enumeration = "super::NullValue", tag = "1")]
        NullValue(i32),
        /// A number.
        #[prost(double, tag = "2")]
        NumberValue(f64),
        /// A string.
        #[prost(string, tag = "3")]
        StringValue(::prost::alloc::string::String),
        /// `true` or `false`.
        #[prost(bool, tag = "4")]
        BoolValue(bool),
        /// An object.
        #[prost(message, tag = "5")]
        StructValue(super::Struct),
        /// An array.
        #[prost(message, tag = "6")]
        ListValue(super::ListValue),
    }
}

/// A JSON object (`google.protobuf.Struct`); keys are kept in sorted order.
#[derive(Clone, PartialEq, Default, Debug)]
pub struct Struct {
    /// The object's members.
    pub fields: BTreeMap<::prost::alloc::string::String, Value>,
}

/// A JSON array (`google.protobuf.ListValue`).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct ListValue {
    /// The array's elements.
    pub values: ::prost::alloc::vec::Vec<Value>,
}

impl ::prost::Name for Value {
    const NAME: &'static str = "Value";
    const PACKAGE: &'static str = "google.protobuf";
}

impl ::prost::Name for Struct {
    const NAME: &'static str = "Struct";
    const PACKAGE: &'static str = "google.protobuf";
}

impl ::prost::Name for ListValue {
    const NAME: &'static str = "ListValue";
    const PACKAGE: &'static str = "google.protobuf";
}

/// The nesting limit of [`Value`], [`Struct`] and [`ListValue`], enforced on every path that builds one.
///
/// Depth counts the objects and arrays open around a point, as JSON does: in `{"a": [{}]}` the
/// innermost `{}` is at depth 3; scalars add nothing. A value deeper than
/// [`MAX_NESTING_DEPTH`](crate::MAX_NESTING_DEPTH) is an error (never a stack overflow) when read from
/// JSON, when decoded from protobuf binary (even with prost's `no-recursion-limit` feature) and when
/// written to JSON. The error names the limit; the JSON readers of [`crate::json`] add the field path,
/// and prost's `DecodeError` lists the messages and fields it was decoding.
///
/// The count is kept per thread while one value is read or written, so readers on different threads
/// never interfere.
pub mod depth {
    use std::cell::Cell;

    use crate::MAX_NESTING_DEPTH;

    thread_local! {
        /// Objects and arrays open around the value being read or written on this thread.
        static OPEN: Cell<usize> = const { Cell::new(0) };
    }

    /// A value nested deeper than [`MAX_NESTING_DEPTH`] (the error of both type crates).
    pub use a2a_support::TooDeep;

    /// One open object or array; closing it (dropping the guard) restores the count, on errors too.
    pub(crate) struct Open(());

    impl Drop for Open {
        fn drop(&mut self) {
            OPEN.with(|open| open.set(open.get() - 1));
        }
    }

    /// Opens one object or array inside those already open.
    pub(crate) fn open() -> Result<Open, TooDeep> {
        room()?;
        OPEN.with(|open| open.set(open.get() + 1));
        Ok(Open(()))
    }

    /// Whether one more object or array fits inside those already open.
    pub(crate) fn room() -> Result<(), TooDeep> {
        if OPEN.with(Cell::get) < MAX_NESTING_DEPTH {
            Ok(())
        } else {
            Err(TooDeep)
        }
    }

    #[allow(deprecated)] // prost offers no other constructor for a decode error of a custom rule.
    pub(crate) fn decode_error(message: &'static str, field: &'static str) -> prost::DecodeError {
        let mut error = prost::DecodeError::new(TooDeep.to_string());
        error.push(message, field);
        error
    }
}

// `prost::Message` by hand rather than derived, for one reason: the nesting limit above, which has to
// hold whatever prost's own recursion limit is (a dependency may switch it off). The wire format is
// exactly the derived one: `Value` is a oneof of tags 1-6, `Struct` a map at tag 1, `ListValue` a
// repeated message at tag 1.
impl ::prost::Message for Value {
    fn encode_raw(&self, buf: &mut impl ::prost::bytes::BufMut) {
        if let Some(kind) = &self.kind {
            kind.encode(buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: ::prost::encoding::WireType,
        buf: &mut impl ::prost::bytes::Buf,
        ctx: ::prost::encoding::DecodeContext,
    ) -> Result<(), ::prost::DecodeError> {
        match tag {
            // An object or an array: the `Struct` or `ListValue` opens itself; this checks that it
            // fits, so an empty one at the limit is refused as in JSON.
            5 | 6 if depth::room().is_err() => Err(depth::decode_error("Value", "kind")),
            1..=6 => {
                value::Kind::merge(&mut self.kind, tag, wire_type, buf, ctx).map_err(|mut e| {
                    e.push("Value", "kind");
                    e
                })
            }
            _ => ::prost::encoding::skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        self.kind.as_ref().map_or(0, value::Kind::encoded_len)
    }

    fn clear(&mut self) {
        self.kind = None;
    }
}

impl ::prost::Message for Struct {
    fn encode_raw(&self, buf: &mut impl ::prost::bytes::BufMut) {
        ::prost::encoding::btree_map::encode(
            ::prost::encoding::string::encode,
            ::prost::encoding::string::encoded_len,
            ::prost::encoding::message::encode,
            ::prost::encoding::message::encoded_len,
            1,
            &self.fields,
            buf,
        );
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: ::prost::encoding::WireType,
        buf: &mut impl ::prost::bytes::Buf,
        ctx: ::prost::encoding::DecodeContext,
    ) -> Result<(), ::prost::DecodeError> {
        if tag != 1 {
            return ::prost::encoding::skip_field(wire_type, tag, buf, ctx);
        }
        let _open = depth::open().map_err(|_| depth::decode_error("Struct", "fields"))?;
        ::prost::encoding::check_wire_type(
            ::prost::encoding::WireType::LengthDelimited,
            wire_type,
        )?;
        ::prost::encoding::btree_map::merge(
            ::prost::encoding::string::merge,
            ::prost::encoding::message::merge,
            &mut self.fields,
            buf,
            ctx,
        )
        .map_err(|mut e| {
            e.push("Struct", "fields");
            e
        })
    }

    fn encoded_len(&self) -> usize {
        ::prost::encoding::btree_map::encoded_len(
            ::prost::encoding::string::encoded_len,
            ::prost::encoding::message::encoded_len,
            1,
            &self.fields,
        )
    }

    fn clear(&mut self) {
        self.fields.clear();
    }
}

impl ::prost::Message for ListValue {
    fn encode_raw(&self, buf: &mut impl ::prost::bytes::BufMut) {
        ::prost::encoding::message::encode_repeated(1, &self.values, buf);
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: ::prost::encoding::WireType,
        buf: &mut impl ::prost::bytes::Buf,
        ctx: ::prost::encoding::DecodeContext,
    ) -> Result<(), ::prost::DecodeError> {
        if tag != 1 {
            return ::prost::encoding::skip_field(wire_type, tag, buf, ctx);
        }
        let _open = depth::open().map_err(|_| depth::decode_error("ListValue", "values"))?;
        ::prost::encoding::message::merge_repeated(wire_type, &mut self.values, buf, ctx).map_err(
            |mut e| {
                e.push("ListValue", "values");
                e
            },
        )
    }

    fn encoded_len(&self) -> usize {
        ::prost::encoding::message::encoded_len_repeated(1, &self.values)
    }

    fn clear(&mut self) {
        self.values.clear();
    }
}

/// The largest magnitude up to which every integer is exactly representable as a double.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

impl Value {
    /// JSON `null`.
    pub fn null() -> Self {
        Self::from_kind(value::Kind::NullValue(NullValue::NullValue as i32))
    }

    fn from_kind(kind: value::Kind) -> Self {
        Self { kind: Some(kind) }
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Self {
        Self::from_kind(value::Kind::NumberValue(number))
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Self::from_kind(value::Kind::BoolValue(flag))
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Self::from_kind(value::Kind::StringValue(text))
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Self::from(text.to_owned())
    }
}

impl From<Struct> for Value {
    fn from(object: Struct) -> Self {
        Self::from_kind(value::Kind::StructValue(object))
    }
}

impl From<ListValue> for Value {
    fn from(list: ListValue) -> Self {
        Self::from_kind(value::Kind::ListValue(list))
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Struct {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self {
            fields: iter
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }
}

impl<V: Into<Value>> FromIterator<V> for ListValue {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Self {
            values: iter.into_iter().map(Into::into).collect(),
        }
    }
}

fn serialize_number<S: Serializer>(number: f64, serializer: S) -> Result<S::Ok, S::Error> {
    if !number.is_finite() {
        return Err(ser::Error::custom(format!(
            "google.protobuf.Value number {number} has no JSON form (NaN and infinities are not allowed)"
        )));
    }
    // -0.0 keeps its sign (protobuf compares doubles bitwise), so it is written as a float.
    let negative_zero = number == 0.0 && number.is_sign_negative();
    if number.fract() == 0.0 && number.abs() <= MAX_SAFE_INTEGER && !negative_zero {
        // Exact: the magnitude is at most 2^53, far inside i64.
        serializer.serialize_i64(number as i64)
    } else {
        serializer.serialize_f64(number)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.kind {
            None | Some(value::Kind::NullValue(_)) => serializer.serialize_unit(),
            Some(value::Kind::NumberValue(number)) => serialize_number(*number, serializer),
            Some(value::Kind::StringValue(text)) => serializer.serialize_str(text),
            Some(value::Kind::BoolValue(flag)) => serializer.serialize_bool(*flag),
            Some(value::Kind::StructValue(object)) => object.serialize(serializer),
            Some(value::Kind::ListValue(list)) => list.serialize(serializer),
        }
    }
}

impl Serialize for Struct {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let _open = depth::open().map_err(ser::Error::custom)?;
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for ListValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let _open = depth::open().map_err(ser::Error::custom)?;
        let mut seq = serializer.serialize_seq(Some(self.values.len()))?;
        for value in &self.values {
            seq.serialize_element(value)?;
        }
        seq.end()
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::null())
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::null())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Value, E> {
        Ok(Value::from(flag))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Value, E> {
        Ok(Value::from(number as f64))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Value, E> {
        // ProtoJSON: an integer a double cannot hold exactly becomes the nearest double.
        Ok(Value::from(number as f64))
    }

    fn visit_i128<E: de::Error>(self, number: i128) -> Result<Value, E> {
        Ok(Value::from(number as f64))
    }

    fn visit_u128<E: de::Error>(self, number: u128) -> Result<Value, E> {
        Ok(Value::from(number as f64))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Value, E> {
        Ok(Value::from(text))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Value, E> {
        Ok(Value::from(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        ListVisitor.visit_seq(seq).map(Value::from)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        StructVisitor.visit_map(map).map(Value::from)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct StructVisitor;

impl<'de> Visitor<'de> for StructVisitor {
    type Value = Struct;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Struct, A::Error> {
        let _open = depth::open().map_err(de::Error::custom)?;
        let mut fields = BTreeMap::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "duplicate key {key:?} in JSON object"
                )));
            }
            fields.insert(key, value);
        }
        Ok(Struct { fields })
    }
}

impl<'de> Deserialize<'de> for Struct {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(StructVisitor)
    }
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = ListValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ListValue, A::Error> {
        let _open = depth::open().map_err(de::Error::custom)?;
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(value) = seq.next_element::<Value>()? {
            values.push(value);
        }
        Ok(ListValue { values })
    }
}

impl<'de> Deserialize<'de> for ListValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ListVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timestamp(seconds: i64, nanos: i32) -> Timestamp {
        Timestamp { seconds, nanos }
    }

    /// Second 60 and a tenth fraction digit are RFC 3339 but no Timestamp: rejected, never rounded.
    #[test]
    fn leap_seconds_and_excess_fraction_digits_are_rejected() {
        for text in [
            "2026-06-30T23:59:60Z",
            "2026-06-30T12:00:60Z",
            "2026-06-30T23:59:60.5Z",
            "2026-03-14T09:26:53.1234567891Z",
        ] {
            let error = Timestamp::parse_rfc3339(text).unwrap_err().to_string();
            assert!(
                error.contains("leap second") || error.contains("fraction digits"),
                "{error}"
            );
        }
        assert!(Timestamp::parse_rfc3339("2026-03-14T09:26:53.123456789Z").is_ok());
    }

    #[test]
    fn timestamps_are_written_in_utc_with_z_and_0_3_6_or_9_digits() {
        let cases = [
            (timestamp(1_773_480_413, 0), "2026-03-14T09:26:53Z"),
            (
                timestamp(1_773_480_413, 589_000_000),
                "2026-03-14T09:26:53.589Z",
            ),
            (
                timestamp(1_773_480_413, 589_793_000),
                "2026-03-14T09:26:53.589793Z",
            ),
            (
                timestamp(1_773_480_413, 589_793_238),
                "2026-03-14T09:26:53.589793238Z",
            ),
            (
                timestamp(1_773_480_413, 500_000_000),
                "2026-03-14T09:26:53.500Z",
            ),
            (timestamp(-1, 999_999_999), "1969-12-31T23:59:59.999999999Z"),
            (timestamp(Timestamp::MIN_SECONDS, 0), "0001-01-01T00:00:00Z"),
            (
                timestamp(Timestamp::MAX_SECONDS, 999_999_999),
                "9999-12-31T23:59:59.999999999Z",
            ),
        ];
        for (value, text) in cases {
            assert_eq!(value.to_rfc3339().unwrap(), text);
            assert_eq!(Timestamp::parse_rfc3339(text).unwrap(), value, "{text}");
        }
    }

    #[test]
    fn any_offset_is_accepted_and_normalised_to_utc() {
        let expected = timestamp(1_773_480_413, 589_000_000);
        for text in [
            "2026-03-14T09:26:53.589Z",
            "2026-03-14T09:26:53.589+00:00",
            "2026-03-14T14:56:53.589+05:30",
            "2026-03-14T01:26:53.589-08:00",
            "2026-03-14t09:26:53.589z",
        ] {
            assert_eq!(Timestamp::parse_rfc3339(text).unwrap(), expected, "{text}");
        }
    }

    #[test]
    fn out_of_range_and_malformed_timestamps_are_clear_errors() {
        for value in [
            timestamp(Timestamp::MIN_SECONDS - 1, 0),
            timestamp(Timestamp::MAX_SECONDS + 1, 0),
            timestamp(0, -1),
            timestamp(0, 1_000_000_000),
        ] {
            let err = value.to_rfc3339().unwrap_err();
            assert!(matches!(err, TimestampError::OutOfRange { .. }), "{err}");
            assert!(err.to_string().contains("out of range"), "{err}");
        }
        // In range as written, out of range once converted to UTC.
        let err = Timestamp::parse_rfc3339("0001-01-01T00:30:00+01:00").unwrap_err();
        assert!(matches!(err, TimestampError::OutOfRange { .. }), "{err}");
        for text in [
            "2026-03-14",
            "2026-03-14T09:26:53",
            "yesterday",
            "2026-13-01T00:00:00Z",
        ] {
            let err = Timestamp::parse_rfc3339(text).unwrap_err();
            assert!(
                matches!(err, TimestampError::Syntax { .. }),
                "{text}: {err}"
            );
            assert!(err.to_string().contains(text), "{err}");
        }
    }

    #[test]
    fn value_kinds_have_their_protojson_shape() {
        let object: Struct = [
            ("count", Value::from(42.0)),
            ("ratio", Value::from(0.25)),
            ("name", Value::from("東京")),
            ("ok", Value::from(true)),
            ("none", Value::null()),
            ("list", ListValue::from_iter([1.0, -3.0, -0.0]).into()),
        ]
        .into_iter()
        .collect();
        let mut out = Vec::new();
        object
            .serialize(&mut serde_json::Serializer::new(&mut out))
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"count":42,"list":[1,-3,-0.0],"name":"東京","none":null,"ok":true,"ratio":0.25}"#
        );
    }
}
