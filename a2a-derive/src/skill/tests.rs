//! Expansion snapshots: every `tests/expand/<case>.rs` is expanded here, without rustc, and compared with
//! `tests/expand/<case>.expanded.rs`. `EXPAND_OVERWRITE=1 cargo test -p a2a-spec-derive` rewrites the snapshots.
//!
//! In an input file, `#[a2a_skill(...)]` on a top-level item or on an item of an `impl` block is
//! expanded, and so is every `skills![...]`; the result is formatted with prettyplease.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::parse::Parser;
use syn::visit_mut::{self, VisitMut};

use super::expand;

fn is_skill_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "a2a_skill")
}

/// Takes the `#[a2a_skill(...)]` off `attrs`, returning its arguments.
fn take_skill_attr(attrs: &mut Vec<syn::Attribute>) -> Option<TokenStream> {
    let index = attrs.iter().position(is_skill_attr)?;
    let attr = attrs.remove(index);
    Some(match attr.meta {
        syn::Meta::List(list) => list.tokens,
        _ => TokenStream::new(),
    })
}

fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    Some(match item {
        syn::Item::Fn(item) => &mut item.attrs,
        syn::Item::Struct(item) => &mut item.attrs,
        syn::Item::Enum(item) => &mut item.attrs,
        syn::Item::Const(item) => &mut item.attrs,
        syn::Item::Impl(item) => &mut item.attrs,
        syn::Item::Mod(item) => &mut item.attrs,
        _ => return None,
    })
}

/// Expands `skills![...]` wherever it appears as an expression or a statement.
struct SkillsMacros;

impl SkillsMacros {
    fn expand(mac: &syn::Macro) -> Option<syn::Expr> {
        if mac.path.segments.last().is_none_or(|s| s.ident != "skills") {
            return None;
        }
        let tokens = crate::skills_list::expand(mac.tokens.clone());
        Some(syn::parse2(tokens).expect("skills! expands to an expression"))
    }
}

impl VisitMut for SkillsMacros {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        if let syn::Expr::Macro(mac) = expr
            && let Some(expanded) = Self::expand(&mac.mac)
        {
            *expr = expanded;
            return;
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        if let syn::Stmt::Macro(mac) = stmt
            && let Some(expanded) = Self::expand(&mac.mac)
        {
            *stmt = syn::Stmt::Expr(expanded, mac.semi_token);
            return;
        }
        visit_mut::visit_stmt_mut(self, stmt);
    }
}

fn expand_items(items: Vec<syn::Item>) -> Vec<syn::Item> {
    let mut out = Vec::new();
    for mut item in items {
        if let Some(args) = item_attrs(&mut item).and_then(take_skill_attr) {
            let expanded = expand(args, item.into_token_stream());
            let file: syn::File = syn::parse2(expanded).expect("the expansion parses as items");
            out.extend(file.items);
            continue;
        }
        match &mut item {
            syn::Item::Impl(block) => {
                let mut impl_items = Vec::new();
                for mut impl_item in std::mem::take(&mut block.items) {
                    let args = match &mut impl_item {
                        syn::ImplItem::Fn(f) => take_skill_attr(&mut f.attrs),
                        syn::ImplItem::Const(c) => take_skill_attr(&mut c.attrs),
                        _ => None,
                    };
                    match args {
                        Some(args) => {
                            let expanded = expand(args, impl_item.into_token_stream());
                            let parsed = (|input: syn::parse::ParseStream| {
                                let mut items = Vec::new();
                                while !input.is_empty() {
                                    items.push(input.parse::<syn::ImplItem>()?);
                                }
                                Ok(items)
                            })
                            .parse2(expanded)
                            .expect("the expansion parses as impl items");
                            impl_items.extend(parsed);
                        }
                        None => impl_items.push(impl_item),
                    }
                }
                block.items = impl_items;
            }
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &mut module.content {
                    *items = expand_items(std::mem::take(items));
                }
            }
            _ => {}
        }
        out.push(item);
    }
    out
}

fn expand_file(source: &str) -> String {
    let mut file = syn::parse_file(source).expect("the input parses");
    file.items = expand_items(std::mem::take(&mut file.items));
    SkillsMacros.visit_file_mut(&mut file);
    prettyplease::unparse(&file)
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/expand exists")
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.ends_with(".rs") && !name.ends_with(".expanded.rs")
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn expansion_snapshots() {
    let overwrite = std::env::var_os("EXPAND_OVERWRITE").is_some_and(|value| value == "1");
    let cases = cases();
    assert!(
        cases.len() >= 4,
        "expected the expansion cases, found {cases:?}"
    );
    let mut failures = Vec::new();
    for case in cases {
        let source = std::fs::read_to_string(&case).unwrap();
        let actual = expand_file(&source);
        let snapshot = case.with_extension("expanded.rs");
        let expected = std::fs::read_to_string(&snapshot).ok();
        if expected.as_deref() == Some(actual.as_str()) {
            continue;
        }
        if overwrite || expected.is_none() {
            std::fs::write(&snapshot, &actual).unwrap();
        }
        if !overwrite {
            failures.push(format!(
                "{} differs from the expansion of {}{}:\n{actual}",
                snapshot.display(),
                case.display(),
                if expected.is_none() {
                    " (written, review it)"
                } else {
                    ""
                },
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nrerun with EXPAND_OVERWRITE=1 to accept",
        failures.join("\n")
    );
}

/// With `crate = ...`, nothing in the expansion names `a2a_types`.
#[test]
fn renamed_crate_is_used_everywhere() {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand/renamed_crate.rs"),
    )
    .unwrap();
    let expanded = expand_file(&source);
    assert!(
        expanded.contains("my_a2a::__private::AgentSkill"),
        "{expanded}"
    );
    assert!(!expanded.contains("a2a_types"), "{expanded}");
}

/// The messages of the `compile_error!`s in the expansion of `#[a2a_skill(args)] item`, in order.
fn errors_of(args: &str, item: &str) -> Vec<String> {
    let expanded = expand(args.parse().unwrap(), item.parse().unwrap());
    let trees: Vec<proc_macro2::TokenTree> = expanded.into_iter().collect();
    trees
        .windows(3)
        .filter_map(|window| match window {
            [
                proc_macro2::TokenTree::Ident(name),
                proc_macro2::TokenTree::Punct(bang),
                proc_macro2::TokenTree::Group(message),
            ] if name == "compile_error" && bang.as_char() == '!' => Some(
                syn::parse2::<syn::LitStr>(message.stream())
                    .unwrap()
                    .value(),
            ),
            _ => None,
        })
        .collect()
}

#[test]
fn every_problem_is_reported() {
    let errors = errors_of(
        r#"id = "", tag("x"), id = "again", input_modes("text", "text/plain", "image/*"),
           security_requirements(), crate = "not a path", name = 5, examples(""), ,"#,
        "fn __() {}",
    );
    let expected = [
        "`id` must not be empty",
        "unknown key `tag` in #[a2a_skill]: did you mean `tags`?",
        "duplicate key `id`: give each key once",
        "`text` is not a media type: it has no `/`",
        "`image/*` is not a media type: a wildcard range",
        "`security_requirements()` is empty",
        "expected a path such as `my_a2a`",
        "expected a string literal: `name = \"...\"`",
        "empty example",
        "expected a key before this `,`",
        "skill `__` has no description",
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for (error, expected) in errors.iter().zip(expected) {
        assert!(
            error.starts_with(expected),
            "{error:?} should start with {expected:?}"
        );
    }
}

#[test]
fn items_that_are_not_functions() {
    for (item, message) in [
        ("struct Foo;", "not on a struct"),
        ("impl Foo { fn f() {} }", "not on the block itself"),
        ("const X: u8 = 1;", "not on a constant"),
        ("fn no_body();", "needs a function with a body"),
        ("fn (x: u8) {}", "expected identifier"),
        (
            "async unsafe extern \"C\" const",
            "goes on a function or a method",
        ),
    ] {
        let errors = errors_of("tags(\"x\")", item);
        assert_eq!(errors.len(), 1, "{item}: {errors:?}");
        assert!(errors[0].contains(message), "{item}: {errors:?}");
    }
}

/// Past the name the macro reads nothing: a malformed parameter list is re-emitted as written for rustc
/// to report (`tests/ui/fail/broken_signature.rs`), and qualifiers before `fn` are accepted.
#[test]
fn only_the_head_of_the_signature_is_read() {
    for item in [
        "/// Doc.\nfn broken(x: ) {}",
        "/// Doc.\npub(crate) const async unsafe extern \"C\" fn qualified<T: Into<String>>(t: T) -> impl Sized where T: Clone { t }",
        "/// Doc.\nsafe fn contextual() {}",
    ] {
        let errors = errors_of("tags(\"x\")", item);
        assert!(errors.is_empty(), "{item}: {errors:?}");
        let expanded = expand("tags(\"x\")".parse().unwrap(), item.parse().unwrap()).to_string();
        let written: proc_macro2::TokenStream = item.parse().unwrap();
        let body = written.into_iter().last().unwrap().to_string();
        assert!(
            expanded.contains(&body),
            "{item}: the item is re-emitted as written"
        );
    }
}

#[test]
fn security_syntax_errors() {
    for (args, message) in [
        (
            "tags(\"x\"), security_requirements(oauth(read))",
            "expected a scope as a string literal",
        ),
        (
            "tags(\"x\"), security_requirements(5)",
            "expected a security scheme",
        ),
        (
            "tags(\"x\"), security_requirements = \"oauth\"",
            "expected `security_requirements(scheme",
        ),
        (
            "tags(\"x\"), security_requirements((a(\"x\"), a(\"y\")))",
            "scheme `a` appears twice",
        ),
        (
            "tags(\"x\"), security_requirements(\"\"(\"\"))",
            "scheme name must not be empty",
        ),
        (
            "tags = \"x\"",
            "expected a list of strings: `tags(\"...\", ...)`",
        ),
        ("tags(x)", "expected a string literal in `tags(...)`"),
        ("tags(\"x\"), crate", "expected `crate = \"path\"`"),
        ("tags(\"x\"), id", "expected `id = \"...\"`"),
        ("tags(\"x\"), a::b = 1", "unknown key `a::b`"),
    ] {
        let errors = errors_of(args, "/// Doc.\nfn f() {}");
        assert!(
            errors.iter().any(|error| error.contains(message)),
            "{args}: {errors:?}"
        );
    }
}

#[test]
fn repeated_attribute() {
    let errors = errors_of(
        "tags(\"x\")",
        "/// Doc.\n#[a2a_types::a2a_skill(tags(\"y\"))] fn f() {}",
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("given twice"), "{errors:?}");
}
