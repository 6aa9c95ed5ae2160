//! Target `types-v1`: `a2a-types/src/v1/generated/` (serde types for A2A v1 and their registry,
//! conversions to `a2a-proto` and validation) and `tests/src/generated/strategies_v1.rs`, from
//! `spec/v1/a2a.proto`.
//!
//! The structs come from `typify`, run over the JSON Schema [`json_schema`] derives from the proto (the
//! one it writes to `spec/v1/generated/a2a.json`). typify 0.8 cannot express some ProtoJSON rules, so
//! the pipeline has three parts:
//! 1. [`typify_input`] rewrites the schema into the shape typify handles (draft-07 `definitions`, no
//!    validation-only keywords, numbers by `format`, oneofs and enums as named placeholders);
//! 2. typify generates the message structs, with docs, names and derives (replacements in
//!    [`typify()`]); enums and oneofs are typify *replacements* pointing at types that [`unions`]
//!    emits itself (open enums that keep unknown numbers, oneof enums whose serde follows ProtoJSON);
//! 3. [`fields`] sets each struct field's serde attributes from the descriptor, so defaults are
//!    omitted, `null` means absent and snake_case names are accepted, exactly as ProtoJSON does.
//!
//! The other files come from the descriptor alone, each from its own module: [`convert`],
//! [`validation`], [`strategies`], the ProtoJSON encoders from [`writer`], and the registry from [`proto::registry`], all classifying fields
//! through [`field_shape`].

mod convert;
mod field_shape;
mod fields;
mod strategies;
mod unions;
mod validation;
mod writer;

use std::collections::BTreeMap;

use anyhow::{Context, Result, anyhow};
use prost_types::FileDescriptorSet;
use serde_json::{Map, Value, json};

use super::descriptor::{is_oneof_member, oneof_members, package_file, required_fields};
use super::docs::Comments;
use super::json_schema::{self, SchemaTarget};
use super::naming::{lower_camel, oneof_type_name};
use super::proto::{self, compile_in};
use super::syntax::path_string;
use super::typify::Typify;
use super::{GeneratedFile, Mode, ensure_files, format_rust, header};
use field_shape::Package;

/// What to generate for one protobuf package: the serde types and everything paired with them.
pub(crate) struct TypesTarget {
    /// The schema the types are generated from (and its proto).
    schema: &'static SchemaTarget,
    /// Rust module (inside `a2a-types`) the generated code lives in.
    module: &'static str,
    /// Where the generated files go, relative to the workspace root.
    out_dir: &'static str,
    /// Where the property-test strategies go (in the workspace's tests crate).
    strategies_file: &'static str,
}

impl TypesTarget {
    /// The types of `schema`'s package, as `a2a_types::v1`.
    pub(crate) const fn new(schema: &'static SchemaTarget) -> Self {
        Self {
            schema,
            module: "crate::v1",
            out_dir: "a2a-types/src/v1/generated",
            strategies_file: "tests/src/generated/strategies_v1.rs",
        }
    }

    /// The Rust module (inside `a2a-types`) the generated code lives in.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests generate another package yet")
    )]
    pub(crate) const fn module(mut self, module: &'static str) -> Self {
        self.module = module;
        self
    }

    /// Where the generated files go, relative to the workspace root.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests generate another package yet")
    )]
    pub(crate) const fn out_dir(mut self, out_dir: &'static str) -> Self {
        self.out_dir = out_dir;
        self
    }

    /// Where the property-test strategies go.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests generate another package yet")
    )]
    pub(crate) const fn strategies_file(mut self, strategies_file: &'static str) -> Self {
        self.strategies_file = strategies_file;
        self
    }
}

/// A2A v1: `a2a_types::v1`.
pub(crate) const V1: TypesTarget = TypesTarget::new(&json_schema::V1);

/// How each schema definition that typify must not generate itself is mapped.
pub(crate) enum Replacement {
    /// A proto enum: an open enum emitted by [`unions`].
    Enum,
    /// A message that is only a oneof: an enum emitted by [`unions`].
    OneofMessage,
    /// The oneof inside a message with other fields: an enum emitted by [`unions`].
    Oneof,
    /// A well-known type mapped to a hand-written or library type.
    WellKnown(&'static str),
}

const WELL_KNOWN: &[(&str, &str)] = &[
    ("Timestamp", "crate::Timestamp"),
    ("Struct", "crate::JsonObject"),
    ("Value", "::serde_json::Value"),
];

/// Regenerates (or, in check mode, checks) the files of `target`.
pub(crate) fn generate(target: &TypesTarget, mode: Mode) -> Result<()> {
    ensure_files(&generate_files(target)?, mode)
}

pub(crate) fn generate_files(target: &TypesTarget) -> Result<Vec<GeneratedFile>> {
    let compiler = compile_in(
        target.schema.include_dirs(),
        target.schema.spec_file(),
        true,
    )?;
    let descriptors = compiler.file_descriptor_set();
    let file = package_file(&descriptors, target.schema.package())?;
    let required = required_fields(
        &compiler.encode_file_descriptor_set(),
        target.schema.package(),
    )?;
    let schema = json_schema::build(target.schema)?;
    let (input, replacements) = typify_input(&schema, &descriptors, target.schema.package())?;
    // The same Rust names as the protobuf types, so `a2a_types::v1::X` pairs with `a2a_proto::v1::X`.
    let prost = proto::generate_messages(
        &proto::ProtoTarget::new(target.schema.spec_file(), target.schema.package()),
        &descriptors,
    )?;
    let rust_names: BTreeMap<String, String> = proto::rust_message_names(&prost)?
        .into_iter()
        .map(|(full_name, path)| (full_name, path_string(&path)))
        .collect();

    let mut structs = typify(target, &replacements).generate(input, "the rewritten schema")?;
    let oneof_messages = oneof_messages(&replacements, target.schema.package());
    let package = Package {
        name: target.schema.package(),
        required: &required,
        oneof_messages: &oneof_messages,
        rust_names: &rust_names,
    };
    fields::adjust(&mut structs, file, &package)?;
    let unions: syn::File = syn::parse2(unions::emit(file, &Comments::of(file), &rust_names)?)
        .context("parsing the emitted unions")?;

    let label = format!(
        "{} (typify over the JSON Schema derived from it, {})",
        proto::source_label(target.schema.include_dirs(), target.schema.spec_file()),
        target.schema.out_file()
    );
    let rust_file = |name: &str, code: &syn::File| GeneratedFile {
        path: format!("{}/{name}", target.out_dir).into(),
        contents: format!("{}{}", header(&label), format_rust(code)).into_bytes(),
    };
    let paths = rust_names
        .iter()
        .map(|(full_name, ident)| Ok((full_name.clone(), syn::parse_str::<syn::Path>(ident)?)))
        .collect::<Result<BTreeMap<_, _>>>()?;
    let registry = proto::registry(
        file,
        &paths,
        Some(quote::quote!(crate::registry::A2aMessage)),
    )?;
    let validation: syn::File =
        syn::parse2(validation::emit(file, &package)?).context("parsing the emitted validation")?;
    let strategies: syn::File =
        syn::parse2(strategies::emit(file, &package)?).context("parsing the emitted strategies")?;
    let encoders: syn::File =
        syn::parse2(writer::emit(file, &package)?).context("parsing the emitted encoders")?;
    let conversions: syn::File = syn::parse2(convert::emit(file, &package, &prost)?)
        .context("parsing the emitted conversions")?;
    Ok(vec![
        rust_file("types.rs", &structs),
        rust_file("unions.rs", &unions),
        rust_file("registry.rs", &registry),
        rust_file("proto_conversions.rs", &conversions),
        rust_file("validate.rs", &validation),
        rust_file("json_write.rs", &encoders),
        GeneratedFile {
            path: target.strategies_file.into(),
            // Derived from the descriptor alone, not from typify's output.
            contents: format!(
                "{}{}",
                header(&proto::source_label(
                    target.schema.include_dirs(),
                    target.schema.spec_file()
                )),
                format_rust(&strategies)
            )
            .into_bytes(),
        },
    ])
}

/// typify with the replacements: well-known types by their Rust paths, the rest by the types
/// [`unions`] emits into the target's module.
fn typify(target: &TypesTarget, replacements: &BTreeMap<String, Replacement>) -> Typify {
    replacements
        .iter()
        .fold(Typify::new(), |typify, (name, replacement)| {
            let path = match replacement {
                Replacement::WellKnown(path) => (*path).to_owned(),
                _ => format!("{}::{name}", target.module),
            };
            typify.replace(name, &path)
        })
}

/// Rewrites the published schema into typify's input, returning it with the definitions typify must
/// not generate.
pub(crate) fn typify_input(
    schema: &Value,
    descriptors: &FileDescriptorSet,
    package: &str,
) -> Result<(Value, BTreeMap<String, Replacement>)> {
    let file = package_file(descriptors, package)?;
    let mut defs: Map<String, Value> = schema["$defs"]
        .as_object()
        .ok_or_else(|| anyhow!("schema without $defs"))?
        .clone();
    let mut replacements = BTreeMap::new();
    for (name, path) in WELL_KNOWN {
        replacements.insert((*name).to_owned(), Replacement::WellKnown(path));
    }
    for enumeration in &file.enum_type {
        replacements.insert(enumeration.name().to_owned(), Replacement::Enum);
    }
    for message in &file.message_type {
        let member_json_names: Vec<&str> = message
            .field
            .iter()
            .filter(|f| is_oneof_member(f))
            .map(|f| f.json_name())
            .collect();
        if member_json_names.is_empty() {
            continue;
        }
        if member_json_names.len() == message.field.len() && message.oneof_decl.len() == 1 {
            replacements.insert(message.name().to_owned(), Replacement::OneofMessage);
            continue;
        }
        // A message with a oneof and other fields: the members become one property holding the oneof enum.
        let def = defs
            .get_mut(message.name())
            .and_then(Value::as_object_mut)
            .ok_or_else(|| anyhow!("no schema for {}", message.name()))?;
        def.remove("oneOf");
        let properties = def["properties"]
            .as_object_mut()
            .expect("message schemas have properties");
        for member in &member_json_names {
            properties.remove(*member);
        }
        for (index, oneof) in message.oneof_decl.iter().enumerate() {
            if oneof_members(message, index).is_empty() {
                continue; // the synthetic oneof of a proto3 `optional` field
            }
            let enum_name = oneof_type_name(message.name(), oneof.name());
            properties.insert(
                lower_camel(oneof.name()),
                json!({ "$ref": format!("#/$defs/{enum_name}"), "description": format!("Which kind of `{}` this is; see [`{enum_name}`].", oneof.name()) }),
            );
            replacements.insert(enum_name, Replacement::Oneof);
        }
    }
    // A oneof-only message has no default value, so a REQUIRED field of that type stays an `Option`;
    // the requirement is checked by validation, like every other.
    let oneof_only: Vec<String> = replacements
        .iter()
        .filter(|(_, r)| matches!(r, Replacement::OneofMessage))
        .map(|(name, _)| format!("#/$defs/{name}"))
        .collect();
    for def in defs.values_mut() {
        let Some(properties) = def.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let optional: Vec<String> = properties
            .iter()
            .filter(|(_, p)| {
                p.get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| oneof_only.iter().any(|o| o == r))
            })
            .map(|(name, _)| name.clone())
            .collect();
        if let Some(Value::Array(required)) = def.get_mut("required") {
            required.retain(|r| !optional.iter().any(|o| r == o));
        }
    }
    for (name, replacement) in &replacements {
        // typify resolves replacements by definition name, so each needs a (placeholder) definition.
        if matches!(replacement, Replacement::Oneof) {
            defs.insert(name.clone(), json!({ "type": "object" }));
        }
    }
    let mut input = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": defs,
    });
    strip_for_typify(&mut input);
    Ok((input, replacements))
}

/// Full names of the messages that are nothing but a oneof (and so Rust enums).
fn oneof_messages(replacements: &BTreeMap<String, Replacement>, package: &str) -> Vec<String> {
    replacements
        .iter()
        .filter(|(_, r)| matches!(r, Replacement::OneofMessage))
        .map(|(name, _)| format!("{package}.{name}"))
        .collect()
}

/// The numeric `format`s of the published schema, with the JSON type typify must see for each (the
/// published schema also admits the string forms, which typify would turn into an untagged enum).
const NUMBER_FORMATS: &[(&str, &str)] = &[
    ("uint32", "integer"),
    ("int64", "integer"),
    ("uint64", "integer"),
    ("float", "number"),
    ("double", "number"),
];

/// Removes what typify would turn into validating newtypes or cannot read (validation is a separate step
/// in this crate; parsing stays as lenient as ProtoJSON), and points references at `definitions`.
fn strip_for_typify(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let number_format = object.get("format").and_then(|format| {
                NUMBER_FORMATS
                    .iter()
                    .find(|(name, _)| format == name)
                    .copied()
            });
            if let Some((_, json_type)) = number_format {
                // The Rust type follows from `format` alone (typify: `int64` → `i64`, `float` → `f32`).
                object.insert("type".into(), json_type.into());
                object.remove("anyOf");
            }
            for keyword in [
                "minLength",
                "minItems",
                "minProperties",
                "pattern",
                "contentEncoding",
                "not",
                "deprecated",
                "oneOf",
            ] {
                object.remove(keyword);
            }
            // typify maps `date-time` to a time type, and numeric formats to Rust number types; other
            // formats would only add validation.
            if object
                .get("format")
                .is_some_and(|format| format != "date-time" && number_format.is_none())
            {
                object.remove("format");
            }
            if object.get("type") == Some(&json!("integer")) {
                object.remove("minimum");
                object.remove("maximum");
                if number_format.is_none() {
                    object.insert("format".into(), "int32".into());
                }
            }
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                *reference = reference.replace("#/$defs/", "#/definitions/");
            }
            object.values_mut().for_each(strip_for_typify);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_for_typify),
        _ => {}
    }
}
