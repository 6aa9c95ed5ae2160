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
//! use a2a_types::v0_3::{Message, Task, TaskState};
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
//! use a2a_types::v0_3::TaskIdParams;
//!
//! let params = TaskIdParams { id: "task-7f3a".into(), metadata: None };
//! let cancel = pb::CancelTaskRequest::from(params.clone());
//! let resubscribe = pb::TaskSubscriptionRequest::from(params);
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
//! | `FileWithBytes.bytes` | JSON → proto | not decoded: `fileWithBytes` holds the UTF-8 text of the base64 string (what deployed v0.3 Python agents send and expect); back, bytes that are not UTF-8 are an error |
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

#![cfg(feature = "proto")]

use std::collections::BTreeMap;
use std::fmt;

use a2a_proto::registry::ProtoMessage;
use a2a_proto::v0_3 as pb;
use a2a_proto::wkt;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::sdk_values::{nonempty_list, nonempty_string, parse_timestamp_like_sdk};
use super::*;
use crate::JsonObject;
pub use crate::proto::ConversionError;
use crate::proto::{struct_from_proto, struct_to_proto};

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

/// `tasks/{id}`, as the request messages name a task.
fn task_name(task_id: &str) -> String {
    format!("tasks/{task_id}")
}

/// `tasks/{id}/pushNotificationConfigs/{config_id}`.
fn push_config_name(task_id: &str, config_id: &str) -> String {
    format!("tasks/{task_id}/pushNotificationConfigs/{config_id}")
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
    parse_timestamp_like_sdk(text).map(crate::proto::timestamp_to_proto)
}

fn timestamp_from_proto(timestamp: wkt::Timestamp) -> Result<String, ConversionError> {
    timestamp
        .to_rfc3339()
        .map_err(|e| ConversionError::new(e.to_string()))
}

// ---------------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------------

impl From<TaskState> for pb::TaskState {
    /// `unknown` becomes `TASK_STATE_UNSPECIFIED`; `canceled` is `TASK_STATE_CANCELLED`.
    fn from(state: TaskState) -> Self {
        match state {
            TaskState::Submitted => Self::Submitted,
            TaskState::Working => Self::Working,
            TaskState::InputRequired => Self::InputRequired,
            TaskState::Completed => Self::Completed,
            TaskState::Canceled => Self::Cancelled,
            TaskState::Failed => Self::Failed,
            TaskState::Rejected => Self::Rejected,
            TaskState::AuthRequired => Self::AuthRequired,
            TaskState::Unknown => Self::Unspecified,
        }
    }
}

impl From<pb::TaskState> for TaskState {
    /// `TASK_STATE_UNSPECIFIED` becomes `unknown`.
    fn from(state: pb::TaskState) -> Self {
        match state {
            pb::TaskState::Submitted => Self::Submitted,
            pb::TaskState::Working => Self::Working,
            pb::TaskState::InputRequired => Self::InputRequired,
            pb::TaskState::Completed => Self::Completed,
            pb::TaskState::Cancelled => Self::Canceled,
            pb::TaskState::Failed => Self::Failed,
            pb::TaskState::Rejected => Self::Rejected,
            pb::TaskState::AuthRequired => Self::AuthRequired,
            pb::TaskState::Unspecified => Self::Unknown,
        }
    }
}

/// The state of a wire number: numbers the enum lacks read as `unknown`, as in the SDK.
fn task_state_from_number(number: i32) -> TaskState {
    pb::TaskState::try_from(number).map_or(TaskState::Unknown, TaskState::from)
}

impl From<MessageRole> for pb::Role {
    fn from(role: MessageRole) -> Self {
        match role {
            MessageRole::User => Self::User,
            MessageRole::Agent => Self::Agent,
        }
    }
}

impl From<pb::Role> for MessageRole {
    /// `ROLE_UNSPECIFIED` becomes `agent`, as in the SDK.
    fn from(role: pb::Role) -> Self {
        match role {
            pb::Role::User => Self::User,
            pb::Role::Agent | pb::Role::Unspecified => Self::Agent,
        }
    }
}

/// The role of a wire number: anything but `ROLE_USER` reads as `agent`, as in the SDK.
fn role_from_number(number: i32) -> MessageRole {
    pb::Role::try_from(number).map_or(MessageRole::Agent, MessageRole::from)
}

// ---------------------------------------------------------------------------------------------------
// Parts and messages
// ---------------------------------------------------------------------------------------------------

/// A `DataPart`'s `data` object as the proto's `DataPart` (always present, `{}` included).
pub fn data_to_proto(data: JsonObject) -> pb::DataPart {
    pb::DataPart {
        data: Some(struct_to_proto(data)),
    }
}

/// The `data` object of a proto `DataPart`: `{}` when absent. Errors name the member at fault below
/// `data`.
pub fn data_from_proto(data: pb::DataPart) -> Result<JsonObject, ConversionError> {
    struct_from_proto(data.data.unwrap_or_default()).map_err(|e| e.at("data"))
}

impl From<FileContent> for pb::FilePart {
    /// Bytes are not decoded: `fileWithBytes` holds the UTF-8 text of the base64 string, as the SDK
    /// sends it. Absent `mimeType` and `name` become `""`.
    fn from(file: FileContent) -> Self {
        match file {
            FileContent::Bytes(file) => Self {
                mime_type: file.mime_type.unwrap_or_default(),
                name: file.name.unwrap_or_default(),
                file: Some(pb::file_part::File::FileWithBytes(file.bytes.into_bytes())),
            },
            FileContent::Uri(file) => Self {
                mime_type: file.mime_type.unwrap_or_default(),
                name: file.name.unwrap_or_default(),
                file: Some(pb::file_part::File::FileWithUri(file.uri)),
            },
        }
    }
}

impl TryFrom<pb::FilePart> for FileContent {
    type Error = ConversionError;

    /// `fileWithBytes` must be UTF-8 (it holds base64 text); with neither member the result is
    /// `{"bytes": ""}`. Empty `mimeType` and `name` become absent.
    fn try_from(file: pb::FilePart) -> Result<Self, ConversionError> {
        let mime_type = nonempty_string(file.mime_type);
        let name = nonempty_string(file.name);
        Ok(match file.file {
            Some(pb::file_part::File::FileWithUri(uri)) => FileContent::Uri(FileWithUri {
                mime_type,
                name,
                uri,
            }),
            bytes => {
                let bytes = match bytes {
                    Some(pb::file_part::File::FileWithBytes(bytes)) => bytes,
                    _ => Vec::new(),
                };
                let bytes = String::from_utf8(bytes).map_err(|e| {
                    ConversionError::new(format!(
                        "not UTF-8 ({e}): v0.3 carries the base64 text of the content here"
                    ))
                    .at("fileWithBytes")
                })?;
                FileContent::Bytes(FileWithBytes {
                    bytes,
                    mime_type,
                    name,
                })
            }
        })
    }
}

impl From<Part> for pb::Part {
    fn from(part: Part) -> Self {
        match part {
            Part::Text(part) => Self {
                metadata: part.metadata.map(struct_to_proto),
                part: Some(pb::part::Part::Text(part.text)),
            },
            Part::File(part) => Self {
                metadata: part.metadata.map(struct_to_proto),
                part: Some(pb::part::Part::File(part.file.into())),
            },
            Part::Data(part) => Self {
                metadata: part.metadata.map(struct_to_proto),
                part: Some(pb::part::Part::Data(data_to_proto(part.data))),
            },
        }
    }
}

impl TryFrom<pb::Part> for Part {
    type Error = ConversionError;

    /// A part needs one of `text`, `file` and `data`; empty metadata becomes absent.
    fn try_from(part: pb::Part) -> Result<Self, ConversionError> {
        let metadata = part_metadata_from_proto(part.metadata)?;
        Ok(match part.part {
            Some(pb::part::Part::Text(text)) => Part::Text(TextPart {
                kind: TextPartKind,
                metadata,
                text,
            }),
            Some(pb::part::Part::File(file)) => Part::File(FilePart {
                file: FileContent::try_from(file).map_err(|e| e.at("file"))?,
                kind: FilePartKind,
                metadata,
            }),
            Some(pb::part::Part::Data(data)) => Part::Data(DataPart {
                data: data_from_proto(data).map_err(|e| e.at("data"))?,
                kind: DataPartKind,
                metadata,
            }),
            None => {
                return Err(ConversionError::new(
                    "a Part needs one of `text`, `file` or `data`",
                ));
            }
        })
    }
}

impl From<Message> for pb::Message {
    /// `referenceTaskIds` is dropped (the proto has no such field).
    fn from(message: Message) -> Self {
        Self {
            message_id: message.message_id,
            context_id: message.context_id.unwrap_or_default(),
            task_id: message.task_id.unwrap_or_default(),
            role: pb::Role::from(message.role) as i32,
            content: message.parts.into_iter().map(Into::into).collect(),
            metadata: message.metadata.map(struct_to_proto),
            extensions: message.extensions.unwrap_or_default(),
        }
    }
}

impl TryFrom<pb::Message> for Message {
    type Error = ConversionError;

    /// Empty `contextId`, `taskId` and `extensions` become absent, absent metadata `{}`; a role other
    /// than `ROLE_USER` is `agent`.
    fn try_from(message: pb::Message) -> Result<Self, ConversionError> {
        Ok(Self {
            context_id: nonempty_string(message.context_id),
            extensions: nonempty_list(message.extensions),
            kind: MessageKind,
            message_id: message.message_id,
            metadata: Some(metadata_from_proto(message.metadata, "metadata")?),
            parts: try_list(message.content, "content", Part::try_from)?,
            reference_task_ids: None,
            role: role_from_number(message.role),
            task_id: nonempty_string(message.task_id),
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Tasks, artifacts and events
// ---------------------------------------------------------------------------------------------------

impl TryFrom<TaskStatus> for pb::TaskStatus {
    type Error = ConversionError;

    /// Fails on a `timestamp` protobuf-python cannot read (see the module docs); `""` is absent.
    fn try_from(status: TaskStatus) -> Result<Self, ConversionError> {
        let timestamp = match status.timestamp.as_deref() {
            None | Some("") => None,
            Some(text) => Some(
                timestamp_to_proto(text).map_err(|e| ConversionError::new(e).at("timestamp"))?,
            ),
        };
        Ok(Self {
            state: pb::TaskState::from(status.state) as i32,
            update: status.message.map(Into::into),
            timestamp,
        })
    }
}

impl TryFrom<pb::TaskStatus> for TaskStatus {
    type Error = ConversionError;

    fn try_from(status: pb::TaskStatus) -> Result<Self, ConversionError> {
        Ok(Self {
            message: status
                .update
                .map(Message::try_from)
                .transpose()
                .map_err(|e| e.at("message"))?,
            state: task_state_from_number(status.state),
            timestamp: status
                .timestamp
                .map(timestamp_from_proto)
                .transpose()
                .map_err(|e| e.at("timestamp"))?,
        })
    }
}

impl TryFrom<Task> for pb::Task {
    type Error = ConversionError;

    fn try_from(task: Task) -> Result<Self, ConversionError> {
        Ok(Self {
            id: task.id,
            context_id: task.context_id,
            status: Some(pb::TaskStatus::try_from(task.status).map_err(|e| e.at("status"))?),
            artifacts: task
                .artifacts
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            history: task
                .history
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            metadata: task.metadata.map(struct_to_proto),
        })
    }
}

impl TryFrom<pb::Task> for Task {
    type Error = ConversionError;

    /// `artifacts` and `history` are always lists and `metadata` always an object; a missing `status`
    /// reads as state `unknown`.
    fn try_from(task: pb::Task) -> Result<Self, ConversionError> {
        Ok(Self {
            artifacts: Some(try_list(task.artifacts, "artifacts", Artifact::try_from)?),
            context_id: task.context_id,
            history: Some(try_list(task.history, "history", Message::try_from)?),
            id: task.id,
            kind: TaskKind,
            metadata: Some(metadata_from_proto(task.metadata, "metadata")?),
            status: TaskStatus::try_from(task.status.unwrap_or_default())
                .map_err(|e| e.at("status"))?,
        })
    }
}

impl From<Artifact> for pb::Artifact {
    fn from(artifact: Artifact) -> Self {
        Self {
            artifact_id: artifact.artifact_id,
            name: artifact.name.unwrap_or_default(),
            description: artifact.description.unwrap_or_default(),
            parts: artifact.parts.into_iter().map(Into::into).collect(),
            metadata: artifact.metadata.map(struct_to_proto),
            extensions: artifact.extensions.unwrap_or_default(),
        }
    }
}

impl TryFrom<pb::Artifact> for Artifact {
    type Error = ConversionError;

    /// `name` and `description` are always strings (`""`), `metadata` always an object; empty
    /// `extensions` become absent.
    fn try_from(artifact: pb::Artifact) -> Result<Self, ConversionError> {
        Ok(Self {
            artifact_id: artifact.artifact_id,
            description: Some(artifact.description),
            extensions: nonempty_list(artifact.extensions),
            metadata: Some(metadata_from_proto(artifact.metadata, "metadata")?),
            name: Some(artifact.name),
            parts: try_list(artifact.parts, "parts", Part::try_from)?,
        })
    }
}

impl TryFrom<TaskStatusUpdateEvent> for pb::TaskStatusUpdateEvent {
    type Error = ConversionError;

    fn try_from(event: TaskStatusUpdateEvent) -> Result<Self, ConversionError> {
        Ok(Self {
            task_id: event.task_id,
            context_id: event.context_id,
            status: Some(pb::TaskStatus::try_from(event.status).map_err(|e| e.at("status"))?),
            r#final: event.final_,
            metadata: event.metadata.map(struct_to_proto),
        })
    }
}

impl TryFrom<pb::TaskStatusUpdateEvent> for TaskStatusUpdateEvent {
    type Error = ConversionError;

    fn try_from(event: pb::TaskStatusUpdateEvent) -> Result<Self, ConversionError> {
        Ok(Self {
            context_id: event.context_id,
            final_: event.r#final,
            kind: TaskStatusUpdateEventKind,
            metadata: Some(metadata_from_proto(event.metadata, "metadata")?),
            status: TaskStatus::try_from(event.status.unwrap_or_default())
                .map_err(|e| e.at("status"))?,
            task_id: event.task_id,
        })
    }
}

impl From<TaskArtifactUpdateEvent> for pb::TaskArtifactUpdateEvent {
    fn from(event: TaskArtifactUpdateEvent) -> Self {
        Self {
            task_id: event.task_id,
            context_id: event.context_id,
            artifact: Some(event.artifact.into()),
            append: event.append.unwrap_or(false),
            last_chunk: event.last_chunk.unwrap_or(false),
            metadata: event.metadata.map(struct_to_proto),
        }
    }
}

impl TryFrom<pb::TaskArtifactUpdateEvent> for TaskArtifactUpdateEvent {
    type Error = ConversionError;

    /// `append` and `lastChunk` are always booleans, `metadata` always an object.
    fn try_from(event: pb::TaskArtifactUpdateEvent) -> Result<Self, ConversionError> {
        Ok(Self {
            append: Some(event.append),
            artifact: Artifact::try_from(event.artifact.unwrap_or_default())
                .map_err(|e| e.at("artifact"))?,
            context_id: event.context_id,
            kind: TaskArtifactUpdateEventKind,
            last_chunk: Some(event.last_chunk),
            metadata: Some(metadata_from_proto(event.metadata, "metadata")?),
            task_id: event.task_id,
        })
    }
}

impl TryFrom<SendMessageResult> for pb::SendMessageResponse {
    type Error = ConversionError;

    fn try_from(result: SendMessageResult) -> Result<Self, ConversionError> {
        use pb::send_message_response::Payload;
        Ok(Self {
            payload: Some(match result {
                SendMessageResult::Task(task) => Payload::Task(task.try_into()?),
                SendMessageResult::Message(message) => Payload::Msg(message.into()),
            }),
        })
    }
}

impl TryFrom<pb::SendMessageResponse> for SendMessageResult {
    type Error = ConversionError;

    /// With no payload the result is an empty task (`"id": ""`, state `unknown`), as in the SDK.
    fn try_from(response: pb::SendMessageResponse) -> Result<Self, ConversionError> {
        use pb::send_message_response::Payload;
        Ok(match response.payload {
            Some(Payload::Msg(message)) => {
                Self::Message(Message::try_from(message).map_err(|e| e.at("message"))?)
            }
            Some(Payload::Task(task)) => {
                Self::Task(Task::try_from(task).map_err(|e| e.at("task"))?)
            }
            None => Self::Task(Task::try_from(pb::Task::default())?),
        })
    }
}

impl TryFrom<SendStreamingMessageResult> for pb::StreamResponse {
    type Error = ConversionError;

    fn try_from(result: SendStreamingMessageResult) -> Result<Self, ConversionError> {
        use pb::stream_response::Payload;
        Ok(Self {
            payload: Some(match result {
                SendStreamingMessageResult::Task(task) => Payload::Task(task.try_into()?),
                SendStreamingMessageResult::Message(message) => Payload::Msg(message.into()),
                SendStreamingMessageResult::TaskStatusUpdateEvent(event) => {
                    Payload::StatusUpdate(event.try_into()?)
                }
                SendStreamingMessageResult::TaskArtifactUpdateEvent(event) => {
                    Payload::ArtifactUpdate(event.into())
                }
            }),
        })
    }
}

impl TryFrom<pb::StreamResponse> for SendStreamingMessageResult {
    type Error = ConversionError;

    /// A response with no payload is an error.
    fn try_from(response: pb::StreamResponse) -> Result<Self, ConversionError> {
        use pb::stream_response::Payload;
        Ok(match response.payload {
            Some(Payload::Msg(message)) => {
                Self::Message(Message::try_from(message).map_err(|e| e.at("message"))?)
            }
            Some(Payload::Task(task)) => {
                Self::Task(Task::try_from(task).map_err(|e| e.at("task"))?)
            }
            Some(Payload::StatusUpdate(event)) => Self::TaskStatusUpdateEvent(
                TaskStatusUpdateEvent::try_from(event).map_err(|e| e.at("statusUpdate"))?,
            ),
            Some(Payload::ArtifactUpdate(event)) => Self::TaskArtifactUpdateEvent(
                TaskArtifactUpdateEvent::try_from(event).map_err(|e| e.at("artifactUpdate"))?,
            ),
            None => {
                return Err(ConversionError::new(
                    "a StreamResponse needs one of `task`, `message`, `statusUpdate` or `artifactUpdate`",
                ));
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Push notifications
// ---------------------------------------------------------------------------------------------------

impl From<PushNotificationAuthenticationInfo> for pb::AuthenticationInfo {
    fn from(info: PushNotificationAuthenticationInfo) -> Self {
        Self {
            schemes: info.schemes,
            credentials: info.credentials.unwrap_or_default(),
        }
    }
}

impl From<pb::AuthenticationInfo> for PushNotificationAuthenticationInfo {
    /// `credentials` is always a string (`""`).
    fn from(info: pb::AuthenticationInfo) -> Self {
        Self {
            credentials: Some(info.credentials),
            schemes: info.schemes,
        }
    }
}

impl From<PushNotificationConfig> for pb::PushNotificationConfig {
    fn from(config: PushNotificationConfig) -> Self {
        Self {
            id: config.id.unwrap_or_default(),
            url: config.url,
            token: config.token.unwrap_or_default(),
            authentication: config.authentication.map(Into::into),
        }
    }
}

impl From<pb::PushNotificationConfig> for PushNotificationConfig {
    /// `id` and `token` are always strings (`""`).
    fn from(config: pb::PushNotificationConfig) -> Self {
        Self {
            authentication: config.authentication.map(Into::into),
            id: Some(config.id),
            token: Some(config.token),
            url: config.url,
        }
    }
}

impl From<TaskPushNotificationConfig> for pb::TaskPushNotificationConfig {
    /// The name is `tasks/{taskId}/pushNotificationConfigs/{id}`, with `None` for a missing `id`
    /// (the SDK formats Python's `None`).
    fn from(config: TaskPushNotificationConfig) -> Self {
        let config_id = config
            .push_notification_config
            .id
            .as_deref()
            .unwrap_or("None");
        Self {
            name: push_config_name(&config.task_id, config_id),
            push_notification_config: Some(config.push_notification_config.into()),
        }
    }
}

impl TryFrom<pb::TaskPushNotificationConfig> for TaskPushNotificationConfig {
    type Error = ConversionError;

    /// The task comes from `name` (`tasks/{id}/pushNotificationConfigs/{config_id}`), the config,
    /// `id` included, from `pushNotificationConfig` (defaults when absent).
    fn try_from(config: pb::TaskPushNotificationConfig) -> Result<Self, ConversionError> {
        let (task_id, _) = push_config_ids_field(&config.name, "name")?;
        Ok(Self {
            push_notification_config: config.push_notification_config.unwrap_or_default().into(),
            task_id,
        })
    }
}

impl From<TaskPushNotificationConfig> for pb::CreateTaskPushNotificationConfigRequest {
    /// `parent` is `tasks/{taskId}`, `configId` the config's `id` (`""` when absent), `config` the
    /// [`pb::TaskPushNotificationConfig`] of the same value.
    fn from(config: TaskPushNotificationConfig) -> Self {
        Self {
            parent: task_name(&config.task_id),
            config_id: config
                .push_notification_config
                .id
                .clone()
                .unwrap_or_default(),
            config: Some(config.into()),
        }
    }
}

impl TryFrom<pb::CreateTaskPushNotificationConfigRequest> for TaskPushNotificationConfig {
    type Error = ConversionError;

    /// The task comes from `parent`, the config from `config.pushNotificationConfig`; `configId` and
    /// `config.name` are ignored.
    fn try_from(
        request: pb::CreateTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        let task_id = task_id_field(&request.parent, "parent")?;
        Ok(Self {
            push_notification_config: request
                .config
                .unwrap_or_default()
                .push_notification_config
                .unwrap_or_default()
                .into(),
            task_id,
        })
    }
}

impl From<ListTaskPushNotificationConfigSuccessResponse>
    for pb::ListTaskPushNotificationConfigResponse
{
    /// The JSON-RPC `id` is not carried; `nextPageToken` is empty.
    fn from(response: ListTaskPushNotificationConfigSuccessResponse) -> Self {
        Self {
            configs: response.result.into_iter().map(Into::into).collect(),
            next_page_token: String::new(),
        }
    }
}

impl TryFrom<pb::ListTaskPushNotificationConfigResponse>
    for ListTaskPushNotificationConfigSuccessResponse
{
    type Error = ConversionError;

    /// A JSON-RPC success response with no `id`, as the SDK builds it; `nextPageToken` is ignored.
    fn try_from(
        response: pb::ListTaskPushNotificationConfigResponse,
    ) -> Result<Self, ConversionError> {
        Ok(Self {
            id: None,
            jsonrpc: JsonRpcVersion,
            result: try_list(
                response.configs,
                "configs",
                TaskPushNotificationConfig::try_from,
            )?,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Method params and requests
// ---------------------------------------------------------------------------------------------------

impl TryFrom<MessageSendConfiguration> for pb::SendMessageConfiguration {
    type Error = ConversionError;

    /// Fails when `historyLength` does not fit an int32.
    fn try_from(config: MessageSendConfiguration) -> Result<Self, ConversionError> {
        Ok(Self {
            accepted_output_modes: config.accepted_output_modes.unwrap_or_default(),
            push_notification: config.push_notification_config.map(Into::into),
            history_length: config
                .history_length
                .map(|n| int32(n, "historyLength"))
                .transpose()?
                .unwrap_or(0),
            blocking: config.blocking.unwrap_or(false),
        })
    }
}

impl From<pb::SendMessageConfiguration> for MessageSendConfiguration {
    /// `acceptedOutputModes` is always a list and `blocking` a boolean; `historyLength` 0 is absent.
    fn from(config: pb::SendMessageConfiguration) -> Self {
        Self {
            accepted_output_modes: Some(config.accepted_output_modes),
            blocking: Some(config.blocking),
            history_length: (config.history_length != 0)
                .then_some(i64::from(config.history_length)),
            push_notification_config: config.push_notification.map(Into::into),
        }
    }
}

impl TryFrom<MessageSendParams> for pb::SendMessageRequest {
    type Error = ConversionError;

    /// The request always carries a configuration: an empty one when the params have none.
    fn try_from(params: MessageSendParams) -> Result<Self, ConversionError> {
        let configuration = match params.configuration {
            Some(config) => {
                pb::SendMessageConfiguration::try_from(config).map_err(|e| e.at("configuration"))?
            }
            None => pb::SendMessageConfiguration::default(),
        };
        Ok(Self {
            request: Some(params.message.into()),
            configuration: Some(configuration),
            metadata: params.metadata.map(struct_to_proto),
        })
    }
}

impl TryFrom<pb::SendMessageRequest> for MessageSendParams {
    type Error = ConversionError;

    /// `metadata` is always an object; a missing `request` reads as an empty message.
    fn try_from(request: pb::SendMessageRequest) -> Result<Self, ConversionError> {
        Ok(Self {
            configuration: request.configuration.map(Into::into),
            message: Message::try_from(request.request.unwrap_or_default())
                .map_err(|e| e.at("message"))?,
            metadata: Some(metadata_from_proto(request.metadata, "metadata")?),
        })
    }
}

impl TryFrom<TaskQueryParams> for pb::GetTaskRequest {
    type Error = ConversionError;

    /// `metadata` is dropped; fails when `historyLength` does not fit an int32.
    fn try_from(params: TaskQueryParams) -> Result<Self, ConversionError> {
        Ok(Self {
            name: task_name(&params.id),
            history_length: params
                .history_length
                .map(|n| int32(n, "historyLength"))
                .transpose()?
                .unwrap_or(0),
        })
    }
}

impl TryFrom<pb::GetTaskRequest> for TaskQueryParams {
    type Error = ConversionError;

    fn try_from(request: pb::GetTaskRequest) -> Result<Self, ConversionError> {
        Ok(Self {
            history_length: (request.history_length != 0)
                .then_some(i64::from(request.history_length)),
            id: task_id_field(&request.name, "name")?,
            metadata: None,
        })
    }
}

impl From<TaskIdParams> for pb::CancelTaskRequest {
    /// `metadata` is dropped.
    fn from(params: TaskIdParams) -> Self {
        Self {
            name: task_name(&params.id),
        }
    }
}

impl TryFrom<pb::CancelTaskRequest> for TaskIdParams {
    type Error = ConversionError;

    fn try_from(request: pb::CancelTaskRequest) -> Result<Self, ConversionError> {
        Ok(Self {
            id: task_id_field(&request.name, "name")?,
            metadata: None,
        })
    }
}

impl From<TaskIdParams> for pb::TaskSubscriptionRequest {
    /// `metadata` is dropped.
    fn from(params: TaskIdParams) -> Self {
        Self {
            name: task_name(&params.id),
        }
    }
}

impl TryFrom<pb::TaskSubscriptionRequest> for TaskIdParams {
    type Error = ConversionError;

    fn try_from(request: pb::TaskSubscriptionRequest) -> Result<Self, ConversionError> {
        Ok(Self {
            id: task_id_field(&request.name, "name")?,
            metadata: None,
        })
    }
}

impl TryFrom<pb::GetTaskPushNotificationConfigRequest> for TaskIdParams {
    type Error = ConversionError;

    /// The task of a config's name, the config id dropped (the SDK's `task_id_params`).
    fn try_from(
        request: pb::GetTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        let (id, _) = push_config_ids_field(&request.name, "name")?;
        Ok(Self { id, metadata: None })
    }
}

impl From<GetTaskPushNotificationConfigParams> for pb::GetTaskPushNotificationConfigRequest {
    /// `metadata` is dropped; without `pushNotificationConfigId` the name ends in
    /// `/pushNotificationConfigs/` (the SDK's client sends that, and its server rejects it).
    fn from(params: GetTaskPushNotificationConfigParams) -> Self {
        Self {
            name: push_config_name(
                &params.id,
                params.push_notification_config_id.as_deref().unwrap_or(""),
            ),
        }
    }
}

impl TryFrom<pb::GetTaskPushNotificationConfigRequest> for GetTaskPushNotificationConfigParams {
    type Error = ConversionError;

    fn try_from(
        request: pb::GetTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        let (id, config_id) = push_config_ids_field(&request.name, "name")?;
        Ok(Self {
            id,
            metadata: None,
            push_notification_config_id: Some(config_id),
        })
    }
}

impl From<GetTaskPushNotificationConfigRequestParams> for pb::GetTaskPushNotificationConfigRequest {
    /// Task id params name no config: the name ends in `/pushNotificationConfigs/`, as the SDK's client
    /// writes it.
    fn from(params: GetTaskPushNotificationConfigRequestParams) -> Self {
        match params {
            GetTaskPushNotificationConfigRequestParams::TaskId(params) => Self {
                name: push_config_name(&params.id, ""),
            },
            GetTaskPushNotificationConfigRequestParams::GetTaskPushNotificationConfig(params) => {
                params.into()
            }
        }
    }
}

impl TryFrom<pb::GetTaskPushNotificationConfigRequest>
    for GetTaskPushNotificationConfigRequestParams
{
    type Error = ConversionError;

    /// Always the variant that names the config, as the SDK's server reads the request.
    fn try_from(
        request: pb::GetTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        GetTaskPushNotificationConfigParams::try_from(request)
            .map(Self::GetTaskPushNotificationConfig)
    }
}

impl From<DeleteTaskPushNotificationConfigParams> for pb::DeleteTaskPushNotificationConfigRequest {
    /// `metadata` is dropped.
    fn from(params: DeleteTaskPushNotificationConfigParams) -> Self {
        Self {
            name: push_config_name(&params.id, &params.push_notification_config_id),
        }
    }
}

impl TryFrom<pb::DeleteTaskPushNotificationConfigRequest>
    for DeleteTaskPushNotificationConfigParams
{
    type Error = ConversionError;

    fn try_from(
        request: pb::DeleteTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        let (id, config_id) = push_config_ids_field(&request.name, "name")?;
        Ok(Self {
            id,
            metadata: None,
            push_notification_config_id: config_id,
        })
    }
}

impl From<ListTaskPushNotificationConfigParams> for pb::ListTaskPushNotificationConfigRequest {
    /// `metadata` is dropped; no page size or token.
    fn from(params: ListTaskPushNotificationConfigParams) -> Self {
        Self {
            parent: task_name(&params.id),
            page_size: 0,
            page_token: String::new(),
        }
    }
}

impl TryFrom<pb::ListTaskPushNotificationConfigRequest> for ListTaskPushNotificationConfigParams {
    type Error = ConversionError;

    /// `pageSize` and `pageToken` are ignored.
    fn try_from(
        request: pb::ListTaskPushNotificationConfigRequest,
    ) -> Result<Self, ConversionError> {
        Ok(Self {
            id: task_id_field(&request.parent, "parent")?,
            metadata: None,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Agent card
// ---------------------------------------------------------------------------------------------------

/// One security requirement (`AgentCard.security[]`, `AgentSkill.security[]`): scheme name → scopes.
pub type SecurityRequirement = BTreeMap<String, Vec<String>>;

/// A security requirement as the proto's `Security` message.
pub fn security_to_proto(requirement: SecurityRequirement) -> pb::Security {
    pb::Security {
        schemes: requirement
            .into_iter()
            .map(|(name, scopes)| (name, pb::StringList { list: scopes }))
            .collect(),
    }
}

/// The security requirement of a proto `Security` message.
pub fn security_from_proto(security: pb::Security) -> SecurityRequirement {
    security
        .schemes
        .into_iter()
        .map(|(name, scopes)| (name, scopes.list))
        .collect()
}

/// A list of requirements, absent when empty (the SDK's `security`).
fn security_list_from_proto(list: Vec<pb::Security>) -> Option<Vec<SecurityRequirement>> {
    nonempty_list(list.into_iter().map(security_from_proto).collect())
}

impl From<AgentProvider> for pb::AgentProvider {
    fn from(provider: AgentProvider) -> Self {
        Self {
            url: provider.url,
            organization: provider.organization,
        }
    }
}

impl From<pb::AgentProvider> for AgentProvider {
    fn from(provider: pb::AgentProvider) -> Self {
        Self {
            organization: provider.organization,
            url: provider.url,
        }
    }
}

impl From<AgentInterface> for pb::AgentInterface {
    fn from(interface: AgentInterface) -> Self {
        Self {
            url: interface.url,
            transport: interface.transport,
        }
    }
}

impl From<pb::AgentInterface> for AgentInterface {
    fn from(interface: pb::AgentInterface) -> Self {
        Self {
            transport: interface.transport,
            url: interface.url,
        }
    }
}

impl From<AgentExtension> for pb::AgentExtension {
    /// Empty `params` are not carried.
    fn from(extension: AgentExtension) -> Self {
        Self {
            uri: extension.uri,
            description: extension.description.unwrap_or_default(),
            required: extension.required.unwrap_or(false),
            params: extension
                .params
                .filter(|params| !params.is_empty())
                .map(struct_to_proto),
        }
    }
}

impl TryFrom<pb::AgentExtension> for AgentExtension {
    type Error = ConversionError;

    /// `description`, `params` and `required` are always present (`""`, `{}`, `false`).
    fn try_from(extension: pb::AgentExtension) -> Result<Self, ConversionError> {
        Ok(Self {
            description: Some(extension.description),
            params: Some(metadata_from_proto(extension.params, "params")?),
            required: Some(extension.required),
            uri: extension.uri,
        })
    }
}

impl From<AgentCapabilities> for pb::AgentCapabilities {
    /// `stateTransitionHistory` is dropped (the proto has no such field).
    fn from(capabilities: AgentCapabilities) -> Self {
        Self {
            streaming: capabilities.streaming.unwrap_or(false),
            push_notifications: capabilities.push_notifications.unwrap_or(false),
            extensions: capabilities
                .extensions
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
        }
    }
}

impl TryFrom<pb::AgentCapabilities> for AgentCapabilities {
    type Error = ConversionError;

    /// `streaming`, `pushNotifications` and `extensions` are always present.
    fn try_from(capabilities: pb::AgentCapabilities) -> Result<Self, ConversionError> {
        Ok(Self {
            extensions: Some(try_list(
                capabilities.extensions,
                "extensions",
                AgentExtension::try_from,
            )?),
            push_notifications: Some(capabilities.push_notifications),
            state_transition_history: None,
            streaming: Some(capabilities.streaming),
        })
    }
}

impl From<AgentSkill> for pb::AgentSkill {
    fn from(skill: AgentSkill) -> Self {
        Self {
            id: skill.id,
            name: skill.name,
            description: skill.description,
            tags: skill.tags,
            examples: skill.examples.unwrap_or_default(),
            input_modes: skill.input_modes.unwrap_or_default(),
            output_modes: skill.output_modes.unwrap_or_default(),
            security: skill
                .security
                .unwrap_or_default()
                .into_iter()
                .map(security_to_proto)
                .collect(),
        }
    }
}

impl From<pb::AgentSkill> for AgentSkill {
    /// `examples`, `inputModes` and `outputModes` are always lists; empty `security` is absent.
    fn from(skill: pb::AgentSkill) -> Self {
        Self {
            description: skill.description,
            examples: Some(skill.examples),
            id: skill.id,
            input_modes: Some(skill.input_modes),
            name: skill.name,
            output_modes: Some(skill.output_modes),
            security: security_list_from_proto(skill.security),
            tags: skill.tags,
        }
    }
}

impl From<AgentCardSignature> for pb::AgentCardSignature {
    fn from(signature: AgentCardSignature) -> Self {
        Self {
            protected: signature.protected,
            signature: signature.signature,
            header: signature.header.map(struct_to_proto),
        }
    }
}

impl TryFrom<pb::AgentCardSignature> for AgentCardSignature {
    type Error = ConversionError;

    /// `header` is always an object.
    fn try_from(signature: pb::AgentCardSignature) -> Result<Self, ConversionError> {
        Ok(Self {
            header: Some(metadata_from_proto(signature.header, "header")?),
            protected: signature.protected,
            signature: signature.signature,
        })
    }
}

impl From<AuthorizationCodeOAuthFlow> for pb::AuthorizationCodeOAuthFlow {
    fn from(flow: AuthorizationCodeOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::AuthorizationCodeOAuthFlow> for AuthorizationCodeOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::AuthorizationCodeOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl From<ClientCredentialsOAuthFlow> for pb::ClientCredentialsOAuthFlow {
    fn from(flow: ClientCredentialsOAuthFlow) -> Self {
        Self {
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::ClientCredentialsOAuthFlow> for ClientCredentialsOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::ClientCredentialsOAuthFlow) -> Self {
        Self {
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl From<ImplicitOAuthFlow> for pb::ImplicitOAuthFlow {
    fn from(flow: ImplicitOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::ImplicitOAuthFlow> for ImplicitOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::ImplicitOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
        }
    }
}

impl From<PasswordOAuthFlow> for pb::PasswordOAuthFlow {
    fn from(flow: PasswordOAuthFlow) -> Self {
        Self {
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::PasswordOAuthFlow> for PasswordOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::PasswordOAuthFlow) -> Self {
        Self {
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl TryFrom<OAuthFlows> for pb::OAuthFlows {
    type Error = ConversionError;

    /// Keeps the first flow of `authorizationCode`, `clientCredentials`, `implicit` and `password`
    /// (the proto holds one); fails when there is none.
    fn try_from(flows: OAuthFlows) -> Result<Self, ConversionError> {
        use pb::o_auth_flows::Flow;
        let flow = if let Some(flow) = flows.authorization_code {
            Flow::AuthorizationCode(flow.into())
        } else if let Some(flow) = flows.client_credentials {
            Flow::ClientCredentials(flow.into())
        } else if let Some(flow) = flows.implicit {
            Flow::Implicit(flow.into())
        } else if let Some(flow) = flows.password {
            Flow::Password(flow.into())
        } else {
            return Err(ConversionError::new(
                "no OAuth flow: one of `authorizationCode`, `clientCredentials`, `implicit` or \
                 `password` is needed",
            ));
        };
        Ok(Self { flow: Some(flow) })
    }
}

impl From<pb::OAuthFlows> for OAuthFlows {
    /// With no flow, the result is an empty `password` flow, as in the SDK.
    fn from(flows: pb::OAuthFlows) -> Self {
        use pb::o_auth_flows::Flow;
        let mut out = OAuthFlows::default();
        match flows.flow {
            Some(Flow::AuthorizationCode(flow)) => out.authorization_code = Some(flow.into()),
            Some(Flow::ClientCredentials(flow)) => out.client_credentials = Some(flow.into()),
            Some(Flow::Implicit(flow)) => out.implicit = Some(flow.into()),
            Some(Flow::Password(flow)) => out.password = Some(flow.into()),
            None => out.password = Some(pb::PasswordOAuthFlow::default().into()),
        }
        out
    }
}

impl From<ApiKeySecurityScheme> for pb::ApiKeySecurityScheme {
    /// `in` becomes `location`.
    fn from(scheme: ApiKeySecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            location: scheme.in_.to_string(),
            name: scheme.name,
        }
    }
}

impl TryFrom<pb::ApiKeySecurityScheme> for ApiKeySecurityScheme {
    type Error = ConversionError;

    /// `location` must be `cookie`, `header` or `query`; `description` is always a string.
    fn try_from(scheme: pb::ApiKeySecurityScheme) -> Result<Self, ConversionError> {
        let in_ = match scheme.location.as_str() {
            "cookie" => ApiKeySecuritySchemeIn::Cookie,
            "header" => ApiKeySecuritySchemeIn::Header,
            "query" => ApiKeySecuritySchemeIn::Query,
            other => {
                return Err(ConversionError::new(format!(
                    "{other:?} is not an API key location: expected `cookie`, `header` or `query`"
                ))
                .at("location"));
            }
        };
        Ok(Self {
            description: Some(scheme.description),
            in_,
            name: scheme.name,
            type_: ApiKeySecuritySchemeType,
        })
    }
}

impl From<HttpAuthSecurityScheme> for pb::HttpAuthSecurityScheme {
    fn from(scheme: HttpAuthSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            scheme: scheme.scheme,
            bearer_format: scheme.bearer_format.unwrap_or_default(),
        }
    }
}

impl From<pb::HttpAuthSecurityScheme> for HttpAuthSecurityScheme {
    /// `description` and `bearerFormat` are always strings.
    fn from(scheme: pb::HttpAuthSecurityScheme) -> Self {
        Self {
            bearer_format: Some(scheme.bearer_format),
            description: Some(scheme.description),
            scheme: scheme.scheme,
            type_: HttpAuthSecuritySchemeType,
        }
    }
}

impl TryFrom<OAuth2SecurityScheme> for pb::OAuth2SecurityScheme {
    type Error = ConversionError;

    /// Fails when `flows` has no flow (see [`OAuthFlows`]).
    fn try_from(scheme: OAuth2SecurityScheme) -> Result<Self, ConversionError> {
        Ok(Self {
            description: scheme.description.unwrap_or_default(),
            flows: Some(pb::OAuthFlows::try_from(scheme.flows).map_err(|e| e.at("flows"))?),
            oauth2_metadata_url: scheme.oauth2_metadata_url.unwrap_or_default(),
        })
    }
}

impl From<pb::OAuth2SecurityScheme> for OAuth2SecurityScheme {
    /// `description` is always a string; an empty `oauth2MetadataUrl` is absent.
    fn from(scheme: pb::OAuth2SecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            flows: scheme.flows.unwrap_or_default().into(),
            oauth2_metadata_url: nonempty_string(scheme.oauth2_metadata_url),
            type_: OAuth2SecuritySchemeType,
        }
    }
}

impl From<OpenIdConnectSecurityScheme> for pb::OpenIdConnectSecurityScheme {
    fn from(scheme: OpenIdConnectSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            open_id_connect_url: scheme.open_id_connect_url,
        }
    }
}

impl From<pb::OpenIdConnectSecurityScheme> for OpenIdConnectSecurityScheme {
    /// `description` is always a string.
    fn from(scheme: pb::OpenIdConnectSecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            open_id_connect_url: scheme.open_id_connect_url,
            type_: OpenIdConnectSecuritySchemeType,
        }
    }
}

impl From<MutualTlsSecurityScheme> for pb::MutualTlsSecurityScheme {
    fn from(scheme: MutualTlsSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
        }
    }
}

impl From<pb::MutualTlsSecurityScheme> for MutualTlsSecurityScheme {
    /// `description` is always a string.
    fn from(scheme: pb::MutualTlsSecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            type_: MutualTlsSecuritySchemeType,
        }
    }
}

impl TryFrom<SecurityScheme> for pb::SecurityScheme {
    type Error = ConversionError;

    /// Fails for an OAuth2 scheme without flows.
    fn try_from(scheme: SecurityScheme) -> Result<Self, ConversionError> {
        use pb::security_scheme::Scheme;
        Ok(Self {
            scheme: Some(match scheme {
                SecurityScheme::ApiKey(scheme) => Scheme::ApiKeySecurityScheme(scheme.into()),
                SecurityScheme::HttpAuth(scheme) => Scheme::HttpAuthSecurityScheme(scheme.into()),
                SecurityScheme::OAuth2(scheme) => Scheme::Oauth2SecurityScheme(scheme.try_into()?),
                SecurityScheme::OpenIdConnect(scheme) => {
                    Scheme::OpenIdConnectSecurityScheme(scheme.into())
                }
                SecurityScheme::MutualTls(scheme) => Scheme::MtlsSecurityScheme(scheme.into()),
            }),
        })
    }
}

impl TryFrom<pb::SecurityScheme> for SecurityScheme {
    type Error = ConversionError;

    /// With no member the result is an empty OpenID Connect scheme, as in the SDK; fails on an API
    /// key `location` the JSON-RPC form cannot hold.
    fn try_from(scheme: pb::SecurityScheme) -> Result<Self, ConversionError> {
        use pb::security_scheme::Scheme;
        Ok(match scheme.scheme {
            Some(Scheme::ApiKeySecurityScheme(scheme)) => Self::ApiKey(
                ApiKeySecurityScheme::try_from(scheme).map_err(|e| e.at("apiKeySecurityScheme"))?,
            ),
            Some(Scheme::HttpAuthSecurityScheme(scheme)) => Self::HttpAuth(scheme.into()),
            Some(Scheme::Oauth2SecurityScheme(scheme)) => Self::OAuth2(scheme.into()),
            Some(Scheme::MtlsSecurityScheme(scheme)) => Self::MutualTls(scheme.into()),
            Some(Scheme::OpenIdConnectSecurityScheme(scheme)) => Self::OpenIdConnect(scheme.into()),
            None => Self::OpenIdConnect(pb::OpenIdConnectSecurityScheme::default().into()),
        })
    }
}

impl TryFrom<AgentCard> for pb::AgentCard {
    type Error = ConversionError;

    /// Fails for an OAuth2 scheme without flows, naming it (`securitySchemes["corp"].flows`).
    fn try_from(card: AgentCard) -> Result<Self, ConversionError> {
        Ok(Self {
            protocol_version: card.protocol_version,
            name: card.name,
            description: card.description,
            url: card.url,
            preferred_transport: card.preferred_transport,
            additional_interfaces: card
                .additional_interfaces
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            provider: card.provider.map(Into::into),
            version: card.version,
            documentation_url: card.documentation_url.unwrap_or_default(),
            capabilities: Some(card.capabilities.into()),
            security_schemes: try_map(
                card.security_schemes.unwrap_or_default(),
                "securitySchemes",
                pb::SecurityScheme::try_from,
            )?,
            security: card
                .security
                .unwrap_or_default()
                .into_iter()
                .map(security_to_proto)
                .collect(),
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            skills: card.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card: card
                .supports_authenticated_extended_card
                .unwrap_or(false),
            signatures: card
                .signatures
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            icon_url: card.icon_url.unwrap_or_default(),
        })
    }
}

impl TryFrom<pb::AgentCard> for AgentCard {
    type Error = ConversionError;

    /// See the module docs for the members that come back present though the proto had them empty.
    fn try_from(card: pb::AgentCard) -> Result<Self, ConversionError> {
        Ok(Self {
            additional_interfaces: nonempty_list(
                card.additional_interfaces
                    .into_iter()
                    .map(Into::into)
                    .collect(),
            ),
            capabilities: AgentCapabilities::try_from(card.capabilities.unwrap_or_default())
                .map_err(|e| e.at("capabilities"))?,
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            description: card.description,
            documentation_url: Some(card.documentation_url),
            icon_url: nonempty_string(card.icon_url),
            name: card.name,
            preferred_transport: card.preferred_transport,
            protocol_version: card.protocol_version,
            provider: card.provider.map(Into::into),
            security: security_list_from_proto(card.security),
            security_schemes: Some(try_map(
                card.security_schemes,
                "securitySchemes",
                SecurityScheme::try_from,
            )?),
            signatures: nonempty_list(try_list(
                card.signatures,
                "signatures",
                AgentCardSignature::try_from,
            )?),
            skills: card.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card: Some(card.supports_authenticated_extended_card),
            url: card.url,
            version: card.version,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Conversion by name, for tools
// ---------------------------------------------------------------------------------------------------

/// One `a2a.v1` message and its JSON-RPC form, as [`PROTO_PAIRS`] lists them.
#[derive(Clone, Copy)]
pub struct ProtoPair {
    /// Full protobuf name, such as `a2a.v1.SendMessageRequest`.
    pub proto: &'static str,
    /// The JSON-RPC form: a definition of the v0.3 JSON Schema (`MessageSendParams`), or a member of
    /// one for forms the schema does not name (`SendMessageSuccessResponse.result`).
    pub jsonrpc: &'static str,
    to_proto: fn(serde_json::Value) -> Result<Vec<u8>, TranscodeError>,
    from_proto: fn(&[u8]) -> Result<serde_json::Value, TranscodeError>,
}

impl ProtoPair {
    /// Reads `json` as the JSON-RPC form and returns the message's protobuf binary encoding.
    pub fn to_proto(&self, json: serde_json::Value) -> Result<Vec<u8>, TranscodeError> {
        (self.to_proto)(json)
    }

    /// Decodes the message's protobuf binary encoding and returns its JSON-RPC form.
    pub fn from_proto(&self, binpb: &[u8]) -> Result<serde_json::Value, TranscodeError> {
        (self.from_proto)(binpb)
    }
}

impl fmt::Debug for ProtoPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProtoPair")
            .field("proto", &self.proto)
            .field("jsonrpc", &self.jsonrpc)
            .finish_non_exhaustive()
    }
}

/// Why [`jsonrpc_to_proto`] or [`proto_to_jsonrpc`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscodeError {
    /// No message of package `a2a.v1` has this name.
    UnknownType(String),
    /// The message has no JSON-RPC form (see [`NO_JSONRPC_COUNTERPART`]).
    NoCounterpart {
        proto: &'static str,
        reason: &'static str,
    },
    /// The JSON does not have the shape of the JSON-RPC form.
    Json { path: String, message: String },
    /// The bytes are not a protobuf encoding of the message.
    Binary(String),
    /// The value has no counterpart on the other side (see [`ConversionError`]).
    Conversion(ConversionError),
}

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownType(name) => write!(f, "`{name}` is not a message of package a2a.v1"),
            Self::NoCounterpart { proto, reason } => {
                write!(f, "`{proto}` has no v0.3 JSON-RPC form: {reason}")
            }
            Self::Json { path, message } => write!(f, "invalid JSON at `{path}`: {message}"),
            Self::Binary(message) => write!(f, "invalid protobuf binary: {message}"),
            Self::Conversion(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for TranscodeError {}

impl From<ConversionError> for TranscodeError {
    fn from(error: ConversionError) -> Self {
        Self::Conversion(error)
    }
}

/// A JSON-RPC form and one protobuf message, both ways; implemented for every pair of the table.
trait Pairing<P>: Sized {
    fn into_proto(self) -> Result<P, ConversionError>;
    fn from_proto(proto: P) -> Result<Self, ConversionError>;
}

fn encode<J, P>(json: serde_json::Value) -> Result<Vec<u8>, TranscodeError>
where
    J: DeserializeOwned + Pairing<P>,
    P: ProtoMessage,
{
    let text = serde_json::to_vec(&json).expect("a JSON value is always JSON text");
    let value: J = a2a_proto::json::from_slice(&text).map_err(|e| TranscodeError::Json {
        path: e.path().to_owned(),
        message: e.inner().to_string(),
    })?;
    Ok(value.into_proto()?.encode_to_vec())
}

fn decode<J, P>(bytes: &[u8]) -> Result<serde_json::Value, TranscodeError>
where
    J: Serialize + Pairing<P>,
    P: ProtoMessage,
{
    let proto = P::decode(bytes).map_err(|e| TranscodeError::Binary(e.to_string()))?;
    let value = J::from_proto(proto)?;
    Ok(serde_json::to_value(&value).expect("the JSON-RPC types are always JSON"))
}

macro_rules! pairing {
    // `From` both ways.
    ($json:ty, $proto:ty, from, from) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                Ok(self.into())
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                Ok(proto.into())
            }
        }
    };
    ($json:ty, $proto:ty, from, try) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                Ok(self.into())
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                proto.try_into()
            }
        }
    };
    ($json:ty, $proto:ty, try, from) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                self.try_into()
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                Ok(proto.into())
            }
        }
    };
    ($json:ty, $proto:ty, try, try) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                self.try_into()
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                proto.try_into()
            }
        }
    };
}

pairing!(
    MessageSendConfiguration,
    pb::SendMessageConfiguration,
    try,
    from
);
pairing!(Task, pb::Task, try, try);
pairing!(TaskStatus, pb::TaskStatus, try, try);
pairing!(Part, pb::Part, from, try);
pairing!(FileContent, pb::FilePart, from, try);
pairing!(Message, pb::Message, from, try);
pairing!(Artifact, pb::Artifact, from, try);
pairing!(TaskStatusUpdateEvent, pb::TaskStatusUpdateEvent, try, try);
pairing!(
    TaskArtifactUpdateEvent,
    pb::TaskArtifactUpdateEvent,
    from,
    try
);
pairing!(
    PushNotificationConfig,
    pb::PushNotificationConfig,
    from,
    from
);
pairing!(
    PushNotificationAuthenticationInfo,
    pb::AuthenticationInfo,
    from,
    from
);
pairing!(AgentInterface, pb::AgentInterface, from, from);
pairing!(AgentCard, pb::AgentCard, try, try);
pairing!(AgentProvider, pb::AgentProvider, from, from);
pairing!(AgentCapabilities, pb::AgentCapabilities, from, try);
pairing!(AgentExtension, pb::AgentExtension, from, try);
pairing!(AgentSkill, pb::AgentSkill, from, from);
pairing!(AgentCardSignature, pb::AgentCardSignature, from, try);
pairing!(
    TaskPushNotificationConfig,
    pb::TaskPushNotificationConfig,
    from,
    try
);
pairing!(SecurityScheme, pb::SecurityScheme, try, try);
pairing!(ApiKeySecurityScheme, pb::ApiKeySecurityScheme, from, try);
pairing!(
    HttpAuthSecurityScheme,
    pb::HttpAuthSecurityScheme,
    from,
    from
);
pairing!(OAuth2SecurityScheme, pb::OAuth2SecurityScheme, try, from);
pairing!(
    OpenIdConnectSecurityScheme,
    pb::OpenIdConnectSecurityScheme,
    from,
    from
);
pairing!(
    MutualTlsSecurityScheme,
    pb::MutualTlsSecurityScheme,
    from,
    from
);
pairing!(OAuthFlows, pb::OAuthFlows, try, from);
pairing!(
    AuthorizationCodeOAuthFlow,
    pb::AuthorizationCodeOAuthFlow,
    from,
    from
);
pairing!(
    ClientCredentialsOAuthFlow,
    pb::ClientCredentialsOAuthFlow,
    from,
    from
);
pairing!(ImplicitOAuthFlow, pb::ImplicitOAuthFlow, from, from);
pairing!(PasswordOAuthFlow, pb::PasswordOAuthFlow, from, from);
pairing!(MessageSendParams, pb::SendMessageRequest, try, try);
pairing!(TaskQueryParams, pb::GetTaskRequest, try, try);
pairing!(TaskIdParams, pb::CancelTaskRequest, from, try);
pairing!(TaskIdParams, pb::TaskSubscriptionRequest, from, try);
pairing!(
    GetTaskPushNotificationConfigParams,
    pb::GetTaskPushNotificationConfigRequest,
    from,
    try
);
pairing!(
    DeleteTaskPushNotificationConfigParams,
    pb::DeleteTaskPushNotificationConfigRequest,
    from,
    try
);
pairing!(
    ListTaskPushNotificationConfigParams,
    pb::ListTaskPushNotificationConfigRequest,
    from,
    try
);
pairing!(
    TaskPushNotificationConfig,
    pb::CreateTaskPushNotificationConfigRequest,
    from,
    try
);
pairing!(SendMessageResult, pb::SendMessageResponse, try, try);
pairing!(SendStreamingMessageResult, pb::StreamResponse, try, try);
pairing!(
    ListTaskPushNotificationConfigSuccessResponse,
    pb::ListTaskPushNotificationConfigResponse,
    from,
    try
);

impl Pairing<pb::DataPart> for JsonObject {
    fn into_proto(self) -> Result<pb::DataPart, ConversionError> {
        Ok(data_to_proto(self))
    }
    fn from_proto(proto: pb::DataPart) -> Result<Self, ConversionError> {
        data_from_proto(proto)
    }
}

impl Pairing<pb::Security> for SecurityRequirement {
    fn into_proto(self) -> Result<pb::Security, ConversionError> {
        Ok(security_to_proto(self))
    }
    fn from_proto(proto: pb::Security) -> Result<Self, ConversionError> {
        Ok(security_from_proto(proto))
    }
}

impl Pairing<pb::StringList> for Vec<String> {
    fn into_proto(self) -> Result<pb::StringList, ConversionError> {
        Ok(pb::StringList { list: self })
    }
    fn from_proto(proto: pb::StringList) -> Result<Self, ConversionError> {
        Ok(proto.list)
    }
}

macro_rules! pairs {
    ($($proto:literal => $jsonrpc:literal : $json:ty, $pb:ty;)*) => {
        /// Every `a2a.v1` message with a JSON-RPC form, in the proto's declaration order.
        pub const PROTO_PAIRS: &[ProtoPair] = &[$(ProtoPair {
            proto: $proto,
            jsonrpc: $jsonrpc,
            to_proto: encode::<$json, $pb>,
            from_proto: decode::<$json, $pb>,
        }),*];
    };
}

pairs! {
    "a2a.v1.SendMessageConfiguration" => "MessageSendConfiguration": MessageSendConfiguration, pb::SendMessageConfiguration;
    "a2a.v1.Task" => "Task": Task, pb::Task;
    "a2a.v1.TaskStatus" => "TaskStatus": TaskStatus, pb::TaskStatus;
    "a2a.v1.Part" => "Part": Part, pb::Part;
    "a2a.v1.FilePart" => "FilePart.file": FileContent, pb::FilePart;
    "a2a.v1.DataPart" => "DataPart.data": JsonObject, pb::DataPart;
    "a2a.v1.Message" => "Message": Message, pb::Message;
    "a2a.v1.Artifact" => "Artifact": Artifact, pb::Artifact;
    "a2a.v1.TaskStatusUpdateEvent" => "TaskStatusUpdateEvent": TaskStatusUpdateEvent, pb::TaskStatusUpdateEvent;
    "a2a.v1.TaskArtifactUpdateEvent" => "TaskArtifactUpdateEvent": TaskArtifactUpdateEvent, pb::TaskArtifactUpdateEvent;
    "a2a.v1.PushNotificationConfig" => "PushNotificationConfig": PushNotificationConfig, pb::PushNotificationConfig;
    "a2a.v1.AuthenticationInfo" => "PushNotificationAuthenticationInfo": PushNotificationAuthenticationInfo, pb::AuthenticationInfo;
    "a2a.v1.AgentInterface" => "AgentInterface": AgentInterface, pb::AgentInterface;
    "a2a.v1.AgentCard" => "AgentCard": AgentCard, pb::AgentCard;
    "a2a.v1.AgentProvider" => "AgentProvider": AgentProvider, pb::AgentProvider;
    "a2a.v1.AgentCapabilities" => "AgentCapabilities": AgentCapabilities, pb::AgentCapabilities;
    "a2a.v1.AgentExtension" => "AgentExtension": AgentExtension, pb::AgentExtension;
    "a2a.v1.AgentSkill" => "AgentSkill": AgentSkill, pb::AgentSkill;
    "a2a.v1.AgentCardSignature" => "AgentCardSignature": AgentCardSignature, pb::AgentCardSignature;
    "a2a.v1.TaskPushNotificationConfig" => "TaskPushNotificationConfig": TaskPushNotificationConfig, pb::TaskPushNotificationConfig;
    "a2a.v1.StringList" => "AgentCard.security[].*": Vec<String>, pb::StringList;
    "a2a.v1.Security" => "AgentCard.security[]": SecurityRequirement, pb::Security;
    "a2a.v1.SecurityScheme" => "SecurityScheme": SecurityScheme, pb::SecurityScheme;
    "a2a.v1.APIKeySecurityScheme" => "APIKeySecurityScheme": ApiKeySecurityScheme, pb::ApiKeySecurityScheme;
    "a2a.v1.HTTPAuthSecurityScheme" => "HTTPAuthSecurityScheme": HttpAuthSecurityScheme, pb::HttpAuthSecurityScheme;
    "a2a.v1.OAuth2SecurityScheme" => "OAuth2SecurityScheme": OAuth2SecurityScheme, pb::OAuth2SecurityScheme;
    "a2a.v1.OpenIdConnectSecurityScheme" => "OpenIdConnectSecurityScheme": OpenIdConnectSecurityScheme, pb::OpenIdConnectSecurityScheme;
    "a2a.v1.MutualTlsSecurityScheme" => "MutualTLSSecurityScheme": MutualTlsSecurityScheme, pb::MutualTlsSecurityScheme;
    "a2a.v1.OAuthFlows" => "OAuthFlows": OAuthFlows, pb::OAuthFlows;
    "a2a.v1.AuthorizationCodeOAuthFlow" => "AuthorizationCodeOAuthFlow": AuthorizationCodeOAuthFlow, pb::AuthorizationCodeOAuthFlow;
    "a2a.v1.ClientCredentialsOAuthFlow" => "ClientCredentialsOAuthFlow": ClientCredentialsOAuthFlow, pb::ClientCredentialsOAuthFlow;
    "a2a.v1.ImplicitOAuthFlow" => "ImplicitOAuthFlow": ImplicitOAuthFlow, pb::ImplicitOAuthFlow;
    "a2a.v1.PasswordOAuthFlow" => "PasswordOAuthFlow": PasswordOAuthFlow, pb::PasswordOAuthFlow;
    "a2a.v1.SendMessageRequest" => "MessageSendParams": MessageSendParams, pb::SendMessageRequest;
    "a2a.v1.GetTaskRequest" => "TaskQueryParams": TaskQueryParams, pb::GetTaskRequest;
    "a2a.v1.CancelTaskRequest" => "TaskIdParams": TaskIdParams, pb::CancelTaskRequest;
    "a2a.v1.GetTaskPushNotificationConfigRequest" => "GetTaskPushNotificationConfigParams": GetTaskPushNotificationConfigParams, pb::GetTaskPushNotificationConfigRequest;
    "a2a.v1.DeleteTaskPushNotificationConfigRequest" => "DeleteTaskPushNotificationConfigParams": DeleteTaskPushNotificationConfigParams, pb::DeleteTaskPushNotificationConfigRequest;
    "a2a.v1.CreateTaskPushNotificationConfigRequest" => "TaskPushNotificationConfig": TaskPushNotificationConfig, pb::CreateTaskPushNotificationConfigRequest;
    "a2a.v1.TaskSubscriptionRequest" => "TaskIdParams": TaskIdParams, pb::TaskSubscriptionRequest;
    "a2a.v1.ListTaskPushNotificationConfigRequest" => "ListTaskPushNotificationConfigParams": ListTaskPushNotificationConfigParams, pb::ListTaskPushNotificationConfigRequest;
    "a2a.v1.SendMessageResponse" => "SendMessageSuccessResponse.result": SendMessageResult, pb::SendMessageResponse;
    "a2a.v1.StreamResponse" => "SendStreamingMessageSuccessResponse.result": SendStreamingMessageResult, pb::StreamResponse;
    "a2a.v1.ListTaskPushNotificationConfigResponse" => "ListTaskPushNotificationConfigSuccessResponse": ListTaskPushNotificationConfigSuccessResponse, pb::ListTaskPushNotificationConfigResponse;
}

/// The `a2a.v1` messages without a JSON-RPC form, each with the reason.
pub const NO_JSONRPC_COUNTERPART: &[(&str, &str)] = &[(
    "a2a.v1.GetAgentCardRequest",
    "`agent/getAuthenticatedExtendedCard` takes no params, and the message is empty",
)];

fn pair(proto_full_name: &str) -> Result<&'static ProtoPair, TranscodeError> {
    if let Some(pair) = PROTO_PAIRS.iter().find(|p| p.proto == proto_full_name) {
        return Ok(pair);
    }
    match NO_JSONRPC_COUNTERPART
        .iter()
        .find(|(name, _)| *name == proto_full_name)
    {
        Some((proto, reason)) => Err(TranscodeError::NoCounterpart { proto, reason }),
        None => Err(TranscodeError::UnknownType(proto_full_name.to_owned())),
    }
}

/// The JSON-RPC form of the `a2a.v1` message `proto_full_name`, as [`ProtoPair::jsonrpc`] names it;
/// `None` for a message without one or a name that is no `a2a.v1` message.
///
/// ```
/// use a2a_types::v0_3::proto::jsonrpc_schema_type;
///
/// assert_eq!(jsonrpc_schema_type("a2a.v1.SendMessageRequest"), Some("MessageSendParams"));
/// assert_eq!(jsonrpc_schema_type("a2a.v1.GetAgentCardRequest"), None);
/// ```
pub fn jsonrpc_schema_type(proto_full_name: &str) -> Option<&'static str> {
    pair(proto_full_name).ok().map(|pair| pair.jsonrpc)
}

/// Reads `json` as the JSON-RPC form of `proto_full_name` and returns the message in the protobuf
/// binary encoding, as the SDK converts it.
///
/// ```
/// use a2a_proto::registry::ProtoMessage;
/// use a2a_proto::v0_3 as pb;
/// use a2a_types::v0_3::proto::jsonrpc_to_proto;
///
/// fn decode<M: ProtoMessage>(bytes: &[u8]) -> M {
///     M::decode(bytes).unwrap()
/// }
///
/// let params = serde_json::json!({"id": "task-7f3a", "historyLength": 5});
/// let bytes = jsonrpc_to_proto("a2a.v1.GetTaskRequest", params).unwrap();
/// let request: pb::GetTaskRequest = decode(&bytes);
/// assert_eq!((request.name.as_str(), request.history_length), ("tasks/task-7f3a", 5));
/// ```
pub fn jsonrpc_to_proto(
    proto_full_name: &str,
    json: serde_json::Value,
) -> Result<Vec<u8>, TranscodeError> {
    pair(proto_full_name)?.to_proto(json)
}

/// Decodes `binpb` as the message `proto_full_name` and returns its JSON-RPC form, as the SDK
/// converts it.
///
/// ```
/// use a2a_types::v0_3::proto::{jsonrpc_to_proto, proto_to_jsonrpc};
///
/// let bytes = jsonrpc_to_proto("a2a.v1.CancelTaskRequest", serde_json::json!({"id": "t-1"})).unwrap();
/// let params = proto_to_jsonrpc("a2a.v1.CancelTaskRequest", &bytes).unwrap();
/// assert_eq!(params, serde_json::json!({"id": "t-1"}));
///
/// let bad = proto_to_jsonrpc("a2a.v1.CancelTaskRequest", b"\x0a\x04t-1/").unwrap_err();
/// assert!(bad.to_string().contains("at `name`"), "{bad}");
/// ```
pub fn proto_to_jsonrpc(
    proto_full_name: &str,
    binpb: &[u8],
) -> Result<serde_json::Value, TranscodeError> {
    pair(proto_full_name)?.from_proto(binpb)
}
