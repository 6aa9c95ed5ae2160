//! `skills![...]`: the `AgentSkill`s of the listed `#[a2a_skill]` functions, in the order listed.
//!
//! `skills![route_planner, agent::custom_map, MyAgent::lookup]` calls the descriptor of each, which
//! `#[a2a_skill]` put beside the function: `__a2a_skill_route_planner()`,
//! `agent::__a2a_skill_custom_map()`, `MyAgent::__a2a_skill_lookup()`.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{LitStr, PathArguments, Token};

use crate::errors::Errors;
use crate::skill::{default_crate_path, descriptor_ident};

struct SkillList {
    krate: Option<syn::Path>,
    paths: Punctuated<syn::Path, Token![,]>,
}

impl Parse for SkillList {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut krate = None;
        if input.peek(Token![crate]) && input.peek2(Token![=]) {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            krate = Some(if input.peek(LitStr) {
                let path: LitStr = input.parse()?;
                path.parse_with(syn::Path::parse_mod_style)
                    .map_err(|_| syn::Error::new(path.span(), "expected a path such as `my_a2a`"))?
            } else {
                input.call(syn::Path::parse_mod_style)?
            });
            if !input.peek(Token![;]) {
                return Err(input.error(
                    "expected `;` after the crate path: `skills![crate = my_a2a; route_planner, ...]`",
                ));
            }
            input.parse::<Token![;]>()?;
        }
        let paths = Punctuated::parse_terminated(input)?;
        Ok(SkillList { krate, paths })
    }
}

/// The expansion of `skills![input]`: a `Vec<AgentSkill>` expression.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let list = match syn::parse2::<SkillList>(input) {
        Ok(list) => list,
        Err(error) => return with_errors(error.to_compile_error(), &default_crate_path()),
    };
    let krate = list.krate.unwrap_or_else(default_crate_path);

    let mut errors = Errors::default();
    let mut seen: Vec<String> = Vec::new();
    let mut calls = Vec::new();
    for path in &list.paths {
        let shown = path.to_token_stream().to_string().replace(' ', "");
        if seen.contains(&shown) {
            errors.push(syn::Error::new_spanned(
                path,
                format!("`{shown}` is listed twice in skills![...]"),
            ));
            continue;
        }
        seen.push(shown);
        calls.push(descriptor_call(path));
    }
    if !errors.is_empty() {
        return with_errors(errors.to_compile_errors(), &krate);
    }
    quote! {
        ::std::vec::Vec::<#krate::__private::AgentSkill>::from([#(#calls),*])
    }
}

/// `a::b::f` -> `a::b::__a2a_skill_f()`; generic arguments on the function itself are dropped (the
/// descriptor is not generic), those on the path before it are written as turbofish.
fn descriptor_call(path: &syn::Path) -> TokenStream {
    let mut path = path.clone();
    let count = path.segments.len();
    for (index, segment) in path.segments.iter_mut().enumerate() {
        if index + 1 == count {
            segment.ident = descriptor_ident(&segment.ident);
            segment.arguments = PathArguments::None;
        } else if let PathArguments::AngleBracketed(arguments) = &mut segment.arguments {
            arguments.colon2_token = Some(Default::default());
        }
    }
    quote!(#path())
}

/// An expression of the right type beside the errors, so that only the errors show.
fn with_errors(errors: TokenStream, krate: &syn::Path) -> TokenStream {
    quote! {{
        #errors
        ::std::vec::Vec::<#krate::__private::AgentSkill>::new()
    }}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(input: &str) -> String {
        expand(input.parse().unwrap()).to_string()
    }

    #[test]
    fn calls_descriptors_in_order() {
        assert_eq!(
            expand_str("route_planner, agent::custom_map, MyAgent::<u8>::lookup::<T>,"),
            quote!(::std::vec::Vec::<::a2a_types::__private::AgentSkill>::from(
                [
                    __a2a_skill_route_planner(),
                    agent::__a2a_skill_custom_map(),
                    MyAgent::<u8>::__a2a_skill_lookup()
                ]
            ))
            .to_string()
        );
        assert_eq!(
            expand_str("MyAgent<u8>::r#lookup"),
            quote!(::std::vec::Vec::<::a2a_types::__private::AgentSkill>::from(
                [MyAgent::<u8>::__a2a_skill_lookup()]
            ))
            .to_string()
        );
    }

    #[test]
    fn empty_list_and_crate_override() {
        assert_eq!(
            expand_str(""),
            quote!(::std::vec::Vec::<::a2a_types::__private::AgentSkill>::from(
                []
            ))
            .to_string()
        );
        let expected = quote!(::std::vec::Vec::<my_a2a::__private::AgentSkill>::from([
            crate::__a2a_skill_a(),
            __a2a_skill_b()
        ]))
        .to_string();
        assert_eq!(expand_str("crate = my_a2a; crate::a, b"), expected);
        assert_eq!(expand_str("crate = \"my_a2a\"; crate::a, b"), expected);
    }

    #[test]
    fn errors() {
        let duplicate = expand_str("a, b::c, b :: c");
        assert!(duplicate.contains("`b::c` is listed twice"), "{duplicate}");
        let missing_semicolon = expand_str("crate = my_a2a a");
        assert!(
            missing_semicolon.contains("expected `;`"),
            "{missing_semicolon}"
        );
        let not_a_path = expand_str("\"a\"");
        assert!(not_a_path.contains("compile_error"), "{not_a_path}");
    }
}
