//! Errors as the JSON bindings carry them: the JSON-RPC error object (§9.5) and the HTTP+JSON
//! `google.rpc.Status` body (§11.6), each with its code from §5.4's table and the
//! `google.rpc.ErrorInfo` of its reason; and the refusal of an unsupported `A2A-Version` (§3.6.2) on
//! every binding.

use a2a_client::Binding;
use serde_json::{Value, json};

use super::super::helpers::{message_id, truncate};
use super::super::run::CheckResult;
use super::calls::{Answer, Op, VERSION, Wire, jsonrpc_envelope, send_for_task};

/// The `@type` of `google.rpc.ErrorInfo` in ProtoJSON.
pub(crate) const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The domain of A2A's error reasons.
pub(crate) const DOMAIN: &str = "a2a-protocol.org";

/// One A2A error as §5.4 maps it to each binding.
pub(crate) struct Mapping {
    pub(crate) reason: &'static str,
    pub(crate) jsonrpc_code: i64,
    pub(crate) http_status: u16,
    pub(crate) grpc_status: &'static str,
}

pub(crate) const TASK_NOT_FOUND: Mapping = Mapping {
    reason: "TASK_NOT_FOUND",
    jsonrpc_code: -32001,
    http_status: 404,
    grpc_status: "NOT_FOUND",
};
pub(crate) const TASK_NOT_CANCELABLE: Mapping = Mapping {
    reason: "TASK_NOT_CANCELABLE",
    jsonrpc_code: -32002,
    http_status: 400,
    grpc_status: "FAILED_PRECONDITION",
};
pub(crate) const VERSION_NOT_SUPPORTED: Mapping = Mapping {
    reason: "VERSION_NOT_SUPPORTED",
    jsonrpc_code: -32009,
    http_status: 400,
    grpc_status: "FAILED_PRECONDITION",
};

pub(crate) const EXTENSION_SUPPORT_REQUIRED: Mapping = Mapping {
    reason: "EXTENSION_SUPPORT_REQUIRED",
    jsonrpc_code: -32008,
    http_status: 400,
    grpc_status: "FAILED_PRECONDITION",
};

/// Checks a ProtoJSON details array (JSON-RPC `data`, HTTP+JSON `details`): every entry an object
/// with a `@type` (§3.3.2), one of them the `ErrorInfo` of `reason` in A2A's domain.
fn error_info(details: Option<&Value>, member: &str, reason: &str) -> Result<(), String> {
    let Some(Value::Array(entries)) = details else {
        return Err(format!(
            "{member} is {details:?}, expected an array holding an ErrorInfo"
        ));
    };
    if let Some(untyped) = entries
        .iter()
        .find(|e| !e.get("@type").is_some_and(Value::is_string))
    {
        return Err(format!("a {member} entry without \"@type\": {untyped}"));
    }
    let info = entries
        .iter()
        .find(|e| e["@type"] == ERROR_INFO_TYPE)
        .ok_or_else(|| {
            format!(
                "no {ERROR_INFO_TYPE} in {member}: {}",
                Value::Array(entries.clone())
            )
        })?;
    if info["reason"] != reason || info["domain"] != DOMAIN {
        return Err(format!(
            "ErrorInfo reason {} domain {}, expected {reason} in {DOMAIN}",
            info["reason"], info["domain"]
        ));
    }
    Ok(())
}

/// Checks a JSON-RPC error answer to request `id` against `expected`.
pub(super) fn jsonrpc_error(answer: &Answer, id: u64, expected: &Mapping) -> Result<(), String> {
    if !answer.is_json() {
        return Err(format!(
            "Content-Type {:?}, expected application/json",
            answer.content_type
        ));
    }
    let body = answer.json()?;
    let envelope = jsonrpc_envelope(&body, id)?;
    let error = envelope.get("error").ok_or_else(|| {
        format!(
            "a result, expected error {}: {}",
            expected.jsonrpc_code,
            truncate(&body.to_string(), 200)
        )
    })?;
    if error["code"] != expected.jsonrpc_code {
        return Err(format!(
            "error code {}, expected {} ({})",
            error["code"], expected.jsonrpc_code, expected.reason
        ));
    }
    if error["message"].as_str().is_none_or(str::is_empty) {
        return Err(format!(
            "error message {}, expected a string",
            error["message"]
        ));
    }
    error_info(error.get("data"), "error.data", expected.reason)
}

/// Checks an HTTP+JSON error answer against `expected`.
pub(super) fn rest_error(answer: &Answer, expected: &Mapping) -> Result<(), String> {
    if answer.status != expected.http_status {
        return Err(format!(
            "HTTP {}, expected {} for {}: {}",
            answer.status,
            expected.http_status,
            expected.reason,
            truncate(&String::from_utf8_lossy(&answer.body), 200)
        ));
    }
    if !answer.is_json() {
        return Err(format!(
            "Content-Type {:?}, expected application/json",
            answer.content_type
        ));
    }
    let body = answer.json()?;
    let error = body.get("error").filter(|e| e.is_object()).ok_or_else(|| {
        format!(
            "no \"error\" object in {}",
            truncate(&body.to_string(), 200)
        )
    })?;
    if error["code"] != expected.http_status || error["status"] != expected.grpc_status {
        return Err(format!(
            "error.code {} status {}, expected {} {}",
            error["code"], error["status"], expected.http_status, expected.grpc_status
        ));
    }
    if !error["message"].is_string() {
        return Err(format!(
            "error.message {}, expected a string",
            error["message"]
        ));
    }
    error_info(error.get("details"), "error.details", expected.reason)
}

/// A task that completed (so cannot be canceled).
async fn completed_task_id(wire: &Wire) -> Result<String, String> {
    let task = send_for_task(wire, "tck-complete-task", None).await?;
    Ok(task["id"].as_str().unwrap_or_default().to_owned())
}

pub(super) async fn jsonrpc_details(wire: &Wire) -> CheckResult {
    let unknown = message_id("no-such-task");
    let id = wire.id();
    let answer = wire.request(&Op::Get(&unknown), id, Some(VERSION)).await?;
    jsonrpc_error(&answer, id, &TASK_NOT_FOUND)
        .map_err(|e| format!("GetTask of an unknown id: {e}"))?;
    let done = completed_task_id(wire).await?;
    let id = wire.id();
    let answer = wire.request(&Op::Cancel(&done), id, Some(VERSION)).await?;
    jsonrpc_error(&answer, id, &TASK_NOT_CANCELABLE)
        .map_err(|e| format!("CancelTask of a completed task: {e}"))?;
    Ok("-32001 and -32002, each with its ErrorInfo in data".into())
}

pub(super) async fn rest_details(wire: &Wire) -> CheckResult {
    let unknown = message_id("no-such-task");
    let answer = wire.request(&Op::Get(&unknown), 0, Some(VERSION)).await?;
    rest_error(&answer, &TASK_NOT_FOUND).map_err(|e| format!("GET /tasks/{unknown}: {e}"))?;
    let done = completed_task_id(wire).await?;
    let answer = wire.request(&Op::Cancel(&done), 0, Some(VERSION)).await?;
    rest_error(&answer, &TASK_NOT_CANCELABLE)
        .map_err(|e| format!("POST /tasks/{done}:cancel: {e}"))?;
    Ok("404 NOT_FOUND and 400 FAILED_PRECONDITION, each with its ErrorInfo in details".into())
}

/// JSON-RPC's own errors (§9.5): each malformed request gets its standard code.
pub(super) async fn jsonrpc_protocol(wire: &Wire) -> CheckResult {
    let cases: [(&str, Vec<u8>, i64); 4] = [
        (
            "invalid JSON",
            br#"{"jsonrpc": "2.0", "id": 1, "method": "#.to_vec(),
            -32700,
        ),
        (
            "no \"jsonrpc\" member",
            json!({"id": 1, "method": "GetTask", "params": {"id": "x"}})
                .to_string()
                .into_bytes(),
            -32600,
        ),
        (
            "an unknown method",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/teleport", "params": {}})
                .to_string()
                .into_bytes(),
            -32601,
        ),
        (
            "a task id that is a number",
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": 7}})
                .to_string()
                .into_bytes(),
            -32602,
        ),
    ];
    for (what, body, code) in cases {
        let answer = wire
            .http(reqwest::Method::POST, "", Some(body), Some(VERSION))
            .await?;
        let value = answer.json().map_err(|e| format!("{what}: {e}"))?;
        if value["jsonrpc"] != "2.0"
            || value["error"]["code"] != code
            || !value["error"]["message"].is_string()
        {
            return Err(format!(
                "{what}: expected error {code}, got {}",
                truncate(&value.to_string(), 200)
            ));
        }
    }
    Ok("-32700, -32600, -32601 and -32602 as JSON-RPC 2.0 asks".into())
}

/// `A2A-Version: 9.9` is refused with `VersionNotSupportedError` (a GetTask of an unknown id: an
/// agent that ignored the header would answer TaskNotFound instead), on JSON-RPC or HTTP+JSON.
pub(super) async fn version_refused(wire: &Wire) -> CheckResult {
    let unknown = message_id("no-such-task");
    match wire.binding {
        Binding::JsonRpc => {
            let id = wire.id();
            let answer = wire.request(&Op::Get(&unknown), id, Some("9.9")).await?;
            jsonrpc_error(&answer, id, &VERSION_NOT_SUPPORTED)?;
        }
        Binding::HttpJson => {
            let answer = wire.request(&Op::Get(&unknown), 0, Some("9.9")).await?;
            rest_error(&answer, &VERSION_NOT_SUPPORTED)?;
        }
        Binding::Grpc => return Err("not a JSON binding".into()),
    }
    Ok("A2A-Version: 9.9 refused with VersionNotSupportedError".into())
}
