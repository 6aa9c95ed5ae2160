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
//! Every field also accepts its proto (snake_case) name on input; `int32` accepts numbers and strings.

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use quote::ToTokens;
use syn::{Attribute, parse_quote};

/// Rewrites the structs of typify's output for the messages of `file`, named after `rust_names`
/// (full protobuf name → Rust ident).
pub(crate) fn adjust(
    generated: &mut syn::File,
    file: &FileDescriptorProto,
    required: &[String],
    rust_names: &BTreeMap<String, String>,
    oneof_messages: &[String],
) -> Result<()> {
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
    for item in &mut generated.items {
        let syn::Item::Struct(structure) = item else {
            continue;
        };
        let ident = structure.ident.to_string();
        let Some(message) = by_ident.get(ident.as_str()) else {
            errors.push(format!(
                "typify generated struct {ident}, which is no message of the package"
            ));
            continue;
        };
        seen += 1;
        let full_name = format!("{}.{}", file.package(), message.name());
        if let Err(e) = adjust_struct(structure, message, &full_name, required, oneof_messages) {
            errors.push(format!("{full_name}: {e}"));
        }
    }
    if seen == 0 {
        errors.push("typify generated no message structs".to_owned());
    }
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
    full_name: &str,
    required: &[String],
    oneof_messages: &[String],
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
        let ty = field.ty.to_token_stream().to_string().replace(' ', "");
        let serde = match position {
            Position::Field(index) => {
                let proto = &message.field[index];
                // A oneof-only message has no default, so such a field stays optional even when REQUIRED.
                let is_oneof_message = oneof_messages
                    .iter()
                    .any(|m| proto.type_name() == format!(".{m}"));
                let is_required = required.contains(&format!("{full_name}.{}", proto.name()))
                    && !is_oneof_message;
                field_attribute(proto, is_required, &ident, &ty)
                    .map_err(|e| anyhow!("{}: {e}", proto.name()))?
            }
            Position::Oneof(_) => {
                expect(
                    ty.starts_with("::std::option::Option<"),
                    "the oneof field",
                    &ty,
                )?;
                parse_quote!(#[serde(flatten, with = "crate::protojson::flat_oneof")])
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
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
        let derives = attr.meta.to_token_stream().to_string();
        if !derives.contains("Default") {
            let list: syn::MetaList = attr
                .meta
                .require_list()
                .expect("derive takes a list")
                .clone();
            let tokens = list.tokens;
            *attr = parse_quote!(#[derive(#tokens, Default)]);
        }
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
                .position(|f| f.oneof_index == Some(*oneof as i32) && !f.proto3_optional())
                .unwrap_or(usize::MAX),
        }
    }
}

fn field_position(message: &DescriptorProto, ident: &str) -> Option<Position> {
    let bare = ident.trim_start_matches("r#").trim_end_matches('_');
    let is_member = |f: &FieldDescriptorProto| f.oneof_index.is_some() && !f.proto3_optional();
    if let Some(index) = message
        .field
        .iter()
        .position(|f| f.name() == bare && !is_member(f))
    {
        return Some(Position::Field(index));
    }
    message
        .oneof_decl
        .iter()
        .position(|o| o.name() == bare)
        .map(Position::Oneof)
}

fn expect(condition: bool, what: &str, ty: &str) -> Result<()> {
    if condition {
        Ok(())
    } else {
        bail!("typify gave {what} the unexpected type `{ty}`")
    }
}

/// The `#[serde(...)]` attribute of one field (see the module docs for the rules).
fn field_attribute(
    field: &FieldDescriptorProto,
    is_required: bool,
    ident: &str,
    ty: &str,
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
    let is_option = ty.starts_with("::std::option::Option<");
    let is_message = field.r#type() == Type::Message;
    let is_int32 = field.r#type() == Type::Int32;
    let rules: proc_macro2::TokenStream = if field.label() == Label::Repeated {
        expect(!is_option, "a repeated field", ty)?;
        if field.type_name().starts_with(".google.protobuf.") {
            bail!("repeated or map fields of well-known types are not supported yet");
        }
        quote::quote!(
            default,
            deserialize_with = "crate::protojson::null_as_default",
            skip_serializing_if = "crate::protojson::is_default"
        )
    } else if field.r#type() == Type::Bytes {
        bail!("bytes fields outside a oneof are not supported yet");
    } else if is_message && field.type_name() == ".google.protobuf.Timestamp" {
        expect(is_option && !is_required, "a timestamp", ty)?;
        quote::quote!(
            default,
            with = "crate::protojson::optional_timestamp",
            skip_serializing_if = "::std::option::Option::is_none"
        )
    } else if is_message && field.type_name() == ".google.protobuf.Struct" {
        expect(is_option && !is_required, "a google.protobuf.Struct", ty)?;
        quote::quote!(
            default,
            with = "crate::protojson::optional_struct",
            skip_serializing_if = "::std::option::Option::is_none"
        )
    } else if is_message && field.type_name() == ".google.protobuf.Value" {
        bail!("google.protobuf.Value fields outside a oneof are not supported yet");
    } else if is_message && is_required {
        expect(!is_option, "a required message", ty)?;
        quote::quote!(
            default,
            deserialize_with = "crate::protojson::null_as_default"
        )
    } else if is_message || field.proto3_optional() {
        expect(is_option, "a field with presence", ty)?;
        if is_int32 {
            quote::quote!(
                default,
                deserialize_with = "crate::protojson::optional_int32",
                skip_serializing_if = "::std::option::Option::is_none"
            )
        } else {
            quote::quote!(
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )
        }
    } else if is_required {
        expect(!is_option, "a required scalar", ty)?;
        let read = if is_int32 {
            "crate::protojson::int32"
        } else {
            "crate::protojson::null_as_default"
        };
        quote::quote!(default, deserialize_with = #read, skip_serializing_if = "crate::protojson::is_default")
    } else {
        expect(is_option, "a scalar without presence", ty)?;
        let read = if is_int32 {
            "crate::protojson::int32_unless_default"
        } else {
            "crate::protojson::unless_default"
        };
        quote::quote!(default, deserialize_with = #read, skip_serializing_if = "crate::protojson::is_unset")
    };
    parts.push(rules);
    Ok(parse_quote!(#[serde(#(#parts),*)]))
}
