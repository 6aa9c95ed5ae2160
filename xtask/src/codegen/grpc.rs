//! gRPC stubs: the services of `spec/**/*.proto` → protox → prost-build with tonic's service generator
//! (`tonic-prost-build`) → `a2a-proto/src/generated/<package>.tonic.rs`.
//!
//! prost-build resolves every method's Rust name and message types, and tonic's generator turns each
//! service into a client (`<service>_client`) and a server trait with its tower service
//! (`<service>_server`). prost-build sees only the services, not the messages: `a2a-proto` already has
//! those from the proto generator, and the stubs refer to them through `super::`.
//!
//! No transport code is generated (no `connect`), so the stubs need only tonic's `codegen` feature.
//! Server methods default to UNIMPLEMENTED (tonic's default stubs; streams are then boxed), so an
//! agent's implementation of the trait survives a new RPC.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use prost_types::{FileDescriptorProto, FileDescriptorSet};

use super::descriptor::package_file;
use super::proto::compile;
use super::{GeneratedFile, Mode, ensure_files, format_rust, header, parse_rust};

/// A protobuf package whose services get stubs: the spec file declaring it (relative to `spec/`) and
/// the package name.
pub(crate) struct GrpcTarget {
    spec_file: &'static str,
    package: &'static str,
}

/// A2A v1.0: `lf.a2a.v1.A2AService`.
pub(crate) const V1: GrpcTarget = GrpcTarget {
    spec_file: "v1/a2a.proto",
    package: "lf.a2a.v1",
};

/// A2A v0.3: `a2a.v1.A2AService`.
pub(crate) const V0_3: GrpcTarget = GrpcTarget {
    spec_file: "v0_3/a2a.proto",
    package: "a2a.v1",
};

const OUT_DIR: &str = "a2a-proto/src/generated";

/// Regenerates (or, in check mode, checks) the stubs of `target`.
pub(crate) fn generate(target: &GrpcTarget, mode: Mode) -> Result<()> {
    // Comments (source info) become the stubs' documentation.
    let descriptors = compile(target.spec_file, true)?.file_descriptor_set();
    let stubs = service_stubs(&descriptors, target.package)?;
    let label = format!("spec/{}", target.spec_file);
    let file = GeneratedFile {
        path: PathBuf::from(OUT_DIR).join(format!("{}.tonic.rs", target.package)),
        contents: format!("{}{}", header(&label), format_rust(&stubs)).into_bytes(),
    };
    ensure_files(&[file], mode)
}

/// Client and server code for every service of `package` in `descriptors` (which holds the package's
/// file and everything it imports).
fn service_stubs(descriptors: &FileDescriptorSet, package: &str) -> Result<syn::File> {
    let file = package_file(descriptors, package)?;
    if file.service.is_empty() {
        bail!("package {package} declares no service to generate gRPC stubs for");
    }
    // prost-build refers to message types by name only, so a copy of the package's file holding just
    // its services is all it needs. Its output is then the service code alone, with no message code
    // generated only to be thrown away.
    let services_only = FileDescriptorProto {
        message_type: Vec::new(),
        enum_type: Vec::new(),
        extension: Vec::new(),
        ..file.clone()
    };
    let mut config = prost_build::Config::new();
    config
        .compile_well_known_types()
        // As the message generator maps it, so `google.protobuf.Empty` is a type a2a-proto has.
        .extern_path(".google.protobuf", "::pbjson_types")
        .service_generator(
            tonic_prost_build::configure()
                .build_transport(false)
                // Every server method has a body answering UNIMPLEMENTED: an agent implements the RPCs
                // it supports, and an RPC added to the spec does not break its code.
                .generate_default_stubs(true)
                // Checks each incoming message against a decode budget before prost decodes it.
                .codec_path("crate::grpc::BudgetCodec")
                .service_generator(),
        );
    let module = prost_build::Module::from_protobuf_package_name(package);
    let mut modules = config
        .generate(vec![(module.clone(), services_only)])
        .context("prost-build failed on the services")?;
    let source = modules
        .remove(&module)
        .ok_or_else(|| anyhow!("prost-build produced nothing for the services of {package}"))?;
    parse_rust(&source, "tonic service stubs")
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost_types::MethodDescriptorProto;

    /// An RPC added to the proto shows up in both stubs with no hand-written change: a client method,
    /// a server trait method and a route under the full gRPC method name.
    #[test]
    fn new_rpc_appears_in_client_and_server() {
        let mut descriptors = compile("v1/a2a.proto", false)
            .unwrap()
            .file_descriptor_set();
        let file = descriptors
            .file
            .iter_mut()
            .find(|f| f.package() == "lf.a2a.v1")
            .unwrap();
        file.service[0].method.push(MethodDescriptorProto {
            name: Some("ArchiveTask".into()),
            input_type: Some(".lf.a2a.v1.GetTaskRequest".into()),
            output_type: Some(".lf.a2a.v1.Task".into()),
            ..Default::default()
        });
        let code = format_rust(&service_stubs(&descriptors, "lf.a2a.v1").unwrap());
        assert!(
            code.contains("\"/lf.a2a.v1.A2AService/ArchiveTask\""),
            "{code}"
        );
        assert!(code.contains("pub async fn archive_task("), "client method");
        assert!(
            code.contains("async fn archive_task("),
            "server trait method"
        );
        assert!(
            code.contains("tonic::Request<super::GetTaskRequest>"),
            "request type"
        );
    }

    #[test]
    fn package_without_service_is_an_error() {
        let descriptors = compile("v1/a2a.proto", false)
            .unwrap()
            .file_descriptor_set();
        let error = service_stubs(&descriptors, "google.protobuf").unwrap_err();
        assert!(error.to_string().contains("declares no service"), "{error}");
    }
}
