//! `tests/src/generated/strategies_v1.rs`: a proptest strategy for every `a2a_types::v1` message, generated from
//! the descriptor with the same field classification as the types themselves ([`super::field_shape`]),
//! and `for_each_message`, which hands each (serde type, protobuf type, strategy) to a round-trip runner.
//!
//! Strategies produce canonical values only (what reading canonical ProtoJSON gives back): fields without
//! presence are `None` rather than `Some(default)`, and JSON numbers are integers within 2^53 or
//! non-integral doubles, the values a `google.protobuf.Value` holds exactly. Integer fields range over
//! their whole type (64-bit ones beyond 2^53, which only their string form carries); float fields get
//! short decimals, which survive the trip through JSON text exactly (serde_json's default float parser
//! may miss the last bit of a 17-digit one, and NaN equals nothing).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Result, bail};
use proc_macro2::TokenStream;
use prost_types::{DescriptorProto, FileDescriptorProto};
use quote::{format_ident, quote};

use super::field_shape::{Elem, Number, Package, Shape};
use crate::codegen::descriptor::{is_oneof_member, oneof_members};
use crate::codegen::naming::{oneof_type_name, oneof_variant_name, strategy_function};

/// Largest number of fields in one proptest tuple (proptest implements `Strategy` up to 12).
const CHUNK: usize = 10;

pub(crate) fn emit(file: &FileDescriptorProto, package: &Package<'_>) -> Result<TokenStream> {
    check_acyclic(file, package)?;
    let mut out = TokenStream::new();
    let mut runs = Vec::new();
    for message in &file.message_type {
        let (full_name, rust) = package.names(message)?;
        let ident = format_ident!("{rust}");
        let function = strategy_fn(&rust);
        let body = if package.oneof_messages.contains(&full_name) {
            oneof_strategy(message, package, &ident, 0)?
        } else {
            struct_strategy(message, package, &ident, &mut out)?
        };
        let doc = format!(" Canonical values of `{full_name}`.");
        out.extend(quote! {
            #[doc = #doc]
            pub fn #function() -> BoxedStrategy<::a2a_types::v1::#ident> {
                #body
            }
        });
        runs.push(
            quote!(runner.run::<::a2a_types::v1::#ident, ::a2a_proto::v1::#ident>(#function())),
        );
    }
    out.extend(quote! {
        /// Hands every message type, with its strategy, to `runner`.
        pub fn for_each_message<R: crate::RoundTrip>(runner: &mut R) {
            #(#runs;)*
        }
    });
    Ok(quote! {
        use proptest::prelude::*;
        #out
    })
}

/// The function returning the strategy of `rust_type`.
fn strategy_fn(rust_type: &str) -> syn::Ident {
    format_ident!("{}", strategy_function(rust_type))
}

/// Strategies are built by direct recursion, which would never end on a recursive message.
fn check_acyclic(file: &FileDescriptorProto, package: &Package<'_>) -> Result<()> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for message in &file.message_type {
        for field in &message.field {
            if let Elem::Message(target) | Elem::OneofMessage(target) =
                package.elem(field).unwrap_or(Elem::Bool)
            {
                edges
                    .entry(message.name().to_owned())
                    .or_default()
                    .insert(target);
            }
        }
    }
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
    ) -> Result<()> {
        if stack.iter().any(|n| n == node) {
            bail!(
                "recursive messages ({} -> {node}) need depth-limited strategies, not supported yet",
                stack.join(" -> ")
            );
        }
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, stack)?;
        }
        stack.pop();
        Ok(())
    }
    for node in edges.keys() {
        visit(node, &edges, &mut Vec::new())?;
    }
    Ok(())
}

fn elem_strategy(elem: &Elem) -> TokenStream {
    match elem {
        Elem::String => quote!(crate::strategy::string()),
        Elem::Bool => quote!(any::<bool>()),
        Elem::Number(number) => number_strategy(*number),
        Elem::Bytes => quote!(crate::strategy::bytes()),
        Elem::Enum(name) => {
            let ident = format_ident!("{name}");
            quote!(crate::strategy::open_enum::<::a2a_types::v1::#ident>())
        }
        Elem::Message(name) | Elem::OneofMessage(name) => {
            let function = strategy_fn(name);
            quote!(#function())
        }
        Elem::Timestamp => quote!(crate::strategy::timestamp()),
        Elem::Struct => quote!(crate::strategy::json_object()),
        Elem::Value => quote!(crate::strategy::json_value()),
    }
}

/// Any value of a numeric kind: the full range for integers, decimals of up to 10 (`f64`) or 5 (`f32`)
/// significant digits for floats.
fn number_strategy(number: Number) -> TokenStream {
    match number {
        Number::F64 => quote!(
            (any::<i32>(), 0..6i32)
                .prop_map(|(digits, scale)| f64::from(digits) / 10f64.powi(scale))
        ),
        Number::F32 => quote!(
            (any::<i16>(), 0..4i32)
                .prop_map(|(digits, scale)| f32::from(digits) / 10f32.powi(scale))
        ),
        integer => {
            let ty = integer.rust_type();
            quote!(any::<#ty>())
        }
    }
}

/// Values other than the default, for fields where the default reads back as `None`.
fn non_default_strategy(elem: &Elem) -> Result<TokenStream> {
    Ok(match elem {
        Elem::String => quote!(crate::strategy::non_empty_string()),
        Elem::Bool => quote!(Just(true)),
        Elem::Number(number) => {
            let each = number_strategy(*number);
            let zero = match number {
                Number::F32 | Number::F64 => quote!(0.0),
                _ => quote!(0),
            };
            quote!(#each.prop_filter("not the default", |v| *v != #zero))
        }
        Elem::Enum(name) => {
            let ident = format_ident!("{name}");
            quote!(crate::strategy::non_default_enum::<::a2a_types::v1::#ident>())
        }
        other => bail!("{other:?} has no default-free strategy"),
    })
}

fn field_strategy(shape: &Shape) -> Result<TokenStream> {
    Ok(match shape {
        Shape::Repeated(elem) => {
            let each = elem_strategy(elem);
            quote!(proptest::collection::vec(#each, 0..3))
        }
        Shape::Map(elem) => {
            let each = elem_strategy(elem);
            quote!(proptest::collection::btree_map(crate::strategy::string(), #each, 0..3))
        }
        Shape::Plain(elem) => elem_strategy(elem),
        Shape::Presence(elem) => {
            let each = elem_strategy(elem);
            quote!(proptest::option::of(#each))
        }
        Shape::UnlessDefault(elem) => {
            let each = non_default_strategy(elem)?;
            quote!(proptest::option::of(#each))
        }
    })
}

fn struct_strategy(
    message: &DescriptorProto,
    package: &Package<'_>,
    ident: &syn::Ident,
    out: &mut TokenStream,
) -> Result<TokenStream> {
    let mut names = Vec::new();
    let mut strategies = Vec::new();
    for field in message.field.iter().filter(|f| !is_oneof_member(f)) {
        names.push(format_ident!("{}", field.name()));
        strategies.push(field_strategy(&package.shape(message, field)?)?);
    }
    for (index, oneof) in message.oneof_decl.iter().enumerate() {
        if oneof_members(message, index).is_empty() {
            continue;
        }
        let enum_name = oneof_type_name(message.name(), oneof.name());
        let enum_ident = format_ident!("{enum_name}");
        let function = strategy_fn(&enum_name);
        let body = oneof_strategy(message, package, &enum_ident, index)?;
        let doc = format!(" Canonical values of `{enum_name}`.");
        out.extend(quote! {
            #[doc = #doc]
            pub fn #function() -> BoxedStrategy<::a2a_types::v1::#enum_ident> {
                #body
            }
        });
        names.push(format_ident!("{}", oneof.name()));
        strategies.push(quote!(proptest::option::of(#function())));
    }
    // Nested tuples of at most CHUNK fields each.
    let chunks: Vec<(Vec<syn::Ident>, Vec<TokenStream>)> = names
        .chunks(CHUNK)
        .zip(strategies.chunks(CHUNK))
        .map(|(n, s)| (n.to_vec(), s.to_vec()))
        .collect();
    let tuple_strategies = chunks.iter().map(|(_, s)| quote!((#(#s,)*)));
    let tuple_patterns = chunks.iter().map(|(n, _)| quote!((#(#n,)*)));
    Ok(quote! {
        (#(#tuple_strategies,)*)
            .prop_map(|(#(#tuple_patterns,)*)| ::a2a_types::v1::#ident { #(#names),* })
            .boxed()
    })
}

fn oneof_strategy(
    message: &DescriptorProto,
    package: &Package<'_>,
    ident: &syn::Ident,
    oneof: usize,
) -> Result<TokenStream> {
    let arms = oneof_members(message, oneof)
        .into_iter()
        .map(|field| {
            let variant = format_ident!("{}", oneof_variant_name(field.name()));
            let strategy = elem_strategy(&package.elem(field)?);
            Ok(quote!(#strategy.prop_map(::a2a_types::v1::#ident::#variant)))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(quote!(prop_oneof![#(#arms),*].boxed()))
}
