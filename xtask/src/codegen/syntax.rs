//! Helpers for reading the Rust syntax trees the generators rewrite (typify's, prost-build's and
//! pbjson-build's output): types, paths and attributes are inspected structurally, never by matching
//! their printed tokens.

use quote::ToTokens;
use syn::{Attribute, Type};

/// `T` of an `Option<T>` type, however the `Option` is spelled (`::std::option::Option<T>`,
/// `::core::option::Option<T>`, `Option<T>`).
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    generic_inner(ty, "Option")
}

/// `T` of a one-parameter generic type whose last path segment is `name` (`Vec<T>`,
/// `::std::vec::Vec<T>`, ...).
pub(crate) fn generic_inner<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The structs of a syntax tree's top level (typify writes every type there), for rewriting.
pub(crate) fn structs_mut(file: &mut syn::File) -> impl Iterator<Item = &mut syn::ItemStruct> {
    file.items.iter_mut().filter_map(|item| match item {
        syn::Item::Struct(structure) => Some(structure),
        _ => None,
    })
}

/// The idents of a path's segments joined with `::` (`part::Content`), generic arguments left out.
pub(crate) fn path_string(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// The idents of a path type's segments (`part::Content` → `["part", "Content"]`); `None` for other
/// types.
pub(crate) fn path_idents(ty: &Type) -> Option<Vec<String>> {
    match ty {
        Type::Path(path) if path.qself.is_none() => Some(
            path.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// The last ident of a path type (`crate::v0_3::TaskKind` → `TaskKind`).
pub(crate) fn last_ident(ty: &Type) -> Option<String> {
    path_idents(ty)?.pop()
}

/// Whether `ty` is the bare type `name` (such as `i32`).
pub(crate) fn is_named_type(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident(name))
}

/// A type as written, for error messages.
pub(crate) fn type_text(ty: &Type) -> String {
    ty.to_token_stream().to_string().replace(' ', "")
}

/// Whether a `#[derive(...)]` among `attrs` names `name` (as `Default` or `::core::default::Default`).
pub(crate) fn derives(attrs: &[Attribute], name: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|attr| {
            attr.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == name))
            })
        })
}

/// The string value of `key = "..."` inside the `#[outer(...)]` attributes among `attrs`
/// (`#[serde(rename = "x")]`, `#[prost(tag = "3")]`); other entries, with or without values, are skipped.
pub(crate) fn attribute_value(attrs: &[Attribute], outer: &str, key: &str) -> Option<String> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident(outer)) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(key) {
                let value: syn::LitStr = meta.value()?.parse()?;
                found = Some(value.value());
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                // A nested list such as `oneof = ...` is not one; skip `name(...)` entries whole.
                let _content;
                syn::parenthesized!(_content in meta.input);
            }
            Ok(())
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn option_types_are_recognised_however_spelled() {
        for ty in [
            parse_quote!(::std::option::Option<i64>),
            parse_quote!(::core::option::Option<i64>),
            parse_quote!(Option<i64>),
        ] {
            let inner = option_inner(&ty).unwrap();
            assert!(is_named_type(inner, "i64"));
        }
        assert!(option_inner(&parse_quote!(::std::vec::Vec<i64>)).is_none());
        assert!(!is_named_type(&parse_quote!(::core::primitive::i32), "i32"));
    }

    #[test]
    fn paths_and_idents() {
        let ty: Type = parse_quote!(::core::option::Option<part::Content>);
        let inner = option_inner(&ty).unwrap();
        assert_eq!(path_idents(inner).unwrap(), ["part", "Content"]);
        assert_eq!(
            last_ident(&parse_quote!(crate::v0_3::TaskKind)).unwrap(),
            "TaskKind"
        );
        assert_eq!(path_string(&parse_quote!(a::B)), "a::B");
        assert_eq!(
            type_text(&parse_quote!(::std::vec::Vec<u8>)),
            "::std::vec::Vec<u8>"
        );
    }

    #[test]
    fn attributes_are_read_structurally() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[derive(Clone, ::core::default::Default, PartialEq)]),
            parse_quote!(#[prost(oneof = "part::Content", tags = "1, 2")]),
            parse_quote!(#[prost(string, tag = "3")]),
            parse_quote!(#[serde(default, rename = "contextId", skip_serializing_if = "Option::is_none")]),
        ];
        assert!(derives(&attrs, "Default"));
        assert!(!derives(&attrs, "Hash"));
        assert_eq!(attribute_value(&attrs, "prost", "tag").unwrap(), "3");
        assert_eq!(
            attribute_value(&attrs, "serde", "rename").unwrap(),
            "contextId"
        );
        assert!(attribute_value(&attrs, "serde", "alias").is_none());
    }
}
