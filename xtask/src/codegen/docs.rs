//! Doc comments of the generated code: the proto's comments by source-info path, and the text rules
//! rustdoc needs (a leading space on each line, bare URLs linked).

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use prost_types::FileDescriptorProto;
use quote::quote;
use syn::{Attribute, parse_quote};

/// Leading comments of the proto file, keyed by source-info path.
pub(crate) struct Comments(BTreeMap<Vec<i32>, String>);

impl Comments {
    pub(crate) fn of(file: &FileDescriptorProto) -> Self {
        let mut map = BTreeMap::new();
        for location in file.source_code_info.iter().flat_map(|info| &info.location) {
            if let Some(text) = &location.leading_comments {
                let text = text
                    .lines()
                    .map(str::trim)
                    .collect::<Vec<_>>()
                    .join("\n")
                    .trim()
                    .to_owned();
                if !text.is_empty() {
                    map.insert(location.path.clone(), text);
                }
            }
        }
        Self(map)
    }

    pub(crate) fn get(&self, path: &[i32]) -> Option<&str> {
        self.0.get(path).map(String::as_str)
    }
}

/// `#[doc]` attributes for `text`, one per line, each through [`doc_text`].
pub(crate) fn doc_attrs(text: &str) -> TokenStream {
    let lines = text.lines().map(doc_text);
    quote! { #(#[doc = #lines])* }
}

/// `#[doc]` attributes for `text`, one per line, each only given a leading space (for text written for
/// rustdoc already, such as the v0.3 generator's own).
pub(crate) fn verbatim_doc_attrs(doc: &str) -> TokenStream {
    let lines = doc.lines().map(|line| format!(" {line}"));
    quote!(#(#[doc = #lines])*)
}

/// Doc text as rustdoc wants it: each line starting with a space (typify writes `///Text`), and bare
/// URLs in angle brackets so they become links instead of `rustdoc::bare_urls` warnings.
pub(crate) fn doc_text(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = link_bare_urls(line);
            if line.is_empty() || line.starts_with(' ') {
                line
            } else {
                format!(" {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn link_bare_urls(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest
        .find("http://")
        .or_else(|| rest.find("https://"))
        .map(|i| {
            // Take whichever scheme comes first.
            match (rest.find("http://"), rest.find("https://")) {
                (Some(a), Some(b)) => a.min(b),
                _ => i,
            }
        })
    {
        let (before, from_url) = rest.split_at(start);
        out.push_str(before);
        let length = from_url
            .find(|c: char| {
                c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | ')' | ']')
            })
            .unwrap_or(from_url.len());
        let url = from_url[..length].trim_end_matches(['.', ',', ';', ':']);
        let already_marked = before.ends_with(['<', '`', '(', '[']);
        if already_marked {
            out.push_str(url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        rest = &from_url[url.len()..];
    }
    out.push_str(rest);
    out
}

/// Rewrites every `#[doc = "..."]` inside `attrs` with [`doc_text`].
pub(crate) fn fix_docs(attrs: &mut [Attribute]) {
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(pair) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &pair.value
        {
            let fixed = doc_text(&text.value());
            *attr = parse_quote!(#[doc = #fixed]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_get_a_leading_space_and_linked_urls() {
        assert_eq!(
            doc_text("Base URL, e.g. \"https://agent.example.org/a2a\"."),
            " Base URL, e.g. \"<https://agent.example.org/a2a>\"."
        );
        assert_eq!(
            doc_text(" See <https://a.example> and `http://b.example`."),
            " See <https://a.example> and `http://b.example`."
        );
        assert_eq!(
            doc_text("http://x.example/a, then https://y.example."),
            " <http://x.example/a>, then <https://y.example>."
        );
    }
}
