//! `spec/v1/generated/openapi.json`, `spec/v1/generated/openrpc.json` and
//! `spec/v0_3/generated/openrpc.json`: OpenAPI 3.1 and OpenRPC 1.3 descriptions of the protocol's
//! HTTP+JSON and JSON-RPC bindings, built from the same sources as the code.
//!
//! - Operations, paths, bodies and streaming come from the v1 service and its `google.api.http`
//!   bindings ([`super::operations::v1_service`], the source of `a2a_protocol::operations`).
//! - Schemas are the JSON Schema bundle of the proto ([`super::json_schema::build`], the source of
//!   `spec/v1/generated/a2a.json`), copied whole into `components/schemas` with their references
//!   rewritten; nothing is defined twice. v0.3's come from `spec/v0_3/a2a.json` the same way.
//! - Errors come from [`ERRORS`] and [`OPERATION_ERRORS`]: the error table and the per-operation error
//!   lists are specification text (sections 3.1, 3.3.2, 5.4, 9.5), not proto, so they are written here.
//!   `a2a_protocol::errors` is the other copy; the test `describe_v1::generated_errors_are_the_error_model`
//!   in the test suite holds the two together (xtask does not depend on a2a-protocol).
//!
//! `a2a-protocol` embeds the two v1 documents to describe one agent from its card (`a2a_protocol::describe`);
//! a crate can only package files inside it, so they are also written to `a2a-protocol/src/generated/`.
//!
//! One module per document ([`openapi_v1`](mod@openapi_v1), [`openrpc_v1`](mod@openrpc_v1),
//! [`openrpc_v0_3`](mod@openrpc_v0_3)) and one for the error model they share ([`errors`]); this
//! module holds the entry points, and [`schemas`] the helpers the documents share.
//!
//! [`ERRORS`]: errors::ERRORS
//! [`OPERATION_ERRORS`]: errors::OPERATION_ERRORS

mod errors;
mod openapi_v1;
mod openrpc_v0_3;
mod openrpc_v1;
mod schemas;

use anyhow::{Context, Result};
use serde_json::Value;

use super::operations::v1_service;
use super::{GeneratedFile, Mode, ensure_files, json_schema, project_root};
use openapi_v1::openapi_v1;
use openrpc_v0_3::openrpc_v0_3;
use openrpc_v1::openrpc_v1;
use schemas::V0_3_SCHEMA;

const V1_OPENAPI: &[&str] = &[
    "spec/v1/generated/openapi.json",
    "a2a-protocol/src/generated/openapi.json",
];
const V1_OPENRPC: &[&str] = &[
    "spec/v1/generated/openrpc.json",
    "a2a-protocol/src/generated/openrpc.json",
];
const V0_3_OPENRPC: &str = "spec/v0_3/generated/openrpc.json";

pub(crate) fn generate_openapi_v1(mode: Mode) -> Result<()> {
    let (_, rpcs) = v1_service()?;
    let bundle = json_schema::build(&json_schema::V1)?;
    write(V1_OPENAPI, &openapi_v1(&rpcs, &bundle)?, mode)
}

pub(crate) fn generate_openrpc_v1(mode: Mode) -> Result<()> {
    let (_, rpcs) = v1_service()?;
    let bundle = json_schema::build(&json_schema::V1)?;
    write(V1_OPENRPC, &openrpc_v1(&rpcs, &bundle)?, mode)
}

pub(crate) fn generate_openrpc_v0_3(mode: Mode) -> Result<()> {
    let path = project_root().join(V0_3_SCHEMA);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let schema: Value = serde_json::from_str(&text)?;
    write(&[V0_3_OPENRPC], &openrpc_v0_3(&schema)?, mode)
}

fn write(paths: &[&str], document: &Value, mode: Mode) -> Result<()> {
    let mut text = serde_json::to_string_pretty(document)?;
    text.push('\n');
    let files: Vec<_> = paths
        .iter()
        .map(|path| GeneratedFile {
            path: (*path).into(),
            contents: text.clone().into_bytes(),
        })
        .collect();
    ensure_files(&files, mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::operations::{HttpBinding, Rpc};

    /// An RPC that a spec bump adds (as `cargo xtask bump-rehearsal` does) is described without a
    /// hand-written change: a body with a required path field, a path variable naming no field.
    #[test]
    fn a_new_rpc_is_described_in_every_document() {
        let (_, mut rpcs) = v1_service().unwrap();
        rpcs.push(Rpc {
            name: "ProbeRehearsal".into(),
            grpc_path: "/lf.a2a.v1.A2AService/ProbeRehearsal".into(),
            request: "lf.a2a.v1.SubscribeToTaskRequest".into(),
            response: "lf.a2a.v1.Task".into(),
            server_streaming: false,
            client_streaming: false,
            http: vec![HttpBinding {
                method: "POST".into(),
                path: "/{shard}/rehearsal/{id=*}:probe".into(),
                body: "*".into(),
                response_body: String::new(),
            }],
            capability: None,
            comment: "Probes.".into(),
        });
        let bundle = json_schema::build(&json_schema::V1).unwrap();
        let openapi = openapi_v1(&rpcs, &bundle).unwrap();
        let operation = &openapi["paths"]["/{shard}/rehearsal/{id}:probe"]["post"];
        assert_eq!(operation["operationId"], "ProbeRehearsal");
        let body = &operation["requestBody"]["content"]["application/json"]["schema"];
        assert!(body["properties"]["id"].is_null() && body["properties"]["tenant"].is_object());
        assert!(operation["responses"]["500"].is_object());
        let openrpc = openrpc_v1(&rpcs, &bundle).unwrap();
        assert!(
            openrpc["methods"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["name"] == "ProbeRehearsal")
        );
    }
}
