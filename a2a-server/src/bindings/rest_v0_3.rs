//! A2A v0.3 HTTP+JSON clients under the same prefix as v1's routes (feature `v0_3`): the routes of
//! v0.3's `google.api.http` options, with ProtoJSON bodies of its `a2a.v1` messages, translated by
//! [`super::v0_3_proto`] and answered by the same server.
//!
//! | request | RPC |
//! |---|---|
//! | `POST /v1/message:send`, `POST /v1/message:stream` (server-sent events) | SendMessage, SendStreamingMessage |
//! | `GET /v1/tasks/{id}?historyLength=N` | GetTask |
//! | `POST /v1/tasks/{id}:cancel` | CancelTask |
//! | `GET` (or `POST`) `/v1/tasks/{id}:subscribe` (server-sent events) | TaskSubscription |
//! | `POST /v1/tasks/{id}/pushNotificationConfigs`, `GET` the same | Create, List push configs |
//! | `GET`, `DELETE /v1/tasks/{id}/pushNotificationConfigs/{configId}` | Get, Delete a push config |
//! | `GET /v1/card` | GetAgentCard (the extended card) |
//!
//! **Which version a request is.** v1's routes take an optional `/{tenant}` first, so `/v1/tasks/x`
//! could also be v1's GetTask for tenant `v1`. v1 requires `A2A-Version: 1.0` and v0.3 clients send
//! no such header, so: a path starting with `/v1/` is v0.3 unless `A2A-Version` asks for 1.x (then it
//! is v1, tenant `v1`); every other path is v1.
//!
//! Errors are written as the SDK 0.3's server writes them: its HTTP status and `{"code", "message"}`
//! ([`super::v0_3_proto::http_status`]); a stream that fails before its first event answers that way
//! too (the SDK 0.3's client checks the status before reading events).

use std::sync::Arc;

use a2a_proto::v0_3 as pb;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_stream::StreamExt;

use a2a_protocol::errors::{Error, ErrorKind};

use crate::auth::Presented;
use crate::bindings::http_common::{
    asks_for_v1, call_context, event_stream, json_response, refused, sse_event,
};
use crate::bindings::v0_3_proto::{
    ProtoRequest, ProtoResult, downgrade, downgrade_event, http_status, rest_error_body, upgrade,
};
use crate::core::call::{call, check_request};
use crate::core::context::Reply;
use crate::core::state::ServerState;
use crate::errors::invalid;

/// Whether a request to `path` (under the HTTP+JSON prefix) is a v0.3 one (see the module docs).
pub(crate) fn is_v0_3_request(path: &str, headers: &HeaderMap) -> bool {
    path.starts_with("/v1/") && !asks_for_v1(headers)
}

fn fail(error: &Error) -> Response {
    let status =
        StatusCode::from_u16(http_status(error)).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json_response(status, rest_error_body(error).to_string())
}

/// Answers one v0.3 request (`body` already within the decode budget's size).
pub(crate) async fn handle(
    state: &Arc<ServerState>,
    method: &Method,
    path: &str,
    query: &str,
    headers: &HeaderMap,
    presented: &Presented,
    body: &[u8],
) -> Response {
    if !body.is_empty()
        && let Err(error) = state.config.limits.check_json(body)
    {
        return fail(&error.into());
    }
    let request = match read_request(method, path, query, body) {
        Ok(request) => request,
        Err(error) => return fail(&error),
    };
    let params = match upgrade(request) {
        Ok(params) => params,
        Err(error) => return fail(&error),
    };
    let context = match call_context(state, headers, Some(query), presented, "HTTP+JSON v0.3").await
    {
        Ok(context) => context,
        Err(refusal) => return refused(state, headers, refusal),
    };
    if let Err(refusal) = check_request(state, &params, &context.caller) {
        return refused(state, headers, refusal);
    }
    match call(state, params, &context).await {
        Ok(Reply::Unary(result)) => match downgrade(result) {
            Ok(result) => json_response(StatusCode::OK, result_json(&result)),
            Err(error) => fail(&error),
        },
        Ok(Reply::Stream(events)) => event_stream(events.map(|item| {
            match downgrade_event(item.event) {
                Ok(event) => sse_event(serde_json::to_string(&event).unwrap_or_default(), item.id),
                // Mid-stream, the status is sent already: the error is the last event.
                Err(error) => sse_event(rest_error_body(&error).to_string(), None),
            }
        })),
        Err(error) => fail(&error),
    }
}

/// The answer message as ProtoJSON (`{}` for `Empty`).
fn result_json(result: &ProtoResult) -> String {
    let json = match result {
        ProtoResult::SendMessage(m) => serde_json::to_string(m),
        ProtoResult::Task(m) => serde_json::to_string(m),
        ProtoResult::PushConfig(m) => serde_json::to_string(m),
        ProtoResult::PushConfigs(m) => serde_json::to_string(m),
        ProtoResult::Card(m) => serde_json::to_string(m),
        ProtoResult::Empty => Ok("{}".to_owned()),
    };
    json.unwrap_or_default()
}

fn not_found(method: &Method, path: &str) -> Error {
    Error::with_message(
        ErrorKind::MethodNotFound,
        format!("no A2A v0.3 HTTP+JSON route is {method} {path}"),
    )
}

/// A body as the message `T` (an empty body as its defaults), a bad member named by its path.
fn read_body<T: DeserializeOwned + Default>(body: &[u8]) -> Result<T, Error> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    a2a_types::json::from_slice(body)
        .map_err(|e| Error::with_message(ErrorKind::InvalidParams, e.to_string()))
}

/// The request message of one route, its resource names built from the path.
fn read_request(
    method: &Method,
    path: &str,
    query: &str,
    body: &[u8],
) -> Result<ProtoRequest, Error> {
    let route = path.strip_prefix("/v1/").unwrap_or(path);
    match (method.as_str(), route) {
        ("POST", "message:send") => return Ok(ProtoRequest::SendMessage(read_body(body)?)),
        ("POST", "message:stream") => {
            return Ok(ProtoRequest::SendStreamingMessage(read_body(body)?));
        }
        ("GET", "card") => return Ok(ProtoRequest::GetCard),
        _ => {}
    }
    let Some(task_path) = route.strip_prefix("tasks/") else {
        return Err(not_found(method, path));
    };
    let segments: Vec<&str> = task_path.split('/').collect();
    let decode = |segment: &str, field: &str| {
        percent_decode(segment)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| invalid(field, format!("{segment:?} is no id")))
    };
    let request = match (method.as_str(), segments.as_slice()) {
        ("POST", [id_and_verb]) if id_and_verb.ends_with(":cancel") => {
            let id = decode(id_and_verb.trim_end_matches(":cancel"), "name")?;
            ProtoRequest::CancelTask(pb::CancelTaskRequest {
                name: format!("tasks/{id}"),
            })
        }
        ("GET" | "POST", [id_and_verb]) if id_and_verb.ends_with(":subscribe") => {
            let id = decode(id_and_verb.trim_end_matches(":subscribe"), "name")?;
            ProtoRequest::SubscribeToTask(pb::TaskSubscriptionRequest {
                name: format!("tasks/{id}"),
            })
        }
        ("GET", [id]) => ProtoRequest::GetTask(pb::GetTaskRequest {
            name: format!("tasks/{}", decode(id, "name")?),
            history_length: history_length(query)?,
        }),
        ("POST", [id, "pushNotificationConfigs"]) => {
            let parent = format!("tasks/{}", decode(id, "parent")?);
            ProtoRequest::CreatePushConfig(create_push_config(parent, body)?)
        }
        ("GET", [id, "pushNotificationConfigs"]) => {
            ProtoRequest::ListPushConfigs(pb::ListTaskPushNotificationConfigRequest {
                parent: format!("tasks/{}", decode(id, "parent")?),
                ..Default::default()
            })
        }
        ("GET" | "DELETE", [id, "pushNotificationConfigs", config_id]) => {
            let name = format!(
                "tasks/{}/pushNotificationConfigs/{}",
                decode(id, "name")?,
                decode(config_id, "name")?
            );
            if method == Method::GET {
                ProtoRequest::GetPushConfig(pb::GetTaskPushNotificationConfigRequest { name })
            } else {
                ProtoRequest::DeletePushConfig(pb::DeleteTaskPushNotificationConfigRequest { name })
            }
        }
        _ => return Err(not_found(method, path)),
    };
    Ok(request)
}

/// The create request: v0.3's option binds the body to `config` (what our client sends), and the
/// SDK 0.3's client sends the whole request message; the task is the path's either way.
fn create_push_config(
    parent: String,
    body: &[u8],
) -> Result<pb::CreateTaskPushNotificationConfigRequest, Error> {
    let json: Value = read_body(body)?;
    let whole = json.get("config").is_some() || json.get("parent").is_some();
    let mut request = if whole {
        read_body::<pb::CreateTaskPushNotificationConfigRequest>(body)?
    } else {
        pb::CreateTaskPushNotificationConfigRequest {
            config: Some(read_body(body)?),
            ..Default::default()
        }
    };
    request.parent = parent;
    Ok(request)
}

/// `historyLength` from the query (absent is 0, protobuf's unset).
fn history_length(query: &str) -> Result<i32, Error> {
    let value = url::form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| name == "historyLength")
        .map(|(_, value)| value.into_owned());
    match value {
        None => Ok(0),
        Some(text) => text
            .parse()
            .map_err(|_| invalid("historyLength", format!("{text:?} is not an int32"))),
    }
}

/// A path segment with its `%XX` escapes decoded (`None` for a broken escape or bytes that are not
/// UTF-8).
fn percent_decode(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = std::str::from_utf8(bytes.get(index + 1..index + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_told_by_the_v1_segment_and_the_header() {
        let mut headers = HeaderMap::new();
        assert!(is_v0_3_request("/v1/message:send", &headers));
        assert!(!is_v0_3_request("/message:send", &headers));
        headers.insert("A2A-Version", "1.0".parse().expect("a header value"));
        // v1 for tenant `v1`.
        assert!(!is_v0_3_request("/v1/tasks/t-1", &headers));
        headers.insert("A2A-Version", "0.3".parse().expect("a header value"));
        assert!(is_v0_3_request("/v1/tasks/t-1", &headers));
    }

    #[test]
    fn routes_read_their_resource_names_from_the_path() {
        let get = read_request(&Method::GET, "/v1/tasks/t%201", "historyLength=2", b"");
        assert!(
            matches!(&get, Ok(ProtoRequest::GetTask(r)) if r.name == "tasks/t 1" && r.history_length == 2),
            "{get:?}"
        );
        let cancel = read_request(&Method::POST, "/v1/tasks/t-1:cancel", "", b"{}");
        assert!(matches!(&cancel, Ok(ProtoRequest::CancelTask(r)) if r.name == "tasks/t-1"));
        let delete = read_request(
            &Method::DELETE,
            "/v1/tasks/t-1/pushNotificationConfigs/c-1",
            "",
            b"",
        );
        assert!(matches!(&delete, Ok(ProtoRequest::DeletePushConfig(r))
            if r.name == "tasks/t-1/pushNotificationConfigs/c-1"));
        let config =
            br#"{"pushNotificationConfig": {"id": "c-1", "url": "https://example.com/hook"}}"#;
        let create = read_request(
            &Method::POST,
            "/v1/tasks/t-1/pushNotificationConfigs",
            "",
            config,
        );
        assert!(
            matches!(&create, Ok(ProtoRequest::CreatePushConfig(r))
            if r.parent == "tasks/t-1" && r.config.as_ref().is_some_and(|c| c.push_notification_config.is_some())),
            "{create:?}"
        );
        // The SDK 0.3's client sends the whole request message; the path still names the task.
        let whole = br#"{"parent": "tasks/other", "config": {"pushNotificationConfig": {"url": "https://example.com/hook"}}}"#;
        let create = read_request(
            &Method::POST,
            "/v1/tasks/t-1/pushNotificationConfigs",
            "",
            whole,
        );
        assert!(
            matches!(&create, Ok(ProtoRequest::CreatePushConfig(r))
            if r.parent == "tasks/t-1" && r.config.as_ref().is_some_and(|c| c.push_notification_config.is_some())),
            "{create:?}"
        );
        let unknown = read_request(&Method::PUT, "/v1/tasks/t-1", "", b"").unwrap_err();
        assert_eq!(unknown.kind, ErrorKind::MethodNotFound);
        let bad = read_request(&Method::GET, "/v1/tasks/t-1", "historyLength=x", b"").unwrap_err();
        assert_eq!(bad.kind, ErrorKind::InvalidParams);
        assert_eq!(http_status(&bad), 422);
    }
}
