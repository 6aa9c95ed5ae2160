//! `#[a2a_skill]`: parse the arguments and the item, validate, expand.
//!
//! [`expand`] never panics: every problem becomes a spanned `compile_error!`, emitted together with the
//! unchanged item and a dummy descriptor.

mod args;
mod emit;
mod item;
#[cfg(test)]
mod tests;
mod validate;

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::errors::Errors;

pub(crate) use emit::descriptor_ident;

/// The path of a2a-types when no `crate = ...` is given.
pub(crate) fn default_crate_path() -> syn::Path {
    let mut path = syn::Path::from(syn::Ident::new("a2a_types", Span::call_site()));
    path.leading_colon = Some(Default::default());
    path
}

/// The expansion of `#[a2a_skill(args)] item`: the item exactly as written, then its descriptor
/// function (or, when anything is wrong, the item, every error, and a dummy descriptor).
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = args::parse(args, &mut errors);
    let krate = args.krate.clone().unwrap_or_else(default_crate_path);

    errors.concern(usize::MAX);
    let Some(head) = errors.ok(item::parse(item.clone())) else {
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    };
    let skill = validate::validate(&args, &head, &mut errors);

    if let Some(repeated) = head.repeated_attribute {
        errors.concern(usize::MAX);
        // The other #[a2a_skill] still expands after this one and emits the descriptor; a dummy here
        // would only add a "defined twice" error.
        errors.at(
            repeated,
            "#[a2a_skill] is given twice on this function: merge the keys into one attribute",
        );
        let errors = errors.to_compile_errors();
        return quote!(#item #errors);
    }
    if errors.is_empty() {
        let descriptor = emit::descriptor(&head, &skill, &krate);
        quote!(#item #descriptor)
    } else {
        let errors = errors.to_compile_errors();
        let dummy = emit::dummy(&head, &krate);
        quote!(#item #errors #dummy)
    }
}
