//! The HTTP+JSON binding under [`REST_PATH`](super::card::REST_PATH): `a2a_types::rest` matches the
//! method and path against the proto's `google.api.http` bindings and reads the typed request; the
//! agent answers; results are ProtoJSON, errors the binding's error body with their HTTP status,
//! streams server-sent events of `StreamResponse`.

use std::convert::Infallible;
use std::sync::Arc;

use a2a_types::errors::{Error, ErrorKind};
use a2a_types::operations::Operation;
use a2a_types::service::{
    A2A_VERSION_HEADER, MEDIA_TYPE_EVENT_STREAM, MEDIA_TYPE_JSON, ProtocolVersion,
};
use a2a_types::{rest, sse};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::Agent;
use super::card::REST_PATH;
use super::jsonrpc::{call_context, unauthenticated};
use super::service::Reply;

pub(super) fn routes() -> Router<Arc<Agent>> {
    Router::new().route(&format!("{REST_PATH}/{{*path}}"), any(handle))
}

fn answer(status: u16, body: serde_json::Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, [(CONTENT_TYPE, MEDIA_TYPE_JSON)], body.to_string()).into_response()
}

fn fail(error: &Error) -> Response {
    answer(error.kind.http_status(), error.to_rest())
}

async fn handle(
    State(agent): State<Arc<Agent>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let limits = agent.limits();
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
    let path = uri.path().strip_prefix(REST_PATH).unwrap_or(uri.path());
    let matched = match rest::match_path(method.as_str(), path) {
        Ok(matched) => matched,
        Err(error) => return answer(error.http_status(), error.to_rest()),
    };
    let version = headers
        .get(A2A_VERSION_HEADER)
        .and_then(|v| v.to_str().ok());
    if !ProtocolVersion::from_header(version)
        .is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0))
    {
        return fail(&Error::with_message(
            ErrorKind::VersionNotSupported,
            format!(
                "this HTTP+JSON endpoint serves A2A 1.0 ({A2A_VERSION_HEADER}: 1.0), not {:?}",
                version.unwrap_or("0.3 (no header)")
            ),
        ));
    }
    let context = call_context(&headers);
    if matched.operation == Operation::GetExtendedAgentCard
        && !agent.authorized(context.authorization.as_deref())
    {
        return unauthenticated();
    }
    let params =
        match matched.read_params_with_limits(uri.query().unwrap_or_default(), &body, &limits) {
            Ok(params) => params,
            Err(error) => return answer(error.http_status(), error.to_rest()),
        };
    match agent.call(params, &context).await {
        Ok(Reply::Unary(result)) => answer(200, result.to_json()),
        Ok(Reply::Stream(events)) => {
            let body = UnboundedReceiverStream::new(events).map(|event| {
                Ok::<_, Infallible>(sse::encode_stream_response(&event).unwrap_or_default())
            });
            (
                [(CONTENT_TYPE, MEDIA_TYPE_EVENT_STREAM)],
                Body::from_stream(body),
            )
                .into_response()
        }
        Err(error) => fail(&error),
    }
}
