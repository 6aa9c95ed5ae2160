//! Property-test strategies read from a JSON Schema at run time: for any definition of
//! `spec/v0_3/a2a.json` (or of v0.2's and v0.1's), JSON documents that the schema accepts and that set every optional member in
//! some cases (and leave it out in others), every union variant, every enum value.
//!
//! Documents are canonical for the v0.3 wire form, so a correct reader and writer give them back
//! unchanged: optional members are absent or non-null (`null` means absent), constant members and
//! members with a schema default are always present (writers always write them).

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::strategy;

/// Strategies for the definitions of one schema (draft-07 `definitions`).
pub struct SchemaValues {
    root: Value,
    /// Strategies for members by name, replacing what the schema says (for strings that must be
    /// timestamps, integers that must fit 32 bits, ...).
    members: Vec<(String, BoxedStrategy<Value>)>,
    /// Members always generated, even where the schema makes them optional.
    always: Vec<String>,
    /// Whether a member with a schema default may be left out (v0.1's types keep it as read, where
    /// later versions' writers always write it).
    defaults_optional: bool,
}

impl SchemaValues {
    pub fn new(root: Value) -> Self {
        Self {
            root,
            members: Vec::new(),
            always: Vec::new(),
            defaults_optional: false,
        }
    }

    /// Always generates members called `name`, optional or not.
    pub fn always(mut self, name: &str) -> Self {
        self.always.push(name.to_owned());
        self
    }

    /// Generates every member called `name` with `strategy` instead of from its schema.
    pub fn with_member(mut self, name: &str, strategy: BoxedStrategy<Value>) -> Self {
        self.members.push((name.to_owned(), strategy));
        self
    }

    /// Documents of a schema location: a definition (`Task`), a member of one
    /// (`SendMessageSuccessResponse.result`), the items of an array member (`AgentCard.security[]`), or
    /// the values of those items' maps (`AgentCard.security[].*`).
    pub fn location(&self, location: &str) -> BoxedStrategy<Value> {
        let mut parts = location.split('.');
        let definition = parts.next().unwrap_or_default();
        let mut schema = self.root["definitions"][definition].clone();
        assert!(!schema.is_null(), "no definition {definition}");
        for part in parts {
            schema = if part == "*" {
                schema["additionalProperties"].clone()
            } else if let Some(member) = part.strip_suffix("[]") {
                self.resolve(&schema)["properties"][member]["items"].clone()
            } else {
                self.resolve(&schema)["properties"][part].clone()
            };
            assert!(!schema.is_null(), "no schema at {location}");
        }
        self.schema(&schema)
    }

    fn resolve(&self, schema: &Value) -> Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.trim_start_matches("#/definitions/");
                self.root["definitions"][name].clone()
            }
            None => schema.clone(),
        }
    }

    /// The v0.3 JSON-RPC schema of this workspace.
    pub fn v0_3() -> Self {
        let text = std::fs::read_to_string(crate::workspace_root().join("spec/v0_3/a2a.json"))
            .expect("reading spec/v0_3/a2a.json");
        Self::new(serde_json::from_str(&text).expect("spec/v0_3/a2a.json is JSON"))
    }

    /// The v0.2 JSON-RPC schema of this workspace (`spec/v0_2/a2a.json`).
    pub fn v0_2() -> Self {
        Self::new(read_spec("v0_2/a2a.json"))
    }

    /// The v0.1 JSON-RPC schema of this workspace (`spec/v0_1/a2a.json`), its `$defs` read as
    /// `definitions`; members with a default are generated present or absent.
    pub fn v0_1() -> Self {
        let mut root = read_spec("v0_1/a2a.json");
        let text = serde_json::to_string(&root["$defs"]).expect("JSON");
        root["definitions"] =
            serde_json::from_str(&text.replace("#/$defs/", "#/definitions/")).expect("still JSON");
        root.as_object_mut().expect("a schema").remove("$defs");
        Self {
            defaults_optional: true,
            ..Self::new(root)
        }
    }

    /// The names of every definition.
    pub fn definitions(&self) -> Vec<String> {
        self.root["definitions"]
            .as_object()
            .map(|d| d.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn root(&self) -> &Value {
        &self.root
    }

    /// Documents valid against definition `name`.
    pub fn definition(&self, name: &str) -> BoxedStrategy<Value> {
        self.schema(&self.root["definitions"][name])
    }

    fn schema(&self, schema: &Value) -> BoxedStrategy<Value> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference
                .strip_prefix("#/definitions/")
                .unwrap_or_else(|| panic!("unsupported $ref {reference}"));
            return self.definition(name);
        }
        if let Some(value) = schema.get("const") {
            return Just(value.clone()).boxed();
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            return proptest::sample::select(values.clone()).boxed();
        }
        if let Some(Value::Array(variants)) = schema.get("anyOf").or_else(|| schema.get("oneOf")) {
            let strategies: Vec<BoxedStrategy<Value>> =
                variants.iter().map(|v| self.schema(v)).collect();
            return proptest::strategy::Union::new(strategies).boxed();
        }
        match schema.get("type") {
            Some(Value::String(ty)) => self.typed(ty, schema),
            Some(Value::Array(types)) => {
                let strategies: Vec<BoxedStrategy<Value>> = types
                    .iter()
                    .map(|t| self.typed(t.as_str().expect("type names are strings"), schema))
                    .collect();
                proptest::strategy::Union::new(strategies).boxed()
            }
            // `{}`: anything.
            _ => strategy::json_value(),
        }
    }

    fn typed(&self, ty: &str, schema: &Value) -> BoxedStrategy<Value> {
        match ty {
            "object" => self.object(schema),
            "array" => proptest::collection::vec(self.schema(&schema["items"]), 0..3)
                .prop_map(Value::Array)
                .boxed(),
            "string" => strategy::string().prop_map(Value::String).boxed(),
            "integer" => (-(1i64 << 53)..(1i64 << 53)).prop_map(Value::from).boxed(),
            "number" => strategy::json_value()
                .prop_filter("a number", Value::is_number)
                .boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "null" => Just(Value::Null).boxed(),
            other => panic!("unsupported schema type {other}"),
        }
    }

    fn object(&self, schema: &Value) -> BoxedStrategy<Value> {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut members: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                let value = match self.members.iter().find(|(member, _)| member == name) {
                    Some((_, strategy)) => strategy.clone(),
                    None => self.schema(property),
                };
                let present = required.contains(&name.as_str())
                    || self.always.contains(name)
                    || (property.get("default").is_some() && !self.defaults_optional)
                    || property.get("const").is_some();
                let name = name.clone();
                members.push(if present {
                    value.prop_map(move |v| Some((name.clone(), v))).boxed()
                } else {
                    let entry = value
                        // `null` in an optional member means absent: not canonical.
                        .prop_filter("non-null", |v| !v.is_null())
                        .prop_map(move |v| Some((name.clone(), v)));
                    prop_oneof![Just(None), entry].boxed()
                });
            }
        }
        let extra = match schema.get("additionalProperties") {
            Some(Value::Object(values)) if schema.get("properties").is_none() => {
                let values = Value::Object(values.clone());
                proptest::collection::btree_map(strategy::string(), self.schema(&values), 0..3)
                    .prop_map(|m| m.into_iter().collect::<Vec<_>>())
                    .boxed()
            }
            _ => Just(Vec::new()).boxed(),
        };
        (members, extra)
            .prop_map(|(members, extra)| {
                let mut object = Map::new();
                object.extend(extra);
                object.extend(members.into_iter().flatten());
                Value::Object(object)
            })
            .boxed()
    }
}

fn read_spec(relative: &str) -> Value {
    let path = crate::workspace_root().join("spec").join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}
