//! Parts, messages, tasks, artifacts, stream events, push notification configs and the send
//! configuration.

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use serde_json::Value;

use super::sdk_compat::{
    decode_base64_like_python, encode_base64, format_timestamp, member_without_counterpart,
    nonempty, nonempty_list, nonempty_string, nonempty_struct, python_truthy, to_struct, to_value,
    true_or_unset,
};
use super::{BridgeError, BridgeErrorKind, convert_list};
use a2a_types::v1;
use a2a_types::v1::PartContent;

use crate::v0_3;

/// The metadata key the SDK uses to carry a v1 `data` part that is not a JSON object through v0.3,
/// whose `DataPart.data` must be one: the value goes under `data.value` and this key is set to `true`.
pub const DATA_PART_COMPAT_KEY: &str = "data_part_compat";

// ---------------------------------------------------------------------------------------------------
// Part

/// A v0.3 part as v1 content.
///
/// - `text` → `text`, with its metadata (an empty `{}` is kept).
/// - `file` with `bytes` → `raw`, decoded as Python's lenient `b64decode` does (characters outside the
///   standard alphabet are skipped); `file` with `uri` → `url`. `mimeType` → `mediaType` and
///   `name` → `filename`, both dropped when empty.
/// - `data` → `data` (a JSON object). When the part's metadata has a true `data_part_compat`, the
///   part is one the SDK wrapped: `data.value` (any JSON) becomes the v1 `data` and the key is removed.
///   `data_part_compat` is removed from the metadata even when false, and metadata left empty is dropped.
///
/// Fails on base64 the SDK cannot decode (`file.bytes`) and on a `data_part_compat` part without
/// `data.value`.
impl TryFrom<v0_3::Part> for v1::Part {
    type Error = BridgeError;

    fn try_from(part: v0_3::Part) -> Result<Self, BridgeError> {
        Ok(match part {
            v0_3::Part::Text(part) => v1::Part {
                content: Some(PartContent::Text(part.text)),
                metadata: part.metadata.map(to_struct),
                filename: None,
                media_type: None,
                ..Default::default()
            },
            v0_3::Part::Data(part) => {
                let mut wrapped = false;
                let metadata = part.metadata.and_then(|mut metadata| {
                    wrapped = metadata
                        .remove(DATA_PART_COMPAT_KEY)
                        .is_some_and(|flag| python_truthy(&flag));
                    nonempty_struct(Some(metadata))
                });
                let data = if wrapped {
                    part.data.get("value").cloned().ok_or_else(|| {
                        BridgeError::new(BridgeErrorKind::MissingWrappedValue).at("data")
                    })?
                } else {
                    Value::Object(part.data)
                };
                v1::Part {
                    content: Some(PartContent::Data(to_value(data))),
                    metadata,
                    filename: None,
                    media_type: None,
                    ..Default::default()
                }
            }
            v0_3::Part::File(part) => {
                let (content, mime_type, name) = match part.file {
                    v0_3::FileContent::Bytes(file) => {
                        let raw = decode_base64_like_python(&file.bytes).map_err(|reason| {
                            BridgeError::new(BridgeErrorKind::InvalidBase64 { reason })
                                .at("file.bytes")
                        })?;
                        (PartContent::Raw(raw), file.mime_type, file.name)
                    }
                    v0_3::FileContent::Uri(file) => {
                        (PartContent::Url(file.uri), file.mime_type, file.name)
                    }
                };
                v1::Part {
                    content: Some(content),
                    metadata: part.metadata.map(to_struct),
                    filename: nonempty(name),
                    media_type: nonempty(mime_type),
                    ..Default::default()
                }
            }
        })
    }
}

/// A v1 part as a v0.3 part.
///
/// - `text` → a `text` part; its `mediaType` and `filename` are lost (v0.3 text parts have neither).
/// - `raw` → a `file` part with standard base64 `bytes`; `url` → a `file` part with `uri`; `mediaType`
///   → `mimeType`, `filename` → `name`.
/// - `data` holding a JSON object → a `data` part; any other JSON (array, string, number, boolean,
///   null) is wrapped as `{"value": ...}` and `data_part_compat: true` is added to the metadata.
///   `mediaType` and `filename` are lost.
///
/// Fails on a part with no content, or with content of a kind v0.3 has no part for.
impl TryFrom<v1::Part> for v0_3::Part {
    type Error = BridgeError;

    fn try_from(part: v1::Part) -> Result<Self, BridgeError> {
        let metadata = part.metadata;
        let file = |file: v0_3::FileContent, metadata| {
            v0_3::Part::File(v0_3::FilePart {
                file,
                kind: Default::default(),
                metadata,
            })
        };
        Ok(
            match part
                .content
                .ok_or_else(|| BridgeError::new(BridgeErrorKind::PartWithoutContent))?
            {
                PartContent::Text(text) => v0_3::Part::Text(v0_3::TextPart {
                    kind: Default::default(),
                    metadata,
                    text,
                }),
                PartContent::Data(Value::Object(data)) => v0_3::Part::Data(v0_3::DataPart {
                    data,
                    kind: Default::default(),
                    metadata,
                }),
                PartContent::Data(other) => {
                    let mut metadata = metadata.unwrap_or_default();
                    metadata.insert(DATA_PART_COMPAT_KEY.to_owned(), Value::Bool(true));
                    let mut data = a2a_types::JsonObject::new();
                    data.insert("value".to_owned(), other);
                    v0_3::Part::Data(v0_3::DataPart {
                        data,
                        kind: Default::default(),
                        metadata: Some(metadata),
                    })
                }
                PartContent::Raw(bytes) => file(
                    v0_3::FileContent::Bytes(v0_3::FileWithBytes {
                        bytes: encode_base64(&bytes),
                        mime_type: nonempty(part.media_type),
                        name: nonempty(part.filename),
                    }),
                    metadata,
                ),
                PartContent::Url(uri) => file(
                    v0_3::FileContent::Uri(v0_3::FileWithUri {
                        mime_type: nonempty(part.media_type),
                        name: nonempty(part.filename),
                        uri,
                    }),
                    metadata,
                ),
                // Content of a kind a later v1 adds.
                #[allow(unreachable_patterns)]
                other => {
                    let part = v1::Part {
                        content: Some(other),
                        ..Default::default()
                    };
                    return Err(member_without_counterpart("lf.a2a.v1.Part", &part));
                }
            },
        )
    }
}

// ---------------------------------------------------------------------------------------------------
// Role, TaskState

/// `user` → `ROLE_USER`, `agent` → `ROLE_AGENT`.
impl From<v0_3::MessageRole> for v1::Role {
    fn from(role: v0_3::MessageRole) -> Self {
        match role {
            v0_3::MessageRole::User => v1::Role::User,
            v0_3::MessageRole::Agent => v1::Role::Agent,
        }
    }
}

/// `ROLE_USER` → `user`; every other value, `ROLE_UNSPECIFIED` and unrecognized numbers included, →
/// `agent` (as the SDK does).
impl From<v1::Role> for v0_3::MessageRole {
    fn from(role: v1::Role) -> Self {
        match role {
            v1::Role::User => v0_3::MessageRole::User,
            _ => v0_3::MessageRole::Agent,
        }
    }
}

/// Each state to its namesake; `unknown` → `TASK_STATE_UNSPECIFIED`.
impl From<v0_3::TaskState> for v1::TaskState {
    fn from(state: v0_3::TaskState) -> Self {
        use v0_3::TaskState as S;
        match state {
            S::Submitted => v1::TaskState::Submitted,
            S::Working => v1::TaskState::Working,
            S::InputRequired => v1::TaskState::InputRequired,
            S::Completed => v1::TaskState::Completed,
            S::Canceled => v1::TaskState::Canceled,
            S::Failed => v1::TaskState::Failed,
            S::Rejected => v1::TaskState::Rejected,
            S::AuthRequired => v1::TaskState::AuthRequired,
            S::Unknown => v1::TaskState::Unspecified,
        }
    }
}

/// Each state to its namesake; `TASK_STATE_UNSPECIFIED` and unrecognized numbers → `unknown` (as the
/// SDK does: v0.3 has no way to carry the number).
impl From<v1::TaskState> for v0_3::TaskState {
    fn from(state: v1::TaskState) -> Self {
        use v0_3::TaskState as S;
        match state {
            v1::TaskState::Submitted => S::Submitted,
            v1::TaskState::Working => S::Working,
            v1::TaskState::InputRequired => S::InputRequired,
            v1::TaskState::Completed => S::Completed,
            v1::TaskState::Canceled => S::Canceled,
            v1::TaskState::Failed => S::Failed,
            v1::TaskState::Rejected => S::Rejected,
            v1::TaskState::AuthRequired => S::AuthRequired,
            _ => S::Unknown,
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Message

/// Every field carries over. Empty `contextId`/`taskId` strings and an empty `metadata` object are
/// dropped; `kind` is implied.
impl TryFrom<v0_3::Message> for v1::Message {
    type Error = BridgeError;

    fn try_from(message: v0_3::Message) -> Result<Self, BridgeError> {
        Ok(v1::Message {
            message_id: message.message_id,
            context_id: nonempty(message.context_id),
            task_id: nonempty(message.task_id),
            role: message.role.into(),
            parts: convert_list(message.parts, "parts")?,
            metadata: nonempty_struct(message.metadata),
            extensions: message.extensions.unwrap_or_default(),
            reference_task_ids: message.reference_task_ids.unwrap_or_default(),
            ..Default::default()
        })
    }
}

/// Every field carries over (see the role mapping on [`v0_3::MessageRole`]); empty lists and an empty
/// `metadata` object are left out. Fails where a part fails.
impl TryFrom<v1::Message> for v0_3::Message {
    type Error = BridgeError;

    fn try_from(message: v1::Message) -> Result<Self, BridgeError> {
        Ok(v0_3::Message {
            context_id: nonempty(message.context_id),
            extensions: nonempty_list(message.extensions),
            kind: Default::default(),
            message_id: message.message_id,
            metadata: message.metadata.filter(|m| !m.is_empty()),
            parts: convert_list(message.parts, "parts")?,
            reference_task_ids: nonempty_list(message.reference_task_ids),
            role: message.role.into(),
            task_id: nonempty(message.task_id),
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// TaskStatus, Task, Artifact

/// State, message and timestamp. The timestamp is read as the SDK reads it (RFC 3339 with `Z` or an
/// offset, at most nine fraction digits); an empty string is no timestamp. Fails on a timestamp the SDK
/// rejects (`timestamp`) or an invalid message.
impl TryFrom<v0_3::TaskStatus> for v1::TaskStatus {
    type Error = BridgeError;

    fn try_from(status: v0_3::TaskStatus) -> Result<Self, BridgeError> {
        let timestamp = match status.timestamp.filter(|t| !t.is_empty()) {
            None => None,
            Some(text) => Some(
                crate::v0_3::sdk_values::parse_timestamp_like_sdk(&text).map_err(|reason| {
                    BridgeError::new(BridgeErrorKind::InvalidTimestamp {
                        value: text.clone(),
                        reason,
                    })
                    .at("timestamp")
                })?,
            ),
        };
        Ok(v1::TaskStatus {
            state: status.state.into(),
            message: status
                .message
                .map(v1::Message::try_from)
                .transpose()
                .map_err(|e| e.at("message"))?,
            timestamp,
            ..Default::default()
        })
    }
}

/// State, message and timestamp; the timestamp is written in UTC with `Z` and 0, 3, 6 or 9 fraction
/// digits. Fails on an invalid message, or a timestamp outside years 0001 to 9999.
impl TryFrom<v1::TaskStatus> for v0_3::TaskStatus {
    type Error = BridgeError;

    fn try_from(status: v1::TaskStatus) -> Result<Self, BridgeError> {
        let timestamp = status
            .timestamp
            .map(|time| {
                format_timestamp(&time).map_err(|reason| {
                    BridgeError::new(BridgeErrorKind::InvalidTimestamp {
                        value: time.to_rfc3339(),
                        reason,
                    })
                    .at("timestamp")
                })
            })
            .transpose()?;
        Ok(v0_3::TaskStatus {
            message: status
                .message
                .map(v0_3::Message::try_from)
                .transpose()
                .map_err(|e| e.at("message"))?,
            state: status.state.into(),
            timestamp,
        })
    }
}

/// Every field carries over; an empty `contextId` and an empty `metadata` object are dropped.
impl TryFrom<v0_3::Task> for v1::Task {
    type Error = BridgeError;

    fn try_from(task: v0_3::Task) -> Result<Self, BridgeError> {
        Ok(v1::Task {
            id: task.id,
            context_id: nonempty_string(task.context_id),
            status: task
                .status
                .try_into()
                .map_err(|e: BridgeError| e.at("status"))?,
            artifacts: convert_list(task.artifacts.unwrap_or_default(), "artifacts")?,
            history: convert_list(task.history.unwrap_or_default(), "history")?,
            metadata: nonempty_struct(task.metadata),
            ..Default::default()
        })
    }
}

/// Every field carries over; empty `history` and `artifacts` are left out, an absent `contextId`
/// becomes `""` (it is required in v0.3).
impl TryFrom<v1::Task> for v0_3::Task {
    type Error = BridgeError;

    fn try_from(task: v1::Task) -> Result<Self, BridgeError> {
        Ok(v0_3::Task {
            artifacts: nonempty_list(convert_list(task.artifacts, "artifacts")?),
            context_id: task.context_id.unwrap_or_default(),
            history: nonempty_list(convert_list(task.history, "history")?),
            id: task.id,
            kind: Default::default(),
            metadata: task.metadata,
            status: task
                .status
                .try_into()
                .map_err(|e: BridgeError| e.at("status"))?,
        })
    }
}

/// Every field carries over; empty `name`, `description` and `metadata` are dropped.
impl TryFrom<v0_3::Artifact> for v1::Artifact {
    type Error = BridgeError;

    fn try_from(artifact: v0_3::Artifact) -> Result<Self, BridgeError> {
        Ok(v1::Artifact {
            artifact_id: artifact.artifact_id,
            name: nonempty(artifact.name),
            description: nonempty(artifact.description),
            parts: convert_list(artifact.parts, "parts")?,
            metadata: nonempty_struct(artifact.metadata),
            extensions: artifact.extensions.unwrap_or_default(),
            ..Default::default()
        })
    }
}

/// Every field carries over; empty `extensions` are left out.
impl TryFrom<v1::Artifact> for v0_3::Artifact {
    type Error = BridgeError;

    fn try_from(artifact: v1::Artifact) -> Result<Self, BridgeError> {
        Ok(v0_3::Artifact {
            artifact_id: artifact.artifact_id,
            description: nonempty(artifact.description),
            extensions: nonempty_list(artifact.extensions),
            metadata: artifact.metadata,
            name: nonempty(artifact.name),
            parts: convert_list(artifact.parts, "parts")?,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Stream events

/// Whether a v0.3 status update written for this state is `final`, as the SDK decides it: only for
/// `completed`, `canceled`, `failed` and `rejected` (not for `input-required` or `auth-required`).
pub fn is_final_state(state: v0_3::TaskState) -> bool {
    matches!(
        state,
        v0_3::TaskState::Completed
            | v0_3::TaskState::Canceled
            | v0_3::TaskState::Failed
            | v0_3::TaskState::Rejected
    )
}

/// Task, context, status and metadata; v0.3's `final` is dropped (v1 ends a stream by closing it).
impl TryFrom<v0_3::TaskStatusUpdateEvent> for v1::TaskStatusUpdateEvent {
    type Error = BridgeError;

    fn try_from(event: v0_3::TaskStatusUpdateEvent) -> Result<Self, BridgeError> {
        Ok(v1::TaskStatusUpdateEvent {
            task_id: event.task_id,
            context_id: event.context_id,
            status: event
                .status
                .try_into()
                .map_err(|e: BridgeError| e.at("status"))?,
            metadata: nonempty_struct(event.metadata),
            ..Default::default()
        })
    }
}

/// Task, context, status and metadata; `final` is computed from the state by [`is_final_state`].
impl TryFrom<v1::TaskStatusUpdateEvent> for v0_3::TaskStatusUpdateEvent {
    type Error = BridgeError;

    fn try_from(event: v1::TaskStatusUpdateEvent) -> Result<Self, BridgeError> {
        let status: v0_3::TaskStatus = event
            .status
            .try_into()
            .map_err(|e: BridgeError| e.at("status"))?;
        Ok(v0_3::TaskStatusUpdateEvent {
            context_id: event.context_id,
            final_: is_final_state(status.state),
            kind: Default::default(),
            metadata: event.metadata,
            status,
            task_id: event.task_id,
        })
    }
}

/// Every field carries over (`append: false` and `lastChunk: false` are v1's defaults).
impl TryFrom<v0_3::TaskArtifactUpdateEvent> for v1::TaskArtifactUpdateEvent {
    type Error = BridgeError;

    fn try_from(event: v0_3::TaskArtifactUpdateEvent) -> Result<Self, BridgeError> {
        Ok(v1::TaskArtifactUpdateEvent {
            task_id: event.task_id,
            context_id: event.context_id,
            artifact: event
                .artifact
                .try_into()
                .map_err(|e: BridgeError| e.at("artifact"))?,
            append: true_or_unset(event.append),
            last_chunk: true_or_unset(event.last_chunk),
            metadata: nonempty_struct(event.metadata),
            ..Default::default()
        })
    }
}

/// Every field carries over; `append` and `lastChunk` are always written (`false` when unset).
impl TryFrom<v1::TaskArtifactUpdateEvent> for v0_3::TaskArtifactUpdateEvent {
    type Error = BridgeError;

    fn try_from(event: v1::TaskArtifactUpdateEvent) -> Result<Self, BridgeError> {
        Ok(v0_3::TaskArtifactUpdateEvent {
            append: Some(event.append.unwrap_or(false)),
            artifact: event
                .artifact
                .try_into()
                .map_err(|e: BridgeError| e.at("artifact"))?,
            context_id: event.context_id,
            kind: Default::default(),
            last_chunk: Some(event.last_chunk.unwrap_or(false)),
            metadata: event.metadata,
            task_id: event.task_id,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// Push notification configs

/// The first of `schemes` becomes `scheme`; the others are lost. Empty `credentials` are dropped.
impl From<v0_3::PushNotificationAuthenticationInfo> for v1::AuthenticationInfo {
    fn from(info: v0_3::PushNotificationAuthenticationInfo) -> Self {
        v1::AuthenticationInfo {
            scheme: info.schemes.into_iter().next().unwrap_or_default(),
            credentials: nonempty(info.credentials),
            ..Default::default()
        }
    }
}

/// `scheme` becomes the one entry of `schemes` (none when empty).
impl From<v1::AuthenticationInfo> for v0_3::PushNotificationAuthenticationInfo {
    fn from(info: v1::AuthenticationInfo) -> Self {
        v0_3::PushNotificationAuthenticationInfo {
            credentials: nonempty(info.credentials),
            schemes: nonempty_string(info.scheme).into_iter().collect(),
        }
    }
}

/// `url`, `id`, `token` and `authentication`; the task id and tenant are left unset.
impl From<v0_3::PushNotificationConfig> for v1::TaskPushNotificationConfig {
    fn from(config: v0_3::PushNotificationConfig) -> Self {
        v1::TaskPushNotificationConfig {
            tenant: None,
            id: nonempty(config.id),
            task_id: None,
            url: config.url,
            token: nonempty(config.token),
            authentication: config.authentication.map(Into::into),
            ..Default::default()
        }
    }
}

/// `url`, `id`, `token` and `authentication`; `taskId` and `tenant` are lost.
impl From<v1::TaskPushNotificationConfig> for v0_3::PushNotificationConfig {
    fn from(config: v1::TaskPushNotificationConfig) -> Self {
        v0_3::PushNotificationConfig {
            authentication: config.authentication.map(Into::into),
            id: nonempty(config.id),
            token: nonempty(config.token),
            url: config.url,
        }
    }
}

/// The nested `pushNotificationConfig` is flattened into the v1 message beside `taskId`.
impl From<v0_3::TaskPushNotificationConfig> for v1::TaskPushNotificationConfig {
    fn from(config: v0_3::TaskPushNotificationConfig) -> Self {
        v1::TaskPushNotificationConfig {
            task_id: nonempty_string(config.task_id),
            ..config.push_notification_config.into()
        }
    }
}

/// `taskId` stays beside the config, the rest nests under `pushNotificationConfig`; `tenant` is lost.
impl From<v1::TaskPushNotificationConfig> for v0_3::TaskPushNotificationConfig {
    fn from(config: v1::TaskPushNotificationConfig) -> Self {
        v0_3::TaskPushNotificationConfig {
            task_id: config.task_id.clone().unwrap_or_default(),
            push_notification_config: config.into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Send configuration

/// v0.3's `historyLength` as v1 reads it: absent and `0` both mean "no limit" in the SDK's reading of
/// v0.3, so both become absent.
pub(crate) fn history_length_to_v1(length: Option<i64>) -> Result<Option<i32>, BridgeError> {
    match length {
        None | Some(0) => Ok(None),
        Some(length) => i32::try_from(length).map(Some).map_err(|_| {
            BridgeError::new(BridgeErrorKind::IntegerOutOfRange { value: length })
                .at("historyLength")
        }),
    }
}

/// `blocking` becomes `returnImmediately` (negated); `historyLength: 0` becomes absent; every other
/// field carries over. Fails on a `historyLength` beyond 32 bits.
impl TryFrom<v0_3::MessageSendConfiguration> for v1::SendMessageConfiguration {
    type Error = BridgeError;

    fn try_from(config: v0_3::MessageSendConfiguration) -> Result<Self, BridgeError> {
        Ok(v1::SendMessageConfiguration {
            accepted_output_modes: config.accepted_output_modes.unwrap_or_default(),
            task_push_notification_config: config.push_notification_config.map(Into::into),
            history_length: history_length_to_v1(config.history_length)?,
            return_immediately: true_or_unset(config.blocking.map(|blocking| !blocking)),
            ..Default::default()
        })
    }
}

/// `returnImmediately` becomes `blocking` (negated, always written: `true` when unset); the push config
/// loses its `taskId` and `tenant`; every other field carries over.
impl From<v1::SendMessageConfiguration> for v0_3::MessageSendConfiguration {
    fn from(config: v1::SendMessageConfiguration) -> Self {
        v0_3::MessageSendConfiguration {
            accepted_output_modes: nonempty_list(config.accepted_output_modes),
            blocking: Some(!config.return_immediately.unwrap_or(false)),
            history_length: config.history_length.map(i64::from),
            push_notification_config: config.task_push_notification_config.map(Into::into),
        }
    }
}
