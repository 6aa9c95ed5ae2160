//! Keeping a member's value as raw JSON text while the variant is not known yet: borrowed from
//! serde_json's text readers, which lend it, copied from its other deserializers, and re-written from
//! any other deserializer.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::sync::OnceLock;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use a2a_support::json::{UniqueKeys, UniqueKeysVisitor};

/// The name serde_json gives the newtype struct through which it lends raw JSON text, asked of
/// `RawValue`'s own `Deserialize` once (no copy of a private name). `None` if it has none: values are
/// then kept as re-written text.
fn raw_value_name() -> Option<&'static str> {
    static NAME: OnceLock<Option<&'static str>> = OnceLock::new();
    *NAME.get_or_init(|| {
        /// Records the name `RawValue` asks for, and refuses everything.
        struct Probe<'c>(&'c Cell<Option<&'static str>>);

        impl<'de> Deserializer<'de> for Probe<'_> {
            type Error = serde::de::value::Error;

            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(Self::Error::custom("probe"))
            }

            fn deserialize_newtype_struct<V: Visitor<'de>>(
                self,
                name: &'static str,
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0.set(Some(name));
                Err(Self::Error::custom("probe"))
            }

            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
                option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
            }
        }

        let name = Cell::new(None);
        let _ = Box::<serde_json::value::RawValue>::deserialize(Probe(&name));
        name.get()
    })
}

/// Keeps a member's value as raw JSON text: borrowed from serde_json's text readers, copied from
/// other serde_json deserializers (`Value`, readers), re-written from any other deserializer.
pub(super) struct KeepRaw;

impl<'de> DeserializeSeed<'de> for KeepRaw {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        match raw_value_name() {
            Some(name) => deserializer.deserialize_newtype_struct(name, KeepRaw),
            None => Ok(Cow::Owned(
                UniqueKeys::deserialize(deserializer)?.0.to_string(),
            )),
        }
    }
}

/// Re-writes a value of a deserializer that does not speak serde_json's raw protocol.
macro_rules! rewritten {
    ($($method:ident($($arg:ident: $ty:ty)?);)*) => {$(
        fn $method<E: serde::de::Error>(self $(, $arg: $ty)?) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Owned(UniqueKeysVisitor.$method::<E>($($arg)?)?.to_string()))
        }
    )*};
}

impl<'de> Visitor<'de> for KeepRaw {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Cow<'de, str>, M::Error> {
        // serde_json lends raw text as a map of one member named after its newtype struct.
        let Some(first) = map.next_key_seed(FirstKey)? else {
            return Ok(Cow::Borrowed("{}"));
        };
        match first {
            None => map.next_value_seed(RawText),
            // A deserializer that reads a newtype struct as its content: an ordinary object.
            Some(first) => Ok(Cow::Owned(
                Value::Object(a2a_support::json::unique_entries_after(first, map)?).to_string(),
            )),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Cow<'de, str>, D::Error> {
        Ok(Cow::Owned(
            UniqueKeys::deserialize(deserializer)?.0.to_string(),
        ))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Cow<'de, str>, S::Error> {
        Ok(Cow::Owned(UniqueKeysVisitor.visit_seq(seq)?.to_string()))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        self.visit_newtype_struct(deserializer)
    }

    rewritten! {
        visit_bool(v: bool);
        visit_i64(v: i64);
        visit_u64(v: u64);
        visit_f64(v: f64);
        visit_str(v: &str);
        visit_string(v: String);
        visit_unit();
        visit_none();
    }
}

/// The first member name of a map: `None` for serde_json's raw-text marker, the name otherwise.
struct FirstKey;

impl<'de> DeserializeSeed<'de> for FirstKey {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Option<String>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for FirstKey {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Option<String>, E> {
        Ok((Some(v) != raw_value_name()).then(|| v.to_owned()))
    }
}

/// The raw text serde_json lends: borrowed where it can.
struct RawText;

impl<'de> DeserializeSeed<'de> for RawText {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for RawText {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("raw JSON text")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}
