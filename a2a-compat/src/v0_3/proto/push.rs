//! Push notification configs, their authentication, and the requests that carry them.

use super::*;

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

impl TryFrom<TaskPushNotificationConfig> for pb::TaskPushNotificationConfig {
    type Error = ConversionError;

    /// The name is `tasks/{taskId}/pushNotificationConfigs/{id}`, with `None` for a missing `id`
    /// (the SDK formats Python's `None`). Fails on an empty task id.
    fn try_from(config: TaskPushNotificationConfig) -> Result<Self, ConversionError> {
        let config_id = config
            .push_notification_config
            .id
            .as_deref()
            .unwrap_or("None");
        Ok(Self {
            name: push_config_name(&config.task_id, "taskId", config_id)?,
            push_notification_config: Some(config.push_notification_config.into()),
        })
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

impl TryFrom<TaskPushNotificationConfig> for pb::CreateTaskPushNotificationConfigRequest {
    type Error = ConversionError;

    /// `parent` is `tasks/{taskId}`, `configId` the config's `id` (`""` when absent), `config` the
    /// [`pb::TaskPushNotificationConfig`] of the same value (so it fails where that does).
    fn try_from(config: TaskPushNotificationConfig) -> Result<Self, ConversionError> {
        Ok(Self {
            parent: task_name(&config.task_id, "taskId")?,
            config_id: config
                .push_notification_config
                .id
                .clone()
                .unwrap_or_default(),
            config: Some(config.try_into()?),
        })
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

impl TryFrom<ListTaskPushNotificationConfigSuccessResponse>
    for pb::ListTaskPushNotificationConfigResponse
{
    type Error = ConversionError;

    /// The JSON-RPC `id` is not carried; `nextPageToken` is empty. Fails where a config does
    /// (`result.<i>`).
    fn try_from(
        response: ListTaskPushNotificationConfigSuccessResponse,
    ) -> Result<Self, ConversionError> {
        let configs = response
            .result
            .into_iter()
            .enumerate()
            .map(|(i, config)| {
                config
                    .try_into()
                    .map_err(|e: ConversionError| e.at_index("result", i))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            configs,
            next_page_token: String::new(),
        })
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
