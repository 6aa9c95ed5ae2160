//! Enums, parts, messages, tasks, artifacts, stream events and the two results (`message/send`,
//! `message/stream`).

use super::*;

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

    /// `fileWithBytes` becomes base64 text by [`file_bytes_as_base64`] (the Python SDK's habit and
    /// the JS SDK's both read without loss); with neither member the result is `{"bytes": ""}`.
    /// Empty `mimeType` and `name` become absent.
    fn try_from(file: pb::FilePart) -> Result<Self, ConversionError> {
        let mime_type = nonempty_string(file.mime_type);
        let name = nonempty_string(file.name);
        Ok(match file.file {
            Some(pb::file_part::File::FileWithUri(uri)) => FileContent::Uri(FileWithUri {
                mime_type,
                name,
                uri,
            }),
            Some(pb::file_part::File::FileWithBytes(bytes)) => FileContent::Bytes(FileWithBytes {
                bytes: file_bytes_as_base64(bytes),
                mime_type,
                name,
            }),
            None => FileContent::Bytes(FileWithBytes {
                bytes: String::new(),
                mime_type,
                name,
            }),
        })
    }
}

/// The base64 text of what a peer put in a v0.3 `fileWithBytes`. Peers fill it two ways: the Python
/// SDK 0.3 with the UTF-8 of the base64 text of the content, the JS SDK with the content itself.
/// Bytes that are strictly that text (the standard alphabet, canonical padding, nothing else) are
/// taken as the Python SDK's and kept as they are; any other bytes are the content, and are encoded.
/// Content that is itself canonical base64 text (such as `abcd`) cannot be told apart and reads as
/// the Python SDK's.
pub fn file_bytes_as_base64(bytes: Vec<u8>) -> String {
    use base64::Engine as _;
    let engine = &base64::engine::general_purpose::STANDARD;
    match String::from_utf8(bytes) {
        Ok(text) if engine.decode(&text).is_ok() => text,
        Ok(text) => engine.encode(text),
        Err(not_text) => engine.encode(not_text.into_bytes()),
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
