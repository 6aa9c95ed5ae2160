//! Method params: the configuration of `message/send`, and the request messages of the task and
//! push-config methods, which carry resource names (`tasks/{id}`).

use super::*;

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
            name: task_name(&params.id, "id")?,
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

impl TryFrom<TaskIdParams> for pb::CancelTaskRequest {
    type Error = ConversionError;

    /// `metadata` is dropped; fails on an empty id, which names no task.
    fn try_from(params: TaskIdParams) -> Result<Self, ConversionError> {
        Ok(Self {
            name: task_name(&params.id, "id")?,
        })
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

impl TryFrom<TaskIdParams> for pb::TaskSubscriptionRequest {
    type Error = ConversionError;

    /// `metadata` is dropped; fails on an empty id, which names no task.
    fn try_from(params: TaskIdParams) -> Result<Self, ConversionError> {
        Ok(Self {
            name: task_name(&params.id, "id")?,
        })
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

impl TryFrom<GetTaskPushNotificationConfigParams> for pb::GetTaskPushNotificationConfigRequest {
    type Error = ConversionError;

    /// `metadata` is dropped; without `pushNotificationConfigId` the name ends in
    /// `/pushNotificationConfigs/` (the SDK's client sends that, and its server rejects it). Fails on
    /// an empty task id.
    fn try_from(params: GetTaskPushNotificationConfigParams) -> Result<Self, ConversionError> {
        Ok(Self {
            name: push_config_name(
                &params.id,
                "id",
                params.push_notification_config_id.as_deref().unwrap_or(""),
            )?,
        })
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

impl TryFrom<GetTaskPushNotificationConfigRequestParams>
    for pb::GetTaskPushNotificationConfigRequest
{
    type Error = ConversionError;

    /// Task id params name no config: the name ends in `/pushNotificationConfigs/`, as the SDK's client
    /// writes it.
    fn try_from(
        params: GetTaskPushNotificationConfigRequestParams,
    ) -> Result<Self, ConversionError> {
        match params {
            GetTaskPushNotificationConfigRequestParams::TaskId(params) => Ok(Self {
                name: push_config_name(&params.id, "id", "")?,
            }),
            GetTaskPushNotificationConfigRequestParams::GetTaskPushNotificationConfig(params) => {
                params.try_into()
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

impl TryFrom<DeleteTaskPushNotificationConfigParams>
    for pb::DeleteTaskPushNotificationConfigRequest
{
    type Error = ConversionError;

    /// `metadata` is dropped; fails on an empty task id.
    fn try_from(params: DeleteTaskPushNotificationConfigParams) -> Result<Self, ConversionError> {
        Ok(Self {
            name: push_config_name(&params.id, "id", &params.push_notification_config_id)?,
        })
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

impl TryFrom<ListTaskPushNotificationConfigParams> for pb::ListTaskPushNotificationConfigRequest {
    type Error = ConversionError;

    /// `metadata` is dropped; no page size or token. Fails on an empty id.
    fn try_from(params: ListTaskPushNotificationConfigParams) -> Result<Self, ConversionError> {
        Ok(Self {
            parent: task_name(&params.id, "id")?,
            page_size: 0,
            page_token: String::new(),
        })
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
