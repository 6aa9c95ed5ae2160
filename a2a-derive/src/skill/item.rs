//! Reading the item under `#[a2a_skill]`: its attributes, visibility and name. Only the head up to the
//! name is parsed; parameters, return type and body stay opaque tokens, and the item is always re-emitted
//! exactly as written, so rustc checks the rest. (Reading no further keeps syn's `full` feature, and its
//! build time, out of every user's build.)

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Lit, LitStr, Token, Visibility};

/// The head of the annotated function.
pub(crate) struct FnHead {
    pub(crate) vis: Visibility,
    pub(crate) ident: Ident,
    /// The `#[doc = "..."]` values (`///` lines), in order.
    pub(crate) docs: Vec<String>,
    /// A `#[doc = ...]` whose value is not a string literal (such as `include_str!`), which the macro cannot read.
    pub(crate) unreadable_doc: Option<Span>,
    /// Another `#[a2a_skill]` on the same function.
    pub(crate) repeated_attribute: Option<Span>,
}

/// Parses the head of `item`. The error is spanned at what makes it unusable (the item is not a
/// function, or it has no body).
pub(crate) fn parse(item: TokenStream) -> syn::Result<FnHead> {
    parse_head.parse2(item)
}

fn parse_head(input: ParseStream) -> syn::Result<FnHead> {
    let attrs = input.call(Attribute::parse_outer)?;
    let vis: Visibility = input.parse()?;
    // `default fn` (specialization) carries a contextual keyword before the signature.
    if input.peek(Token![default]) && !input.peek2(Token![!]) {
        input.parse::<Token![default]>()?;
    }
    let ident = match input.fork().call(fn_name) {
        Ok(_) => input.call(fn_name)?,
        Err(error) => return Err(not_a_function(input).unwrap_or(error)),
    };
    // The rest (generics, parameters, return type, body): kept as it is, never parsed. A function with
    // a body ends with it; one without ends with `;`.
    let last = input.step(|cursor| {
        let mut rest = *cursor;
        let mut last = None;
        while let Some((tree, next)) = rest.token_tree() {
            last = Some(tree);
            rest = next;
        }
        Ok((last, rest))
    })?;
    match last {
        Some(TokenTree::Group(body)) if body.delimiter() == proc_macro2::Delimiter::Brace => {}
        Some(TokenTree::Punct(semi)) if semi.as_char() == ';' => {
            return Err(syn::Error::new(
                semi.span(),
                "#[a2a_skill] needs a function with a body: a free function or a method in an `impl` block",
            ));
        }
        Some(other) => {
            return Err(syn::Error::new(
                other.span(),
                "expected a function body `{ ... }`",
            ));
        }
        None => {
            return Err(syn::Error::new(
                ident.span(),
                "expected the function's parameters and body",
            ));
        }
    }

    let mut docs = Vec::new();
    let mut unreadable_doc = None;
    let mut repeated_attribute = None;
    for attr in &attrs {
        if attr.path().is_ident("doc") {
            if let syn::Meta::NameValue(doc) = &attr.meta {
                match &doc.value {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(text),
                        ..
                    }) => docs.push(text.value()),
                    other => unreadable_doc = unreadable_doc.or(Some(other.span())),
                }
            }
        } else if attr
            .path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "a2a_skill")
        {
            repeated_attribute = repeated_attribute.or(Some(attr.span()));
        }
    }
    Ok(FnHead {
        vis,
        ident,
        docs,
        unreadable_doc,
        repeated_attribute,
    })
}

/// Reads the qualifiers (`const`, `async`, `unsafe`, `safe`, `extern "abi"`), `fn` and the name.
fn fn_name(input: ParseStream) -> syn::Result<Ident> {
    loop {
        if input.peek(Token![const]) && !input.peek2(syn::token::Brace) {
            input.parse::<Token![const]>()?;
        } else if input.peek(Token![async]) {
            input.parse::<Token![async]>()?;
        } else if input.peek(Token![unsafe]) {
            input.parse::<Token![unsafe]>()?;
        } else if input.peek(Token![extern]) {
            input.parse::<Token![extern]>()?;
            if input.peek(LitStr) {
                input.parse::<LitStr>()?;
            }
        } else if input.peek(Ident)
            && !input.peek(Token![fn])
            && input.fork().parse::<Ident>()? == "safe"
        {
            input.parse::<Ident>()?;
        } else {
            break;
        }
    }
    input.parse::<Token![fn]>()?;
    input.parse::<Ident>()
}

/// When the item is not a function at all, the error naming what it is; `None` when it looks like a
/// function whose signature did not parse (then syn's own error is the better one).
fn not_a_function(input: ParseStream) -> Option<syn::Error> {
    let mut cursor = input.cursor();
    let first = cursor.token_tree().map(|(tree, _)| tree);
    // A `fn` before the first `{...}` means a function with a malformed signature.
    while let Some((tree, next)) = cursor.token_tree() {
        match &tree {
            TokenTree::Ident(ident) if ident == "fn" => return None,
            TokenTree::Group(group) if group.delimiter() == proc_macro2::Delimiter::Brace => break,
            _ => {}
        }
        cursor = next;
    }
    let (span, kind) = match &first {
        Some(TokenTree::Ident(ident)) => (ident.span(), item_kind(&ident.to_string())),
        Some(tree) => (tree.span(), None),
        None => (input.span(), None),
    };
    let message = match kind {
        Some("impl") => "#[a2a_skill] goes on the handler methods inside an `impl` block, not on the block itself".to_string(),
        Some(kind) => format!("#[a2a_skill] goes on a function or a method, not on {kind}"),
        None => "#[a2a_skill] goes on a function or a method".to_string(),
    };
    Some(syn::Error::new(span, message))
}

fn item_kind(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "struct" => "a struct",
        "enum" => "an enum",
        "union" => "a union",
        "trait" => "a trait",
        "impl" => "impl",
        "mod" => "a module",
        "const" => "a constant",
        "static" => "a static",
        "type" => "a type alias",
        "use" => "a `use` declaration",
        "extern" => "an `extern` block or crate",
        "macro_rules" => "a macro",
        _ => return None,
    })
}
