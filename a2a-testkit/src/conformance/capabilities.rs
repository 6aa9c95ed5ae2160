//! The checks of section 3.3.4 (Capability Validation): an agent whose card does not declare a
//! capability (false or absent) refuses the operations that need it, with the error the
//! specification names, on every binding. Push-config operations answer
//! `PushNotificationNotSupportedError`; `SendStreamingMessage`, `SubscribeToTask` and
//! `GetExtendedAgentCard` answer `UnsupportedOperationError`. A declared capability is checked by
//! the run's other checks instead, so these are made only for the undeclared ones.

use a2a_client::{A2aClient, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::operations::Capability;
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    SubscribeToTaskRequest, TaskPushNotificationConfig,
};

use super::checks::working_task;
use super::helpers::{cancel, completed_task, expect_error, message_id, send, user_message};
use super::run::{CheckResult, Run};

/// Makes the refusal check of each capability the card does not declare.
pub(super) async fn run(run: &mut Run<'_>, client: &A2aClient) {
    let declared = |capability: Capability| capability.is_declared(&client.card().capabilities);
    if !declared(Capability::PushNotifications) {
        run.check("capability.push-refused", push_refused(client))
            .await;
    }
    if !declared(Capability::Streaming) {
        run.check("capability.streaming-refused", streaming_refused(client))
            .await;
    }
    if !declared(Capability::ExtendedAgentCard) {
        run.check("capability.extended-card-refused", async {
            let answer = client
                .get_extended_agent_card(GetExtendedAgentCardRequest::default())
                .await;
            expect_error(answer, ErrorKind::UnsupportedOperation)
                .map_err(|e| format!("GetExtendedAgentCard: {e}"))
        })
        .await;
    }
}

/// `what` answered with the error of `kind`, or what it answered instead.
fn refused<T: std::fmt::Debug>(
    what: &str,
    answer: Result<T, ClientError>,
    kind: ErrorKind,
) -> Result<(), String> {
    expect_error(answer, kind)
        .map(|_| ())
        .map_err(|e| format!("{what}: {e}"))
}

/// Create, Get, List and Delete of a push config, on a task of the agent's, each refused.
async fn push_refused(client: &A2aClient) -> CheckResult {
    let task = completed_task(client).await?;
    let config_id = message_id("push");
    let kind = ErrorKind::PushNotificationNotSupported;
    let config = TaskPushNotificationConfig {
        task_id: Some(task.id.clone()),
        id: Some(config_id.clone()),
        url: "https://example.com/a2a-webhook".into(),
        ..Default::default()
    };
    refused(
        "CreateTaskPushNotificationConfig",
        client.create_task_push_notification_config(config).await,
        kind,
    )?;
    let get = GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: config_id.clone(),
        ..Default::default()
    };
    refused(
        "GetTaskPushNotificationConfig",
        client.get_task_push_notification_config(get).await,
        kind,
    )?;
    let list = ListTaskPushNotificationConfigsRequest {
        task_id: task.id.clone(),
        ..Default::default()
    };
    refused(
        "ListTaskPushNotificationConfigs",
        client.list_task_push_notification_configs(list).await,
        kind,
    )?;
    let delete = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: config_id,
        ..Default::default()
    };
    refused(
        "DeleteTaskPushNotificationConfig",
        client.delete_task_push_notification_config(delete).await,
        kind,
    )?;
    Ok(format!("create, get, list, delete → {kind}"))
}

/// `SendStreamingMessage`, and `SubscribeToTask` of a task still working (so that only the missing
/// capability can explain a refusal), each refused; the error may come at once or as the stream's
/// first item.
async fn streaming_refused(client: &A2aClient) -> CheckResult {
    let kind = ErrorKind::UnsupportedOperation;
    let message = user_message("tck-stream-001", "stream, please");
    let streamed = match client.send_streaming_message(send(message)).await {
        Ok(stream) => stream
            .collect()
            .await
            .map(|events| format!("{} event(s)", events.len())),
        Err(error) => Err(error),
    };
    refused("SendStreamingMessage", streamed, kind)?;
    let task = working_task(client).await?;
    let request = SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let subscribed = match client.subscribe_to_task(request).await {
        Ok(stream) => stream
            .collect()
            .await
            .map(|events| format!("{} event(s)", events.len())),
        Err(error) => Err(error),
    };
    let _ = client.cancel_task(cancel(&task.id)).await;
    refused("SubscribeToTask of a working task", subscribed, kind)?;
    Ok(format!("SendStreamingMessage, SubscribeToTask → {kind}"))
}
