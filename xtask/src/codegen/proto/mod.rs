//! Protobuf bindings: `spec/**/*.proto` → protox → prost-build (messages) + pbjson-build (ProtoJSON)
//! → our ProtoJSON adjustments → `a2a-proto/src/generated/`.
//!
//! No `protoc` is involved: `protox` compiles the protos in pure Rust and has the `google.protobuf`
//! well-known types built in; the `google.api` annotation protos come from `spec/google/api`.

mod protojson;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use prost_types::{FileDescriptorProto, FileDescriptorSet};
use quote::{format_ident, quote};

use super::descriptor::{message_names, package_file};
use super::{GeneratedFile, Mode, ensure_files, format_rust, header, parse_rust, project_root};

/// Well-known types replaced by `a2a_proto::wkt`, whose ProtoJSON `pbjson-types` gets wrong.
const OWN_WELL_KNOWN_TYPES: &[(&str, &str)] = &[
    (".google.protobuf.Timestamp", "crate::wkt::Timestamp"),
    (".google.protobuf.Struct", "crate::wkt::Struct"),
    (".google.protobuf.Value", "crate::wkt::Value"),
    (".google.protobuf.ListValue", "crate::wkt::ListValue"),
    (".google.protobuf.NullValue", "crate::wkt::NullValue"),
];

/// Where protox looks for `.proto` files (and their imports), relative to the workspace root.
pub(crate) const SPEC_INCLUDES: &[&str] = &["spec"];

/// What to generate for one protobuf package: prost messages, ProtoJSON impls, the registry and the
/// embedded descriptor set.
pub(crate) struct ProtoTarget {
    /// Where to find the file and its imports, relative to the workspace root; the first is the file's.
    includes: &'static [&'static str],
    /// The file to compile, relative to the first include directory.
    spec_file: &'static str,
    /// The protobuf package to emit code for.
    package: &'static str,
    /// Where the generated files go, relative to the workspace root.
    out_dir: &'static str,
    /// Rust path of the support module the adjusted ProtoJSON code calls.
    support_path: &'static str,
    /// Marks every enum and oneof enum `#[non_exhaustive]`, so that a value or member a later spec adds
    /// is not a breaking change for code matching on them.
    non_exhaustive: bool,
}

impl ProtoTarget {
    /// The bindings of `package` in `spec/<spec_file>`, into `a2a-proto/src/generated`.
    pub(crate) const fn new(spec_file: &'static str, package: &'static str) -> Self {
        Self {
            includes: SPEC_INCLUDES,
            spec_file,
            package,
            out_dir: "a2a-proto/src/generated",
            support_path: "::a2a_support::pbjson",
            non_exhaustive: false,
        }
    }

    /// Marks the package's enums and oneof enums `#[non_exhaustive]` (for a protocol version that
    /// still grows).
    pub(crate) const fn non_exhaustive(mut self) -> Self {
        self.non_exhaustive = true;
        self
    }

    /// Where the generated files go, relative to the workspace root.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests generate elsewhere yet")
    )]
    pub(crate) const fn out_dir(mut self, out_dir: &'static str) -> Self {
        self.out_dir = out_dir;
        self
    }

    /// Compiles the file from other include directories (the first one holding the file).
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "only the tests compile other protos yet")
    )]
    pub(crate) const fn includes(mut self, includes: &'static [&'static str]) -> Self {
        self.includes = includes;
        self
    }

    fn output(&self, suffix: &str) -> PathBuf {
        PathBuf::from(self.out_dir).join(format!("{}.{suffix}", self.package))
    }

    fn source_label(&self) -> String {
        source_label(self.includes, self.spec_file)
    }
}

/// A2A v1.0 (package `lf.a2a.v1`).
pub(crate) const V1: ProtoTarget = ProtoTarget::new("v1/a2a.proto", "lf.a2a.v1").non_exhaustive();

/// A2A v0.3, the gRPC binding the official SDKs ship as their compatibility layer (package `a2a.v1`).
pub(crate) const V0_3: ProtoTarget = ProtoTarget::new("v0_3/a2a.proto", "a2a.v1");

/// Regenerates (or, in check mode, checks) the files of `target`.
pub(crate) fn generate(target: &ProtoTarget, mode: Mode) -> Result<()> {
    ensure_files(&generate_package(target)?, mode)
}

/// Compiles `spec/<spec_file>` with every import, optionally with comments (source info).
pub(crate) fn compile(spec_file: &str, with_source_info: bool) -> Result<protox::Compiler> {
    compile_in(SPEC_INCLUDES, spec_file, with_source_info)
}

/// Compiles `spec_file`, found in the first of `includes` (directories relative to the workspace root)
/// that has it, with every import, optionally with comments (source info).
pub(crate) fn compile_in(
    includes: &[&str],
    spec_file: &str,
    with_source_info: bool,
) -> Result<protox::Compiler> {
    let root = project_root();
    let dirs: Vec<PathBuf> = includes.iter().map(|dir| root.join(dir)).collect();
    let mut compiler = protox::Compiler::new(&dirs)
        .with_context(|| format!("setting up protox with include paths {dirs:?}"))?;
    compiler
        .include_source_info(with_source_info)
        .include_imports(true)
        .open_file(spec_file)
        .map_err(|e| anyhow!("compiling {}: {e}", source_label(includes, spec_file)))?;
    Ok(compiler)
}

/// How generated files name their source: the spec file's path from the workspace root.
pub(crate) fn source_label(includes: &[&str], spec_file: &str) -> String {
    match includes.first() {
        Some(dir) => format!("{dir}/{spec_file}"),
        None => spec_file.to_owned(),
    }
}

pub(crate) fn generate_package(target: &ProtoTarget) -> Result<Vec<GeneratedFile>> {
    let documented = compile_in(target.includes, target.spec_file, true)?;
    let descriptors = documented.file_descriptor_set();
    let encoded = documented.encode_file_descriptor_set();
    // The embedded descriptor set carries no comments: tools need names, numbers and options, not prose.
    let embedded =
        compile_in(target.includes, target.spec_file, false)?.encode_file_descriptor_set();

    let messages = generate_messages(target, &descriptors)?;
    let rust_names = rust_message_names(&messages)?;
    let serde = generate_serde(target, &encoded, &descriptors, &rust_names)?;
    let registry = generate_registry(target, &descriptors, &rust_names)?;

    let label = target.source_label();
    let rust_file = |suffix: &str, file: &syn::File| GeneratedFile {
        path: target.output(suffix),
        contents: format!("{}{}", header(&label), format_rust(file)).into_bytes(),
    };
    Ok(vec![
        rust_file("rs", &messages),
        rust_file("serde.rs", &serde),
        rust_file("registry.rs", &registry),
        GeneratedFile {
            path: target.output("fds.binpb"),
            contents: embedded,
        },
    ])
}

/// The message structs and enums, from prost-build.
pub(crate) fn generate_messages(
    target: &ProtoTarget,
    descriptors: &FileDescriptorSet,
) -> Result<syn::File> {
    let mut config = prost_build::Config::new();
    config
        .compile_well_known_types()
        .enable_type_names()
        // Deterministic iteration, so map fields serialize in a stable order.
        .btree_map(["."]);
    for (proto, rust) in OWN_WELL_KNOWN_TYPES {
        config.extern_path(*proto, *rust);
    }
    if target.non_exhaustive {
        // prost-build applies this to the package's enums and to its oneof enums.
        config.enum_attribute(format!(".{}", target.package), "#[non_exhaustive]");
    }
    config
        .extern_path(".google.protobuf", "::pbjson_types")
        // Only used as options in the A2A protos; nothing may refer to these types.
        .extern_path(".google.api", "::google_api_types_are_not_generated");
    // prost-build needs the whole set (its message graph follows imports); externs keep the output to
    // the one package.
    let requests = descriptors
        .file
        .iter()
        .map(|file| {
            let module = prost_build::Module::from_protobuf_package_name(file.package());
            (module, file.clone())
        })
        .collect();
    let mut modules = config
        .generate(requests)
        .context("prost-build failed on the descriptor set")?;
    let module = prost_build::Module::from_protobuf_package_name(target.package);
    let source = modules.remove(&module).ok_or_else(|| {
        anyhow!(
            "prost-build produced nothing for package {}",
            target.package
        )
    })?;
    parse_rust(&source, "prost-build output")
}

/// Full protobuf name → Rust path of each message, read from the `prost::Name` impls prost-build wrote
/// (so we never re-implement its naming rules).
pub(crate) fn rust_message_names(messages: &syn::File) -> Result<BTreeMap<String, syn::Path>> {
    let mut names = BTreeMap::new();
    collect_name_impls(&messages.items, &mut names);
    if names.is_empty() {
        return Err(anyhow!("prost-build wrote no `prost::Name` impls"));
    }
    Ok(names)
}

fn collect_name_impls(items: &[syn::Item], names: &mut BTreeMap<String, syn::Path>) {
    for item in items {
        match item {
            syn::Item::Impl(imp) => {
                let Some((trait_path, _)) = &imp.trait_ else {
                    continue;
                };
                if trait_path.segments.last().is_none_or(|s| s.ident != "Name") {
                    continue;
                }
                let syn::Type::Path(self_ty) = imp.self_ty.as_ref() else {
                    continue;
                };
                let constant = |wanted: &str| {
                    imp.items.iter().find_map(|item| match item {
                        syn::ImplItem::Const(c) if c.ident == wanted => match &c.expr {
                            syn::Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Str(s),
                                ..
                            }) => Some(s.value()),
                            _ => None,
                        },
                        _ => None,
                    })
                };
                if let (Some(name), Some(package)) = (constant("NAME"), constant("PACKAGE")) {
                    names.insert(format!("{package}.{name}"), self_ty.path.clone());
                }
            }
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &module.content {
                    collect_name_impls(items, names);
                }
            }
            _ => {}
        }
    }
}

/// The ProtoJSON impls, from pbjson-build, adjusted by [`protojson`].
fn generate_serde(
    target: &ProtoTarget,
    encoded: &[u8],
    descriptors: &FileDescriptorSet,
    rust_names: &BTreeMap<String, syn::Path>,
) -> Result<syn::File> {
    let mut builder = pbjson_build::Builder::new();
    builder
        .register_descriptors(encoded)
        .context("pbjson-build rejected the descriptor set")?
        .ignore_unknown_fields()
        .btree_map(["."]);
    let outputs = builder
        .generate(&[format!(".{}", target.package)], |_| Ok(Vec::<u8>::new()))
        .context("pbjson-build failed")?;
    let source = outputs
        .into_iter()
        .map(|(_, bytes)| String::from_utf8(bytes))
        .collect::<Result<String, _>>()
        .context("pbjson-build wrote invalid UTF-8")?;
    let mut file = parse_rust(&source, "pbjson-build output")?;
    let fields = protojson::FieldIndex::new(descriptors, rust_names);
    protojson::adjust(&mut file, &fields, target.support_path)?;
    Ok(file)
}

/// `MESSAGE_NAMES` and `visit_message`, dispatching a full name to its Rust type.
fn generate_registry(
    target: &ProtoTarget,
    descriptors: &FileDescriptorSet,
    rust_names: &BTreeMap<String, syn::Path>,
) -> Result<syn::File> {
    registry(package_file(descriptors, target.package)?, rust_names, None)
}

/// `MESSAGE_NAMES` and `visit_message`, dispatching a full name to its Rust type, for a crate with a
/// `crate::registry::MessageVisitor` trait. With `name_trait`, also implements that trait's
/// `FULL_NAME` constant for every message (prost's own `prost::Name` plays that part in `a2a-proto`).
pub(crate) fn registry(
    file: &FileDescriptorProto,
    rust_names: &BTreeMap<String, syn::Path>,
    name_trait: Option<proc_macro2::TokenStream>,
) -> Result<syn::File> {
    let names = message_names(file);
    let paths = names
        .iter()
        .map(|name| {
            rust_names
                .get(name)
                .ok_or_else(|| anyhow!("no Rust type is named for message {name}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let name_impls = name_trait.map(|name_trait| {
        quote! {
            #(impl #name_trait for #paths { const FULL_NAME: &'static str = #names; })*
        }
    });
    let visitor = format_ident!("MessageVisitor");
    let tokens = quote! {
        /// Full protobuf names of every message in this package, in declaration order (map entries excluded).
        pub const MESSAGE_NAMES: &[&str] = &[#(#names),*];

        /// Calls `visitor` with the Rust type of the message named `full_name` (such as
        /// `"lf.a2a.v1.Task"`); `None` when this package has no message of that name.
        pub fn visit_message<V: crate::registry::#visitor>(full_name: &str, visitor: V) -> ::core::option::Option<V::Output> {
            match full_name {
                #(#names => ::core::option::Option::Some(visitor.visit::<#paths>()),)*
                _ => ::core::option::Option::None,
            }
        }

        #name_impls
    };
    syn::parse2(tokens).context("parsing the generated registry")
}
