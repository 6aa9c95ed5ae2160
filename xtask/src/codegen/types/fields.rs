//! Sets the serde attributes of every field typify generated, from the descriptor, so the structs read
//! and write ProtoJSON exactly as the official SDKs do; also puts fields back in proto order and derives
//! `Default` everywhere.
//!
//! | proto field | Rust type (typify) | serde |
//! |---|---|---|
//! | repeated, map | `Vec<T>`, `BTreeMap<String, T>` | `null` → empty; empty omitted |
//! | REQUIRED scalar or enum | `T` | `null` → default; default omitted |
//! | REQUIRED message | `T` | `null` → default; always written |
//! | proto3 `optional`, message, timestamp, struct | `Option<T>` | `null` → `None`; `Some(default)` written |
//! | other scalar or enum (no presence) | `Option<T>` | `null` and the default read as `None`; `None` and `Some(default)` omitted |
//! | the oneof of a message with other fields | `Option<Oneof>` | flattened: the member is a key of the message |
//!
//! The fields of the few messages the spec wants written in full (`ListTasksResponse`, see
//! `Package::written_in_full`) are written even at their default value.
//!
//! Every field also accepts its proto (snake_case) name on input. Numeric fields follow ProtoJSON through
//! `a2a_support::protojson`: every kind is read from numbers and strings, 64-bit integers are written as
//! decimal strings, and floats as numbers or `"NaN"`, `"Infinity"`, `"-Infinity"`. (Singular `int32`
//! fields keep their older, read-only helpers: a 32-bit integer is written by serde as it is.)

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use syn::parse::Parser;
use syn::{Attribute, parse_quote};

use super::field_shape::{Elem, Number, Package, Shape};
use crate::codegen::descriptor::{is_member_of, is_oneof_member};
use crate::codegen::docs::fix_docs;
use crate::codegen::naming::field_name_of_ident;
use crate::codegen::syntax::{derives, option_inner, structs_mut, type_text};
use crate::codegen::typify::read_messages_only_from_objects;

/// Rewrites the structs of typify's output for the messages of `file`, named after `rust_names`
/// (full protobuf name → Rust ident).
pub(crate) fn adjust(
    generated: &mut syn::File,
    file: &FileDescriptorProto,
    package: &Package<'_>,
) -> Result<()> {
    let rust_names = package.rust_names;
    let by_ident: BTreeMap<&str, &DescriptorProto> = file
        .message_type
        .iter()
        .filter_map(|m| {
            rust_names
                .get(&format!("{}.{}", file.package(), m.name()))
                .map(|ident| (ident.as_str(), m))
        })
        .collect();
    let mut errors = Vec::new();
    let mut seen = 0;
    generated
        .items
        .retain(|item| !matches!(item, syn::Item::Mod(m) if m.ident == "error"));
    for structure in structs_mut(generated) {
        let ident = structure.ident.to_string();
        fix_docs(&mut structure.attrs);
        if let syn::Fields::Named(fields) = &mut structure.fields {
            fields.named.iter_mut().for_each(|f| fix_docs(&mut f.attrs));
        }
        let Some(message) = by_ident.get(ident.as_str()) else {
            errors.push(format!(
                "typify generated struct {ident}, which is no message of the package"
            ));
            continue;
        };
        seen += 1;
        let full_name = format!("{}.{}", file.package(), message.name());
        if let Err(e) = adjust_struct(structure, message, package) {
            errors.push(format!("{full_name}: {e}"));
        }
    }
    if seen == 0 {
        errors.push("typify generated no message structs".to_owned());
    }
    read_messages_only_from_objects(generated, true);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(anyhow!(
            "adjusting typify output:\n  {}",
            errors.join("\n  ")
        ))
    }
}

fn adjust_struct(
    structure: &mut syn::ItemStruct,
    message: &DescriptorProto,
    package: &Package<'_>,
) -> Result<()> {
    add_default_derive(&mut structure.attrs);
    let syn::Fields::Named(fields) = &mut structure.fields else {
        bail!("not a struct with named fields")
    };
    let mut ordered = Vec::new();
    for mut field in std::mem::take(&mut fields.named).into_iter() {
        let ident = field
            .ident
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let position = field_position(message, &ident).ok_or_else(|| {
            anyhow!("field `{ident}` matches no field or oneof of the descriptor")
        })?;
        let serde = match position {
            Position::Field(index) => {
                let proto = &message.field[index];
                let shape = package.shape(message, proto)?;
                let always = package.written_in_full(message);
                field_attribute(proto, &shape, always, &ident, &field.ty)
                    .map_err(|e| anyhow!("{}: {e}", proto.name()))?
            }
            Position::Oneof(_) => {
                expect(
                    option_inner(&field.ty).is_some(),
                    "the oneof field",
                    &field.ty,
                )?;
                parse_quote!(#[serde(flatten, with = "::a2a_support::protojson::flat_oneof")])
            }
        };
        field.attrs.retain(|a| !a.path().is_ident("serde"));
        field.attrs.push(serde);
        ordered.push((position.order(message), field));
    }
    ordered.sort_by_key(|(order, _)| *order);
    fields.named = ordered.into_iter().map(|(_, f)| f).collect();
    Ok(())
}

fn add_default_derive(attrs: &mut [Attribute]) {
    if derives(attrs, "Default") {
        return;
    }
    if let Some(attr) = attrs.iter_mut().find(|a| a.path().is_ident("derive")) {
        let list: syn::MetaList = attr
            .meta
            .require_list()
            .expect("derive takes a list")
            .clone();
        let tokens = list.tokens;
        *attr = parse_quote!(#[derive(#tokens, Default)]);
    }
}

enum Position {
    Field(usize),
    Oneof(usize),
}

impl Position {
    /// Where the field goes: proto declaration order, a oneof where its first member was declared.
    fn order(&self, message: &DescriptorProto) -> usize {
        match self {
            Self::Field(index) => *index,
            Self::Oneof(oneof) => message
                .field
                .iter()
                .position(|f| is_member_of(f, *oneof))
                .unwrap_or(usize::MAX),
        }
    }
}

fn field_position(message: &DescriptorProto, ident: &str) -> Option<Position> {
    let bare = field_name_of_ident(ident);
    if let Some(index) = message
        .field
        .iter()
        .position(|f| f.name() == bare && !is_oneof_member(f))
    {
        return Some(Position::Field(index));
    }
    message
        .oneof_decl
        .iter()
        .position(|o| o.name() == bare)
        .map(Position::Oneof)
}

fn expect(condition: bool, what: &str, ty: &syn::Type) -> Result<()> {
    if condition {
        Ok(())
    } else {
        bail!("typify gave {what} the unexpected type `{}`", type_text(ty))
    }
}

/// The `#[serde(...)]` attribute of one field (see the module docs for the rules).
fn field_attribute(
    field: &FieldDescriptorProto,
    shape: &Shape,
    always: bool,
    ident: &str,
    ty: &syn::Type,
) -> Result<Attribute> {
    let json = field.json_name();
    let mut parts: Vec<proc_macro2::TokenStream> = Vec::new();
    if ident != json {
        parts.push(quote::quote!(rename = #json));
    }
    if field.name() != json {
        let alias = field.name();
        parts.push(quote::quote!(alias = #alias));
    }
    let is_option = option_inner(ty).is_some();
    let wants_option = matches!(shape, Shape::Presence(_) | Shape::UnlessDefault(_));
    expect(is_option == wants_option, &format!("a {shape:?} field"), ty)?;
    let rules = match shape {
        Shape::Repeated(Elem::Number(_)) => quote::quote!(
            default,
            with = "::a2a_support::protojson::repeated_numbers",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        Shape::Map(Elem::Number(_)) => quote::quote!(
            default,
            with = "::a2a_support::protojson::number_map",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        Shape::Repeated(_) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::null_as_default",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        // A key twice is an error, as in protobuf's JSON parsers.
        Shape::Map(_) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::unique_map",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        // Always written: a REQUIRED message is present in every valid message, even when empty.
        Shape::Plain(Elem::Message(_)) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::null_as_default"
        ),
        Shape::Plain(Elem::Number(Number::I32)) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::int32",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        Shape::Plain(Elem::Number(_)) => quote::quote!(
            default,
            with = "::a2a_support::protojson::number",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        Shape::Plain(_) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::null_as_default",
            skip_serializing_if = "::a2a_support::protojson::is_default"
        ),
        Shape::Presence(Elem::Timestamp) => quote::quote!(
            default,
            with = "::a2a_support::protojson::optional_timestamp",
            skip_serializing_if = "::std::option::Option::is_none"
        ),
        Shape::Presence(Elem::Struct) => quote::quote!(
            default,
            with = "::a2a_support::protojson::optional_struct",
            skip_serializing_if = "::std::option::Option::is_none"
        ),
        Shape::Presence(Elem::Number(Number::I32)) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::optional_int32",
            skip_serializing_if = "::std::option::Option::is_none"
        ),
        Shape::Presence(Elem::Number(_)) => quote::quote!(
            default,
            with = "::a2a_support::protojson::optional_number",
            skip_serializing_if = "::std::option::Option::is_none"
        ),
        Shape::Presence(_) => quote::quote!(
            default,
            skip_serializing_if = "::std::option::Option::is_none"
        ),
        Shape::UnlessDefault(Elem::Number(Number::I32)) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::int32_unless_default",
            skip_serializing_if = "::a2a_support::protojson::is_unset"
        ),
        Shape::UnlessDefault(Elem::Number(_)) => quote::quote!(
            default,
            with = "::a2a_support::protojson::number_unless_default",
            skip_serializing_if = "::a2a_support::protojson::is_unset"
        ),
        Shape::UnlessDefault(_) => quote::quote!(
            default,
            deserialize_with = "::a2a_support::protojson::unless_default",
            skip_serializing_if = "::a2a_support::protojson::is_unset"
        ),
    };
    parts.push(if always {
        written_always(rules)?
    } else {
        rules
    });
    Ok(parse_quote!(#[serde(#(#parts),*)]))
}

/// `rules` without their `skip_serializing_if`: the field is written even at its default value.
fn written_always(rules: proc_macro2::TokenStream) -> Result<proc_macro2::TokenStream> {
    let rules =
        syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated.parse2(rules)?;
    let kept = rules
        .into_iter()
        .filter(|rule| !rule.path().is_ident("skip_serializing_if"));
    Ok(quote::quote!(#(#kept),*))
}
