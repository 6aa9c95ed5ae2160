//! Support code that the generated ProtoJSON implementations of `a2a_proto` call.
//!
//! Not part of the public API: the code generator (`cargo xtask codegen`) rewrites `pbjson`'s output to go
//! through these helpers where `pbjson` alone does not follow ProtoJSON (see the crate docs of
//! `a2a_proto`, "JSON mapping"). The rules they share with `a2a_types` are [`protojson`]'s: maps read
//! through [`UniqueMap`], numbers converted by [`ProtoNumber`], floats written by its `write`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::protojson;
pub use crate::protojson::{ProtoNumber, UniqueMap};

/// A proto3 enum field as ProtoJSON treats it: open, so a number the schema does not know survives a round
/// trip instead of failing.
///
/// Written as the value's name when `E` knows it, otherwise as the number. Read from a name (through `E`'s
/// own deserializer, so unknown names are still errors) or from any number in the `i32` range.
pub struct OpenEnum<E>(pub i32, PhantomData<E>);

impl<E> OpenEnum<E> {
    /// Wraps the raw field value.
    pub fn new(value: i32) -> Self {
        Self(value, PhantomData)
    }
}

impl<E: TryFrom<i32> + Serialize> Serialize for OpenEnum<E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match E::try_from(self.0) {
            Ok(known) => known.serialize(serializer),
            Err(_) => serializer.serialize_i32(self.0),
        }
    }
}

impl<'de, E: DeserializeOwned + Into<i32>> Deserialize<'de> for OpenEnum<E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OpenEnumVisitor<E>(PhantomData<E>);

        impl<E: DeserializeOwned + Into<i32>> Visitor<'_> for OpenEnumVisitor<E> {
            type Value = OpenEnum<E>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an enum value name or a 32-bit integer")
            }

            fn visit_str<Err: de::Error>(self, name: &str) -> Result<Self::Value, Err> {
                let known = E::deserialize(de::value::StrDeserializer::<Err>::new(name))?;
                Ok(OpenEnum::new(known.into()))
            }

            fn visit_i64<Err: de::Error>(self, number: i64) -> Result<Self::Value, Err> {
                i32::try_from(number)
                    .map(OpenEnum::new)
                    .map_err(|_| Err::invalid_value(de::Unexpected::Signed(number), &self))
            }

            fn visit_u64<Err: de::Error>(self, number: u64) -> Result<Self::Value, Err> {
                i32::try_from(number)
                    .map(OpenEnum::new)
                    .map_err(|_| Err::invalid_value(de::Unexpected::Unsigned(number), &self))
            }
        }

        deserializer.deserialize_any(OpenEnumVisitor(PhantomData))
    }
}

/// A protobuf number field as ProtoJSON reads it: a JSON number or a string holding one, where integer
/// fields also take integral values written as floats or with an exponent (`50.0`, `1e3`), as the
/// protobuf conformance suite requires. Replaces `pbjson`'s reader, which rejects those.
pub struct NumberDeserialize<T>(pub T);

impl<'de, T: ProtoNumber + std::str::FromStr> Deserialize<'de> for NumberDeserialize<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NumberVisitor<T>(PhantomData<T>);

        impl<T: ProtoNumber + std::str::FromStr> NumberVisitor<T> {
            fn out_of_range<E: de::Error>(&self, shown: &dyn fmt::Display) -> E {
                E::custom(format!("{shown} is not {}", T::KIND))
            }
        }

        impl<T: ProtoNumber + std::str::FromStr> Visitor<'_> for NumberVisitor<T> {
            type Value = NumberDeserialize<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} (as a JSON number or a string)", T::KIND)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                T::from_integer(v.into())
                    .map(NumberDeserialize)
                    .ok_or_else(|| self.out_of_range(&v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::from_integer(v.into())
                    .map(NumberDeserialize)
                    .ok_or_else(|| self.out_of_range(&v))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                T::from_float(v)
                    .map(NumberDeserialize)
                    .ok_or_else(|| self.out_of_range(&v))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                if let Ok(parsed) = v.parse::<T>() {
                    return Ok(NumberDeserialize(parsed));
                }
                // `"1e3"` for an integer field: read as a float, then require an exact integer.
                let as_float: f64 = v
                    .trim()
                    .parse()
                    .map_err(|_| self.out_of_range(&format!("{v:?}")))?;
                self.visit_f64(as_float)
            }
        }

        deserializer.deserialize_any(NumberVisitor(PhantomData))
    }
}

/// Float fields (`float`, `double`, repeated or as map values) as ProtoJSON writes them: finite values as
/// JSON numbers, the others as `"NaN"`, `"Infinity"` and `"-Infinity"`, where `pbjson` would write
/// `null`.
pub struct Floats<'a, T: ?Sized>(pub &'a T);

/// What [`Floats`] can write.
pub trait ProtoFloats {
    /// Writes the value or values in their ProtoJSON form.
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

macro_rules! proto_float {
    ($($ty:ty),*) => {$(
        impl ProtoFloats for $ty {
            fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                // The rule of a2a_types' float fields: one place says how non-finite values look.
                protojson::ProtoNumber::write(*self, serializer)
            }
        }
    )*};
}

proto_float!(f32, f64);

impl<F: ProtoFloats> ProtoFloats for Vec<F> {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(Floats))
    }
}

impl<K: Serialize, F: ProtoFloats> ProtoFloats for std::collections::BTreeMap<K, F> {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter().map(|(key, value)| (key, Floats(value))))
    }
}

impl<T: ProtoFloats + ?Sized> Serialize for Floats<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.write(serializer)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn read<T: ProtoNumber + std::str::FromStr>(json: &str) -> Result<T, serde_json::Error> {
        serde_json::from_str::<NumberDeserialize<T>>(json).map(|n| n.0)
    }

    #[test]
    fn sixty_four_bit_integers_read_exactly_and_reject_what_they_cannot_hold() {
        assert_eq!(
            read::<i64>("\"9007199254740993\"").unwrap(),
            9_007_199_254_740_993
        );
        assert_eq!(
            read::<i64>("9007199254740993").unwrap(),
            9_007_199_254_740_993
        );
        assert_eq!(read::<u64>("\"18446744073709551615\"").unwrap(), u64::MAX);
        assert_eq!(read::<i64>("1e3").unwrap(), 1000);
        // 2^63 and 2^64 as floats: the casts would saturate to MAX.
        assert!(read::<i64>("9.223372036854775808e18").is_err());
        assert!(read::<u64>("1.8446744073709551616e19").is_err());
        assert!(read::<i64>("1.5").is_err());
        assert!(read::<u64>("-1").is_err());
    }

    #[test]
    fn non_finite_floats_are_written_by_name() {
        let write = |value: &dyn Fn(&mut serde_json::Serializer<&mut Vec<u8>>)| {
            let mut out = Vec::new();
            value(&mut serde_json::Serializer::new(&mut out));
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            write(&|s| Floats(&f64::NAN).serialize(s).unwrap()),
            "\"NaN\""
        );
        assert_eq!(
            write(&|s| Floats(&vec![f32::INFINITY, 1.5, f32::NEG_INFINITY])
                .serialize(s)
                .unwrap()),
            "[\"Infinity\",1.5,\"-Infinity\"]"
        );
        let map = BTreeMap::from([("a".to_owned(), 0.25f64), ("b".to_owned(), f64::NAN)]);
        assert_eq!(
            write(&|s| Floats(&map).serialize(s).unwrap()),
            "{\"a\":0.25,\"b\":\"NaN\"}"
        );
        assert_eq!(read::<f64>("\"-Infinity\"").unwrap(), f64::NEG_INFINITY);
    }
}
