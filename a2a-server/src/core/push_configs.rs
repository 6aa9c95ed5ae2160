//! The push-notification config operations (create, get, list, delete), each on a task of the
//! caller's, and the config a message may bring along (`configuration.taskPushNotificationConfig`).

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    TaskPushNotificationConfig,
};

use crate::auth::Owner;
use crate::core::state::ServerState;
use crate::core::tasks::task;
use crate::errors::{invalid, not_found};
use crate::store::StoreError;

/// CreateTaskPushNotificationConfig: the config as stored, its id made when it has none.
pub(crate) async fn create(
    state: &ServerState,
    owner: &Owner,
    mut config: TaskPushNotificationConfig,
) -> Result<TaskPushNotificationConfig, Error> {
    let task_id = config.task_id.clone().unwrap_or_default();
    task(state, owner, &task_id).await?;
    check_size(state, &config, "")?;
    state.config.webhook_policy.check_url(&config.url)?;
    if config.id.as_ref().is_none_or(|id| id.is_empty()) {
        config.id = Some(crate::ids::new_id("push"));
    }
    state
        .push_configs
        .save(owner, config.clone())
        .await
        .map_err(|e| match e {
            StoreError::Backend(problem) => invalid("taskId", problem),
            other => other.to_error(&task_id),
        })?;
    Ok(config)
}

/// GetTaskPushNotificationConfig.
pub(crate) async fn get(
    state: &ServerState,
    owner: &Owner,
    request: &GetTaskPushNotificationConfigRequest,
) -> Result<TaskPushNotificationConfig, Error> {
    task(state, owner, &request.task_id).await?;
    state
        .push_configs
        .get(owner, &request.task_id, &request.id)
        .await
        .map_err(|e| e.to_error(&request.task_id))?
        .ok_or_else(|| {
            Error::with_message(
                ErrorKind::TaskNotFound,
                format!(
                    "task {} has no push notification config {}",
                    request.task_id, request.id
                ),
            )
            .with_metadata("taskId", request.task_id.as_str())
        })
}

/// ListTaskPushNotificationConfigs: a page of the task's configs, in the order they were stored.
pub(crate) async fn list(
    state: &ServerState,
    owner: &Owner,
    request: &ListTaskPushNotificationConfigsRequest,
) -> Result<ListTaskPushNotificationConfigsResponse, Error> {
    task(state, owner, &request.task_id).await?;
    let all = state
        .push_configs
        .list(owner, &request.task_id)
        .await
        .map_err(|e| e.to_error(&request.task_id))?;
    let start = match request.page_token.as_deref().filter(|t| !t.is_empty()) {
        None => 0,
        Some(token) => token
            .parse::<usize>()
            .ok()
            .filter(|n| *n <= all.len())
            .ok_or_else(|| {
                invalid(
                    "pageToken",
                    format!("{token:?} is not a page token this agent gave out"),
                )
            })?,
    };
    let size = match request.page_size {
        None | Some(0) => all.len().max(1),
        Some(n) if n < 0 => {
            return Err(invalid(
                "pageSize",
                format!("must not be negative, not {n}"),
            ));
        }
        Some(n) => n as usize,
    };
    let end = (start + size).min(all.len());
    // `..Default::default()` keeps this building when the spec adds a field.
    #[allow(clippy::needless_update)]
    let page = ListTaskPushNotificationConfigsResponse {
        configs: all[start..end].to_vec(),
        next_page_token: (end < all.len()).then(|| end.to_string()),
        ..Default::default()
    };
    Ok(page)
}

/// DeleteTaskPushNotificationConfig.
pub(crate) async fn delete(
    state: &ServerState,
    owner: &Owner,
    request: &DeleteTaskPushNotificationConfigRequest,
) -> Result<(), Error> {
    task(state, owner, &request.task_id).await?;
    state
        .push_configs
        .delete(owner, &request.task_id, &request.id)
        .await
        .map_err(|e| e.to_error(&request.task_id))
}

/// Registers a config given with a message (`configuration.taskPushNotificationConfig`).
pub(crate) async fn add_from_message(
    state: &ServerState,
    owner: &Owner,
    config: TaskPushNotificationConfig,
) -> Result<(), Error> {
    let task_id = config.task_id.clone().unwrap_or_default();
    if state.card.capabilities.push_notifications != Some(true) {
        return Err(Error::new(ErrorKind::PushNotificationNotSupported));
    }
    check_size(state, &config, "configuration.taskPushNotificationConfig.")?;
    state
        .config
        .webhook_policy
        .check_url(&config.url)
        .map_err(|mut e| {
            for violation in &mut e.field_violations {
                violation.field = format!(
                    "configuration.taskPushNotificationConfig.{}",
                    violation.field
                );
            }
            e
        })?;
    let mut config = config;
    if config.id.as_ref().is_none_or(|id| id.is_empty()) {
        config.id = Some(crate::ids::new_id("push"));
    }
    state
        .push_configs
        .save(owner, config)
        .await
        .map_err(|_| not_found(&task_id))
}

/// Refuses a config whose ProtoJSON is over [`PushSettings::max_config_bytes`](crate::PushSettings),
/// naming its largest member (after `prefix`, the config's path in the request).
fn check_size(
    state: &ServerState,
    config: &TaskPushNotificationConfig,
    prefix: &str,
) -> Result<(), Error> {
    let max = state.config.push.max_config_bytes;
    let json = serde_json::to_value(config)
        .map_err(|e| invalid(prefix.trim_end_matches('.'), e.to_string()))?;
    let size = json.to_string().len();
    if size <= max {
        return Ok(());
    }
    let largest = json
        .as_object()
        .and_then(|members| {
            members
                .iter()
                .max_by_key(|(_, value)| value.to_string().len())
                .map(|(name, _)| name.clone())
        })
        .unwrap_or_default();
    Err(invalid(
        &format!("{prefix}{largest}"),
        format!(
            "the push config is {size} bytes of JSON, over this agent's {max}; {largest} is its largest part"
        ),
    ))
}
