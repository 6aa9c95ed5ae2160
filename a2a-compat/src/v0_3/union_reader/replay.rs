//! Reading the chosen variant: the members kept before the choice are replayed, then the
//! discriminator, then the rest of the object straight from the input; and how a failure inside the
//! variant is reported (naming the member at fault).

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use a2a_support::protojson::Key;
use serde::Deserializer;
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::table::{Kept, Tag, Union, UnionType};
use a2a_support::json::{UniqueKeysVisitor, bounded};

/// A discriminator's value, read without a tree when it is a string or an integer.
pub(super) enum TagValue<'de> {
    Str(Cow<'de, str>),
    Int(i64),
    Other(Value),
}

impl TagValue<'_> {
    pub(super) fn matches(&self, tag: Tag) -> bool {
        match (self, tag) {
            (TagValue::Str(found), Tag::Str(expected)) => found == expected,
            (TagValue::Int(found), Tag::Int(expected)) => *found == expected,
            _ => false,
        }
    }

    pub(super) fn into_value(self) -> Value {
        match self {
            TagValue::Str(text) => Value::String(text.into_owned()),
            TagValue::Int(n) => Value::from(n),
            TagValue::Other(value) => value,
        }
    }
}

/// Reads a discriminator's value.
pub(super) struct ReadTag;

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
pub(super) fn is_set(raw: &str) -> bool {
    raw.trim() != "null"
}

/// Why reading a variant failed.
pub(super) enum Failure<E> {
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
    pub(super) fn into_text(self) -> String {
        match self {
            Failure::Member(member, e) => format!("at `{member}`: {}", without_position(&e)),
            Failure::Variant(e) | Failure::Whole(e) => without_position(&e),
            Failure::WasNull(member) => format!("at `{member}`: null"),
        }
    }

    pub(super) fn into_error(self, union: &Union, index: usize) -> E {
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
pub(super) struct Replay<'r, 'de, A> {
    union: &'static Union,
    chosen: usize,
    kept: &'r [Kept<'de>],
    next: usize,
    pub(super) tag: Option<TagValue<'de>>,
    /// The member (read, its value not) that chose the variant.
    pub(super) pending: Option<Key<'de>>,
    chose_by: Key<'de>,
    live: &'r mut A,
    pub(super) live_done: bool,
    /// The live member being read, named in an error.
    key: Key<'de>,
    at: At,
    failure: Option<Failure<()>>,
}

impl<'r, 'de, A: MapAccess<'de>> Replay<'r, 'de, A> {
    pub(super) fn new(
        union: &'static Union,
        chosen: usize,
        kept: &'r [Kept<'de>],
        live: &'r mut A,
    ) -> Self {
        Self {
            union,
            chosen,
            kept,
            next: 0,
            tag: None,
            pending: None,
            chose_by: Key::Borrowed(""),
            live,
            live_done: false,
            key: Key::Borrowed(""),
            at: At::Nothing,
            failure: None,
        }
    }

    /// Reads the chosen variant into `slot`; on an error, [`Self::failure`] says what went wrong.
    #[inline]
    pub(super) fn read<U: UnionType>(&mut self, slot: &mut Option<U>) -> Result<(), A::Error> {
        U::read_variant(self.chosen, &mut *self, slot)
    }

    /// What went wrong, after [`Self::read`] failed with `error`.
    #[cold]
    pub(super) fn failure(&mut self, error: A::Error) -> Failure<A::Error> {
        match self.failure.take() {
            Some(Failure::Member(member, ())) => Failure::Member(member, error),
            Some(Failure::Whole(())) => Failure::Whole(error),
            Some(Failure::WasNull(member)) => Failure::WasNull(member),
            Some(Failure::Variant(())) | None => Failure::Variant(error),
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
        match self.live.next_key::<Key<'de>>() {
            Err(e) => {
                self.failure = Some(Failure::Whole(()));
                return Err(e);
            }
            Ok(None) => {
                self.live_done = true;
                return Ok(None);
            }
            Ok(Some(key)) => self.key = key,
        }
        let Some(tag) = self.union.tag else {
            // Chosen by members: a member of another variant may only be `null`.
            self.at = match self.union.identified_by(&self.key) {
                Some(other) if other != self.chosen => At::OtherVariant(other),
                _ => At::Live,
            };
            return seed.deserialize(StrDeserializer::new(&self.key)).map(Some);
        };
        if tag == &*self.key {
            // The words of the other duplicate-key errors (`a2a_types::json`, a2a-proto).
            return Err(A::Error::custom(format!(
                "duplicate key {:?} in JSON object",
                &*self.key
            )));
        }
        self.at = At::Live;
        seed.deserialize(StrDeserializer::new(&self.key)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.at {
            At::Kept(index) => {
                let (member, raw) = &self.kept[index];
                replay(raw, seed).map_err(|e| {
                    self.failure = Some(Failure::Member(member.to_string(), ()));
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
                    self.failure = Some(Failure::WasNull(self.chose_by.to_string()));
                }
                result.inspect_err(|_| self.in_member(self.chose_by.to_string()))
            }
            At::Live => {
                let result = self.live.next_value_seed(seed);
                result.inspect_err(|_| self.in_member(self.key.to_string()))
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
                        &*self.chose_by,
                        variants[self.chosen].type_name,
                        &*self.key,
                        variants[other].type_name
                    )));
                }
                result.inspect_err(|_| self.in_member(self.key.to_string()))
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
