//! A decode budget for protobuf binary: how many bytes, and how many fields, one message may have
//! before prost decodes it, so a server bounds the memory one request can make it hold.
//!
//! A decoded message can hold hundreds of times its input: an empty `Task` in a
//! `ListTasksResponse` is 2 bytes on the wire and a whole `Task` struct in memory (225 bytes held
//! per input byte). Bounding the count of fields as well as the bytes bounds memory directly:
//!
//! > bytes held by a decoded message ≤ [`BINARY_BYTES_PER_ELEMENT`] × elements + [`BINARY_BYTES_PER_BYTE`] × input bytes
//!
//! [`Limits`] is the one budget of both type crates (`a2a_protocol::limits::Limits` is the same type,
//! from `a2a_support::limits`): the same numbers bound a JSON document and a protobuf message.
//! [`CheckBinary::check_binary`] walks the wire format once ([`crate::wire`]), guided by which fields
//! are messages (read from the [`FILE_DESCRIPTOR_SET`](crate::v1::FILE_DESCRIPTOR_SET)s this crate
//! embeds), allocates nothing, and stops at the first field over the budget; [`decode`] checks, then
//! decodes with prost.
//!
//! ```
//! use a2a_proto::limits::{self, CheckBinary as _, Limit, Limits};
//! use a2a_proto::v1::ListTasksResponse;
//!
//! // Three empty tasks: ListTasksResponse.tasks (field 1), each 0 bytes long.
//! let bytes = [0x0a, 0x00, 0x0a, 0x00, 0x0a, 0x00];
//! let limits = Limits::default().with_max_elements(2);
//! let error = limits::decode::<ListTasksResponse>(&bytes, &limits).unwrap_err();
//! let limits::DecodeError::Limit(error) = error else { panic!() };
//! assert_eq!((error.limit, error.path.as_str()), (Limit::Elements, "tasks[2]"));
//! assert_eq!(limits::decode::<ListTasksResponse>(&bytes[..4], &limits).unwrap().tasks.len(), 2);
//! assert_eq!(limits.check_binary::<ListTasksResponse>(&bytes[..4]), Ok(2));
//! ```
//!
//! # What counts
//!
//! One element is one field on the wire: each occurrence of a field (each item of a repeated field,
//! each map entry, each field inside a nested message, unknown fields included), at any depth. A
//! packed repeated scalar field counts once (its values cost at most 8 bytes per input byte), and
//! so does an unknown group (prost skips it without storing anything). A
//! message type these descriptors do not know is counted by its top-level fields only.
//!
//! Input prost would refuse (a bad varint, a length beyond the input) is counted up to that point and
//! left to prost to report; nothing here panics on any input. Nesting deeper than prost's recursion
//! limit (100 messages) is not walked: prost refuses it first.
//!
//! # Defaults
//!
//! [`DEFAULT_MAX_BYTES`] (16 MiB) and [`DEFAULT_MAX_ELEMENTS`] (100,000), the same as for JSON: with
//! them a message holds at most ~100 MB of structs plus twice its bytes ([`BINARY_BYTES_PER_ELEMENT`]
//! and [`BINARY_BYTES_PER_BYTE`] are the numbers of JSON too, `a2a_support::limits`'
//! `BYTES_PER_ELEMENT` and `BYTES_PER_BYTE`). The generated gRPC stubs (feature `grpc`) decode every
//! message under a budget: `Limits::default()`, or the limits given to `a2a_proto::grpc::Budgeted` (a server) or
//! `a2a_proto::grpc::with_limits` (a client call); set tonic's `max_decoding_message_size` to the
//! same `max_bytes` too (its default is 4 MiB), so an oversized message is refused before tonic
//! buffers it.
//!
//! # Cost
//!
//! One pass over the bytes without allocating, a fraction of a prost decode of the same message
//! (`cargo bench --manifest-path benchmarks/Cargo.toml --bench budget` measures it; the workspace's
//! `PERFORMANCE.md` has the figures). [`Limits::unlimited`] skips it.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub use a2a_support::limits::{
    BYTES_PER_BYTE as BINARY_BYTES_PER_BYTE, BYTES_PER_ELEMENT as BINARY_BYTES_PER_ELEMENT,
    Counted, DEFAULT_MAX_BYTES, DEFAULT_MAX_ELEMENTS, Limit, LimitError, Limits,
};

use crate::wire::{Item, Reader};

/// prost's default recursion limit: deeper messages are refused by prost itself.
const PROST_RECURSION_LIMIT: usize = crate::wire::RECURSION_LIMIT;

/// The decode budget of protobuf binary: [`Limits`] applied to a message's fields.
///
/// ```
/// use a2a_proto::limits::{CheckBinary as _, Limits};
///
/// let task = [0x0a, 0x03, b't', b'-', b'1']; // lf.a2a.v1.Task with id "t-1"
/// assert_eq!(Limits::default().check_binary::<a2a_proto::v1::Task>(&task), Ok(1));
/// assert!(Limits::default().with_max_elements(0).check_binary_as("lf.a2a.v1.Task", &task).is_err());
/// ```
pub trait CheckBinary {
    /// Checks the encoding of an `M` against the limits without decoding it: its size, then its
    /// fields, stopping at the first one over the budget. Returns the count of fields.
    fn check_binary<M: prost::Name>(&self, bytes: &[u8]) -> Result<usize, LimitError>;

    /// [`check_binary`](Self::check_binary) for the message type with this full name
    /// (`lf.a2a.v1.Task`); a name these descriptors do not know is counted by its top-level fields.
    fn check_binary_as(&self, full_name: &str, bytes: &[u8]) -> Result<usize, LimitError>;
}

impl CheckBinary for Limits {
    fn check_binary<M: prost::Name>(&self, bytes: &[u8]) -> Result<usize, LimitError> {
        let message = schema()
            .by_package
            .get(M::PACKAGE)
            .and_then(|names| names.get(M::NAME))
            .copied();
        check(self, message, bytes)
    }

    fn check_binary_as(&self, full_name: &str, bytes: &[u8]) -> Result<usize, LimitError> {
        check(self, schema().by_name.get(full_name).copied(), bytes)
    }
}

fn check(limits: &Limits, message: Option<usize>, bytes: &[u8]) -> Result<usize, LimitError> {
    limits.check_with(bytes, Counted::ProtobufFields, |bytes, max| {
        let mut walk = Walk {
            schema: schema(),
            count: 0,
            max,
        };
        match walk.message(bytes, message, 0) {
            Ok(()) | Err(Stop::Malformed) => Ok(walk.count),
            Err(Stop::Over(mut trail)) => {
                trail.reverse();
                Err(if trail.is_empty() {
                    ".".to_owned()
                } else {
                    trail.join(".").replace(".[", "[")
                })
            }
        }
    })
}

/// A message that could not be decoded under its [`Limits`].
#[derive(Debug)]
#[non_exhaustive]
pub enum DecodeError {
    /// Over the budget; nothing was decoded.
    Limit(LimitError),
    /// Within the budget, but not a valid encoding of the message.
    Decode(prost::DecodeError),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Limit(error) => error.fmt(f),
            DecodeError::Decode(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::Limit(error) => Some(error),
            DecodeError::Decode(error) => Some(error),
        }
    }
}

impl From<LimitError> for DecodeError {
    fn from(error: LimitError) -> Self {
        DecodeError::Limit(error)
    }
}

impl From<prost::DecodeError> for DecodeError {
    fn from(error: prost::DecodeError) -> Self {
        DecodeError::Decode(error)
    }
}

/// Decodes an `M` from protobuf binary under a budget: [`CheckBinary::check_binary`] first, then
/// prost.
pub fn decode<M: prost::Message + prost::Name + Default>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<M, DecodeError> {
    limits.check_binary::<M>(bytes)?;
    Ok(M::decode(bytes)?)
}

// ---------------------------------------------------------------------------------------------
// The schema: which field of which message is itself a message, from the embedded descriptors.
// ---------------------------------------------------------------------------------------------

/// The parts of `google.protobuf.FileDescriptorSet` the walk needs (prost skips the rest).
#[derive(Clone, PartialEq, prost::Message)]
struct FileSet {
    #[prost(message, repeated, tag = "1")]
    file: Vec<FileProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct FileProto {
    #[prost(string, tag = "2")]
    package: String,
    #[prost(message, repeated, tag = "4")]
    message_type: Vec<MessageProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct MessageProto {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(message, repeated, tag = "2")]
    field: Vec<FieldProto>,
    #[prost(message, repeated, tag = "3")]
    nested_type: Vec<MessageProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct FieldProto {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(int32, tag = "3")]
    number: i32,
    #[prost(int32, tag = "4")]
    label: i32,
    #[prost(int32, tag = "5")]
    r#type: i32,
    #[prost(string, tag = "6")]
    type_name: String,
    #[prost(string, tag = "10")]
    json_name: String,
}

const LABEL_REPEATED: i32 = 3;
const TYPE_MESSAGE: i32 = 11;

struct FieldInfo {
    number: u32,
    name: String,
    repeated: bool,
    /// The index of the field's message type, for message (and map) fields.
    message: Option<usize>,
}

struct Schema {
    /// Fields of each message, by number.
    messages: Vec<Vec<FieldInfo>>,
    /// For each message, the index in its fields of field numbers below [`DENSE`] (`u16::MAX`: none).
    dense: Vec<[u16; DENSE]>,
    by_name: HashMap<String, usize>,
    /// Package, then the name within it (`Task`, `Task.Inner`): `prost::Name`'s two parts.
    by_package: HashMap<String, HashMap<String, usize>>,
}

/// Field numbers below this are looked up in a table, the rest by binary search.
const DENSE: usize = 64;

impl Schema {
    fn field(&self, message: Option<usize>, number: u32) -> Option<&FieldInfo> {
        let message = message?;
        let fields = &self.messages[message];
        if let Some(&at) = self.dense[message].get(number as usize)
            && at != u16::MAX
        {
            return fields.get(usize::from(at));
        }
        fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()
            .map(|at| &fields[at])
    }
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        #[allow(unused_mut)]
        let mut sets = vec![crate::v1::FILE_DESCRIPTOR_SET];
        #[cfg(feature = "v0_3")]
        sets.push(crate::v0_3::FILE_DESCRIPTOR_SET);
        build_schema(&sets)
    })
}

fn build_schema(sets: &[&[u8]]) -> Schema {
    /// (package, name within it, message) of `message` and everything nested in it.
    fn names(
        package: &str,
        prefix: Option<&str>,
        message: &MessageProto,
        out: &mut Vec<(String, String, MessageProto)>,
    ) {
        let name = match prefix {
            Some(prefix) => format!("{prefix}.{}", message.name),
            None => message.name.clone(),
        };
        for nested in &message.nested_type {
            names(package, Some(&name), nested, out);
        }
        out.push((package.to_owned(), name, message.clone()));
    }
    let mut all = Vec::new();
    for set in sets {
        // The descriptors are generated with the crate: they always decode.
        let set = <FileSet as prost::Message>::decode(*set).unwrap_or_default();
        for file in set.file {
            for message in &file.message_type {
                names(&file.package, None, message, &mut all);
            }
        }
    }
    let mut by_name = HashMap::new();
    let mut by_package: HashMap<String, HashMap<String, usize>> = HashMap::new();
    let mut unique = Vec::new();
    for (package, name, message) in all {
        // google.protobuf types appear in both sets: the first is kept.
        if let std::collections::hash_map::Entry::Vacant(entry) =
            by_name.entry(format!("{package}.{name}"))
        {
            entry.insert(unique.len());
            by_package
                .entry(package)
                .or_default()
                .insert(name, unique.len());
            unique.push(message);
        }
    }
    let messages = unique
        .iter()
        .map(|message| {
            let mut fields: Vec<FieldInfo> = message
                .field
                .iter()
                .map(|field| FieldInfo {
                    number: u32::try_from(field.number).unwrap_or(0),
                    name: if field.json_name.is_empty() {
                        field.name.clone()
                    } else {
                        field.json_name.clone()
                    },
                    repeated: field.label == LABEL_REPEATED,
                    message: (field.r#type == TYPE_MESSAGE)
                        .then(|| {
                            by_name
                                .get(field.type_name.trim_start_matches('.'))
                                .copied()
                        })
                        .flatten(),
                })
                .collect();
            fields.sort_by_key(|f| f.number);
            fields
        })
        .collect::<Vec<_>>();
    let dense = messages
        .iter()
        .map(|fields| {
            let mut table = [u16::MAX; DENSE];
            for (at, field) in fields.iter().enumerate() {
                if let (Some(slot), Ok(at)) =
                    (table.get_mut(field.number as usize), u16::try_from(at))
                {
                    *slot = at;
                }
            }
            table
        })
        .collect();
    Schema {
        messages,
        dense,
        by_name,
        by_package,
    }
}

// ---------------------------------------------------------------------------------------------
// The walk.
// ---------------------------------------------------------------------------------------------

enum Stop {
    /// Over the budget; the path from the field over it outwards.
    Over(Vec<String>),
    /// Not valid protobuf from here on: prost stops here too.
    Malformed,
}

struct Walk<'s> {
    schema: &'s Schema,
    count: usize,
    max: usize,
}

impl Walk<'_> {
    fn message(&mut self, bytes: &[u8], message: Option<usize>, depth: usize) -> Result<(), Stop> {
        let mut reader = Reader::new(bytes);
        while !reader.at_end() {
            let start = reader.position();
            // A field is counted once it is read whole; prost refuses the rest of a malformed input.
            let Ok(Item::Field(field, content)) = reader.read_field(depth) else {
                return Err(Stop::Malformed);
            };
            self.count += 1;
            if self.count > self.max {
                return Err(Stop::Over(vec![self.segment(
                    bytes,
                    start,
                    message,
                    field.number,
                )]));
            }
            let inner = self
                .schema
                .field(message, field.number)
                .and_then(|f| f.message);
            if let (Some(content), Some(inner)) = (content, inner)
                && depth + 1 < PROST_RECURSION_LIMIT
                && let Err(stop) = self.message(content, Some(inner), depth + 1)
            {
                return Err(match stop {
                    Stop::Over(mut trail) => {
                        trail.push(self.segment(bytes, start, message, field.number));
                        Stop::Over(trail)
                    }
                    // prost refuses the inner message, and with it the whole input.
                    Stop::Malformed => Stop::Malformed,
                });
            }
        }
        Ok(())
    }

    /// The path segment of the field starting at `start` of `bytes`: its name, and for a repeated
    /// field its index among the occurrences before it (found by walking `bytes` again: this only
    /// runs once a limit is exceeded).
    fn segment(&self, bytes: &[u8], start: usize, message: Option<usize>, number: u32) -> String {
        let Some(field) = self.schema.field(message, number) else {
            return format!("#{number}");
        };
        if !field.repeated {
            return field.name.clone();
        }
        let mut index = 0;
        let mut reader = Reader::new(bytes);
        while reader.position() < start {
            match reader.read_field(0) {
                Ok(Item::Field(before, _)) if before.number == number => index += 1,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        format!("{}[{index}]", field.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{ListTasksResponse, Message as ProtoMessage, Part, Task, part::Content};
    use prost::Message as _;

    fn message(parts: usize) -> ProtoMessage {
        ProtoMessage {
            message_id: "m-1".into(),
            parts: (0..parts)
                .map(|i| Part {
                    content: Some(Content::Text(format!("part {i}"))),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn every_field_counts_at_every_depth() {
        // message_id, 3 parts, and the text inside each.
        let bytes = message(3).encode_to_vec();
        assert_eq!(
            Limits::default().check_binary::<ProtoMessage>(&bytes),
            Ok(7)
        );
    }

    #[test]
    fn the_element_limit_passes_at_n_and_fails_at_n_plus_1_naming_the_path() {
        let bytes = message(3).encode_to_vec();
        let at = |n| {
            Limits::default()
                .with_max_elements(n)
                .check_binary::<ProtoMessage>(&bytes)
        };
        assert_eq!(at(7), Ok(7));
        let error = at(6).unwrap_err();
        // LimitError is a2a_support's (`#[non_exhaustive]`): compared field by field.
        assert_eq!(
            (error.limit, error.max, error.observed, error.path.as_str()),
            (Limit::Elements, 6, 7, "parts[2].text")
        );
        assert_eq!(error.counted, Counted::ProtobufFields);
        assert_eq!(at(5).unwrap_err().path, "parts[2]");
        assert_eq!(at(0).unwrap_err().path, "messageId");
        assert_eq!(
            at(6).unwrap_err().to_string(),
            "more than 6 protobuf fields (the max_elements limit) at `parts[2].text`"
        );
    }

    #[test]
    fn the_byte_limit_passes_at_n_and_fails_at_n_plus_1() {
        let bytes = message(1).encode_to_vec();
        let n = bytes.len();
        assert!(
            Limits::default()
                .with_max_bytes(n)
                .check_binary::<ProtoMessage>(&bytes)
                .is_ok()
        );
        let error = Limits::default()
            .with_max_bytes(n - 1)
            .check_binary::<ProtoMessage>(&bytes)
            .unwrap_err();
        assert_eq!((error.limit, error.observed), (Limit::Bytes, n));
    }

    #[test]
    fn nested_structs_and_maps_are_walked() {
        let task: Task =
            crate::json::from_str(r#"{"id": "t", "metadata": {"a": {"b": [1, 2, {"c": true}]}}}"#)
                .unwrap();
        let bytes = task.encode_to_vec();
        let count = Limits::default().check_binary::<Task>(&bytes).unwrap();
        // id; metadata (Struct) > fields entry > key, value > struct > entry > key, value > list
        // > 3 values > their kinds, and the inner struct's entry, key, value, kind.
        assert!(count > 15, "{count}");
        let error = Limits::default()
            .with_max_elements(count - 1)
            .check_binary::<Task>(&bytes)
            .unwrap_err();
        assert!(
            error.path.starts_with("metadata.fields[0]."),
            "{}",
            error.path
        );
    }

    #[test]
    fn unknown_fields_and_groups_count_and_malformed_input_stops_quietly() {
        // Field 999 (varint), a group 998 holding a varint (the group counts once: prost skips it
        // unread), then an empty task.
        let mut bytes = vec![0xb8, 0x3e, 0x01, 0xb3, 0x3e, 0x08, 0x01, 0xb4, 0x3e];
        bytes.extend([0x0a, 0x00]);
        let limits = Limits::default();
        assert_eq!(limits.check_binary::<ListTasksResponse>(&bytes), Ok(3));
        assert_eq!(
            ListTasksResponse::decode(bytes.as_slice())
                .unwrap()
                .tasks
                .len(),
            1
        );
        let error = limits
            .with_max_elements(0)
            .check_binary::<ListTasksResponse>(&bytes)
            .unwrap_err();
        assert_eq!(error.path, "#999");
        for bad in [&[0xff][..], &[0x0a, 0x05, 0x00], &[0x0b], &[0x00], &[0x0c]] {
            assert!(limits.check_binary::<ListTasksResponse>(bad).is_ok());
        }
    }

    #[test]
    fn decode_checks_then_decodes() {
        let bytes = [0x0a, 0x00].repeat(10);
        let limits = Limits::default().with_max_elements(10);
        assert_eq!(
            decode::<ListTasksResponse>(&bytes, &limits)
                .unwrap()
                .tasks
                .len(),
            10
        );
        assert!(matches!(
            decode::<ListTasksResponse>(&bytes, &limits.with_max_elements(9)),
            Err(DecodeError::Limit(_))
        ));
        assert!(matches!(
            decode::<ListTasksResponse>(&[0x0a, 0x09], &limits),
            Err(DecodeError::Decode(_))
        ));
    }

    #[test]
    fn the_schema_knows_every_message_of_the_crate() {
        for name in crate::v1::MESSAGE_NAMES {
            assert!(schema().by_name.contains_key(*name), "{name}");
        }
        assert!(schema().by_name.contains_key("google.protobuf.Struct"));
    }
}
