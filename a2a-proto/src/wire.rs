//! Protobuf wire format read without a schema: the one walker of the workspace, used by the decode
//! budget ([`crate::limits`], which descends into the fields its descriptors say are messages) and by
//! the `a2a` command (which reports the byte offset where binary input stops decoding).
//!
//! [`Reader`] reads one field at a time (keys, varints, fixed 32- and 64-bit values,
//! length-delimited values, groups as prost skips them) by prost's rules, allocating nothing, and
//! stops at the first place where the input is not well-formed, saying why ([`Problem`]): a truncated
//! or over-long varint, a key beyond 32 bits, an invalid wire type, field number 0, a length or
//! fixed-size value running past the end, an unbalanced group, groups nested past prost's limit.
//!
//! [`locate`] finds where decoding fails, for an error line. prost's `DecodeError` names the fields at
//! fault, innermost first (`Message.parts: Task.status: …`), but not the position; it takes two steps:
//!
//! 1. [`walk`] reads the top level of the input, without knowing the message type, up to the first
//!    place where it is not well-formed.
//! 2. Decoding is sequential, so a prefix of the input that ends after a complete top-level field
//!    fails to decode exactly when that field or an earlier one does. A binary search over those
//!    prefixes, decoding each with the real message type, finds the first top-level field whose
//!    value does not decode (a wrong wire type for the field, bad UTF-8 in a string, a malformed
//!    nested message, …).
//!
//! So the reported offset is where the top-level field at fault starts (its key): the first field
//! whose value fails to decode, or, when every complete field before it decodes, the field where the
//! top level stops being well-formed (a group's own malformed content is the one exception: the
//! offset is then the inner key at fault). It never points inside a nested message; prost's text,
//! which an error line quotes, names the nested field.
//!
//! ```
//! use a2a_proto::v1::Task;
//! use prost::Message as _;
//!
//! let mut bytes = Task { id: "t-1".into(), ..Default::default() }.encode_to_vec();
//! bytes.extend([0x1a, 0x05, 0x00]); // `status` (field 3) claims 5 bytes; 1 follows
//! let location = a2a_proto::wire::locate(&bytes, |prefix| Task::decode(prefix).is_ok()).unwrap();
//! assert_eq!(location.offset, 5);
//! assert_eq!(location.detail, "field 3 (length-delimited) needs 5 bytes but only 1 remain");
//! ```

use std::fmt;
use std::ops::Range;

/// prost's limit on nesting, which also applies to groups it skips.
pub const RECURSION_LIMIT: usize = 100;

/// How a field's value is laid out: the low three bits of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireType {
    /// 0: a varint.
    Varint,
    /// 1: eight bytes.
    Fixed64,
    /// 2: a varint length, then that many bytes (strings, bytes, messages, packed lists).
    Len,
    /// 3: fields up to the matching end-group key (proto2 groups; prost skips them when unknown).
    Group,
    /// 5: four bytes.
    Fixed32,
}

impl WireType {
    /// The wire type's name in error messages: `varint`, `fixed64`, `length-delimited`, `group`,
    /// `fixed32`.
    pub fn name(self) -> &'static str {
        match self {
            WireType::Varint => "varint",
            WireType::Fixed64 => "fixed64",
            WireType::Len => "length-delimited",
            WireType::Group => "group",
            WireType::Fixed32 => "fixed32",
        }
    }
}

/// One complete, well-formed field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field number from the key.
    pub number: u32,
    /// The wire type from the key.
    pub wire_type: WireType,
    /// The field's bytes, key included.
    pub span: Range<usize>,
}

/// Which varint a [`Problem`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VarintOf {
    /// A field's key.
    Key,
    /// The value of this field (wire type varint).
    Value(u32),
    /// The length of this field (wire type length-delimited).
    Length(u32),
}

impl fmt::Display for VarintOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarintOf::Key => f.write_str("the field key"),
            VarintOf::Value(number) => write!(f, "the value of field {number}"),
            VarintOf::Length(number) => write!(f, "the length of field {number}"),
        }
    }
}

/// Why the input stops being well-formed wire format.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The input ends inside a varint.
    TruncatedVarint(VarintOf),
    /// A varint of more than ten bytes, or whose tenth byte is above 1.
    OverlongVarint(VarintOf),
    /// A key beyond 32 bits.
    KeyOutOfRange(u64),
    /// Wire type 6 or 7.
    InvalidWireType {
        /// The wire type.
        wire_type: u32,
        /// The field number of the key.
        number: u32,
    },
    /// A key with field number 0.
    FieldNumberZero,
    /// A value longer than what remains of the input.
    PastTheEnd {
        /// The field number.
        number: u32,
        /// How the value is laid out.
        wire_type: WireType,
        /// The bytes the value needs.
        needed: u64,
        /// The bytes that remain.
        remaining: usize,
    },
    /// An end-group key outside any group.
    EndGroupWithoutStart(u32),
    /// A group the input ends inside of.
    GroupNotClosed(u32),
    /// An end-group key of another group inside a group.
    EndGroupInside {
        /// The group the end-group key names.
        end: u32,
        /// The group it is inside of.
        group: u32,
    },
    /// Groups nested past [`RECURSION_LIMIT`].
    GroupsTooDeep,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TruncatedVarint(what) => write!(f, "{what} is a truncated varint"),
            Problem::OverlongVarint(what) => write!(f, "{what} is a varint longer than 64 bits"),
            Problem::KeyOutOfRange(key) => write!(f, "field key {key} is out of range"),
            Problem::InvalidWireType { wire_type, number } => {
                write!(f, "invalid wire type {wire_type} (field {number})")
            }
            Problem::FieldNumberZero => f.write_str("field number 0"),
            Problem::PastTheEnd {
                number,
                wire_type,
                needed,
                remaining,
            } => write!(
                f,
                "field {number} ({}) needs {needed} bytes but only {remaining} remain",
                wire_type.name()
            ),
            Problem::EndGroupWithoutStart(number) => {
                write!(f, "end of group {number} without a start")
            }
            Problem::GroupNotClosed(number) => write!(f, "group {number} is not closed"),
            Problem::EndGroupInside { end, group } => {
                write!(f, "end of group {end} inside group {group}")
            }
            Problem::GroupsTooDeep => write!(f, "groups nested deeper than {RECURSION_LIMIT}"),
        }
    }
}

/// Where and why the input stops being well-formed wire format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Byte offset of the element at fault.
    pub offset: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// The top level of an input: its complete fields, and what ends the walk early, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The well-formed fields from the start, in order.
    pub fields: Vec<Field>,
    /// The first place that is not well-formed; `None` when the fields cover the whole input.
    pub malformed: Option<Malformed>,
}

/// A byte offset and what happens there, for an error line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// What goes wrong at that offset.
    pub detail: String,
}

/// Reads the top level of `bytes` as protobuf wire format.
pub fn walk(bytes: &[u8]) -> Walk {
    let mut fields = Vec::new();
    let mut reader = Reader::new(bytes);
    while !reader.at_end() {
        match reader.read_field(0) {
            Ok(Item::Field(field, _)) => fields.push(field),
            Ok(Item::EndGroup { number, start }) => {
                return Walk {
                    fields,
                    malformed: Some(Malformed {
                        offset: start,
                        problem: Problem::EndGroupWithoutStart(number),
                    }),
                };
            }
            Err(malformed) => {
                return Walk {
                    fields,
                    malformed: Some(malformed),
                };
            }
        }
    }
    Walk {
        fields,
        malformed: None,
    }
}

/// Finds where decoding `bytes` fails, given `decodes`, which tells whether a prefix of the input
/// decodes as the message type (see the module docs). Call it only for input that does not decode;
/// `None` if, against that, every prefix decodes.
pub fn locate(bytes: &[u8], decodes: impl Fn(&[u8]) -> bool) -> Option<Location> {
    let walk = walk(bytes);
    // The empty prefix decodes (an empty message); find the first field whose prefix does not.
    let first_bad = walk
        .fields
        .partition_point(|field| decodes(&bytes[..field.span.end]));
    if let Some(field) = walk.fields.get(first_bad) {
        return Some(Location {
            offset: field.span.start,
            detail: format!(
                "field {} ({}, bytes {}..{}) does not decode",
                field.number,
                field.wire_type.name(),
                field.span.start,
                field.span.end
            ),
        });
    }
    walk.malformed.map(|malformed| Location {
        offset: malformed.offset,
        detail: malformed.problem.to_string(),
    })
}

/// What [`Reader::read_field`] read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// A complete field; for a length-delimited one, its content (a string, bytes, a message, a
    /// packed list) as well.
    Field(Field, Option<&'a [u8]>),
    /// The end-group key of group `number`, which starts at `start`.
    EndGroup {
        /// The group's field number.
        number: u32,
        /// Byte offset of the key.
        start: usize,
    },
}

/// Reads fields one at a time from the start of some bytes (a message's encoding).
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// The offset of the next field.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// A varint as prost reads it: at most ten bytes, the tenth at most 1.
    fn varint(&mut self, what: VarintOf) -> Result<u64, Malformed> {
        let start = self.pos;
        let mut value = 0u64;
        for index in 0..10 {
            let Some(&byte) = self.bytes.get(self.pos) else {
                return Err(Malformed {
                    offset: start,
                    problem: Problem::TruncatedVarint(what),
                });
            };
            self.pos += 1;
            if index == 9 && byte > 1 {
                break;
            }
            value |= u64::from(byte & 0x7f) << (7 * index);
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(Malformed {
            offset: start,
            problem: Problem::OverlongVarint(what),
        })
    }

    /// Skips `len` bytes of the field that starts at `start`.
    fn skip(
        &mut self,
        len: u64,
        start: usize,
        number: u32,
        wire_type: WireType,
    ) -> Result<(), Malformed> {
        let remaining = self.remaining();
        match usize::try_from(len) {
            Ok(len) if len <= remaining => {
                self.pos += len;
                Ok(())
            }
            _ => Err(Malformed {
                offset: start,
                problem: Problem::PastTheEnd {
                    number,
                    wire_type,
                    needed: len,
                    remaining,
                },
            }),
        }
    }

    /// Reads one key and its value (a group with everything in it); `depth` counts the messages and
    /// groups around it, for prost's nesting limit.
    pub fn read_field(&mut self, depth: usize) -> Result<Item<'a>, Malformed> {
        let start = self.pos;
        let key = self.varint(VarintOf::Key)?;
        let malformed = |problem: Problem| Malformed {
            offset: start,
            problem,
        };
        let Ok(key) = u32::try_from(key) else {
            return Err(malformed(Problem::KeyOutOfRange(key)));
        };
        let number = key >> 3;
        // prost's order of checks: the wire type, then the field number.
        let wire_type = match key & 7 {
            0 => Some(WireType::Varint),
            1 => Some(WireType::Fixed64),
            2 => Some(WireType::Len),
            3 => Some(WireType::Group),
            4 => None, // end of a group
            5 => Some(WireType::Fixed32),
            other => {
                return Err(malformed(Problem::InvalidWireType {
                    wire_type: other,
                    number,
                }));
            }
        };
        if number == 0 {
            return Err(malformed(Problem::FieldNumberZero));
        }
        let Some(wire_type) = wire_type else {
            return Ok(Item::EndGroup { number, start });
        };
        let mut content = None;
        match wire_type {
            WireType::Varint => {
                self.varint(VarintOf::Value(number))
                    .map_err(|e| malformed(e.problem))?;
            }
            WireType::Fixed64 => self.skip(8, start, number, wire_type)?,
            WireType::Fixed32 => self.skip(4, start, number, wire_type)?,
            WireType::Len => {
                let len = self
                    .varint(VarintOf::Length(number))
                    .map_err(|e| malformed(e.problem))?;
                let from = self.pos;
                self.skip(len, start, number, wire_type)?;
                content = Some(&self.bytes[from..self.pos]);
            }
            WireType::Group => {
                if depth + 1 >= RECURSION_LIMIT {
                    return Err(malformed(Problem::GroupsTooDeep));
                }
                loop {
                    if self.at_end() {
                        return Err(malformed(Problem::GroupNotClosed(number)));
                    }
                    match self.read_field(depth + 1)? {
                        Item::Field(..) => {}
                        Item::EndGroup { number: end, .. } if end == number => break,
                        Item::EndGroup { number: end, start } => {
                            return Err(Malformed {
                                offset: start,
                                problem: Problem::EndGroupInside { end, group: number },
                            });
                        }
                    }
                }
            }
        }
        Ok(Item::Field(
            Field {
                number,
                wire_type,
                span: start..self.pos,
            },
            content,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::v1::{Message, Part, Task, TaskStatus, part::Content};
    use prost::Message as _;

    fn field(number: u32, wire_type: WireType, span: Range<usize>) -> Field {
        Field {
            number,
            wire_type,
            span,
        }
    }

    fn malformed_at(bytes: &[u8]) -> (usize, String) {
        let malformed = walk(bytes).malformed.expect("malformed");
        (malformed.offset, malformed.problem.to_string())
    }

    #[test]
    fn walks_every_wire_type() {
        let bytes = [
            0x08, 0x96, 0x01, // field 1, varint 150
            0x11, 1, 2, 3, 4, 5, 6, 7, 8, // field 2, fixed64
            0x1a, 0x03, b'a', b'b', b'c', // field 3, length 3
            0x25, 1, 2, 3, 4, // field 4, fixed32
            0x2b, 0x08, 0x01, 0x2c, // field 5, group holding field 1 = 1
        ];
        assert_eq!(
            walk(&bytes),
            Walk {
                fields: vec![
                    field(1, WireType::Varint, 0..3),
                    field(2, WireType::Fixed64, 3..12),
                    field(3, WireType::Len, 12..17),
                    field(4, WireType::Fixed32, 17..22),
                    field(5, WireType::Group, 22..26),
                ],
                malformed: None,
            }
        );
    }

    #[test]
    fn empty_input_is_well_formed() {
        assert_eq!(
            walk(&[]),
            Walk {
                fields: vec![],
                malformed: None
            }
        );
    }

    #[test]
    fn multi_byte_keys() {
        // Field 1000, varint: key 8000 = 0xc0 0x3e.
        let walked = walk(&[0xc0, 0x3e, 0x05]);
        assert_eq!(walked.fields, [field(1000, WireType::Varint, 0..3)]);
    }

    #[test]
    fn truncated_varints() {
        assert_eq!(
            malformed_at(&[0x08, 0x01, 0x80]),
            (2, "the field key is a truncated varint".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x08, 0x01, 0x10, 0xff, 0xff]),
            (2, "the value of field 2 is a truncated varint".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x0a]),
            (0, "the length of field 1 is a truncated varint".to_owned())
        );
    }

    #[test]
    fn over_long_varint() {
        let mut bytes = vec![0x08];
        bytes.extend([0xff; 9]);
        bytes.push(0x02); // a tenth byte above 1 overflows 64 bits
        assert_eq!(
            malformed_at(&bytes),
            (
                0,
                "the value of field 1 is a varint longer than 64 bits".to_owned()
            )
        );
        // The largest value, u64::MAX, is fine.
        bytes[10] = 0x01;
        assert_eq!(walk(&bytes).malformed, None);
    }

    #[test]
    fn values_past_the_end() {
        assert_eq!(
            malformed_at(&[0x08, 0x01, 0x12, 0x05, b'a', b'b']),
            (
                2,
                "field 2 (length-delimited) needs 5 bytes but only 2 remain".to_owned()
            )
        );
        assert_eq!(
            malformed_at(&[0x09, 1, 2, 3]),
            (
                0,
                "field 1 (fixed64) needs 8 bytes but only 3 remain".to_owned()
            )
        );
        assert_eq!(
            malformed_at(&[0x0d, 1, 2, 3]),
            (
                0,
                "field 1 (fixed32) needs 4 bytes but only 3 remain".to_owned()
            )
        );
        // A length beyond what usize or the input can hold.
        let mut bytes = vec![0x0a];
        bytes.extend([0xff; 9]);
        bytes.push(0x01);
        assert_eq!(
            malformed_at(&bytes),
            (
                0,
                format!(
                    "field 1 (length-delimited) needs {} bytes but only 0 remain",
                    u64::MAX
                )
            )
        );
    }

    #[test]
    fn invalid_keys() {
        assert_eq!(
            malformed_at(&[0x08, 0x01, 0x0e]),
            (2, "invalid wire type 6 (field 1)".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x0f]),
            (0, "invalid wire type 7 (field 1)".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x00, 0x01]),
            (0, "field number 0".to_owned())
        );
        // A key above u32::MAX: 2^32 as a varint.
        assert_eq!(
            malformed_at(&[0x80, 0x80, 0x80, 0x80, 0x10]),
            (0, "field key 4294967296 is out of range".to_owned())
        );
    }

    #[test]
    fn unbalanced_groups() {
        assert_eq!(
            malformed_at(&[0x0c]),
            (0, "end of group 1 without a start".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x0b, 0x10, 0x01]),
            (0, "group 1 is not closed".to_owned())
        );
        assert_eq!(
            malformed_at(&[0x0b, 0x14]),
            (1, "end of group 2 inside group 1".to_owned())
        );
        let mut deep = vec![0x0b; RECURSION_LIMIT];
        deep.extend(vec![0x0c; RECURSION_LIMIT]);
        assert_eq!(
            malformed_at(&deep),
            (
                RECURSION_LIMIT - 1,
                "groups nested deeper than 100".to_owned()
            )
        );
    }

    #[test]
    fn walk_keeps_the_fields_before_the_fault() {
        let walked = walk(&[0x08, 0x01, 0x10, 0x02, 0x1a, 0x09]);
        assert_eq!(
            walked.fields,
            [
                field(1, WireType::Varint, 0..2),
                field(2, WireType::Varint, 2..4)
            ]
        );
        assert_eq!(walked.malformed.unwrap().offset, 4);
    }

    fn task() -> Task {
        Task {
            id: "task-1".into(),
            context_id: "ctx-1".into(),
            status: Some(TaskStatus {
                state: 2,
                message: Some(Message {
                    message_id: "m-1".into(),
                    role: 2,
                    parts: vec![Part {
                        content: Some(Content::Text("héllo".into())),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn task_decodes(bytes: &[u8]) -> bool {
        Task::decode(bytes).is_ok()
    }

    #[test]
    fn locates_a_field_whose_payload_does_not_decode() {
        let mut bytes = task().encode_to_vec();
        // id (2 + 6 bytes) and context_id (2 + 5 bytes) come first; status starts at 15.
        assert_eq!(bytes[15], 0x1a);
        let accent = bytes.windows(2).position(|w| w == "é".as_bytes()).unwrap();
        bytes[accent] = 0xff;
        assert!(!task_decodes(&bytes));
        let location = locate(&bytes, task_decodes).unwrap();
        assert_eq!(location.offset, 15);
        assert_eq!(
            location.detail,
            format!(
                "field 3 (length-delimited, bytes 15..{}) does not decode",
                bytes.len()
            )
        );
    }

    #[test]
    fn locates_a_wrong_wire_type_for_a_known_field() {
        // id (field 1) must be length-delimited; here it is a varint, after a valid context_id.
        let bytes = [0x12, 0x01, b'c', 0x08, 0x01];
        assert!(walk(&bytes).malformed.is_none());
        let location = locate(&bytes, task_decodes).unwrap();
        assert_eq!(location.offset, 3);
        assert!(
            location.detail.starts_with("field 1 (varint"),
            "{location:?}"
        );
    }

    #[test]
    fn locates_truncation_at_the_top_level() {
        let bytes = task().encode_to_vec();
        for cut in 1..bytes.len() {
            let truncated = &bytes[..cut];
            let location = locate(truncated, task_decodes);
            if task_decodes(truncated) {
                // Cut exactly between fields: a shorter, valid task.
                assert!(walk(truncated).malformed.is_none(), "cut at {cut}");
                continue;
            }
            let location = location.unwrap_or_else(|| panic!("cut at {cut}"));
            // The fault is in the field the cut goes through: id, context_id or status.
            let expected = [0, 8, 15]
                .into_iter()
                .rev()
                .find(|start| *start < cut)
                .unwrap();
            assert_eq!(location.offset, expected, "cut at {cut}: {location:?}");
        }
    }

    #[test]
    fn an_earlier_bad_field_wins_over_a_later_malformation() {
        // Field 1 as a varint (wrong wire type for Task.id), then a truncated field.
        let bytes = [0x08, 0x01, 0x12, 0x05, b'c'];
        let location = locate(&bytes, task_decodes).unwrap();
        assert_eq!(location.offset, 0);
    }
}
