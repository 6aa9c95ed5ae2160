//! Conversions between these serde types and the protobuf types of `a2a-proto` (feature `proto`).
//!
//! Every message converts both ways: `From<a2a_types::v1::X> for a2a_proto::v1::X`, and
//! `TryFrom<a2a_proto::v1::X> for a2a_types::v1::X` with a [`ConversionError`] naming the field path.
//! The impls are generated (`src/v1/generated/proto_conversions.rs`); this module holds the error type and the
//! well-known-type conversions they call, which the v0.3 conversions of `a2a-spec-compat` call too.
//!
//! # What does not survive
//!
//! | direction | loss |
//! |---|---|
//! | serde → proto | a JSON number in `data`/`metadata` beyond 2^53 becomes the nearest double (`google.protobuf.Value` holds doubles) |
//! | proto → serde | an absent REQUIRED message field becomes its default (the serde field is plain); a oneof-only message with no member, and NaN or infinite numbers in a `Value`, are errors |

use std::fmt;

use chrono::{DateTime, Utc};

use a2a_proto::wkt;

/// A protobuf message that has no counterpart in the serde types, with the path of the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    /// Path segments, innermost first (built up while the error travels outwards).
    reversed_path: Vec<String>,
    reason: String,
}

impl ConversionError {
    /// An error at the current message.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reversed_path: Vec::new(),
            reason: reason.into(),
        }
    }

    /// The path of the field at fault, such as `status.message.parts[0].data` (empty for the message
    /// itself).
    pub fn path(&self) -> String {
        let mut path = String::new();
        for segment in self.reversed_path.iter().rev() {
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        path
    }

    /// What is wrong.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Places the error inside field `field`.
    pub fn at(mut self, field: &str) -> Self {
        self.reversed_path.push(field.to_owned());
        self
    }

    /// Places the error inside element `index` of list field `field`.
    pub fn at_index(mut self, field: &str, index: usize) -> Self {
        self.reversed_path.push(format!("[{index}]"));
        self.at(field)
    }

    /// Places the error inside the entry `key` of map field `field`.
    pub fn at_key(mut self, field: &str, key: &str) -> Self {
        self.reversed_path.push(format!("[{key:?}]"));
        self.at(field)
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path().as_str() {
            "" => f.write_str(&self.reason),
            path => write!(f, "at `{path}`: {}", self.reason),
        }
    }
}

impl std::error::Error for ConversionError {}

pub fn timestamp_to_proto(time: DateTime<Utc>) -> wkt::Timestamp {
    wkt::Timestamp::from(time)
}

pub fn timestamp_from_proto(timestamp: wkt::Timestamp) -> Result<DateTime<Utc>, ConversionError> {
    timestamp
        .to_datetime()
        .map_err(|e| ConversionError::new(e.to_string()))
}

pub fn value_to_proto(value: serde_json::Value) -> wkt::Value {
    match value {
        serde_json::Value::Null => wkt::Value::null(),
        serde_json::Value::Bool(flag) => wkt::Value::from(flag),
        // The nearest double: exact up to 2^53 (see the module docs).
        serde_json::Value::Number(number) => wkt::Value::from(number.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(text) => wkt::Value::from(text),
        serde_json::Value::Array(items) => wkt::Value::from(wkt::ListValue {
            values: items.into_iter().map(value_to_proto).collect(),
        }),
        serde_json::Value::Object(object) => wkt::Value::from(struct_to_proto(object)),
    }
}

pub fn struct_to_proto(object: crate::JsonObject) -> wkt::Struct {
    // One insert per member: the keys come in order, and `collect` into a `BTreeMap` would gather them
    // in a `Vec`, sort and deduplicate them first, which costs more than the inserts on the small
    // objects `metadata` and `data` hold.
    let mut fields = std::collections::BTreeMap::new();
    for (key, value) in object {
        fields.insert(key, value_to_proto(value));
    }
    wkt::Struct { fields }
}

pub fn value_from_proto(value: wkt::Value) -> Result<serde_json::Value, ConversionError> {
    value_within(value, 0)
}

/// A `wkt::Value` built in code can nest without limit (decoding refuses that); converting one stops at
/// [`crate::MAX_NESTING_DEPTH`] instead of recursing on. `open` counts the objects and arrays around it.
fn value_within(value: wkt::Value, open: usize) -> Result<serde_json::Value, ConversionError> {
    use wkt::value::Kind;
    Ok(match value.kind {
        None | Some(Kind::NullValue(_)) => serde_json::Value::Null,
        Some(Kind::BoolValue(flag)) => serde_json::Value::Bool(flag),
        Some(Kind::StringValue(text)) => serde_json::Value::String(text),
        Some(Kind::NumberValue(number)) => {
            let mut json = serde_json::Number::from_f64(number)
                .map(serde_json::Value::Number)
                .ok_or_else(|| ConversionError::new(format!("{number} has no JSON form")))?;
            crate::protojson::canonicalize_numbers(&mut json);
            json
        }
        Some(Kind::ListValue(_)) | Some(Kind::StructValue(_))
            if open >= crate::MAX_NESTING_DEPTH =>
        {
            return Err(ConversionError::new(crate::protojson::TooDeep.to_string()));
        }
        Some(Kind::ListValue(list)) => serde_json::Value::Array(
            list.values
                .into_iter()
                .enumerate()
                .map(|(index, item)| {
                    value_within(item, open + 1).map_err(|e| e.at(&format!("[{index}]")))
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(Kind::StructValue(object)) => {
            serde_json::Value::Object(struct_within(object, open + 1)?)
        }
    })
}

pub fn struct_from_proto(object: wkt::Struct) -> Result<crate::JsonObject, ConversionError> {
    struct_within(object, 1)
}

/// The members of an object that is itself `open` levels deep.
fn struct_within(object: wkt::Struct, open: usize) -> Result<crate::JsonObject, ConversionError> {
    // Inserted one by one, as in `struct_to_proto`.
    let mut members = crate::JsonObject::new();
    for (key, value) in object.fields {
        let value = value_within(value, open).map_err(|e| e.at(&key))?;
        members.insert(key, value);
    }
    Ok(members)
}
