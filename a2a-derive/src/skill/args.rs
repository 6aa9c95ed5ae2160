//! Parsing the arguments of `#[a2a_skill(...)]` into [`Args`], keeping the span of every key and value.
//!
//! The arguments are split at their top-level commas and each `key ...` is parsed on its own (with
//! [`syn::meta::parser`]), so one malformed key does not hide the problems of the others.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{LitStr, Token, meta::ParseNestedMeta, parenthesized, token};

use crate::errors::Errors;
use crate::text::closest;

/// Every key `#[a2a_skill]` accepts, in the order the docs list them.
pub(crate) const KEYS: &[&str] = &[
    "id",
    "name",
    "description",
    "tags",
    "examples",
    "input_modes",
    "output_modes",
    "security_requirements",
    "crate",
];

/// The attribute's arguments as written; `None` for a key that was not given (or was malformed).
#[derive(Default)]
pub(crate) struct Args {
    pub(crate) id: Option<LitStr>,
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) tags: Option<StrList>,
    pub(crate) examples: Option<StrList>,
    pub(crate) input_modes: Option<StrList>,
    pub(crate) output_modes: Option<StrList>,
    pub(crate) security_requirements: Option<SecurityList>,
    pub(crate) krate: Option<syn::Path>,
    /// Keys that an unknown key was taken for a typo of: their absence is not reported again.
    pub(crate) misspelled: Vec<&'static str>,
    /// Where each key given stands among the arguments, to report problems in that order.
    positions: Vec<(&'static str, usize)>,
}

/// `key("a", "b", ...)`.
pub(crate) struct StrList {
    /// The key, for problems of the list as a whole (such as being empty).
    pub(crate) key: Span,
    pub(crate) values: Vec<LitStr>,
}

/// `security_requirements(...)`: alternatives, any one of which grants access.
pub(crate) struct SecurityList {
    pub(crate) key: Span,
    pub(crate) requirements: Vec<Requirement>,
}

/// One alternative: a single scheme, or `(scheme(...), scheme(...))` needing all of them together.
pub(crate) struct Requirement {
    pub(crate) schemes: Vec<Scheme>,
}

/// `name("scope", ...)`, `name` or `"name"("scope", ...)`.
pub(crate) struct Scheme {
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) scopes: Vec<LitStr>,
}

/// Parses the attribute's arguments; every problem goes to `errors`, and parsing goes on with the next key.
pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> Args {
    let mut args = Args::default();
    let segments = split_top_level_commas(tokens);
    let last = segments.len().saturating_sub(1);
    for (index, (segment, comma)) in segments.into_iter().enumerate() {
        errors.concern(index);
        if segment.is_empty() {
            // `#[a2a_skill()]`, or a trailing comma, leave nothing to parse; `a,,b` is a mistake.
            if let Some(comma) = comma.filter(|_| index != last) {
                errors.at(comma, "expected a key before this `,`");
            }
            continue;
        }
        let parser = syn::meta::parser(|meta| args.parse_key(meta, index));
        errors.ok(parser.parse2(segment));
    }
    args
}

/// Each top-level comma-separated piece of `tokens`, with the span of the comma that ends it.
fn split_top_level_commas(tokens: TokenStream) -> Vec<(TokenStream, Option<Span>)> {
    let mut segments = Vec::new();
    let mut current = Vec::new();
    for tree in tokens {
        match &tree {
            TokenTree::Punct(punct) if punct.as_char() == ',' => {
                segments.push((current.drain(..).collect(), Some(punct.span())));
            }
            _ => current.push(tree),
        }
    }
    segments.push((current.into_iter().collect(), None));
    segments
}

impl Args {
    /// The position of `key` among the arguments; `usize::MAX` when it was not given.
    pub(crate) fn position(&self, key: &str) -> usize {
        self.positions
            .iter()
            .find(|(given, _)| *given == key)
            .map_or(usize::MAX, |&(_, position)| position)
    }

    fn parse_key(&mut self, meta: ParseNestedMeta, position: usize) -> syn::Result<()> {
        let key = match meta.path.get_ident() {
            Some(ident) => ident.unraw().to_string(),
            None => return Err(self.unknown_key(&meta.path)),
        };
        if let Some(&known) = KEYS.iter().find(|&&known| known == key)
            && self.position(known) == usize::MAX
        {
            self.positions.push((known, position));
        }
        let span = meta.path.span();
        match key.as_str() {
            "id" => set(&mut self.id, span, &key, || string_value(&meta, &key)),
            "name" => set(&mut self.name, span, &key, || string_value(&meta, &key)),
            "description" => set(&mut self.description, span, &key, || {
                string_value(&meta, &key)
            }),
            "tags" => set(&mut self.tags, span, &key, || string_list(&meta, &key)),
            "examples" => set(&mut self.examples, span, &key, || string_list(&meta, &key)),
            "input_modes" => set(&mut self.input_modes, span, &key, || {
                string_list(&meta, &key)
            }),
            "output_modes" => set(&mut self.output_modes, span, &key, || {
                string_list(&meta, &key)
            }),
            "security_requirements" => set(&mut self.security_requirements, span, &key, || {
                security_list(&meta)
            }),
            "crate" => set(&mut self.krate, span, &key, || crate_path(&meta)),
            _ => Err(self.unknown_key(&meta.path)),
        }
    }

    fn unknown_key(&mut self, path: &syn::Path) -> syn::Error {
        let shown = quote::ToTokens::to_token_stream(path)
            .to_string()
            .replace(' ', "");
        let hint = match closest(&shown, KEYS) {
            Some(key) => {
                self.misspelled.push(key);
                format!("did you mean `{key}`?")
            }
            None => format!(
                "expected one of {}",
                KEYS.iter()
                    .map(|key| format!("`{key}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        syn::Error::new_spanned(
            path,
            format!("unknown key `{shown}` in #[a2a_skill]: {hint}"),
        )
    }
}

/// Stores the value `parse` reads, unless the key was already given.
fn set<T>(
    slot: &mut Option<T>,
    key_span: Span,
    key: &str,
    parse: impl FnOnce() -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            key_span,
            format!("duplicate key `{key}`: give each key once"),
        ));
    }
    *slot = Some(parse()?);
    Ok(())
}

/// `key = "value"`.
fn string_value(meta: &ParseNestedMeta, key: &str) -> syn::Result<LitStr> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected `{key} = \"...\"`")));
    }
    let input = meta.value()?;
    if input.is_empty() {
        return Err(meta.error(format!("expected a string after `{key} =`")));
    }
    if !input.peek(LitStr) {
        return Err(input.error(format!("expected a string literal: `{key} = \"...\"`")));
    }
    input.parse()
}

/// `key("a", "b", ...)`.
fn string_list(meta: &ParseNestedMeta, key: &str) -> syn::Result<StrList> {
    if !meta.input.peek(token::Paren) {
        return Err(meta.error(format!("expected a list of strings: `{key}(\"...\", ...)`")));
    }
    let content;
    parenthesized!(content in meta.input);
    let mut values = Vec::new();
    while !content.is_empty() {
        if !content.peek(LitStr) {
            return Err(content.error(format!("expected a string literal in `{key}(...)`")));
        }
        values.push(content.parse()?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(StrList {
        key: meta.path.span(),
        values,
    })
}

/// `security_requirements(oauth("read"), (mtls, api_key()), "api-key")`.
fn security_list(meta: &ParseNestedMeta) -> syn::Result<SecurityList> {
    if !meta.input.peek(token::Paren) {
        return Err(meta.error("expected `security_requirements(scheme(\"scope\", ...), ...)`"));
    }
    let content;
    parenthesized!(content in meta.input);
    let requirements =
        Punctuated::<Requirement, Token![,]>::parse_terminated_with(&content, parse_requirement)?;
    Ok(SecurityList {
        key: meta.path.span(),
        requirements: requirements.into_iter().collect(),
    })
}

fn parse_requirement(input: ParseStream) -> syn::Result<Requirement> {
    if input.peek(token::Paren) {
        let content;
        parenthesized!(content in input);
        let schemes =
            Punctuated::<Scheme, Token![,]>::parse_terminated_with(&content, parse_scheme)?;
        Ok(Requirement {
            schemes: schemes.into_iter().collect(),
        })
    } else {
        Ok(Requirement {
            schemes: vec![parse_scheme(input)?],
        })
    }
}

fn parse_scheme(input: ParseStream) -> syn::Result<Scheme> {
    let (name, name_span) = if input.peek(LitStr) {
        let name: LitStr = input.parse()?;
        (name.value(), name.span())
    } else if input.peek(syn::Ident::peek_any) {
        let ident = syn::Ident::parse_any(input)?;
        (ident.unraw().to_string(), ident.span())
    } else {
        return Err(input.error(
            "expected a security scheme: `name(\"scope\", ...)`, `name` or `\"name\"(\"scope\", ...)`",
        ));
    };
    let mut scopes = Vec::new();
    if input.peek(token::Paren) {
        let content;
        parenthesized!(content in input);
        let list = Punctuated::<LitStr, Token![,]>::parse_terminated_with(&content, |input| {
            if input.peek(LitStr) {
                input.parse()
            } else {
                Err(input.error("expected a scope as a string literal"))
            }
        })?;
        scopes.extend(list);
    }
    Ok(Scheme {
        name,
        name_span,
        scopes,
    })
}

/// `crate = "path"` or `crate = path`.
fn crate_path(meta: &ParseNestedMeta) -> syn::Result<syn::Path> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error("expected `crate = \"path\"`"));
    }
    let input = meta.value()?;
    if input.peek(LitStr) {
        let path: LitStr = input.parse()?;
        path.parse_with(syn::Path::parse_mod_style)
            .map_err(|_| syn::Error::new(path.span(), "expected a path such as `my_a2a`"))
    } else if input.is_empty() {
        Err(meta.error("expected a path after `crate =`"))
    } else {
        input.call(syn::Path::parse_mod_style)
    }
}
