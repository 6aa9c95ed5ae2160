//! Queries on protobuf descriptors that several generators ask: which file holds a package, which
//! fields are oneof members or maps, which are REQUIRED, which messages a package declares.

use anyhow::{Result, anyhow};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet};

/// The `google.api.FieldBehavior` value that marks a field required.
const REQUIRED: i32 = 2;
/// Field number of the `google.api.field_behavior` extension on `FieldOptions`.
const FIELD_BEHAVIOR_EXTENSION: u32 = 1052;

/// Messages whose fields are written to JSON even at their default value, where the spec asks for
/// every field in every answer: `ListTasksResponse` (section 3.1.4: `nextPageToken` "MUST always be
/// present", `""` on the last page; its other fields are REQUIRED too, and the official SDK writes
/// the response with every field). Both JSON encoders (`a2a-types`, `a2a-proto`) follow it.
const WRITTEN_IN_FULL: &[&str] = &["lf.a2a.v1.ListTasksResponse"];

/// Whether the message of this full name is written in full ([`WRITTEN_IN_FULL`]).
pub(crate) fn is_written_in_full(full_name: &str) -> bool {
    WRITTEN_IN_FULL.contains(&full_name)
}

/// The file of `package` in a compiled descriptor set.
pub(crate) fn package_file<'a>(
    descriptors: &'a FileDescriptorSet,
    package: &str,
) -> Result<&'a FileDescriptorProto> {
    descriptors
        .file
        .iter()
        .find(|f| f.package() == package)
        .ok_or_else(|| anyhow!("no file of package {package} in the descriptor set"))
}

/// Whether a field holds a `google.protobuf.Value` directly (not in a list or map).
pub(crate) fn is_singular_value(field: &FieldDescriptorProto) -> bool {
    field.r#type() == Type::Message
        && field.type_name() == ".google.protobuf.Value"
        && field.label() != Label::Repeated
}

/// Full names (`lf.a2a.v1.Task.id`) of the fields marked `google.api.field_behavior = REQUIRED`.
pub(crate) fn required_fields(encoded_set: &[u8], package: &str) -> Result<Vec<String>> {
    let pool = prost_reflect::DescriptorPool::decode(encoded_set)?;
    let mut required = Vec::new();
    for message in pool.all_messages().filter(|m| m.package_name() == package) {
        for field in message.fields() {
            let options = field.options();
            let behaviors = options.extensions().find_map(|(extension, value)| {
                (extension.number() == FIELD_BEHAVIOR_EXTENSION).then(|| value.clone())
            });
            let is_required = behaviors
                .as_ref()
                .and_then(|v| v.as_list())
                .is_some_and(|list| list.iter().any(|b| b.as_enum_number() == Some(REQUIRED)));
            if is_required {
                required.push(field.full_name().to_owned());
            }
        }
    }
    if required.is_empty() {
        return Err(anyhow!(
            "no REQUIRED field found in {package}: is the google.api.field_behavior extension compiled?"
        ));
    }
    Ok(required)
}

/// Full names of the messages `file` declares, nested ones included, in declaration order (map entries
/// excluded).
pub(crate) fn message_names(file: &FileDescriptorProto) -> Vec<String> {
    let mut names = Vec::new();
    for message in &file.message_type {
        collect_message_names(file.package(), message, &mut names);
    }
    names
}

fn collect_message_names(prefix: &str, message: &DescriptorProto, names: &mut Vec<String>) {
    if is_map_entry(message) {
        return;
    }
    let name = format!("{prefix}.{}", message.name());
    names.push(name.clone());
    for nested in &message.nested_type {
        collect_message_names(&name, nested, names);
    }
}

/// Whether a message is the synthetic entry type of a map field.
pub(crate) fn is_map_entry(message: &DescriptorProto) -> bool {
    message.options.as_ref().is_some_and(|o| o.map_entry())
}

/// The last segment of a full type name (`.lf.a2a.v1.Task` → `Task`).
pub(crate) fn last_segment(type_name: &str) -> &str {
    type_name.rsplit('.').next().unwrap_or(type_name)
}

/// The synthetic map-entry message of a map field.
pub(crate) fn map_entry<'a>(
    message: &'a DescriptorProto,
    field: &FieldDescriptorProto,
) -> Option<&'a DescriptorProto> {
    if field.r#type() != Type::Message {
        return None;
    }
    let entry_name = field.type_name().rsplit('.').next()?;
    message
        .nested_type
        .iter()
        .find(|n| n.name() == entry_name && is_map_entry(n))
}

/// Whether a field is a member of a real oneof (not the synthetic oneof of a proto3 `optional`).
pub(crate) fn is_oneof_member(field: &FieldDescriptorProto) -> bool {
    field.oneof_index.is_some() && !field.proto3_optional()
}

/// Whether a field is a member of the real oneof number `oneof` of its message.
pub(crate) fn is_member_of(field: &FieldDescriptorProto, oneof: usize) -> bool {
    field.oneof_index == Some(oneof as i32) && is_oneof_member(field)
}

/// The members of oneof number `oneof` of `message`, in declaration order; empty for the synthetic
/// oneof of a proto3 `optional` field.
pub(crate) fn oneof_members(message: &DescriptorProto, oneof: usize) -> Vec<&FieldDescriptorProto> {
    message
        .field
        .iter()
        .filter(|f| is_member_of(f, oneof))
        .collect()
}
