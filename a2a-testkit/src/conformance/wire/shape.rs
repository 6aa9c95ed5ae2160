//! The ProtoJSON shape of an answer, checked against the descriptor of A2A v1's `a2a.proto` (the
//! compiled `FileDescriptorSet` a2a-proto ships): every key a field's camelCase JSON name (§5.5), no
//! key the message lacks (so no v0.3 `kind`), enums as their proto value names (§5.5), timestamps
//! RFC 3339 in UTC (§5.6.1), at most one member of each `oneof` (§4.1.6), repeated fields as arrays
//! and maps as objects, scalars of their JSON types.

use std::collections::HashMap;
use std::sync::OnceLock;

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorSet};
use serde_json::Value;

/// At most this many problems are reported for one answer (the first are the telling ones).
const MAX_PROBLEMS: usize = 8;

/// The messages and enums of `a2a.proto` and its imports, by full name with its leading dot
/// (`.lf.a2a.v1.Task`), as field descriptors name them.
pub(crate) struct Schema {
    messages: HashMap<String, DescriptorProto>,
    enums: HashMap<String, Vec<String>>,
}

impl Schema {
    /// A2A v1's schema, read once.
    pub(crate) fn v1() -> &'static Schema {
        static SCHEMA: OnceLock<Schema> = OnceLock::new();
        SCHEMA.get_or_init(|| {
            // The set is compiled into a2a-proto from the workspace's own proto: it decodes.
            let set =
                FileDescriptorSet::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET).unwrap_or_default();
            let mut schema = Schema {
                messages: HashMap::new(),
                enums: HashMap::new(),
            };
            for file in set.file {
                let scope = format!(".{}", file.package());
                for message in file.message_type {
                    schema.add_message(&scope, message);
                }
                for enumeration in file.enum_type {
                    schema.add_enum(&scope, &enumeration);
                }
            }
            schema
        })
    }

    fn add_message(&mut self, scope: &str, message: DescriptorProto) {
        let name = format!("{scope}.{}", message.name());
        for nested in &message.nested_type {
            self.add_message(&name, nested.clone());
        }
        for enumeration in &message.enum_type {
            self.add_enum(&name, enumeration);
        }
        self.messages.insert(name, message);
    }

    fn add_enum(&mut self, scope: &str, enumeration: &prost_types::EnumDescriptorProto) {
        let values = enumeration
            .value
            .iter()
            .map(|v| v.name().to_owned())
            .collect();
        self.enums
            .insert(format!("{scope}.{}", enumeration.name()), values);
    }

    /// What is wrong with `value` as the ProtoJSON of the message `type_name` (such as
    /// `lf.a2a.v1.Task`); empty when nothing is.
    pub(crate) fn problems(&self, type_name: &str, value: &Value) -> Vec<String> {
        let mut walk = Walk {
            schema: self,
            problems: Vec::new(),
        };
        walk.message(&format!(".{type_name}"), value, type_name);
        walk.problems
    }
}

/// One walk over an answer, collecting what is wrong with it.
struct Walk<'a> {
    schema: &'a Schema,
    problems: Vec<String>,
}

impl Walk<'_> {
    fn problem(&mut self, path: &str, what: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(format!("{path}: {what}"));
        }
    }

    fn message(&mut self, type_name: &str, value: &Value, path: &str) {
        if self.well_known(type_name, value, path) {
            return;
        }
        let Some(descriptor) = self.schema.messages.get(type_name) else {
            self.problem(path, format!("no message {type_name} in a2a.proto"));
            return;
        };
        let Value::Object(object) = value else {
            self.problem(path, format!("expected an object, got {}", kind(value)));
            return;
        };
        let mut members_set: HashMap<i32, Vec<&str>> = HashMap::new();
        for (key, field_value) in object {
            let field_path = format!("{path}.{key}");
            let Some(field) = descriptor.field.iter().find(|f| json_name(f) == *key) else {
                let hint = match descriptor.field.iter().find(|f| f.name() == key) {
                    Some(f) => format!(
                        "the proto name; ProtoJSON writes the camelCase {:?}",
                        json_name(f)
                    ),
                    None if key == "kind" => "v0.3's `kind`, absent from v1".to_owned(),
                    None => format!("no such field in {}", &type_name[1..]),
                };
                self.problem(&field_path, hint);
                continue;
            };
            if field_value.is_null() {
                self.problem(&field_path, "null (ProtoJSON omits unset fields)".into());
                continue;
            }
            if let Some(oneof) = field.oneof_index
                && !field.proto3_optional()
            {
                members_set.entry(oneof).or_default().push(key);
            }
            self.field(field, field_value, &field_path);
        }
        for (oneof, members) in members_set {
            if members.len() > 1 {
                let name = descriptor
                    .oneof_decl
                    .get(oneof as usize)
                    .map(|o| o.name())
                    .unwrap_or("?");
                self.problem(
                    path,
                    format!(
                        "oneof {name} has {} members set: {members:?}",
                        members.len()
                    ),
                );
            }
        }
    }

    fn field(&mut self, field: &FieldDescriptorProto, value: &Value, path: &str) {
        if field.label() == Label::Repeated {
            if let Some(entry) = self.map_entry(field) {
                let Value::Object(entries) = value else {
                    self.problem(
                        path,
                        format!("a map, expected an object, got {}", kind(value)),
                    );
                    return;
                };
                let Some(value_field) = entry.field.iter().find(|f| f.number() == 2).cloned()
                else {
                    return;
                };
                for (key, entry_value) in entries {
                    self.single(&value_field, entry_value, &format!("{path}[{key:?}]"));
                }
                return;
            }
            let Value::Array(items) = value else {
                self.problem(
                    path,
                    format!("repeated, expected an array, got {}", kind(value)),
                );
                return;
            };
            for (index, item) in items.iter().enumerate() {
                self.single(field, item, &format!("{path}[{index}]"));
            }
            return;
        }
        self.single(field, value, path);
    }

    fn map_entry(&self, field: &FieldDescriptorProto) -> Option<&DescriptorProto> {
        if field.r#type() != Type::Message {
            return None;
        }
        let entry = self.schema.messages.get(field.type_name())?;
        entry
            .options
            .as_ref()
            .is_some_and(|o| o.map_entry())
            .then_some(entry)
    }

    fn single(&mut self, field: &FieldDescriptorProto, value: &Value, path: &str) {
        let fits = match field.r#type() {
            Type::Message | Type::Group => {
                self.message(field.type_name(), value, path);
                return;
            }
            Type::Enum => {
                let names = self.schema.enums.get(field.type_name());
                match value {
                    Value::String(name) if names.is_some_and(|n| n.contains(name)) => return,
                    Value::String(name) => {
                        let what =
                            format!("{name:?} is not a value of {}", &field.type_name()[1..]);
                        self.problem(path, what);
                        return;
                    }
                    Value::Number(_) => {
                        let what = format!(
                            "enum as the number {value}; ProtoJSON writes the value's name"
                        );
                        self.problem(path, what);
                        return;
                    }
                    _ => false,
                }
            }
            Type::String => value.is_string(),
            Type::Bytes => value.as_str().is_some_and(is_base64),
            Type::Bool => value.is_boolean(),
            Type::Int32 | Type::Sint32 | Type::Sfixed32 | Type::Uint32 | Type::Fixed32 => {
                value.is_i64() || value.is_u64()
            }
            // 64-bit integers are strings in ProtoJSON; parsers take numbers too.
            Type::Int64 | Type::Sint64 | Type::Sfixed64 | Type::Uint64 | Type::Fixed64 => {
                value.is_i64()
                    || value.is_u64()
                    || value.as_str().is_some_and(|s| s.parse::<i128>().is_ok())
            }
            Type::Float | Type::Double => {
                value.is_number()
                    || matches!(value.as_str(), Some("NaN" | "Infinity" | "-Infinity"))
            }
        };
        if !fits {
            let what = format!("{:?} field holds {}", field.r#type(), kind(value));
            self.problem(path, what);
        }
    }

    /// Checks the well-known types A2A uses by their own JSON forms; `false` for other types.
    fn well_known(&mut self, type_name: &str, value: &Value, path: &str) -> bool {
        match type_name {
            ".google.protobuf.Timestamp" => {
                match value.as_str() {
                    Some(text) if is_rfc3339_utc(text) => {}
                    _ => self.problem(
                        path,
                        format!("timestamp {value}: expected RFC 3339 in UTC (…Z)"),
                    ),
                }
                true
            }
            ".google.protobuf.Struct" => {
                if !value.is_object() {
                    self.problem(path, format!("a Struct holds {}", kind(value)));
                }
                true
            }
            ".google.protobuf.Value" => true,
            ".google.protobuf.ListValue" => {
                if !value.is_array() {
                    self.problem(path, format!("a ListValue holds {}", kind(value)));
                }
                true
            }
            ".google.protobuf.Empty" => {
                if value.as_object().is_none_or(|o| !o.is_empty()) {
                    self.problem(path, format!("Empty holds {value}"));
                }
                true
            }
            _ => false,
        }
    }
}

/// The key ProtoJSON writes for a field: its `json_name` (lowerCamelCase of the proto name).
fn json_name(field: &FieldDescriptorProto) -> String {
    if let Some(name) = &field.json_name {
        return name.clone();
    }
    let mut out = String::new();
    let mut upper = false;
    for c in field.name().chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Standard or URL-safe base64, padded or not.
fn is_base64(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_' | b'='))
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`: RFC 3339 with the UTC designator the specification asks for
/// (§5.6.1: no other offset).
pub(crate) fn is_rfc3339_utc(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        bytes
            .get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let at = |index: usize, expected: u8| bytes.get(index) == Some(&expected);
    let Some(rest) = text.get(19..) else {
        return false;
    };
    let fraction_ok = match rest.strip_suffix('Z') {
        Some("") => true,
        Some(fraction) => {
            fraction.len() > 1
                && fraction.starts_with('.')
                && fraction[1..].bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    };
    digits(0..4)
        && at(4, b'-')
        && digits(5..7)
        && at(7, b'-')
        && digits(8..10)
        && at(10, b'T')
        && digits(11..13)
        && at(13, b':')
        && digits(14..16)
        && at(16, b':')
        && digits(17..19)
        && fraction_ok
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_v1_task_passes_and_each_departure_is_named() {
        let schema = Schema::v1();
        let task = json!({
            "id": "t", "contextId": "c",
            "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-02T03:04:05.678Z"},
            "artifacts": [{"artifactId": "a", "parts": [{"raw": "aGk=", "mediaType": "text/plain"}]}],
            "metadata": {"any": ["thing"]}
        });
        assert_eq!(
            schema.problems("lf.a2a.v1.Task", &task),
            Vec::<String>::new()
        );

        let bad = json!({
            "id": "t", "kind": "task", "context_id": "c",
            "status": {"state": "completed", "timestamp": "2026-01-02 03:04:05+01:00"},
            "artifacts": [{"artifactId": "a", "parts": [{"text": "x", "data": 1}]}]
        });
        let problems = schema.problems("lf.a2a.v1.Task", &bad).join("\n");
        for expected in [
            "lf.a2a.v1.Task.kind: v0.3's `kind`",
            "lf.a2a.v1.Task.context_id: the proto name; ProtoJSON writes the camelCase \"contextId\"",
            "status.state: \"completed\" is not a value of lf.a2a.v1.TaskState",
            "status.timestamp: timestamp",
            "parts[0]: oneof content has 2 members set",
        ] {
            assert!(
                problems.contains(expected),
                "{expected:?} missing from\n{problems}"
            );
        }
    }

    #[test]
    fn timestamps_are_utc_rfc3339() {
        assert!(is_rfc3339_utc("2026-11-29T12:20:36.870591120Z"));
        assert!(is_rfc3339_utc("2026-11-29T12:20:36Z"));
        assert!(!is_rfc3339_utc("2026-11-29T12:20:36+00:00"));
        assert!(!is_rfc3339_utc("2026-11-29T12:20:36.Z"));
        assert!(!is_rfc3339_utc("1764418836"));
    }
}
