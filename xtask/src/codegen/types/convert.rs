//! Conversions between `a2a_types::v1` and `a2a_proto::v1` for every message: `From` into the protobuf
//! types (always possible) and `TryFrom` back (a protobuf message can hold what the serde types reject,
//! such as a oneof-only message with no member, or a NaN in a `Value`). Errors carry the field path.
//!
//! The protobuf side's Rust names (oneof enums and their variants) are read from prost-build's own
//! output, so the generator never re-implements prost's naming rules.

use std::collections::BTreeMap;

use anyhow::{Result, anyhow};
use proc_macro2::TokenStream;
use prost_types::{DescriptorProto, FileDescriptorProto};
use quote::{format_ident, quote};

use super::field_shape::{Elem, Package, Shape};
use crate::codegen::descriptor::{is_oneof_member, oneof_members};
use crate::codegen::naming::{checked_field_ident, oneof_type_name, oneof_variant_name};
use crate::codegen::syntax::{attribute_value, option_inner, path_idents, type_text};

/// The protobuf crate's module the conversions point at.
const PROTO: &str = "::a2a_proto::v1";

/// Emits the conversions for every message of `file`.
pub(crate) fn emit(
    file: &FileDescriptorProto,
    package: &Package<'_>,
    prost: &syn::File,
) -> Result<TokenStream> {
    let prost = ProstNames::read(prost);
    let proto: syn::Path = syn::parse_str(PROTO)?;
    let mut out = TokenStream::new();
    let mut names = Vec::new();
    let mut idents = Vec::new();
    for message in &file.message_type {
        let (full_name, rust) = package.names(message)?;
        let ident = format_ident!("{rust}");
        names.push(full_name.clone());
        idents.push(ident.clone());
        if package.oneof_messages.contains(&full_name) {
            out.extend(oneof_conversions(
                message, package, &prost, &proto, &rust, &ident, None,
            )?);
        } else {
            out.extend(message_conversions(
                message, package, &prost, &proto, &rust, &ident,
            )?);
        }
    }
    out.extend(quote! {
        /// Calls `visitor` with the serde type and the protobuf type of the message named `full_name`
        /// (such as `"lf.a2a.v1.Task"`); `None` when the package has no message of that name.
        pub fn visit_proto_pair<V: crate::registry::ProtoPairVisitor>(full_name: &str, visitor: V) -> ::std::option::Option<V::Output> {
            match full_name {
                #(#names => ::std::option::Option::Some(visitor.visit::<#idents, #proto::#idents>()),)*
                _ => ::std::option::Option::None,
            }
        }
    });
    Ok(out)
}

/// What prost-build named things: the type of each struct field, and each oneof enum's variants by tag.
struct ProstNames {
    /// (struct, field) → the field's type.
    field_types: BTreeMap<(String, String), syn::Type>,
    /// (module, enum) → tag → variant.
    oneof_variants: BTreeMap<(String, String), BTreeMap<i32, String>>,
}

impl ProstNames {
    fn read(file: &syn::File) -> Self {
        let mut names = Self {
            field_types: BTreeMap::new(),
            oneof_variants: BTreeMap::new(),
        };
        for item in &file.items {
            match item {
                syn::Item::Struct(s) => {
                    for field in &s.fields {
                        if let Some(ident) = &field.ident {
                            names
                                .field_types
                                .insert((s.ident.to_string(), ident.to_string()), field.ty.clone());
                        }
                    }
                }
                syn::Item::Mod(module) => {
                    for item in module.content.iter().flat_map(|(_, items)| items) {
                        let syn::Item::Enum(e) = item else { continue };
                        let variants = e
                            .variants
                            .iter()
                            .filter_map(|v| Some((prost_tag(&v.attrs)?, v.ident.to_string())))
                            .collect();
                        names
                            .oneof_variants
                            .insert((module.ident.to_string(), e.ident.to_string()), variants);
                    }
                }
                _ => {}
            }
        }
        names
    }

    /// The path of the oneof enum of `rust_struct.field` (`part::Content`), from the field's type.
    fn oneof_path(&self, rust_struct: &str, field: &str) -> Result<(String, String)> {
        let ty = self
            .field_types
            .get(&(rust_struct.to_owned(), field.to_owned()))
            .ok_or_else(|| anyhow!("prost-build has no field {rust_struct}.{field}"))?;
        let unexpected = || {
            anyhow!(
                "prost-build typed the oneof {rust_struct}.{field} as {}",
                type_text(ty)
            )
        };
        let inner = option_inner(ty).ok_or_else(unexpected)?;
        match path_idents(inner).as_deref() {
            Some([module, name]) => Ok((module.clone(), name.clone())),
            _ => Err(unexpected()),
        }
    }
}

/// The `tag = "N"` of a `#[prost(...)]` attribute.
fn prost_tag(attrs: &[syn::Attribute]) -> Option<i32> {
    attribute_value(attrs, "prost", "tag")?.parse().ok()
}

/// A function converting one value of kind `elem` into its protobuf form.
fn elem_to_proto_fn(elem: &Elem) -> TokenStream {
    match elem {
        Elem::String | Elem::Bool | Elem::Number(_) | Elem::Bytes => {
            quote!(::std::convert::identity)
        }
        Elem::Enum(_) => quote!(crate::ProtoEnum::number),
        Elem::Message(_) | Elem::OneofMessage(_) => quote!(::std::convert::Into::into),
        Elem::Timestamp => quote!(crate::proto::timestamp_to_proto),
        Elem::Struct => quote!(crate::proto::struct_to_proto),
        Elem::Value => quote!(crate::proto::value_to_proto),
    }
}

/// Converts one value of kind `elem` into its protobuf form.
fn elem_to_proto(elem: &Elem, value: TokenStream) -> TokenStream {
    if is_identity(elem) {
        return value;
    }
    let function = elem_to_proto_fn(elem);
    quote!(#function(#value))
}

/// A function converting one protobuf value of kind `elem` back, returning `Result<_, ConversionError>`.
fn elem_from_proto_fn(elem: &Elem) -> TokenStream {
    match elem {
        Elem::String | Elem::Bool | Elem::Number(_) | Elem::Bytes => {
            quote!(::std::result::Result::<_, crate::proto::ConversionError>::Ok)
        }
        Elem::Enum(name) => {
            let ident = format_ident!("{name}");
            quote!(|item| ::std::result::Result::<_, crate::proto::ConversionError>::Ok(<#ident as crate::ProtoEnum>::from_number(item)))
        }
        Elem::Message(name) | Elem::OneofMessage(name) => {
            let ident = format_ident!("{name}");
            quote!(#ident::try_from)
        }
        Elem::Timestamp => quote!(crate::proto::timestamp_from_proto),
        Elem::Struct => quote!(crate::proto::struct_from_proto),
        Elem::Value => quote!(crate::proto::value_from_proto),
    }
}

/// Converts one protobuf value of kind `elem` back, as an expression of type `Result<_, ConversionError>`.
fn elem_from_proto(elem: &Elem, value: TokenStream) -> TokenStream {
    match elem {
        Elem::String | Elem::Bool | Elem::Number(_) | Elem::Bytes => {
            quote!(::std::result::Result::<_, crate::proto::ConversionError>::Ok(#value))
        }
        Elem::Enum(name) => {
            let ident = format_ident!("{name}");
            quote!(::std::result::Result::<_, crate::proto::ConversionError>::Ok(<#ident as crate::ProtoEnum>::from_number(#value)))
        }
        _ => {
            let function = elem_from_proto_fn(elem);
            quote!(#function(#value))
        }
    }
}

/// Whether a value of this kind is the same Rust type on both sides (prost holds every numeric scalar in
/// the same Rust type as `a2a-types`: `i32`, `u32`, `i64`, `u64`, `f32`, `f64`).
fn is_identity(elem: &Elem) -> bool {
    matches!(
        elem,
        Elem::String | Elem::Bool | Elem::Number(_) | Elem::Bytes
    )
}

fn field_to_proto(shape: &Shape, value: TokenStream) -> TokenStream {
    match shape {
        Shape::Repeated(elem) | Shape::Map(elem) | Shape::Plain(elem) | Shape::Presence(elem)
            if is_identity(elem) =>
        {
            value
        }
        Shape::UnlessDefault(elem) if is_identity(elem) => quote!(#value.unwrap_or_default()),
        Shape::Repeated(elem) => {
            let function = elem_to_proto_fn(elem);
            quote!(#value.into_iter().map(#function).collect())
        }
        Shape::Map(elem) => {
            let each = elem_to_proto(elem, quote!(item));
            quote!(#value.into_iter().map(|(key, item)| (key, #each)).collect())
        }
        Shape::Plain(elem @ (Elem::Message(_) | Elem::OneofMessage(_))) => {
            let converted = elem_to_proto(elem, value);
            quote!(::std::option::Option::Some(#converted))
        }
        Shape::Plain(elem) => elem_to_proto(elem, value),
        Shape::Presence(elem) => {
            let function = elem_to_proto_fn(elem);
            quote!(#value.map(#function))
        }
        Shape::UnlessDefault(elem) => {
            let function = elem_to_proto_fn(elem);
            quote!(#value.map_or(::std::default::Default::default(), #function))
        }
    }
}

fn field_from_proto(shape: &Shape, value: TokenStream, json_name: &str) -> TokenStream {
    match shape {
        Shape::Repeated(elem) | Shape::Map(elem) | Shape::Plain(elem) | Shape::Presence(elem)
            if is_identity(elem) =>
        {
            value
        }
        Shape::Repeated(elem) => {
            let each = elem_from_proto(elem, quote!(item));
            quote!(#value.into_iter().enumerate().map(|(index, item)| #each.map_err(|e| e.at_index(#json_name, index)))
                .collect::<::std::result::Result<::std::vec::Vec<_>, _>>()?)
        }
        Shape::Map(elem) => {
            let each = elem_from_proto(elem, quote!(item));
            quote!(#value.into_iter().map(|(key, item)| {
                let converted = #each.map_err(|e| e.at_key(#json_name, &key))?;
                ::std::result::Result::<_, crate::proto::ConversionError>::Ok((key, converted))
            }).collect::<::std::result::Result<::std::collections::BTreeMap<_, _>, _>>()?)
        }
        Shape::Plain(elem @ (Elem::Message(_) | Elem::OneofMessage(_))) => {
            let function = elem_from_proto_fn(elem);
            quote!(#value.map(#function).transpose().map_err(|e| e.at(#json_name))?.unwrap_or_default())
        }
        Shape::Plain(elem) => {
            let each = elem_from_proto(elem, value);
            quote!(#each.map_err(|e| e.at(#json_name))?)
        }
        Shape::Presence(elem) => {
            let function = elem_from_proto_fn(elem);
            quote!(#value.map(#function).transpose().map_err(|e| e.at(#json_name))?)
        }
        Shape::UnlessDefault(elem) => {
            let each = elem_from_proto(elem, quote!(item));
            // The protobuf default means "not set".
            quote!({
                let item = #value;
                if ::a2a_support::protojson::is_default(&item) { ::std::option::Option::None }
                else { ::std::option::Option::Some(#each.map_err(|e| e.at(#json_name))?) }
            })
        }
    }
}

fn message_conversions(
    message: &DescriptorProto,
    package: &Package<'_>,
    prost: &ProstNames,
    proto: &syn::Path,
    rust: &str,
    ident: &syn::Ident,
) -> Result<TokenStream> {
    let mut to_fields = Vec::new();
    let mut from_fields = Vec::new();
    let mut extra = TokenStream::new();
    for field in message.field.iter().filter(|f| !is_oneof_member(f)) {
        let name = format_ident!("{}", checked_field_ident(field.name())?);
        let shape = package.shape(message, field)?;
        let to = field_to_proto(&shape, quote!(value.#name));
        let from = field_from_proto(&shape, quote!(value.#name), field.json_name());
        to_fields.push(quote!(#name: #to));
        from_fields.push(quote!(#name: #from));
    }
    for (index, oneof) in message.oneof_decl.iter().enumerate() {
        if oneof_members(message, index).is_empty() {
            continue;
        }
        let name = format_ident!("{}", checked_field_ident(oneof.name())?);
        let enum_name = oneof_type_name(message.name(), oneof.name());
        extra.extend(oneof_conversions(
            message,
            package,
            prost,
            proto,
            rust,
            &format_ident!("{enum_name}"),
            Some(index),
        )?);
        to_fields.push(quote!(#name: value.#name.map(::std::convert::Into::into)));
        from_fields
            .push(quote!(#name: value.#name.map(::std::convert::TryFrom::try_from).transpose()?));
    }
    Ok(quote! {
        impl ::std::convert::From<#ident> for #proto::#ident {
            fn from(value: #ident) -> Self {
                Self { #(#to_fields,)* }
            }
        }

        impl ::std::convert::TryFrom<#proto::#ident> for #ident {
            type Error = crate::proto::ConversionError;

            fn try_from(value: #proto::#ident) -> ::std::result::Result<Self, Self::Error> {
                ::std::result::Result::Ok(Self { #(#from_fields,)* })
            }
        }

        #extra
    })
}

/// Conversions of a oneof: of a oneof-only message (`oneof: None`; the protobuf side is a struct with
/// one optional field) or of the oneof inside a message (the protobuf side is prost's oneof enum).
fn oneof_conversions(
    message: &DescriptorProto,
    package: &Package<'_>,
    prost: &ProstNames,
    proto: &syn::Path,
    rust_struct: &str,
    ident: &syn::Ident,
    oneof: Option<usize>,
) -> Result<TokenStream> {
    let oneof_index = oneof.unwrap_or(0);
    let oneof_name = message
        .oneof_decl
        .get(oneof_index)
        .ok_or_else(|| anyhow!("{} has no oneof", message.name()))?
        .name();
    let (module, enum_name) = prost.oneof_path(rust_struct, oneof_name)?;
    let variants_by_tag = prost
        .oneof_variants
        .get(&(module.clone(), enum_name.clone()))
        .ok_or_else(|| anyhow!("prost-build has no enum {module}::{enum_name}"))?;
    let module = format_ident!("{module}");
    let proto_enum = format_ident!("{enum_name}");
    let members = oneof_members(message, oneof_index);
    let mut to_arms = Vec::new();
    let mut from_arms = Vec::new();
    let mut names = Vec::new();
    for field in &members {
        let ours = format_ident!("{}", oneof_variant_name(field.name()));
        let theirs = variants_by_tag
            .get(&field.number())
            .ok_or_else(|| anyhow!("prost-build has no variant for {}", field.name()))?;
        let theirs = format_ident!("{theirs}");
        let elem = package.elem(field)?;
        let to = elem_to_proto(&elem, quote!(item));
        let from = elem_from_proto(&elem, quote!(item));
        let json_name = field.json_name();
        to_arms.push(quote!(#ident::#ours(item) => #proto::#module::#proto_enum::#theirs(#to)));
        from_arms.push((
            quote!(#proto::#module::#proto_enum::#theirs(item)),
            quote!(#ident::#ours(#from.map_err(|e| e.at(#json_name))?)),
        ));
        names.push(json_name.to_owned());
    }
    let (from_patterns, from_values): (Vec<_>, Vec<_>) = from_arms.into_iter().unzip();
    // prost's oneof enums are `#[non_exhaustive]`; a member this version lacks is a typed error.
    let unknown =
        format!("a member of `{oneof_name}` that this version of a2a-types does not know");
    if oneof.is_some() {
        return Ok(quote! {
            impl ::std::convert::From<#ident> for #proto::#module::#proto_enum {
                fn from(value: #ident) -> Self {
                    match value { #(#to_arms,)* }
                }
            }

            impl ::std::convert::TryFrom<#proto::#module::#proto_enum> for #ident {
                type Error = crate::proto::ConversionError;

                fn try_from(value: #proto::#module::#proto_enum) -> ::std::result::Result<Self, Self::Error> {
                    ::std::result::Result::Ok(match value {
                        #(#from_patterns => #from_values,)*
                        _ => return ::std::result::Result::Err(crate::proto::ConversionError::new(#unknown)),
                    })
                }
            }
        });
    }
    let field = format_ident!("{}", checked_field_ident(oneof_name)?);
    let expected = format!("expected exactly one of {names:?}, found none");
    Ok(quote! {
        impl ::std::convert::From<#ident> for #proto::#ident {
            fn from(value: #ident) -> Self {
                Self { #field: ::std::option::Option::Some(match value { #(#to_arms,)* }) }
            }
        }

        impl ::std::convert::TryFrom<#proto::#ident> for #ident {
            type Error = crate::proto::ConversionError;

            fn try_from(value: #proto::#ident) -> ::std::result::Result<Self, Self::Error> {
                ::std::result::Result::Ok(match value.#field {
                    #(::std::option::Option::Some(#from_patterns) => #from_values,)*
                    ::std::option::Option::None => return ::std::result::Result::Err(crate::proto::ConversionError::new(#expected)),
                    ::std::option::Option::Some(_) => return ::std::result::Result::Err(crate::proto::ConversionError::new(#unknown)),
                })
            }
        }
    })
}
