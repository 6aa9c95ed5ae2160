//! Oneofs: a message that is only a oneof, and a oneof flattened into a message with other fields;
//! at most one member, read straight into its place.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserializer, Serializer};

use super::Key;

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

/// The oneof member read so far from one object, with the key it was read under (for the error
/// naming both members when a second one comes).
pub(crate) struct OneofSlot<'de, T> {
    first: Option<Key<'de>>,
    pub(crate) found: Option<T>,
}

impl<'de, T: ProtoOneof> OneofSlot<'de, T> {
    pub(crate) fn new() -> Self {
        Self {
            first: None,
            found: None,
        }
    }

    /// Reads the value of `key` if it names a member; gives the key back when it does not (the value
    /// is left unread).
    pub(crate) fn offer<A: MapAccess<'de>>(
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
