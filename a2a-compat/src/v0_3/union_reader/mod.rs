//! The union reader (not public API): how the generated v0.3 markers and unions read their JSON.
//!
//! A union picks its variant by its discriminator (`kind`, `type`, `method`, `code`) or, without one,
//! by a member only that variant has, so an error names what was expected instead of serde's "did not
//! match any variant". It reads its object as a stream, never as a whole tree:
//!
//! - members before the discriminator are kept as raw JSON text (borrowed from the input where the
//!   deserializer lends it, copied otherwise), building no tree;
//! - once the discriminator arrives, the variant reads the kept members, then the discriminator, then
//!   the rest of the object straight from the input; a discriminator that comes first costs nothing;
//! - a union chosen by members (JSON-RPC responses, `FileContent`, ...) commits to a variant when a
//!   member only that variant has arrives with a value other than `null`, and reads the rest as it
//!   comes; a member of another variant later on is an "ambiguous" error, as before;
//! - an object with neither is read to its end and chosen by its members, as kept text.
//!
//! Keys twice follow the rule of every other type: the discriminator or a member the variant knows is
//! an error naming it, free-form members (`data`, `metadata`) reject a key twice inside them, and an
//! unknown member is ignored however often it comes. Nesting is bounded as everywhere: kept text is
//! read again by serde_json with its own depth limit, and free-form members by
//! [`a2a_types::MAX_NESTING_DEPTH`].
//!
//! An error inside a variant says `Union (Variant): at `member`: ...`, naming the member of the
//! variant at fault; `a2a_types::json`'s functions give the whole path of members read from the input as
//! they came.

use std::borrow::Cow;
use std::fmt;

use a2a_support::protojson::Key;
use serde::Deserializer;
use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use a2a_support::json::{UniqueKeysVisitor, bounded, shown};

mod raw;
mod replay;
mod table;
#[cfg(test)]
mod tests;

use raw::KeepRaw;
use replay::{Failure, ReadTag, Replay, is_set};
use table::Kept;
pub use table::{Tag, Union, UnionType, Variant};

/// Reads a string marker: exactly `expected`.
pub fn expect_str<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: &'static str,
) -> Result<(), D::Error> {
    deserializer.deserialize_any(Marker(Tag::Str(expected)))
}

/// Reads an integer marker: exactly `expected`.
pub fn expect_int<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: i64,
) -> Result<(), D::Error> {
    deserializer.deserialize_any(Marker(Tag::Int(expected)))
}

/// Accepts the one value of a marker; anything else is an error quoting it (cut short).
struct Marker(Tag);

impl Marker {
    fn mismatch<E: serde::de::Error>(&self, found: &Value) -> E {
        E::custom(bounded(&format!(
            "expected {}, found {}",
            self.0,
            shown(found)
        )))
    }
}

impl<'de> Visitor<'de> for Marker {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        match self.0 {
            Tag::Str(s) if s == v => Ok(()),
            _ => Err(self.mismatch(&Value::String(v.to_owned()))),
        }
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        match self.0 {
            Tag::Int(n) if n == v => Ok(()),
            _ => Err(self.mismatch(&Value::from(v))),
        }
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        match self.0 {
            Tag::Int(n) if u64::try_from(n) == Ok(v) => Ok(()),
            _ => Err(self.mismatch(&Value::from(v))),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        Err(self.mismatch(&UniqueKeysVisitor.visit_f64::<E>(v)?))
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        Err(self.mismatch(&Value::Bool(v)))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Err(self.mismatch(&Value::Null))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        Err(self.mismatch(&Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        Err(self.mismatch(&UniqueKeysVisitor.visit_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        Err(self.mismatch(&UniqueKeysVisitor.visit_map(map)?))
    }
}

/// Reads the union `U`.
pub fn deserialize<'de, U: UnionType, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<U, D::Error> {
    let mut slot = None;
    deserializer.deserialize_any(UnionVisitor { slot: &mut slot })?;
    // `visit_map` answers `Ok` only once the variant is in the slot.
    slot.ok_or_else(|| D::Error::custom(format!("no value read for {}", U::UNION.name)))
}

/// Reads a union's object into `slot`.
struct UnionVisitor<'s, U> {
    slot: &'s mut Option<U>,
}

impl<U: UnionType> UnionVisitor<'_, U> {
    fn not_an_object<E: serde::de::Error>(found: &Value) -> E {
        E::custom(bounded(&format!(
            "expected a JSON object for {}, found {}",
            U::UNION.name,
            shown(found)
        )))
    }
}

impl<'de, U: UnionType> Visitor<'de> for UnionVisitor<'_, U> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a JSON object for {}", U::UNION.name)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        Err(Self::not_an_object(&Value::Bool(v)))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        Err(Self::not_an_object(&Value::from(v)))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        Err(Self::not_an_object(&Value::from(v)))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        Err(Self::not_an_object(&UniqueKeysVisitor.visit_f64::<E>(v)?))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        Err(Self::not_an_object(&Value::String(v.to_owned())))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Err(Self::not_an_object(&Value::Null))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        Err(Self::not_an_object(&Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        Err(Self::not_an_object(&UniqueKeysVisitor.visit_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let union = U::UNION;
        let mut kept: Vec<Kept<'de>> = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if union.tag == Some(&*key) {
                let found = map.next_value_seed(ReadTag)?;
                let Some(index) = union
                    .variants
                    .iter()
                    .position(|v| v.tag.is_some_and(|t| found.matches(t)))
                else {
                    return Err(A::Error::custom(bounded(&format!(
                        "unknown {} {} for {}, expected one of {}",
                        &*key,
                        shown(&found.into_value()),
                        union.name,
                        union.tag_list()
                    ))));
                };
                let mut replay = Replay::new(union, index, &kept, &mut map);
                replay.tag = Some(found);
                return replay
                    .read(self.slot)
                    .map_err(|e| replay.failure(e).into_error(union, index));
            }
            if union.tag.is_none()
                && let Some(index) = union.identified_by(&key)
                && !kept.iter().any(|(k, raw)| {
                    is_set(raw) && union.identified_by(k).is_some_and(|other| other != index)
                })
            {
                // This member names the variant unless its value is `null`: commit, and step back
                // (keeping the `null`) if it is.
                let mut replay = Replay::new(union, index, &kept, &mut map);
                replay.pending = Some(key);
                match replay.read(self.slot) {
                    Ok(()) => return Ok(()),
                    Err(e) => match replay.failure(e) {
                        Failure::WasNull(member) => {
                            kept.push((Key::Owned(member), Cow::Borrowed("null")));
                            continue;
                        }
                        failure => return Err(failure.into_error(union, index)),
                    },
                }
            }
            let raw = map.next_value_seed(KeepRaw)?;
            kept.push((key, raw));
        }
        if let Some(tag) = union.tag
            && union.tag_required
        {
            return Err(A::Error::custom(format!(
                "missing field `{tag}` for {}, expected one of {}",
                union.name,
                union.tag_list()
            )));
        }
        choose_by_members(union, &kept, &mut map, self.slot)
    }
}

/// The end of an object without a discriminator: the variant its members identify, or the first
/// variant without identifying members that reads it, into `slot`.
fn choose_by_members<'de, U: UnionType, A: MapAccess<'de>>(
    union: &'static Union,
    kept: &[Kept<'de>],
    map: &mut A,
    slot: &mut Option<U>,
) -> Result<(), A::Error> {
    let set = |k: &str| kept.iter().any(|(key, raw)| &**key == k && is_set(raw));
    // `null` is how the SDK's models say "not set": a member set to `null` identifies nothing
    // (`"pushNotificationConfigId": null` must not pick a variant that then writes it out).
    let present: Vec<usize> = union
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.keys.iter().any(|k| set(k)))
        .map(|(index, _)| index)
        .collect();
    let mut read = |index: usize, map: &mut A| {
        let mut replay = Replay::new(union, index, kept, map);
        replay.live_done = true;
        replay.read(slot).map_err(|e| replay.failure(e))
    };
    match present.as_slice() {
        [index] => read(*index, map).map_err(|failure| failure.into_error(union, *index)),
        [] => {
            let mut errors = Vec::new();
            for (index, variant) in union.variants.iter().enumerate() {
                if !variant.keys.is_empty() {
                    continue;
                }
                match read(index, map) {
                    Ok(()) => return Ok(()),
                    Err(failure) => {
                        errors.push(format!("as {}: {}", variant.type_name, failure.into_text()))
                    }
                }
            }
            let identifying: Vec<String> = union
                .variants
                .iter()
                .filter(|v| !v.keys.is_empty())
                .map(|v| format!("`{}` ({})", v.keys.join("`/`"), v.type_name))
                .collect();
            let mut message = format!("cannot tell which {} this is", union.name);
            if let Some(tag) = union.tag {
                message.push_str(&format!(": no `{tag}`"));
            }
            if !identifying.is_empty() {
                message.push_str(&format!(", and none of {}", identifying.join(", ")));
            }
            if !errors.is_empty() {
                message.push_str(&format!("; {}", errors.join("; ")));
            }
            Err(A::Error::custom(bounded(&message)))
        }
        several => {
            let found: Vec<String> = several
                .iter()
                .map(|&index| {
                    let variant = &union.variants[index];
                    let keys: Vec<&str> = variant.keys.iter().copied().filter(|k| set(k)).collect();
                    format!("`{}` ({})", keys.join("`/`"), variant.type_name)
                })
                .collect();
            Err(A::Error::custom(format!(
                "ambiguous {}: it has members of several variants: {}",
                union.name,
                found.join(" and ")
            )))
        }
    }
}
