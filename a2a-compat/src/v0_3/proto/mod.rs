//! Conversions between the v0.3 JSON-RPC types of this module and the v0.3 protobuf types of
//! [`a2a_proto::v0_3`] (package `a2a.v1`, the v0.3 gRPC binding); features `v0_3` and `proto`.
//!
//! The behaviour is the official Python SDK's (`a2a.compat.v0_3.proto_utils`, with the request messages
//! built as its gRPC client and server build them), decision for decision, so a Rust peer and a deployed
//! Python v0.3 agent put the same protobuf on the wire and read the same JSON-RPC value back from it,
//! including where that is lossy or surprising (see [What does not survive](#what-does-not-survive)).
//!
//! ```
//! use a2a_proto::v0_3 as pb;
//! use a2a_compat::v0_3::{Message, Task, TaskState};
//!
//! let task: Task = serde_json::from_value(serde_json::json!({
//!     "kind": "task", "id": "task-7f3a", "contextId": "ctx-lisbon",
//!     "status": {"state": "canceled", "timestamp": "2026-04-01T09:30:00+02:00"}
//! })).unwrap();
//! let proto = pb::Task::try_from(task).unwrap();
//! assert_eq!(proto.status.as_ref().unwrap().state(), pb::TaskState::Cancelled);
//!
//! let back = Task::try_from(proto).unwrap();
//! assert_eq!(back.status.state, TaskState::Canceled);
//! // The SDK writes timestamps in UTC, and answers with empty lists and metadata it was not given.
//! assert_eq!(back.status.timestamp.as_deref(), Some("2026-04-01T07:30:00Z"));
//! assert_eq!(back.history, Some(Vec::<Message>::new()));
//! ```
//!
//! # The pairs
//!
//! Each conversion is a `From` where nothing can go wrong and a `TryFrom` with
//! [`ConversionError`] otherwise. An error's [`path`](ConversionError::path) names the field of the
//! *input* at fault, in that input's JSON names: JSON-RPC names (`status.timestamp`,
//! `securitySchemes["corp"].flows`) when converting to protobuf, ProtoJSON names of `a2a.v1`
//! (`status.message.content[0].file.fileWithBytes`, `name`) when converting from it.
//!
//! | `a2a.v1` message | JSON-RPC form (Rust type) | to proto | from proto |
//! |---|---|---|---|
//! | `Task` | [`Task`] | `TryFrom` (timestamp) | `TryFrom` |
//! | `TaskStatus` | [`TaskStatus`] | `TryFrom` (timestamp) | `TryFrom` |
//! | `TaskState` (enum) | [`TaskState`] | `From` | `From` |
//! | `Role` (enum) | [`MessageRole`] | `From` | `From` |
//! | `Message` | [`Message`] | `From` | `TryFrom` |
//! | `Part` | [`Part`] | `From` | `TryFrom` |
//! | `FilePart` | [`FileContent`] (`FilePart.file`) | `From` | `TryFrom` |
//! | `DataPart` | [`JsonObject`] (`DataPart.data`) | [`data_to_proto`] | [`data_from_proto`] |
//! | `Artifact` | [`Artifact`] | `From` | `TryFrom` |
//! | `TaskStatusUpdateEvent` | [`TaskStatusUpdateEvent`] | `TryFrom` | `TryFrom` |
//! | `TaskArtifactUpdateEvent` | [`TaskArtifactUpdateEvent`] | `From` | `TryFrom` |
//! | `PushNotificationConfig` | [`PushNotificationConfig`] | `From` | `From` |
//! | `AuthenticationInfo` | [`PushNotificationAuthenticationInfo`] | `From` | `From` |
//! | `TaskPushNotificationConfig` | [`TaskPushNotificationConfig`] | `From` | `TryFrom` (resource name) |
//! | `AgentCard` | [`AgentCard`] | `TryFrom` (OAuth flows) | `TryFrom` |
//! | `AgentCapabilities`, `AgentExtension`, `AgentCardSignature` | the same names | `From` | `TryFrom` |
//! | `AgentProvider`, `AgentInterface`, `AgentSkill` | the same names | `From` | `From` |
//! | `Security`, `StringList` | a security requirement, `BTreeMap<String, Vec<String>>` (`AgentCard.security[]`), and its scope list | [`security_to_proto`] | [`security_from_proto`] |
//! | `SecurityScheme` and its five members | [`SecurityScheme`] and its five variants | `TryFrom` for OAuth2, `From` for the rest | `TryFrom` for API key, `From` for the rest |
//! | `OAuthFlows` | [`OAuthFlows`] | `TryFrom` (no flow) | `From` |
//! | the four OAuth flows | the same names | `From` | `From` |
//! | `SendMessageConfiguration` | [`MessageSendConfiguration`] | `TryFrom` (`historyLength` beyond int32) | `From` |
//! | `SendMessageRequest` | [`MessageSendParams`] | `TryFrom` | `TryFrom` |
//! | `GetTaskRequest` | [`TaskQueryParams`] | `TryFrom` | `TryFrom` |
//! | `CancelTaskRequest`, `TaskSubscriptionRequest` | [`TaskIdParams`] | `From` | `TryFrom` |
//! | `GetTaskPushNotificationConfigRequest` | [`GetTaskPushNotificationConfigParams`] (also from [`GetTaskPushNotificationConfigRequestParams`]; also to [`TaskIdParams`], as the SDK's `task_id_params` does) | `From` | `TryFrom` |
//! | `DeleteTaskPushNotificationConfigRequest` | [`DeleteTaskPushNotificationConfigParams`] | `From` | `TryFrom` |
//! | `ListTaskPushNotificationConfigRequest` | [`ListTaskPushNotificationConfigParams`] | `From` | `TryFrom` |
//! | `CreateTaskPushNotificationConfigRequest` | [`TaskPushNotificationConfig`] (the params of `tasks/pushNotificationConfig/set`) | `From` | `TryFrom` |
//! | `SendMessageResponse` | [`SendMessageResult`] (`SendMessageSuccessResponse.result`) | `TryFrom` | `TryFrom` |
//! | `StreamResponse` | [`SendStreamingMessageResult`] (`SendStreamingMessageSuccessResponse.result`) | `TryFrom` | `TryFrom` |
//! | `ListTaskPushNotificationConfigResponse` | [`ListTaskPushNotificationConfigSuccessResponse`] | `From` | `TryFrom` |
//!
//! One JSON-RPC type, two messages: [`TaskIdParams`] is the params of both `tasks/cancel` and
//! `tasks/resubscribe`, and [`TaskPushNotificationConfig`] is both a stored config and the params of
//! `tasks/pushNotificationConfig/set`. Each pairing is its own `From`/`TryFrom` impl, so the type you
//! convert to picks the message:
//!
//! ```
//! use a2a_proto::v0_3 as pb;
//! use a2a_compat::v0_3::TaskIdParams;
//!
//! let params = TaskIdParams { id: "task-7f3a".into(), metadata: None };
//! let cancel = pb::CancelTaskRequest::try_from(params.clone()).unwrap();
//! let resubscribe = pb::TaskSubscriptionRequest::try_from(params).unwrap();
//! assert_eq!(cancel.name, "tasks/task-7f3a");
//! assert_eq!(TaskIdParams::try_from(resubscribe).unwrap().id, "task-7f3a");
//! ```
//!
//! `a2a.v1.GetAgentCardRequest` has no JSON-RPC counterpart: `agent/getAuthenticatedExtendedCard` takes
//! no params, and the message is empty. Every other `a2a.v1` message has one; [`PROTO_PAIRS`] lists
//! them for tools, and [`jsonrpc_to_proto`] / [`proto_to_jsonrpc`] convert by name at run time.
//!
//! # What does not survive
//!
//! "JSON → proto" is the conversion to protobuf, "proto → JSON" the one back; "round trip" is JSON →
//! proto → JSON. Every row is what the Python SDK does too.
//!
//! | where | direction | what happens |
//! |---|---|---|
//! | `Message.referenceTaskIds` | JSON → proto | dropped: the message has no such field |
//! | `kind`, `type` (constant members) | JSON → proto | not carried; written again on the way back |
//! | `AgentCapabilities.stateTransitionHistory` | JSON → proto | dropped: no such field |
//! | `metadata` of `TaskIdParams`, `TaskQueryParams`, the push-config params | JSON → proto | dropped: the requests carry only resource names |
//! | `MessageSendParams.configuration` absent | round trip | the request always carries a configuration, so it comes back as `{"acceptedOutputModes": [], "blocking": false}` |
//! | `metadata` absent on `Message`, `Task`, `Artifact`, both events, `MessageSendParams` | proto → JSON | `{}` |
//! | `metadata` `{}` on a `Part` | round trip | absent (a part's empty metadata reads as none) |
//! | `Task.artifacts`, `Task.history` absent | proto → JSON | `[]` |
//! | optional strings absent (`Artifact.name`/`description`, `PushNotificationConfig.id`/`token`, `credentials`, `documentationUrl`, an extension's or a security scheme's `description`, `bearerFormat`, a flow's `refreshUrl`) | proto → JSON | `""` |
//! | optional strings `""` (`Message.contextId`/`taskId`, `mimeType`, file `name`, `iconUrl`, `oauth2MetadataUrl`) | round trip | absent |
//! | optional booleans absent (`append`, `lastChunk`, `blocking`, `streaming`, `pushNotifications`, `required`, `supportsAuthenticatedExtendedCard`) | proto → JSON | `false` |
//! | optional lists absent (`acceptedOutputModes`, `capabilities.extensions`, a skill's `examples`/`inputModes`/`outputModes`) | proto → JSON | `[]` |
//! | `extensions`, `security`, `additionalInterfaces`, `signatures` `[]` | round trip | absent |
//! | `securitySchemes` absent | proto → JSON | `{}` |
//! | an extension's `params`, a signature's `header` absent | proto → JSON | `{}` |
//! | `historyLength` `0` | round trip | absent |
//! | `historyLength` beyond int32 | JSON → proto | an error at `historyLength` (the SDK's "Value out of range") |
//! | `TaskStatus.timestamp` | round trip | normalized to UTC with `Z` and 0, 3, 6 or 9 fraction digits; parsed like protobuf-python's `Timestamp.FromJsonString` (see below); `""` is absent |
//! | `TaskState` `unknown` | JSON → proto | `TASK_STATE_UNSPECIFIED`; back, that and any number the enum lacks read as `unknown` |
//! | `Role` unspecified or an unknown number | proto → JSON | `agent` |
//! | `FileWithBytes.bytes` | JSON → proto | not decoded: `fileWithBytes` holds the UTF-8 text of the base64 string (what deployed v0.3 Python agents send and expect); back, bytes that are strictly base64 text are kept as that text, and any others (the JS SDK puts the content itself there) are encoded ([`file_bytes_as_base64`]) |
//! | a `FilePart` with neither member | proto → JSON | `{"bytes": ""}` |
//! | `OAuthFlows` with several flows | JSON → proto | only the first of `authorizationCode`, `clientCredentials`, `implicit`, `password` is kept; none at all is an error |
//! | `OAuthFlows` with no flow | proto → JSON | an empty `password` flow |
//! | a `SecurityScheme` with no member | proto → JSON | an empty `openIdConnect` scheme |
//! | `APIKeySecurityScheme.location` | proto → JSON | must be `cookie`, `header` or `query`, else an error |
//! | `TaskPushNotificationConfig` without `pushNotificationConfig.id` | JSON → proto | the name ends in `/pushNotificationConfigs/None` (Python's `None`); the config's `id` comes back as `""` |
//! | `GetTaskPushNotificationConfigParams` without `pushNotificationConfigId` | JSON → proto | the name ends in `/pushNotificationConfigs/`, which the reverse rejects |
//! | resource names (`tasks/{id}`, `tasks/{id}/pushNotificationConfigs/{config}`) | proto → JSON | matched at the start only, as the SDK's regular expressions do: `tasks/a/b` reads as task `a`; a task id holding `/` does not survive |
//! | `CreateTaskPushNotificationConfigRequest.configId`, `config.name` | proto → JSON | ignored: the task comes from `parent`, the id from the embedded config |
//! | `ListTaskPushNotificationConfigRequest.pageSize`, `pageToken`; the response's `nextPageToken` | both | ignored / empty |
//! | `ListTaskPushNotificationConfigSuccessResponse.id` | both | not carried; `null` back |
//! | a missing `status`, `artifact`, `request`, `config` or `pushNotificationConfig` message | proto → JSON | its defaults (empty strings, `unknown` state), never an error |
//! | `SendMessageResponse` with no payload | proto → JSON | an empty task (`"id": ""`, state `unknown`) |
//! | `StreamResponse` with no payload, a `Part` with no content | proto → JSON | an error |
//! | numbers in `data`, `metadata`, `params`, `header` | JSON → proto | doubles (`google.protobuf.Value`): exact up to 2^53; the SDK writes integral ones back as `1.0`, this crate as `1` (the same number) |
//!
//! Timestamps are read as `Timestamp.FromJsonString` reads them after the SDK's `+00:00` → `Z`
//! replacement: `YYYY-MM-DDTHH:MM:SS` (one-digit month, day and time fields accepted, uppercase `T`),
//! an optional fraction of at most nine digits, then `Z` or an offset `±H:MM`; anything else is an error
//! at `timestamp`.

use std::collections::BTreeMap;
use std::fmt;

use a2a_proto::registry::ProtoMessage;
use a2a_proto::v0_3 as pb;
use a2a_proto::wkt;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::sdk_values::{nonempty_list, nonempty_string, parse_timestamp_like_sdk};
use super::*;
use a2a_types::JsonObject;
pub use a2a_types::proto::ConversionError;
use a2a_types::proto::{struct_from_proto, struct_to_proto};

// Split by concern, as `bridge` is: the conversions of each group of messages, then the by-name table.
mod by_name;
mod card;
mod methods;
mod objects;
mod push;

pub use by_name::{
    NO_JSONRPC_COUNTERPART, PROTO_PAIRS, ProtoPair, TranscodeError, jsonrpc_schema_type,
    jsonrpc_to_proto, proto_to_jsonrpc,
};
pub use card::{SecurityRequirement, security_from_proto, security_to_proto};
pub use objects::{data_from_proto, data_to_proto, file_bytes_as_base64};

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

/// Converts every element, naming the index of the first that fails.
fn try_list<T, U>(
    items: Vec<T>,
    field: &str,
    convert: impl Fn(T) -> Result<U, ConversionError>,
) -> Result<Vec<U>, ConversionError> {
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| convert(item).map_err(|e| e.at_index(field, index)))
        .collect()
}

/// Converts every value, naming the key of the first that fails.
fn try_map<T, U>(
    entries: BTreeMap<String, T>,
    field: &str,
    convert: impl Fn(T) -> Result<U, ConversionError>,
) -> Result<BTreeMap<String, U>, ConversionError> {
    entries
        .into_iter()
        .map(|(key, value)| match convert(value) {
            Ok(value) => Ok((key, value)),
            Err(e) => Err(e.at_key(field, &key)),
        })
        .collect()
}

/// Metadata of everything but a part: the SDK answers `{}` when the proto has none.
fn metadata_from_proto(
    metadata: Option<wkt::Struct>,
    field: &str,
) -> Result<JsonObject, ConversionError> {
    struct_from_proto(metadata.unwrap_or_default()).map_err(|e| e.at(field))
}

/// A part's metadata: absent when the proto's is absent or empty.
fn part_metadata_from_proto(
    metadata: Option<wkt::Struct>,
) -> Result<Option<JsonObject>, ConversionError> {
    match metadata {
        Some(object) if !object.fields.is_empty() => struct_from_proto(object)
            .map(Some)
            .map_err(|e| e.at("metadata")),
        _ => Ok(None),
    }
}

/// An int32 field from a JSON-RPC integer, which protobuf-python refuses beyond the int32 range.
fn int32(value: i64, field: &str) -> Result<i32, ConversionError> {
    i32::try_from(value).map_err(|_| {
        ConversionError::new(format!(
            "{value} is out of range for the protobuf int32 field"
        ))
        .at(field)
    })
}

/// `tasks/{id}`, as the request messages name a task. An empty id would be read back (by us and by the
/// SDK's server, `tasks/([^/]+)`) as no task at all, so it is refused here; `field` is the JSON-RPC
/// member the id came from. (An id holding a `/` is written, and read back cut at the `/`, as the SDK
/// does: a documented loss.)
fn task_name(task_id: &str, field: &str) -> Result<String, ConversionError> {
    check_task_id(task_id, field)?;
    Ok(format!("tasks/{task_id}"))
}

/// `tasks/{id}/pushNotificationConfigs/{config_id}`. The task id is checked as in [`task_name`]; the
/// config id may be empty (the form the SDK's client writes for "no config id").
fn push_config_name(
    task_id: &str,
    task_field: &str,
    config_id: &str,
) -> Result<String, ConversionError> {
    check_task_id(task_id, task_field)?;
    Ok(format!(
        "tasks/{task_id}/pushNotificationConfigs/{config_id}"
    ))
}

fn check_task_id(id: &str, field: &str) -> Result<(), ConversionError> {
    if id.is_empty() {
        return Err(ConversionError::new(
            "an empty task id has no resource name (`tasks/{id}` needs one)".to_owned(),
        )
        .at(field));
    }
    Ok(())
}

/// The run of characters up to the next `/`, when it is not empty, and the rest.
fn segment(text: &str) -> Option<(&str, &str)> {
    let end = text.find('/').unwrap_or(text.len());
    (end > 0).then(|| text.split_at(end))
}

/// The task id of a name that starts with `tasks/{id}` (the SDK's `re.match(r'tasks/([^/]+)')`).
fn task_id_from_name(name: &str) -> Option<&str> {
    segment(name.strip_prefix("tasks/")?).map(|(id, _)| id)
}

/// The task and config ids of a name that starts with `tasks/{id}/pushNotificationConfigs/{config}`.
fn push_config_ids_from_name(name: &str) -> Option<(&str, &str)> {
    let (task_id, rest) = segment(name.strip_prefix("tasks/")?)?;
    let (config_id, _) = segment(rest.strip_prefix("/pushNotificationConfigs/")?)?;
    Some((task_id, config_id))
}

fn task_id_field(name: &str, field: &str) -> Result<String, ConversionError> {
    task_id_from_name(name).map(str::to_owned).ok_or_else(|| {
        ConversionError::new(format!("no task in {name:?}: expected `tasks/{{id}}`")).at(field)
    })
}

fn push_config_ids_field(name: &str, field: &str) -> Result<(String, String), ConversionError> {
    push_config_ids_from_name(name)
        .map(|(task, config)| (task.to_owned(), config.to_owned()))
        .ok_or_else(|| {
            ConversionError::new(format!(
                "bad resource name {name:?}: expected `tasks/{{id}}/pushNotificationConfigs/{{config_id}}`"
            ))
            .at(field)
        })
}

// ---------------------------------------------------------------------------------------------------
// Timestamps
// ---------------------------------------------------------------------------------------------------

/// Reads a `TaskStatus.timestamp` as the SDK does before putting it in a `google.protobuf.Timestamp`
/// (see [`super::sdk_values::parse_timestamp_like_sdk`]).
fn timestamp_to_proto(text: &str) -> Result<wkt::Timestamp, String> {
    parse_timestamp_like_sdk(text).map(a2a_types::proto::timestamp_to_proto)
}

fn timestamp_from_proto(timestamp: wkt::Timestamp) -> Result<String, ConversionError> {
    timestamp
        .to_rfc3339()
        .map_err(|e| ConversionError::new(e.to_string()))
}
