//! The push-notification checks: config CRUD, and delivery to a webhook this run serves on 127.0.0.1.

use a2a_client::A2aClient;
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest, StreamResponse,
    TaskPushNotificationConfig, TaskState,
};

use super::checks::working_task;
use super::helpers::{completed_task, expect_error, failed, message_id, truncate};
use super::run::CheckResult;

pub(super) async fn push_config_crud(client: &A2aClient) -> CheckResult {
    let task = completed_task(client).await?;
    let config_id = message_id("push");
    let wanted = TaskPushNotificationConfig {
        task_id: Some(task.id.clone()),
        id: Some(config_id.clone()),
        url: "http://127.0.0.1:9/a2a-webhook".into(),
        token: Some("webhook-secret".into()),
        ..Default::default()
    };
    let created = client
        .create_task_push_notification_config(wanted.clone())
        .await
        .map_err(|e| failed("CreateTaskPushNotificationConfig", e))?;
    let same = |c: &TaskPushNotificationConfig| {
        c.id.as_deref() == Some(config_id.as_str())
            && c.url == wanted.url
            && c.token == wanted.token
            && c.task_id.as_deref() == Some(task.id.as_str())
    };
    if !same(&created) {
        return Err(format!("created {created:?}, asked for {wanted:?}"));
    }
    let get_request = GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: config_id.clone(),
        ..Default::default()
    };
    let fetched = client
        .get_task_push_notification_config(get_request.clone())
        .await
        .map_err(|e| failed("GetTaskPushNotificationConfig", e))?;
    if !same(&fetched) {
        return Err(format!("got {fetched:?}, created {created:?}"));
    }
    let list_request = ListTaskPushNotificationConfigsRequest {
        task_id: task.id.clone(),
        ..Default::default()
    };
    let listed = client
        .list_task_push_notification_configs(list_request.clone())
        .await
        .map_err(|e| failed("ListTaskPushNotificationConfigs", e))?;
    if listed.configs.len() != 1 || !same(&listed.configs[0]) {
        return Err(format!(
            "listed {:?}, expected the one created",
            listed.configs
        ));
    }
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: config_id.clone(),
            ..Default::default()
        })
        .await
        .map_err(|e| failed("DeleteTaskPushNotificationConfig", e))?;
    let after = client
        .list_task_push_notification_configs(list_request)
        .await
        .map_err(|e| failed("ListTaskPushNotificationConfigs after delete", e))?;
    if !after.configs.is_empty() {
        return Err(format!("still listed after delete: {:?}", after.configs));
    }
    let gone = expect_error(
        client.get_task_push_notification_config(get_request).await,
        ErrorKind::TaskNotFound,
    )
    .map_err(|e| format!("Get after delete: {e}"))?;
    Ok(format!(
        "create, get, list (1), delete, list (0), get → {gone}"
    ))
}

/// One webhook call the agent made: its `Authorization` header and its body.
pub(super) struct Delivery {
    authorization: Option<String>,
    body: Vec<u8>,
}

/// A loopback webhook receiver (axum) for as long as the returned task handle lives.
pub(super) async fn webhook() -> Result<
    (
        String,
        tokio::sync::mpsc::UnboundedReceiver<Delivery>,
        AbortOnDrop,
    ),
    String,
> {
    use axum::routing::post;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("binding the webhook: {e}"))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("the webhook's address: {e}"))?;
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/a2a-webhook",
        post(
            move |headers: axum::http::HeaderMap, body: axum::body::Bytes| async move {
                let authorization = headers
                    .get(axum::http::header::AUTHORIZATION)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let _ = sender.send(Delivery {
                    authorization,
                    body: body.to_vec(),
                });
                axum::http::StatusCode::OK
            },
        ),
    );
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((
        format!("http://{address}/a2a-webhook"),
        receiver,
        AbortOnDrop(server),
    ))
}

/// Stops a spawned task when dropped, so a failed check leaves no webhook listening.
pub(super) struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The state a delivered notification reports for `task_id`, if it is about that task.
pub(super) fn delivered_state(body: &[u8], task_id: &str) -> Option<TaskState> {
    let event: StreamResponse = a2a_types::json::from_slice(body).ok()?;
    match event {
        StreamResponse::Task(task) if task.id == task_id => Some(task.status.state),
        StreamResponse::StatusUpdate(update) if update.task_id == task_id => {
            Some(update.status.state)
        }
        _ => None,
    }
}

/// Whether a webhook call's `Authorization` header is `{scheme} {credentials}`, what the
/// specification asks of every call (section 4.3.3: "The agent MUST include authentication
/// credentials in the request headers as specified in the `PushNotificationConfig.authentication`
/// field", its request format `Authorization: {authentication_scheme} {credentials}`; section 13.2
/// again). The scheme is compared in any case (RFC 9110 section 11.1, as the proto's
/// `AuthenticationInfo.scheme` says), the credentials exactly. The config's `token` is not looked
/// for: the specification names no header for it (both official SDKs happen to send it in
/// `X-A2A-Notification-Token`, which a client may read but a conformance check must not require).
fn carries_credentials(authorization: Option<&str>, scheme: &str, credentials: &str) -> bool {
    authorization
        .and_then(|value| value.split_once(' '))
        .is_some_and(|(sent_scheme, sent_credentials)| {
            sent_scheme.eq_ignore_ascii_case(scheme) && sent_credentials == credentials
        })
}

pub(super) async fn push_delivery(client: &A2aClient) -> CheckResult {
    let (url, mut deliveries, _server) = webhook().await?;
    let task = working_task(client).await?;
    let token = message_id("webhook-token");
    let credentials = message_id("webhook-credentials");
    // `..Default::default()` keeps this compiling when the spec adds a field.
    #[allow(clippy::needless_update)]
    let authentication = AuthenticationInfo {
        scheme: "Bearer".into(),
        credentials: Some(credentials.clone()),
        ..Default::default()
    };
    client
        .create_task_push_notification_config(TaskPushNotificationConfig {
            task_id: Some(task.id.clone()),
            url: url.clone(),
            token: Some(token.clone()),
            authentication: Some(authentication),
            ..Default::default()
        })
        .await
        .map_err(|e| failed("CreateTaskPushNotificationConfig", e))?;
    let mut seen = 0;
    while let Some(delivery) = deliveries.recv().await {
        seen += 1;
        if !carries_credentials(delivery.authorization.as_deref(), "Bearer", &credentials) {
            return Err(format!(
                "a webhook call carried Authorization {:?}, expected \"Bearer {credentials}\"",
                delivery.authorization
            ));
        }
        match delivered_state(&delivery.body, &task.id) {
            Some(TaskState::Completed) => {
                return Ok(format!(
                    "{seen} webhook call(s) to {url} with the credentials, the last one completed"
                ));
            }
            Some(_) => {}
            None => {
                return Err(format!(
                    "a webhook body that is no event of task {}: {}",
                    task.id,
                    truncate(&String::from_utf8_lossy(&delivery.body), 200)
                ));
            }
        }
    }
    Err("the webhook stopped before the completed notification".into())
}

#[cfg(test)]
mod tests {
    use super::carries_credentials;

    #[test]
    fn the_authorization_header_is_the_scheme_in_any_case_and_the_credentials_exactly() {
        let accepted = |header: Option<&str>| carries_credentials(header, "Bearer", "s3cret");
        assert!(accepted(Some("Bearer s3cret")));
        assert!(accepted(Some("bearer s3cret")));
        assert!(!accepted(Some("Bearer S3CRET")));
        assert!(!accepted(Some("Basic s3cret")));
        assert!(!accepted(Some("Bearer")));
        assert!(!accepted(Some("Bearer  s3cret")));
        assert!(!accepted(None));
    }
}
