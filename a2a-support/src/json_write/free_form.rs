//! Free-form JSON (`data`, `metadata`) written as ProtoJSON writes `google.protobuf.Value` and
//! `Struct`: integral doubles as integers, everything else as `serde_json` writes a `Value`. These are
//! [`JsonWriter`]'s free-form methods, kept beside the functions they call.

use super::{Error, JsonWriter};
use crate::JsonObject;
use crate::protojson::integral;

impl JsonWriter {
    /// A free-form value (`google.protobuf.Value`), integral doubles as integers (as
    /// `protojson::Canonical`).
    pub fn value(&mut self, value: &serde_json::Value) -> Result<(), Error> {
        write_value(self, value)
    }

    /// A free-form object (`google.protobuf.Struct`: `metadata`), as `protojson::CanonicalObject`.
    pub fn object(&mut self, object: &JsonObject) -> Result<(), Error> {
        write_object(self, object)
    }
}

/// Writes `value` (recursively; values built past [`crate::MAX_NESTING_DEPTH`] by a program are
/// outside what the crates guarantee, as for serde_json's own writer).
fn write_value(out: &mut JsonWriter, value: &serde_json::Value) -> Result<(), Error> {
    match value {
        serde_json::Value::Null => out.bytes.extend_from_slice(b"null"),
        serde_json::Value::Bool(value) => out.bool(*value),
        serde_json::Value::Number(number) => match integral(number) {
            Some(int) => out.serde(&int)?,
            None => out.serde(number)?,
        },
        serde_json::Value::String(text) => out.string(text),
        serde_json::Value::Array(items) => out.array(items, write_value)?,
        serde_json::Value::Object(object) => write_object(out, object)?,
    }
    Ok(())
}

/// Writes a JSON object's members in the map's order (as `serde_json` does).
fn write_object(out: &mut JsonWriter, object: &JsonObject) -> Result<(), Error> {
    out.begin_object();
    let mut first = true;
    for (key, value) in object {
        out.dynamic_key(&mut first, key);
        write_value(out, value)?;
    }
    out.end_object();
    Ok(())
}
