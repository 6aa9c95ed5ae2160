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
mod files;
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

use anyhow::Result;

// The generators reach the shared file helpers through this module, as before; they live in
// `files` so that this module only lists and runs the targets.
pub(crate) use files::{
    GeneratedFile, Mode, REGENERATE, ensure_files, format_rust, header, parse_rust, project_root,
};

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
        name: "types-v0_2",
        about: "a2a-compat/src/v0_2/generated/ from spec/v0_2/a2a.json",
        generate: |mode| types_v0_3::generate(&types_v0_3::V0_2, mode),
    },
    Target {
        name: "types-v0_1",
        about: "a2a-compat/src/v0_1/generated/ from spec/v0_1/a2a.json",
        generate: |mode| types_v0_3::generate(&types_v0_3::V0_1, mode),
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
