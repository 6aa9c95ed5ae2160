//! `a2a-types/src/v1/generated/validate.rs`: a `Validate` impl for every message, generated from the descriptor's
//! `google.api.field_behavior = REQUIRED` annotations.
//!
//! The rules and wording follow the official Python SDK's validator, so a server built on these types
//! answers like one built on the SDK: a REQUIRED scalar or enum must not hold its default, a REQUIRED
//! repeated field or map needs an element (`Field must contain at least one element.`), a REQUIRED
//! message must be present, and every present nested message is checked too, with paths such as
//! `message.parts[0].content` or `security_schemes[oauth]` (proto field names, as the SDK writes them).
//! Beyond the SDK, every oneof must have its member set: each A2A oneof means "exactly one".
//!
//! A REQUIRED message is a plain field in `a2a-types`, so "absent" is seen as "equal to its default"; that
//! counts as missing only when the message type has REQUIRED fields of its own (a default `TaskStatus`
//! has no state, but a default `AgentCapabilities`, `{}`, is a legitimate value).

use std::collections::BTreeSet;

use anyhow::Result;
use proc_macro2::TokenStream;
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use quote::{format_ident, quote};

use super::field_shape::{Elem, Package, Shape};
use crate::codegen::descriptor::{is_oneof_member, oneof_members};
use crate::codegen::naming::{oneof_type_name, oneof_variant_name};

const REQUIRED: &str = "Field is required.";
const NOT_EMPTY: &str = "Field must contain at least one element.";

pub(crate) fn emit(file: &FileDescriptorProto, package: &Package<'_>) -> Result<TokenStream> {
    // Rust names of the messages that have at least one REQUIRED field.
    let with_required: BTreeSet<String> = file
        .message_type
        .iter()
        .filter(|m| m.field.iter().any(|f| is_required(package, m, f)))
        .filter_map(|m| {
            package
                .rust_names
                .get(&format!("{}.{}", package.name, m.name()))
                .cloned()
        })
        .collect();
    let mut out = TokenStream::new();
    for message in &file.message_type {
        let (full_name, rust) = package.names(message)?;
        let ident = format_ident!("{rust}");
        let body = if package.oneof_messages.contains(&full_name) {
            oneof_only_body(message, package, &ident)?
        } else {
            struct_body(message, package, &with_required)?
        };
        out.extend(quote! {
            impl crate::validate::Validate for #ident {
                fn collect_violations(&self, prefix: &str, out: &mut ::std::vec::Vec<crate::validate::FieldViolation>) {
                    #body
                }
            }
        });
    }
    Ok(out)
}

fn is_required(
    package: &Package<'_>,
    message: &DescriptorProto,
    field: &FieldDescriptorProto,
) -> bool {
    package.required.contains(&format!(
        "{}.{}.{}",
        package.name,
        message.name(),
        field.name()
    ))
}

fn is_message(elem: &Elem) -> bool {
    matches!(elem, Elem::Message(_) | Elem::OneofMessage(_))
}

fn struct_body(
    message: &DescriptorProto,
    package: &Package<'_>,
    with_required: &BTreeSet<String>,
) -> Result<TokenStream> {
    let mut checks = Vec::new();
    for field in message.field.iter().filter(|f| !is_oneof_member(f)) {
        let name = format_ident!("{}", field.name());
        let path = field.name();
        let shape = package.shape(message, field)?;
        let required = is_required(package, message, field);
        let check = match &shape {
            Shape::Repeated(elem) | Shape::Map(elem) => {
                let missing = required.then(|| {
                    quote! {
                        if self.#name.is_empty() {
                            out.push(crate::validate::FieldViolation::at(prefix, #path, #NOT_EMPTY));
                        }
                    }
                });
                let nested = is_message(elem).then(|| match shape {
                    Shape::Map(_) => quote! {
                        for (key, item) in &self.#name {
                            item.collect_violations(&crate::validate::join(prefix, &::std::format!("{}[{}]", #path, key)), out);
                        }
                    },
                    _ => quote! {
                        for (index, item) in self.#name.iter().enumerate() {
                            item.collect_violations(&crate::validate::join(prefix, &::std::format!("{}[{}]", #path, index)), out);
                        }
                    },
                });
                quote!(#missing #nested)
            }
            Shape::Plain(Elem::Message(type_name)) => {
                if with_required.contains(type_name) {
                    quote! {
                        if ::a2a_support::protojson::is_default(&self.#name) {
                            out.push(crate::validate::FieldViolation::at(prefix, #path, #REQUIRED));
                        } else {
                            self.#name.collect_violations(&crate::validate::join(prefix, #path), out);
                        }
                    }
                } else {
                    quote!(self.#name.collect_violations(&crate::validate::join(prefix, #path), out);)
                }
            }
            Shape::Plain(Elem::Enum(_)) => quote! {
                if crate::ProtoEnum::number(self.#name) == 0 {
                    out.push(crate::validate::FieldViolation::at(prefix, #path, #REQUIRED));
                }
            },
            Shape::Plain(_) => quote! {
                if ::a2a_support::protojson::is_default(&self.#name) {
                    out.push(crate::validate::FieldViolation::at(prefix, #path, #REQUIRED));
                }
            },
            Shape::Presence(elem) | Shape::UnlessDefault(elem) => {
                let missing = required.then(|| {
                    quote! {
                        if self.#name.is_none() {
                            out.push(crate::validate::FieldViolation::at(prefix, #path, #REQUIRED));
                        }
                    }
                });
                let nested = is_message(elem).then(|| {
                    quote! {
                        if let ::std::option::Option::Some(item) = &self.#name {
                            item.collect_violations(&crate::validate::join(prefix, #path), out);
                        }
                    }
                });
                quote!(#missing #nested)
            }
        };
        if !check.is_empty() {
            checks.push(check);
        }
    }
    for (index, oneof) in message.oneof_decl.iter().enumerate() {
        let members = oneof_members(message, index);
        if members.is_empty() {
            continue;
        }
        let name = format_ident!("{}", oneof.name());
        let path = oneof.name();
        let enum_ident = format_ident!("{}", oneof_type_name(message.name(), oneof.name()));
        let description = one_of_description(&members);
        let arms = member_arms(&members, package, &quote!(#enum_ident))?;
        checks.push(quote! {
            match &self.#name {
                ::std::option::Option::None => out.push(crate::validate::FieldViolation::at(prefix, #path, #description)),
                ::std::option::Option::Some(member) => match member { #(#arms)* },
            }
        });
    }
    if checks.is_empty() {
        return Ok(quote!(let _ = (prefix, out);));
    }
    Ok(quote!(#(#checks)*))
}

fn one_of_description(members: &[&FieldDescriptorProto]) -> String {
    let names: Vec<&str> = members.iter().map(|f| f.name()).collect();
    format!("Exactly one of {} must be set.", names.join(", "))
}

/// Match arms over a oneof enum's variants: message members are validated at `prefix.member`.
fn member_arms(
    members: &[&FieldDescriptorProto],
    package: &Package<'_>,
    enum_path: &TokenStream,
) -> Result<Vec<TokenStream>> {
    members
        .iter()
        .map(|field| {
            let variant = format_ident!("{}", oneof_variant_name(field.name()));
            let path = field.name();
            Ok(if is_message(&package.elem(field)?) {
                quote!(#enum_path::#variant(item) => item.collect_violations(&crate::validate::join(prefix, #path), out),)
            } else {
                quote!(#enum_path::#variant(_) => {})
            })
        })
        .collect()
}

fn oneof_only_body(
    message: &DescriptorProto,
    package: &Package<'_>,
    ident: &syn::Ident,
) -> Result<TokenStream> {
    let members: Vec<&FieldDescriptorProto> = message
        .field
        .iter()
        .filter(|f| is_oneof_member(f))
        .collect();
    // A Rust enum always has its member: nothing to report for the oneof itself, only inside it.
    let any_message = members
        .iter()
        .map(|f| package.elem(f))
        .collect::<Result<Vec<_>>>()?
        .iter()
        .any(is_message);
    if !any_message {
        return Ok(quote!(let _ = (prefix, out);));
    }
    let arms = member_arms(&members, package, &quote!(#ident))?;
    Ok(quote!(match self { #(#arms)* }))
}
