//! `spec/v1/generated/openapi.json`: the OpenAPI 3.1 description of v1's HTTP+JSON binding, a path
//! per `google.api.http` binding, with its parameters, bodies, responses and error responses.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow, bail, ensure};
use serde_json::{Map, Value, json};

use super::errors::{ERRORS, ErrorEntry, operation_errors};
use super::schemas::{
    generated_note, message_component, schema_ref, summary_and_description, text, v1_components,
};
use crate::codegen::naming::lower_camel;
use crate::codegen::operations::{HttpBinding, Rpc};

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
pub(super) fn openapi_v1(rpcs: &[Rpc], bundle: &Value) -> Result<Value> {
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
            // `a2a_protocol::rest` and the official SDK's server do (its client subscribes with POST).
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
}
