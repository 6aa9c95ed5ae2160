//! [`keys_unique`]: the duplicate-key check of [`value_from_str`](super::value_from_str) without the
//! tree it builds, for readers that take a document straight into typed values and must refuse what
//! the tree would refuse.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// Objects with at most this many members are checked by comparing each key with those before it;
/// larger ones through a hash set, so a hostile object of many keys costs linear time.
const LINEAR_KEYS: usize = 16;

/// Whether `text` is one JSON document in which no object has a key twice, keys compared after
/// their escapes are read, as [`value_from_str`](super::value_from_str) compares them. `false` as
/// well for text that is not JSON. Nothing is built but the keys of the object being read, borrowed
/// from `text` unless they hold escapes.
///
/// ```
/// use a2a_support::json::keys_unique;
///
/// assert!(keys_unique(r#"{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}"#));
/// assert!(!keys_unique(r#"{"a": 1, "x": [{"b": 1, "b": 2}]}"#));
/// assert!(!keys_unique(r#"{"a": 1, "\u0061": 2}"#));
/// assert!(!keys_unique(r#"{"a": "#));
/// ```
pub fn keys_unique(text: &str) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Scan.deserialize(&mut deserializer).is_ok() && deserializer.end().is_ok()
}

/// Reads one value, refusing an object with a key twice.
#[derive(Clone, Copy)]
struct Scan;

impl<'de> DeserializeSeed<'de> for Scan {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Scan)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut few: Vec<Cow<'de, str>> = Vec::new();
        let mut many: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let repeated = if many.is_empty() && few.len() < LINEAR_KEYS {
                let seen = few.contains(&key);
                few.push(key);
                seen
            } else {
                many.extend(few.drain(..));
                !many.insert(key)
            };
            if repeated {
                return Err(de::Error::custom("duplicate key in JSON object"));
            }
            map.next_value_seed(Scan)?;
        }
        Ok(())
    }
}

/// A member name, borrowed from the text when it holds no escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree-building reader's answer, which this must always give.
    fn tree_says(text: &str) -> bool {
        super::super::value_from_str(text).is_ok()
    }

    #[test]
    fn agrees_with_the_tree_building_reader() {
        let many: String = (0..40).map(|i| format!(r#""k{i}": {i}, "#)).collect();
        let documents = [
            r#"{}"#.to_owned(),
            r#"[]"#.to_owned(),
            r#"7"#.to_owned(),
            r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#.to_owned(),
            r#"{"a": 1, "a": 1}"#.to_owned(),
            r#"{"x": [1, {"y": {"z": null, "z": true}}]}"#.to_owned(),
            r#"{"\u0061": 1, "a": 2}"#.to_owned(),
            r#"{"a\"b": 1, "a\"c": 2}"#.to_owned(),
            format!(r#"{{{many}"last": 0}}"#),
            format!(r#"{{{many}"k7": 0}}"#),
            format!(r#"{{{many}"k39": 0}}"#),
            r#"{"a": 1} {"b": 2}"#.to_owned(),
            r#"{"a": 1,}"#.to_owned(),
            r#"{"a": 1e400}"#.to_owned(),
            r#"{"a": "\ud800"}"#.to_owned(),
        ];
        for text in &documents {
            assert_eq!(keys_unique(text), tree_says(text), "{text}");
        }
        assert!(keys_unique(&documents[8]));
        assert!(!keys_unique(&documents[9]));
        assert!(!keys_unique(&documents[10]));
    }
}
