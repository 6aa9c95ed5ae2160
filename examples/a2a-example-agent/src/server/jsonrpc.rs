//! The JSON-RPC binding at [`JSONRPC_PATH`](super::card::JSONRPC_PATH): A2A v1 requests (with
//! `A2A-Version: 1.x`) through `a2a_types::jsonrpc`, and A2A v0.3 requests (v0.3 method names, no
//! header) upgraded through the bridge, answered by the same agent, and downgraded back. Streaming
//! methods answer with server-sent events, one JSON-RPC response per event.

use std::convert::Infallible;
use std::sync::Arc;

use a2a_types::bridge;
use a2a_types::errors::{Error, ErrorKind};
use a2a_types::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse, MethodResult};
use a2a_types::operations::Operation;
use a2a_types::service::{
    A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, Extensions, MEDIA_TYPE_EVENT_STREAM,
    MEDIA_TYPE_JSON, ProtocolVersion,
};
use a2a_types::{sse, v0_3};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::Agent;
use super::card::JSONRPC_PATH;
use super::service::{CallContext, Reply};

pub(super) fn routes() -> Router<Arc<Agent>> {
    Router::new().route(JSONRPC_PATH, post(rpc))
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// What the headers say about the caller: extensions (`A2A-Extensions`, and v0.3's
/// `X-A2A-Extensions`) and authorization.
pub(super) fn call_context(headers: &HeaderMap) -> CallContext {
    let extensions = [A2A_EXTENSIONS_HEADER, bridge::LEGACY_A2A_EXTENSIONS_HEADER]
        .iter()
        .flat_map(|name| headers.get_all(*name).iter())
        .filter_map(|v| v.to_str().ok());
    CallContext {
        extensions: Extensions::parse_all(extensions),
        authorization: header(headers, AUTHORIZATION.as_str()).map(str::to_owned),
    }
}

/// The answer to a caller without the extended card's token.
pub(super) fn unauthenticated() -> Response {
    let body = json!({"error": "GetExtendedAgentCard needs Authorization: Bearer <token>"});
    (
        StatusCode::UNAUTHORIZED,
        [
            (WWW_AUTHENTICATE, "Bearer"),
            (CONTENT_TYPE, MEDIA_TYPE_JSON),
        ],
        body.to_string(),
    )
        .into_response()
}

fn json_response(body: Value) -> Response {
    ([(CONTENT_TYPE, MEDIA_TYPE_JSON)], body.to_string()).into_response()
}

fn event_stream(events: impl tokio_stream::Stream<Item = Value> + Send + 'static) -> Response {
    let body = events.map(|event| {
        Ok::<_, Infallible>(sse::encode_json(&event).unwrap_or_else(|e| {
            sse::encode_json(&json!({"error": e.to_string()})).unwrap_or_default()
        }))
    });
    (
        [(CONTENT_TYPE, MEDIA_TYPE_EVENT_STREAM)],
        Body::from_stream(body),
    )
        .into_response()
}

/// A body over the agent's decode budget, as the official Python SDK answers one over its size
/// limit: JSON-RPC `-32600` Invalid Request (HTTP 200), "payload too large", with no id (none was
/// read).
fn too_large(problem: String) -> Response {
    let error = Error::with_message(ErrorKind::InvalidRequest, problem);
    json_response(JsonRpcResponse::<Value>::error(None, error).to_json())
}

async fn rpc(
    State(agent): State<Arc<Agent>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let limits = agent.limits();
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return too_large(format!(
                "payload too large: the body is over the {} bytes allowed (the max_bytes limit)",
                limits.max_bytes()
            ));
        }
        Err(rejection) => return rejection.into_response(),
    };
    if let Err(error) = limits.check_json(&body) {
        return json_response(JsonRpcResponse::<Value>::error(None, error.into()).to_json());
    }
    let json: Value = match serde_json::from_slice(&body) {
        Ok(json) => json,
        Err(e) => {
            let error = Error::with_message(ErrorKind::JsonParse, e.to_string());
            return json_response(JsonRpcResponse::<Value>::error(None, error).to_json());
        }
    };
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if matches!(
        Operation::from_any_jsonrpc_method(method),
        Some((_, ProtocolVersion::V0_3))
    ) {
        return v0_3_rpc(agent, &headers, json, &body).await;
    }
    v1_rpc(agent, &headers, &json).await
}

async fn v1_rpc(agent: Arc<Agent>, headers: &HeaderMap, json: &Value) -> Response {
    let request = match JsonRpcRequest::parse(json) {
        Ok(request) => request,
        Err(e) => {
            return json_response(
                JsonRpcResponse::<Value>::error(e.id.clone(), e.to_error()).to_json(),
            );
        }
    };
    let id = request.id.clone();
    let fail =
        |error: Error| json_response(JsonRpcResponse::<Value>::error(id.clone(), error).to_json());
    let asked = ProtocolVersion::from_header(header(headers, A2A_VERSION_HEADER));
    if !asked.is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0)) {
        return fail(Error::with_message(
            ErrorKind::VersionNotSupported,
            format!(
                "{} is an A2A 1.0 method; this endpoint serves 1.0 with {A2A_VERSION_HEADER}: 1.0 and 0.3 without (got {:?})",
                request.method,
                header(headers, A2A_VERSION_HEADER).unwrap_or("no header")
            ),
        ));
    }
    let context = call_context(headers);
    let operation = request.params.operation();
    if operation == Operation::GetExtendedAgentCard
        && !agent.authorized(context.authorization.as_deref())
    {
        return unauthenticated();
    }
    let result_id = id.clone().unwrap_or(Id::Null);
    match agent.call(request.params, &context).await {
        Ok(Reply::Unary(result)) => {
            json_response(JsonRpcResponse::result(result_id, result).to_json())
        }
        Ok(Reply::Stream(events)) => {
            event_stream(UnboundedReceiverStream::new(events).map(move |event| {
                let result = if operation == Operation::SubscribeToTask {
                    MethodResult::SubscribeToTask(event)
                } else {
                    MethodResult::SendStreamingMessage(event)
                };
                JsonRpcResponse::result(result_id.clone(), result).to_json()
            }))
        }
        Err(error) => fail(error),
    }
}

/// A v0.3 error response: the v1 error's code as v0.3 has it, its message and data.
fn v0_3_error(id: &Value, error: &Error) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": v0_3::JsonRpcError::from(error)})
}

async fn v0_3_rpc(agent: Arc<Agent>, headers: &HeaderMap, json: Value, body: &[u8]) -> Response {
    let raw_id = json.get("id").cloned().unwrap_or(Value::Null);
    let fail = |error: Error| json_response(v0_3_error(&raw_id, &error));
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if let Err(error) = bridge::request_version(method, header(headers, A2A_VERSION_HEADER)) {
        return fail(error.to_v1_error());
    }
    // Typed straight from the bytes (no second copy of the tree), with the path of a bad member.
    let request: v0_3::A2aRequest = match a2a_types::json::from_slice(body) {
        Ok(request) => request,
        Err(e) => return fail(Error::with_message(ErrorKind::InvalidParams, e.to_string())),
    };
    let (id, params) = match bridge::upgrade_request(request) {
        Ok(upgraded) => upgraded,
        Err(error) => return fail(error.to_v1_error()),
    };
    let context = call_context(headers);
    let operation = params.operation();
    if operation == Operation::GetExtendedAgentCard
        && !agent.authorized(context.authorization.as_deref())
    {
        return unauthenticated();
    }
    let downgrade =
        move |result: MethodResult| match bridge::downgrade_response(Some(id.clone()), result) {
            Ok(response) => serde_json::to_value(response).unwrap_or(Value::Null),
            Err(error) => v0_3_error(&Value::Null, &error.to_v1_error()),
        };
    match agent.call(params, &context).await {
        Ok(Reply::Unary(result)) => json_response(downgrade(result)),
        Ok(Reply::Stream(events)) => event_stream(
            UnboundedReceiverStream::new(events)
                .map(move |event| downgrade(MethodResult::SendStreamingMessage(event))),
        ),
        Err(error) => fail(error),
    }
}
