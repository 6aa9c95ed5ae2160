//! Serde support the generated types of `a2a_types` use to read and write ProtoJSON exactly as the
//! official SDKs do.
//!
//! Not public API: `cargo xtask codegen` names these helpers in the serde attributes and impls it
//! generates. The rules are those of the ProtoJSON mapping (see the crate docs of `a2a_types`, "JSON
//! mapping"): default values are omitted on output, `null` reads as the default, integers may arrive as
//! strings, enums are open, and a oneof holds at most one member. One file per kind of field.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer};

mod bytes;
mod enums;
mod fields;
mod free_form;
mod in_place;
mod numbers;
mod oneof;
mod timestamp;

pub use bytes::*;
pub use enums::*;
pub use fields::*;
pub use free_form::*;
pub use in_place::*;
pub use numbers::*;
pub use oneof::*;
pub use timestamp::*;

/// A JSON string (an object key, a timestamp, base64), borrowed from the input when it can be (no
/// escapes), so reading it allocates nothing in the common case.
pub enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl std::ops::Deref for Key<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // As `String` says, so errors read the same as before.
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(key))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key.to_owned()))
            }
            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}
