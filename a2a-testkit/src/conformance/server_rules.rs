//! The checks of what the specification (and the official conformance kit) require of a server
//! beyond the behaviour table, run when `ConformanceOptions::server_rules`
//! is set (the workspace's own agent; the SDK's reference server does not follow all of them):
//!
//! | check | requirement |
//! |---|---|
//! | `rules.text-part-prefix` | the behaviour named by the first text part when the `messageId` names none (ACTS): `tck-task-failure` fails the task, `tck-auth-required` asks for authentication |
//! | `rules.cancel-until-canceled` | `tck-cancel` works until canceled; CancelTask cancels it (§3.1.5); a second cancel is `TaskNotCancelable` |
//! | `rules.terminal-task-refuses-messages` | a message to a completed task is `UnsupportedOperation` (§3.1.1) |
//! | `rules.context-mismatch` | a message whose `contextId` is not its task's is `InvalidParams` (§3.4.3) |
//! | `rules.multi-turn-history` | input-required, input-required again, completed; the user's messages in the history in order (§3.4) |
//! | `rules.subscribe-until-terminal` | a subscription to a task waiting for input lasts until the task completes, its last event terminal (§3.1.6) |
//! | `rules.webhook-ssrf-guard` | push configs to the private `10.0.0.1` and the link-local `169.254.169.254` are refused (`InvalidParams`); `https://example.com/...` is accepted (§13 push notification security). Loopback is not checked: an agent whose webhooks this run's delivery check receives on 127.0.0.1 must allow it |

use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, Part, StreamResponse, SubscribeToTaskRequest,
    TaskPushNotificationConfig, TaskState,
};

use a2a_client::A2aClient;

use super::helpers::{
    cancel, expect_error, expect_state, failed, get, message_id, send, send_for_task,
    send_returning_immediately, user_message,
};
use super::run::{CheckResult, Run};
use super::streams::final_state;

/// Runs every check of the module docs.
pub(super) async fn run(run: &mut Run<'_>, client: &A2aClient) {
    run.check("rules.text-part-prefix", text_part_prefix(client))
        .await;
    run.check("rules.cancel-until-canceled", cancel_until_canceled(client))
        .await;
    run.check(
        "rules.terminal-task-refuses-messages",
        terminal_refuses(client),
    )
    .await;
    run.check("rules.context-mismatch", context_mismatch(client))
        .await;
    run.check("rules.multi-turn-history", multi_turn(client))
        .await;
    run.check(
        "rules.subscribe-until-terminal",
        subscribe_until_terminal(client),
    )
    .await;
    run.check("rules.webhook-ssrf-guard", webhook_guard(client))
        .await;
}

/// A message whose id names no behaviour and whose first text part does.
fn by_text(text: &str) -> a2a_types::v1::Message {
    a2a_types::v1::Message::user(message_id("rust-client-acts"), [Part::text(text)])
}

async fn text_part_prefix(client: &A2aClient) -> CheckResult {
    let failure = send_for_task(client, send(by_text("tck-task-failure please"))).await?;
    expect_state(&failure, TaskState::Failed)?;
    let auth = send_for_task(client, send(by_text("tck-auth-required"))).await?;
    expect_state(&auth, TaskState::AuthRequired)?;
    Ok("tck-task-failure in the text: failed; tck-auth-required: auth-required".into())
}

async fn cancel_until_canceled(client: &A2aClient) -> CheckResult {
    let task = send_for_task(client, send_returning_immediately(by_text("tck-cancel"))).await?;
    let canceled = client
        .cancel_task(cancel(&task.id))
        .await
        .map_err(|e| failed("CancelTask", e))?;
    expect_state(&canceled, TaskState::Canceled)?;
    let read = client
        .get_task(get(&task.id))
        .await
        .map_err(|e| failed("GetTask", e))?;
    expect_state(&read, TaskState::Canceled)?;
    expect_error(
        client.cancel_task(cancel(&task.id)).await,
        ErrorKind::TaskNotCancelable,
    )?;
    Ok("canceled; canceled again: TaskNotCancelable".into())
}

async fn terminal_refuses(client: &A2aClient) -> CheckResult {
    let done = send_for_task(client, send(user_message("tck-complete-task", "hi"))).await?;
    let mut again = user_message("tck-complete-task", "once more");
    again.task_id = Some(done.id.clone());
    expect_error(
        client.send_message(send(again)).await,
        ErrorKind::UnsupportedOperation,
    )
}

async fn context_mismatch(client: &A2aClient) -> CheckResult {
    let waiting = send_for_task(client, send(user_message("tck-input-required", "hi"))).await?;
    let mut other = user_message("tck-complete-task", "wrong context");
    other.task_id = Some(waiting.id.clone());
    other.context_id = Some(format!("{}-other", message_id("ctx")));
    expect_error(
        client.send_message(send(other)).await,
        ErrorKind::InvalidParams,
    )
}

async fn multi_turn(client: &A2aClient) -> CheckResult {
    let task = send_for_task(client, send(user_message("tck-input-required", "turn 1"))).await?;
    expect_state(&task, TaskState::InputRequired)?;
    let mut second = user_message("tck-input-required", "turn 2");
    second.task_id = Some(task.id.clone());
    let task = send_for_task(client, send(second)).await?;
    expect_state(&task, TaskState::InputRequired)?;
    let mut last = user_message("tck-complete-task", "turn 3");
    last.task_id = Some(task.id.clone());
    let task = send_for_task(client, send(last)).await?;
    expect_state(&task, TaskState::Completed)?;
    let user_turns: Vec<String> = task
        .history
        .iter()
        .filter(|m| m.role == a2a_types::v1::Role::User)
        .map(|m| m.text())
        .collect();
    if user_turns != ["turn 1", "turn 2", "turn 3"] {
        return Err(format!("the user's turns in the history: {user_turns:?}"));
    }
    Ok(format!(
        "3 turns, {} messages in the history, in order",
        task.history.len()
    ))
}

async fn subscribe_until_terminal(client: &A2aClient) -> CheckResult {
    let task = send_for_task(client, send(user_message("tck-input-required", "hi"))).await?;
    let request = SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let mut stream = client
        .subscribe_to_task(request)
        .await
        .map_err(|e| failed("SubscribeToTask", e))?;
    let first = stream
        .next()
        .await
        .ok_or("the subscription ended before its first event")?
        .map_err(|e| failed("the first event", e))?;
    if !matches!(first, StreamResponse::Task(_)) {
        return Err(format!("the first event is not the task: {first:?}"));
    }
    let mut answer = user_message("tck-complete-task", "done");
    answer.task_id = Some(task.id.clone());
    send_for_task(client, send(answer)).await?;
    let rest = stream
        .collect()
        .await
        .map_err(|e| failed("the rest of the stream", e))?;
    match final_state(&rest) {
        Some(TaskState::Completed) => Ok(format!(
            "{} events after the task, the last completed",
            rest.len()
        )),
        other => Err(format!(
            "the stream ended at {other:?} after {} events",
            rest.len()
        )),
    }
}

async fn webhook_guard(client: &A2aClient) -> CheckResult {
    let task = send_for_task(client, send(user_message("tck-input-required", "hi"))).await?;
    let config = |url: &str| TaskPushNotificationConfig {
        task_id: Some(task.id.clone()),
        url: url.into(),
        token: Some("t".into()),
        ..Default::default()
    };
    for internal in [
        "https://10.0.0.1/webhook",
        "https://169.254.169.254/latest/meta-data",
    ] {
        expect_error(
            client
                .create_task_push_notification_config(config(internal))
                .await,
            ErrorKind::InvalidParams,
        )
        .map_err(|problem| format!("{internal}: {problem}"))?;
    }
    let created = client
        .create_task_push_notification_config(config("https://example.com/tck-push-webhook"))
        .await
        .map_err(|e| failed("a config to https://example.com", e))?;
    let delete = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: created.id.clone().unwrap_or_default(),
        ..Default::default()
    };
    client
        .delete_task_push_notification_config(delete)
        .await
        .map_err(|e| failed("deleting it", e))?;
    Ok("10.0.0.1 and 169.254.169.254 refused; https://example.com accepted".into())
}
