//! v0.2 → v0.1, object by object, on the JSON of valid v0.2 values: the inverse of `v0_1_up`, losing
//! what v0.1 has no place for (the table in [`super`]).

use serde_json::{Map, Value, json};

use crate::bridge::{BridgeError, BridgeErrorKind};

type Object = Map<String, Value>;

fn copy(to: &mut Object, from: &Value, key: &str, as_key: &str) {
    if let Some(value) = from.get(key) {
        to.insert(as_key.to_owned(), value.clone());
    }
}

fn copy_all(to: &mut Object, from: &Value, keys: &[&str]) {
    for key in keys {
        copy(to, from, key, key);
    }
}

/// Copies `key` unless it is empty (`""`, `[]`): v0.2 requires members v0.1 may leave out, which the
/// upgrade fills with empty values.
fn copy_non_empty(to: &mut Object, from: &Value, key: &str) {
    match from.get(key) {
        Some(Value::String(s)) if s.is_empty() => {}
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(value) => {
            to.insert(key.to_owned(), value.clone());
        }
        None => {}
    }
}

fn each(
    to: &mut Object,
    from: &Value,
    key: &str,
    mut convert: impl FnMut(usize, &Value) -> Result<Value, BridgeError>,
) -> Result<(), BridgeError> {
    if let Some(items) = from.get(key).and_then(Value::as_array) {
        let converted = items
            .iter()
            .enumerate()
            .map(|(index, item)| convert(index, item).map_err(|e| e.at(&format!("{key}[{index}]"))))
            .collect::<Result<Vec<_>, _>>()?;
        to.insert(key.to_owned(), Value::Array(converted));
    }
    Ok(())
}

pub(super) fn part(v0_2: &Value) -> Value {
    let mut out = Object::new();
    out.insert("type".into(), v0_2["kind"].clone());
    copy_all(&mut out, v0_2, &["text", "data", "metadata", "file"]);
    Value::Object(out)
}

/// A message: role, parts and metadata; its ids, references and extensions have no v0.1 place.
pub(super) fn message(v0_2: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy_all(&mut out, v0_2, &["role", "metadata"]);
    each(&mut out, v0_2, "parts", |_, p| Ok(part(p)))?;
    Ok(Value::Object(out))
}

/// An artifact at `position` in its list (`None` in an update event): an id that is a number is its
/// `index` (left out when it equals its position in a task's list, as the upgrade reads it).
pub(super) fn artifact(v0_2: &Value, position: Option<usize>) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy_all(&mut out, v0_2, &["name", "description", "metadata"]);
    each(&mut out, v0_2, "parts", |_, p| Ok(part(p)))?;
    let index = v0_2["artifactId"]
        .as_str()
        .and_then(|id| id.parse::<i64>().ok());
    match (index, position) {
        (Some(index), Some(position)) if index == position as i64 => {}
        (Some(index), _) => {
            out.insert("index".into(), json!(index));
        }
        (None, None) => {
            out.insert("index".into(), json!(0));
        }
        (None, Some(_)) => {}
    }
    Ok(Value::Object(out))
}

/// v0.1 has seven states: `rejected` reads as `failed`, `auth-required` as `input-required`.
fn state(v0_2: &Value) -> Value {
    match v0_2.as_str() {
        Some("rejected") => json!("failed"),
        Some("auth-required") => json!("input-required"),
        _ => v0_2.clone(),
    }
}

pub(super) fn status(v0_2: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert("state".into(), state(&v0_2["state"]));
    copy(&mut out, v0_2, "timestamp", "timestamp");
    if let Some(m) = v0_2.get("message") {
        out.insert("message".into(), message(m).map_err(|e| e.at("message"))?);
    }
    Ok(Value::Object(out))
}

pub(super) fn task(v0_2: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy_all(&mut out, v0_2, &["id", "metadata"]);
    copy_non_empty(&mut out, v0_2, "contextId");
    if let Some(session) = out.remove("contextId") {
        out.insert("sessionId".into(), session);
    }
    out.insert(
        "status".into(),
        status(&v0_2["status"]).map_err(|e| e.at("status"))?,
    );
    each(&mut out, v0_2, "artifacts", |position, a| {
        artifact(a, Some(position))
    })?;
    each(&mut out, v0_2, "history", |_, m| message(m))?;
    Ok(Value::Object(out))
}

pub(super) fn status_event(v0_2: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy(&mut out, v0_2, "taskId", "id");
    out.insert(
        "status".into(),
        status(&v0_2["status"]).map_err(|e| e.at("status"))?,
    );
    copy_all(&mut out, v0_2, &["final", "metadata"]);
    Ok(Value::Object(out))
}

pub(super) fn artifact_event(v0_2: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy(&mut out, v0_2, "taskId", "id");
    let mut artifact_v0_1 = artifact(&v0_2["artifact"], None).map_err(|e| e.at("artifact"))?;
    if let Some(artifact_object) = artifact_v0_1.as_object_mut() {
        copy_all(artifact_object, v0_2, &["append", "lastChunk"]);
    }
    out.insert("artifact".into(), artifact_v0_1);
    copy(&mut out, v0_2, "metadata", "metadata");
    Ok(Value::Object(out))
}

/// A streamed result: v0.1 streams only update events, so a task becomes the update of its status
/// (its artifacts and history are not sent) and a message has no v0.1 form.
pub(super) fn stream_result(v0_2: &Value) -> Result<(&'static str, Value), BridgeError> {
    match v0_2["kind"].as_str() {
        Some("status-update") => Ok(("TaskStatusUpdateEvent", status_event(v0_2)?)),
        Some("artifact-update") => Ok(("TaskArtifactUpdateEvent", artifact_event(v0_2)?)),
        Some("task") => {
            let mut out = Object::new();
            copy(&mut out, v0_2, "id", "id");
            out.insert(
                "status".into(),
                status(&v0_2["status"]).map_err(|e| e.at("status"))?,
            );
            out.insert("final".into(), json!(false));
            copy(&mut out, v0_2, "metadata", "metadata");
            Ok(("TaskStatusUpdateEvent", Value::Object(out)))
        }
        _ => Err(no_message_result()),
    }
}

pub(super) fn no_message_result() -> BridgeError {
    BridgeError::new(BridgeErrorKind::NoCounterpart {
        name: "Message".into(),
        reason: "a v0.1 agent answers with a task or its update events, never a bare message",
    })
}

pub(super) fn push_config(v0_2: &Value) -> Value {
    let mut out = Object::new();
    copy_all(&mut out, v0_2, &["url", "token", "authentication"]);
    Value::Object(out)
}

pub(super) fn task_push_config(v0_2: &Value) -> Value {
    let mut out = Object::new();
    copy(&mut out, v0_2, "taskId", "id");
    out.insert(
        "pushNotificationConfig".into(),
        push_config(&v0_2["pushNotificationConfig"]),
    );
    Value::Object(out)
}

/// `message/send` params as `tasks/send` params: v0.1 clients name the task, so the message must carry
/// its `taskId`.
pub(super) fn send_params(v0_2: &Value) -> Result<Value, BridgeError> {
    let message_v0_2 = &v0_2["message"];
    let mut out = Object::new();
    let Some(task_id) = message_v0_2.get("taskId") else {
        return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: "taskId".into(),
            reason: "a v0.1 client names the task it sends to; a message without a task id has no v0.1 form",
        })
        .at("message"));
    };
    out.insert("id".into(), task_id.clone());
    copy(&mut out, message_v0_2, "contextId", "sessionId");
    out.insert(
        "message".into(),
        message(message_v0_2).map_err(|e| e.at("message"))?,
    );
    if let Some(configuration) = v0_2.get("configuration") {
        copy(&mut out, configuration, "historyLength", "historyLength");
        if let Some(push) = configuration.get("pushNotificationConfig") {
            out.insert("pushNotification".into(), push_config(push));
        }
    }
    copy(&mut out, v0_2, "metadata", "metadata");
    Ok(Value::Object(out))
}

pub(super) fn skill(v0_2: &Value) -> Value {
    let mut out = Object::new();
    copy_all(
        &mut out,
        v0_2,
        &["id", "name", "examples", "inputModes", "outputModes"],
    );
    copy_non_empty(&mut out, v0_2, "description");
    copy_non_empty(&mut out, v0_2, "tags");
    Value::Object(out)
}

/// The card: the names of its security schemes (an HTTP scheme by its `scheme`) become
/// `authentication.schemes`.
pub(super) fn card(v0_2: &Value) -> Value {
    let mut out = Object::new();
    copy_all(
        &mut out,
        v0_2,
        &[
            "name",
            "url",
            "version",
            "documentationUrl",
            "defaultInputModes",
            "defaultOutputModes",
        ],
    );
    copy_non_empty(&mut out, v0_2, "description");
    if let Some(provider) = v0_2.get("provider") {
        let mut p = Object::new();
        copy(&mut p, provider, "organization", "organization");
        copy_non_empty(&mut p, provider, "url");
        out.insert("provider".into(), Value::Object(p));
    }
    let capabilities = &v0_2["capabilities"];
    let mut c = Object::new();
    copy_all(
        &mut c,
        capabilities,
        &["streaming", "pushNotifications", "stateTransitionHistory"],
    );
    out.insert("capabilities".into(), Value::Object(c));
    if let Some(schemes) = v0_2.get("securitySchemes").and_then(Value::as_object)
        && !schemes.is_empty()
    {
        let names: Vec<Value> = schemes
            .iter()
            .map(
                |(name, scheme)| match (scheme["type"].as_str(), scheme.get("scheme")) {
                    (Some("http"), Some(http)) => http.clone(),
                    _ => json!(name),
                },
            )
            .collect();
        out.insert("authentication".into(), json!({ "schemes": names }));
    }
    let skills = v0_2["skills"].as_array().cloned().unwrap_or_default();
    out.insert(
        "skills".into(),
        Value::Array(skills.iter().map(skill).collect()),
    );
    Value::Object(out)
}
