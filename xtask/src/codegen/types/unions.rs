//! The types typify cannot generate for A2A's ProtoJSON: open enums and oneof enums, emitted from the
//! descriptor and plugged into typify's output as replacements (see [`super`]).
//!
//! - A proto enum becomes a Rust enum with one variant per value plus `Unrecognized(i32)`, so a value
//!   from a newer peer survives a round trip (ProtoJSON enums are open).
//! - A oneof becomes an enum with one variant per member; a message that is nothing but a oneof (such as
//!   `StreamResponse`) *is* that enum. Their serde impls accept `null` members as unset, ignore unknown
//!   keys, and reject two members.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use proc_macro2::TokenStream;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use quote::{format_ident, quote};

use super::field_shape::Number;
use crate::codegen::descriptor::is_member_of;
use crate::codegen::docs::{Comments, doc_attrs};
use crate::codegen::naming::{enum_variant_name, oneof_type_name, oneof_variant_name};

/// Emits every enum and oneof type of `file`.
/// `rust_names` maps full protobuf names to the Rust idents of the message types.
pub(crate) fn emit(
    file: &FileDescriptorProto,
    comments: &Comments,
    rust_names: &BTreeMap<String, String>,
) -> Result<TokenStream> {
    let mut out = TokenStream::new();
    for (index, enumeration) in file.enum_type.iter().enumerate() {
        out.extend(open_enum(
            file.package(),
            enumeration,
            comments,
            &[5, index as i32],
        ));
    }
    for (index, message) in file.message_type.iter().enumerate() {
        let path = [4, index as i32];
        for (oneof_index, oneof) in message.oneof_decl.iter().enumerate() {
            let members: Vec<(usize, &FieldDescriptorProto)> = message
                .field
                .iter()
                .enumerate()
                .filter(|(_, f)| is_member_of(f, oneof_index))
                .collect();
            if members.is_empty() {
                continue; // the synthetic oneof of a proto3 `optional` field
            }
            let whole_message = members.len() == message.field.len();
            let (name, doc) = if whole_message {
                (
                    message.name().to_owned(),
                    comments.get(&path).unwrap_or_default().to_owned(),
                )
            } else {
                let doc = comments
                    .get(&[&path[..], &[8, oneof_index as i32]].concat())
                    .unwrap_or_default();
                (
                    oneof_type_name(message.name(), oneof.name()),
                    format!(
                        "The `{}` oneof of [`{}`]: {doc}",
                        oneof.name(),
                        message.name()
                    ),
                )
            };
            out.extend(oneof_enum(
                &name,
                &doc,
                &members,
                comments,
                &path,
                whole_message,
                rust_names,
            )?);
        }
    }
    Ok(out)
}

fn open_enum(
    package: &str,
    enumeration: &EnumDescriptorProto,
    comments: &Comments,
    path: &[i32],
) -> TokenStream {
    let name = format_ident!("{}", enumeration.name());
    let proto_name = format!("{package}.{}", enumeration.name());
    let doc = doc_attrs(comments.get(path).unwrap_or_default());
    let mut variants = Vec::new();
    let mut to_number = Vec::new();
    let mut from_number = Vec::new();
    let mut values = Vec::new();
    for (index, value) in enumeration.value.iter().enumerate() {
        let variant = format_ident!("{}", enum_variant_name(enumeration.name(), value.name()));
        let number = value.number();
        let value_name = value.name();
        let text = comments
            .get(&[path, &[2, index as i32]].concat())
            .unwrap_or_default();
        let doc = doc_attrs(&format!("`{value_name}` ({number}): {text}"));
        let default = (number == 0).then(|| quote!(#[default]));
        variants.push(quote! { #doc #default #variant });
        to_number.push(quote! { Self::#variant => #number });
        from_number.push(quote! { #number => Self::#variant });
        values.push(quote! { (#value_name, #number) });
    }
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants,)*
            /// A number this version of the protocol does not define (a newer peer's value), kept so it
            /// can be passed on unchanged.
            Unrecognized(i32),
        }

        impl ::a2a_support::protojson::ProtoEnum for #name {
            const PROTO_NAME: &'static str = #proto_name;
            const VALUES: &'static [(&'static str, i32)] = &[#(#values),*];

            fn number(self) -> i32 {
                match self {
                    #(#to_number,)*
                    Self::Unrecognized(number) => number,
                }
            }

            fn from_number(number: i32) -> Self {
                match number {
                    #(#from_number,)*
                    other => Self::Unrecognized(other),
                }
            }
        }

        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                ::a2a_support::protojson::serialize_enum(self, serializer)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                ::a2a_support::protojson::deserialize_enum(deserializer)
            }
        }

        impl ::std::fmt::Display for #name {
            /// The value's protobuf name, or its number when the schema does not define it.
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                use ::a2a_support::protojson::ProtoEnum as _;
                match self.name() {
                    Some(name) => f.write_str(name),
                    None => write!(f, "{}", self.number()),
                }
            }
        }
    }
}

/// The Rust type of a oneof member, and how its value is read (`null` means unset except for `Value`).
fn member_type(
    field: &FieldDescriptorProto,
    rust_names: &BTreeMap<String, String>,
) -> Result<(TokenStream, TokenStream, TokenStream)> {
    if field.label() == Label::Repeated {
        bail!(
            "repeated oneof member {} is impossible in protobuf",
            field.name()
        );
    }
    let optional =
        |ty: TokenStream| quote!(::a2a_support::protojson::read_optional::<#ty, A>(map)?);
    Ok(match field.r#type() {
        Type::String => {
            let ty = quote!(::std::string::String);
            (ty.clone(), optional(ty), quote!(value))
        }
        Type::Bool => (quote!(bool), optional(quote!(bool)), quote!(value)),
        Type::Bytes => (
            quote!(::std::vec::Vec<u8>),
            quote!(
                ::a2a_support::protojson::read_optional::<::a2a_support::protojson::Base64, A>(
                    map
                )?
                .map(|bytes| bytes.0)
            ),
            quote!(&::a2a_support::protojson::Base64Ref(value)),
        ),
        Type::Message | Type::Enum => match field.type_name() {
            ".google.protobuf.Value" => (
                quote!(::serde_json::Value),
                quote!(::a2a_support::protojson::read_value(map)?),
                quote!(&::a2a_support::protojson::Canonical(value)),
            ),
            ".google.protobuf.Struct" => (
                quote!(crate::JsonObject),
                quote!(::a2a_support::protojson::read_struct(map)?),
                quote!(&::a2a_support::protojson::CanonicalObject(value)),
            ),
            other if other.starts_with(".google.") => {
                bail!("oneof member of type {other} is not supported yet")
            }
            other => {
                let rust_name = match rust_names.get(other.trim_start_matches('.')) {
                    Some(name) => name.clone(),
                    None => other.rsplit('.').next().unwrap_or(other).to_owned(), // enums keep their proto name
                };
                let ident = format_ident!("{rust_name}");
                let ty = quote!(#ident);
                (ty.clone(), optional(ty), quote!(value))
            }
        },
        other => match Number::of(other) {
            // 32-bit integers are written by serde as they are; only reading needs help.
            Some(Number::I32) => {
                let read = optional(quote!(::a2a_support::protojson::Int32));
                (quote!(i32), quote!(#read.map(|v| v.0)), quote!(&value))
            }
            Some(number) => {
                let ty = number.rust_type();
                let read = optional(quote!(::a2a_support::protojson::Number<#ty>));
                (
                    ty,
                    quote!(#read.map(|v| v.0)),
                    quote!(&::a2a_support::protojson::Number(*value)),
                )
            }
            None => bail!(
                "oneof member {} of type {other:?} is not supported yet",
                field.name()
            ),
        },
    })
}

fn oneof_enum(
    name: &str,
    doc: &str,
    members: &[(usize, &FieldDescriptorProto)],
    comments: &Comments,
    message_path: &[i32],
    whole_message: bool,
    rust_names: &BTreeMap<String, String>,
) -> Result<TokenStream> {
    let ident = format_ident!("{name}");
    let doc = doc_attrs(doc);
    let mut variants = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut member_names = Vec::new();
    for (index, field) in members {
        let variant = format_ident!("{}", oneof_variant_name(field.name()));
        let (ty, read, write) = member_type(field, rust_names)?;
        let json_name = field.json_name();
        let proto_name = field.name();
        let text = comments
            .get(&[message_path, &[2, *index as i32]].concat())
            .unwrap_or_default();
        let field_doc = doc_attrs(&format!("`{json_name}`: {text}"));
        let patterns = if json_name == proto_name {
            quote!(#json_name)
        } else {
            quote!(#json_name | #proto_name)
        };
        variants.push(quote! { #field_doc #variant(#ty) });
        // A read yields `Option<member>` (`None`: the member is `null`, so unset), except for a
        // `google.protobuf.Value`, where `null` is a value.
        reads.push(if field.type_name() == ".google.protobuf.Value" {
            quote! { #patterns => ::a2a_support::protojson::OneofRead::place(slot, Self::#variant(#read)) }
        } else {
            quote! {
                #patterns => match #read {
                    ::std::option::Option::Some(value) => ::a2a_support::protojson::OneofRead::place(slot, Self::#variant(value)),
                    ::std::option::Option::None => ::a2a_support::protojson::OneofRead::Unset,
                }
            }
        });
        writes.push(quote! { Self::#variant(value) => map.serialize_entry(#json_name, #write) });
        member_names.push(json_name.to_owned());
    }
    let serde_impls = whole_message.then(|| {
        quote! {
            impl ::serde::Serialize for #ident {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    ::a2a_support::protojson::serialize_oneof_message(self, serializer)
                }
            }

            impl<'de> ::serde::Deserialize<'de> for #ident {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    ::a2a_support::protojson::deserialize_oneof_message(deserializer)
                }
            }

            // Read as the messages with fields read their reference: the same reader, as no derive
            // stands behind a oneof.
            impl ::a2a_support::protojson::ReferenceRead for #ident {
                fn read_reference<'de, D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    ::a2a_support::protojson::deserialize_oneof_message(deserializer)
                }
            }
        }
    });
    Ok(quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum #ident {
            #(#variants,)*
        }

        impl ::a2a_support::protojson::ProtoOneof for #ident {
            const MEMBERS: &'static [&'static str] = &[#(#member_names),*];

            fn read_member<'de, A: ::serde::de::MapAccess<'de>>(
                key: &str,
                map: &mut A,
                slot: &mut ::std::option::Option<Self>,
            ) -> ::std::result::Result<::a2a_support::protojson::OneofRead, A::Error> {
                ::std::result::Result::Ok(match key {
                    #(#reads,)*
                    _ => ::a2a_support::protojson::OneofRead::NotMember,
                })
            }

            fn write_member<M: ::serde::ser::SerializeMap>(&self, map: &mut M) -> ::std::result::Result<(), M::Error> {
                match self {
                    #(#writes,)*
                }
            }
        }

        #serde_impls
    })
}
