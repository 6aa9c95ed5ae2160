//! Messages read in place: the `Deserialize` impl `cargo xtask codegen` emits for every v1 message
//! starts from the message's default value and reads each member straight into its field
//! ([`ReadInPlace`]), nested messages included, instead of serde's derive, which reads every field
//! into a local `Option`, builds the struct at the end and hands it up through each layer (a copy of
//! the whole struct per layer: `Message` is 184 bytes, `TaskStatus` 208).
//!
//! The rules stay the derive's: a member twice is `duplicate field` naming its JSON name (checked
//! before its value is read, as the derive does), unknown members are skipped, a message is read only
//! from a JSON object, `null` for a message is "not set", and every other field goes through the same
//! `protojson` helper its serde attribute names. The derive's reading stays generated beside it
//! ([`super::FromObject`], [`ReferenceRead`]) so the tests can compare the two on every input.

use std::fmt;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::oneof::OneofSlot;
use super::{Key, ProtoOneof};

/// A message whose members are read straight into its fields; emitted for every generated message.
pub trait ReadInPlace: Default {
    /// Reads the members of one JSON object into `self`, which holds the default value.
    fn read_members<'de, A: MapAccess<'de>>(&mut self, map: A) -> Result<(), A::Error>;
}

/// The reading serde's derive would do (the generated [`super::FromObject`] impls, or the oneof reader
/// for a message that is only a oneof): what the tests compare the in-place readers with.
pub trait ReferenceRead: Sized {
    /// Reads the message as serde's derive would.
    fn read_reference<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// The `Deserialize` impl of a generated message: a JSON object read into the default value.
pub fn read_in_place<'de, D: Deserializer<'de>, T: ReadInPlace>(
    deserializer: D,
) -> Result<T, D::Error> {
    let mut message = T::default();
    deserializer.deserialize_map(ObjectInto(&mut message))?;
    Ok(message)
}

/// Marks member `index` (of at most 64) as read, or fails as serde's derive does when it comes again:
/// `duplicate field` naming its JSON name `name`.
#[inline]
pub fn first_time<E: de::Error>(seen: &mut u64, index: u32, name: &'static str) -> Result<(), E> {
    let bit = 1u64 << index;
    if *seen & bit != 0 {
        return Err(E::duplicate_field(name));
    }
    *seen |= bit;
    Ok(())
}

/// Reads the next member name without copying it when the input lends it (no escapes).
#[inline]
pub fn next_key<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<Key<'de>>, A::Error> {
    map.next_key::<Key<'de>>()
}

/// Skips the value of a member no field takes.
#[inline]
pub fn skip_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<de::IgnoredAny>().map(|_| ())
}

/// Reads a message field with presence (`Option<T>`): `null` leaves it unset, an object is read into
/// a new default value in its place.
#[inline]
pub fn read_optional_message<'de, A: MapAccess<'de>, T: ReadInPlace>(
    map: &mut A,
    field: &mut Option<T>,
) -> Result<(), A::Error> {
    map.next_value_seed(NullOr(OptionalInto(field)))
}

/// Reads a message field without presence (`T`, `null` reading as the default) in place.
#[inline]
pub fn read_message<'de, A: MapAccess<'de>, T: ReadInPlace>(
    map: &mut A,
    field: &mut T,
) -> Result<(), A::Error> {
    map.next_value_seed(NullOr(DefaultInto(field)))
}

/// Reads a repeated message field (`null` is empty), each element read in its place in the `Vec`.
#[inline]
pub fn read_repeated_messages<'de, A: MapAccess<'de>, T: ReadInPlace>(
    map: &mut A,
    field: &mut Vec<T>,
) -> Result<(), A::Error> {
    map.next_value_seed(NullOr(RepeatedInto(field)))
}

/// Reads a member value through a serde `deserialize_with` function, as the derive does for a field
/// with that attribute: `next_value_with!(map, path::to::function, FieldType)`.
#[doc(hidden)]
#[macro_export]
macro_rules! next_value_with {
    ($map:expr, $function:path, $ty:ty) => {{
        struct With($ty);
        impl<'de> ::serde::Deserialize<'de> for With {
            #[inline]
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                $function(deserializer).map(With)
            }
        }
        ::serde::de::MapAccess::next_value::<With>($map).map(|with| with.0)
    }};
}

/// The oneof flattened into a message (`Part.content`), collected while the message's other members
/// are read: each member name is offered to it first.
pub struct FlatOneof<'de, T> {
    slot: OneofSlot<'de, T>,
}

impl<'de, T: ProtoOneof> FlatOneof<'de, T> {
    /// No member seen yet.
    pub fn new() -> Self {
        Self {
            slot: OneofSlot::new(),
        }
    }

    /// Reads the value of `key` if it names a member of the oneof (a second member is the error the
    /// derive's reading gives); gives the key back when it does not, its value left unread.
    #[inline]
    pub fn offer<A: MapAccess<'de>>(
        &mut self,
        key: Key<'de>,
        map: &mut A,
    ) -> Result<Option<Key<'de>>, A::Error> {
        self.slot.offer(key, map)
    }

    /// The member found, if any.
    pub fn into_found(self) -> Option<T> {
        self.slot.found
    }
}

impl<'de, T: ProtoOneof> Default for FlatOneof<'de, T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a JSON object into the message it borrows.
struct ObjectInto<'a, T>(&'a mut T);

impl<'de, T: ReadInPlace> Visitor<'de> for ObjectInto<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As `read_object` says, so errors read the same as the derive's.
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.0.read_members(map)
    }
}

impl<'de, T: ReadInPlace> DeserializeSeed<'de> for ObjectInto<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

/// A field a nullable JSON value is read into where it lies: `null` empties it, any other value is
/// read into it.
trait NullableField<'de> {
    /// The field as `null` leaves it.
    fn empty(self);
    /// Reads the value into the field.
    fn read<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error>;
}

/// Reads a nullable value into the field `F` stands for (serde's `Option` protocol: `null` is
/// `visit_none` or `visit_unit`, anything else `visit_some`).
struct NullOr<F>(F);

impl<'de, F: NullableField<'de>> Visitor<'de> for NullOr<F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.0.empty();
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.empty();
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.read(deserializer)
    }
}

impl<'de, F: NullableField<'de>> DeserializeSeed<'de> for NullOr<F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

/// `Option<T>` read in place: `null` is `None`, an object becomes `Some` of it.
struct OptionalInto<'a, T>(&'a mut Option<T>);

impl<'de, T: ReadInPlace> NullableField<'de> for OptionalInto<'_, T> {
    fn empty(self) {
        *self.0 = None;
    }

    fn read<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let message = self.0.insert(T::default());
        deserializer.deserialize_map(ObjectInto(message))
    }
}

/// `T` read in place, `null` reading as its default value.
struct DefaultInto<'a, T>(&'a mut T);

impl<'de, T: ReadInPlace> NullableField<'de> for DefaultInto<'_, T> {
    fn empty(self) {
        *self.0 = T::default();
    }

    fn read<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        *self.0 = T::default();
        deserializer.deserialize_map(ObjectInto(self.0))
    }
}

/// `Vec<T>` read in place, `null` reading as empty; each element is pushed as a default value and read
/// where it lies.
struct RepeatedInto<'a, T>(&'a mut Vec<T>);

impl<'de, T: ReadInPlace> NullableField<'de> for RepeatedInto<'_, T> {
    fn empty(self) {
        self.0.clear();
    }

    fn read<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.clear();
        deserializer.deserialize_seq(Elements(self.0))
    }
}

/// The elements of a JSON array, each read into a new last element of the `Vec`.
struct Elements<'a, T>(&'a mut Vec<T>);

impl<'de, T: ReadInPlace> Visitor<'de> for Elements<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As serde's `Vec` says, so errors read the same as the derive's.
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(PushInto(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

/// One element of an array: pushed as the default value, then read where it lies.
struct PushInto<'a, T>(&'a mut Vec<T>);

impl<'de, T: ReadInPlace> DeserializeSeed<'de> for PushInto<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.push(T::default());
        let element = self.0.last_mut().expect("an element was just pushed");
        deserializer.deserialize_map(ObjectInto(element))
    }
}
