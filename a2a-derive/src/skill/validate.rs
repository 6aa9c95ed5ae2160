//! Checking the parsed arguments against the A2A rules and filling in the defaults from the function.
//! Every problem is recorded, spanned at the offending key or value; none stops the others.

use proc_macro2::Span;
use syn::ext::IdentExt;

use super::args::{Args, StrList};
use super::item::FnHead;
use crate::errors::Errors;
use crate::text::{check_media_type, description_from_docs, kebab_case, title_case};

/// The resolved skill, ready to be written out as an `AgentSkill`.
#[derive(Debug, PartialEq)]
pub(crate) struct Skill {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) tags: Vec<String>,
    pub(crate) examples: Vec<String>,
    pub(crate) input_modes: Vec<String>,
    pub(crate) output_modes: Vec<String>,
    /// Alternatives; each is scheme name -> scopes, all of which are needed together.
    pub(crate) security_requirements: Vec<Vec<(String, Vec<String>)>>,
}

/// Resolves `args` for the function `head`, recording every problem in `errors`.
pub(crate) fn validate(args: &Args, head: &FnHead, errors: &mut Errors) -> Skill {
    let fn_name = head.ident.unraw().to_string();

    errors.concern(args.position("id"));
    let id = match &args.id {
        Some(id) => {
            let value = id.value();
            if value.trim().is_empty() {
                errors.at(
                    id.span(),
                    format!(
                        "`id` must not be empty: give one, or leave `id` out for the default `{}`",
                        kebab_case(&fn_name)
                    ),
                );
            }
            value
        }
        None => {
            let id = kebab_case(&fn_name);
            if id.is_empty() {
                errors.at(
                    head.ident.span(),
                    format!("no skill id can be made from `{fn_name}`: give `id = \"...\"`"),
                );
            }
            id
        }
    };

    errors.concern(args.position("name"));
    let name = match &args.name {
        Some(name) => {
            let value = name.value();
            if value.trim().is_empty() {
                errors.at(
                    name.span(),
                    "`name` must not be empty: give one, or leave `name` out to use the function's name",
                );
            }
            value
        }
        None => title_case(&fn_name),
    };

    errors.concern(args.position("description"));
    let description = match &args.description {
        Some(description) => {
            let value = description.value();
            if value.trim().is_empty() {
                errors.at(description.span(), "`description` must not be empty");
            }
            value
        }
        None => {
            let description = description_from_docs(&head.docs);
            if description.is_empty() && !args.misspelled.contains(&"description") {
                let message = match head.unreadable_doc {
                    Some(_) => format!(
                        "skill `{fn_name}` has no description: #[a2a_skill] reads only `///` doc comments \
                         and `#[doc = \"...\"]` strings, so give `description = \"...\"`"
                    ),
                    None => format!(
                        "skill `{fn_name}` has no description: add a `///` doc comment to the function \
                         or `description = \"...\"` to #[a2a_skill]"
                    ),
                };
                errors.at(head.ident.span(), message);
            }
            description
        }
    };

    errors.concern(args.position("tags"));
    let tags = match &args.tags {
        Some(tags) => {
            if tags.values.is_empty() {
                errors.at(
                    tags.key,
                    "`tags()` is empty: the A2A spec requires at least one tag, e.g. `tags(\"maps\")`",
                );
            }
            non_empty_strings(tags, "tag", errors)
        }
        None if args.misspelled.contains(&"tags") => Vec::new(),
        None => {
            errors.at(
                Span::call_site(),
                "missing `tags(...)`: the A2A spec requires every skill to have at least one tag, \
                 e.g. #[a2a_skill(tags(\"maps\"))]",
            );
            Vec::new()
        }
    };

    errors.concern(args.position("examples"));
    let examples = args
        .examples
        .as_ref()
        .map(|examples| non_empty_strings(examples, "example", errors))
        .unwrap_or_default();
    errors.concern(args.position("input_modes"));
    let input_modes = media_types(args.input_modes.as_ref(), errors);
    errors.concern(args.position("output_modes"));
    let output_modes = media_types(args.output_modes.as_ref(), errors);

    errors.concern(args.position("security_requirements"));
    let mut security_requirements = Vec::new();
    if let Some(list) = &args.security_requirements {
        if list.requirements.is_empty() {
            errors.at(
                list.key,
                "`security_requirements()` is empty: list schemes, e.g. `security_requirements(oauth(\"read\"))`, \
                 or leave the key out",
            );
        }
        for requirement in &list.requirements {
            let mut schemes: Vec<(String, Vec<String>)> = Vec::new();
            for scheme in &requirement.schemes {
                if scheme.name.trim().is_empty() {
                    errors.at(scheme.name_span, "a security scheme name must not be empty");
                }
                if schemes.iter().any(|(name, _)| *name == scheme.name) {
                    errors.at(
                        scheme.name_span,
                        format!(
                            "scheme `{}` appears twice in one requirement: list all its scopes once",
                            scheme.name
                        ),
                    );
                    continue;
                }
                let mut scopes = Vec::new();
                for scope in &scheme.scopes {
                    let value = scope.value();
                    if value.trim().is_empty() {
                        errors.at(scope.span(), "a scope must not be empty");
                    }
                    scopes.push(value);
                }
                schemes.push((scheme.name.clone(), scopes));
            }
            security_requirements.push(schemes);
        }
    }

    Skill {
        id,
        name,
        description,
        tags,
        examples,
        input_modes,
        output_modes,
        security_requirements,
    }
}

fn non_empty_strings(list: &StrList, what: &str, errors: &mut Errors) -> Vec<String> {
    list.values
        .iter()
        .map(|literal| {
            let value = literal.value();
            if value.trim().is_empty() {
                errors.at(
                    literal.span(),
                    format!("empty {what}: remove it or write one"),
                );
            }
            value
        })
        .collect()
}

fn media_types(list: Option<&StrList>, errors: &mut Errors) -> Vec<String> {
    let Some(list) = list else {
        return Vec::new();
    };
    list.values
        .iter()
        .map(|literal| {
            let value = literal.value();
            if let Err(message) = check_media_type(&value) {
                errors.at(literal.span(), message);
            }
            value
        })
        .collect()
}
