//! A2A v0.3 JSON-RPC clients on the v1 endpoint (feature `v0_3`): a request whose method is a v0.3
//! name (`message/send`, ...) is upgraded through `a2a_compat::bridge`, answered by the same server,
//! and its result or error downgraded back. Every call into the bridge is in this module.

use std::sync::Arc;

use a2a_compat::bridge;
use a2a_compat::v0_3;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service::{A2A_VERSION_HEADER, ProtocolVersion};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::{Value, json};
use tokio_stream::StreamExt;

use crate::auth::Presented;
use crate::bindings::http_common::{
    call_context, event_stream, header, jsonrpc_reply as reply, refused_jsonrpc, sse_event,
};
use crate::core::call::check_request;
use crate::core::context::{CallContext, Reply};
use crate::core::state::ServerState;

/// Whether a parsed JSON-RPC envelope names a v0.3 method.
pub(super) fn is_v0_3_method(json: &Value) -> bool {
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    matches!(
        Operation::from_any_jsonrpc_method(method),
        Some((_, ProtocolVersion::V0_3))
    )
}

/// A v0.3 error response: the v1 error's code as v0.3 has it, its message and data.
pub(super) fn v0_3_error(id: &Value, error: &Error) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": v0_3::JsonRpcError::from(error)})
}

/// Answers one v0.3 request (`body` is the request's bytes, already within the decode budget).
pub(super) async fn v0_3_rpc(
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
    body: &[u8],
) -> Response {
    let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let raw_id = json.get("id").cloned().unwrap_or(Value::Null);
    let fail = |error: Error| reply(v0_3_error(&raw_id, &error));
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if let Err(error) = bridge::request_version(method, header(headers, A2A_VERSION_HEADER)) {
        return fail(error.to_v1_error());
    }
    // Typed straight from the bytes, with the path of a bad member.
    let request: v0_3::A2aRequest = match a2a_types::json::from_slice(body) {
        Ok(request) => request,
        Err(e) => return fail(Error::with_message(ErrorKind::InvalidParams, e.to_string())),
    };
    let (id, params) = match bridge::upgrade_request(request) {
        Ok(upgraded) => upgraded,
        Err(error) => return fail(error.to_v1_error()),
    };
    let context = match call_context(state, headers, query, presented, "JSONRPC v0.3").await {
        Ok(context) => context,
        Err(refusal) => return refused_jsonrpc(state, headers, &raw_id, refusal),
    };
    let call = Upgraded { raw_id, id, params };
    answer(state, headers, call, context, |json| json).await
}

/// A v0.3 request upgraded to v1: the request's own id as it came, the id the downgraded answer
/// carries, and the v1 params.
pub(super) struct Upgraded {
    pub(super) raw_id: Value,
    pub(super) id: v0_3::JsonRpcId,
    pub(super) params: MethodParams,
}

/// Answers a v0.3 request upgraded to v1 for the caller of `context`: called, and each
/// result (or stream event) downgraded to v0.3 JSON, then passed through `older` (as it is for a
/// v0.3 client; down to v0.1 for a v0.1 client, see [`super::older`]). Errors are written in
/// v0.3's form, which every older version shares (`code`, `message`, `data`).
pub(super) async fn answer<F>(
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    call: Upgraded,
    context: CallContext,
    older: F,
) -> Response
where
    F: Fn(Value) -> Value + Send + Sync + 'static,
{
    let Upgraded { raw_id, id, params } = call;
    let raw_id = &raw_id;
    let fail = |error: Error| reply(v0_3_error(raw_id, &error));
    if let Err(refusal) = check_request(state, &params, &context.caller) {
        return refused_jsonrpc(state, headers, raw_id, refusal);
    }
    let streaming = matches!(
        params.operation(),
        Operation::SendStreamingMessage | Operation::SubscribeToTask
    );
    let downgrade = move |result: MethodResult| {
        let json = match bridge::downgrade_response(Some(id.clone()), result) {
            Ok(response) => serde_json::to_value(response).unwrap_or(Value::Null),
            Err(error) => v0_3_error(&Value::Null, &error.to_v1_error()),
        };
        older(json)
    };
    match crate::core::call::call(state, params, &context).await {
        Ok(Reply::Unary(result)) => reply(downgrade(result)),
        Ok(Reply::Stream(events)) => event_stream(events.map(move |item| {
            let json = downgrade(MethodResult::SendStreamingMessage(item.event));
            sse_event(json.to_string(), item.id)
        })),
        // A v0.3 client of a streaming method reads only an event stream (the SDK 0.3's client fails
        // on any other content type), and the SDK 0.3's server sends the error as the stream's one
        // event: so does this.
        Err(error) if streaming => {
            let event = sse_event(v0_3_error(raw_id, &error).to_string(), None);
            event_stream(tokio_stream::once(event))
        }
        Err(error) => fail(error),
    }
}
