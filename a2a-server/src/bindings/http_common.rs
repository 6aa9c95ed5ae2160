//! What the HTTP bindings (JSON-RPC, HTTP+JSON) share: reading a request's headers into a
//! [`CallContext`], and writing JSON answers, the 401 and 403 answers and server-sent event streams.

use std::convert::Infallible;

use a2a_protocol::errors::{ERROR_DOMAIN, ERROR_INFO_TYPE};
use a2a_protocol::service::{
    A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, Extensions, MEDIA_TYPE_EVENT_STREAM,
    MEDIA_TYPE_JSON, ProtocolVersion,
};
use axum::body::Body;
use axum::http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio_stream::{Stream, StreamExt};

use crate::auth::{AccessDenied, Presented, Unauthenticated};
use crate::core::call::authenticate;
use crate::core::context::CallContext;
use crate::core::state::ServerState;
use crate::executor::ServiceParams;

/// One header's value as text.
pub(crate) fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The version a request asked for (`None` when the header is absent or unreadable).
pub(crate) fn version_of(headers: &HeaderMap) -> Option<ProtocolVersion> {
    header(headers, A2A_VERSION_HEADER).and_then(|v| ProtocolVersion::from_header(Some(v)).ok())
}

/// Whether the request asks for A2A 1.x (the header is required for v1, section 3.2.6).
pub(crate) fn asks_for_v1(headers: &HeaderMap) -> bool {
    ProtocolVersion::from_header(header(headers, A2A_VERSION_HEADER))
        .is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0))
}

/// The call context of an HTTP request: its caller (from its headers, `query` and the client's
/// verified TLS certificate, or what the limits layer found: `presented`), its service
/// parameters (`A2A-Extensions`, and v0.3's `X-A2A-Extensions`), `Last-Event-ID` and `traceparent`;
/// the refusal of the authentication hook, for the binding to answer in its own form.
pub(crate) async fn call_context(
    state: &ServerState,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
    binding: &'static str,
) -> Result<CallContext, Unauthenticated> {
    let caller = authenticate(state, headers, query, presented).await?;
    let extensions = [A2A_EXTENSIONS_HEADER, "X-A2A-Extensions"]
        .iter()
        .flat_map(|name| headers.get_all(*name).iter())
        .filter_map(|v| v.to_str().ok());
    let mut context = CallContext::new(caller, binding);
    context.service_params =
        ServiceParams::new(version_of(headers), Extensions::parse_all(extensions));
    context.last_event_id = header(headers, "Last-Event-ID").and_then(|v| v.trim().parse().ok());
    context.traceparent = header(headers, "traceparent").map(str::to_owned);
    Ok(context)
}

/// The JSON-RPC code of an authentication error. The spec leaves it to the implementation (section
/// 3.3.2: "JSON-RPC custom error"), and neither the Python nor the JavaScript SDK defines one; the
/// official Go SDK (`a2a.ErrUnauthenticated`) answers -31401 with the `ErrorInfo` reason
/// `UNAUTHENTICATED`, so a client of either reads it the same way.
pub(crate) const JSONRPC_UNAUTHENTICATED: i64 = -31401;

/// The JSON-RPC code of an authorization error (a caller without the scopes), by the same rule:
/// the Go SDK's `a2a.ErrUnauthorized`, -31403, reason `PERMISSION_DENIED`.
pub(crate) const JSONRPC_PERMISSION_DENIED: i64 = -31403;

/// How a refusal reads on HTTP: the status, the gRPC status name and JSON-RPC code for the body,
/// and the `WWW-Authenticate` challenge (RFC 9110 section 11.6.1; RFC 6750 section 3.1 for a
/// bearer token without the scope). A 401 always has one (RFC 9110 section 15.5.2 requires it); a
/// 403 has one only when what is missing is a bearer token's: `WWW-Authenticate` names HTTP
/// authentication schemes, and API keys and client certificates are none, so a `Bearer` challenge
/// would send a client of those after a token the agent does not want (RFC 9110 section 15.5.4
/// does not ask a 403 for a challenge).
fn refusal_parts(
    state: &ServerState,
    headers: &HeaderMap,
    refusal: &AccessDenied,
) -> (StatusCode, &'static str, i64, Option<String>) {
    match refusal {
        AccessDenied::Unauthenticated(_) => {
            let mut challenge = state.authenticator.challenge();
            // A token was sent and refused: RFC 6750's `invalid_token`, so a client knows to get a
            // new one rather than to add one.
            if headers.contains_key(axum::http::header::AUTHORIZATION)
                && challenge.starts_with("Bearer")
            {
                let rest = challenge.trim_start_matches("Bearer").trim_start();
                challenge = if rest.is_empty() {
                    "Bearer error=\"invalid_token\"".to_owned()
                } else {
                    format!("Bearer error=\"invalid_token\", {rest}")
                };
            }
            (
                StatusCode::UNAUTHORIZED,
                "UNAUTHENTICATED",
                JSONRPC_UNAUTHENTICATED,
                Some(challenge),
            )
        }
        AccessDenied::Forbidden(forbidden) => (
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            JSONRPC_PERMISSION_DENIED,
            forbidden.bearer.then(|| {
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\"",
                    forbidden.scopes.join(" ")
                )
            }),
        ),
    }
}

/// HTTP 401 (or 403) with `WWW-Authenticate`, the reason in an HTTP+JSON error body.
pub(crate) fn refused(
    state: &ServerState,
    headers: &HeaderMap,
    refusal: impl Into<AccessDenied>,
) -> Response {
    let refusal = refusal.into();
    let (status, name, _, challenge) = refusal_parts(state, headers, &refusal);
    let body = json!({"error": {
        "code": status.as_u16(),
        "status": name,
        "message": refusal.to_string(),
        "details": [error_info(name)],
    }});
    with_challenge(status, challenge.as_deref(), body)
}

/// HTTP 401 (or 403) with `WWW-Authenticate` to a JSON-RPC request: a JSON-RPC error response (with
/// the request's `id`), so a JSON-RPC client reads an error object rather than a bare HTTP failure.
pub(crate) fn refused_jsonrpc(
    state: &ServerState,
    headers: &HeaderMap,
    id: &Value,
    refusal: impl Into<AccessDenied>,
) -> Response {
    let refusal = refusal.into();
    let (status, name, code, challenge) = refusal_parts(state, headers, &refusal);
    let error = json!({
        "code": code,
        "message": refusal.to_string(),
        "data": [error_info(name)],
    });
    with_challenge(
        status,
        challenge.as_deref(),
        json!({"jsonrpc": "2.0", "id": id, "error": error}),
    )
}

fn error_info(reason: &str) -> Value {
    json!({
        "@type": ERROR_INFO_TYPE,
        "reason": reason,
        "domain": ERROR_DOMAIN,
        "metadata": {},
    })
}

fn with_challenge(status: StatusCode, challenge: Option<&str>, body: Value) -> Response {
    let mut response =
        (status, [(CONTENT_TYPE, MEDIA_TYPE_JSON)], body.to_string()).into_response();
    if let Some(challenge) = challenge {
        // A challenge that is not a valid header value (a hook's odd realm) falls back to the
        // bare scheme.
        let value = axum::http::HeaderValue::from_str(challenge)
            .unwrap_or(axum::http::HeaderValue::from_static("Bearer"));
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// A JSON-RPC response as an HTTP response (HTTP 200, as JSON-RPC over HTTP has it).
pub(crate) fn jsonrpc_reply(body: serde_json::Value) -> Response {
    json_response(StatusCode::OK, body.to_string())
}

/// A JSON body with a status.
pub(crate) fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(CONTENT_TYPE, MEDIA_TYPE_JSON)], body).into_response()
}

/// One server-sent event carrying `json`, with `id` when given.
pub(crate) fn sse_event(json: String, id: Option<u64>) -> String {
    let mut event = a2a_protocol::sse::Event::new(json);
    if let Some(id) = id {
        event = event.id(id.to_string());
    }
    // Compact JSON has no line break and the id is digits, so encoding cannot fail.
    event.encode().unwrap_or_default()
}

/// A `text/event-stream` response of already encoded events.
pub(crate) fn event_stream(events: impl Stream<Item = String> + Send + 'static) -> Response {
    let body = events.map(Ok::<_, Infallible>);
    (
        [(CONTENT_TYPE, MEDIA_TYPE_EVENT_STREAM)],
        Body::from_stream(body),
    )
        .into_response()
}
