//! The HTTP+JSON binding under a prefix: `a2a_protocol::rest` matches the method and path against the
//! proto's `google.api.http` bindings (with and without `/{tenant}`, and POST as well as GET for
//! `:subscribe`) and reads the typed request; results are ProtoJSON, errors the binding's error body
//! with their HTTP status, streams server-sent events of `StreamResponse`. With feature `v0_3`, a
//! path starting with `/v1/` without `A2A-Version: 1.x` is a v0.3 request
//! ([`super::rest_v0_3`]).

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::rest;
use a2a_protocol::service::A2A_VERSION_HEADER;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Extension, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use tokio_stream::StreamExt;

use crate::auth::{Authenticated, PeerCertificate, Presented};
use crate::bindings::body;
use crate::bindings::http_common::{
    asks_for_v1, call_context, event_stream, header, json_response, refused, sse_event,
};
use crate::core::call::{call, check_access, check_request};
use crate::core::context::Reply;
use crate::core::state::ServerState;

/// HTTP+JSON under `prefix`, reading bodies under the decode budget.
pub(crate) fn router(state: &Arc<ServerState>, prefix: &str) -> Router {
    let prefix = prefix.trim_end_matches('/').to_owned();
    let route = format!("{prefix}/{{*path}}");
    let routes = Router::new().route(
        &route,
        any(
            move |server: State<Arc<ServerState>>,
                  method: Method,
                  uri: Uri,
                  headers: HeaderMap,
                  certificate: Option<Extension<PeerCertificate>>,
                  authenticated: Option<Extension<Authenticated>>,
                  body: Result<Bytes, BytesRejection>| {
                let prefix = prefix.clone();
                let presented = Presented::new(certificate, authenticated);
                async move { handle(server, method, uri, headers, presented, body, prefix).await }
            },
        ),
    );
    routes
        .layer(DefaultBodyLimit::max(state.config.limits.max_bytes()))
        .with_state(state.clone())
}

fn answer(status: u16, body: serde_json::Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json_response(status, body.to_string())
}

fn fail(error: &Error) -> Response {
    let mut response = answer(error.http_status(), error.to_rest());
    // A temporary refusal says when to come back (§3.3.2: "Retry-After header in HTTP").
    if let Some(after) = error.retry_after() {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from(after.as_secs().max(1)),
        );
    }
    response
}

async fn handle(
    State(state): State<Arc<ServerState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    presented: Presented,
    body: Result<Bytes, BytesRejection>,
    prefix: String,
) -> Response {
    let limits = state.config.limits;
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let error = Error::with_message(
                ErrorKind::InvalidRequest,
                format!(
                    "payload too large: the body is over the {} bytes allowed (the max_bytes limit)",
                    limits.max_bytes()
                ),
            );
            let mut body = error.to_rest();
            body["error"]["code"] = 413.into();
            return answer(413, body);
        }
        Err(rejection) => return rejection.into_response(),
    };
    let path = uri
        .path()
        .strip_prefix(prefix.as_str())
        .unwrap_or(uri.path());
    #[cfg(feature = "v0_3")]
    if crate::bindings::rest_v0_3::is_v0_3_request(path, &headers) {
        let query = uri.query().unwrap_or_default();
        return crate::bindings::rest_v0_3::handle(
            &state, &method, path, query, &headers, &presented, &body,
        )
        .await;
    }
    let matched = match rest::match_path(method.as_str(), path) {
        Ok(matched) => matched,
        Err(error) => return answer(error.http_status(), error.to_rest()),
    };
    if !asks_for_v1(&headers) {
        return fail(&Error::with_message(
            ErrorKind::VersionNotSupported,
            format!(
                "this HTTP+JSON endpoint serves A2A 1.0 ({A2A_VERSION_HEADER}: 1.0), not {:?}",
                header(&headers, A2A_VERSION_HEADER).unwrap_or("0.3 (no header)")
            ),
        ));
    }
    let context = match call_context(&state, &headers, uri.query(), &presented, "HTTP+JSON").await {
        Ok(context) => context,
        Err(refusal) => return refused(&state, &headers, refusal),
    };
    if let Err(refusal) = check_access(&state, matched.operation, &context.caller) {
        return refused(&state, &headers, refusal);
    }
    let params =
        match matched.read_params_with_limits(uri.query().unwrap_or_default(), &body, &limits) {
            Ok(params) => params,
            Err(error) => return answer(error.http_status(), error.to_rest()),
        };
    // The operation's requirements were checked before the body was read; a message's skill is
    // known only now.
    if let Err(refusal) = check_request(&state, &params, &context.caller) {
        return refused(&state, &headers, refusal);
    }
    match call(&state, params, &context).await {
        Ok(Reply::Unary(result)) => json_response(StatusCode::OK, body::result(&result)),
        Ok(Reply::Stream(events)) => event_stream(events.map(|item| {
            // The generated encoder: the bytes serde_json writes, without its serializer.
            let json = a2a_types::json::to_string(&item.event).unwrap_or_default();
            sse_event(json, item.id)
        })),
        Err(error) => fail(&error),
    }
}
