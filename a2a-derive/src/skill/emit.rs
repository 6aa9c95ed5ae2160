//! Writing out the descriptor function that `#[a2a_skill]` places next to the annotated one.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use syn::ext::IdentExt;

use super::item::FnHead;
use super::validate::Skill;

/// The name of the descriptor of the function `ident`: `route_planner` -> `__a2a_skill_route_planner`,
/// spanned at `ident` so that rustc's notes point at the user's function.
pub(crate) fn descriptor_ident(ident: &Ident) -> Ident {
    format_ident!("__a2a_skill_{}", ident.unraw(), span = ident.span())
}

/// `fn __a2a_skill_<name>() -> AgentSkill`: the skill's data as a constant `SkillSpec`, handed to the
/// automatic collection (a no-op unless a2a-types' `inventory` feature is on) and turned into an `AgentSkill`.
///
/// The descriptor is a plain function with the annotated function's visibility, so it is valid both
/// beside a free function and as an associated function in an inherent `impl` block; the
/// registration lives in its body, where it needs neither `Self` nor the enclosing generics.
pub(crate) fn descriptor(head: &FnHead, skill: &Skill, krate: &syn::Path) -> TokenStream {
    let vis = &head.vis;
    let descriptor = descriptor_ident(&head.ident);
    let Skill {
        id,
        name,
        description,
        tags,
        examples,
        input_modes,
        output_modes,
        security_requirements,
    } = skill;
    let security_requirements = security_requirements.iter().map(|schemes| {
        let schemes = schemes
            .iter()
            .map(|(scheme, scopes)| quote!((#scheme, &[#(#scopes),*])));
        quote!(&[#(#schemes),*])
    });
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        #vis fn #descriptor() -> #krate::__private::AgentSkill {
            const SKILL: #krate::__private::SkillSpec = #krate::__private::SkillSpec {
                id: #id,
                name: #name,
                description: #description,
                tags: &[#(#tags),*],
                examples: &[#(#examples),*],
                input_modes: &[#(#input_modes),*],
                output_modes: &[#(#output_modes),*],
                security_requirements: &[#(#security_requirements),*],
            };
            #krate::__private::submit_skill!(SKILL);
            SKILL.to_skill()
        }
    }
}

/// The descriptor emitted beside errors: it keeps `skills![...]` naming this function compiling, so the
/// user sees only the errors of the attribute.
pub(crate) fn dummy(head: &FnHead, krate: &syn::Path) -> TokenStream {
    let vis = &head.vis;
    let descriptor = descriptor_ident(&head.ident);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        #vis fn #descriptor() -> #krate::__private::AgentSkill {
            ::core::default::Default::default()
        }
    }
}
