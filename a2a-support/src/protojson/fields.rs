//! Field rules every generated message follows: `null` and absence, defaults left out, maps without a
//! key twice, messages read only from JSON objects.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

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
    Ok(Option::<UniqueMap<String, V>>::deserialize(deserializer)?
        .map_or_else(Default::default, |m| m.0))
}

/// A JSON object read into a map with no key twice: a key twice is an error naming the key, as in
/// protobuf's JSON parsers (serde's `BTreeMap` would keep the last one). The map fields of both type
/// crates read through it (`a2a_proto`'s with integer and boolean keys too).
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

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                use std::collections::btree_map::Entry;
                let mut entries = std::collections::BTreeMap::new();
                while let Some(key) = map.next_key::<K>()? {
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

/// Reads a member value, where `null` means "not set".
pub fn read_optional<'de, T: DeserializeOwned, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<T>, A::Error> {
    map.next_value::<Option<T>>()
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
