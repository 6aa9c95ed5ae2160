//! `spec/v0_3/generated/openrpc.json`: the OpenRPC 1.3 description of v0.3's JSON-RPC binding, read
//! from its JSON Schema (`spec/v0_3/a2a.json`), which has no service definition to start from.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow, ensure};
use serde_json::{Map, Value, json};

use super::openrpc_v1::by_name_params;
use super::schemas::{V0_3_SCHEMA, generated_note, rebase_refs};

/// v0.3 methods whose result is not in `<Request name minus "Request">SuccessResponse`.
const V0_3_RESULTS: &[(&str, &str)] =
    &[("tasks/resubscribe", "SendStreamingMessageSuccessResponse")];
/// v0.3 methods that answer with server-sent events.
const V0_3_STREAMING: &[&str] = &["message/stream", "tasks/resubscribe"];

/// The OpenRPC description of v0.3's JSON-RPC binding, from its JSON Schema.
pub(super) fn openrpc_v0_3(schema: &Value) -> Result<Value> {
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
