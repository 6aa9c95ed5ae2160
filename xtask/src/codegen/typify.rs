//! typify as both serde-type generators (`types-v1`, `types-v0_3`) run it: the same settings (no
//! builders, `PartialEq` derived, maps as `BTreeMap`), their own replacements, and the output as a syntax
//! tree to rewrite.

use anyhow::{Context, Result, anyhow};
use serde_json::Value;
use syn::parse_quote;

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
/// impls emitted here go through `crate::protojson::read_object`.
pub(crate) fn read_messages_only_from_objects(generated: &mut syn::File) {
    let objects_only: Vec<syn::Item> = structs_mut(generated)
        .filter(|structure| matches!(structure.fields, syn::Fields::Named(_)))
        .map(|structure| {
            // The derives become inherent `serialize`/`deserialize` functions; the impls below read a
            // message only from a JSON object (serde's derive also reads structs from arrays).
            structure
                .attrs
                .push(parse_quote!(#[serde(remote = "Self")]));
            let ident = &structure.ident;
            parse_quote! {
                const _: () = {
                    impl<'de> ::serde::Deserialize<'de> for #ident {
                        fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                            crate::protojson::read_object(deserializer)
                        }
                    }
                    impl crate::protojson::FromObject for #ident {
                        fn from_object<'de, A: ::serde::de::MapAccess<'de>>(map: A) -> ::std::result::Result<Self, A::Error> {
                            #ident::deserialize(::serde::de::value::MapAccessDeserializer::new(map))
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
