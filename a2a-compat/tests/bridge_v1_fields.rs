//! The bridge's field table (`a2a-compat/src/bridge/fields.rs`) against the v1 descriptor: every field
//! of every v1 message the bridge converts is listed as carried or as lost, so a field a later spec
//! adds fails here by name instead of being dropped in silence; and every field listed as carried
//! comes back unchanged from v1 → v0.3 → v1, on a value with every field set.

#![cfg(feature = "v0_3")]

use std::collections::{BTreeMap, BTreeSet};

use a2a_compat::bridge::{
    DOWNGRADES, UPGRADES, V1_FIELD_LOSSES, V1_FIELDS_CARRIED, downgrade_json, downgrade_json_as,
    upgrade_json,
};
use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorSet};
use serde_json::{Value, json};

const TABLE: &str = "a2a-compat/src/bridge/fields.rs";
const PACKAGE: &str = "lf.a2a.v1";

/// The messages and enums of the v1 descriptor, by full name (nested ones included).
struct Descriptor {
    messages: BTreeMap<String, DescriptorProto>,
    enums: BTreeMap<String, EnumDescriptorProto>,
}

impl Descriptor {
    fn v1() -> Self {
        let set = FileDescriptorSet::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET)
            .expect("a2a-proto's descriptor set decodes");
        let mut descriptor = Descriptor {
            messages: BTreeMap::new(),
            enums: BTreeMap::new(),
        };
        for file in set.file {
            let package = file.package().to_owned();
            for message in file.message_type {
                descriptor.add_message(&package, message);
            }
            for enumeration in file.enum_type {
                let name = format!("{package}.{}", enumeration.name());
                descriptor.enums.insert(name, enumeration);
            }
        }
        descriptor
    }

    fn add_message(&mut self, scope: &str, message: DescriptorProto) {
        let name = format!("{scope}.{}", message.name());
        for nested in &message.nested_type {
            self.add_message(&name, nested.clone());
        }
        for enumeration in &message.enum_type {
            self.enums.insert(
                format!("{name}.{}", enumeration.name()),
                enumeration.clone(),
            );
        }
        self.messages.insert(name, message);
    }

    fn message(&self, name: &str) -> &DescriptorProto {
        &self.messages[name]
    }

    /// The message a field holds (for a map, the entry's value), when it is one of `lf.a2a.v1`.
    fn a2a_message_of(&self, field: &FieldDescriptorProto) -> Option<String> {
        let target = self.value_field(field);
        (target.r#type() == Type::Message)
            .then(|| target.type_name().trim_start_matches('.').to_owned())
            .filter(|name| name.starts_with(&format!("{PACKAGE}.")))
    }

    /// The map entry message of a map field.
    fn map_entry(&self, field: &FieldDescriptorProto) -> Option<&DescriptorProto> {
        if field.r#type() != Type::Message || field.label() != Label::Repeated {
            return None;
        }
        self.messages
            .get(field.type_name().trim_start_matches('.'))
            .filter(|m| m.options.as_ref().is_some_and(|o| o.map_entry()))
    }

    /// The field itself, or for a map field its entry's `value`.
    fn value_field<'a>(&'a self, field: &'a FieldDescriptorProto) -> &'a FieldDescriptorProto {
        match self.map_entry(field) {
            Some(entry) => &entry.field[1],
            None => field,
        }
    }
}

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

fn carried() -> BTreeSet<&'static str> {
    V1_FIELDS_CARRIED.iter().copied().collect()
}

fn lost() -> BTreeSet<&'static str> {
    V1_FIELD_LOSSES.iter().map(|(field, _)| *field).collect()
}

/// The v1 messages the bridge converts: those `upgrade_json` and `downgrade_json` name, and every
/// message a carried field of theirs holds.
fn converted_messages(descriptor: &Descriptor) -> BTreeSet<String> {
    let carried = carried();
    let mut pending: Vec<String> = DOWNGRADES
        .iter()
        .map(|(v1, _)| *v1)
        .chain(UPGRADES.iter().map(|(_, v1)| *v1))
        .filter(|name| descriptor.messages.contains_key(*name))
        .map(str::to_owned)
        .collect();
    let mut seen = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        for field in &descriptor.message(&name).field {
            if carried.contains(format!("{name}.{}", field.name()).as_str()) {
                pending.extend(descriptor.a2a_message_of(field));
            }
        }
    }
    seen
}

#[test]
fn every_field_of_a_converted_message_is_carried_or_listed_as_lost() {
    let descriptor = Descriptor::v1();
    let (carried, lost) = (carried(), lost());
    let messages = converted_messages(&descriptor);
    assert!(
        messages.len() >= 40,
        "only {} messages found: {messages:?}",
        messages.len()
    );

    let mut unlisted = Vec::new();
    let mut all_fields = BTreeSet::new();
    for name in &messages {
        for field in &descriptor.message(name).field {
            let full_name = format!("{name}.{}", field.name());
            if !carried.contains(full_name.as_str()) && !lost.contains(full_name.as_str()) {
                unlisted.push(full_name.clone());
            }
            all_fields.insert(full_name);
        }
    }
    assert!(
        unlisted.is_empty(),
        "fields of v1 messages the bridge converts that are neither carried nor listed as lost: \
         {}.\nConvert each both ways (a2a-compat/src/bridge/objects.rs, card.rs, methods/) and add \
         it to `carried` in {TABLE}, or add it to `lost` there saying what becomes of it.",
        unlisted.join(", ")
    );

    let both: Vec<_> = carried.intersection(&lost).collect();
    assert!(
        both.is_empty(),
        "listed both as carried and as lost in {TABLE}: {both:?}"
    );
    let stale: Vec<_> = carried
        .iter()
        .chain(&lost)
        .filter(|field| !all_fields.contains(**field))
        .collect();
    assert!(
        stale.is_empty(),
        "listed in {TABLE} but not a field of a converted v1 message: {stale:?}"
    );
    assert_eq!(
        carried.len(),
        V1_FIELDS_CARRIED.len(),
        "a field is listed twice as carried"
    );
    assert_eq!(
        lost.len(),
        V1_FIELD_LOSSES.len(),
        "a field is listed twice as lost"
    );
}

/// Values a field must have for its message to convert at all.
fn fixed_value(full_name: &str) -> Option<Value> {
    Some(match full_name {
        // v0.3 names only these three locations.
        "lf.a2a.v1.APIKeySecurityScheme.location" => json!("header"),
        // A card needs an interface a v0.3 client can use.
        "lf.a2a.v1.AgentInterface.protocol_version" => json!("0.3"),
        _ => return None,
    })
}

/// Builds ProtoJSON of a message with every field set to a value other than its default: for each
/// oneof, the member `choices` names, else the first carried one.
struct Sampler<'a> {
    descriptor: &'a Descriptor,
    carried: BTreeSet<&'static str>,
}

impl Sampler<'_> {
    fn message(&self, name: &str, choices: &BTreeMap<i32, String>, depth: usize) -> Value {
        assert!(depth < 12, "{name} nests too deep for a sample");
        let message = self.descriptor.message(name);
        let mut object = serde_json::Map::new();
        for (index, _) in message.oneof_decl.iter().enumerate() {
            let index = index as i32;
            let members: Vec<_> = message
                .field
                .iter()
                .filter(|f| f.oneof_index == Some(index) && !f.proto3_optional())
                .collect();
            if members.is_empty() {
                continue; // the synthetic oneof of a proto3 `optional`
            }
            let chosen = match choices.get(&index) {
                Some(member) => members.iter().find(|f| f.name() == member),
                None => members.iter().find(|f| {
                    self.carried
                        .contains(format!("{name}.{}", f.name()).as_str())
                }),
            };
            if let Some(field) = chosen {
                object.insert(json_name(field), self.field(name, field, depth));
            }
        }
        for field in &message.field {
            if field.oneof_index.is_some() && !field.proto3_optional() {
                continue;
            }
            object.insert(json_name(field), self.field(name, field, depth));
        }
        Value::Object(object)
    }

    fn field(&self, message: &str, field: &FieldDescriptorProto, depth: usize) -> Value {
        let full_name = format!("{message}.{}", field.name());
        if let Some(value) = fixed_value(&full_name) {
            return value;
        }
        if let Some(entry) = self.descriptor.map_entry(field) {
            let value = self.single(&full_name, &entry.field[1], depth);
            return json!({ format!("{}-key", field.name()): value });
        }
        let value = self.single(&full_name, field, depth);
        if field.label() == Label::Repeated {
            json!([value])
        } else {
            value
        }
    }

    fn single(&self, full_name: &str, field: &FieldDescriptorProto, depth: usize) -> Value {
        match field.r#type() {
            Type::String => json!(format!("{}-sample", full_name.rsplit('.').next().unwrap())),
            Type::Bool => json!(true),
            Type::Bytes => json!("aGVsbG8="),
            Type::Double | Type::Float => json!(1.5),
            Type::Int64 | Type::Uint64 | Type::Sint64 | Type::Fixed64 | Type::Sfixed64 => {
                json!("7")
            }
            Type::Enum => {
                let enumeration = &self.descriptor.enums[field.type_name().trim_start_matches('.')];
                let value = enumeration
                    .value
                    .iter()
                    .find(|v| v.number() != 0)
                    .expect("an enum with a value besides its default");
                json!(value.name())
            }
            Type::Message => match field.type_name().trim_start_matches('.') {
                "google.protobuf.Timestamp" => json!("2026-04-01T09:30:00Z"),
                "google.protobuf.Struct" | "google.protobuf.Value" => {
                    json!({"note": "sample", "nested": {"list": ["a", "b"]}})
                }
                name if name.starts_with("google.protobuf.") => json!({}),
                name => self.message(name, &BTreeMap::new(), depth + 1),
            },
            _ => json!(7),
        }
    }
}

/// Compares a carried field's value before and after the round trip, recursing into messages so that
/// a lost field inside a carried one is not compared; records which carried fields were compared.
struct Comparison<'a> {
    descriptor: &'a Descriptor,
    carried: BTreeSet<&'static str>,
    compared: BTreeSet<String>,
    failures: Vec<String>,
}

impl Comparison<'_> {
    fn message(&mut self, name: &str, before: &Value, after: &Value, path: &str) {
        let message = self.descriptor.message(name);
        for field in &message.field {
            let full_name = format!("{name}.{}", field.name());
            if !self.carried.contains(full_name.as_str()) {
                continue;
            }
            let key = json_name(field);
            let Some(expected) = before.get(&key) else {
                continue; // another member of the oneof
            };
            let path = format!("{path}.{key}");
            self.compared.insert(full_name.clone());
            let actual = after.get(&key).unwrap_or(&Value::Null);
            match self.descriptor.a2a_message_of(field) {
                None => {
                    if expected != actual {
                        self.failures.push(format!(
                            "{full_name} at {path}: sent {expected}, got back {actual}"
                        ));
                    }
                }
                Some(inner) => {
                    let pairs: Vec<(String, &Value, &Value)> = match (expected, actual) {
                        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => e
                            .iter()
                            .zip(a)
                            .enumerate()
                            .map(|(i, (e, a))| (format!("{path}[{i}]"), e, a))
                            .collect(),
                        (Value::Object(e), Value::Object(a))
                            if self.descriptor.map_entry(field).is_some()
                                && e.keys().eq(a.keys()) =>
                        {
                            e.iter()
                                .map(|(k, e)| (format!("{path}[{k:?}]"), e, &a[k]))
                                .collect()
                        }
                        (Value::Object(_), Value::Object(_))
                            if self.descriptor.map_entry(field).is_none() =>
                        {
                            vec![(path.clone(), expected, actual)]
                        }
                        _ => {
                            self.failures.push(format!(
                                "{full_name} at {path}: sent {expected}, got back {actual}"
                            ));
                            continue;
                        }
                    };
                    for (path, e, a) in pairs {
                        self.message(&inner, e, a, &path);
                    }
                }
            }
        }
    }
}

/// v1 → v0.3 → v1: to the v0.3 type `downgrade_json` picks, or where that one reads back as another
/// message (`TaskIdParams` is taken as `tasks/cancel` params), to the v0.3 type that reads back as
/// this one (as a whole request where it has to be).
fn round_trip(name: &'static str, sample: &Value) -> Result<Value, String> {
    let (v0_3_type, v0_3) = downgrade_json(name, sample.clone())
        .map_err(|e| format!("{name} does not downgrade: {e}: {sample}"))?;
    let (back_name, back) = upgrade_json(v0_3_type, v0_3.clone())
        .map_err(|e| format!("{name} downgraded to {v0_3_type} does not upgrade: {e}: {v0_3}"))?;
    if back_name == name {
        return Ok(back);
    }
    for (other_type, _) in UPGRADES.iter().filter(|(_, v1)| *v1 == name) {
        let Ok(v0_3) = downgrade_json_as(name, sample.clone(), other_type, Some(1.into())) else {
            continue;
        };
        if let Ok((back_name, back)) = upgrade_json(other_type, v0_3)
            && back_name == name
        {
            return Ok(back);
        }
    }
    Err(format!("no v0.3 form of {name} reads back as {name}"))
}

#[test]
fn every_carried_field_comes_back_from_v0_3_unchanged() {
    let descriptor = Descriptor::v1();
    let sampler = Sampler {
        descriptor: &descriptor,
        carried: carried(),
    };
    let mut comparison = Comparison {
        descriptor: &descriptor,
        carried: carried(),
        compared: BTreeSet::new(),
        failures: Vec::new(),
    };
    for (name, _) in DOWNGRADES {
        let Some(message) = descriptor.messages.get(*name) else {
            continue; // an enum
        };
        // One value per carried member of each oneof of the message itself.
        let mut choices = vec![BTreeMap::new()];
        for (index, _) in message.oneof_decl.iter().enumerate() {
            for member in message.field.iter().filter(|f| {
                f.oneof_index == Some(index as i32)
                    && !f.proto3_optional()
                    && sampler
                        .carried
                        .contains(format!("{name}.{}", f.name()).as_str())
            }) {
                choices.push(BTreeMap::from([(index as i32, member.name().to_owned())]));
            }
        }
        for choice in choices {
            let sample = sampler.message(name, &choice, 0);
            match round_trip(name, &sample) {
                Ok(back) => comparison.message(name, &sample, &back, name),
                Err(error) => comparison.failures.push(error),
            }
        }
    }
    assert!(
        comparison.failures.is_empty(),
        "fields listed as carried in {TABLE} that v1 → v0.3 → v1 changes:\n{}",
        comparison.failures.join("\n")
    );
    let never: Vec<_> = V1_FIELDS_CARRIED
        .iter()
        .filter(|field| !comparison.compared.contains(**field))
        .collect();
    assert!(
        never.is_empty(),
        "fields listed as carried in {TABLE} that no round trip here reached: {never:?}"
    );
}
