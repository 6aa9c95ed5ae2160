//! ProtoJSON written straight into a byte buffer: the encoders `cargo xtask codegen` generates for
//! every message of `a2a_types` ([`WriteJson`]) call the writer here.
//!
//! The bytes are exactly those `serde_json::to_vec` writes through the types' `Serialize` impls (the
//! same fields in the same order, the same escapes, the same numbers); what differs is the cost. A
//! `Serialize` impl reaches the output only through `serde_json`'s serializer, which escapes strings a
//! byte at a time; here strings are scanned eight bytes at a time (module `escape`), keys are written as the
//! constants they are, and no serializer state is carried through the layers. Rare kinds (numbers,
//! whose ProtoJSON forms have their own rules) still go through `serde_json`, so they cannot differ.

mod escape;
mod free_form;

use serde::Serialize;

use crate::protojson::ProtoEnum;

/// The error of an encode: the same type `serde_json::to_vec` answers (a timestamp outside the years
/// ProtoJSON can write is the one error the generated messages can meet).
pub type Error = serde_json::Error;

/// A message (or a oneof-only message) that writes itself as a ProtoJSON object.
pub trait WriteJson {
    /// Appends the JSON of `self` to `out`.
    fn write_json(&self, out: &mut JsonWriter) -> Result<(), Error>;
}

/// A oneof enum, written as the one entry of its set member inside the enclosing object.
pub trait WriteMember {
    /// Appends `"member":value` (after a comma unless `first`), and clears `first`.
    fn write_member(&self, out: &mut JsonWriter, first: &mut bool) -> Result<(), Error>;
}

/// The JSON of `value` as bytes: what `serde_json::to_vec(value)` gives, sooner.
pub fn to_vec<T: WriteJson + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    // serde_json's own first allocation, so short documents cost the same.
    let mut out = JsonWriter {
        bytes: Vec::with_capacity(128),
        counted: None,
    };
    value.write_json(&mut out)?;
    Ok(out.bytes)
}

/// The length of `value`'s JSON (`to_vec(value)?.len()`), counted without keeping the document: at
/// most one string's escaped bytes (plus 64 KiB) are held at a time, so a task of many megabytes
/// is measured in a buffer of one of its texts.
pub fn json_len<T: WriteJson + ?Sized>(value: &T) -> Result<usize, Error> {
    let mut out = JsonWriter {
        bytes: Vec::with_capacity(SPILL),
        counted: Some(0),
    };
    value.write_json(&mut out)?;
    Ok(out.counted.unwrap_or(0) + out.bytes.len())
}

/// While counting, the bytes written are counted and let go once this many have gathered.
const SPILL: usize = 64 * 1024;

/// The JSON of `value` as text: what `serde_json::to_string(value)` gives, sooner.
pub fn to_string<T: WriteJson + ?Sized>(value: &T) -> Result<String, Error> {
    let bytes = to_vec(value)?;
    // Every byte written is ASCII punctuation, an ASCII name or number, or a copy of a `&str` (escapes
    // are ASCII too), so the buffer is UTF-8; checked anyway, as a broken invariant must not be UB.
    String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(e.utf8_error()))
}

/// The buffer a [`WriteJson`] impl writes into, with the pieces generated encoders are made of.
pub struct JsonWriter {
    bytes: Vec<u8>,
    /// `Some` when only the length is wanted ([`json_len`]): the bytes counted and let go so far.
    counted: Option<usize>,
}

impl JsonWriter {
    /// While counting, lets go of what has gathered; called after the writes that can be large.
    fn spill(&mut self) {
        if let Some(counted) = &mut self.counted
            && self.bytes.len() >= SPILL
        {
            *counted += self.bytes.len();
            self.bytes.clear();
        }
    }

    /// `{`.
    pub fn begin_object(&mut self) {
        self.bytes.push(b'{');
    }

    /// `}`.
    pub fn end_object(&mut self) {
        self.bytes.push(b'}');
        self.spill();
    }

    /// The key of the next entry of an object: a comma unless `first` (then cleared), then
    /// `quoted_key`, which is the key already written as JSON with its colon (`"messageId":`): the
    /// generator writes each field's key as one constant.
    pub fn key(&mut self, first: &mut bool, quoted_key: &'static str) {
        if !std::mem::take(first) {
            self.bytes.push(b',');
        }
        self.bytes.extend_from_slice(quoted_key.as_bytes());
    }

    /// A key chosen at run time (a map's, a free-form object's), escaped.
    pub fn dynamic_key(&mut self, first: &mut bool, key: &str) {
        if !std::mem::take(first) {
            self.bytes.push(b',');
        }
        escape::write_escaped(&mut self.bytes, key);
        self.bytes.push(b':');
    }

    /// A string value, escaped.
    pub fn string(&mut self, text: &str) {
        escape::write_escaped(&mut self.bytes, text);
        self.spill();
    }

    /// `true` or `false`.
    pub fn bool(&mut self, value: bool) {
        self.bytes
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    /// An enum value by name, or by number when the schema does not define it (as
    /// `protojson::serialize_enum`).
    pub fn enum_value<E: ProtoEnum>(&mut self, value: E) -> Result<(), Error> {
        match value.name() {
            // Enum value names are protobuf identifiers: nothing to escape.
            Some(name) => {
                self.bytes.push(b'"');
                self.bytes.extend_from_slice(name.as_bytes());
                self.bytes.push(b'"');
                Ok(())
            }
            None => self.serde(&value.number()),
        }
    }

    /// A timestamp, as `protojson::optional_timestamp` writes it (and failing where it fails).
    pub fn timestamp(&mut self, time: &chrono::DateTime<chrono::Utc>) -> Result<(), Error> {
        let text = crate::protojson::format_timestamp(time).map_err(serde::ser::Error::custom)?;
        self.string(&text);
        Ok(())
    }

    /// Bytes as standard base64 with padding (as `protojson::Base64Ref`).
    pub fn base64(&mut self, bytes: &[u8]) {
        use base64::Engine as _;
        // The base64 alphabet needs no escaping.
        self.bytes.push(b'"');
        let text = base64::engine::general_purpose::STANDARD.encode(bytes);
        self.bytes.extend_from_slice(text.as_bytes());
        self.bytes.push(b'"');
        self.spill();
    }

    /// A JSON array of `items`, each written by `each`.
    pub fn array<T>(
        &mut self,
        items: &[T],
        mut each: impl FnMut(&mut Self, &T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.bytes.push(b'[');
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.bytes.push(b',');
            }
            each(self, item)?;
        }
        self.bytes.push(b']');
        Ok(())
    }

    /// A JSON object of a map field's entries, each value written by `each`.
    pub fn map<V>(
        &mut self,
        entries: &std::collections::BTreeMap<String, V>,
        mut each: impl FnMut(&mut Self, &V) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.begin_object();
        let mut first = true;
        for (key, value) in entries {
            self.dynamic_key(&mut first, key);
            each(self, value)?;
        }
        self.end_object();
        Ok(())
    }

    /// A message.
    pub fn message<T: WriteJson + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.write_json(self)
    }

    /// A message that is only a oneof: an object with its one member.
    pub fn oneof_message<T: WriteMember + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.begin_object();
        value.write_member(self, &mut true)?;
        self.end_object();
        Ok(())
    }

    /// Any value through its `Serialize` impl and `serde_json`'s serializer: for the kinds whose JSON
    /// form is not worth writing twice (numbers).
    pub fn serde<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut serde_json::Serializer::new(&mut self.bytes))
    }

    /// A value through one of the `protojson` field helpers (`protojson::number::serialize` and its
    /// kin), given `serde_json`'s serializer over this buffer.
    pub fn serde_with(
        &mut self,
        write: impl FnOnce(&mut serde_json::Serializer<&mut Vec<u8>>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        write(&mut serde_json::Serializer::new(&mut self.bytes))
    }
}
