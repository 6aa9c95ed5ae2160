//! Support code that the generated ProtoJSON implementations call.
//!
//! Not part of the public API: the code generator (`cargo xtask codegen`) rewrites `pbjson`'s output to go
//! through these helpers where `pbjson` alone does not follow ProtoJSON (see the crate docs, "JSON mapping").

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

/// The numeric types a protobuf field can have.
pub trait ProtoNumber: Sized + std::str::FromStr {
    /// What to call the type in errors.
    const KIND: &'static str;
    /// Converts an integer read from JSON, if it fits.
    fn from_i128(value: i128) -> Option<Self>;
    /// Converts a float read from JSON, if the type can hold it.
    fn from_f64(value: f64) -> Option<Self>;
}

macro_rules! integer_number {
    ($($ty:ty => $kind:literal),*) => {$(
        impl ProtoNumber for $ty {
            const KIND: &'static str = $kind;

            fn from_i128(value: i128) -> Option<Self> {
                <$ty>::try_from(value).ok()
            }

            fn from_f64(value: f64) -> Option<Self> {
                // Integral and in range: the cast is exact (a float beyond 2^53 is an integer already).
                // The upper bound is exclusive: `MAX as f64` rounds up to 2^63 or 2^64 for the 64-bit
                // types, which they cannot hold (the cast would saturate).
                let in_range = value >= <$ty>::MIN as f64 && value < <$ty>::MAX as f64 + 1.0;
                (value.fract() == 0.0 && in_range).then(|| value as $ty)
            }
        }
    )*};
}

integer_number!(i32 => "a 32-bit integer", u32 => "an unsigned 32-bit integer", i64 => "a 64-bit integer", u64 => "an unsigned 64-bit integer");

macro_rules! float_number {
    ($($ty:ty => $kind:literal),*) => {$(
        impl ProtoNumber for $ty {
            const KIND: &'static str = $kind;

            fn from_i128(value: i128) -> Option<Self> {
                Some(value as $ty)
            }

            fn from_f64(value: f64) -> Option<Self> {
                let fits = !value.is_finite() || (value.abs() <= <$ty>::MAX as f64);
                fits.then_some(value as $ty)
            }
        }
    )*};
}

float_number!(f32 => "a 32-bit float", f64 => "a 64-bit float");

impl<'de, T: ProtoNumber> Deserialize<'de> for NumberDeserialize<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NumberVisitor<T>(PhantomData<T>);

        impl<T: ProtoNumber> NumberVisitor<T> {
            fn out_of_range<E: de::Error>(&self, shown: &dyn fmt::Display) -> E {
                E::custom(format!("{shown} is not {}", T::KIND))
            }
        }

        impl<T: ProtoNumber> Visitor<'_> for NumberVisitor<T> {
            type Value = NumberDeserialize<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} (as a JSON number or a string)", T::KIND)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                T::from_i128(v.into())
                    .map(NumberDeserialize)
                    .ok_or_else(|| self.out_of_range(&v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::from_i128(v.into())
                    .map(NumberDeserialize)
                    .ok_or_else(|| self.out_of_range(&v))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                T::from_f64(v)
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

/// A map field as ProtoJSON reads it: a key twice is an error naming the key, as in protobuf's own JSON
/// parsers (serde's `BTreeMap` would keep the last one).
pub struct UniqueMap<K, V>(pub std::collections::BTreeMap<K, V>);

impl<'de, K, V> Deserialize<'de> for UniqueMap<K, V>
where
    K: Deserialize<'de> + Ord + fmt::Debug,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K, V> Visitor<'de> for MapVisitor<K, V>
        where
            K: Deserialize<'de> + Ord + fmt::Debug,
            V: Deserialize<'de>,
        {
            type Value = UniqueMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                use std::collections::btree_map::Entry;
                let mut entries = std::collections::BTreeMap::new();
                while let Some(key) = map.next_key::<K>()? {
                    let value = map.next_value::<V>()?;
                    match entries.entry(key) {
                        Entry::Vacant(entry) => {
                            entry.insert(value);
                        }
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
    ($($ty:ty => $write:ident),*) => {$(
        impl ProtoFloats for $ty {
            fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                if self.is_nan() {
                    serializer.serialize_str("NaN")
                } else if self.is_infinite() {
                    serializer.serialize_str(if *self > 0.0 { "Infinity" } else { "-Infinity" })
                } else {
                    serializer.$write(*self)
                }
            }
        }
    )*};
}

proto_float!(f32 => serialize_f32, f64 => serialize_f64);

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

    fn read<T: ProtoNumber>(json: &str) -> Result<T, serde_json::Error> {
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
