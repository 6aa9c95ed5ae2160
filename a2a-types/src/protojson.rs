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
        Option::<String>::deserialize(deserializer)?
            .map(|text| parse_timestamp(&text).map_err(de::Error::custom))
            .transpose()
    }
}

/// Formats a timestamp as ProtoJSON does; fails outside years 0001 to 9999.
pub fn format_timestamp(time: &DateTime<Utc>) -> Result<String, String> {
    check_range(time)?;
    Ok(time.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

/// Parses an RFC 3339 timestamp with any offset, checking the ProtoJSON range.
pub fn parse_timestamp(text: &str) -> Result<DateTime<Utc>, String> {
    let time = DateTime::parse_from_rfc3339(text)
        .map_err(|e| format!("invalid timestamp {text:?}: expected RFC 3339 such as 2026-03-14T09:26:53.589Z ({e})"))?
        .with_timezone(&Utc);
    check_range(&time)?;
    Ok(time)
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

        let text = String::deserialize(deserializer)?;
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

    /// If `key` names a member (by JSON or proto name), reads its value: `Some(None)` when the value is
    /// `null`, which ProtoJSON reads as "not set" (except for `google.protobuf.Value` members, where
    /// `null` is a value). `None` when `key` is not a member.
    #[allow(clippy::option_option)]
    fn read_member<'de, A: MapAccess<'de>>(
        key: &str,
        map: &mut A,
    ) -> Result<Option<Option<Self>>, A::Error>;

    /// Writes the set member as one map entry.
    fn write_member<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// Collects the oneof member among a JSON object's entries, ignoring other keys (unknown fields, or the
/// siblings a flattened oneof shares its object with). Two members are an error.
struct OneofVisitor<T>(PhantomData<T>);

impl<'de, T: ProtoOneof> Visitor<'de> for OneofVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with one of {:?}", T::MEMBERS)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        let mut found: Option<(String, T)> = None;
        while let Some(key) = map.next_key::<String>()? {
            match T::read_member(&key, &mut map)? {
                Some(Some(value)) => {
                    if let Some((first, _)) = &found {
                        return Err(de::Error::custom(format!(
                            "`{first}` and `{key}` are both set, but only one of {:?} may be",
                            T::MEMBERS
                        )));
                    }
                    found = Some((key, value));
                }
                Some(None) => {}
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found.map(|(_, value)| value))
    }
}

/// Serde impls for a message that is only a oneof (such as `StreamResponse`): exactly one member.
pub fn deserialize_oneof_message<'de, T: ProtoOneof, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer
        .deserialize_map(OneofVisitor(PhantomData))?
        .ok_or_else(|| {
            de::Error::custom(format!(
                "expected exactly one of {:?}, found none",
                T::MEMBERS
            ))
        })
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

    /// Reads the member, if any, from the enclosing object's entries.
    pub fn deserialize<'de, T: ProtoOneof, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        deserializer.deserialize_map(OneofVisitor(PhantomData))
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
    let mut value = map.next_value::<serde_json::Value>()?;
    canonicalize_numbers(&mut value);
    Ok(value)
}

/// Reads a `google.protobuf.Struct` oneof member (`null` is unset).
pub fn read_struct<'de, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<crate::JsonObject>, A::Error> {
    Ok(map
        .next_value::<Option<crate::JsonObject>>()?
        .map(canonical_object))
}

fn canonical_object(object: crate::JsonObject) -> crate::JsonObject {
    let mut value = serde_json::Value::Object(object);
    canonicalize_numbers(&mut value);
    match value {
        serde_json::Value::Object(object) => object,
        _ => unreachable!("canonicalizing keeps an object an object"),
    }
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
        Ok(Option::<crate::JsonObject>::deserialize(deserializer)?.map(canonical_object))
    }
}
