//! Numeric scalars: 32-bit integers as JSON numbers, 64-bit integers as decimal strings, floats with
//! named non-finite values; every kind also read from a string, integers from integral floats.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fields::{is_default, unique_map};

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
            skip_serializing_if = "crate::protojson::is_unset"
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
