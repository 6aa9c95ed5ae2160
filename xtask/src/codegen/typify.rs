//! typify as both serde-type generators (`types-v1`, `types-v0_3`) run it: the same settings (no
//! builders, `PartialEq` derived, maps as `BTreeMap`), their own replacements, and the output as a syntax
//! tree to rewrite.

use anyhow::{Context, Result, anyhow};
use quote::ToTokens as _;
use serde_json::Value;
use syn::parse_quote;

use super::in_place::read_in_place_impl;
use super::syntax::structs_mut;

/// typify's settings, built up with the replacements of one generator.
pub(crate) struct Typify {
    settings: ::typify::TypeSpaceSettings,
}

impl Typify {
    pub(crate) fn new() -> Self {
        let mut settings = ::typify::TypeSpaceSettings::default();
        settings
            .with_struct_builder(false)
            .with_derive("PartialEq".to_owned())
            .with_map_type("::std::collections::BTreeMap");
        Self { settings }
    }

    /// Makes typify refer to `rust_path` wherever the schema refers to definition `name`, instead of
    /// generating a type for it.
    pub(crate) fn replace(mut self, name: &str, rust_path: &str) -> Self {
        self.settings
            .with_replacement(name, rust_path, std::iter::empty());
        self
    }

    /// Runs typify over a draft-07 schema with `definitions`; `what` names the schema in errors.
    pub(crate) fn generate(&self, schema: Value, what: &str) -> Result<syn::File> {
        let mut space = ::typify::TypeSpace::new(&self.settings);
        let root: schemars::schema::RootSchema = serde_json::from_value(schema)
            .with_context(|| format!("{what} is not a schemars RootSchema"))?;
        space
            .add_root_schema(root)
            .map_err(|e| anyhow!("typify on {what}: {e}"))?;
        syn::parse2(space.to_stream())
            .with_context(|| format!("parsing typify's output for {what}"))
    }
}

/// Makes every struct typify generated read only from a JSON object. serde's derive also reads a
/// struct from an array, field by field in order (`[null, "task-1", 0]` as a `GetTaskRequest`), which
/// no JSON message allows: the derives become inherent functions (`remote = "Self"`) and the trait
/// impls emitted here go through `::a2a_support::protojson::read_object`.
///
/// A struct with a flattened oneof (`Part.content`) is read without serde's `flatten`, which buffers
/// every entry the struct's own fields do not take and reads it again: a private copy of the struct
/// derives the reading of the other fields (`remote` to the struct), over a map that takes the oneof's
/// members out as they pass (`::a2a_support::protojson::flat_oneof::read`).
pub(crate) fn read_messages_only_from_objects(generated: &mut syn::File, in_place: bool) {
    // The structs read in place (see `super::in_place`), when asked for: every struct the reader
    // covers, so that one may read another where it lies.
    let in_place_messages: Vec<String> = if in_place {
        structs_mut(generated)
            .filter(|structure| read_in_place_impl(structure, &[]).is_some())
            .map(|structure| structure.ident.to_string())
            .collect()
    } else {
        Vec::new()
    };
    let objects_only: Vec<syn::Item> = structs_mut(generated)
        .filter(|structure| matches!(structure.fields, syn::Fields::Named(_)))
        .map(|structure| {
            // The derives become inherent `serialize`/`deserialize` functions; the impls below read a
            // message only from a JSON object (serde's derive also reads structs from arrays).
            structure
                .attrs
                .push(parse_quote!(#[serde(remote = "Self")]));
            let ident = structure.ident.clone();
            let in_place_impl = in_place_messages
                .contains(&ident.to_string())
                .then(|| read_in_place_impl(structure, &in_place_messages))
                .flatten();
            let from_object: syn::Expr = match flat_oneof_fields(structure) {
                Some(fields) => {
                    let oneof = fields.oneof.clone();
                    let definition = fields.definition;
                    parse_quote! {{
                        #definition
                        let (mut message, oneof) = ::a2a_support::protojson::flat_oneof::read(map, |map| {
                            Fields::deserialize(::serde::de::value::MapAccessDeserializer::new(map))
                        })?;
                        message.#oneof = oneof;
                        ::std::result::Result::Ok(message)
                    }}
                }
                None => parse_quote! {
                    #ident::deserialize(::serde::de::value::MapAccessDeserializer::new(map))
                },
            };
            // With an in-place reader, `Deserialize` goes through it, and the derive's reading stays
            // reachable as `ReferenceRead` for the tests that compare the two.
            let (reader, in_place_items) = match in_place_impl {
                Some(read_in_place) => (
                    quote::quote!(::a2a_support::protojson::read_in_place(deserializer)),
                    quote::quote! {
                        #read_in_place
                        impl ::a2a_support::protojson::ReferenceRead for #ident {
                            fn read_reference<'de, D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                                ::a2a_support::protojson::read_object(deserializer)
                            }
                        }
                    },
                ),
                None => (
                    quote::quote!(::a2a_support::protojson::read_object(deserializer)),
                    quote::quote!(),
                ),
            };
            parse_quote! {
                const _: () = {
                    impl<'de> ::serde::Deserialize<'de> for #ident {
                        fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                            #reader
                        }
                    }
                    #in_place_items
                    impl ::a2a_support::protojson::FromObject for #ident {
                        fn from_object<'de, A: ::serde::de::MapAccess<'de>>(map: A) -> ::std::result::Result<Self, A::Error> {
                            #from_object
                        }
                    }
                    impl ::serde::Serialize for #ident {
                        fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                            #ident::serialize(self, serializer)
                        }
                    }
                };
            }
        })
        .collect();
    generated.items.extend(objects_only);
}

/// How a struct with a flattened oneof is read: `definition` is a private copy `Fields` of the struct
/// that derives the reading of every other field into the struct itself, the oneof left unset.
struct FlatOneofFields {
    oneof: syn::Ident,
    definition: syn::ItemStruct,
}

/// If `structure` has a flattened oneof field, takes `Deserialize` off its derives and answers the
/// private copy that reads the other fields.
fn flat_oneof_fields(structure: &mut syn::ItemStruct) -> Option<FlatOneofFields> {
    let syn::Fields::Named(fields) = &structure.fields else {
        return None;
    };
    let is_flat_oneof = |field: &syn::Field| {
        field.attrs.iter().any(|attr| {
            attr.path().is_ident("serde")
                && attr.to_token_stream().to_string().contains("flat_oneof")
        })
    };
    let oneof = fields
        .named
        .iter()
        .find(|f| is_flat_oneof(f))?
        .ident
        .clone()?;
    let mut definition_fields = fields.clone();
    for field in definition_fields.named.iter_mut() {
        field.attrs.retain(|attr| attr.path().is_ident("serde"));
        field.vis = syn::Visibility::Inherited;
        if is_flat_oneof(field) {
            field.attrs = vec![parse_quote!(#[serde(skip_deserializing)])];
        }
    }
    let remote = structure.ident.to_string();
    let definition: syn::ItemStruct = parse_quote! {
        #[derive(::serde::Deserialize)]
        #[serde(remote = #remote)]
        #[allow(dead_code)]
        struct Fields #definition_fields
    };
    for attr in structure
        .attrs
        .iter_mut()
        .filter(|a| a.path().is_ident("derive"))
    {
        let derives = attr
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .expect("derive takes a list of paths");
        let kept = derives.into_iter().filter(|path| {
            path.segments
                .last()
                .is_none_or(|s| s.ident != "Deserialize")
        });
        *attr = parse_quote!(#[derive(#(#kept),*)]);
    }
    Some(FlatOneofFields { oneof, definition })
}
