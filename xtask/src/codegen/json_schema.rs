//! `spec/v1/generated/a2a.json`: a self-contained JSON Schema 2020-12 bundle for A2A v1 JSON, derived from the
//! proto descriptor.
//!
//! Upstream's JSON Schema is a non-normative by-product of the proto (with broken references at the
//! v1.0.x tags), so we derive our own from `spec/v1/a2a.proto`, which is normative. The schema describes
//! canonical ProtoJSON: camelCase names, enums by name, bytes as base64, timestamps as RFC 3339, 64-bit
//! integers as decimal strings (integers accepted too), floats as numbers or `"NaN"`, `"Infinity"`,
//! `"-Infinity"`, and:
//! - `google.api.field_behavior = REQUIRED` becomes `required`, plus non-empty for strings, lists and maps
//!   and "not unspecified" for enums (ProtoJSON omits empty values, so a present required value is never
//!   empty);
//! - each oneof requires exactly one of its members (every A2A oneof means "exactly one is set");
//! - unknown members are allowed, because A2A receivers must ignore unknown fields (spec section 5.7).

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto};
use serde_json::{Map, Value, json};

use super::descriptor::{
    is_map_entry, is_oneof_member, last_segment, map_entry, package_file, required_fields,
};
use super::docs::Comments;
use super::naming::enum_unspecified_value;
use super::proto::{SPEC_INCLUDES, compile_in, source_label};
use super::{GeneratedFile, Mode, REGENERATE, ensure_files};

/// What to derive a schema from, and where it goes.
pub(crate) struct SchemaTarget {
    /// Where to find the proto and its imports, relative to the workspace root; the first is the proto's.
    includes: &'static [&'static str],
    /// The proto, relative to the first include directory.
    spec_file: &'static str,
    /// The protobuf package whose messages the schema describes.
    package: &'static str,
    /// Where the schema goes, relative to the workspace root.
    out_file: &'static str,
    /// The schema's `title`.
    title: &'static str,
}

impl SchemaTarget {
    /// The schema of `package` in `spec/<spec_file>`, written to `out_file`.
    pub(crate) const fn new(
        spec_file: &'static str,
        package: &'static str,
        out_file: &'static str,
        title: &'static str,
    ) -> Self {
        Self {
            includes: SPEC_INCLUDES,
            spec_file,
            package,
            out_file,
            title,
        }
    }

    /// Finds the proto in other include directories (the first one holding it).
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests compile other protos yet")
    )]
    pub(crate) const fn includes(mut self, includes: &'static [&'static str]) -> Self {
        self.includes = includes;
        self
    }

    pub(crate) const fn include_dirs(&self) -> &'static [&'static str] {
        self.includes
    }

    pub(crate) const fn spec_file(&self) -> &'static str {
        self.spec_file
    }

    pub(crate) const fn package(&self) -> &'static str {
        self.package
    }

    pub(crate) const fn out_file(&self) -> &'static str {
        self.out_file
    }
}

/// A2A v1.0: `spec/v1/generated/a2a.json`.
pub(crate) const V1: SchemaTarget = SchemaTarget::new(
    "v1/a2a.proto",
    "lf.a2a.v1",
    "spec/v1/generated/a2a.json",
    "A2A protocol v1.0 (lf.a2a.v1), canonical ProtoJSON",
);

/// Regenerates (or, in check mode, checks) the schema of `target`.
pub(crate) fn generate(target: &SchemaTarget, mode: Mode) -> Result<()> {
    let schema = build(target)?;
    let mut text = serde_json::to_string_pretty(&schema)?;
    text.push('\n');
    ensure_files(
        &[GeneratedFile {
            path: target.out_file.into(),
            contents: text.into_bytes(),
        }],
        mode,
    )
}

/// Builds the schema for `target` as a JSON value.
pub(crate) fn build(target: &SchemaTarget) -> Result<Value> {
    let compiler = compile_in(target.includes, target.spec_file, true)?;
    let set = compiler.file_descriptor_set();
    let file = package_file(&set, target.package)?;
    // Field options with extensions are only visible in the encoded set: prost_types drops extensions.
    let required = required_fields(&compiler.encode_file_descriptor_set(), target.package)?;
    let comments = Comments::of(file);
    let mut defs = Map::new();
    for (index, message) in file.message_type.iter().enumerate() {
        let path = vec![4, index as i32];
        message_schema(
            target.package,
            message,
            &path,
            &comments,
            &required,
            &mut defs,
        )?;
    }
    for (index, enumeration) in file.enum_type.iter().enumerate() {
        let path = vec![5, index as i32];
        insert(
            &mut defs,
            enumeration.name(),
            enum_schema(enumeration, &path, &comments),
        )?;
    }
    insert(
        &mut defs,
        "Timestamp",
        json!({
            "description": "A point in time as RFC 3339 text (google.protobuf.Timestamp). Writers use UTC with a `Z` suffix and 0, 3, 6 or 9 fraction digits; readers accept any offset.",
            "type": "string",
            "format": "date-time"
        }),
    )?;
    insert(
        &mut defs,
        "Struct",
        json!({
            "description": "An arbitrary JSON object (google.protobuf.Struct).",
            "type": "object"
        }),
    )?;
    insert(
        &mut defs,
        "Value",
        json!({
            "description": "Any JSON value, including null (google.protobuf.Value)."
        }),
    )?;
    Ok(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": format!("@generated by `{REGENERATE}` from {}. Do not edit by hand.", source_label(target.includes, target.spec_file)),
        "title": target.title,
        "description": format!(
            "JSON Schema for every message of protobuf package {} in its ProtoJSON form. Each entry of $defs is one message or enum; validate a document against {{\"$ref\": \"#/$defs/<Name>\"}}.",
            target.package
        ),
        "$defs": defs,
    }))
}

fn insert(defs: &mut Map<String, Value>, name: &str, schema: Value) -> Result<()> {
    if defs.insert(name.to_owned(), schema).is_some() {
        bail!("two definitions named {name}: give nested or well-known types distinct names");
    }
    Ok(())
}

fn with_description(mut schema: Value, description: Option<&str>) -> Value {
    if let (Some(text), Some(object)) = (description, schema.as_object_mut()) {
        object.insert("description".into(), text.into());
    }
    schema
}

fn message_schema(
    prefix: &str,
    message: &DescriptorProto,
    path: &[i32],
    comments: &Comments,
    required_fields: &[String],
    defs: &mut Map<String, Value>,
) -> Result<()> {
    let full_name = format!("{prefix}.{}", message.name());
    for nested in &message.nested_type {
        if !is_map_entry(nested) {
            bail!(
                "{full_name}: nested message {} is not supported yet",
                nested.name()
            );
        }
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut oneofs: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for (index, field) in message.field.iter().enumerate() {
        let json_name = field.json_name().to_owned();
        let is_required = required_fields.contains(&format!("{full_name}.{}", field.name()));
        let mut schema = field_schema(message, field)
            .map_err(|e| anyhow!("{full_name}.{}: {e}", field.name()))?;
        if is_required {
            required.push(json_name.clone());
            require_non_empty(&mut schema, field);
        }
        if field.options.as_ref().is_some_and(|o| o.deprecated()) {
            schema["deprecated"] = true.into();
        }
        let field_path = [path, &[2, index as i32]].concat();
        properties.insert(
            json_name.clone(),
            with_description(schema, comments.get(&field_path)),
        );
        if let Some(oneof) = field.oneof_index
            && is_oneof_member(field)
        {
            oneofs.entry(oneof).or_default().push(json_name);
        }
    }
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = required.into();
    }
    match oneofs.len() {
        0 => {}
        1 => {
            let members = oneofs.into_values().next().unwrap_or_default();
            schema["oneOf"] = members
                .iter()
                .map(|m| json!({ "required": [m] }))
                .collect::<Vec<_>>()
                .into();
        }
        _ => {
            schema["allOf"] = oneofs
                .into_values()
                .map(|members| json!({ "oneOf": members.iter().map(|m| json!({ "required": [m] })).collect::<Vec<_>>() }))
                .collect::<Vec<_>>()
                .into();
        }
    }
    insert(
        defs,
        message.name(),
        with_description(schema, comments.get(path)),
    )
}

/// Makes a required field's schema reject the empty value ProtoJSON would have omitted.
fn require_non_empty(schema: &mut Value, field: &FieldDescriptorProto) {
    let object = schema.as_object_mut().expect("field schemas are objects");
    if field.label() == Label::Repeated {
        let key = if object.get("type") == Some(&json!("object")) {
            "minProperties"
        } else {
            "minItems"
        };
        object.insert(key.into(), 1.into());
        return;
    }
    match field.r#type() {
        Type::String => {
            object.insert("minLength".into(), 1.into());
        }
        Type::Enum => {
            let enum_name = last_segment(field.type_name());
            let unspecified = enum_unspecified_value(enum_name);
            object.insert("not".into(), json!({ "const": unspecified }));
        }
        _ => {}
    }
}

fn field_schema(message: &DescriptorProto, field: &FieldDescriptorProto) -> Result<Value> {
    if field.label() == Label::Repeated {
        if let Some(entry) = map_entry(message, field) {
            let value = entry
                .field
                .iter()
                .find(|f| f.number() == 2)
                .ok_or_else(|| anyhow!("map entry without value"))?;
            let key = entry
                .field
                .iter()
                .find(|f| f.number() == 1)
                .ok_or_else(|| anyhow!("map entry without key"))?;
            if key.r#type() != Type::String {
                bail!("maps with non-string keys are not supported yet");
            }
            return Ok(
                json!({ "type": "object", "additionalProperties": singular_schema(value)? }),
            );
        }
        return Ok(json!({ "type": "array", "items": singular_schema(field)? }));
    }
    singular_schema(field)
}

fn singular_schema(field: &FieldDescriptorProto) -> Result<Value> {
    Ok(match field.r#type() {
        Type::String => json!({ "type": "string" }),
        Type::Bool => json!({ "type": "boolean" }),
        Type::Int32 | Type::Sint32 | Type::Sfixed32 => {
            json!({ "type": "integer", "minimum": i32::MIN, "maximum": i32::MAX })
        }
        Type::Uint32 | Type::Fixed32 => {
            json!({ "type": "integer", "format": "uint32", "minimum": 0, "maximum": u32::MAX })
        }
        Type::Int64 | Type::Sint64 | Type::Sfixed64 => json!({
            "type": ["string", "integer"],
            "format": "int64",
            "pattern": "^-?[0-9]+$",
            "minimum": i64::MIN,
            "maximum": i64::MAX
        }),
        Type::Uint64 | Type::Fixed64 => json!({
            "type": ["string", "integer"],
            "format": "uint64",
            "pattern": "^[0-9]+$",
            "minimum": 0,
            "maximum": u64::MAX
        }),
        Type::Double => float_schema("double"),
        Type::Float => float_schema("float"),
        Type::Bytes => json!({
            "type": "string",
            "contentEncoding": "base64",
            "pattern": "^[A-Za-z0-9+/_-]*={0,2}$"
        }),
        Type::Message | Type::Enum => {
            let name = match field.type_name() {
                ".google.protobuf.Timestamp" => "Timestamp",
                ".google.protobuf.Struct" => "Struct",
                ".google.protobuf.Value" => "Value",
                other if other.starts_with(".google.") => {
                    bail!("well-known type {other} is not supported yet")
                }
                other => last_segment(other),
            };
            json!({ "$ref": format!("#/$defs/{name}") })
        }
        other => bail!("fields of type {other:?} are not supported yet"),
    })
}

/// A float: a JSON number, or the name of a value JSON numbers cannot spell.
fn float_schema(format: &str) -> Value {
    json!({
        "format": format,
        "anyOf": [
            { "type": "number" },
            { "type": "string", "enum": ["NaN", "Infinity", "-Infinity"] }
        ]
    })
}

fn enum_schema(enumeration: &EnumDescriptorProto, path: &[i32], comments: &Comments) -> Value {
    let names: Vec<&str> = enumeration.value.iter().map(|v| v.name()).collect();
    let mut description = comments.get(path).unwrap_or_default().to_owned();
    for (index, value) in enumeration.value.iter().enumerate() {
        if let Some(text) = comments.get(&[path, &[2, index as i32]].concat()) {
            description.push_str(&format!(
                "\n- `{}`: {}",
                value.name(),
                text.replace('\n', " ")
            ));
        }
    }
    json!({ "description": description.trim(), "type": "string", "enum": names })
}
