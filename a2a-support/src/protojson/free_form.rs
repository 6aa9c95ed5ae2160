//! Free-form JSON (`google.protobuf.Value` and `Struct`: `data`, `metadata`): read in one pass with
//! no key twice and within [`MAX_NESTING_DEPTH`], integral doubles written as integers.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::TooDeep;
use crate::{JsonObject, MAX_NESTING_DEPTH};

/// The largest magnitude up to which a double holds every integer exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

/// The integer a JSON number equals, if it is a double with an integral value up to 2^53 (protobuf's
/// `google.protobuf.Value` holds doubles, and the official SDKs write those as `3`, not `3.0`).
pub(crate) fn integral(number: &serde_json::Number) -> Option<i64> {
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
pub struct CanonicalObject<'a>(pub &'a JsonObject);

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
pub fn read_struct<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<JsonObject>, A::Error> {
    map.next_value_seed(FreeFormObject)
}

/// Reads a free-form JSON value (`data`, `metadata`) in one pass: no key twice in any object, integral
/// doubles as integers ([`canonicalize_numbers`]), objects and arrays at most
/// [`MAX_NESTING_DEPTH`] deep (`open` counts those around the value). What
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
        if self.open >= MAX_NESTING_DEPTH {
            Err(E::custom(TooDeep))
        } else {
            Ok(Self {
                open: self.open + 1,
            })
        }
    }

    /// The members of an object at this value's level.
    fn members<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<JsonObject, A::Error> {
        use serde_json::map::Entry;
        let inside = self.inside()?;
        let mut object = JsonObject::new();
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
    type Value = Option<JsonObject>;

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
    type Value = Option<JsonObject>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

/// [`canonicalize_numbers`], refusing objects and arrays nested deeper than
/// [`MAX_NESTING_DEPTH`]; `open` counts those around `value`. The recursion stops at the limit.
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
        serde_json::Value::Array(_) | serde_json::Value::Object(_) if open >= MAX_NESTING_DEPTH => {
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

/// Whether a JSON value nests objects and arrays at most [`MAX_NESTING_DEPTH`] deep; `open`
/// counts those around it. The walk stops at the limit.
pub fn check_depth(value: &serde_json::Value, open: usize) -> Result<(), TooDeep> {
    match value {
        serde_json::Value::Array(_) | serde_json::Value::Object(_) if open >= MAX_NESTING_DEPTH => {
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

impl FreeForm for JsonObject {
    fn check_depth(&self, open: usize) -> Result<(), TooDeep> {
        if open >= MAX_NESTING_DEPTH {
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
        value: &Option<JsonObject>,
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
    ) -> Result<Option<JsonObject>, D::Error> {
        de::DeserializeSeed::deserialize(FreeFormObject, deserializer)
    }
}
