//! The MUST behaviours the official conformance kit (a2a-tck, its requirement ids in brackets)
//! checks that the behaviour table does not cover, each from a section of the A2A v1.0.1
//! specification:
//!
//! | check | requirement |
//! |---|---|
//! | `send.return-immediately` | with `returnImmediately` the answer comes before the task ends, still in progress (§3.2.2) [CORE-EXECUTION-MODE-002] |
//! | `send.blocking-waits` | without it the answer waits for the task's end (§3.2.2) [CORE-EXECUTION-MODE-001] |
//! | `send.unique-task-ids` | every new task gets an id of its own (§3.4.2) [CORE-MULTI-003] |
//! | `send.context-inferred` | a message naming only its task joins the task's context (§3.4.3) [CORE-MULTI-005] |
//! | `list.newest-first` | ListTasks sorts by status timestamp, most recent first (§3.1.4) [CORE-LIST-003] |
//! | `list.artifacts-omitted` | without `includeArtifacts` the listed tasks carry no artifacts (§3.1.4) [CORE-LIST-005] |
//! | `push-config.delete-idempotent` | deleting a config twice has the effect of deleting it once (§3.1.10) [PUSH-DEL-002] |
//! | `error.push-config-unknown-config` | GetTaskPushNotificationConfig of a config the task lacks is `TaskNotFound` (§3.1.8) [PUSH-GET-002] |
//! | `error.subscribe-unknown-task` | SubscribeToTask of an unknown id is `TaskNotFound` (§3.1.6) [STREAM-SUB-004] |

use a2a_client::A2aClient;
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, SubscribeToTaskRequest, Task,
    TaskPushNotificationConfig, TaskState,
};

use super::checks::working_task;
use super::helpers::{
    cancel, expect_error, expect_state, failed, message_id, send, send_for_task, unknown_id,
    user_message,
};
use super::run::{CheckResult, Run};

/// Runs every check of the module docs.
pub(super) async fn run(run: &mut Run<'_>, client: &A2aClient) {
    run.check("send.return-immediately", return_immediately(client))
        .await;
    run.check("send.blocking-waits", blocking_waits(client))
        .await;
    run.check("send.unique-task-ids", unique_task_ids(client))
        .await;
    run.check("send.context-inferred", context_inferred(client))
        .await;
    run.check("list.newest-first", newest_first(client)).await;
    run.check("list.artifacts-omitted", artifacts_omitted(client))
        .await;
    run.check("push-config.delete-idempotent", delete_idempotent(client))
        .await;
    run.check(
        "error.push-config-unknown-config",
        unknown_push_config(client),
    )
    .await;
    run.check("error.subscribe-unknown-task", async {
        let request = SubscribeToTaskRequest {
            id: unknown_id(),
            ..Default::default()
        };
        match client.subscribe_to_task(request).await {
            // The error may come at once or as the stream's first item.
            Ok(stream) => expect_error(stream.collect().await, ErrorKind::TaskNotFound),
            Err(error) => expect_error::<()>(Err(error), ErrorKind::TaskNotFound),
        }
    })
    .await;
}

async fn return_immediately(client: &A2aClient) -> CheckResult {
    let task = working_task(client).await?;
    let _ = client.cancel_task(cancel(&task.id)).await;
    Ok(format!("answered in {:?}", task.status.state))
}

async fn blocking_waits(client: &A2aClient) -> CheckResult {
    let request = send(user_message("test-resubscribe-message-id", "wait for me"));
    let task = send_for_task(client, request).await?;
    expect_state(&task, TaskState::Completed)?;
    Ok("answered once completed".into())
}

async fn unique_task_ids(client: &A2aClient) -> CheckResult {
    let mut ids = Vec::new();
    for _ in 0..3 {
        let task = send_for_task(client, send(user_message("tck-complete-task", "hi"))).await?;
        if task.id.is_empty() || ids.contains(&task.id) {
            return Err(format!("task id {:?} after {ids:?}", task.id));
        }
        ids.push(task.id);
    }
    Ok("3 tasks, 3 ids".into())
}

async fn context_inferred(client: &A2aClient) -> CheckResult {
    let waiting = send_for_task(client, send(user_message("tck-input-required", "hi"))).await?;
    let context = waiting
        .context_id
        .clone()
        .filter(|c| !c.is_empty())
        .ok_or("the task has no contextId")?;
    let mut answer = user_message("tck-complete-task", "only the task id");
    answer.task_id = Some(waiting.id.clone());
    let task = send_for_task(client, send(answer)).await?;
    if task.id != waiting.id || task.context_id.as_deref() != Some(context.as_str()) {
        return Err(format!(
            "continuing task {} of context {context} answered task {} of context {:?}",
            waiting.id, task.id, task.context_id
        ));
    }
    Ok(format!("the answer is in context {context}"))
}

/// Three tasks (`prefix`) in one fresh context, made one after the other; returns the context and
/// the tasks in the order they were made.
async fn tasks_in_one_context(
    client: &A2aClient,
    prefix: &str,
) -> Result<(String, Vec<Task>), String> {
    let context = message_id("ctx-kit");
    let mut tasks = Vec::new();
    for n in 0..3 {
        let mut message = user_message(prefix, &format!("task {n}"));
        message.context_id = Some(context.clone());
        tasks.push(send_for_task(client, send(message)).await?);
    }
    Ok((context, tasks))
}

async fn listed_in(
    client: &A2aClient,
    context: &str,
    include_artifacts: Option<bool>,
) -> Result<Vec<Task>, String> {
    let request = ListTasksRequest {
        context_id: Some(context.to_owned()),
        include_artifacts,
        ..Default::default()
    };
    client
        .list_tasks(request)
        .await
        .map(|page| page.tasks)
        .map_err(|e| failed("ListTasks", e))
}

async fn newest_first(client: &A2aClient) -> CheckResult {
    let (context, made) = tasks_in_one_context(client, "tck-complete-task").await?;
    let listed = listed_in(client, &context, None).await?;
    let listed_ids: Vec<&str> = listed.iter().map(|t| t.id.as_str()).collect();
    let newest_first: Vec<&str> = made.iter().rev().map(|t| t.id.as_str()).collect();
    let stamps: Vec<_> = listed.iter().map(|t| t.status.timestamp).collect();
    let descending = stamps.windows(2).all(|pair| pair[0] >= pair[1]);
    if listed_ids != newest_first || !descending {
        return Err(format!(
            "listed {listed_ids:?} (status timestamps {stamps:?}), made newest first {newest_first:?}"
        ));
    }
    Ok("3 tasks, the last made first".into())
}

async fn artifacts_omitted(client: &A2aClient) -> CheckResult {
    let (context, made) = tasks_in_one_context(client, "tck-artifact-text").await?;
    if made.iter().any(|t| t.artifacts.is_empty()) {
        return Err("a tck-artifact-text task came back without its artifact".into());
    }
    let listed = listed_in(client, &context, None).await?;
    if listed.len() != made.len() {
        return Err(format!("listed {} of {} tasks", listed.len(), made.len()));
    }
    if let Some(task) = listed.iter().find(|t| !t.artifacts.is_empty()) {
        return Err(format!(
            "task {} listed with {} artifacts, includeArtifacts unset",
            task.id,
            task.artifacts.len()
        ));
    }
    Ok(format!("{} tasks listed without artifacts", listed.len()))
}

async fn delete_idempotent(client: &A2aClient) -> CheckResult {
    let task = working_task(client).await?;
    let config_id = message_id("push-twice");
    let config = TaskPushNotificationConfig {
        task_id: Some(task.id.clone()),
        id: Some(config_id.clone()),
        url: "http://127.0.0.1:9/a2a-webhook".into(),
        ..Default::default()
    };
    client
        .create_task_push_notification_config(config)
        .await
        .map_err(|e| failed("CreateTaskPushNotificationConfig", e))?;
    let delete = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: config_id,
        ..Default::default()
    };
    for attempt in ["first", "second"] {
        client
            .delete_task_push_notification_config(delete.clone())
            .await
            .map_err(|e| failed(&format!("the {attempt} delete"), e))?;
    }
    let listed = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
            task_id: task.id.clone(),
            ..Default::default()
        })
        .await
        .map_err(|e| failed("ListTaskPushNotificationConfigs", e))?;
    let _ = client.cancel_task(cancel(&task.id)).await;
    if !listed.configs.is_empty() {
        return Err(format!("listed after two deletes: {:?}", listed.configs));
    }
    Ok("deleted twice, both answered; none listed".into())
}

async fn unknown_push_config(client: &A2aClient) -> CheckResult {
    let task = working_task(client).await?;
    let request = GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: message_id("no-such-config"),
        ..Default::default()
    };
    let outcome = expect_error(
        client.get_task_push_notification_config(request).await,
        ErrorKind::TaskNotFound,
    );
    let _ = client.cancel_task(cancel(&task.id)).await;
    outcome
}
