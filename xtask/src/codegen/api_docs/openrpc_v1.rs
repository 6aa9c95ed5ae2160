//! `spec/v1/generated/openrpc.json`: the OpenRPC 1.3 description of v1's JSON-RPC binding, a method
//! per RPC with its by-name params, result and errors.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow};
use serde_json::{Map, Value, json};

use super::errors::{ERRORS, operation_errors};
use super::schemas::{
    generated_note, message_component, schema_ref, summary_and_description, v1_components,
};
use crate::codegen::naming::lower_camel;
use crate::codegen::operations::Rpc;

/// The OpenRPC description of the JSON-RPC binding of v1.
pub(super) fn openrpc_v1(rpcs: &[Rpc], bundle: &Value) -> Result<Value> {
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
pub(super) fn by_name_params(schema: &Value, what: &str) -> Result<Vec<Value>> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
