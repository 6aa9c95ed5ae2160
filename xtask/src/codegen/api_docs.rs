//! `spec/v1/generated/openapi.json`, `spec/v1/generated/openrpc.json` and
//! `spec/v0_3/generated/openrpc.json`: OpenAPI 3.1 and OpenRPC 1.3 descriptions of the protocol's
//! HTTP+JSON and JSON-RPC bindings, built from the same sources as the code.
//!
//! - Operations, paths, bodies and streaming come from the v1 service and its `google.api.http`
//!   bindings ([`super::operations::v1_service`], the source of `a2a_types::operations`).
//! - Schemas are the JSON Schema bundle of the proto ([`super::json_schema::build`], the source of
//!   `spec/v1/generated/a2a.json`), copied whole into `components/schemas` with their references
//!   rewritten; nothing is defined twice. v0.3's come from `spec/v0_3/a2a.json` the same way.
//! - Errors come from [`ERRORS`] and [`OPERATION_ERRORS`]: the error table and the per-operation error
//!   lists are specification text (sections 3.1, 3.3.2, 5.4, 9.5), not proto, so they are written here.
//!   `a2a_types::errors` is the other copy; the test `describe_v1::generated_errors_are_the_error_model`
//!   in the test suite holds the two together (xtask does not depend on a2a-types).
//!
//! `a2a-types` embeds the two v1 documents to describe one agent from its card (`a2a_types::describe`);
//! a crate can only package files inside it, so they are also written to `a2a-types/src/v1/generated/`.

use std::collections::BTreeSet;

use anyhow::{Context, Result, anyhow, bail, ensure};
use serde_json::{Map, Value, json};

use super::naming::lower_camel;
use super::operations::{HttpBinding, Rpc, v1_service};
use super::{GeneratedFile, Mode, REGENERATE, ensure_files, json_schema, project_root};

const V1_OPENAPI: &[&str] = &[
    "spec/v1/generated/openapi.json",
    "a2a-types/src/v1/generated/openapi.json",
];
const V1_OPENRPC: &[&str] = &[
    "spec/v1/generated/openrpc.json",
    "a2a-types/src/v1/generated/openrpc.json",
];
const V0_3_SCHEMA: &str = "spec/v0_3/a2a.json";
const V0_3_OPENRPC: &str = "spec/v0_3/generated/openrpc.json";

/// The public agent card's path (spec section 8.2, RFC 8615).
const WELL_KNOWN_CARD: &str = "/.well-known/agent-card.json";
/// Media types of the HTTP+JSON binding: the spec's (section 11.1, SHOULD) and plain JSON, which
/// clients and the official SDK send.
const JSON_MEDIA_TYPES: &[&str] = &["application/a2a+json", "application/json"];
/// The service parameters every request may carry as HTTP headers (sections 3.2.6 and 11.2).
const SERVICE_PARAMETERS: &[(&str, &str, &str)] = &[
    (
        "A2AVersion",
        "A2A-Version",
        "The A2A protocol version the client speaks, `major.minor` (`1.0`); absent means `0.3`. An agent that does not serve it answers VersionNotSupportedError.",
    ),
    (
        "A2AExtensions",
        "A2A-Extensions",
        "Comma-separated URIs of the extensions the client wants to use for this request.",
    ),
];

/// One error of the error model (sections 3.3.2, 5.4 and 9.5): its name in the spec, JSON-RPC code,
/// gRPC status, HTTP status, `google.rpc.ErrorInfo` reason and default message.
#[derive(Debug)]
pub(crate) struct ErrorEntry {
    pub(crate) name: &'static str,
    pub(crate) code: i64,
    pub(crate) grpc_status: &'static str,
    pub(crate) http_status: u16,
    pub(crate) reason: &'static str,
    pub(crate) message: &'static str,
}

const fn error(
    name: &'static str,
    code: i64,
    grpc_status: &'static str,
    http_status: u16,
    reason: &'static str,
    message: &'static str,
) -> ErrorEntry {
    ErrorEntry {
        name,
        code,
        grpc_status,
        http_status,
        reason,
        message,
    }
}

/// Every error A2A v1 defines, in the order of `a2a_types::errors::ErrorKind::ALL`.
pub(crate) const ERRORS: &[ErrorEntry] = &[
    error(
        "JSONParseError",
        -32700,
        "INVALID_ARGUMENT",
        400,
        "UNKNOWN_ERROR",
        "Invalid JSON payload",
    ),
    error(
        "InvalidRequestError",
        -32600,
        "INVALID_ARGUMENT",
        400,
        "INVALID_REQUEST",
        "Request payload validation error",
    ),
    error(
        "MethodNotFoundError",
        -32601,
        "NOT_FOUND",
        404,
        "METHOD_NOT_FOUND",
        "Method not found",
    ),
    error(
        "InvalidParamsError",
        -32602,
        "INVALID_ARGUMENT",
        400,
        "INVALID_PARAMS",
        "Invalid parameters",
    ),
    error(
        "InternalError",
        -32603,
        "INTERNAL",
        500,
        "INTERNAL_ERROR",
        "Internal error",
    ),
    error(
        "TaskNotFoundError",
        -32001,
        "NOT_FOUND",
        404,
        "TASK_NOT_FOUND",
        "Task not found",
    ),
    error(
        "TaskNotCancelableError",
        -32002,
        "FAILED_PRECONDITION",
        400,
        "TASK_NOT_CANCELABLE",
        "Task cannot be canceled",
    ),
    error(
        "PushNotificationNotSupportedError",
        -32003,
        "FAILED_PRECONDITION",
        400,
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        "Push Notification is not supported",
    ),
    error(
        "UnsupportedOperationError",
        -32004,
        "FAILED_PRECONDITION",
        400,
        "UNSUPPORTED_OPERATION",
        "This operation is not supported",
    ),
    error(
        "ContentTypeNotSupportedError",
        -32005,
        "INVALID_ARGUMENT",
        400,
        "CONTENT_TYPE_NOT_SUPPORTED",
        "Incompatible content types",
    ),
    error(
        "InvalidAgentResponseError",
        -32006,
        "INTERNAL",
        500,
        "INVALID_AGENT_RESPONSE",
        "Invalid agent response",
    ),
    error(
        "ExtendedAgentCardNotConfiguredError",
        -32007,
        "FAILED_PRECONDITION",
        400,
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        "Authenticated Extended Card is not configured",
    ),
    error(
        "ExtensionSupportRequiredError",
        -32008,
        "FAILED_PRECONDITION",
        400,
        "EXTENSION_SUPPORT_REQUIRED",
        "Extension support required",
    ),
    error(
        "VersionNotSupportedError",
        -32009,
        "FAILED_PRECONDITION",
        400,
        "VERSION_NOT_SUPPORTED",
        "Version not supported",
    ),
];

/// The errors the spec lists for each operation (section 3.1, "Errors").
const OPERATION_ERRORS: &[(&str, &[&str])] = &[
    (
        "SendMessage",
        &[
            "ContentTypeNotSupportedError",
            "UnsupportedOperationError",
            "TaskNotFoundError",
        ],
    ),
    (
        "SendStreamingMessage",
        &[
            "UnsupportedOperationError",
            "ContentTypeNotSupportedError",
            "TaskNotFoundError",
        ],
    ),
    ("GetTask", &["TaskNotFoundError"]),
    ("ListTasks", &[]),
    (
        "CancelTask",
        &["TaskNotCancelableError", "TaskNotFoundError"],
    ),
    (
        "SubscribeToTask",
        &["UnsupportedOperationError", "TaskNotFoundError"],
    ),
    (
        "CreateTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "GetTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "ListTaskPushNotificationConfigs",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
    (
        "GetExtendedAgentCard",
        &[
            "UnsupportedOperationError",
            "ExtendedAgentCardNotConfiguredError",
        ],
    ),
    (
        "DeleteTaskPushNotificationConfig",
        &["PushNotificationNotSupportedError", "TaskNotFoundError"],
    ),
];

/// Errors any operation can answer, in either binding: invalid input, an unserved version, a
/// required extension the client did not ask for, a server failure (sections 3.2.6, 3.3.2, 4.6).
const EVERY_OPERATION_ERRORS: &[&str] = &[
    "InvalidParamsError",
    "VersionNotSupportedError",
    "ExtensionSupportRequiredError",
    "InternalError",
];

/// The error an agent answers when the capability an operation needs is not declared (section
/// 3.3.4); the capability names are those of the operations generator.
const CAPABILITY_ERRORS: &[(&str, &str)] = &[
    ("streaming", "UnsupportedOperationError"),
    ("push_notifications", "PushNotificationNotSupportedError"),
    ("extended_agent_card", "UnsupportedOperationError"),
];

/// Proto types outside the bundle an RPC may return, with the schema of their JSON form.
const EXTERNAL_SCHEMAS: &[(&str, &str)] = &[("google.protobuf.Empty", "Empty")];
const V1_PACKAGE: &str = "lf.a2a.v1";

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

fn generated_note(source: &str) -> String {
    format!("@generated by `{REGENERATE}` from {source}. Do not edit by hand.")
}

/// The errors section 3.1 of the spec lists for an RPC, if [`OPERATION_ERRORS`] has it.
fn spec_errors(rpc: &str) -> Option<&'static [&'static str]> {
    OPERATION_ERRORS
        .iter()
        .find(|(name, _)| *name == rpc)
        .map(|(_, errors)| *errors)
}

fn error_entry(name: &str) -> Result<&'static ErrorEntry> {
    ERRORS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| anyhow!("{name} is not in ERRORS"))
}

/// Every error `rpc` can answer: the spec's list for it, the error of its missing capability, and the
/// errors of every operation; each once, in that order. An RPC newer than [`OPERATION_ERRORS`] gets
/// the last two only (a spec bump still regenerates); the unit test `every_rpc_has_its_errors` names it.
fn operation_errors(rpc: &Rpc) -> Result<Vec<&'static ErrorEntry>> {
    let specific = spec_errors(&rpc.name).unwrap_or(&[]);
    let capability = match rpc.capability {
        Some(capability) => Some(
            CAPABILITY_ERRORS
                .iter()
                .find(|(c, _)| *c == capability)
                .map(|(_, e)| *e)
                .ok_or_else(|| anyhow!("capability {capability} has no CAPABILITY_ERRORS entry"))?,
        ),
        None => None,
    };
    let mut seen = BTreeSet::new();
    let mut errors = Vec::new();
    for name in specific
        .iter()
        .copied()
        .chain(capability)
        .chain(EVERY_OPERATION_ERRORS.iter().copied())
    {
        if seen.insert(name) {
            errors.push(error_entry(name)?);
        }
    }
    Ok(errors)
}

/// A copy of `schema` whose `#/$defs/` (2020-12) or `#/definitions/` (draft-07) references point into
/// `#/components/schemas/`.
fn rebase_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| {
                    let value = match (key.as_str(), value) {
                        ("$ref", Value::String(target)) => Value::String(
                            target
                                .replace("#/$defs/", "#/components/schemas/")
                                .replace("#/definitions/", "#/components/schemas/"),
                        ),
                        _ => rebase_refs(value),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(rebase_refs).collect()),
        other => other.clone(),
    }
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The component name of a message the service takes or returns.
fn message_component(full_name: &str, defs: &Map<String, Value>) -> Result<String> {
    if let Some((_, name)) = EXTERNAL_SCHEMAS
        .iter()
        .find(|(proto, _)| *proto == full_name)
    {
        return Ok((*name).to_owned());
    }
    let name = full_name
        .strip_prefix(&format!("{V1_PACKAGE}."))
        .ok_or_else(|| anyhow!("{full_name} is neither in {V1_PACKAGE} nor in EXTERNAL_SCHEMAS"))?;
    ensure!(
        defs.contains_key(name),
        "{name} is not in the JSON Schema bundle"
    );
    Ok(name.to_owned())
}

/// The bundle's definitions as components, plus what the bindings add that the proto does not
/// define: `google.protobuf.Empty`, and the HTTP+JSON error body (`google.rpc.Status`, section 11.6).
fn v1_components(bundle: &Value, with_status: bool) -> Result<Map<String, Value>> {
    let defs = bundle
        .get("$defs")
        .and_then(Value::as_object)
        .ok_or_else(|| anyhow!("the JSON Schema bundle has no $defs"))?;
    let mut schemas: Map<String, Value> = defs
        .iter()
        .map(|(name, schema)| (name.clone(), rebase_refs(schema)))
        .collect();
    let mut add = |name: &str, schema: Value| -> Result<()> {
        ensure!(
            schemas.insert(name.to_owned(), schema).is_none(),
            "the bundle already defines {name}"
        );
        Ok(())
    };
    add(
        "Empty",
        // The official SDK's JSON-RPC server answers an empty result with `null`.
        json!({"description": "An empty message (google.protobuf.Empty): `{}` (some servers write `null`).", "type": ["object", "null"]}),
    )?;
    if with_status {
        add(
            "GoogleRpcStatus",
            json!({
                "description": "An error as google.rpc.Status in JSON: the HTTP status code, the gRPC status name, a message, and details (a google.rpc.ErrorInfo whose reason names the A2A error, then for invalid input a google.rpc.BadRequest).",
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"description": "The HTTP status code.", "type": "integer"},
                    "status": {"description": "The gRPC status name, e.g. `NOT_FOUND`.", "type": "string"},
                    "message": {"description": "What went wrong, for a person.", "type": "string"},
                    "details": {
                        "type": "array",
                        "items": {
                            "description": "A google.protobuf.Any in JSON: `@type` and the fields of that message.",
                            "type": "object",
                            "required": ["@type"],
                            "properties": {"@type": {"type": "string"}}
                        }
                    }
                }
            }),
        )?;
        add(
            "ErrorResponse",
            json!({
                "description": "The body of every HTTP+JSON error response (spec section 11.6).",
                "type": "object",
                "required": ["error"],
                "properties": {"error": schema_ref("GoogleRpcStatus")}
            }),
        )?;
    }
    Ok(schemas)
}

/// The OpenAPI path of a `google.api.http` template (`/tasks/{id=*}:cancel` is `/tasks/{id}:cancel`),
/// and its variables as proto field names.
fn openapi_path(template: &str) -> Result<(String, Vec<String>)> {
    let mut path = String::new();
    let mut fields = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        path.push_str(&rest[..start]);
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| anyhow!("unclosed variable in {template}"))?
            + start;
        let variable = &rest[start + 1..end];
        let (field, pattern) = variable.split_once('=').unwrap_or((variable, "*"));
        ensure!(
            pattern == "*",
            "{template}: only single-segment variables can be OpenAPI path parameters, not {variable}"
        );
        path.push_str(&format!("{{{}}}", lower_camel(field)));
        fields.push(field.to_owned());
        rest = &rest[end + 1..];
    }
    path.push_str(rest);
    Ok((path, fields))
}

fn json_content(schema: Value) -> Value {
    let mut content = Map::new();
    for media_type in JSON_MEDIA_TYPES {
        content.insert((*media_type).to_owned(), json!({ "schema": schema }));
    }
    Value::Object(content)
}

/// The example error body of `entry`, as the HTTP+JSON binding writes it.
fn rest_error_example(entry: &ErrorEntry) -> Value {
    json!({
        "summary": format!("{} ({})", entry.name, entry.reason),
        "value": {
            "error": {
                "code": entry.http_status,
                "status": entry.grpc_status,
                "message": entry.message,
                "details": [{
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": entry.reason,
                    "domain": "a2a-protocol.org",
                    "metadata": {}
                }]
            }
        }
    })
}

fn error_record(entry: &ErrorEntry) -> Value {
    json!({
        "name": entry.name,
        "jsonrpcCode": entry.code,
        "grpcStatus": entry.grpc_status,
        "httpStatus": entry.http_status,
        "reason": entry.reason,
        "message": entry.message
    })
}

/// Responses by HTTP status for the errors of an operation, each listing its errors.
fn error_responses(errors: &[&ErrorEntry], responses: &mut Map<String, Value>) {
    let statuses: BTreeSet<u16> = errors.iter().map(|e| e.http_status).collect();
    for status in statuses {
        let with_status: Vec<_> = errors.iter().filter(|e| e.http_status == status).collect();
        let names: Vec<_> = with_status.iter().map(|e| e.name).collect();
        let mut examples = Map::new();
        for entry in &with_status {
            examples.insert(
                entry.name.to_owned(),
                json!({ "$ref": format!("#/components/examples/{}", entry.name) }),
            );
        }
        let mut content = Map::new();
        for media_type in JSON_MEDIA_TYPES {
            content.insert(
                (*media_type).to_owned(),
                json!({ "schema": schema_ref("ErrorResponse"), "examples": examples }),
            );
        }
        responses.insert(
            status.to_string(),
            json!({
                "description": names.join(", "),
                "content": content,
                "x-a2a-errors": with_status.iter().map(|e| error_record(e)).collect::<Vec<_>>()
            }),
        );
    }
}

/// The OpenAPI description of the HTTP+JSON binding of v1.
pub(crate) fn openapi_v1(rpcs: &[Rpc], bundle: &Value) -> Result<Value> {
    let schemas = v1_components(bundle, true)?;
    let mut paths = Map::new();
    paths.insert(
        WELL_KNOWN_CARD.to_owned(),
        json!({
            "servers": [{
                "url": "https://agent.example.com",
                "description": "The agent's origin: the card is served at the root of its domain (RFC 8615)."
            }],
            "get": {
                "operationId": "GetAgentCard",
                "summary": "The agent's public card.",
                "description": "Fetched before anything else, without authentication (spec section 8.2).",
                "security": [],
                "responses": {
                    "200": {"description": "The agent card.", "content": json_content(schema_ref("AgentCard"))}
                }
            }
        }),
    );
    for rpc in rpcs {
        ensure!(
            !rpc.http.is_empty(),
            "{} has no google.api.http binding",
            rpc.name
        );
        let errors = operation_errors(rpc)?;
        for (index, binding) in rpc.http.iter().enumerate() {
            let (path, operation) = openapi_operation(rpc, index, binding, &schemas, &errors)?;
            let item = paths
                .entry(path.clone())
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .ok_or_else(|| anyhow!("path item {path}"))?;
            let method = binding.method.to_lowercase();
            // A custom method bound to GET is also served on POST, its body ignored, as
            // `a2a_types::rest` and the official SDK's server do (its client subscribes with POST).
            let post_alias = (method == "get" && path.rsplit('/').next().is_some_and(|s| s.contains(':')))
                .then(|| {
                    let mut alias = operation.clone();
                    alias["operationId"] = json!(format!("{}ByPost", text(&operation["operationId"])));
                    alias["description"] = json!(format!(
                        "{} Also served on POST, the body ignored (the proto binds GET; the official SDK's client sends POST).",
                        text(&operation["description"])
                    ));
                    alias
                });
            for (method, operation) in std::iter::once((method, operation))
                .chain(post_alias.map(|alias| ("post".to_owned(), alias)))
            {
                ensure!(
                    item.insert(method.clone(), operation).is_none(),
                    "two operations on {method} {path}"
                );
            }
        }
    }
    let mut parameters = Map::new();
    for (id, header, description) in SERVICE_PARAMETERS {
        parameters.insert(
            (*id).to_owned(),
            json!({"name": header, "in": "header", "required": false, "description": description, "schema": {"type": "string"}}),
        );
    }
    let mut examples = Map::new();
    for entry in ERRORS {
        examples.insert(entry.name.to_owned(), rest_error_example(entry));
    }
    Ok(json!({
        "openapi": "3.1.0",
        "info": {
            "title": "A2A protocol v1, HTTP+JSON binding",
            "version": "1.0",
            "summary": generated_note("spec/v1/a2a.proto (service lf.a2a.v1.A2AService and its google.api.http bindings), its JSON Schema bundle and the spec's error model"),
            "description": "Every operation of the A2A v1 service at the paths of its google.api.http bindings, each also under a `{tenant}` prefix. Requests and responses are ProtoJSON; streaming operations answer with server-sent events whose `data` is one StreamResponse each. Errors are google.rpc.Status objects with a google.rpc.ErrorInfo naming the A2A error; `x-a2a-errors` on each error response lists them with their JSON-RPC codes. The servers and security here are placeholders: an agent's own description (`a2a describe`) takes them from its card.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"}
        },
        "servers": [{
            "url": "https://agent.example.com/a2a/v1",
            "description": "Example: an agent serves the binding at the URL of its HTTP+JSON AgentInterface."
        }],
        "paths": paths,
        "components": {"schemas": schemas, "parameters": parameters, "examples": examples}
    }))
}

fn openapi_operation(
    rpc: &Rpc,
    index: usize,
    binding: &HttpBinding,
    schemas: &Map<String, Value>,
    errors: &[&ErrorEntry],
) -> Result<(String, Value)> {
    let (path, path_fields) = openapi_path(&binding.path)?;
    let request = message_component(&rpc.request, schemas)?;
    let request_schema = &schemas[&request];
    let properties = request_schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = request_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let path_json: Vec<String> = path_fields.iter().map(|f| lower_camel(f)).collect();
    let mut parameters = Vec::new();
    for field in &path_json {
        // A variable naming no field of the request (possible in google.api.http) is still a path
        // parameter; it has no description to take.
        let description = properties
            .get(field)
            .and_then(|p| p.get("description"))
            .cloned()
            .unwrap_or_else(|| json!(format!("The `{field}` path segment.")));
        parameters.push(json!({
            "name": field,
            "in": "path",
            "required": true,
            "description": description,
            "schema": {"type": "string"}
        }));
    }
    let mut operation = Map::new();
    match binding.body.as_str() {
        "" => {
            // Every field the path does not bind comes from the query string (section 11.5); the
            // tenant has its own binding.
            for (name, schema) in &properties {
                if path_json.contains(name) || name == "tenant" {
                    continue;
                }
                let mut schema = schema.clone();
                let description = schema
                    .as_object_mut()
                    .and_then(|s| s.remove("description"))
                    .unwrap_or(Value::Null);
                parameters.push(json!({
                    "name": name,
                    "in": "query",
                    "required": required.contains(&name.as_str()),
                    "description": description,
                    "schema": schema
                }));
            }
        }
        "*" => {
            let body_schema = if path_json.iter().any(|f| required.contains(&f.as_str())) {
                // The path carries some required fields, so the body is the message without them.
                let mut body = request_schema.clone();
                let object = body.as_object_mut().ok_or_else(|| anyhow!("{request}"))?;
                if let Some(Value::Object(props)) = object.get_mut("properties") {
                    props.retain(|name, _| !path_json.contains(name));
                }
                if let Some(Value::Array(req)) = object.get_mut("required") {
                    req.retain(|name| !path_json.iter().any(|f| name == f));
                }
                body
            } else {
                schema_ref(&request)
            };
            operation.insert(
                "requestBody".into(),
                json!({"required": true, "content": json_content(body_schema)}),
            );
        }
        field => bail!(
            "{}: a body of one field ({field}) is not described yet",
            rpc.name
        ),
    }
    for (id, _, _) in SERVICE_PARAMETERS {
        parameters.push(json!({ "$ref": format!("#/components/parameters/{id}") }));
    }
    ensure!(
        binding.response_body.is_empty(),
        "{}: response_body is not described yet",
        rpc.name
    );
    let response = message_component(&rpc.response, schemas)?;
    let mut responses = Map::new();
    if rpc.server_streaming {
        responses.insert(
            "200".into(),
            json!({
                "description": format!("A stream of server-sent events; the `data` of each is one {response} as JSON. The stream ends when the task reaches a terminal or interrupted state."),
                "content": {
                    "text/event-stream": {
                        "schema": {"type": "string", "description": format!("`data:` lines, each a {response}.")},
                        "x-a2a-event-schema": schema_ref(&response)
                    }
                }
            }),
        );
    } else {
        responses.insert(
            "200".into(),
            json!({"description": format!("The {response}."), "content": json_content(schema_ref(&response))}),
        );
    }
    error_responses(errors, &mut responses);
    let (summary, description) = summary_and_description(&rpc.comment);
    let operation_id = if index == 0 {
        rpc.name.clone()
    } else if path_fields.first().map(String::as_str) == Some("tenant") {
        format!("{}WithTenant", rpc.name)
    } else {
        format!("{}Binding{index}", rpc.name)
    };
    operation.insert("operationId".into(), json!(operation_id));
    operation.insert("summary".into(), json!(summary));
    operation.insert("description".into(), json!(description));
    operation.insert("parameters".into(), json!(parameters));
    operation.insert("responses".into(), Value::Object(responses));
    operation.insert("x-a2a-operation".into(), json!(rpc.name));
    if let Some(capability) = rpc.capability {
        operation.insert("x-a2a-capability".into(), json!(lower_camel(capability)));
    }
    if rpc.server_streaming {
        operation.insert("x-a2a-streaming".into(), json!(true));
    }
    Ok((path, Value::Object(operation)))
}

/// A proto comment as one line, and its first sentence.
fn summary_and_description(comment: &str) -> (String, String) {
    let description = comment.split_whitespace().collect::<Vec<_>>().join(" ");
    let summary = match description.find(". ") {
        Some(end) => description[..=end].to_owned(),
        None => description.clone(),
    };
    (summary, description)
}

/// The OpenRPC description of the JSON-RPC binding of v1.
pub(crate) fn openrpc_v1(rpcs: &[Rpc], bundle: &Value) -> Result<Value> {
    let schemas = v1_components(bundle, false)?;
    let mut methods = Vec::new();
    for rpc in rpcs {
        let request = message_component(&rpc.request, &schemas)?;
        let response = message_component(&rpc.response, &schemas)?;
        let params = by_name_params(&schemas[&request], &request)?;
        let errors: Vec<Value> = operation_errors(rpc)?
            .iter()
            .map(|e| json!({ "$ref": format!("#/components/errors/{}", e.name) }))
            .collect();
        let result_description = if rpc.server_streaming {
            format!(
                "One event of the stream: the agent answers with server-sent events, each a JSON-RPC response whose result is a {response}."
            )
        } else {
            format!("The {response}.")
        };
        let mut method = json!({
            "name": rpc.name,
            "summary": summary_and_description(&rpc.comment).0,
            "description": summary_and_description(&rpc.comment).1,
            "paramStructure": "by-name",
            "params": params,
            "result": {"name": response, "description": result_description, "schema": schema_ref(&response)},
            "errors": errors,
            "x-a2a-request-type": request,
            "x-a2a-streaming": rpc.server_streaming
        });
        if let Some(capability) = rpc.capability {
            method["x-a2a-capability"] = json!(lower_camel(capability));
        }
        methods.push(method);
    }
    let mut errors = Map::new();
    for entry in ERRORS {
        errors.insert(
            entry.name.to_owned(),
            json!({"code": entry.code, "message": entry.message, "data": {"reason": entry.reason, "grpcStatus": entry.grpc_status, "httpStatus": entry.http_status}}),
        );
    }
    Ok(json!({
        "openrpc": "1.3.2",
        "info": {
            "title": "A2A protocol v1, JSON-RPC binding",
            "version": "1.0",
            "description": format!("{} Every method of the A2A v1 service; params are the fields of its request message (by name), the result is its response message in ProtoJSON. A method with `x-a2a-streaming` answers with server-sent events, one JSON-RPC response per event. Any request may also fail with JSONParseError, InvalidRequestError or MethodNotFoundError (components/errors); an error's `data` on the wire is a list of google.protobuf.Any objects whose google.rpc.ErrorInfo has the reason shown in the component's example data.", generated_note("spec/v1/a2a.proto, its JSON Schema bundle and the spec's error model")),
            "license": {"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0"}
        },
        "servers": [{"name": "example", "url": "https://agent.example.com/a2a/jsonrpc", "summary": "An agent serves the binding at the URL of its JSONRPC AgentInterface."}],
        "methods": methods,
        "components": {"schemas": schemas, "errors": errors}
    }))
}

/// OpenRPC params for a params object: one content descriptor per property, required as the schema
/// says. A union of objects (v0.3's `anyOf`) gives every member's properties, required only when all
/// members require them.
fn by_name_params(schema: &Value, what: &str) -> Result<Vec<Value>> {
    let members: Vec<&Value> = match schema.get("anyOf").and_then(Value::as_array) {
        Some(members) => members.iter().collect(),
        None => vec![schema],
    };
    let mut names: Vec<String> = Vec::new();
    let mut params: Map<String, Value> = Map::new();
    let mut required_by_all: Option<BTreeSet<String>> = None;
    for member in members {
        let properties = member
            .get("properties")
            .and_then(Value::as_object)
            .ok_or_else(|| anyhow!("{what}: params are not an object with properties"))?;
        for (name, property) in properties {
            if !params.contains_key(name) {
                names.push(name.clone());
                params.insert(name.clone(), property.clone());
            }
        }
        let required: BTreeSet<String> = member
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        required_by_all = Some(match required_by_all {
            None => required,
            Some(all) => all.intersection(&required).cloned().collect(),
        });
    }
    let required = required_by_all.unwrap_or_default();
    Ok(names
        .iter()
        .map(|name| {
            let mut schema = params[name].clone();
            let description = schema
                .as_object_mut()
                .and_then(|s| s.remove("description"))
                .unwrap_or_else(|| json!(name));
            json!({"name": name, "description": description, "required": required.contains(name), "schema": schema})
        })
        .collect())
}

/// v0.3 methods whose result is not in `<Request name minus "Request">SuccessResponse`.
const V0_3_RESULTS: &[(&str, &str)] =
    &[("tasks/resubscribe", "SendStreamingMessageSuccessResponse")];
/// v0.3 methods that answer with server-sent events.
const V0_3_STREAMING: &[&str] = &["message/stream", "tasks/resubscribe"];

/// The OpenRPC description of v0.3's JSON-RPC binding, from its JSON Schema.
pub(crate) fn openrpc_v0_3(schema: &Value) -> Result<Value> {
    let definitions = schema
        .get("definitions")
        .and_then(Value::as_object)
        .ok_or_else(|| anyhow!("{V0_3_SCHEMA} has no definitions"))?;
    let schemas: Map<String, Value> = definitions
        .iter()
        .map(|(name, schema)| (name.clone(), rebase_refs(schema)))
        .collect();
    let resolve = |schema: &Value| -> Result<Value> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(target) => {
                let name = target
                    .strip_prefix("#/components/schemas/")
                    .ok_or_else(|| anyhow!("unexpected reference {target}"))?;
                schemas
                    .get(name)
                    .cloned()
                    .ok_or_else(|| anyhow!("{name} is not defined"))
            }
            None => Ok(schema.clone()),
        }
    };
    // Every error the schema's error response admits, by code.
    let mut errors = Map::new();
    for (name, definition) in definitions {
        if let Some(code) = definition.pointer("/properties/code/const") {
            let message = definition
                .pointer("/properties/message/default")
                .cloned()
                .unwrap_or_else(|| json!(name));
            errors.insert(name.clone(), json!({"code": code, "message": message}));
        }
    }
    ensure!(!errors.is_empty(), "no error definitions in {V0_3_SCHEMA}");
    let error_refs: Vec<Value> = errors
        .keys()
        .map(|name| json!({ "$ref": format!("#/components/errors/{name}") }))
        .collect();
    let mut methods = Vec::new();
    let mut streaming_seen = BTreeSet::new();
    for (name, definition) in definitions {
        let Some(method) = definition
            .pointer("/properties/method/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let base = name
            .strip_suffix("Request")
            .ok_or_else(|| anyhow!("{name}: a request definition not named ...Request"))?;
        let success = V0_3_RESULTS
            .iter()
            .find(|(m, _)| *m == method)
            .map(|(_, success)| (*success).to_owned())
            .unwrap_or_else(|| format!("{base}SuccessResponse"));
        let result = definitions
            .get(&success)
            .and_then(|d| d.pointer("/properties/result"))
            .ok_or_else(|| {
                anyhow!("{method}: no {success} with a result; add the method to V0_3_RESULTS")
            })?;
        let params = match schemas[name].pointer("/properties/params") {
            Some(params) => {
                let mut object = resolve(params)?;
                if let Some(members) = object
                    .get("anyOf")
                    .cloned()
                    .and_then(|m| m.as_array().cloned())
                {
                    let resolved: Result<Vec<Value>> = members.iter().map(&resolve).collect();
                    object = json!({ "anyOf": resolved? });
                }
                by_name_params(&object, name)?
            }
            None => Vec::new(),
        };
        let streaming = V0_3_STREAMING.contains(&method);
        if streaming {
            streaming_seen.insert(method);
        }
        let mut result = rebase_refs(result);
        let result_description = result
            .as_object_mut()
            .and_then(|r| r.remove("description"))
            .unwrap_or_else(|| json!("The result."));
        methods.push(json!({
            "name": method,
            "summary": definition.get("description").cloned().unwrap_or_else(|| json!(method)),
            "paramStructure": "by-name",
            "params": params,
            "result": {"name": "result", "description": result_description, "schema": result},
            "errors": error_refs,
            "x-a2a-request-type": name,
            "x-a2a-streaming": streaming
        }));
    }
    ensure!(
        streaming_seen.len() == V0_3_STREAMING.len(),
        "V0_3_STREAMING names a method {V0_3_SCHEMA} does not have"
    );
    Ok(json!({
        "openrpc": "1.3.2",
        "info": {
            "title": "A2A protocol v0.3, JSON-RPC binding",
            "version": "0.3",
            "description": format!("{} Every method of A2A v0.3's JSON-RPC binding; params are the fields of its params object (by name), the result is the `result` of its success response. A method with `x-a2a-streaming` answers with server-sent events, one JSON-RPC response per event. v0.3's schema does not say which errors each method returns, so each lists every error its error response admits.", generated_note(V0_3_SCHEMA)),
            "license": {"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0"}
        },
        "servers": [{"name": "example", "url": "https://agent.example.com/a2a/jsonrpc"}],
        "methods": methods,
        "components": {"schemas": schemas, "errors": errors}
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn google_api_templates_become_openapi_paths() {
        let (path, fields) =
            openapi_path("/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}").unwrap();
        assert_eq!(
            path,
            "/{tenant}/tasks/{taskId}/pushNotificationConfigs/{id}"
        );
        assert_eq!(fields, ["tenant", "task_id", "id"]);
        assert_eq!(
            openapi_path("/tasks/{id=*}:cancel").unwrap().0,
            "/tasks/{id}:cancel"
        );
        let error = openapi_path("/files/{name=**}").unwrap_err();
        assert!(error.to_string().contains("single-segment"), "{error}");
    }

    #[test]
    fn every_rpc_has_its_errors() {
        let (_, rpcs) = v1_service().unwrap();
        for rpc in &rpcs {
            assert!(
                spec_errors(&rpc.name).is_some(),
                "RPC {} has no entry in OPERATION_ERRORS (xtask/src/codegen/api_docs.rs): add the errors section 3.1 of the spec lists for it",
                rpc.name
            );
            let errors = operation_errors(rpc).unwrap();
            assert!(
                errors.iter().any(|e| e.name == "InternalError"),
                "{}",
                rpc.name
            );
        }
        let cancel = rpcs.iter().find(|r| r.name == "CancelTask").unwrap();
        let names: Vec<_> = operation_errors(cancel)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(&names[..2], ["TaskNotCancelableError", "TaskNotFoundError"]);
        let subscribe = rpcs.iter().find(|r| r.name == "SubscribeToTask").unwrap();
        let names: Vec<_> = operation_errors(subscribe)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert!(names.contains(&"UnsupportedOperationError"));

        // An RPC the table does not know yet still gets the errors every operation has.
        let mut renamed = v1_service().unwrap().1.remove(2);
        renamed.name = "FetchTask".into();
        let names: Vec<_> = operation_errors(&renamed)
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, EVERY_OPERATION_ERRORS);
    }

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

    #[test]
    fn union_params_require_only_what_every_member_requires() {
        let schema = json!({"anyOf": [
            {"properties": {"id": {"type": "string"}}, "required": ["id"]},
            {"properties": {"id": {"type": "string"}, "configId": {"type": "string"}}, "required": ["id", "configId"]}
        ]});
        let params = by_name_params(&schema, "test").unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(params[0]["required"], true);
        assert_eq!(params[1]["required"], false);
    }
}
