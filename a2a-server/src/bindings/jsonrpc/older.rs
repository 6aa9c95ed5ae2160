//! A2A v0.1 and v0.2 JSON-RPC clients on the same endpoint (features `v0_1`, `v0_2`). Neither sends
//! `A2A-Version`, so the version of a request is told by its method, and where a method name is
//! shared, by the task it names:
//!
//! | method | answered as |
//! |---|---|
//! | `tasks/send`, `tasks/sendSubscribe`, `tasks/pushNotification/set`, `tasks/pushNotification/get` (v0.1's own names) | v0.1 |
//! | `message/send`, `message/stream`, `tasks/pushNotificationConfig/*` (v0.2's names, which v0.3 kept) | v0.3, which a v0.2 client reads: every v0.2 method and shape is v0.3's, and what v0.3 added is optional |
//! | `tasks/get`, `tasks/cancel`, `tasks/resubscribe` without `A2A-Version` (every version's names, v0.1's shapes unlike the others') | the version the task was created in: v0.1 when its oldest client message kept came from a v0.1 client (its id, which the bridge derives, starts with [`V0_1_MESSAGE_ID_PREFIX`]), v0.3 otherwise (and when the task is not found) |
//! | the same with `A2A-Version: 0.3` | v0.3 |
//!
//! What the rule cannot tell apart: v0.2 from v0.3 (the same names and shapes; a v0.2 client gets
//! v0.3 JSON, whose additions it ignores), so a v0.2 task is answered as v0.3; a client of v0.3 or
//! v0.2 reading a task a v0.1 client created without sending `A2A-Version: 0.3` (it gets v0.1's
//! shapes); a v0.1 client reading a task a later client created (it gets v0.3's); and a task whose
//! oldest v0.1 messages the store dropped to keep it within its size bound (then its oldest message
//! kept decides). The creation version is not stored beside the task: the message ids are its record.
//!
//! v0.1 has one push config per task, without an id: it is kept under the task's id, and
//! `tasks/pushNotification/get` reads that one.
//!
//! A v0.1 client names the task it sends to (`tasks/send`'s `id`): a task of that id is continued,
//! and when the caller has none, a new task takes the id (`CallContext::new_task_id`); an id another
//! caller's task holds is refused as taken.

use std::sync::Arc;

use a2a_compat::bridge::{self, OlderVersion, V0_1_MESSAGE_ID_PREFIX};
use a2a_compat::v0_3;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::MethodParams;
use a2a_protocol::service::A2A_VERSION_HEADER;
use a2a_types::v1::Role;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Value;

use super::v0_3::{Upgraded, answer, v0_3_error};
use crate::auth::{Owner, Presented};
use crate::bindings::http_common::{call_context, header, jsonrpc_reply as reply, refused_jsonrpc};
use crate::core::context::CallContext;
use crate::core::state::ServerState;

/// The methods only v0.1 has.
const V0_1_METHODS: [&str; 4] = [
    "tasks/send",
    "tasks/sendSubscribe",
    "tasks/pushNotification/set",
    "tasks/pushNotification/get",
];

/// The methods every version names alike, whose shapes v0.1 writes its own way.
const SHARED_METHODS: [&str; 3] = ["tasks/get", "tasks/cancel", "tasks/resubscribe"];

/// Whether this module answers the request: a v0.1 method, or a shared one without `A2A-Version`.
pub(super) fn is_older_request(json: &Value, headers: &HeaderMap) -> bool {
    let method = json
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    V0_1_METHODS.contains(&method)
        || (SHARED_METHODS.contains(&method) && header(headers, A2A_VERSION_HEADER).is_none())
}

/// The v0.3 response type a v0.3 method answers with, which the bridge takes down to v0.1.
fn v0_3_response_type(v0_3_method: &str) -> &'static str {
    match v0_3_method {
        "message/send" => "SendMessageResponse",
        "message/stream" | "tasks/resubscribe" => "SendStreamingMessageResponse",
        "tasks/get" => "GetTaskResponse",
        "tasks/cancel" => "CancelTaskResponse",
        "tasks/pushNotificationConfig/set" => "SetTaskPushNotificationConfigResponse",
        _ => "GetTaskPushNotificationConfigResponse",
    }
}

/// Answers one request [`is_older_request`] chose.
pub(super) async fn older_rpc(
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
    json: Value,
) -> Response {
    let raw_id = json.get("id").cloned().unwrap_or(Value::Null);
    let fail = |error: Error| reply(v0_3_error(&raw_id, &error));
    let method = json["method"].as_str().unwrap_or_default().to_owned();
    let mut context = match call_context(state, headers, query, presented, "JSONRPC v0.1").await {
        Ok(context) => context,
        Err(refusal) => return refused_jsonrpc(state, headers, &raw_id, refusal),
    };
    let owner = Owner::of(&context.caller, None);
    let version = if V0_1_METHODS.contains(&method.as_str()) {
        OlderVersion::V0_1
    } else {
        match creation_version(state, &owner, &json).await {
            Ok(version) => version,
            Err(error) => return fail(error),
        }
    };
    if version == OlderVersion::V0_3 {
        context.binding = "JSONRPC v0.3";
        let request: v0_3::A2aRequest = match serde_json::from_value(json) {
            Ok(request) => request,
            Err(e) => return fail(Error::with_message(ErrorKind::InvalidParams, e.to_string())),
        };
        return match bridge::upgrade_request(request) {
            Ok((id, params)) => {
                let call = Upgraded { raw_id, id, params };
                answer(state, headers, call, context, |json| json).await
            }
            Err(error) => fail(error.to_v1_error()),
        };
    }
    let (v0_3_json, response_type) = match bridge::upgrade_json_to_v0_3(version, "A2ARequest", json)
    {
        Ok((_, v0_3_json)) => {
            let v0_3_method = v0_3_json["method"].as_str().unwrap_or_default();
            let response_type = v0_3_response_type(v0_3_method);
            (v0_3_json, response_type)
        }
        Err(error) => return fail(error.to_v1_error()),
    };
    let upgraded = serde_json::from_value::<v0_3::A2aRequest>(v0_3_json)
        .map_err(|e| Error::with_message(ErrorKind::InvalidParams, e.to_string()))
        .and_then(|request| bridge::upgrade_request(request).map_err(|e| e.to_v1_error()));
    let (id, mut params) = match upgraded {
        Ok(upgraded) => upgraded,
        Err(error) => return fail(error),
    };
    if let Err(error) = name_new_task(state, &owner, &mut params, &mut context).await {
        return fail(error);
    }
    one_config_per_task(&mut params);
    let answer_id = raw_id.clone();
    let to_v0_1 = move |v0_3_json: Value| match bridge::downgrade_json_from_v0_3(
        OlderVersion::V0_1,
        response_type,
        v0_3_json,
    ) {
        Ok((_, v0_1_json)) => v0_1_json,
        Err(error) => v0_3_error(&answer_id, &error.to_v1_error()),
    };
    let call = Upgraded { raw_id, id, params };
    answer(state, headers, call, context, to_v0_1).await
}

/// The version a task named by a shared method's `params.id` was created in (see the module docs).
async fn creation_version(
    state: &ServerState,
    owner: &Owner,
    json: &Value,
) -> Result<OlderVersion, Error> {
    let Some(task_id) = json["params"]["id"].as_str() else {
        // Not a request of any version: the v0.3 reader names what is wrong.
        return Ok(OlderVersion::V0_3);
    };
    let stored = state
        .tasks
        .get(owner, task_id)
        .await
        .map_err(|e| e.to_error(task_id))?;
    let from_v0_1 = stored.is_some_and(|stored| {
        stored
            .task
            .history
            .iter()
            .find(|message| message.role == Role::User)
            .is_some_and(|message| message.message_id.starts_with(V0_1_MESSAGE_ID_PREFIX))
    });
    Ok(if from_v0_1 {
        OlderVersion::V0_1
    } else {
        OlderVersion::V0_3
    })
}

/// v0.1 keeps one push config per task and names none: it is stored under the task's id, and a get
/// (which cannot name one) reads that one, as the official SDKs treat a config without an id.
fn one_config_per_task(params: &mut MethodParams) {
    match params {
        MethodParams::CreateTaskPushNotificationConfig(config)
            if config.id.as_ref().is_none_or(String::is_empty) =>
        {
            config.id = config.task_id.clone();
        }
        MethodParams::GetTaskPushNotificationConfig(request) if request.id.is_empty() => {
            request.id = request.task_id.clone();
        }
        _ => {}
    }
}

/// A v0.1 send names its task: when the caller has no task of that id, the message starts a new
/// task, which takes the id (v1 continues only tasks that exist).
async fn name_new_task(
    state: &ServerState,
    owner: &Owner,
    params: &mut MethodParams,
    context: &mut CallContext,
) -> Result<(), Error> {
    let (MethodParams::SendMessage(request) | MethodParams::SendStreamingMessage(request)) = params
    else {
        return Ok(());
    };
    let Some(task_id) = request.message.task_id.clone() else {
        return Ok(());
    };
    let exists = state
        .tasks
        .get(owner, &task_id)
        .await
        .map_err(|e| e.to_error(&task_id))?
        .is_some();
    if !exists {
        request.message.task_id = None;
        context.new_task_id = Some(task_id);
    }
    Ok(())
}
