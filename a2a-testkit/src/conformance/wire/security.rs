//! The check of an agent whose card requires credentials (its `securityRequirements` name at least one
//! scheme): a request without them, and one with a bearer token no issuer made, are refused, not
//! served (§3.3.2 Authentication Errors; §7.4: every request is authenticated against the card's
//! schemes). HTTP answers `401` or `403`; JSON-RPC either of those statuses or a JSON-RPC error that is
//! not a protocol error (the specification leaves the code to the agent); gRPC `UNAUTHENTICATED` or
//! `PERMISSION_DENIED`. The request is a ListTasks, which needs no task of the caller's, so nothing but
//! the missing credentials can explain a refusal.

use a2a_client::Binding;
use serde_json::{Value, json};
use tonic::Code;

use super::super::run::CheckResult;
use super::calls::{Op, VERSION, Wire};
use super::grpc::list_refusal;

/// A bearer token no issuer made, sent where a credential is required.
const FORGED_BEARER: &str = "Bearer a2a-conformance-token-no-issuer-made";

/// JSON-RPC's own error codes: a request refused with one of them was not understood, so its refusal
/// says nothing about credentials.
const PROTOCOL_ERRORS: [i64; 3] = [-32700, -32600, -32601];

pub(super) async fn credentials_required(wire: &Wire) -> CheckResult {
    let missing = refusal(&wire.anonymous())
        .await
        .map_err(|e| format!("ListTasks without credentials: {e}"))?;
    let mut forged = wire.anonymous();
    forged
        .headers
        .push(("authorization".to_owned(), FORGED_BEARER.to_owned()));
    let invalid = refusal(&forged)
        .await
        .map_err(|e| format!("ListTasks with a bearer token no issuer made: {e}"))?;
    Ok(format!(
        "refused without credentials ({missing}) and with a forged bearer token ({invalid})"
    ))
}

/// How the agent refused `wire`'s ListTasks, or what it answered instead.
async fn refusal(wire: &Wire) -> Result<String, String> {
    if wire.binding == Binding::Grpc {
        return match list_refusal(wire).await? {
            None => Err("served".to_owned()),
            Some((code @ (Code::Unauthenticated | Code::PermissionDenied), _)) => {
                Ok(format!("gRPC {code:?}"))
            }
            Some((code, message)) => Err(format!(
                "refused with {code:?} ({message:?}), expected UNAUTHENTICATED or PERMISSION_DENIED"
            )),
        };
    }
    let answer = wire
        .request(&Op::List(json!({})), wire.id(), Some(VERSION))
        .await?;
    if matches!(answer.status, 401 | 403) {
        return Ok(format!("HTTP {}", answer.status));
    }
    if wire.binding == Binding::HttpJson {
        return Err(format!("HTTP {}, expected 401 or 403", answer.status));
    }
    let body = answer.json()?;
    match body
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
    {
        Some(code) if !PROTOCOL_ERRORS.contains(&code) => {
            Ok(format!("HTTP {}, JSON-RPC error {code}", answer.status))
        }
        Some(code) => Err(format!(
            "JSON-RPC error {code}, a protocol error rather than a refusal of the credentials"
        )),
        None => Err(format!("served (HTTP {})", answer.status)),
    }
}
