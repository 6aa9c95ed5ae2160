//! Not public API: how the generated v0.3 markers and unions read their JSON.
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
//! [`crate::MAX_NESTING_DEPTH`].
//!
//! An error inside a variant says `Union (Variant): at `member`: ...`, naming the member of the
//! variant at fault; `crate::json`'s functions give the whole path of members read from the input as
//! they came.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer, StrDeserializer};
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::json::{UniqueKeys, UniqueKeysVisitor, bounded, shown};

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
    fn tag_list(&self) -> String {
        let tags: Vec<String> = self
            .variants
            .iter()
            .filter_map(|v| v.tag.map(|t| t.to_string()))
            .collect();
        tags.join(", ")
    }

    /// The one variant `key` identifies, if any.
    fn identified_by(&self, key: &str) -> Option<usize> {
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

/// A generated union: its table, and how to read variant `index` (in table order).
pub trait UnionType: Sized {
    const UNION: &'static Union;

    fn read_variant<'de, D: Deserializer<'de>>(
        index: usize,
        deserializer: D,
    ) -> Result<Self, D::Error>;
}

/// Reads the union `U`.
pub fn deserialize<'de, U: UnionType, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<U, D::Error> {
    deserializer.deserialize_any(UnionVisitor(PhantomData))
}

struct UnionVisitor<U>(PhantomData<U>);

impl<U: UnionType> UnionVisitor<U> {
    fn not_an_object<E: serde::de::Error>(found: &Value) -> E {
        E::custom(bounded(&format!(
            "expected a JSON object for {}, found {}",
            U::UNION.name,
            shown(found)
        )))
    }
}

/// A member kept before the variant is known: its name and its raw JSON text.
type Kept<'de> = (String, Cow<'de, str>);

impl<'de, U: UnionType> Visitor<'de> for UnionVisitor<U> {
    type Value = U;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a JSON object for {}", U::UNION.name)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<U, E> {
        Err(Self::not_an_object(&Value::Bool(v)))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<U, E> {
        Err(Self::not_an_object(&Value::from(v)))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<U, E> {
        Err(Self::not_an_object(&Value::from(v)))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<U, E> {
        Err(Self::not_an_object(&UniqueKeysVisitor.visit_f64::<E>(v)?))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<U, E> {
        Err(Self::not_an_object(&Value::String(v.to_owned())))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<U, E> {
        Err(Self::not_an_object(&Value::Null))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<U, E> {
        Err(Self::not_an_object(&Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<U, A::Error> {
        Err(Self::not_an_object(&UniqueKeysVisitor.visit_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        let union = U::UNION;
        let mut kept: Vec<Kept<'de>> = Vec::new();
        let mut key = String::new();
        loop {
            if map.next_key_seed(KeyInto(&mut key))?.is_none() {
                break;
            }
            if union.tag == Some(key.as_str()) {
                let found = map.next_value_seed(ReadTag)?;
                let Some(index) = union
                    .variants
                    .iter()
                    .position(|v| v.tag.is_some_and(|t| found.matches(t)))
                else {
                    return Err(A::Error::custom(bounded(&format!(
                        "unknown {key} {} for {}, expected one of {}",
                        shown(&found.into_value()),
                        union.name,
                        union.tag_list()
                    ))));
                };
                let mut replay = Replay::new(union, index, &kept, &mut map);
                replay.tag = Some(found);
                return replay
                    .read::<U>()
                    .map_err(|failure| failure.into_error(union, index));
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
                replay.pending = Some(std::mem::take(&mut key));
                match replay.read::<U>() {
                    Ok(value) => return Ok(value),
                    Err(Failure::WasNull(member)) => {
                        kept.push((member, Cow::Borrowed("null")));
                        continue;
                    }
                    Err(failure) => return Err(failure.into_error(union, index)),
                }
            }
            let raw = map.next_value_seed(KeepRaw)?;
            kept.push((key.clone(), raw));
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
        choose_by_members::<U, A>(union, &kept, &mut map)
    }
}

/// The end of an object without a discriminator: the variant its members identify, or the first
/// variant without identifying members that reads it.
fn choose_by_members<'de, U: UnionType, A: MapAccess<'de>>(
    union: &'static Union,
    kept: &[Kept<'de>],
    map: &mut A,
) -> Result<U, A::Error> {
    let set = |k: &str| kept.iter().any(|(key, raw)| key == k && is_set(raw));
    // `null` is how the SDK's models say "not set": a member set to `null` identifies nothing
    // (`"pushNotificationConfigId": null` must not pick a variant that then writes it out).
    let present: Vec<usize> = union
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.keys.iter().any(|k| set(k)))
        .map(|(index, _)| index)
        .collect();
    let read = |index: usize, map: &mut A| {
        let mut replay = Replay::new(union, index, kept, map);
        replay.live_done = true;
        replay.read::<U>()
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
                    Ok(value) => return Ok(value),
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

/// A discriminator's value, read without a tree when it is a string or an integer.
enum TagValue<'de> {
    Str(Cow<'de, str>),
    Int(i64),
    Other(Value),
}

impl TagValue<'_> {
    fn matches(&self, tag: Tag) -> bool {
        match (self, tag) {
            (TagValue::Str(found), Tag::Str(expected)) => found == expected,
            (TagValue::Int(found), Tag::Int(expected)) => *found == expected,
            _ => false,
        }
    }

    fn into_value(self) -> Value {
        match self {
            TagValue::Str(text) => Value::String(text.into_owned()),
            TagValue::Int(n) => Value::from(n),
            TagValue::Other(value) => value,
        }
    }
}

/// Reads a discriminator's value.
struct ReadTag;

impl<'de> DeserializeSeed<'de> for ReadTag {
    type Value = TagValue<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<TagValue<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ReadTag {
    type Value = TagValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a discriminator")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Str(Cow::Owned(v)))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Int(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<TagValue<'de>, E> {
        Ok(i64::try_from(v).map_or(TagValue::Other(Value::from(v)), TagValue::Int))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<TagValue<'de>, E> {
        UniqueKeysVisitor.visit_f64(v).map(TagValue::Other)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Other(Value::Bool(v)))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Other(Value::Null))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<TagValue<'de>, E> {
        Ok(TagValue::Other(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TagValue<'de>, A::Error> {
        UniqueKeysVisitor.visit_seq(seq).map(TagValue::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TagValue<'de>, A::Error> {
        UniqueKeysVisitor.visit_map(map).map(TagValue::Other)
    }
}

/// Whether kept raw JSON is anything but `null`.
fn is_set(raw: &str) -> bool {
    raw.trim() != "null"
}

/// Why reading a variant failed.
enum Failure<E> {
    /// In the value of this member of the variant.
    Member(String, E),
    /// In the variant itself (a missing member) or in the object's syntax.
    Variant(E),
    /// An error that already says all (an ambiguous member, a syntax error).
    Whole(E),
    /// The member that chose the variant was `null`, which chooses nothing.
    WasNull(String),
}

impl<E: serde::de::Error> Failure<E> {
    fn into_text(self) -> String {
        match self {
            Failure::Member(member, e) => format!("at `{member}`: {}", without_position(&e)),
            Failure::Variant(e) | Failure::Whole(e) => without_position(&e),
            Failure::WasNull(member) => format!("at `{member}`: null"),
        }
    }

    fn into_error(self, union: &Union, index: usize) -> E {
        if let Failure::Whole(e) = self {
            return e;
        }
        E::custom(bounded(&format!(
            "{} ({}): {}",
            union.name,
            union.variants[index].type_name,
            self.into_text()
        )))
    }
}

/// An error's text without serde_json's ` at line L column C`: a position inside kept text is not one
/// in the input, and the outer deserializer adds its own.
fn without_position(error: &impl fmt::Display) -> String {
    let text = error.to_string();
    if let Some(at) = text.rfind(" at line ") {
        let rest = &text[at + " at line ".len()..];
        if let Some((line, column)) = rest.split_once(" column ")
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && !column.is_empty()
            && column.bytes().all(|b| b.is_ascii_digit())
        {
            return text[..at].to_owned();
        }
    }
    text
}

/// Reads a member name into a reused buffer.
struct KeyInto<'k>(&'k mut String);

impl<'de> DeserializeSeed<'de> for KeyInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.0.clear();
        self.0.push_str(v);
        Ok(())
    }
}

/// What the next value of a [`Replay`] is.
#[derive(Clone, Copy)]
enum At {
    Nothing,
    Kept(usize),
    Tag,
    /// The member that chose the variant (by members): read live, `null` steps back.
    Choosing,
    Live,
    /// A live member that identifies another variant: only `null` is allowed.
    OtherVariant(usize),
}

/// The object as the chosen variant reads it: the kept members, the discriminator, then the rest of
/// the input.
struct Replay<'r, 'de, A> {
    union: &'static Union,
    chosen: usize,
    kept: &'r [Kept<'de>],
    next: usize,
    tag: Option<TagValue<'de>>,
    /// The member (read, its value not) that chose the variant.
    pending: Option<String>,
    chose_by: String,
    live: &'r mut A,
    live_done: bool,
    key: String,
    at: At,
    failure: Option<Failure<()>>,
}

impl<'r, 'de, A: MapAccess<'de>> Replay<'r, 'de, A> {
    fn new(union: &'static Union, chosen: usize, kept: &'r [Kept<'de>], live: &'r mut A) -> Self {
        Self {
            union,
            chosen,
            kept,
            next: 0,
            tag: None,
            pending: None,
            chose_by: String::new(),
            live,
            live_done: false,
            key: String::new(),
            at: At::Nothing,
            failure: None,
        }
    }

    fn read<U: UnionType>(mut self) -> Result<U, Failure<A::Error>> {
        let chosen = self.chosen;
        match U::read_variant(chosen, MapAccessDeserializer::new(&mut self)) {
            Ok(value) => Ok(value),
            Err(e) => Err(match self.failure.take() {
                Some(Failure::Member(member, ())) => Failure::Member(member, e),
                Some(Failure::Whole(())) => Failure::Whole(e),
                Some(Failure::WasNull(member)) => Failure::WasNull(member),
                Some(Failure::Variant(())) | None => Failure::Variant(e),
            }),
        }
    }

    /// Notes that reading `member`'s value failed (the first failure is the one reported).
    fn in_member(&mut self, member: String) {
        self.failure.get_or_insert(Failure::Member(member, ()));
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, _)) = self.kept.get(self.next) {
            self.at = At::Kept(self.next);
            self.next += 1;
            return seed.deserialize(StrDeserializer::new(key)).map(Some);
        }
        if self.tag.is_some()
            && let Some(tag) = self.union.tag
        {
            self.at = At::Tag;
            return seed
                .deserialize(BorrowedStrDeserializer::new(tag))
                .map(Some);
        }
        if let Some(member) = self.pending.take() {
            self.at = At::Choosing;
            self.chose_by = member;
            return seed
                .deserialize(StrDeserializer::new(&self.chose_by))
                .map(Some);
        }
        self.at = At::Nothing;
        if self.live_done {
            return Ok(None);
        }
        let key = self.live.next_key_seed(KeyInto(&mut self.key));
        match key {
            Err(e) => {
                self.failure = Some(Failure::Whole(()));
                return Err(e);
            }
            Ok(None) => {
                self.live_done = true;
                return Ok(None);
            }
            Ok(Some(())) => {}
        }
        if self.union.tag == Some(self.key.as_str()) {
            // The words of the other duplicate-key errors (`crate::json`, a2a-proto).
            return Err(A::Error::custom(format!(
                "duplicate key {:?} in JSON object",
                self.key
            )));
        }
        self.at = match self.union.identified_by(&self.key) {
            Some(other) if self.union.tag.is_none() && other != self.chosen => {
                At::OtherVariant(other)
            }
            _ => At::Live,
        };
        seed.deserialize(StrDeserializer::new(&self.key)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.at {
            At::Kept(index) => {
                let (member, raw) = &self.kept[index];
                replay(raw, seed).map_err(|e| {
                    self.failure = Some(Failure::Member(member.clone(), ()));
                    A::Error::custom(without_position(&e))
                })
            }
            At::Tag => {
                let result = match self.tag.take() {
                    Some(TagValue::Str(Cow::Borrowed(text))) => {
                        seed.deserialize(BorrowedStrDeserializer::new(text))
                    }
                    Some(TagValue::Str(Cow::Owned(text))) => {
                        seed.deserialize(StrDeserializer::new(&text))
                    }
                    Some(TagValue::Int(n)) => {
                        seed.deserialize(serde::de::value::I64Deserializer::new(n))
                    }
                    Some(TagValue::Other(value)) => seed
                        .deserialize(value)
                        .map_err(|e| A::Error::custom(without_position(&e))),
                    None => Err(A::Error::custom("the discriminator was read already")),
                };
                let member = self.union.tag.unwrap_or_default();
                result.inspect_err(|_| self.in_member(member.to_owned()))
            }
            At::Choosing => {
                let was_null = Cell::new(false);
                let result = self.live.next_value_seed(NotNull {
                    seed,
                    was_null: &was_null,
                });
                if was_null.get() {
                    self.failure = Some(Failure::WasNull(std::mem::take(&mut self.chose_by)));
                }
                result.inspect_err(|_| self.in_member(self.chose_by.clone()))
            }
            At::Live => {
                let result = self.live.next_value_seed(seed);
                result.inspect_err(|_| self.in_member(self.key.clone()))
            }
            At::OtherVariant(other) => {
                let was_set = Cell::new(false);
                let result = self.live.next_value_seed(OnlyNull {
                    seed,
                    was_set: &was_set,
                });
                if was_set.get() {
                    self.failure = Some(Failure::Whole(()));
                    let variants = self.union.variants;
                    return Err(A::Error::custom(format!(
                        "ambiguous {}: it has members of several variants: `{}` ({}) and `{}` ({})",
                        self.union.name,
                        self.chose_by,
                        variants[self.chosen].type_name,
                        self.key,
                        variants[other].type_name
                    )));
                }
                result.inspect_err(|_| self.in_member(self.key.clone()))
            }
            At::Nothing => Err(A::Error::custom("a value without a member name")),
        }
    }
}

/// Reads kept raw JSON with `seed`.
fn replay<'de, S: DeserializeSeed<'de>>(
    raw: &Cow<'de, str>,
    seed: S,
) -> Result<S::Value, serde_json::Error> {
    match raw {
        Cow::Borrowed(text) => seed.deserialize(&mut serde_json::Deserializer::from_str(text)),
        // Text copied out of a deserializer that does not lend its input (a `Value`, a reader): read
        // through `io::Read`, which lends nothing, so it serves any lifetime.
        Cow::Owned(text) => {
            seed.deserialize(&mut serde_json::Deserializer::from_reader(text.as_bytes()))
        }
    }
}

/// The value of the member that chose the variant: anything but `null` goes to `seed`; `null` stops
/// the variant (the union steps back and keeps looking).
struct NotNull<'c, S> {
    seed: S,
    was_null: &'c Cell<bool>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NotNull<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for NotNull<'_, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<S::Value, E> {
        self.was_null.set(true);
        Err(E::custom("null chooses no variant"))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<S::Value, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(deserializer)
    }
}

/// A member of another variant after the variant was chosen: `null` (not set) is read as such,
/// anything else is an ambiguous object.
struct OnlyNull<'c, S> {
    seed: S,
    was_set: &'c Cell<bool>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for OnlyNull<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for OnlyNull<'_, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<S::Value, E> {
        self.seed
            .deserialize(Value::Null)
            .map_err(|e| E::custom(without_position(&e)))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<S::Value, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, _: D) -> Result<S::Value, D::Error> {
        self.was_set.set(true);
        Err(D::Error::custom("a member of another variant"))
    }
}

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
struct KeepRaw;

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
                Value::Object(crate::json::unique_entries_after(first, map)?).to_string(),
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

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;

    use crate::v0_3::{
        FileContent, GetTaskPushNotificationConfigRequestParams, JsonRpcResponse, Part,
        SendStreamingMessageResponse,
    };

    /// Reads `text` as `T` through every kind of deserializer a union meets: serde_json's text and
    /// byte readers (raw text borrowed), its `io::Read` reader and a `Value` (raw text copied), the
    /// path-tracking wrapper, and serde's own buffer (an untagged enum: values re-written). All agree.
    fn every_way<T: DeserializeOwned + PartialEq + std::fmt::Debug>(
        text: &str,
    ) -> Result<T, String> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Wrapped<T> {
            One(T),
        }
        let plain = serde_json::from_str::<T>(text).map_err(|e| e.to_string());
        let bytes = serde_json::from_slice::<T>(text.as_bytes()).map_err(|e| e.to_string());
        let reader = serde_json::from_reader::<_, T>(text.as_bytes()).map_err(|e| e.to_string());
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let from_value = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
        let tracked =
            serde_path_to_error::deserialize::<_, T>(&mut serde_json::Deserializer::from_str(text))
                .map_err(|e| e.to_string());
        let buffered = serde_json::from_str::<Wrapped<T>>(text)
            .map(|Wrapped::One(t)| t)
            .map_err(|e| e.to_string());
        match &plain {
            Ok(read) => {
                for (way, other) in [
                    ("bytes", &bytes),
                    ("reader", &reader),
                    ("value", &from_value),
                    ("tracked", &tracked),
                    ("buffered", &buffered),
                ] {
                    assert_eq!(other.as_ref(), Ok(read), "{way}: {text}");
                }
            }
            Err(_) => {
                for (way, other) in [
                    ("bytes", &bytes),
                    ("reader", &reader),
                    ("value", &from_value),
                    ("tracked", &tracked),
                ] {
                    assert!(other.is_err(), "{way} accepted {text}: {other:?}");
                }
                // serde's untagged enums replace the error with their own.
                assert!(buffered.is_err(), "buffered accepted {text}");
            }
        }
        plain
    }

    #[test]
    fn a_discriminator_first_or_last_reads_the_same_every_way() {
        let first = every_way::<Part>(
            r#"{"kind":"file","file":{"uri":"https://x.test/a.pdf"},"metadata":{"n":[1,2.5]}}"#,
        )
        .unwrap();
        let last = every_way::<Part>(
            r#"{"metadata":{"n":[1,2.5]},"file":{"uri":"https://x.test/a.pdf"},"kind":"file"}"#,
        )
        .unwrap();
        assert_eq!(first, last);
        assert!(matches!(first, Part::File(ref p) if matches!(p.file, FileContent::Uri(_))));
        let none = every_way::<Part>(
            r#"{"metadata":{"n":[1,2.5]},"file":{"uri":"https://x.test/a.pdf"}}"#,
        )
        .unwrap();
        assert_eq!(none, first);
    }

    #[test]
    fn a_response_commits_on_its_member_and_reads_the_rest_every_way() {
        let event = r#"{"jsonrpc":"2.0","id":"r-1","result":{"kind":"status-update","taskId":"t","contextId":"c",
            "status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m",
            "parts":[{"text":"hi","kind":"text"}]}},"final":false}}"#;
        let read = every_way::<SendStreamingMessageResponse>(event).unwrap();
        assert!(matches!(read, SendStreamingMessageResponse::Success(_)));
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            serde_json::from_str::<serde_json::Value>(event).unwrap()
        );
        // The member of the other variant after the choice: ambiguous, unless it is `null`.
        let both = r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}},"error":{"code":1,"message":"x"}}"#;
        let e = every_way::<SendStreamingMessageResponse>(both).unwrap_err();
        assert!(e.contains("ambiguous SendStreamingMessageResponse"), "{e}");
        let null_error = both.replace(r#"{"code":1,"message":"x"}"#, "null");
        assert!(matches!(
            every_way::<SendStreamingMessageResponse>(&null_error).unwrap(),
            SendStreamingMessageResponse::Success(_)
        ));
        // A `null` result chooses nothing: the error decides.
        let error =
            r#"{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32001,"message":"gone"}}"#;
        assert!(matches!(
            every_way::<SendStreamingMessageResponse>(error).unwrap(),
            SendStreamingMessageResponse::Error(_)
        ));
        // Variants without a member of their own are tried in turn, from kept text.
        let list = r#"{"jsonrpc":"2.0","id":"x","result":[{"taskId":"t","pushNotificationConfig":{"url":"https://cb.test/hook"}}]}"#;
        assert!(matches!(
            every_way::<JsonRpcResponse>(list).unwrap(),
            JsonRpcResponse::ListTaskPushNotificationConfig(_)
        ));
    }

    #[test]
    fn a_null_member_chooses_nothing_wherever_it_sits() {
        use GetTaskPushNotificationConfigRequestParams as Params;
        for text in [
            r#"{"id":"t-1","pushNotificationConfigId":null}"#,
            r#"{"pushNotificationConfigId":null,"id":"t-1"}"#,
        ] {
            assert!(
                matches!(every_way::<Params>(text).unwrap(), Params::TaskId(_)),
                "{text}"
            );
        }
        for text in [
            r#"{"id":"t-1","pushNotificationConfigId":"c"}"#,
            r#"{"pushNotificationConfigId":"c","id":"t-1"}"#,
        ] {
            assert!(
                matches!(
                    every_way::<Params>(text).unwrap(),
                    Params::GetTaskPushNotificationConfig(_)
                ),
                "{text}"
            );
        }
        let e = every_way::<FileContent>(r#"{"bytes":"aGk=","uri":"https://x.test"}"#).unwrap_err();
        assert!(e.contains("ambiguous FileContent"), "{e}");
        let bytes = every_way::<FileContent>(r#"{"bytes":"aGk=","uri":null}"#).unwrap();
        assert!(matches!(bytes, FileContent::Bytes(_)));
        let uri = every_way::<FileContent>(r#"{"bytes":null,"uri":"https://x.test"}"#).unwrap();
        assert!(matches!(uri, FileContent::Uri(_)));
    }

    #[test]
    fn errors_name_the_union_the_variant_and_the_member_every_way() {
        for text in [
            // The member read live, after the discriminator.
            r#"{"kind":"file","file":{"uri":5}}"#,
            // The member kept before it.
            r#"{"file":{"uri":5},"kind":"file"}"#,
        ] {
            let e = every_way::<Part>(text).unwrap_err();
            assert!(
                e.contains("Part (FilePart): at `file`: FileContent (FileWithUri): at `uri`: invalid type: integer `5`"),
                "{e}"
            );
            // One position, the input's.
            assert_eq!(e.matches(" at line ").count(), 1, "{e}");
        }
        // (A `Value` keeps one of two equal keys, so only text can hold a duplicate.)
        let twice = r#"{"kind":"file","file":{"uri":"u"},"kind":"text","text":"x"}"#;
        for e in [
            serde_json::from_str::<Part>(twice).unwrap_err(),
            serde_json::from_reader::<_, Part>(twice.as_bytes()).unwrap_err(),
        ] {
            assert!(e.to_string().contains("duplicate key \"kind\""), "{e}");
        }
        let e = every_way::<Part>(r#"{"text":"x","kind":"image"}"#).unwrap_err();
        assert!(e.contains(r#"unknown kind "image" for Part"#), "{e}");
        let e = every_way::<Part>(r#""a part""#).unwrap_err();
        assert!(
            e.contains(r#"expected a JSON object for Part, found "a part""#),
            "{e}"
        );
        let e = every_way::<Part>(r#"{"metadata":{}}"#).unwrap_err();
        assert!(
            e.contains("cannot tell which Part this is: no `kind`"),
            "{e}"
        );
    }

    #[test]
    fn the_path_tracker_follows_members_read_from_the_input() {
        let text = r#"{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"a"},{"kind":"data","data":{"a":1,"a":2}}]}"#;
        let error = crate::json::from_str::<crate::v0_3::Message>(text).unwrap_err();
        assert_eq!(error.path(), "parts[1].data", "{error}");
        assert!(error.to_string().contains("duplicate key \"a\""), "{error}");
        // A kept member: the path ends at the union, the message names the member.
        let text = text.replace(
            r#"{"kind":"data","data":{"a":1,"a":2}}"#,
            r#"{"data":{"a":1,"a":2},"kind":"data"}"#,
        );
        let error = crate::json::from_str::<crate::v0_3::Message>(&text).unwrap_err();
        assert_eq!(error.path(), "parts[1]", "{error}");
        assert!(
            error
                .to_string()
                .contains("Part (DataPart): at `data`: duplicate key \"a\""),
            "{error}"
        );
    }
}
