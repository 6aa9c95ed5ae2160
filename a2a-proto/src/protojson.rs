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
