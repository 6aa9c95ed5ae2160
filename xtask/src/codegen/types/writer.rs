//! The ProtoJSON encoders of every message (`generated/json_write.rs`): a
//! `a2a_support::json_write::WriteJson` impl per message and oneof-only message, a `WriteMember` impl
//! per oneof enum. They write the bytes the serde attributes of [`super::fields`] make
//! `serde_json::to_vec` write (the same fields in the same order, left out on the same conditions),
//! straight into a buffer; the tests compare the two on every message.
//!
//! Each field's shape ([`super::field_shape`]) decides when it is left out and how it is written;
//! numbers go through the same `protojson` helpers as the serde attributes name, so their rules stay
//! in one place.

use anyhow::{Result, bail};
use proc_macro2::TokenStream;
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use quote::{format_ident, quote};

use super::field_shape::{Elem, Number, Package, Shape};
use crate::codegen::descriptor::{is_member_of, is_oneof_member, oneof_members};
use crate::codegen::naming::{checked_field_ident, oneof_type_name, oneof_variant_name};

/// The support module the generated encoders call.
fn support() -> TokenStream {
    quote!(::a2a_support::json_write)
}

/// Emits the encoders of every message of `file`.
pub(crate) fn emit(file: &FileDescriptorProto, package: &Package<'_>) -> Result<TokenStream> {
    let json_write = support();
    let mut out = TokenStream::new();
    for message in &file.message_type {
        let (full_name, rust) = package.names(message)?;
        let ident = format_ident!("{rust}");
        if package.oneof_messages.contains(&full_name) {
            out.extend(write_member_impl(message, package, &ident, 0)?);
            out.extend(quote! {
                impl #json_write::WriteJson for #ident {
                    fn write_json(&self, out: &mut #json_write::JsonWriter) -> ::std::result::Result<(), #json_write::Error> {
                        out.oneof_message(self)
                    }
                }
            });
        } else {
            out.extend(message_impl(message, package, &ident)?);
        }
    }
    Ok(out)
}

/// `"jsonName":`, the constant a field's key is written as.
fn quoted_key(field: &FieldDescriptorProto) -> Result<String> {
    let json = field.json_name();
    // JSON names come from proto identifiers; anything else would need escaping here.
    if !json.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        bail!(
            "{}: JSON name {json:?} is not a plain identifier",
            field.name()
        );
    }
    Ok(format!("\"{json}\":"))
}

fn message_impl(
    message: &DescriptorProto,
    package: &Package<'_>,
    ident: &syn::Ident,
) -> Result<TokenStream> {
    let json_write = support();
    let mut statements = Vec::new();
    let mut oneofs = TokenStream::new();
    // Fields in proto order, each oneof where its first member is declared: the order of the struct's
    // fields, and so of serde's output.
    let mut oneofs_written = Vec::new();
    for field in &message.field {
        if is_oneof_member(field) {
            let index = field.oneof_index() as usize;
            if oneofs_written.contains(&index) {
                continue;
            }
            oneofs_written.push(index);
            let oneof = &message.oneof_decl[index];
            let name = format_ident!("{}", checked_field_ident(oneof.name())?);
            let enum_ident = format_ident!("{}", oneof_type_name(message.name(), oneof.name()));
            oneofs.extend(write_member_impl(message, package, &enum_ident, index)?);
            statements.push(quote! {
                if let ::std::option::Option::Some(member) = &self.#name {
                    #json_write::WriteMember::write_member(member, out, &mut first)?;
                }
            });
            continue;
        }
        let name = format_ident!("{}", checked_field_ident(field.name())?);
        let shape = package.shape(message, field)?;
        let key = quoted_key(field)?;
        statements.push(if package.written_in_full(message) {
            written_always(&shape, quote!(self.#name), &key)
                .map_err(|e| anyhow::anyhow!("{}: {e}", field.name()))?
        } else {
            field_statement(&shape, quote!(self.#name), &key)
        });
    }
    // `first` is unused in a message without fields.
    let first = if statements.is_empty() {
        quote!()
    } else {
        quote!(let mut first = true;)
    };
    Ok(quote! {
        impl #json_write::WriteJson for #ident {
            fn write_json(&self, out: &mut #json_write::JsonWriter) -> ::std::result::Result<(), #json_write::Error> {
                out.begin_object();
                #first
                #(#statements)*
                out.end_object();
                ::std::result::Result::Ok(())
            }
        }

        #oneofs
    })
}

/// Writes one field (its key and value), or nothing when ProtoJSON leaves it out.
fn field_statement(shape: &Shape, field: TokenStream, key: &str) -> TokenStream {
    let protojson = quote!(::a2a_support::protojson);
    let key = quote!(out.key(&mut first, #key););
    match shape {
        Shape::Repeated(Elem::Number(_)) => quote! {
            if !#field.is_empty() {
                #key
                out.serde_with(|s| #protojson::repeated_numbers::serialize(&#field, s))?;
            }
        },
        Shape::Repeated(elem) => {
            let each = elem_write(elem, quote!(item));
            quote! {
                if !#field.is_empty() {
                    #key
                    out.array(&#field, |out, item| #each)?;
                }
            }
        }
        Shape::Map(Elem::Number(_)) => quote! {
            if !#field.is_empty() {
                #key
                out.serde_with(|s| #protojson::number_map::serialize(&#field, s))?;
            }
        },
        Shape::Map(elem) => {
            let each = elem_write(elem, quote!(item));
            quote! {
                if !#field.is_empty() {
                    #key
                    out.map(&#field, |out, item| #each)?;
                }
            }
        }
        // Always written: a REQUIRED message is present in every valid message, even when empty.
        Shape::Plain(elem @ Elem::Message(_)) => {
            let write = elem_write(elem, quote!(&#field));
            quote! {
                #key
                #write?;
            }
        }
        Shape::Plain(elem) => {
            let write = match elem {
                Elem::Number(Number::I32) => quote!(out.serde(value)),
                Elem::Number(_) => {
                    quote!(out.serde_with(|s| #protojson::number::serialize(value, s)))
                }
                _ => elem_write(elem, quote!(value)),
            };
            quote! {
                if !#protojson::is_default(&#field) {
                    #key
                    let value = &#field;
                    #write?;
                }
            }
        }
        Shape::Presence(Elem::Number(number)) => {
            let write = match number {
                Number::I32 => quote!(out.serde(value)),
                _ => quote!(out.serde_with(|s| #protojson::number::serialize(value, s))),
            };
            quote! {
                if let ::std::option::Option::Some(value) = &#field {
                    #key
                    #write?;
                }
            }
        }
        Shape::Presence(elem) => {
            let write = elem_write(elem, quote!(value));
            quote! {
                if let ::std::option::Option::Some(value) = &#field {
                    #key
                    #write?;
                }
            }
        }
        Shape::UnlessDefault(Elem::Number(Number::I32)) => quote! {
            if !#protojson::is_unset(&#field) {
                #key
                out.serde(&#field)?;
            }
        },
        Shape::UnlessDefault(Elem::Number(_)) => quote! {
            if !#protojson::is_unset(&#field) {
                #key
                out.serde_with(|s| #protojson::number_unless_default::serialize(&#field, s))?;
            }
        },
        Shape::UnlessDefault(elem) => {
            let write = elem_write(elem, quote!(value));
            quote! {
                if let ::std::option::Option::Some(value) = &#field && !#protojson::is_default(value) {
                    #key
                    #write?;
                }
            }
        }
    }
}

/// Writes one field (its key and value) even at its default value: a plain scalar, or a list of
/// messages, the kinds [`super::field_shape::Package::written_in_full`]'s messages have.
fn written_always(shape: &Shape, field: TokenStream, key: &str) -> Result<TokenStream> {
    let key = quote!(out.key(&mut first, #key););
    Ok(match shape {
        Shape::Plain(Elem::Number(Number::I32)) => quote! {
            #key
            out.serde(&#field)?;
        },
        Shape::Plain(elem @ (Elem::String | Elem::Bool | Elem::Enum(_))) => {
            let write = elem_write(elem, quote!(&#field));
            quote! {
                #key
                #write?;
            }
        }
        Shape::Repeated(elem @ Elem::Message(_)) => {
            let each = elem_write(elem, quote!(item));
            quote! {
                #key
                out.array(&#field, |out, item| #each)?;
            }
        }
        other => bail!("a {other:?} field is not written in full yet"),
    })
}

/// An expression writing one value of kind `elem` (`value` is a reference to it), of type
/// `Result<(), Error>`.
fn elem_write(elem: &Elem, value: TokenStream) -> TokenStream {
    let json_write = support();
    let done = quote!(::std::result::Result::<(), #json_write::Error>::Ok(()));
    match elem {
        Elem::String => quote!({ out.string(#value); #done }),
        Elem::Bool => quote!({ out.bool(*#value); #done }),
        Elem::Bytes => quote!({ out.base64(#value); #done }),
        Elem::Number(Number::I32) => quote!(out.serde(#value)),
        Elem::Number(_) => quote!(out.serde(&::a2a_support::protojson::Number(*#value))),
        Elem::Enum(_) => quote!(out.enum_value(*#value)),
        Elem::Message(_) | Elem::OneofMessage(_) => quote!(out.message(#value)),
        Elem::Timestamp => quote!(out.timestamp(#value)),
        Elem::Struct => quote!(out.object(#value)),
        Elem::Value => quote!(out.value(#value)),
    }
}

/// The `WriteMember` impl of oneof number `oneof` of `message`, as the enum `ident`.
fn write_member_impl(
    message: &DescriptorProto,
    package: &Package<'_>,
    ident: &syn::Ident,
    oneof: usize,
) -> Result<TokenStream> {
    let json_write = support();
    let mut arms = Vec::new();
    for field in oneof_members(message, oneof) {
        debug_assert!(is_member_of(field, oneof));
        let variant = format_ident!("{}", oneof_variant_name(field.name()));
        let key = quoted_key(field)?;
        let write = elem_write(&package.elem(field)?, quote!(value));
        arms.push(quote! {
            Self::#variant(value) => {
                out.key(first, #key);
                #write
            }
        });
    }
    Ok(quote! {
        impl #json_write::WriteMember for #ident {
            fn write_member(&self, out: &mut #json_write::JsonWriter, first: &mut bool) -> ::std::result::Result<(), #json_write::Error> {
                match self {
                    #(#arms)*
                }
            }
        }
    })
}
