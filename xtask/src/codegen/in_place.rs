//! The in-place readers of the v1 messages (`a2a_support::protojson::ReadInPlace`): for each struct,
//! a `read_members` that matches each member name against the field's JSON names (its `rename` and
//! `alias` attributes), rejects a member twice as serde's derive does, and reads the value straight
//! into the field, through the same helper its serde attribute names. Nested messages (`T`,
//! `Option<T>`, `Vec<T>` of another struct of the file) are read where they lie, never moved.
//!
//! Everything comes from the serde attributes typify's structs carry after [`super::types`] set them,
//! so the reader cannot drift from the derive it stands in for; the tests compare the two anyway.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use super::syntax::{last_ident, option_inner};

/// The serde attributes of one field that decide how it is read.
#[derive(Default)]
struct FieldRules {
    rename: Option<String>,
    aliases: Vec<String>,
    default: bool,
    flatten: bool,
    deserialize_with: Option<syn::Path>,
    with: Option<syn::Path>,
}

fn field_rules(field: &syn::Field) -> syn::Result<FieldRules> {
    let mut rules = FieldRules::default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match name.as_str() {
                "default" if !meta.input.peek(syn::Token![=]) => rules.default = true,
                "flatten" => rules.flatten = true,
                "rename" => rules.rename = Some(meta.value()?.parse::<syn::LitStr>()?.value()),
                "alias" => rules
                    .aliases
                    .push(meta.value()?.parse::<syn::LitStr>()?.value()),
                "deserialize_with" => {
                    rules.deserialize_with = Some(meta.value()?.parse::<syn::LitStr>()?.parse()?)
                }
                "with" => rules.with = Some(meta.value()?.parse::<syn::LitStr>()?.parse()?),
                _ => {
                    if meta.input.peek(syn::Token![=]) {
                        let _: syn::Expr = meta.value()?.parse()?;
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(rules)
}

/// `T` of `Vec<T>` however spelled.
fn vec_inner(ty: &Type) -> Option<&Type> {
    crate::codegen::syntax::generic_inner(ty, "Vec")
}

/// Whether `ty` names one of the messages read in place (a plain path ending in one of `messages`).
fn is_message(ty: &Type, messages: &[String]) -> bool {
    matches!(ty, Type::Path(path) if path.path.segments.last().is_some_and(|s| s.arguments.is_empty()))
        && last_ident(ty).is_some_and(|name| messages.contains(&name))
}

/// The `ReadInPlace` impl of `structure`, or `None` when it has a field the in-place reader does not
/// cover (one without `default`, or more than 64 fields): that struct keeps the derive's reading.
/// `messages` are the structs of the file that get one.
pub(crate) fn read_in_place_impl(
    structure: &syn::ItemStruct,
    messages: &[String],
) -> Option<TokenStream> {
    let syn::Fields::Named(fields) = &structure.fields else {
        return None;
    };
    if fields.named.len() > 64 {
        return None;
    }
    let support = quote!(::a2a_support::protojson);
    let mut arms = Vec::new();
    let mut oneof: Option<(syn::Ident, Type)> = None;
    for (index, field) in fields.named.iter().enumerate() {
        let ident = field.ident.clone()?;
        let rules = field_rules(field).ok()?;
        let ty = &field.ty;
        if rules.flatten {
            let inner = option_inner(ty)?.clone();
            oneof = Some((ident, inner));
            continue;
        }
        if !rules.default {
            return None;
        }
        let json_name = rules
            .rename
            .clone()
            .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned());
        let names = std::iter::once(json_name.clone()).chain(rules.aliases.iter().cloned());
        let index = index as u32;
        let is_null_as_default = rules
            .deserialize_with
            .as_ref()
            .and_then(|p| p.segments.last())
            .is_some_and(|s| s.ident == "null_as_default");
        let read = match (&rules.deserialize_with, &rules.with) {
            (Some(_), _)
                if is_null_as_default && vec_inner(ty).is_some_and(|t| is_message(t, messages)) =>
            {
                quote!(#support::read_repeated_messages(&mut map, &mut self.#ident)?;)
            }
            (Some(_), _) if is_null_as_default && is_message(ty, messages) => {
                quote!(#support::read_message(&mut map, &mut self.#ident)?;)
            }
            (Some(function), _) => {
                quote!(self.#ident = ::a2a_support::next_value_with!(&mut map, #function, #ty)?;)
            }
            (None, Some(module)) => {
                quote!(self.#ident = ::a2a_support::next_value_with!(&mut map, #module::deserialize, #ty)?;)
            }
            (None, None) if option_inner(ty).is_some_and(|t| is_message(t, messages)) => {
                quote!(#support::read_optional_message(&mut map, &mut self.#ident)?;)
            }
            (None, None) => {
                quote!(self.#ident = ::serde::de::MapAccess::next_value::<#ty>(&mut map)?;)
            }
        };
        arms.push(quote! {
            #(#names)|* => {
                #support::first_time(&mut seen, #index, #json_name)?;
                #read
            }
        });
    }
    let ident = &structure.ident;
    let (declare_oneof, offer, place_oneof) = match &oneof {
        Some((field, ty)) => (
            quote!(let mut oneof = #support::FlatOneof::<'de, #ty>::new();),
            quote! {
                let ::std::option::Option::Some(key) = oneof.offer(key, &mut map)? else {
                    continue;
                };
            },
            quote!(self.#field = oneof.into_found();),
        ),
        None => (quote!(), quote!(), quote!()),
    };
    let seen = if arms.is_empty() {
        quote!()
    } else {
        quote!(let mut seen = 0u64;)
    };
    Some(quote! {
        impl #support::ReadInPlace for #ident {
            fn read_members<'de, A: ::serde::de::MapAccess<'de>>(&mut self, mut map: A) -> ::std::result::Result<(), A::Error> {
                #seen
                #declare_oneof
                while let ::std::option::Option::Some(key) = #support::next_key(&mut map)? {
                    #offer
                    match &*key {
                        #(#arms)*
                        _ => #support::skip_value(&mut map)?,
                    }
                }
                #place_oneof
                ::std::result::Result::Ok(())
            }
        }
    })
}
