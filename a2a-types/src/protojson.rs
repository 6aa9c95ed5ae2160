//! Serde support the generated types use to read and write ProtoJSON exactly as the official SDKs do.
//!
//! Not part of the public API: `cargo xtask codegen` names these helpers in the serde attributes and
//! impls it generates. The rules are those of the ProtoJSON mapping (see the crate docs, "JSON mapping"):
//! default values are omitted on output, `null` reads as the default, integers may arrive as strings,
//! enums are open, and a oneof holds at most one member.

use std::fmt;
use std::marker::PhantomData;

use base64::Engine as _;
use chrono::{DateTime, SecondsFormat, Utc};
use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Reads a field whose `null` or absence means its default value.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// Reads a map field (`null` is empty); a key twice is an error naming the key, as in protobuf's JSON
/// parsers (serde's `BTreeMap` would keep the last one).
pub fn unique_map<'de, D, V>(
    deserializer: D,
) -> Result<std::collections::BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    Ok(Option::<UniqueMap<V>>::deserialize(deserializer)?.map_or_else(Default::default, |m| m.0))
}

/// A JSON object read into a map with no key twice.
pub struct UniqueMap<V>(pub std::collections::BTreeMap<String, V>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = UniqueMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                use std::collections::btree_map::Entry;
                let mut entries = std::collections::BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value::<V>()?;
                    match entries.entry(key) {
                        Entry::Vacant(entry) => {
                            entry.insert(value);
                        }
                        // The same words as for `google.protobuf.Struct`, in both crates.
                        Entry::Occupied(entry) => {
                            return Err(de::Error::custom(format!(
                                "duplicate key {:?} in JSON object",
                                entry.key()
                            )));
                        }
                    }
                }
                Ok(UniqueMap(entries))
            }
        }

        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// Reads a field without presence into an `Option`, mapping the default value (and `null`) to `None`, so
/// `Some` always means "set to something".
pub fn unless_default<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default + PartialEq,
{
    Ok(Option::<T>::deserialize(deserializer)?.filter(|value| *value != T::default()))
}

/// Whether a field holds its default value, which ProtoJSON leaves out.
pub fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// Whether an optional field without presence is unset (`None`, or `Some` of the default).
pub fn is_unset<T: Default + PartialEq>(value: &Option<T>) -> bool {
    value.as_ref().is_none_or(is_default)
}

/// An `int32` in ProtoJSON: a JSON number, or a string holding a decimal integer.
pub struct Int32(pub i32);

impl<'de> Deserialize<'de> for Int32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Int32Visitor;

        impl Visitor<'_> for Int32Visitor {
            type Value = Int32;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a 32-bit integer (as a number or a decimal string)")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int32, E> {
                i32::try_from(v)
                    .map(Int32)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int32, E> {
                i32::try_from(v)
                    .map(Int32)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Int32, E> {
                // ProtoJSON accepts exponent notation such as 1e3 if the value is integral.
                let in_range =
                    v.fract() == 0.0 && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX);
                if in_range {
                    Ok(Int32(v as i32))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Int32, E> {
                if let Ok(parsed) = v.trim().parse::<i32>() {
                    return Ok(Int32(parsed));
                }
                // `"1e3"`: read as a float, then require an exact 32-bit integer.
                match v.trim().parse::<f64>() {
                    Ok(float) => self.visit_f64(float),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }

        deserializer.deserialize_any(Int32Visitor)
    }
}

/// Reads a plain `int32` field (`null` and absence are 0).
pub fn int32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i32, D::Error> {
    Ok(Option::<Int32>::deserialize(deserializer)?.map_or(0, |v| v.0))
}

/// Reads a proto3 `optional int32` field (`Some(0)` is kept: the field has presence).
pub fn optional_int32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i32>, D::Error> {
    Ok(Option::<Int32>::deserialize(deserializer)?.map(|v| v.0))
}

/// Reads an `int32` field without presence into an `Option` (`0` is `None`).
pub fn int32_unless_default<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i32>, D::Error> {
    Ok(optional_int32(deserializer)?.filter(|v| *v != 0))
}

/// A numeric protobuf scalar as ProtoJSON writes and reads it: 32-bit integers as JSON numbers, 64-bit
/// integers as decimal strings (a double cannot hold them all), floats as numbers or `"NaN"`,
/// `"Infinity"`, `"-Infinity"`. Every kind is also read from a string, and integers from integral
/// floats such as `1.0` or `1e3`.
pub trait ProtoNumber: Copy + Default + PartialEq + Sized {
    /// What to call the type in errors.
    const KIND: &'static str;

    /// Writes the value in its ProtoJSON form.
    fn write<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error>;

    /// The value of a JSON integer, if the type holds it.
    fn from_integer(value: i128) -> Option<Self>;

    /// The value of a JSON float, if the type holds it exactly (integers: an integral value in range).
    fn from_float(value: f64) -> Option<Self>;

    /// The value of a JSON string, if it spells one of the type.
    fn from_text(text: &str) -> Option<Self>;
}

macro_rules! proto_integer {
    ($($ty:ty: $kind:literal, |$serializer:ident, $value:ident| $write:expr;)*) => {$(
        impl ProtoNumber for $ty {
            const KIND: &'static str = $kind;

            fn write<S: Serializer>(self, $serializer: S) -> Result<S::Ok, S::Error> {
                let $value = self;
                $write
            }

            fn from_integer(value: i128) -> Option<Self> {
                <$ty>::try_from(value).ok()
            }

            fn from_float(value: f64) -> Option<Self> {
                // The upper bound is exclusive: `MAX as f64` rounds up to 2^63 or 2^64 for 64-bit types,
                // which the type cannot hold (the `as` cast would saturate).
                let in_range = value >= <$ty>::MIN as f64 && value < <$ty>::MAX as f64 + 1.0;
                (value.fract() == 0.0 && in_range).then_some(value as $ty)
            }

            fn from_text(text: &str) -> Option<Self> {
                let text = text.trim();
                // Exact for every value, including those beyond 2^53; `"1e3"` goes through a float.
                text.parse::<$ty>()
                    .ok()
                    .or_else(|| text.parse::<f64>().ok().filter(|v| v.is_finite()).and_then(Self::from_float))
            }
        }
    )*};
}

proto_integer! {
    i32: "a 32-bit integer", |serializer, value| serializer.serialize_i32(value);
    u32: "an unsigned 32-bit integer", |serializer, value| serializer.serialize_u32(value);
    // 64-bit integers are written as decimal strings: a JSON reader may hold numbers as doubles.
    i64: "a 64-bit integer", |serializer, value| serializer.collect_str(&value);
    u64: "an unsigned 64-bit integer", |serializer, value| serializer.collect_str(&value);
}

macro_rules! proto_float {
    ($($ty:ty: $kind:literal, $write:ident;)*) => {$(
        impl ProtoNumber for $ty {
            const KIND: &'static str = $kind;

            fn write<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error> {
                if self.is_nan() {
                    serializer.serialize_str("NaN")
                } else if self.is_infinite() {
                    serializer.serialize_str(if self > 0.0 { "Infinity" } else { "-Infinity" })
                } else {
                    serializer.$write(self)
                }
            }

            fn from_integer(value: i128) -> Option<Self> {
                Some(value as $ty)
            }

            fn from_float(value: f64) -> Option<Self> {
                // A finite value too large for the type is an error, not an infinity.
                (!value.is_finite() || value.abs() <= <$ty>::MAX as f64).then_some(value as $ty)
            }

            fn from_text(text: &str) -> Option<Self> {
                match text {
                    "NaN" => Some(<$ty>::NAN),
                    "Infinity" => Some(<$ty>::INFINITY),
                    "-Infinity" => Some(<$ty>::NEG_INFINITY),
                    // Rust also reads `inf` and `nan`, which ProtoJSON does not know.
                    _ => text.trim().parse::<f64>().ok().filter(|v| v.is_finite()).and_then(Self::from_float),
                }
            }
        }
    )*};
}

proto_float! {
    f32: "a 32-bit float", serialize_f32;
    f64: "a 64-bit float", serialize_f64;
}

/// A numeric scalar in its ProtoJSON form (see [`ProtoNumber`]), for reading and writing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number<T>(pub T);

impl<T: ProtoNumber> Serialize for Number<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.write(serializer)
    }
}

impl<'de, T: ProtoNumber> Deserialize<'de> for Number<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NumberVisitor<T>(PhantomData<T>);

        impl<T: ProtoNumber> Visitor<'_> for NumberVisitor<T> {
            type Value = Number<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} (as a JSON number or a string)", T::KIND)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number<T>, E> {
                T::from_integer(v.into())
                    .map(Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Signed(v), &self))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number<T>, E> {
                T::from_integer(v.into())
                    .map(Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number<T>, E> {
                T::from_float(v)
                    .map(Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Float(v), &self))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Number<T>, E> {
                T::from_text(v)
                    .map(Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }

        deserializer.deserialize_any(NumberVisitor(PhantomData))
    }
}

/// A numeric field without presence (`null` and absence are the default).
pub mod number {
    use super::*;

    /// Writes the value in its ProtoJSON form.
    pub fn serialize<T: ProtoNumber, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.write(serializer)
    }

    /// Reads the value from a number or a string; `null` is the default.
    pub fn deserialize<'de, T: ProtoNumber, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        Ok(Option::<Number<T>>::deserialize(deserializer)?.map_or_else(T::default, |v| v.0))
    }
}

/// A numeric field with presence (proto3 `optional`): `Some(0)` is kept.
pub mod optional_number {
    use super::*;

    /// Writes the value, if any, in its ProtoJSON form.
    pub fn serialize<T: ProtoNumber, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => value.write(serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads the value; `null` is `None`.
    pub fn deserialize<'de, T: ProtoNumber, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        Ok(Option::<Number<T>>::deserialize(deserializer)?.map(|v| v.0))
    }
}

/// A numeric field without presence held in an `Option`: the default (and `null`) read as `None`.
pub mod number_unless_default {
    use super::*;

    /// Writes the value, if any, in its ProtoJSON form.
    pub fn serialize<T: ProtoNumber, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        optional_number::serialize(value, serializer)
    }

    /// Reads the value; `null` and the default are `None`.
    pub fn deserialize<'de, T: ProtoNumber, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        Ok(optional_number::deserialize(deserializer)?.filter(|v| !is_default(v)))
    }
}

/// A repeated numeric field (`null` is empty).
pub mod repeated_numbers {
    use super::*;

    /// Writes every element in its ProtoJSON form.
    pub fn serialize<T: ProtoNumber, S: Serializer>(
        values: &[T],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(values.iter().copied().map(Number))
    }

    /// Reads the elements, each from a number or a string.
    pub fn deserialize<'de, T: ProtoNumber, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error> {
        let values = Option::<Vec<Number<T>>>::deserialize(deserializer)?.unwrap_or_default();
        Ok(values.into_iter().map(|v| v.0).collect())
    }
}

/// A map with numeric values (`null` is empty).
pub mod number_map {
    use super::*;
    use std::collections::BTreeMap;

    /// Writes every value in its ProtoJSON form.
    pub fn serialize<T: ProtoNumber, S: Serializer>(
        values: &BTreeMap<String, T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_map(values.iter().map(|(key, value)| (key, Number(*value))))
    }

    /// Reads the values, each from a number or a string.
    pub fn deserialize<'de, T: ProtoNumber, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<String, T>, D::Error> {
        let values = unique_map::<D, Number<T>>(deserializer)?;
        Ok(values
            .into_iter()
            .map(|(key, value)| (key, value.0))
            .collect())
    }
}

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

/// Bytes as ProtoJSON writes them (standard base64 with padding) and reads them (standard or URL-safe,
/// padded or not).
pub struct Base64(pub Vec<u8>);

/// A borrowed [`Base64`], for writing.
pub struct Base64Ref<'a>(pub &'a [u8]);

impl Serialize for Base64Ref<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Base64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
        const LENIENT: GeneralPurposeConfig =
            GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
        const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
        const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

        let text = Key::deserialize(deserializer)?;
        let alphabet = if text.contains(['-', '_']) {
            URL_SAFE
        } else {
            STANDARD
        };
        alphabet
            .decode(text.as_bytes())
            .map(Base64)
            .map_err(|e| de::Error::custom(format!("invalid base64: {e}")))
    }
}

/// A proto enum as the generated open Rust enums expose it.
pub trait ProtoEnum: Copy + Sized + 'static {
    /// The enum's full protobuf name, for error messages.
    const PROTO_NAME: &'static str;
    /// Every value the schema defines: name and number.
    const VALUES: &'static [(&'static str, i32)];

    /// The wire number.
    fn number(self) -> i32;

    /// The value for a wire number; numbers the schema does not define are kept as they are.
    fn from_number(number: i32) -> Self;

    /// The value's name, or `None` for a number the schema does not define.
    fn name(self) -> Option<&'static str> {
        let number = self.number();
        Self::VALUES
            .iter()
            .find(|(_, n)| *n == number)
            .map(|(name, _)| *name)
    }

    /// The value with this name, if the schema defines one.
    fn from_name(name: &str) -> Option<Self> {
        Self::VALUES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, number)| Self::from_number(*number))
    }
}

/// Writes an enum value by name, or by number when the schema does not define it.
pub fn serialize_enum<E: ProtoEnum, S: Serializer>(
    value: &E,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value.name() {
        Some(name) => serializer.serialize_str(name),
        None => serializer.serialize_i32(value.number()),
    }
}

/// Reads an enum value from its name or any 32-bit number; an unknown name is an error listing the known ones.
pub fn deserialize_enum<'de, E: ProtoEnum, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<E, D::Error> {
    struct EnumVisitor<E>(PhantomData<E>);

    impl<E: ProtoEnum> Visitor<'_> for EnumVisitor<E> {
        type Value = E;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a {} name or number", E::PROTO_NAME)
        }

        fn visit_str<Err: de::Error>(self, name: &str) -> Result<E, Err> {
            E::from_name(name).ok_or_else(|| {
                let names: Vec<&'static str> = E::VALUES.iter().map(|(n, _)| *n).collect();
                Err::custom(format!(
                    "unknown {} value `{name}`, expected one of {names:?}",
                    E::PROTO_NAME
                ))
            })
        }

        fn visit_i64<Err: de::Error>(self, v: i64) -> Result<E, Err> {
            i32::try_from(v)
                .map(E::from_number)
                .map_err(|_| Err::invalid_value(de::Unexpected::Signed(v), &self))
        }

        fn visit_u64<Err: de::Error>(self, v: u64) -> Result<E, Err> {
            i32::try_from(v)
                .map(E::from_number)
                .map_err(|_| Err::invalid_value(de::Unexpected::Unsigned(v), &self))
        }
    }

    deserializer.deserialize_any(EnumVisitor(PhantomData))
}

/// A proto oneof as the generated Rust enums expose it.
pub trait ProtoOneof: Sized {
    /// JSON names of the members, for error messages.
    const MEMBERS: &'static [&'static str];

    /// If `key` names a member (by JSON or proto name), reads its value and, unless it is `null`
    /// (which ProtoJSON reads as "not set", except for `google.protobuf.Value` members, where `null`
    /// is a value), puts it in `slot` when `slot` is empty. The value is read straight into its place:
    /// a member can be a large message, and every layer it is handed through costs a copy.
    fn read_member<'de, A: MapAccess<'de>>(
        key: &str,
        map: &mut A,
        slot: &mut Option<Self>,
    ) -> Result<OneofRead, A::Error>;

    /// Writes the set member as one map entry.
    fn write_member<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// What [`ProtoOneof::read_member`] did with one entry of an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneofRead {
    /// The key names no member; its value is left unread.
    NotMember,
    /// A member whose value is `null`: not set.
    Unset,
    /// A member, now in the slot.
    Set,
    /// A member while the slot already holds one: an error for the caller to report.
    Second,
}

impl OneofRead {
    /// Puts `value` in `slot` if it is empty (`Set`); `Second` if it is not.
    pub fn place<T>(slot: &mut Option<T>, value: T) -> Self {
        if slot.is_some() {
            OneofRead::Second
        } else {
            *slot = Some(value);
            OneofRead::Set
        }
    }
}

/// A JSON string (an object key, a timestamp, base64), borrowed from the input when it can be (no
/// escapes), so reading it allocates nothing in the common case.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl std::ops::Deref for Key<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // As `String` says, so errors read the same as before.
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(key))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key.to_owned()))
            }
            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The oneof member read so far from one object, with the key it was read under (for the error
/// naming both members when a second one comes).
struct OneofSlot<'de, T> {
    first: Option<Key<'de>>,
    found: Option<T>,
}

impl<'de, T: ProtoOneof> OneofSlot<'de, T> {
    fn new() -> Self {
        Self {
            first: None,
            found: None,
        }
    }

    /// Reads the value of `key` if it names a member; gives the key back when it does not (the value
    /// is left unread).
    fn offer<A: MapAccess<'de>>(
        &mut self,
        key: Key<'de>,
        map: &mut A,
    ) -> Result<Option<Key<'de>>, A::Error> {
        match T::read_member(&key, map, &mut self.found)? {
            OneofRead::Set => {
                self.first = Some(key);
                Ok(None)
            }
            OneofRead::Unset => Ok(None),
            OneofRead::Second => Err(de::Error::custom(format!(
                "`{}` and `{}` are both set, but only one of {:?} may be",
                self.first.as_deref().unwrap_or_default(),
                &*key,
                T::MEMBERS
            ))),
            OneofRead::NotMember => Ok(Some(key)),
        }
    }
}

/// Collects the oneof member among a JSON object's entries, ignoring other keys (unknown fields).
/// Two members are an error, and so is none.
struct OneofVisitor<T>(PhantomData<T>);

impl<'de, T: ProtoOneof> Visitor<'de> for OneofVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with one of {:?}", T::MEMBERS)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut slot = OneofSlot::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if slot.offer(key, &mut map)?.is_some() {
                map.next_value::<IgnoredAny>()?;
            }
        }
        match slot.found {
            Some(value) => Ok(value),
            None => Err(de::Error::custom(format!(
                "expected exactly one of {:?}, found none",
                T::MEMBERS
            ))),
        }
    }
}

/// Serde impls for a message that is only a oneof (such as `StreamResponse`): exactly one member.
pub fn deserialize_oneof_message<'de, T: ProtoOneof, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer.deserialize_map(OneofVisitor(PhantomData))
}

/// Writes a message that is only a oneof: an object with its one member.
pub fn serialize_oneof_message<T: ProtoOneof, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(1))?;
    value.write_member(&mut map)?;
    map.end()
}

/// A oneof flattened into a message that has other fields too (`Part.content`).
///
/// serde's `#[serde(flatten)]` would buffer every entry the message's own fields do not take (the
/// member and its whole value) and then read them again; instead the message's other fields are read by
/// a derive over a [`MapAccess`] that takes the oneof's members out of the stream as they pass.
pub mod flat_oneof {
    use super::*;

    /// Writes the member, if any, as an entry of the enclosing object.
    pub fn serialize<T: ProtoOneof, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(value) = value {
            value.write_member(&mut map)?;
        }
        map.end()
    }

    /// Reads a message with a flattened oneof `T` from `map`: `read_fields` reads the other fields
    /// (from a map without the oneof's members), and the member found, if any, comes back beside it.
    pub fn read<'de, A, T, M>(
        map: A,
        read_fields: impl FnOnce(&mut WithoutOneof<'de, A, T>) -> Result<M, A::Error>,
    ) -> Result<(M, Option<T>), A::Error>
    where
        A: MapAccess<'de>,
        T: ProtoOneof,
    {
        let mut map = WithoutOneof {
            map,
            slot: OneofSlot::new(),
        };
        let message = read_fields(&mut map)?;
        Ok((message, map.slot.found))
    }

    /// The entries of an object without the members of oneof `T`, which it reads aside.
    pub struct WithoutOneof<'de, A, T> {
        map: A,
        slot: OneofSlot<'de, T>,
    }

    impl<'de, A: MapAccess<'de>, T: ProtoOneof> MapAccess<'de> for WithoutOneof<'de, A, T> {
        type Error = A::Error;

        fn next_key_seed<K: de::DeserializeSeed<'de>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, A::Error> {
            use serde::de::IntoDeserializer as _;
            while let Some(key) = self.map.next_key::<Key<'de>>()? {
                match self.slot.offer(key, &mut self.map)? {
                    Some(Key::Borrowed(key)) => {
                        return seed
                            .deserialize(de::value::BorrowedStrDeserializer::new(key))
                            .map(Some);
                    }
                    Some(Key::Owned(key)) => {
                        return seed.deserialize(key.into_deserializer()).map(Some);
                    }
                    None => {}
                }
            }
            Ok(None)
        }

        fn next_value_seed<V: de::DeserializeSeed<'de>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, A::Error> {
            self.map.next_value_seed(seed)
        }
    }
}

/// Reads a member value, where `null` means "not set".
pub fn read_optional<'de, T: DeserializeOwned, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<T>, A::Error> {
    map.next_value::<Option<T>>()
}

/// The largest magnitude up to which a double holds every integer exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

/// The integer a JSON number equals, if it is a double with an integral value up to 2^53 (protobuf's
/// `google.protobuf.Value` holds doubles, and the official SDKs write those as `3`, not `3.0`).
fn integral(number: &serde_json::Number) -> Option<i64> {
    let value = number.as_f64().filter(|_| number.is_f64())?;
    // -0.0 stays a float: protobuf keeps its sign, and so does the SDK.
    let negative_zero = value == 0.0 && value.is_sign_negative();
    (value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER && !negative_zero)
        .then_some(value as i64)
}

/// Rewrites integral doubles (`3.0`) as integers (`3`), everywhere inside a JSON value. Other numbers
/// are kept exactly as read, including integers beyond 2^53.
pub fn canonicalize_numbers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) => {
            if let Some(int) = integral(number) {
                *number = int.into();
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(canonicalize_numbers),
        serde_json::Value::Object(members) => members.values_mut().for_each(canonicalize_numbers),
        _ => {}
    }
}

/// A JSON value written the way ProtoJSON writes `google.protobuf.Value`: integral doubles as integers.
pub struct Canonical<'a>(pub &'a serde_json::Value);

impl Serialize for Canonical<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self.0 {
            serde_json::Value::Number(number) => match integral(number) {
                Some(int) => serializer.serialize_i64(int),
                None => number.serialize(serializer),
            },
            serde_json::Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Canonical(item))?;
                }
                seq.end()
            }
            serde_json::Value::Object(members) => CanonicalObject(members).serialize(serializer),
            other => other.serialize(serializer),
        }
    }
}

/// A JSON object written the way ProtoJSON writes `google.protobuf.Struct`.
pub struct CanonicalObject<'a>(pub &'a crate::JsonObject);

impl Serialize for CanonicalObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, &Canonical(value))?;
        }
        map.end()
    }
}

/// Reads a `google.protobuf.Value` oneof member: JSON `null` is a value here, not "unset".
pub fn read_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<serde_json::Value, A::Error> {
    map.next_value_seed(FreeFormValue { open: 0 })
}

/// Reads a `google.protobuf.Struct` oneof member (`null` is unset).
pub fn read_struct<'de, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<crate::JsonObject>, A::Error> {
    map.next_value_seed(FreeFormObject)
}

/// Reads a free-form JSON value (`data`, `metadata`) in one pass: no key twice in any object, integral
/// doubles as integers ([`canonicalize_numbers`]), objects and arrays at most
/// [`crate::MAX_NESTING_DEPTH`] deep (`open` counts those around the value). What
/// [`crate::json::UniqueKeys`] and then [`canonicalize_within_limit`] do in two, and the reading stops
/// at the limit instead of recursing on.
#[derive(Clone, Copy)]
struct FreeFormValue {
    open: usize,
}

impl<'de> de::DeserializeSeed<'de> for FreeFormValue {
    type Value = serde_json::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl FreeFormValue {
    /// The level inside a container at this value's level, or the nesting error.
    fn inside<E: de::Error>(self) -> Result<Self, E> {
        if self.open >= crate::MAX_NESTING_DEPTH {
            Err(E::custom(TooDeep))
        } else {
            Ok(Self {
                open: self.open + 1,
            })
        }
    }

    /// The members of an object at this value's level.
    fn members<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<crate::JsonObject, A::Error> {
        use serde_json::map::Entry;
        let inside = self.inside()?;
        let mut object = crate::JsonObject::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(inside)?;
            match object.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                // The same words as a2a-proto's `google.protobuf.Struct` reader.
                Entry::Occupied(entry) => {
                    return Err(de::Error::custom(format!(
                        "duplicate key {:?} in JSON object",
                        entry.key()
                    )));
                }
            }
        }
        Ok(object)
    }
}

impl<'de> Visitor<'de> for FreeFormValue {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(serde_json::Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(serde_json::Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        let mut value = serde_json::Number::from_f64(v)
            .map_or(serde_json::Value::Null, serde_json::Value::Number);
        canonicalize_numbers(&mut value);
        Ok(value)
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let inside = self.inside()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(inside)? {
            items.push(item);
        }
        Ok(serde_json::Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.members(map).map(serde_json::Value::Object)
    }
}

/// A free-form JSON object (`google.protobuf.Struct`) at the top of a field, read as
/// [`FreeFormValue`] reads one; `null` is `None`.
struct FreeFormObject;

impl<'de> Visitor<'de> for FreeFormObject {
    type Value = Option<crate::JsonObject>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        FreeFormValue { open: 0 }.members(map).map(Some)
    }
}

impl<'de> de::DeserializeSeed<'de> for FreeFormObject {
    type Value = Option<crate::JsonObject>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

/// A `data` or `metadata` value nested deeper than [`crate::MAX_NESTING_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep;

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "objects and arrays nested deeper than {} levels (the A2A nesting limit)",
            crate::MAX_NESTING_DEPTH
        )
    }
}

impl std::error::Error for TooDeep {}

/// [`canonicalize_numbers`], refusing objects and arrays nested deeper than
/// [`crate::MAX_NESTING_DEPTH`]; `open` counts those around `value`. The recursion stops at the limit.
pub fn canonicalize_within_limit(
    value: &mut serde_json::Value,
    open: usize,
) -> Result<(), TooDeep> {
    match value {
        serde_json::Value::Number(number) => {
            if let Some(int) = integral(number) {
                *number = int.into();
            }
        }
        serde_json::Value::Array(_) | serde_json::Value::Object(_)
            if open >= crate::MAX_NESTING_DEPTH =>
        {
            return Err(TooDeep);
        }
        serde_json::Value::Array(items) => {
            for item in items {
                canonicalize_within_limit(item, open + 1)?;
            }
        }
        serde_json::Value::Object(members) => {
            for member in members.values_mut() {
                canonicalize_within_limit(member, open + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether a JSON value nests objects and arrays at most [`crate::MAX_NESTING_DEPTH`] deep; `open`
/// counts those around it. The walk stops at the limit.
pub fn check_depth(value: &serde_json::Value, open: usize) -> Result<(), TooDeep> {
    match value {
        serde_json::Value::Array(_) | serde_json::Value::Object(_)
            if open >= crate::MAX_NESTING_DEPTH =>
        {
            Err(TooDeep)
        }
        serde_json::Value::Array(items) => items.iter().try_for_each(|i| check_depth(i, open + 1)),
        serde_json::Value::Object(members) => {
            members.values().try_for_each(|m| check_depth(m, open + 1))
        }
        _ => Ok(()),
    }
}

/// A JSON value that holds free-form JSON (`data`, `metadata`) and is read within the nesting limit.
pub trait FreeForm {
    /// Checks the nesting limit, the value being `open` levels deep already.
    fn check_depth(&self, open: usize) -> Result<(), TooDeep>;
}

impl FreeForm for serde_json::Value {
    fn check_depth(&self, open: usize) -> Result<(), TooDeep> {
        check_depth(self, open)
    }
}

impl FreeForm for crate::JsonObject {
    fn check_depth(&self, open: usize) -> Result<(), TooDeep> {
        if open >= crate::MAX_NESTING_DEPTH {
            return Err(TooDeep);
        }
        self.values().try_for_each(|m| check_depth(m, open + 1))
    }
}

impl<T: FreeForm> FreeForm for Option<T> {
    fn check_depth(&self, open: usize) -> Result<(), TooDeep> {
        self.as_ref()
            .map_or(Ok(()), |value| value.check_depth(open))
    }
}

/// Reads a free-form JSON field (v0.3's `data` and `metadata`) within the nesting limit.
pub fn within_depth_limit<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FreeForm,
{
    let value = T::deserialize(deserializer)?;
    value.check_depth(0).map_err(de::Error::custom)?;
    Ok(value)
}

/// A `google.protobuf.Struct` field such as `metadata`.
pub mod optional_struct {
    use super::*;

    /// Writes the object with integral doubles as integers.
    pub fn serialize<S: Serializer>(
        value: &Option<crate::JsonObject>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(object) => CanonicalObject(object).serialize(serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads the object (`null` is absent), canonicalizing integral doubles.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<crate::JsonObject>, D::Error> {
        de::DeserializeSeed::deserialize(FreeFormObject, deserializer)
    }
}

/// A message read from the map of a JSON object; implemented by every generated message.
pub trait FromObject: Sized {
    fn from_object<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Reads a message only from a JSON object. ProtoJSON messages are objects; serde's derive would also
/// read a struct from an array, field by field in order (`[null, "task-1", 0]` as a `GetTaskRequest`).
pub fn read_object<'de, D: Deserializer<'de>, T: FromObject>(
    deserializer: D,
) -> Result<T, D::Error> {
    struct ObjectVisitor<T>(PhantomData<T>);

    impl<'de, T: FromObject> Visitor<'de> for ObjectVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::from_object(map)
        }
    }

    deserializer.deserialize_map(ObjectVisitor(PhantomData))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};
    use serde_json::json;

    /// Numeric fields in every shape the generator gives them, with the attributes it writes.
    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Counters {
        #[serde(
            default,
            with = "super::number",
            skip_serializing_if = "super::is_default"
        )]
        generation: i64,
        #[serde(
            default,
            with = "super::optional_number",
            skip_serializing_if = "Option::is_none"
        )]
        sequence: Option<u64>,
        #[serde(
            default,
            with = "super::number_unless_default",
            skip_serializing_if = "super::is_unset"
        )]
        ratio: Option<f64>,
        #[serde(
            default,
            with = "super::repeated_numbers",
            skip_serializing_if = "super::is_default"
        )]
        samples: Vec<i64>,
        #[serde(
            default,
            with = "super::number_map",
            skip_serializing_if = "super::is_default"
        )]
        totals: BTreeMap<String, u32>,
        #[serde(
            default,
            with = "super::number",
            skip_serializing_if = "super::is_default"
        )]
        weight: f32,
    }

    fn read(value: serde_json::Value) -> Result<Counters, String> {
        serde_path_to_error::deserialize(value).map_err(|e| e.to_string())
    }

    /// Second 60 and a tenth fraction digit are RFC 3339 but no protobuf Timestamp: rejected, never
    /// rounded (a2a-proto's `wkt::Timestamp` agrees, in its own tests).
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
        let task = crate::json::from_str::<crate::v1::TaskStatus>(
            r#"{"state": "TASK_STATE_WORKING", "timestamp": "2026-06-30T23:59:60Z"}"#,
        )
        .unwrap_err();
        assert_eq!(task.path(), "timestamp", "{task}");
    }

    #[test]
    fn int64_beyond_2_pow_53_is_written_as_a_decimal_string() {
        let counters = Counters {
            generation: 9_007_199_254_740_993,
            sequence: Some(u64::MAX),
            samples: vec![i64::MIN, -1],
            ..Counters::default()
        };
        assert_eq!(
            serde_json::to_value(&counters).unwrap(),
            json!({
                "generation": "9007199254740993",
                "sequence": "18446744073709551615",
                "samples": ["-9223372036854775808", "-1"],
            })
        );
    }

    #[test]
    fn int64_is_read_exactly_from_strings_and_numbers() {
        let from_string = read(json!({ "generation": "9007199254740993" })).unwrap();
        assert_eq!(from_string.generation, 9_007_199_254_740_993);
        // serde_json hands integers over as integers, so no precision is lost beyond 2^53 either.
        let from_number: Counters =
            serde_json::from_str(r#"{"generation": 9007199254740993, "samples": [1, "2", 3e2]}"#)
                .unwrap();
        assert_eq!(from_number.generation, 9_007_199_254_740_993);
        assert_eq!(from_number.samples, [1, 2, 300]);
        // The int32 rule's leniency: integral floats and exponents, as numbers or strings.
        let lenient = read(json!({ "generation": 1.0, "sequence": "1e3" })).unwrap();
        assert_eq!((lenient.generation, lenient.sequence), (1, Some(1000)));
    }

    #[test]
    fn null_and_defaults_read_as_absent() {
        let counters = read(json!({
            "generation": null, "sequence": "0", "ratio": 0, "samples": null, "totals": null
        }))
        .unwrap();
        assert_eq!(
            counters,
            Counters {
                sequence: Some(0),
                ..Counters::default()
            }
        );
        // proto3 `optional` keeps an explicit zero on output too.
        assert_eq!(
            serde_json::to_value(&counters).unwrap(),
            json!({ "sequence": "0" })
        );
    }

    #[test]
    fn fractional_and_out_of_range_values_are_errors_naming_the_path() {
        let cases = [
            (json!({ "generation": 1.5 }), "generation", "1.5"),
            (
                json!({ "generation": "9223372036854775808" }),
                "generation",
                "9223372036854775808",
            ),
            // 2^63 as a float: `as i64` would saturate to i64::MAX.
            (
                json!({ "generation": 9.223_372_036_854_776e18 }),
                "generation",
                "a 64-bit integer",
            ),
            (json!({ "sequence": -1 }), "sequence", "-1"),
            (json!({ "samples": [1, "2.5"] }), "samples[1]", "2.5"),
            (
                json!({ "totals": { "a": 4294967296u64 } }),
                "totals.a",
                "4294967296",
            ),
            (json!({ "weight": 1e39 }), "weight", "a 32-bit float"),
            (json!({ "ratio": "inf" }), "ratio", "\"inf\""),
            (json!({ "generation": "twelve" }), "generation", "twelve"),
        ];
        for (input, path, shown) in cases {
            let error = read(input.clone()).expect_err(&input.to_string());
            assert!(
                error.starts_with(&format!("{path}: ")) && error.contains(shown),
                "{input}: {error}"
            );
        }
    }

    #[test]
    fn floats_use_protojson_names_for_non_finite_values() {
        let counters = Counters {
            ratio: Some(f64::NAN),
            samples: Vec::new(),
            weight: f32::NEG_INFINITY,
            ..Counters::default()
        };
        assert_eq!(
            serde_json::to_value(&counters).unwrap(),
            json!({ "ratio": "NaN", "weight": "-Infinity" })
        );
        let read_back = read(json!({ "ratio": "Infinity", "weight": "NaN" })).unwrap();
        assert_eq!(read_back.ratio, Some(f64::INFINITY));
        assert!(read_back.weight.is_nan());
        let finite = read(json!({ "ratio": "0.25", "weight": 2.5 })).unwrap();
        assert_eq!((finite.ratio, finite.weight), (Some(0.25), 2.5));
        assert_eq!(
            serde_json::to_value(&finite).unwrap(),
            json!({ "ratio": 0.25, "weight": 2.5 })
        );
    }

    #[test]
    fn thirty_two_bit_values_stay_json_numbers() {
        let counters = Counters {
            totals: BTreeMap::from([("a".to_owned(), u32::MAX)]),
            ..Counters::default()
        };
        assert_eq!(
            serde_json::to_value(&counters).unwrap(),
            json!({ "totals": { "a": 4294967295u32 } })
        );
        let read_back = read(json!({ "totals": { "a": "4294967295", "b": 7.0 } })).unwrap();
        assert_eq!(
            read_back.totals,
            BTreeMap::from([("a".to_owned(), u32::MAX), ("b".to_owned(), 7)])
        );
    }
}
