//! The conformance checks of the card, of send, get, list, cancel, subscribe and the extended
//! card, one function per check or family of checks, each returning what was wrong (the streaming
//! checks are in `streams.rs`, the push-notification ones in `push.rs`); `run_conformance` names
//! and times them.

use a2a_client::A2aClient;
use a2a_types::v1::{
    GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest, Part, PartContent,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskState,
};

use super::helpers::{
    cancel, expect_state, failed, get, send, send_for_task, send_returning_immediately, truncate,
    user_message,
};
use super::run::CheckResult;
use super::streams::{describe_events, final_state};

pub(super) async fn card(client: &A2aClient) -> CheckResult {
    let card = client.card();
    let interface = client.interface();
    let capabilities = &card.capabilities;
    // The object is typed, so a card the client parsed has a well-formed one; what it declares
    // decides which checks apply (section 3.3.4), not whether this one passes.
    let declared: Vec<&str> = [
        ("streaming", capabilities.streaming),
        ("pushNotifications", capabilities.push_notifications),
        ("extendedAgentCard", capabilities.extended_agent_card),
    ]
    .into_iter()
    .filter(|(_, declared)| *declared == Some(true))
    .map(|(name, _)| name)
    .collect();
    let bindings: Vec<&str> = card
        .supported_interfaces
        .iter()
        .map(|i| i.protocol_binding.as_str())
        .collect();
    Ok(format!(
        "{:?}, {} at {}; interfaces {bindings:?}; declares {declared:?}",
        card.name, interface.protocol_binding, interface.url
    ))
}

#[derive(Clone, Copy)]
pub(super) enum ArtifactKind {
    Text,
    File,
    FileUrl,
    Data,
}

#[derive(Clone, Copy)]
pub(super) enum Expect {
    /// Completed or rejected with this status message text.
    StatusText(&'static str),
    State(TaskState),
    /// Completed with one artifact of this kind.
    Artifact(ArtifactKind),
}

pub(super) async fn send_task(client: &A2aClient, prefix: &str, expect: Expect) -> CheckResult {
    let task = send_for_task(client, send(user_message(prefix, "conformance"))).await?;
    match expect {
        Expect::State(state) => {
            expect_state(&task, state)?;
            Ok(format!("task {:?}", task.status.state))
        }
        Expect::StatusText(text) => {
            let state = if text == "rejected" {
                TaskState::Rejected
            } else {
                TaskState::Completed
            };
            expect_state(&task, state)?;
            let said = task
                .status
                .message
                .as_ref()
                .map(|m| m.text())
                .unwrap_or_default();
            if said == text {
                Ok(format!("task {state:?}, status message {said:?}"))
            } else {
                Err(format!("status message {said:?}, expected {text:?}"))
            }
        }
        Expect::Artifact(kind) => {
            expect_state(&task, TaskState::Completed)?;
            let [artifact] = task.artifacts.as_slice() else {
                return Err(format!("{} artifacts, expected 1", task.artifacts.len()));
            };
            let [part] = artifact.parts.as_slice() else {
                return Err(format!("{} parts, expected 1", artifact.parts.len()));
            };
            check_part(part, kind)
        }
    }
}

pub(super) fn check_part(part: &Part, kind: ArtifactKind) -> CheckResult {
    match (kind, &part.content) {
        (ArtifactKind::Text, Some(PartContent::Text(text))) if text == "Generated text content" => {
            Ok(format!("text artifact {text:?}"))
        }
        (ArtifactKind::File, Some(PartContent::Raw(bytes)))
            if part.filename.as_deref() == Some("output.txt")
                && part.media_type.as_deref() == Some("text/plain")
                && !bytes.is_empty() =>
        {
            Ok(format!("file artifact output.txt, {} bytes", bytes.len()))
        }
        (ArtifactKind::FileUrl, Some(PartContent::Url(url)))
            if url == "https://example.com/output.txt"
                && part.filename.as_deref() == Some("output.txt") =>
        {
            Ok(format!("file URL artifact {url}"))
        }
        (ArtifactKind::Data, Some(PartContent::Data(data)))
            if data["key"] == "value" && data["count"].as_f64() == Some(42.0) =>
        {
            Ok(format!("data artifact {data}"))
        }
        _ => Err(format!(
            "unexpected part {}",
            truncate(&format!("{part:?}"), 200)
        )),
    }
}

pub(super) async fn send_message_response(client: &A2aClient) -> CheckResult {
    let request = send(user_message("tck-message-response", "hi"));
    match client.send_message(request).await {
        Ok(SendMessageResponse::Message(message))
            if message.text() == "Direct message response" =>
        {
            Ok(format!("message {:?}", message.text()))
        }
        Ok(other) => Err(format!(
            "expected the message \"Direct message response\", got {}",
            truncate(&format!("{other:?}"), 200)
        )),
        Err(error) => Err(failed("SendMessage", error)),
    }
}

pub(super) async fn get_history_length(client: &A2aClient) -> CheckResult {
    // An input-required task, continued once: its history holds at least the two user messages.
    let first = send_for_task(client, send(user_message("tck-input-required", "a table"))).await?;
    expect_state(&first, TaskState::InputRequired)?;
    let mut reply = user_message("tck-complete-task", "for two, tonight");
    reply.task_id = Some(first.id.clone());
    reply.context_id = first.context_id.clone();
    let second = send_for_task(client, send(reply)).await?;
    if second.id != first.id {
        return Err(format!(
            "continuing task {} answered task {}",
            first.id, second.id
        ));
    }
    let full = client
        .get_task(get(&first.id))
        .await
        .map_err(|e| failed("GetTask", e))?;
    if full.history.len() < 2 {
        return Err(format!(
            "GetTask without historyLength: {} history messages, expected at least 2",
            full.history.len()
        ));
    }
    let one = client
        .get_task(GetTaskRequest {
            id: first.id.clone(),
            history_length: Some(1),
            ..Default::default()
        })
        .await
        .map_err(|e| failed("GetTask historyLength=1", e))?;
    if one.history.len() != 1 || one.history.last() != full.history.last() {
        return Err(format!(
            "historyLength=1 gave {} messages, expected the last of {}",
            one.history.len(),
            full.history.len()
        ));
    }
    expect_state(&full, TaskState::Completed)?;
    Ok(format!(
        "task {}: full history {}, historyLength=1 → 1 (the latest)",
        full.id,
        full.history.len()
    ))
}

pub(super) async fn list_tasks(client: &A2aClient) -> CheckResult {
    // Three tasks in one fresh context: two completed, one input-required.
    let first = send_for_task(client, send(user_message("tck-complete-task", "one"))).await?;
    let context_id = first
        .context_id
        .clone()
        .filter(|c| !c.is_empty())
        .ok_or("the task has no contextId")?;
    let mut ids = vec![first.id.clone()];
    for prefix in ["tck-complete-task", "tck-input-required"] {
        let mut message = user_message(prefix, "another");
        message.context_id = Some(context_id.clone());
        let task = send_for_task(client, send(message)).await?;
        if task.context_id.as_deref() != Some(context_id.as_str()) {
            return Err(format!(
                "a message in context {context_id} made a task in {:?}",
                task.context_id
            ));
        }
        ids.push(task.id);
    }
    let list = |status: Option<TaskState>, page_size: Option<i32>, page_token: Option<String>| {
        client.list_tasks(ListTasksRequest {
            context_id: Some(context_id.clone()),
            status,
            page_size,
            page_token,
            ..Default::default()
        })
    };
    let all = list(None, None, None)
        .await
        .map_err(|e| failed("ListTasks contextId", e))?;
    let mut listed: Vec<String> = all.tasks.iter().map(|t| t.id.clone()).collect();
    listed.sort();
    ids.sort();
    if listed != ids {
        return Err(format!(
            "contextId filter listed {listed:?}, expected {ids:?}"
        ));
    }
    let completed = list(Some(TaskState::Completed), None, None)
        .await
        .map_err(|e| failed("ListTasks status", e))?;
    if completed.tasks.len() != 2
        || completed
            .tasks
            .iter()
            .any(|t| t.status.state != TaskState::Completed)
    {
        return Err(format!(
            "status=COMPLETED listed {} tasks, expected the 2 completed ones",
            completed.tasks.len()
        ));
    }
    // Paging: two tasks per page, then the rest; together every task once.
    let page1 = list(None, Some(2), None)
        .await
        .map_err(|e| failed("ListTasks pageSize=2", e))?;
    if page1.tasks.len() != 2 || page1.next_page_token.is_empty() {
        return Err(format!(
            "pageSize=2 gave {} tasks and nextPageToken {:?}",
            page1.tasks.len(),
            page1.next_page_token
        ));
    }
    let page2 = list(None, Some(2), Some(page1.next_page_token.clone()))
        .await
        .map_err(|e| failed("ListTasks second page", e))?;
    let mut paged: Vec<String> = page1
        .tasks
        .iter()
        .chain(&page2.tasks)
        .map(|t| t.id.clone())
        .collect();
    paged.sort();
    if paged != ids || !page2.next_page_token.is_empty() {
        return Err(format!(
            "pages listed {paged:?} (last nextPageToken {:?}), expected {ids:?} once each",
            page2.next_page_token
        ));
    }
    Ok(format!(
        "context of 3: status filter 2, pages of 2 + {}, totalSize {}",
        page2.tasks.len(),
        all.total_size
    ))
}

/// A task that stays working for a while (`test-resubscribe-message-id`), sent without waiting.
pub(super) async fn working_task(client: &A2aClient) -> Result<Task, String> {
    let request = send_returning_immediately(user_message("test-resubscribe-message-id", "wait"));
    let task = send_for_task(client, request).await?;
    if task.status.state.is_terminal() {
        return Err(format!(
            "a test-resubscribe task is already {:?}",
            task.status.state
        ));
    }
    Ok(task)
}

pub(super) async fn cancel_working(client: &A2aClient) -> CheckResult {
    let task = working_task(client).await?;
    let canceled = client
        .cancel_task(cancel(&task.id))
        .await
        .map_err(|e| failed("CancelTask", e))?;
    expect_state(&canceled, TaskState::Canceled)?;
    let after = client
        .get_task(get(&task.id))
        .await
        .map_err(|e| failed("GetTask after cancel", e))?;
    expect_state(&after, TaskState::Canceled)?;
    Ok(format!("task {} canceled, GetTask agrees", task.id))
}

pub(super) async fn subscribe_running(client: &A2aClient) -> CheckResult {
    let task = working_task(client).await?;
    let stream = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        })
        .await
        .map_err(|e| failed("SubscribeToTask", e))?;
    let events = stream
        .collect()
        .await
        .map_err(|e| failed("the subscription", e))?;
    let seen = describe_events(&events);
    let wrong_task = events.iter().any(|event| {
        let id = match event {
            StreamResponse::Task(t) => &t.id,
            StreamResponse::StatusUpdate(u) => &u.task_id,
            StreamResponse::ArtifactUpdate(u) => &u.task_id,
            _ => return false,
        };
        *id != task.id
    });
    if wrong_task {
        return Err(format!("events of another task: {seen:?}"));
    }
    if final_state(&events) != Some(TaskState::Completed) {
        return Err(format!("the subscription did not end completed: {seen:?}"));
    }
    Ok(seen.join(" → "))
}

pub(super) async fn extended_card(client: &A2aClient, token: &str) -> CheckResult {
    let public: Vec<String> = client.card().skills.iter().map(|s| s.id.clone()).collect();
    let with_token = client
        .with_bearer_token(Some(token.to_owned()))
        .map_err(|e| failed("a client with the token", e))?;
    let extended = with_token
        .get_extended_agent_card(GetExtendedAgentCardRequest::default())
        .await
        .map_err(|e| failed("GetExtendedAgentCard with the token", e))?;
    let extra: Vec<&str> = extended
        .skills
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| !public.iter().any(|p| p == id))
        .collect();
    if extra.is_empty() {
        return Err(format!(
            "the extended card adds no skill to the public card's {public:?}"
        ));
    }
    // Without the token the agent must not hand out the extended skills.
    let without = client
        .with_bearer_token(None)
        .map_err(|e| failed("a client without a token", e))?;
    match without
        .get_extended_agent_card(GetExtendedAgentCardRequest::default())
        .await
    {
        Ok(card) if card.skills.iter().any(|s| extra.contains(&s.id.as_str())) => Err(format!(
            "without a token the extended card still lists {extra:?}"
        )),
        Ok(_) => Ok(format!(
            "with the token: extra skills {extra:?}; without: the public card"
        )),
        Err(error) => Ok(format!(
            "with the token: extra skills {extra:?}; without: {error}"
        )),
    }
}
