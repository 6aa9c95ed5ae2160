//! Open enums: written by name, read from a name or any 32-bit number, unknown numbers kept.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

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
