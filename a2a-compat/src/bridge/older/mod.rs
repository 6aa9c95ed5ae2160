//! The bridge down to A2A v0.2 and v0.1 (features `v0_2`, `v0_1`): each step converts between one
//! version and the next, by schema type name on JSON, and the steps chain, so a v0.1 document
//! upgrades to v1 in one call ([`upgrade_json_from`]) and a v1 message downgrades to any older
//! version ([`downgrade_json_to`]).
//!
//! v0.1 → v0.2 → v0.3 → v1, and back. Each step reads its input as the typed value of its version
//! first and its output as the next version's, so every document it writes is valid for that
//! version's types, and an invalid one is an error naming the member at fault. The v0.3 ⇄ v1 step is
//! [`crate::bridge`]'s own, with its table of losses.
//!
//! ```
//! use a2a_compat::bridge::{OlderVersion, downgrade_json_to, upgrade_json_from};
//! use serde_json::json;
//!
//! let task = json!({"id": "t-1", "sessionId": "s-1", "status": {"state": "completed"},
//!                   "artifacts": [{"parts": [{"type": "text", "text": "Why did the chicken cross the road?"}]}]});
//! let (v1_name, v1) = upgrade_json_from(OlderVersion::V0_1, "Task", task.clone()).unwrap();
//! assert_eq!(v1_name, "lf.a2a.v1.Task");
//! assert_eq!(v1["contextId"], "s-1");
//! assert_eq!(v1["status"]["state"], "TASK_STATE_COMPLETED");
//! let (v0_1_name, back) = downgrade_json_to(OlderVersion::V0_1, v1_name, v1).unwrap();
//! assert_eq!((v0_1_name, back), ("Task", task));
//! ```
//!
//! # What does not survive v0.1 ⇄ v0.2
//!
//! | where | v0.1 → v0.2 | v0.2 → v0.1 |
//! |---|---|---|
//! | parts | `type` becomes `kind`; a file's one object with `bytes` or `uri` becomes `FileWithBytes` or `FileWithUri` (both or neither: an error) | `kind` becomes `type` |
//! | `Message` | gains a `messageId` derived from its content (`v0.1-` and a 64-bit FNV-1a hash of its JSON without empty `metadata`: the same message, the same id; a trip that drops other empty values, such as `mimeType: ""`, changes it), and the `taskId` / `contextId` of the task it is in or sent to | `messageId`, `taskId`, `contextId`, `referenceTaskIds`, `extensions` are lost |
//! | `Task` | `sessionId` becomes `contextId` (`""` when absent, which comes back absent) | `contextId` becomes `sessionId`; `""` becomes absent |
//! | `TaskState` | lossless (v0.1's seven states are v0.2's, spelled alike) | `rejected` becomes `failed`, `auth-required` becomes `input-required` |
//! | `Artifact` | `index` (else its position in the task's list, else 0) becomes `artifactId` as decimal text; `append` and `lastChunk` move to the update event | an `artifactId` that is a number becomes `index` (left out in a task's list where it equals the position); another id is lost (a task's artifact then has no index, an event's gets 0); `extensions` lost |
//! | `TaskStatus.timestamp` | a time without an offset (as v0.1's sample traffic writes them) is read as UTC: `Z` is added | kept |
//! | update events | `id` becomes `taskId`; `contextId` is the task's id (v0.1 events do not name the session, and later versions require one); `final` absent becomes `false` | `contextId` lost; `final` always written |
//! | streamed results | — | a `Task` becomes the status update of its status (`final: false`; its artifacts and history are not sent); a `Message` has no v0.1 form: an error |
//! | `tasks/send` params | the task `id` and `sessionId` the client names go onto the message (`taskId`, `contextId`); `historyLength` and `pushNotification` go into `configuration` (with `acceptedOutputModes: []`) | the message's `taskId` (required: a v0.1 client names its task; without one, an error) and `contextId` come back; `acceptedOutputModes` and `blocking` are lost |
//! | `tasks/resubscribe` params | `historyLength` lost (v0.2 sends task id params) | — |
//! | `tasks/pushNotification/get` params | — | a `pushNotificationConfigId` is lost |
//! | push config | `authentication`'s members beyond `schemes` and `credentials` are lost | `id` lost |
//! | `AgentCard` | `authentication.schemes` become HTTP `securitySchemes` named by themselves, any one of which will do (`security`; a name given twice is one scheme); `authentication.credentials` lost; absent `defaultInputModes` / `defaultOutputModes` become `["text"]` (v0.1's default); absent `description`, provider `url`, skill `description` and `tags` become `""` / `[]`; `protocolVersion` is v0.2's default | `securitySchemes` become `authentication.schemes` (an HTTP scheme by its `scheme`, any other by its name); their order is not kept: two schemes may come back in the order of their names; `security`, `protocolVersion`, `preferredTransport`, `additionalInterfaces`, `iconUrl`, `supportsAuthenticatedExtendedCard`, `capabilities.extensions` are lost; empty `description`, provider `url`, skill `description` and `tags` become absent |
//! | envelopes | a request without an `id` (a notification) is an error; a response with neither `result` nor `error` is an error; a missing response `id` becomes `null` | `listTaskPushNotificationConfig`, `deleteTaskPushNotificationConfig` have no v0.1 method: an error; a `null` id is left out |
//! | errors | carried as `JSONRPCError` (code, message, data) | the same |
//!
//! # What does not survive v0.2 ⇄ v0.3
//!
//! v0.3 is v0.2 plus: card `signatures`, `AgentSkill.security`, `OAuth2SecurityScheme.oauth2MetadataUrl`
//! (lost going down), the mutual TLS scheme, the extended card method and its error (an error going
//! down, naming where they are). Up, nothing is lost: every v0.2 document is a v0.3 document of the
//! same type. A v0.2 card keeps its `protocolVersion` (such as `0.2.5`), so [`downgrade_json_to`] of
//! a v1 card made from it picks its interfaces as the v0.3 step does, reading 0.1 and 0.2 interfaces as
//! v0.3 ones.

use serde_json::Value;

mod typed;
mod v0_1;
mod v0_1_down;
mod v0_1_up;
mod v0_2;

use super::{BridgeError, downgrade_json, upgrade_json};

/// How the id of every message the bridge upgrades from v0.1 begins (v0.1 messages have no id; the
/// bridge derives one from the content): a server can tell that a message came from a v0.1 client.
pub const V0_1_MESSAGE_ID_PREFIX: &str = "v0.1-";

/// A protocol version before v1 that the bridge converts from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OlderVersion {
    V0_1,
    V0_2,
    V0_3,
}

impl OlderVersion {
    /// The version as written on the command line and in cards: `0.1`, `0.2`, `0.3`.
    pub fn as_str(self) -> &'static str {
        match self {
            OlderVersion::V0_1 => "0.1",
            OlderVersion::V0_2 => "0.2",
            OlderVersion::V0_3 => "0.3",
        }
    }

    /// `0.1`, `0.2`, `0.3`, or a full version of one of them (`0.2.6`, `0.1.0`).
    pub fn parse(version: &str) -> Option<Self> {
        let mut numbers = version.trim().trim_start_matches('v').split('.');
        match (numbers.next(), numbers.next()) {
            (Some("0"), Some("1")) => Some(OlderVersion::V0_1),
            (Some("0"), Some("2")) => Some(OlderVersion::V0_2),
            (Some("0"), Some("3")) => Some(OlderVersion::V0_3),
            _ => None,
        }
    }

    /// The names of every definition of this version's JSON Schema.
    pub fn schema_types(self) -> &'static [&'static str] {
        match self {
            OlderVersion::V0_1 => crate::v0_1::SCHEMA_TYPES,
            OlderVersion::V0_2 => crate::v0_2::SCHEMA_TYPES,
            OlderVersion::V0_3 => crate::v0_3::SCHEMA_TYPES,
        }
    }

    /// The version a JSON document of `schema_type` is written in, told by the members only one
    /// version writes: v0.1's `tasks/send`-style methods, `sessionId` and parts with `type`;
    /// `kind` and `contextId` otherwise, v0.3 where v0.2 cannot tell (every v0.2 document is also a
    /// v0.3 one, so v0.2 is never detected: name it). `None` when the type is none of the versions'.
    pub fn detect(schema_type: &str, json: &Value) -> Option<Self> {
        let v0_1_only = !crate::v0_2::SCHEMA_TYPES.contains(&schema_type);
        if v0_1_only && crate::v0_1::SCHEMA_TYPES.contains(&schema_type) {
            return Some(OlderVersion::V0_1);
        }
        if !crate::v0_3::SCHEMA_TYPES.contains(&schema_type) {
            return None;
        }
        let text = json.to_string();
        let v0_1_marks = [
            "\"sessionId\"",
            "\"tasks/send\"",
            "\"tasks/sendSubscribe\"",
            "\"tasks/pushNotification/",
            "\"type\":\"text\"",
            "\"type\":\"file\"",
            "\"type\":\"data\"",
            "\"authentication\":{\"schemes\"",
        ];
        let card_v0_1 = schema_type == "AgentCard"
            && json.get("authentication").is_some()
            && json.get("protocolVersion").is_none();
        if card_v0_1 || v0_1_marks.iter().any(|mark| text.contains(mark)) {
            Some(OlderVersion::V0_1)
        } else {
            Some(OlderVersion::V0_3)
        }
    }
}

/// Converts JSON of the schema type `schema_type` of `version` to v0.3 JSON (the steps before v0.3
/// only), returning the v0.3 type's name with it: what a server that answers v0.3 clients needs to
/// answer older ones (a v0.1 `SendTaskRequest` becomes a v0.3 `SendMessageRequest`). v0.3 JSON is
/// read as its type and written back.
pub fn upgrade_json_to_v0_3(
    version: OlderVersion,
    schema_type: &str,
    json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    let (name, json) = match version {
        OlderVersion::V0_3 => {
            let name = v0_2::static_name(crate::v0_3::SCHEMA_TYPES, schema_type)?;
            return Ok((name, typed::v0_3(name, json)?));
        }
        OlderVersion::V0_2 => (schema_type, json),
        OlderVersion::V0_1 => v0_1::upgrade(schema_type, json)?,
    };
    v0_2::upgrade(name, json)
}

/// Converts v0.3 JSON of the schema type `v0_3_type` to JSON of `version` (the steps below v0.3
/// only), returning the name of the schema type written: a v0.3 `GetTaskResponse` becomes a v0.1
/// `GetTaskResponse` with `sessionId` and `type` parts.
pub fn downgrade_json_from_v0_3(
    version: OlderVersion,
    v0_3_type: &str,
    json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    if version == OlderVersion::V0_3 {
        let name = v0_2::static_name(crate::v0_3::SCHEMA_TYPES, v0_3_type)?;
        return Ok((name, typed::v0_3(name, json)?));
    }
    let (name, v0_2) = v0_2::downgrade(v0_3_type, json)?;
    match version {
        OlderVersion::V0_1 => v0_1::downgrade(name, v0_2),
        _ => Ok((name, v0_2)),
    }
}

/// Converts JSON of the schema type `schema_type` of `version` to v1 ProtoJSON, step by step through
/// the versions in between, returning the v1 message's full name with it.
pub fn upgrade_json_from(
    version: OlderVersion,
    schema_type: &str,
    json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    let (name, json) = match version {
        OlderVersion::V0_3 => return upgrade_json(schema_type, json),
        OlderVersion::V0_2 => (schema_type, json),
        OlderVersion::V0_1 => v0_1::upgrade(schema_type, json)?,
    };
    let (name, v0_3) = v0_2::upgrade(name, json)?;
    upgrade_json(name, v0_3)
}

/// Converts v1 ProtoJSON of the message `v1_full_name` to JSON of `version`, step by step, returning
/// the name of the schema type written.
pub fn downgrade_json_to(
    version: OlderVersion,
    v1_full_name: &str,
    json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    if version == OlderVersion::V0_3 {
        return downgrade_json(v1_full_name, json);
    }
    let card_versions = (v1_full_name == "lf.a2a.v1.AgentCard").then(|| older_interfaces(&json));
    let json = match &card_versions {
        Some((relabelled, _)) => relabelled.clone(),
        None => json,
    };
    let (name, mut v0_3) = downgrade_json(v1_full_name, json)?;
    if let Some((_, Some(original))) = card_versions {
        v0_3["protocolVersion"] = Value::from(original);
    }
    let (name, v0_2) = v0_2::downgrade(name, v0_3)?;
    match version {
        OlderVersion::V0_1 => v0_1::downgrade(name, v0_2),
        _ => Ok((name, v0_2)),
    }
}

/// A v1 card whose 0.1 and 0.2 interfaces are labelled 0.3, so the v0.3 step keeps them (it keeps
/// only 0.3 interfaces), with the first one's own version, to put back on the card.
fn older_interfaces(card: &Value) -> (Value, Option<String>) {
    let mut relabelled = card.clone();
    let mut first = None;
    if let Some(interfaces) = relabelled
        .get_mut("supportedInterfaces")
        .and_then(Value::as_array_mut)
    {
        for interface in interfaces {
            let version = interface["protocolVersion"].as_str().unwrap_or_default();
            if matches!(
                OlderVersion::parse(version),
                Some(OlderVersion::V0_1 | OlderVersion::V0_2)
            ) {
                first.get_or_insert_with(|| version.to_owned());
                interface["protocolVersion"] = Value::from("0.3");
            }
        }
    }
    (relabelled, first)
}
