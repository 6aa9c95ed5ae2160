//! v0.1 → v0.2, object by object, on the JSON of valid v0.1 values (read by their type first): what
//! v0.1 writes one way and v0.2 another (`type` → `kind`, `sessionId` → `contextId`, tasks sent whole
//! → messages, `authentication.schemes` → `securitySchemes`). The table in [`super`] says what each
//! step gains and loses.

use serde_json::{Map, Value, json};

use crate::bridge::{BridgeError, BridgeErrorKind};

type Object = Map<String, Value>;

/// Copies `key` from `from` to `to` when present (renamed to `as_key`).
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

/// Runs `convert` on each item of the list `from[key]`, into `to[key]`; an error names the item.
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

/// A v0.1 message has no id, which v0.2 requires: one derived from the message's content (FNV-1a of
/// its JSON, empty `metadata` objects left out, as the trip to v1 drops them), so the same v0.1
/// message always gets the same id, before and after a trip.
pub(super) fn derived_message_id(message: &Value) -> String {
    fn without_empty_metadata(value: &Value) -> Value {
        match value {
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .filter(|(k, v)| {
                        !(*k == "metadata" && v.as_object().is_some_and(Map::is_empty))
                    })
                    .map(|(k, v)| (k.clone(), without_empty_metadata(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(without_empty_metadata).collect()),
            other => other.clone(),
        }
    }
    let text = serde_json::to_string(&without_empty_metadata(message)).expect("JSON is text");
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{}{hash:016x}", super::V0_1_MESSAGE_ID_PREFIX)
}

pub(super) fn part(v0_1: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert("kind".into(), v0_1["type"].clone());
    copy_all(&mut out, v0_1, &["text", "data", "metadata"]);
    if let Some(file) = v0_1.get("file") {
        out.insert("file".into(), file_content(file).map_err(|e| e.at("file"))?);
    }
    Ok(Value::Object(out))
}

/// v0.1's one file object with optional `bytes` and `uri` (exactly one, its schema says) as v0.2's
/// `FileWithBytes` or `FileWithUri`.
pub(super) fn file_content(v0_1: &Value) -> Result<Value, BridgeError> {
    let (bytes, uri) = (v0_1.get("bytes"), v0_1.get("uri"));
    if bytes.is_some() == uri.is_some() {
        return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: "FileContent".into(),
            reason: "a v0.1 file with both `bytes` and `uri`, or neither, has no v0.2 form (v0.1 allows exactly one)",
        }));
    }
    let mut out = Object::new();
    copy_all(&mut out, v0_1, &["name", "mimeType", "bytes", "uri"]);
    Ok(Value::Object(out))
}

/// A message; `task_id` and `context_id` are the task's and session's it belongs to, where known.
pub(super) fn message(
    v0_1: &Value,
    task_id: Option<&Value>,
    context_id: Option<&Value>,
) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert("kind".into(), json!("message"));
    out.insert("messageId".into(), json!(derived_message_id(v0_1)));
    copy_all(&mut out, v0_1, &["role", "metadata"]);
    each(&mut out, v0_1, "parts", |_, p| part(p))?;
    if let Some(task_id) = task_id {
        out.insert("taskId".into(), task_id.clone());
    }
    if let Some(context_id) = context_id {
        out.insert("contextId".into(), context_id.clone());
    }
    Ok(Value::Object(out))
}

/// An artifact at `position` in its list: its `index` (else its position) becomes its id.
pub(super) fn artifact(v0_1: &Value, position: usize) -> Result<Value, BridgeError> {
    let index = v0_1
        .get("index")
        .and_then(Value::as_i64)
        .unwrap_or(position as i64);
    let mut out = Object::new();
    out.insert("artifactId".into(), json!(index.to_string()));
    copy_all(&mut out, v0_1, &["name", "description", "metadata"]);
    each(&mut out, v0_1, "parts", |_, p| part(p))?;
    Ok(Value::Object(out))
}

pub(super) fn status(
    v0_1: &Value,
    task_id: Option<&Value>,
    context_id: Option<&Value>,
) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    copy(&mut out, v0_1, "state", "state");
    if let Some(timestamp) = v0_1.get("timestamp").and_then(Value::as_str) {
        out.insert("timestamp".into(), json!(with_offset(timestamp)));
    }
    if let Some(m) = v0_1.get("message") {
        out.insert(
            "message".into(),
            message(m, task_id, context_id).map_err(|e| e.at("message"))?,
        );
    }
    Ok(Value::Object(out))
}

/// v0.1's sample traffic writes status times without an offset (`2025-04-02T16:59:25.331844`), which
/// v0.2's readers (and v1) refuse: they are read as UTC.
pub(super) fn with_offset(timestamp: &str) -> String {
    let time = timestamp
        .split_once(['T', 't'])
        .map_or("", |(_, time)| time);
    let has_offset = time.ends_with(['Z', 'z']) || time.contains(['+', '-']);
    if has_offset || time.is_empty() {
        timestamp.to_owned()
    } else {
        format!("{timestamp}Z")
    }
}

pub(super) fn task(v0_1: &Value) -> Result<Value, BridgeError> {
    let (id, session) = (v0_1.get("id"), v0_1.get("sessionId"));
    let mut out = Object::new();
    out.insert("kind".into(), json!("task"));
    copy_all(&mut out, v0_1, &["id", "metadata"]);
    out.insert(
        "contextId".into(),
        session.cloned().unwrap_or_else(|| json!("")),
    );
    out.insert(
        "status".into(),
        status(&v0_1["status"], id, session).map_err(|e| e.at("status"))?,
    );
    each(&mut out, v0_1, "artifacts", |position, a| {
        artifact(a, position)
    })?;
    each(&mut out, v0_1, "history", |_, m| message(m, id, session))?;
    Ok(Value::Object(out))
}

/// A v0.1 update event does not say which session its task is in, and v0.2 (and v1) require one:
/// the task's id stands in.
fn event_context(v0_1: &Value) -> Value {
    v0_1.get("id").cloned().unwrap_or_else(|| json!(""))
}

pub(super) fn status_event(v0_1: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert("kind".into(), json!("status-update"));
    copy(&mut out, v0_1, "id", "taskId");
    out.insert("contextId".into(), event_context(v0_1));
    out.insert(
        "status".into(),
        status(&v0_1["status"], v0_1.get("id"), None).map_err(|e| e.at("status"))?,
    );
    out.insert(
        "final".into(),
        v0_1.get("final").cloned().unwrap_or(json!(false)),
    );
    copy(&mut out, v0_1, "metadata", "metadata");
    Ok(Value::Object(out))
}

pub(super) fn artifact_event(v0_1: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert("kind".into(), json!("artifact-update"));
    copy(&mut out, v0_1, "id", "taskId");
    out.insert("contextId".into(), event_context(v0_1));
    let artifact_v0_1 = &v0_1["artifact"];
    out.insert(
        "artifact".into(),
        artifact(artifact_v0_1, 0).map_err(|e| e.at("artifact"))?,
    );
    copy_all(&mut out, artifact_v0_1, &["append", "lastChunk"]);
    copy(&mut out, v0_1, "metadata", "metadata");
    Ok(Value::Object(out))
}

pub(super) fn push_config(v0_1: &Value) -> Value {
    let mut out = Object::new();
    copy_all(&mut out, v0_1, &["url", "token"]);
    if let Some(auth) = v0_1.get("authentication") {
        out.insert("authentication".into(), authentication(auth));
    }
    Value::Object(out)
}

/// Push authentication: `schemes` and `credentials`; v0.1's further members are lost.
pub(super) fn authentication(v0_1: &Value) -> Value {
    let mut out = Object::new();
    copy_all(&mut out, v0_1, &["schemes", "credentials"]);
    Value::Object(out)
}

pub(super) fn task_push_config(v0_1: &Value) -> Value {
    let mut out = Object::new();
    copy(&mut out, v0_1, "id", "taskId");
    out.insert(
        "pushNotificationConfig".into(),
        push_config(&v0_1["pushNotificationConfig"]),
    );
    Value::Object(out)
}

/// `tasks/send` params as `message/send` params: the task and session the client named go on the
/// message; history length and push config into the configuration.
pub(super) fn send_params(v0_1: &Value) -> Result<Value, BridgeError> {
    let mut out = Object::new();
    out.insert(
        "message".into(),
        message(&v0_1["message"], v0_1.get("id"), v0_1.get("sessionId"))
            .map_err(|e| e.at("message"))?,
    );
    let mut configuration = Object::new();
    copy(&mut configuration, v0_1, "historyLength", "historyLength");
    if let Some(push) = v0_1.get("pushNotification") {
        configuration.insert("pushNotificationConfig".into(), push_config(push));
    }
    if !configuration.is_empty() {
        configuration.insert("acceptedOutputModes".into(), json!([]));
        out.insert("configuration".into(), Value::Object(configuration));
    }
    copy(&mut out, v0_1, "metadata", "metadata");
    Ok(Value::Object(out))
}

pub(super) fn skill(v0_1: &Value) -> Value {
    let mut out = Object::new();
    copy_all(
        &mut out,
        v0_1,
        &["id", "name", "examples", "inputModes", "outputModes"],
    );
    out.insert(
        "description".into(),
        v0_1.get("description").cloned().unwrap_or(json!("")),
    );
    out.insert(
        "tags".into(),
        v0_1.get("tags").cloned().unwrap_or(json!([])),
    );
    Value::Object(out)
}

/// The card: `authentication.schemes` become HTTP authentication schemes named by themselves (any one
/// of them will do); v0.2's required members v0.1 may leave out get v0.1's defaults (`["text"]`) or
/// empty values.
pub(super) fn card(v0_1: &Value) -> Value {
    let mut out = Object::new();
    copy_all(
        &mut out,
        v0_1,
        &["name", "url", "version", "documentationUrl", "capabilities"],
    );
    out.insert(
        "description".into(),
        v0_1.get("description").cloned().unwrap_or(json!("")),
    );
    if let Some(provider) = v0_1.get("provider") {
        let mut p = Object::new();
        copy(&mut p, provider, "organization", "organization");
        p.insert(
            "url".into(),
            provider.get("url").cloned().unwrap_or(json!("")),
        );
        out.insert("provider".into(), Value::Object(p));
    }
    for modes in ["defaultInputModes", "defaultOutputModes"] {
        out.insert(
            modes.into(),
            v0_1.get(modes).cloned().unwrap_or(json!(["text"])),
        );
    }
    if let Some(schemes) = v0_1
        .pointer("/authentication/schemes")
        .and_then(Value::as_array)
    {
        // A scheme named twice is one scheme.
        let mut names: Vec<&str> = Vec::new();
        for name in schemes.iter().filter_map(Value::as_str) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let security_schemes: Object = names
            .iter()
            .map(|name| ((*name).to_owned(), json!({"type": "http", "scheme": name})))
            .collect();
        out.insert("securitySchemes".into(), Value::Object(security_schemes));
        out.insert(
            "security".into(),
            Value::Array(names.iter().map(|name| json!({ *name: [] })).collect()),
        );
    }
    let skills = v0_1["skills"].as_array().cloned().unwrap_or_default();
    out.insert(
        "skills".into(),
        Value::Array(skills.iter().map(skill).collect()),
    );
    Value::Object(out)
}
