//! The JSON-RPC binding: A2A v1 requests (with `A2A-Version: 1.x`) through
//! `a2a_protocol::jsonrpc`; with feature `v0_3`, A2A v0.3 requests (v0.3 method names, no header)
//! through the bridge ([`v0_3`]); with features `v0_2` and `v0_1`, A2A v0.2 and v0.1 requests, told
//! by method and, for the names every version shares, by the version that created the task
//! ([`older`] has the rule). Streaming methods answer with server-sent events, one JSON-RPC response
//! per event.

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::jsonrpc::{JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::operations::MethodResult;
use a2a_protocol::operations::Operation;
use a2a_protocol::service::{A2A_VERSION_HEADER, MEDIA_TYPE_JSON};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Extension, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::Value;
use tokio_stream::StreamExt;

use crate::auth::{Authenticated, PeerCertificate, Presented};
use crate::bindings::body;
use crate::bindings::http_common::{
    asks_for_v1, call_context, event_stream, header, json_response, jsonrpc_reply as reply,
    refused_jsonrpc, sse_event,
};
use crate::core::call::{call, check_request};
use crate::core::context::Reply;
use crate::core::state::ServerState;

#[cfg(feature = "v0_1")]
mod older;
#[cfg(feature = "v0_2")]
mod older_card;
#[cfg(feature = "v0_3")]
mod v0_3;

/// JSON-RPC at `path` and `path/`, reading bodies under the decode budget; with feature `v0_2` and
/// an extended card, v0.2's GET of it beside `path` ([`older_card`]).
pub(crate) fn router(state: &Arc<ServerState>, path: &str) -> Router {
    let path = path.trim_end_matches('/');
    let routes = if path.is_empty() {
        Router::new().route("/", post(rpc))
    } else {
        // Clients differ on the trailing slash of the interface URL; both reach the endpoint.
        Router::new()
            .route(path, post(rpc))
            .route(&format!("{path}/"), post(rpc))
    };
    #[cfg(feature = "v0_2")]
    let routes = if state.extended_card.is_some() {
        routes.route(
            &older_card::extended_card_path(path),
            axum::routing::get(older_card::extended_card),
        )
    } else {
        routes
    };
    routes
        .layer(DefaultBodyLimit::max(state.config.limits.max_bytes()))
        .with_state(state.clone())
}

/// A body over the decode budget, as the official Python SDK answers one over its size limit:
/// `-32600` Invalid Request, "payload too large", with no id (none was read).
pub(crate) fn too_large(problem: String) -> Response {
    let error = Error::with_message(ErrorKind::InvalidRequest, problem);
    reply(JsonRpcResponse::<Value>::error(None, error).to_json())
}

/// `application/json`, `application/a2a+json` or any other `+json` type (parameters ignored).
fn is_json_media_type(value: &str) -> bool {
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == MEDIA_TYPE_JSON
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

async fn rpc(
    State(state): State<Arc<ServerState>>,
    uri: Uri,
    headers: HeaderMap,
    certificate: Option<Extension<PeerCertificate>>,
    authenticated: Option<Extension<Authenticated>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let presented = &Presented::new(certificate, authenticated);
    // JSON-RPC requests are JSON (section 9.1): another declared media type is refused at the HTTP
    // level, before the body is read as JSON.
    if let Some(media_type) = header(&headers, CONTENT_TYPE.as_str())
        && !is_json_media_type(media_type)
    {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("a JSON-RPC request is {MEDIA_TYPE_JSON}, not {media_type}"),
        )
            .into_response();
    }
    let limits = state.config.limits;
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
        return reply(JsonRpcResponse::<Value>::error(None, error.into()).to_json());
    }
    // The fast path: a well-formed v1 request, read without a `Value` tree. Anything else (a v0.3
    // method, an error to name) is read through a `Value` below, as `read_direct` promises to read
    // nothing that path would read differently.
    if let Some(request) = JsonRpcRequest::read_direct(&body) {
        return v1_call(&state, &headers, uri.query(), presented, request).await;
    }
    let json: Value = match serde_json::from_slice(&body) {
        Ok(json) => json,
        Err(e) => {
            let error = Error::bare(ErrorKind::JsonParse, e.to_string());
            return reply(JsonRpcResponse::<Value>::error(None, error).to_json());
        }
    };
    #[cfg(feature = "v0_1")]
    if older::is_older_request(&json, &headers) {
        return older::older_rpc(&state, &headers, uri.query(), presented, json).await;
    }
    #[cfg(feature = "v0_3")]
    if v0_3::is_v0_3_method(&json) {
        return v0_3::v0_3_rpc(&state, &headers, uri.query(), presented, &body).await;
    }
    v1_rpc(&state, &headers, uri.query(), presented, &json).await
}

async fn v1_rpc(
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
    json: &Value,
) -> Response {
    match JsonRpcRequest::parse(json) {
        Ok(request) => v1_call(state, headers, query, presented, request).await,
        Err(e) => {
            let error = e.to_error();
            // A well-formed notification to a method not served, or with params that do not
            // read, gets no reply either (JSON-RPC 2.0 §4.1); a malformed request is answered.
            if is_notification(json)
                && matches!(
                    error.kind,
                    ErrorKind::MethodNotFound | ErrorKind::InvalidParams
                )
            {
                return no_reply();
            }
            reply(JsonRpcResponse::<Value>::error(e.id.clone(), error).to_json())
        }
    }
}

/// A JSON-RPC 2.0 request object without an `id` member: a notification.
fn is_notification(json: &Value) -> bool {
    json.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && json.get("method").is_some_and(Value::is_string)
        && json.get("id").is_none()
}

/// The HTTP answer to a notification: no JSON-RPC reply at all.
fn no_reply() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

async fn v1_call(
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
    request: JsonRpcRequest,
) -> Response {
    let id = request.id.clone();
    let fail = |error: Error| reply(JsonRpcResponse::<Value>::error(id.clone(), error).to_json());
    if !asks_for_v1(headers) {
        return fail(Error::with_message(
            ErrorKind::VersionNotSupported,
            format!(
                "{} is an A2A 1.0 method; send {A2A_VERSION_HEADER}: 1.0 (got {:?})",
                request.method,
                header(headers, A2A_VERSION_HEADER).unwrap_or("no header")
            ),
        ));
    }
    let raw_id = serde_json::to_value(&id).unwrap_or(Value::Null);
    let context = match call_context(state, headers, query, presented, "JSONRPC").await {
        Ok(context) => context,
        Err(refusal) => return refused_jsonrpc(state, headers, &raw_id, refusal),
    };
    let operation = request.params.operation();
    if let Err(refusal) = check_request(state, &request.params, &context.caller) {
        return refused_jsonrpc(state, headers, &raw_id, refusal);
    }
    let Some(result_id) = id.clone() else {
        // A notification (no `id` member): JSON-RPC 2.0 §4.1 says the server MUST NOT reply to
        // it. It is executed like the request it would be (a stream it asks for is opened and let
        // go; the task goes on), and the HTTP answer is an empty 204, whatever the outcome.
        if let Err(error) = call(state, request.params, &context).await {
            tracing::debug!(%error, "a JSON-RPC notification failed; no reply is sent");
        }
        return no_reply();
    };
    match call(state, request.params, &context).await {
        Ok(Reply::Unary(result)) => {
            json_response(StatusCode::OK, body::jsonrpc_result(&result_id, &result))
        }
        Ok(Reply::Stream(events)) => event_stream(events.map(move |item| {
            let result = if operation == Operation::SubscribeToTask {
                MethodResult::SubscribeToTask(item.event)
            } else {
                MethodResult::SendStreamingMessage(item.event)
            };
            sse_event(body::jsonrpc_result(&result_id, &result), item.id)
        })),
        Err(error) => fail(error),
    }
}
