//! `cargo xtask codegen [--check] [TARGET...]`: regenerates the generated files of the workspace from
//! `spec/`, every [`Target`] or only those named.
//!
//! Each generator module ([`proto`], [`grpc`], [`json_schema`], [`types`], [`operations`], [`types_v0_3`],
//! [`api_docs`]) has a settings struct
//! with builder methods, one constant per target, and a `generate(target, mode)` that computes the
//! files in memory and hands them to [`ensure_files`], the only code that writes generated files. In
//! check mode nothing is written; every stale file is reported together with the command that fixes it.
//! The generators share leaves that know nothing of any generator: [`naming`] (every name rule),
//! [`docs`] (doc comments), [`descriptor`] (descriptor queries), [`syntax`] (syn helpers) and
//! [`typify`] (typify's settings).

mod api_docs;
mod descriptor;
mod docs;
mod grpc;
mod in_place;
mod json_schema;
mod naming;
mod operations;
mod proto;
#[cfg(test)]
mod scalar_tests;
mod syntax;
mod types;
mod types_v0_3;
mod typify;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Whether to write generated files or only compare them with what is checked in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Write,
    Check,
}

/// The command that regenerates everything; named in file headers and in stale-file errors.
pub(crate) const REGENERATE: &str = "cargo xtask codegen";

/// One generated file: where it goes (relative to the workspace root) and its exact contents.
pub(crate) struct GeneratedFile {
    pub(crate) path: PathBuf,
    pub(crate) contents: Vec<u8>,
}

/// One set of generated files `cargo xtask codegen` can regenerate on its own.
pub(crate) struct Target {
    /// What to name on the command line.
    pub(crate) name: &'static str,
    /// What it generates, for the usage text.
    pub(crate) about: &'static str,
    generate: fn(Mode) -> Result<()>,
}

/// Every target, in the order a full run regenerates them.
pub(crate) static TARGETS: &[Target] = &[
    Target {
        name: "proto-v1",
        about: "a2a-proto/src/generated/lf.a2a.v1.* (prost, pbjson, registry, descriptors) from spec/v1/a2a.proto",
        generate: |mode| proto::generate(&proto::V1, mode),
    },
    Target {
        name: "proto-v0_3",
        about: "a2a-proto/src/generated/a2a.v1.* from spec/v0_3/a2a.proto",
        generate: |mode| proto::generate(&proto::V0_3, mode),
    },
    Target {
        name: "grpc-v1",
        about: "a2a-proto/src/generated/lf.a2a.v1.tonic.rs, tonic client and server stubs of lf.a2a.v1.A2AService",
        generate: |mode| grpc::generate(&grpc::V1, mode),
    },
    Target {
        name: "grpc-v0_3",
        about: "a2a-proto/src/generated/a2a.v1.tonic.rs, tonic stubs of a2a.v1.A2AService",
        generate: |mode| grpc::generate(&grpc::V0_3, mode),
    },
    Target {
        name: "schema-v1",
        about: "spec/v1/generated/a2a.json, the JSON Schema of spec/v1/a2a.proto",
        generate: |mode| json_schema::generate(&json_schema::V1, mode),
    },
    Target {
        name: "types-v1",
        about: "a2a-types/src/v1/generated/ and tests/src/generated/strategies_v1.rs from spec/v1/a2a.proto",
        generate: |mode| types::generate(&types::V1, mode),
    },
    Target {
        name: "operations-v1",
        about: "a2a-protocol/src/generated/{operations,methods}.rs, the operations table and the request and response enums of lf.a2a.v1.A2AService",
        generate: operations::generate,
    },
    Target {
        name: "types-v0_3",
        about: "a2a-compat/src/v0_3/generated/ from spec/v0_3/a2a.json",
        generate: |mode| types_v0_3::generate(&types_v0_3::V0_3, mode),
    },
    Target {
        name: "openapi-v1",
        about: "spec/v1/generated/openapi.json (and its copy in a2a-protocol/src/generated/), OpenAPI 3.1 of the HTTP+JSON binding",
        generate: api_docs::generate_openapi_v1,
    },
    Target {
        name: "openrpc-v1",
        about: "spec/v1/generated/openrpc.json (and its copy in a2a-protocol/src/generated/), OpenRPC 1.3 of the JSON-RPC binding",
        generate: api_docs::generate_openrpc_v1,
    },
    Target {
        name: "openrpc-v0_3",
        about: "spec/v0_3/generated/openrpc.json, OpenRPC 1.3 of v0.3's JSON-RPC binding from spec/v0_3/a2a.json",
        generate: api_docs::generate_openrpc_v0_3,
    },
];

impl Target {
    /// The target called `name` on the command line.
    pub(crate) fn named(name: &str) -> Option<&'static Target> {
        TARGETS.iter().find(|target| target.name == name)
    }
}

/// Regenerates (or checks) the `selected` targets, in the order of [`TARGETS`]; all of them when
/// `selected` is empty.
pub(crate) fn run(mode: Mode, selected: &[&Target]) -> Result<()> {
    for target in TARGETS {
        if selected.is_empty() || selected.iter().any(|s| s.name == target.name) {
            (target.generate)(mode)?;
        }
    }
    Ok(())
}

/// Environment variable that points the generators at another copy of the workspace (a scratch copy
/// with an edited spec, for instance), so an already-built xtask can regenerate it.
pub(crate) const ROOT_VARIABLE: &str = "A2A_XTASK_ROOT";

/// The workspace root: `$A2A_XTASK_ROOT` when set and not empty, else the parent of `xtask/`.
pub(crate) fn project_root() -> PathBuf {
    match std::env::var_os(ROOT_VARIABLE) {
        Some(root) if !root.is_empty() => PathBuf::from(root),
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives one level below the workspace root")
            .to_path_buf(),
    }
}

/// Makes every file hold exactly its generated contents, or, in check mode, fails naming each file that
/// does not. Files are compared byte for byte (after normalising CRLF in text files checked out on Windows).
pub(crate) fn ensure_files(files: &[GeneratedFile], mode: Mode) -> Result<()> {
    let root = project_root();
    let mut stale = Vec::new();
    for file in files {
        let path = root.join(&file.path);
        let current = std::fs::read(&path).ok();
        let up_to_date = current.is_some_and(|have| normalize_newlines(&have) == file.contents);
        if up_to_date {
            continue;
        }
        match mode {
            Mode::Check => stale.push(file.path.display().to_string()),
            Mode::Write => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating {}", dir.display()))?;
                }
                std::fs::write(&path, &file.contents)
                    .with_context(|| format!("writing {}", path.display()))?;
                eprintln!("updated {}", file.path.display());
            }
        }
    }
    if !stale.is_empty() {
        bail!(
            "generated files are out of date with spec/ or the generator:\n  {}\nrun `{REGENERATE}` and commit the result",
            stale.join("\n  ")
        );
    }
    Ok(())
}

fn normalize_newlines(bytes: &[u8]) -> Vec<u8> {
    if std::str::from_utf8(bytes).is_ok() {
        String::from_utf8_lossy(bytes)
            .replace("\r\n", "\n")
            .into_bytes()
    } else {
        bytes.to_vec()
    }
}

/// The first lines of every generated Rust file.
pub(crate) fn header(source: &str) -> String {
    format!("// @generated by `{REGENERATE}` from {source}. Do not edit by hand.\n\n")
}

/// Formats Rust source deterministically with `prettyplease` (never the local rustfmt, whose output
/// depends on its version and configuration).
pub(crate) fn format_rust(file: &syn::File) -> String {
    prettyplease::unparse(file)
}

/// Parses generated Rust source so it can be rewritten and formatted.
pub(crate) fn parse_rust(source: &str, what: &str) -> Result<syn::File> {
    syn::parse_file(source).with_context(|| format!("parsing generated {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in generated files match what the generator produces from `spec/` today.
    #[test]
    fn codegen_is_fresh() {
        run(Mode::Check, &[]).unwrap();
    }

    #[test]
    fn targets_have_distinct_names_and_are_found_by_them() {
        for target in TARGETS {
            assert!(std::ptr::eq(Target::named(target.name).unwrap(), target));
        }
        assert!(Target::named("types").is_none());
    }
}
