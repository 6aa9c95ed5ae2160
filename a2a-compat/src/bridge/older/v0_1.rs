//! The step between A2A v0.1 (0.1.0) and v0.2 (0.2.6), by schema type name: which v0.1 type becomes
//! which v0.2 type and by what conversion ([`PAIRS`]), whole JSON-RPC envelopes included.

use serde_json::{Map, Value, json};

use super::typed;
use super::v0_1_down as down;
use super::v0_1_up as up;
use super::v0_2::static_name;
use crate::bridge::{BridgeError, BridgeErrorKind};

type Step = fn(&Value) -> Result<Value, BridgeError>;

/// One v0.1 type, the v0.2 type it becomes, and the conversion each way.
pub(super) struct Pair {
    pub(super) v0_1: &'static str,
    pub(super) v0_2: &'static str,
    up: Step,
    down: Step,
}

const fn pair(v0_1: &'static str, v0_2: &'static str, up: Step, down: Step) -> Pair {
    Pair {
        v0_1,
        v0_2,
        up,
        down,
    }
}

fn same(json: &Value) -> Result<Value, BridgeError> {
    Ok(json.clone())
}

/// Only the members named, as they are.
fn only(json: &Value, keys: &[&str]) -> Value {
    let object: Map<String, Value> = keys
        .iter()
        .filter_map(|k| json.get(*k).map(|v| ((*k).to_owned(), v.clone())))
        .collect();
    Value::Object(object)
}

/// A request envelope whose params convert by `params` and whose method becomes `method`. v0.2
/// requires the id v0.1 may leave out.
fn request(json: &Value, method: &str, params: Step) -> Result<Value, BridgeError> {
    let mut out = Map::new();
    out.insert("jsonrpc".into(), json!("2.0"));
    match json.get("id") {
        Some(id) if !id.is_null() => out.insert("id".into(), id.clone()),
        _ => {
            return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: "id".into(),
                reason: "a request without an id is a notification, which A2A answers with nothing; give it an id",
            }));
        }
    };
    out.insert("method".into(), json!(method));
    out.insert(
        "params".into(),
        params(&json["params"]).map_err(|e| e.at("params"))?,
    );
    Ok(Value::Object(out))
}

/// A response envelope: its error as it is, or its result converted by `result`; a response with
/// neither is an error. `null_id` writes a missing id as `null` (v0.2 requires the member).
fn response(json: &Value, result: Step, null_id: bool) -> Result<Value, BridgeError> {
    let mut out = Map::new();
    out.insert("jsonrpc".into(), json!("2.0"));
    match json.get("id") {
        Some(id) if !id.is_null() => {
            out.insert("id".into(), id.clone());
        }
        _ if null_id => {
            out.insert("id".into(), Value::Null);
        }
        _ => {}
    }
    if let Some(error) = json.get("error") {
        out.insert("error".into(), error.clone());
    } else if let Some(value) = json.get("result") {
        out.insert("result".into(), result(value).map_err(|e| e.at("result"))?);
    } else {
        return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: "result".into(),
            reason: "a response with neither `result` nor `error` answers nothing",
        }));
    }
    Ok(Value::Object(out))
}

fn stream_result_up(json: &Value) -> Result<Value, BridgeError> {
    if json.get("artifact").is_some() {
        up::artifact_event(json)
    } else {
        up::status_event(json)
    }
}

fn stream_result_down(json: &Value) -> Result<Value, BridgeError> {
    down::stream_result(json).map(|(_, value)| value)
}

fn send_result_down(json: &Value) -> Result<Value, BridgeError> {
    match json["kind"].as_str() {
        Some("task") => down::task(json),
        _ => Err(down::no_message_result()),
    }
}

fn task_push_up(json: &Value) -> Result<Value, BridgeError> {
    Ok(up::task_push_config(json))
}

fn task_push_down(json: &Value) -> Result<Value, BridgeError> {
    Ok(down::task_push_config(json))
}

/// v0.1's `tasks/resubscribe` sends task query params; v0.2's sends task id params.
fn resubscribe_params_up(json: &Value) -> Result<Value, BridgeError> {
    Ok(only(json, &["id", "metadata"]))
}

/// v0.2's `tasks/pushNotificationConfig/get` may name a config id, which v0.1 cannot.
fn get_push_params_down(json: &Value) -> Result<Value, BridgeError> {
    Ok(only(json, &["id", "metadata"]))
}

/// The request types by method, for `A2ARequest` (v0.1's union lacks `tasks/sendSubscribe`, which is
/// read here all the same).
const REQUESTS: &[(&str, &str, &str)] = &[
    ("tasks/send", "SendTaskRequest", "message/send"),
    (
        "tasks/sendSubscribe",
        "SendTaskStreamingRequest",
        "message/stream",
    ),
    ("tasks/get", "GetTaskRequest", "tasks/get"),
    ("tasks/cancel", "CancelTaskRequest", "tasks/cancel"),
    (
        "tasks/pushNotification/set",
        "SetTaskPushNotificationRequest",
        "tasks/pushNotificationConfig/set",
    ),
    (
        "tasks/pushNotification/get",
        "GetTaskPushNotificationRequest",
        "tasks/pushNotificationConfig/get",
    ),
    (
        "tasks/resubscribe",
        "TaskResubscriptionRequest",
        "tasks/resubscribe",
    ),
];

fn any_request_up(json: &Value) -> Result<Value, BridgeError> {
    let method = json["method"].as_str().unwrap_or_default();
    let (_, name, _) = REQUESTS
        .iter()
        .find(|(m, _, _)| *m == method)
        .ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::UnknownMethod {
                method: method.to_owned(),
            })
        })?;
    upgrade(name, json.clone()).map(|(_, value)| value)
}

fn any_request_down(json: &Value) -> Result<Value, BridgeError> {
    let method = json["method"].as_str().unwrap_or_default();
    let (_, name, _) = REQUESTS
        .iter()
        .find(|(_, _, m)| *m == method)
        .ok_or_else(|| BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: method.to_owned(),
            reason: "v0.1 has no such method (listing and deleting push configs came with v0.2)",
        }))?;
    let v0_2_name = PAIRS
        .iter()
        .find(|p| p.v0_1 == *name)
        .map(|p| p.v0_2)
        .unwrap_or_default();
    downgrade(v0_2_name, json.clone()).map(|(_, value)| value)
}

macro_rules! requests {
    ($($up:ident, $down:ident: $v0_2_method:literal, $v0_1_method:literal, $params_up:expr, $params_down:expr;)*) => {
        $(
            fn $up(json: &Value) -> Result<Value, BridgeError> {
                request(json, $v0_2_method, $params_up)
            }
            fn $down(json: &Value) -> Result<Value, BridgeError> {
                request(json, $v0_1_method, $params_down)
            }
        )*
    };
}

requests! {
    send_up, send_down: "message/send", "tasks/send", up::send_params, down::send_params;
    stream_up, stream_down: "message/stream", "tasks/sendSubscribe", up::send_params, down::send_params;
    get_up, get_down: "tasks/get", "tasks/get", same, same;
    cancel_up, cancel_down: "tasks/cancel", "tasks/cancel", same, same;
    set_push_up, set_push_down: "tasks/pushNotificationConfig/set", "tasks/pushNotification/set", task_push_up, task_push_down;
    get_push_up, get_push_down: "tasks/pushNotificationConfig/get", "tasks/pushNotification/get", same, get_push_params_down;
    resubscribe_up, resubscribe_down: "tasks/resubscribe", "tasks/resubscribe", resubscribe_params_up, same;
}

macro_rules! responses {
    ($($up:ident, $down:ident: $result_up:expr, $result_down:expr;)*) => {
        $(
            fn $up(json: &Value) -> Result<Value, BridgeError> {
                response(json, $result_up, true)
            }
            fn $down(json: &Value) -> Result<Value, BridgeError> {
                response(json, $result_down, false)
            }
        )*
    };
}

responses! {
    send_response_up, send_response_down: up::task, send_result_down;
    stream_response_up, stream_response_down: stream_result_up, stream_result_down;
    task_response_up, task_response_down: up::task, down::task;
    push_response_up, push_response_down: task_push_up, task_push_down;
}

/// Every v0.1 schema type with a v0.2 counterpart. Several v0.2 types come back to one v0.1 type
/// ([`DOWN_ONLY`]).
pub(super) const PAIRS: &[Pair] = &[
    pair("A2ARequest", "A2ARequest", any_request_up, any_request_down),
    pair("AgentCapabilities", "AgentCapabilities", same, |j| {
        Ok(only(
            j,
            &["streaming", "pushNotifications", "stateTransitionHistory"],
        ))
    }),
    pair(
        "AgentCard",
        "AgentCard",
        |j| Ok(up::card(j)),
        |j| Ok(down::card(j)),
    ),
    pair(
        "AgentProvider",
        "AgentProvider",
        |j| {
            Ok(
                json!({"organization": j["organization"], "url": j.get("url").cloned().unwrap_or(json!(""))}),
            )
        },
        |j| {
            let mut out = only(j, &["organization"]);
            if let Some(url) = j["url"].as_str().filter(|u| !u.is_empty()) {
                out["url"] = json!(url);
            }
            Ok(out)
        },
    ),
    pair(
        "AgentSkill",
        "AgentSkill",
        |j| Ok(up::skill(j)),
        |j| Ok(down::skill(j)),
    ),
    pair(
        "Artifact",
        "Artifact",
        |j| up::artifact(j, 0),
        |j| down::artifact(j, None),
    ),
    pair(
        "AuthenticationInfo",
        "PushNotificationAuthenticationInfo",
        |j| Ok(up::authentication(j)),
        same,
    ),
    pair(
        "CancelTaskRequest",
        "CancelTaskRequest",
        cancel_up,
        cancel_down,
    ),
    pair(
        "CancelTaskResponse",
        "CancelTaskResponse",
        task_response_up,
        task_response_down,
    ),
    pair("DataPart", "DataPart", up::part, |j| Ok(down::part(j))),
    pair("FilePart", "FilePart", up::part, |j| Ok(down::part(j))),
    pair(
        "GetTaskPushNotificationRequest",
        "GetTaskPushNotificationConfigRequest",
        get_push_up,
        get_push_down,
    ),
    pair(
        "GetTaskPushNotificationResponse",
        "GetTaskPushNotificationConfigResponse",
        push_response_up,
        push_response_down,
    ),
    pair("GetTaskRequest", "GetTaskRequest", get_up, get_down),
    pair(
        "GetTaskResponse",
        "GetTaskResponse",
        task_response_up,
        task_response_down,
    ),
    pair("JSONRPCError", "JSONRPCError", same, same),
    pair(
        "Message",
        "Message",
        |j| up::message(j, None, None),
        down::message,
    ),
    pair("Part", "Part", up::part, |j| Ok(down::part(j))),
    pair(
        "PushNotificationConfig",
        "PushNotificationConfig",
        |j| Ok(up::push_config(j)),
        |j| Ok(down::push_config(j)),
    ),
    pair("SendTaskRequest", "SendMessageRequest", send_up, send_down),
    pair(
        "SendTaskResponse",
        "SendMessageResponse",
        send_response_up,
        send_response_down,
    ),
    pair(
        "SendTaskStreamingRequest",
        "SendStreamingMessageRequest",
        stream_up,
        stream_down,
    ),
    pair(
        "SendTaskStreamingResponse",
        "SendStreamingMessageResponse",
        stream_response_up,
        stream_response_down,
    ),
    pair(
        "SetTaskPushNotificationRequest",
        "SetTaskPushNotificationConfigRequest",
        set_push_up,
        set_push_down,
    ),
    pair(
        "SetTaskPushNotificationResponse",
        "SetTaskPushNotificationConfigResponse",
        push_response_up,
        push_response_down,
    ),
    pair("Task", "Task", up::task, down::task),
    pair(
        "TaskArtifactUpdateEvent",
        "TaskArtifactUpdateEvent",
        up::artifact_event,
        down::artifact_event,
    ),
    pair("TaskIdParams", "TaskIdParams", same, same),
    pair(
        "TaskPushNotificationConfig",
        "TaskPushNotificationConfig",
        task_push_up,
        task_push_down,
    ),
    pair("TaskQueryParams", "TaskQueryParams", same, same),
    pair(
        "TaskResubscriptionRequest",
        "TaskResubscriptionRequest",
        resubscribe_up,
        resubscribe_down,
    ),
    pair(
        "TaskSendParams",
        "MessageSendParams",
        up::send_params,
        down::send_params,
    ),
    pair("TaskState", "TaskState", same, |j| {
        Ok(match j.as_str() {
            Some("rejected") => json!("failed"),
            Some("auth-required") => json!("input-required"),
            _ => j.clone(),
        })
    }),
    pair(
        "TaskStatus",
        "TaskStatus",
        |j| up::status(j, None, None),
        down::status,
    ),
    pair(
        "TaskStatusUpdateEvent",
        "TaskStatusUpdateEvent",
        up::status_event,
        down::status_event,
    ),
    pair("TextPart", "TextPart", up::part, |j| Ok(down::part(j))),
];

/// v0.2 types that come back as a v0.1 type whose own upgrade gives another v0.2 type: the success
/// responses (v0.1 has one response type per method) and v0.2's own get-config params.
const DOWN_ONLY: &[(&str, &str, Step)] = &[
    (
        "SendMessageSuccessResponse",
        "SendTaskResponse",
        send_response_down,
    ),
    (
        "SendStreamingMessageSuccessResponse",
        "SendTaskStreamingResponse",
        stream_response_down,
    ),
    (
        "GetTaskSuccessResponse",
        "GetTaskResponse",
        task_response_down,
    ),
    (
        "CancelTaskSuccessResponse",
        "CancelTaskResponse",
        task_response_down,
    ),
    (
        "SetTaskPushNotificationConfigSuccessResponse",
        "SetTaskPushNotificationResponse",
        push_response_down,
    ),
    (
        "GetTaskPushNotificationConfigSuccessResponse",
        "GetTaskPushNotificationResponse",
        push_response_down,
    ),
    (
        "GetTaskPushNotificationConfigParams",
        "TaskIdParams",
        get_push_params_down,
    ),
];

/// v0.1 types with no v0.2 type of their own, and why.
pub(super) const NO_V0_2_COUNTERPART: &[(&str, &str)] = &[
    (
        "AgentAuthentication",
        "converted only inside its card, into `securitySchemes` and `security`",
    ),
    (
        "FileContent",
        "converted only inside its part (v0.2 splits it into `FileWithBytes` and `FileWithUri`)",
    ),
    ("JSONRPCMessage", "an abstract base of the envelopes"),
    (
        "JSONRPCRequest",
        "the generic envelope: convert the request of its method",
    ),
    (
        "JSONRPCResponse",
        "the generic envelope: convert the response of its method",
    ),
    ("InternalError", "errors convert as `JSONRPCError`"),
    ("InvalidParamsError", "errors convert as `JSONRPCError`"),
    ("InvalidRequestError", "errors convert as `JSONRPCError`"),
    ("JSONParseError", "errors convert as `JSONRPCError`"),
    ("MethodNotFoundError", "errors convert as `JSONRPCError`"),
    (
        "PushNotificationNotSupportedError",
        "errors convert as `JSONRPCError`",
    ),
    ("TaskNotCancelableError", "errors convert as `JSONRPCError`"),
    ("TaskNotFoundError", "errors convert as `JSONRPCError`"),
    (
        "UnsupportedOperationError",
        "errors convert as `JSONRPCError`",
    ),
];

fn no_counterpart(name: &str, table: &[(&str, &'static str)]) -> Option<BridgeError> {
    table.iter().find(|(n, _)| *n == name).map(|(n, reason)| {
        BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: (*n).to_owned(),
            reason,
        })
    })
}

/// v0.1 JSON of the schema type `name` as v0.2 JSON, with the v0.2 type's name.
pub(super) fn upgrade(name: &str, json: Value) -> Result<(&'static str, Value), BridgeError> {
    if let Some(error) = no_counterpart(name, NO_V0_2_COUNTERPART) {
        return Err(error);
    }
    let Some(pair) = PAIRS.iter().find(|p| p.v0_1 == name) else {
        return Err(BridgeError::new(BridgeErrorKind::UnknownType {
            name: name.to_owned(),
        }));
    };
    // `tasks/sendSubscribe` is a request v0.1's request union leaves out: read as its own type.
    let v0_1 = match (name, json["method"].as_str()) {
        ("A2ARequest", Some("tasks/sendSubscribe")) => {
            typed::v0_1("SendTaskStreamingRequest", json)?
        }
        _ => typed::v0_1(name, json)?,
    };
    let v0_2 = (pair.up)(&v0_1)?;
    Ok((pair.v0_2, typed::v0_2(pair.v0_2, v0_2)?))
}

/// v0.2 JSON of the schema type `name` as v0.1 JSON, with the v0.1 type's name.
pub(super) fn downgrade(name: &str, json: Value) -> Result<(&'static str, Value), BridgeError> {
    let (v0_1_name, step) = match PAIRS.iter().find(|p| p.v0_2 == name) {
        Some(pair) => (pair.v0_1, pair.down),
        None => match DOWN_ONLY.iter().find(|(n, _, _)| *n == name) {
            Some((_, v0_1_name, step)) => (*v0_1_name, *step),
            None => {
                let name = static_name(crate::v0_2::SCHEMA_TYPES, name)?;
                return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                    name: name.to_owned(),
                    reason: "v0.1 has no counterpart (it came with v0.2)",
                }));
            }
        },
    };
    let v0_2 = typed::v0_2(name, json)?;
    let v0_1 = step(&v0_2)?;
    let v0_1_name = match (v0_1_name, v0_1["method"].as_str()) {
        ("A2ARequest", Some("tasks/sendSubscribe")) => "SendTaskStreamingRequest",
        (other, _) => other,
    };
    Ok((v0_1_name, typed::v0_1(v0_1_name, v0_1)?))
}
