//! `a2a-protocol/src/generated/{operations,methods}.rs`: the operations of A2A v1, read from the service of
//! `spec/v1/a2a.proto` (`lf.a2a.v1.A2AService`) and its `google.api.http` options.
//!
//! One generated file holds, per RPC, everything the proto states about it: names for each binding, the
//! HTTP bindings (with their `additional_bindings`), request and response types, whether the response
//! streams, and the agent capability it needs; plus the JSON-RPC request and response enums that read
//! any v1 call by method name. A new RPC in the proto appears in all of them without a hand-written
//! change. Only what the proto cannot say is written here: the v0.3 method name of each RPC
//! ([`V0_3_METHODS`], checked against `spec/v0_3/a2a.json`) and the rule deriving capabilities
//! ([`required_capability`]).

use std::collections::BTreeSet;

use anyhow::{Context, Result, anyhow, bail, ensure};
use proc_macro2::TokenStream;
use prost_reflect::{DescriptorPool, DynamicMessage, MethodDescriptor};
use quote::{format_ident, quote};
use serde_json::Value as Json;

use super::descriptor::package_file;
use super::proto::compile;
use super::{GeneratedFile, Mode, ensure_files, format_rust, header, parse_rust, project_root};

const SPEC_FILE: &str = "v1/a2a.proto";
const PACKAGE: &str = "lf.a2a.v1";
const OUT_DIR: &str = "a2a-protocol/src/generated";
/// The v0.3 JSON-RPC schema whose `method` constants the pairing below must name.
const V0_3_SCHEMA: &str = "spec/v0_3/a2a.json";

/// Field number of the `google.api.http` extension on `MethodOptions` (google/api/annotations.proto).
const HTTP_EXTENSION: u32 = 72295728;

/// The v0.3 JSON-RPC method of each v1 RPC that has one. v0.3 named its methods differently
/// (`message/send`), and which v1 RPC continues which v0.3 method is not in either spec file.
/// A v1 RPC missing here simply has no v0.3 counterpart (as `ListTasks`).
const V0_3_METHODS: &[(&str, &str)] = &[
    ("SendMessage", "message/send"),
    ("SendStreamingMessage", "message/stream"),
    ("GetTask", "tasks/get"),
    ("CancelTask", "tasks/cancel"),
    ("SubscribeToTask", "tasks/resubscribe"),
    (
        "CreateTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/set",
    ),
    (
        "GetTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/get",
    ),
    (
        "ListTaskPushNotificationConfigs",
        "tasks/pushNotificationConfig/list",
    ),
    (
        "DeleteTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/delete",
    ),
    ("GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"),
];

/// Proto types outside the package that an RPC may take or return, and their Rust types.
const EXTERNAL_TYPES: &[(&str, &str)] = &[("google.protobuf.Empty", "crate::operations::Empty")];

/// The boolean fields of `AgentCapabilities` an operation can depend on, with the variant of
/// `a2a_protocol::operations::Capability` that names each.
const CAPABILITY_FIELDS: &[(&str, &str)] = &[
    ("streaming", "Streaming"),
    ("push_notifications", "PushNotifications"),
    ("extended_agent_card", "ExtendedAgentCard"),
];

/// The RPCs of the v1 service, with their comments, in the proto's order; and the service's full name.
pub(crate) fn v1_service() -> Result<(String, Vec<Rpc>)> {
    let compiler = compile(SPEC_FILE, true)?;
    let set = compiler.file_descriptor_set();
    let file = package_file(&set, PACKAGE)?;
    let service_name = match file.service.as_slice() {
        [service] => format!("{PACKAGE}.{}", service.name()),
        services => bail!(
            "expected exactly one service in {PACKAGE}, found {}",
            services.len()
        ),
    };
    // prost_types drops extensions; prost-reflect decodes them (the HttpRule included) from the bytes.
    let pool = DescriptorPool::decode(compiler.encode_file_descriptor_set().as_slice())?;
    let mut operations = read_service(&pool, &service_name)?;
    for (index, rpc) in operations.iter_mut().enumerate() {
        // Source-info path of the RPC: service #0 (field 6 of the file), method #index (field 2).
        rpc.comment = leading_comment(file, &[6, 0, 2, index as i32]);
    }
    check_capability_fields(&pool)?;
    Ok((service_name, operations))
}

pub(crate) fn generate(mode: Mode) -> Result<()> {
    let (service_name, operations) = v1_service()?;
    check_v0_3_pairing(&operations, V0_3_METHODS)?;
    let (table, methods) = render(&service_name, &operations)?;
    let label = format!("spec/{SPEC_FILE} (service {service_name})");
    let file = |name: &str, code: TokenStream| -> Result<GeneratedFile> {
        let source = format_rust(&parse_rust(&code.to_string(), name)?);
        Ok(GeneratedFile {
            path: format!("{OUT_DIR}/{name}").into(),
            contents: format!("{}{source}", header(&label)).into_bytes(),
        })
    };
    ensure_files(
        &[file("operations.rs", table)?, file("methods.rs", methods)?],
        mode,
    )
}

/// One RPC as the proto declares it.
pub(crate) struct Rpc {
    pub(crate) name: String,
    pub(crate) grpc_path: String,
    pub(crate) request: String,
    pub(crate) response: String,
    pub(crate) server_streaming: bool,
    pub(crate) client_streaming: bool,
    pub(crate) http: Vec<HttpBinding>,
    pub(crate) capability: Option<&'static str>,
    /// The proto's comment on the RPC.
    pub(crate) comment: String,
}

/// One `google.api.HttpRule`, without its additional bindings.
pub(crate) struct HttpBinding {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) body: String,
    pub(crate) response_body: String,
}

fn read_service(pool: &DescriptorPool, service_name: &str) -> Result<Vec<Rpc>> {
    let service = pool
        .get_service_by_name(service_name)
        .ok_or_else(|| anyhow!("service {service_name} not in the descriptor set"))?;
    let mut rpcs = Vec::new();
    for method in service.methods() {
        let http = http_bindings(&method)
            .with_context(|| format!("google.api.http of {}", method.full_name()))?;
        let mut rpc = Rpc {
            name: method.name().to_owned(),
            grpc_path: format!("/{service_name}/{}", method.name()),
            request: method.input().full_name().to_owned(),
            response: method.output().full_name().to_owned(),
            server_streaming: method.is_server_streaming(),
            client_streaming: method.is_client_streaming(),
            http,
            capability: None,
            comment: String::new(),
        };
        rpc.capability = required_capability(&rpc);
        rpcs.push(rpc);
    }
    ensure!(!rpcs.is_empty(), "service {service_name} has no RPC");
    Ok(rpcs)
}

/// The leading comment at a source-info path, one line per comment line.
fn leading_comment(file: &prost_types::FileDescriptorProto, path: &[i32]) -> String {
    file.source_code_info
        .iter()
        .flat_map(|info| &info.location)
        .find(|location| location.path == path)
        .and_then(|location| location.leading_comments.as_deref())
        .map(|text| {
            text.lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_owned()
        })
        .unwrap_or_default()
}

/// The capability an operation needs, by the rule of the spec's section 3.3.4 stated in terms of the
/// proto: a streamed response needs `streaming`; an RPC on `TaskPushNotificationConfig` (its name
/// contains it) needs `push_notifications`; an RPC answering with an `AgentCard` (only the extended card
/// is fetched by RPC; the public one is at the well-known URI) needs `extended_agent_card`.
fn required_capability(rpc: &Rpc) -> Option<&'static str> {
    if rpc.server_streaming {
        Some("streaming")
    } else if rpc.name.contains("TaskPushNotificationConfig") {
        Some("push_notifications")
    } else if rpc.response == format!("{PACKAGE}.AgentCard") {
        Some("extended_agent_card")
    } else {
        None
    }
}

/// Every capability the rule can produce must still be a field of `AgentCapabilities`.
fn check_capability_fields(pool: &DescriptorPool) -> Result<()> {
    let capabilities = pool
        .get_message_by_name(&format!("{PACKAGE}.AgentCapabilities"))
        .ok_or_else(|| anyhow!("{PACKAGE}.AgentCapabilities not found"))?;
    for (field, _) in CAPABILITY_FIELDS {
        ensure!(
            capabilities.get_field_by_name(field).is_some(),
            "AgentCapabilities has no field {field}: update CAPABILITY_FIELDS in the operations generator"
        );
    }
    Ok(())
}

fn http_bindings(method: &MethodDescriptor) -> Result<Vec<HttpBinding>> {
    let options = method.options();
    let Some(rule) = options
        .extensions()
        .find(|(extension, _)| extension.number() == HTTP_EXTENSION)
        .map(|(_, value)| value)
    else {
        return Ok(Vec::new());
    };
    let rule = rule
        .as_message()
        .ok_or_else(|| anyhow!("the option is not a google.api.HttpRule message"))?;
    let mut bindings = vec![http_binding(rule)?];
    if let Some(additional) = rule.get_field_by_name("additional_bindings") {
        for nested in additional.as_list().unwrap_or_default() {
            let nested = nested
                .as_message()
                .ok_or_else(|| anyhow!("an additional binding is not an HttpRule"))?;
            bindings.push(http_binding(nested)?);
        }
    }
    Ok(bindings)
}

/// Reads one HttpRule's `pattern` oneof, `body` and `response_body`.
fn http_binding(rule: &DynamicMessage) -> Result<HttpBinding> {
    let string = |name: &str| -> String {
        rule.get_field_by_name(name)
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let mut pattern = None;
    for verb in ["get", "put", "post", "delete", "patch"] {
        if rule.has_field_by_name(verb) {
            pattern = Some((verb.to_uppercase(), string(verb)));
        }
    }
    if rule.has_field_by_name("custom") {
        let custom = rule
            .get_field_by_name("custom")
            .and_then(|v| v.as_message().cloned())
            .ok_or_else(|| anyhow!("custom pattern is not a message"))?;
        let field = |name: &str| {
            custom
                .get_field_by_name(name)
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        };
        pattern = Some((field("kind"), field("path")));
    }
    let (method, path) = pattern.ok_or_else(|| anyhow!("an HttpRule without a pattern"))?;
    ensure!(path.starts_with('/'), "HTTP path {path:?} is not absolute");
    Ok(HttpBinding {
        method,
        path,
        body: string("body"),
        response_body: string("response_body"),
    })
}

/// Every paired RPC must exist, and every v0.3 method must be a `method` constant of the v0.3 schema
/// and paired with exactly one RPC, so a renamed method on either side fails code generation.
fn check_v0_3_pairing(rpcs: &[Rpc], pairing: &[(&str, &str)]) -> Result<()> {
    let path = project_root().join(V0_3_SCHEMA);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let schema: Json = serde_json::from_str(&text)?;
    let definitions = schema
        .get("definitions")
        .and_then(Json::as_object)
        .ok_or_else(|| anyhow!("{V0_3_SCHEMA} has no definitions"))?;
    let v0_3_methods: BTreeSet<&str> = definitions
        .values()
        .filter_map(|d| d.pointer("/properties/method/const").and_then(Json::as_str))
        .collect();
    ensure!(
        !v0_3_methods.is_empty(),
        "no method constants in {V0_3_SCHEMA}"
    );
    let mut paired = BTreeSet::new();
    for (rpc, method) in pairing {
        ensure!(
            rpcs.iter().any(|r| r.name == *rpc),
            "V0_3_METHODS pairs {rpc}, which the v1 service no longer has"
        );
        ensure!(
            v0_3_methods.contains(method),
            "V0_3_METHODS pairs {rpc} with {method:?}, which is not a method of {V0_3_SCHEMA}"
        );
        ensure!(paired.insert(*method), "{method:?} is paired with two RPCs");
    }
    let unpaired: Vec<_> = v0_3_methods.difference(&paired).collect();
    ensure!(
        unpaired.is_empty(),
        "v0.3 methods with no v1 RPC in V0_3_METHODS: {unpaired:?}"
    );
    Ok(())
}

/// The Rust type of a proto message used by the service.
fn rust_type(full_name: &str) -> Result<TokenStream> {
    if let Some((_, rust)) = EXTERNAL_TYPES.iter().find(|(proto, _)| *proto == full_name) {
        return rust.parse().map_err(|e| anyhow!("{rust}: {e}"));
    }
    let name = full_name
        .strip_prefix(&format!("{PACKAGE}."))
        .filter(|name| !name.contains('.'))
        .ok_or_else(|| {
            anyhow!("{full_name} is neither a top-level message of {PACKAGE} nor in EXTERNAL_TYPES")
        })?;
    let ident = format_ident!("{name}");
    Ok(quote!(a2a_types::v1::#ident))
}

/// The operations table (for `a2a_protocol::operations`) and the request and response enums of every
/// operation (for `a2a_protocol::operations::methods`, which imports `Operation` and provides the `read`
/// and `write` helpers they call, and whose readers `jsonrpc` calls).
fn render(service_name: &str, rpcs: &[Rpc]) -> Result<(TokenStream, TokenStream)> {
    let variants: Vec<_> = rpcs.iter().map(|r| format_ident!("{}", r.name)).collect();
    let mut entries = Vec::new();
    let mut request_variants = Vec::new();
    let mut response_variants = Vec::new();
    let mut request_parse = Vec::new();
    let mut request_parse_from = Vec::new();
    let mut response_parse = Vec::new();
    let mut response_parse_from = Vec::new();
    for (rpc, variant) in rpcs.iter().zip(&variants) {
        let name = &rpc.name;
        let grpc_path = &rpc.grpc_path;
        let request = &rpc.request;
        let response = &rpc.response;
        let request_type = rust_type(request)?;
        let response_type = rust_type(response)?;
        // As a user writes them: `a2a_types::v1::Task`, `a2a_protocol::operations::Empty`.
        let user_path = |tokens: &TokenStream| {
            tokens
                .to_string()
                .replace(' ', "")
                .replacen("crate::", "a2a_protocol::", 1)
        };
        let request_rust = user_path(&request_type);
        let response_rust = user_path(&response_type);
        let server_streaming = rpc.server_streaming;
        let client_streaming = rpc.client_streaming;
        let v0_3 = match V0_3_METHODS.iter().find(|(r, _)| *r == rpc.name) {
            Some((_, method)) => quote!(Some(#method)),
            None => quote!(None),
        };
        let capability = match rpc.capability {
            Some(field) => {
                let (_, variant) = CAPABILITY_FIELDS
                    .iter()
                    .find(|(f, _)| *f == field)
                    .ok_or_else(|| anyhow!("capability {field} not in CAPABILITY_FIELDS"))?;
                let variant = format_ident!("{variant}");
                quote!(Some(Capability::#variant))
            }
            None => quote!(None),
        };
        let http = rpc.http.iter().map(|b| {
            let method = &b.method;
            let path = &b.path;
            let body = &b.body;
            let response_body = &b.response_body;
            quote!(HttpBinding {
                method: #method,
                path: #path,
                body: #body,
                response_body: #response_body,
            })
        });
        entries.push(quote! {
            OperationInfo {
                operation: Operation::#variant,
                rpc_name: #name,
                jsonrpc_method: #name,
                v0_3_method: #v0_3,
                grpc_path: #grpc_path,
                http: &[#(#http),*],
                request_type: #request,
                request_rust_type: #request_rust,
                response_type: #response,
                response_rust_type: #response_rust,
                server_streaming: #server_streaming,
                client_streaming: #client_streaming,
                capability: #capability,
            }
        });
        let request_doc = format!(" `{name}` params: `{request}`.");
        let response_doc = format!(
            " `{name}` result: {}`{response}`.",
            if server_streaming {
                "one event of the stream, "
            } else {
                ""
            }
        );
        request_variants.push(quote!(#[doc = #request_doc] #variant(#request_type)));
        response_variants.push(quote!(#[doc = #response_doc] #variant(#response_type)));
        request_parse.push(quote! {
            Operation::#variant => MethodParams::#variant(read(params)?)
        });
        request_parse_from.push(quote! {
            Operation::#variant => MethodParams::#variant(::serde::Deserialize::deserialize(params)?)
        });
        response_parse.push(quote! {
            Operation::#variant => MethodResult::#variant(read(result)?)
        });
        response_parse_from.push(quote! {
            Operation::#variant => MethodResult::#variant(::serde::Deserialize::deserialize(result)?)
        });
    }
    // One `#[doc]` per line, so the output reads as `///` comments.
    let variant_docs: Vec<Vec<String>> = rpcs
        .iter()
        .map(|r| {
            let mut lines = vec![format!(" `{}`.", r.name)];
            if !r.comment.is_empty() {
                lines.push(String::new());
                lines.extend(r.comment.lines().map(|line| format!(" {line}")));
            }
            lines
        })
        .collect();
    let count = proc_macro2::Literal::usize_unsuffixed(rpcs.len());
    let indices = (0..rpcs.len()).map(proc_macro2::Literal::usize_unsuffixed);
    let enum_doc = format!(
        " An RPC of `{service_name}`, which every binding offers (JSON-RPC method, gRPC method, HTTP \
         endpoint). New RPCs of a later spec become new variants."
    );
    let table_doc = format!(" Every RPC of `{service_name}`, in the proto's declaration order.");
    let table = quote! {
        #[doc = #enum_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Operation {
            #(#(#[doc = #variant_docs])* #variants,)*
        }

        impl Operation {
            /// What the proto says about this operation.
            pub const fn info(self) -> &'static OperationInfo {
                match self {
                    #(Operation::#variants => &OPERATIONS[#indices],)*
                }
            }
        }

        /// The full name of the service the operations belong to.
        pub const SERVICE_NAME: &str = #service_name;

        #[doc = #table_doc]
        pub static OPERATIONS: [OperationInfo; #count] = [#(#entries),*];
    };
    let jsonrpc = quote! {
        /// A JSON-RPC request's params, typed by its method.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum MethodParams {
            #(#request_variants,)*
        }

        /// A JSON-RPC response's result (for a streaming method, one event), typed by the method of its
        /// request.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum MethodResult {
            #(#response_variants,)*
        }

        impl MethodParams {
            /// The operation the params are for.
            pub fn operation(&self) -> Operation {
                match self {
                    #(MethodParams::#variants(_) => Operation::#variants,)*
                }
            }

            /// The params as JSON (ProtoJSON), for the envelope's `params`.
            pub fn to_json(&self) -> ::serde_json::Value {
                match self {
                    #(MethodParams::#variants(params) => write(params),)*
                }
            }

            pub(crate) fn read_params(
                operation: Operation,
                params: ::serde_json::Value,
            ) -> ::core::result::Result<Self, ::serde_path_to_error::Error<::serde_json::Error>> {
                Ok(match operation {
                    #(#request_parse,)*
                })
            }

            /// Reads the params of `operation` from any deserializer (the text of a request body), with
            /// no `serde_json::Value` in between and no path tracking.
            pub(crate) fn read_params_from<'de, D: ::serde::Deserializer<'de>>(
                operation: Operation,
                params: D,
            ) -> ::core::result::Result<Self, D::Error> {
                Ok(match operation {
                    #(#request_parse_from,)*
                })
            }
        }

        impl MethodResult {
            /// The operation the result answers.
            pub fn operation(&self) -> Operation {
                match self {
                    #(MethodResult::#variants(_) => Operation::#variants,)*
                }
            }

            /// The result as JSON (ProtoJSON), for the envelope's `result`.
            pub fn to_json(&self) -> ::serde_json::Value {
                match self {
                    #(MethodResult::#variants(result) => write(result),)*
                }
            }

            pub(crate) fn read_result(
                operation: Operation,
                result: ::serde_json::Value,
            ) -> ::core::result::Result<Self, ::serde_path_to_error::Error<::serde_json::Error>> {
                Ok(match operation {
                    #(#response_parse,)*
                })
            }

            /// Reads the result of `operation` from any deserializer (the text of a response body or
            /// of one streamed event), with no `serde_json::Value` in between and no path tracking.
            pub(crate) fn read_result_from<'de, D: ::serde::Deserializer<'de>>(
                operation: Operation,
                result: D,
            ) -> ::core::result::Result<Self, D::Error> {
                Ok(match operation {
                    #(#response_parse_from,)*
                })
            }
        }
    };
    Ok((table, jsonrpc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service() -> Vec<Rpc> {
        let compiler = compile(SPEC_FILE, false).unwrap();
        let pool =
            DescriptorPool::decode(compiler.encode_file_descriptor_set().as_slice()).unwrap();
        read_service(&pool, "lf.a2a.v1.A2AService").unwrap()
    }

    #[test]
    fn a_stale_v0_3_pairing_fails_code_generation() {
        let rpcs = service();
        check_v0_3_pairing(&rpcs, V0_3_METHODS).unwrap();

        let mut renamed_v0_3 = V0_3_METHODS.to_vec();
        renamed_v0_3[0] = ("SendMessage", "message/sendNow");
        let error = check_v0_3_pairing(&rpcs, &renamed_v0_3).unwrap_err();
        assert!(error.to_string().contains("message/sendNow"), "{error}");

        let mut renamed_rpc = V0_3_METHODS.to_vec();
        renamed_rpc[2] = ("FetchTask", "tasks/get");
        let error = check_v0_3_pairing(&rpcs, &renamed_rpc).unwrap_err();
        assert!(error.to_string().contains("FetchTask"), "{error}");

        let error = check_v0_3_pairing(&rpcs, &V0_3_METHODS[1..]).unwrap_err();
        assert!(error.to_string().contains("message/send"), "{error}");
    }

    #[test]
    fn a_new_rpc_gets_a_variant_and_a_capability_by_the_rule() {
        let mut rpcs = service();
        let mut new = Rpc {
            name: "WatchAgent".into(),
            grpc_path: "/lf.a2a.v1.A2AService/WatchAgent".into(),
            request: "lf.a2a.v1.GetTaskRequest".into(),
            response: "lf.a2a.v1.StreamResponse".into(),
            server_streaming: true,
            client_streaming: false,
            http: Vec::new(),
            capability: None,
            comment: String::new(),
        };
        new.capability = required_capability(&new);
        assert_eq!(new.capability, Some("streaming"));
        rpcs.push(new);
        let (table, methods) = render("lf.a2a.v1.A2AService", &rpcs).unwrap();
        assert!(table.to_string().contains("WatchAgent"));
        assert!(
            methods
                .to_string()
                .contains("WatchAgent (a2a_types :: v1 :: GetTaskRequest)")
        );
        let capabilities: Vec<_> = service()
            .iter()
            .map(|r| (r.name.clone(), r.capability))
            .collect();
        assert!(capabilities.contains(&("ListTasks".to_owned(), None)));
        assert!(capabilities.contains(&(
            "DeleteTaskPushNotificationConfig".to_owned(),
            Some("push_notifications")
        )));
        assert!(capabilities.contains(&(
            "GetExtendedAgentCard".to_owned(),
            Some("extended_agent_card")
        )));
    }
}
