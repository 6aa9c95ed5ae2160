//! What a generated union declares: its variants, their discriminator values and the members only
//! each has ([`Union`], [`Variant`], [`Tag`]), and how to read one variant ([`UnionType`]). The reader
//! in the parent module and its replay of kept members both work from these.

use std::borrow::Cow;
use std::fmt;

use a2a_support::protojson::Key;
use serde::de::MapAccess;

/// A discriminator value.
#[derive(Clone, Copy, Debug)]
pub enum Tag {
    Str(&'static str),
    Int(i64),
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tag::Str(s) => write!(f, "`{s}`"),
            Tag::Int(n) => write!(f, "`{n}`"),
        }
    }
}

/// One variant of a union.
pub struct Variant {
    /// The Rust type it wraps, for messages.
    pub type_name: &'static str,
    /// Its discriminator value, if the union has one.
    pub tag: Option<Tag>,
    /// Members only this variant has; any of them present (and not `null`) selects it.
    pub keys: &'static [&'static str],
}

/// A union: how to pick its variant.
pub struct Union {
    pub name: &'static str,
    pub tag: Option<&'static str>,
    /// Whether the tag must be present (JSON-RPC's `method`, an error's `code`); otherwise a missing tag
    /// falls back to choosing by members.
    pub tag_required: bool,
    pub variants: &'static [Variant],
}

impl Union {
    pub(super) fn tag_list(&self) -> String {
        let tags: Vec<String> = self
            .variants
            .iter()
            .filter_map(|v| v.tag.map(|t| t.to_string()))
            .collect();
        tags.join(", ")
    }

    /// The one variant `key` identifies, if any.
    pub(super) fn identified_by(&self, key: &str) -> Option<usize> {
        let mut found = self
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| v.keys.contains(&key))
            .map(|(index, _)| index);
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }
}

/// A generated union: its table, and how to read variant `index` (in table order) from the members
/// of its object into `slot` (each variant is a struct, read as its `FromObject` reads it: no layer
/// of `Deserializer` between the union and the variant's fields). The value is stored, not returned:
/// serde_json's layers between a union and its reader (`deserialize_any`, `next_value_seed`) then
/// carry `()` instead of moving the whole union (300-odd bytes for a stream event) at each one.
pub trait UnionType: Sized {
    const UNION: &'static Union;

    fn read_variant<'de, A: MapAccess<'de>>(
        index: usize,
        map: A,
        slot: &mut Option<Self>,
    ) -> Result<(), A::Error>;
}

/// A member kept before the variant is known: its name and its raw JSON text (both borrowed from the
/// input where it lends them).
pub(super) type Kept<'de> = (Key<'de>, Cow<'de, str>);
