//! Starting the agent on a message: a new task, or the client's message added to a task that
//! waits for input; the first event decides whether there is a task at all (see
//! [`crate::core::execution`]).

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{
    Message, SendMessageConfiguration, SendMessageRequest, Task, TaskState, TaskStatus,
};
use tokio::sync::{mpsc, oneshot, watch};

use crate::auth::Owner;
use crate::core::context::CallContext;
use crate::core::execution::agent_run::AgentRun;
use crate::core::execution::apply::create_with_events;
use crate::core::execution::drive::{Execution, drive, fail_task};
use crate::core::execution::ended_at_once;
use crate::core::push_configs::add_from_message;
use crate::core::state::ServerState;
use crate::errors::{invalid, state_name};
use crate::executor::{AgentEvent, EventSink, RequestContext, ServiceParams};
use crate::store::StoreError;
use crate::versions::VersionWatch;

/// What a message started.
pub(crate) enum Started {
    /// A direct reply, no task.
    Reply(Message),
    /// A task: as it stood when the agent began (the snapshot a stream sends first), its version,
    /// and the task as it is once it ends or waits for input (dropped when the execution ended
    /// otherwise: the caller then reads the task). For a streaming call, the task's watch,
    /// taken before the call wrote to the task: every version after `version` is announced to it.
    Task {
        snapshot: Task,
        version: u64,
        settled: oneshot::Receiver<Task>,
        watch: Option<VersionWatch>,
    },
}

/// Adds the client's message to `task` (the owner's task `task_id`), when the task takes it: it
/// waits for input, and the message's context (if any) is the task's.
fn take_message(task: &mut Task, task_id: &str, message: &Message) -> Result<(), Error> {
    let task_state = task.status.state;
    if task_state.is_terminal() {
        return Err(Error::with_message(
            ErrorKind::UnsupportedOperation,
            format!(
                "task {task_id} is {}; it takes no more messages",
                state_name(task_state)
            ),
        )
        .with_metadata("taskId", task_id));
    }
    if message
        .context_id
        .as_ref()
        .is_some_and(|c| !c.is_empty() && Some(c) != task.context_id.as_ref())
    {
        return Err(invalid(
            "message.contextId",
            format!("does not match the context of task {task_id}"),
        ));
    }
    if !task_state.is_interrupted() {
        return Err(Error::with_message(
            ErrorKind::UnsupportedOperation,
            format!(
                "task {task_id} is still working; it takes a message only when it asks for input"
            ),
        )
        .with_metadata("taskId", task_id));
    }
    task.history.push(message.clone());
    Ok(())
}

/// Adds the client's message to a task waiting for input; returns the task and version.
async fn continue_task(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    message: &Message,
) -> Result<(Task, u64), Error> {
    let mut changed = None;
    let version = state
        .tasks
        .modify(owner, task_id, None, &mut |task, _| {
            take_message(task, task_id, message)?;
            changed = Some(task.clone());
            Ok(())
        })
        .await?;
    let task = changed.expect("a change that was written ran its closure to the end");
    Ok((task, version))
}

/// The task waiting for input as `message` will continue it, read, not written: when the store
/// keeps the execution queue too, the message is added together with the execution's record, once
/// the agent's first event shows there is an execution ([`record_and_continue`]).
async fn preview_continuation(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    message: &Message,
) -> Result<Task, Error> {
    let mut task = state
        .tasks
        .get(owner, task_id)
        .await
        .map_err(|e| e.to_error(task_id))?
        .ok_or_else(|| crate::store::StoreError::NotFound.to_error(task_id))?
        .task;
    take_message(&mut task, task_id, message)?;
    Ok(task)
}

/// Starts the agent on a message; see [`crate::core::execution`]. `streaming`: the caller streams
/// the task's events (so a new task is written before its events, each announced on its own).
pub(crate) async fn begin(
    state: &Arc<ServerState>,
    owner: &Owner,
    request: SendMessageRequest,
    context: &CallContext,
    streaming: bool,
) -> Result<Started, Error> {
    let configuration = request.configuration.clone().unwrap_or_default();
    let outputs = &state.card.default_output_modes;
    if !configuration.accepted_output_modes.is_empty()
        && !outputs.is_empty()
        && !configuration
            .accepted_output_modes
            .iter()
            .any(|mode| mode == "*/*" || outputs.iter().any(|ours| ours == mode))
    {
        return Err(Error::with_message(
            ErrorKind::ContentTypeNotSupported,
            format!(
                "this agent answers in {}, none of which the client accepts ({})",
                outputs.join(", "),
                configuration.accepted_output_modes.join(", ")
            ),
        ));
    }
    // The execution's slot is taken first, so a caller at its cap changes nothing and starts
    // nothing.
    let slot = state.execution_slots.take(owner)?;
    let mut message = request.message;
    // The message as the client sent it, which a continued task's history takes.
    let sent = message.clone();
    // A stream's watch is taken before this call writes to the task, so that every version after
    // the one the stream starts from is announced to it: the stream then reads the store only for
    // what it was not handed (see `crate::versions`).
    let mut stream_watch = match message.task_id.as_deref().filter(|id| !id.is_empty()) {
        Some(task_id) if streaming => Some(state.bus.subscribe(task_id)),
        _ => None,
    };
    // A continued task, and its version once the message is written to it: when the store keeps
    // the execution queue, the message is written with the execution's record, after the agent's
    // first event.
    let existing = match message.task_id.clone().filter(|id| !id.is_empty()) {
        Some(task_id) if state.executions_with_tasks => Some((
            preview_continuation(state, owner, &task_id, &message).await?,
            None,
        )),
        Some(task_id) => {
            let (task, version) = continue_task(state, owner, &task_id, &message).await?;
            Some((task, Some(version)))
        }
        None => None,
    };
    let (task_id, context_id) = match &existing {
        Some((task, _)) => (task.id.clone(), task.context_id.clone().unwrap_or_default()),
        None => (
            context
                .new_task_id
                .clone()
                .unwrap_or_else(|| crate::ids::new_id("task")),
            message
                .context_id
                .clone()
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| crate::ids::new_id("ctx")),
        ),
    };
    message.task_id = Some(task_id.clone());
    message.context_id = Some(context_id.clone());
    if streaming && stream_watch.is_none() {
        stream_watch = Some(state.bus.subscribe(&task_id));
    }
    // The call's span (`a2a.call`, current here) names the task, a new one included.
    tracing::Span::current().record("task_id", task_id.as_str());
    let (sender, mut events) = mpsc::channel(state.config.executor_queue.max(1));
    let (cancel, cancel_signal) = watch::channel(false);
    let sink = EventSink::new(sender, cancel_signal, task_id.clone(), context_id.clone());
    let request_context = RequestContext {
        message: message.clone(),
        task_id: task_id.clone(),
        context_id: context_id.clone(),
        task: existing.as_ref().map(|(task, _)| task.clone()),
        caller: context.caller.clone(),
        service_params: context.service_params.clone(),
        configuration: request.configuration.clone(),
        resumed: false,
        skill: state
            .skills
            .skill_of(&message)
            .ok()
            .flatten()
            .map(str::to_owned),
        skill_requirements: state.skills.clone(),
    };
    // A new task's submitted status is stamped before the agent runs: the task is only created once
    // the agent's first event shows there is one, and a status stamped then would be later than
    // the agent's own first status (a task's statuses never go back in time).
    let submitted = TaskStatus::now(TaskState::Submitted);
    let mut run = AgentRun::start(state.executor.clone(), request_context, sink).await;
    let first = run.first_event(&mut events).await?;
    if let AgentEvent::Message(mut reply) = first {
        // A direct reply: no task; anything else the agent sends is not taken.
        cancel.send_replace(true);
        if let Some((_, None)) = &existing {
            // The continued task takes the message all the same; no execution is recorded.
            continue_task(state, owner, &task_id, &sent).await?;
        }
        reply.context_id = Some(context_id);
        if existing.is_none() {
            reply.task_id = None;
        }
        return Ok(Started::Reply(reply));
    }
    let mut first = vec![first];
    // A new task the agent already ended is written once, with its events, and no execution is
    // recorded (see `ended_at_once`). Not when a webhook is to be set up first (it hears of the
    // events), nor when the store would write it in two steps while a queue apart from it
    // records executions (a crash between them would leave a task nothing runs again).
    let write_once = existing.is_none()
        && !streaming
        && configuration.task_push_notification_config.is_none()
        && (state.executions.is_none() || state.executions_with_tasks);
    if write_once {
        ended_at_once::take_queued(&mut first, &mut events).await;
        if let Some(batch) = ended_at_once::ending_batch(&mut first, &task_id, &context_id) {
            let mut task = Task::new(&task_id, &context_id, submitted);
            task.history.push(message);
            let created = task.clone();
            let (version, ended) = match create_with_events(state, owner, task, batch).await {
                Ok(written) => written,
                Err(error) if error.metadata.contains_key("limit") => {
                    // The store has no room for what the agent sent: the task is created as it
                    // was before the agent ran (unless the store's two-step write already did),
                    // and ends failed with the store's reason, as when the driver meets such an
                    // event.
                    cancel.send_replace(true);
                    let created_version = match state.tasks.create(owner, created.clone()).await {
                        Ok(version) => version,
                        Err(StoreError::AlreadyExists) => 1,
                        Err(other) => return Err(other.to_error(&task_id)),
                    };
                    let version = fail_task(state, owner, &task_id, &context_id, error.message)
                        .await
                        .unwrap_or(created_version);
                    (version, None)
                }
                Err(error) => {
                    cancel.send_replace(true);
                    return Err(error);
                }
            };
            let (settle, settled) = oneshot::channel();
            // (The task as its events left it, unless the store did not show it them.)
            let snapshot = ended.clone().unwrap_or(created);
            if let Some(task) = ended {
                let _ = settle.send(task);
            }
            drive(
                state,
                Execution {
                    owner: owner.clone(),
                    task_id,
                    context_id,
                    first: Vec::new(),
                    events,
                    run,
                    cancel,
                    settle: None,
                    lease: None,
                    slot,
                },
            );
            return Ok(Started::Task {
                snapshot,
                version,
                settled,
                watch: stream_watch,
            });
        }
    }
    // The execution is recorded before the task is created, or with it (a store that keeps
    // both writes them in one transaction): a crash between two writes leaves a record without a
    // task, which the resumer removes, never a task that nothing would run again.
    let recorded = match existing {
        Some((_, None)) => record_and_continue(
            state,
            owner,
            &task_id,
            &sent,
            &message,
            request.configuration.as_ref(),
            &context.service_params,
        )
        .await
        .map(|(lease, continued)| (lease, Ok(continued))),
        Some((task, Some(version))) => record_execution(
            state,
            owner,
            &task_id,
            &message,
            request.configuration.as_ref(),
            &context.service_params,
        )
        .await
        .map(|lease| (lease, Ok((task, version)))),
        None => {
            let mut task = Task::new(&task_id, &context_id, submitted);
            task.history.push(message);
            record_and_create(
                state,
                owner,
                &task,
                request.configuration.as_ref(),
                &context.service_params,
            )
            .await
            .map(|(lease, created)| (lease, created.map(|version| (task, version))))
        }
    };
    let (lease, created) = match recorded {
        Ok(recorded) => recorded,
        Err(error) => {
            cancel.send_replace(true);
            return Err(error);
        }
    };
    let added = match (&created, configuration.task_push_notification_config) {
        (Ok(_), Some(mut config)) => {
            config.task_id = Some(task_id.clone());
            add_from_message(state, owner, config).await
        }
        _ => Ok(()),
    };
    let (snapshot, version) = match (created, added) {
        (Ok(created), Ok(())) => created,
        (Err(error), _) | (_, Err(error)) => {
            // The request fails, so its execution must not be resumed either.
            cancel.send_replace(true);
            forget_execution(state, &task_id, lease.as_deref()).await;
            return Err(error);
        }
    };
    let (settle, settled) = oneshot::channel();
    drive(
        state,
        Execution {
            owner: owner.clone(),
            task_id,
            context_id,
            first,
            events,
            run,
            cancel,
            settle: Some(settle),
            lease,
            slot,
        },
    );
    Ok(Started::Task {
        snapshot,
        version,
        settled,
        watch: stream_watch,
    })
}

/// The request an execution's record keeps: `message` with its ids set, and `configuration`.
fn recorded_request(
    message: &Message,
    configuration: Option<&SendMessageConfiguration>,
) -> SendMessageRequest {
    SendMessageRequest {
        message: message.clone(),
        configuration: configuration.cloned(),
        ..Default::default()
    }
}

/// With an execution queue, records the execution of the request (`message` with its ids set,
/// and `configuration`, received with `service_params`) on the task under a new lease (see [`crate::store::executions`]); its
/// lease token. A record that cannot be written fails the request: the execution would not
/// survive a crash. Without a queue, nothing is built: the copy of the request is for the record.
async fn record_execution(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    message: &Message,
    configuration: Option<&SendMessageConfiguration>,
    service_params: &ServiceParams,
) -> Result<Option<String>, Error> {
    let Some(queue) = &state.executions else {
        return Ok(None);
    };
    let token = crate::ids::new_id("lease");
    queue
        .begin(
            owner,
            task_id,
            &recorded_request(message, configuration),
            service_params,
            &token,
            state.config.executions.lease,
        )
        .await
        .map_err(|e| e.to_error(task_id))?;
    Ok(Some(token))
}

/// Records the execution of the request that created `task` (its message the task's history,
/// see [`record_execution`]) and creates the task: in one write when the task store keeps the
/// queue, else the record first. The lease token, and the task's version or why it was not
/// created (the record then written, for the caller to remove); an error when nothing was
/// written.
async fn record_and_create(
    state: &Arc<ServerState>,
    owner: &Owner,
    task: &Task,
    configuration: Option<&SendMessageConfiguration>,
    service_params: &ServiceParams,
) -> Result<(Option<String>, Result<u64, Error>), Error> {
    let Some(message) = task.history.last() else {
        return Err(Error::bare(
            ErrorKind::Internal,
            "a new task holds no message to record",
        ));
    };
    match &state.executions {
        Some(queue) if state.executions_with_tasks => {
            let token = crate::ids::new_id("lease");
            let version = queue
                .begin_with_task(
                    owner,
                    task,
                    &recorded_request(message, configuration),
                    service_params,
                    &token,
                    state.config.executions.lease,
                )
                .await
                .map_err(|e| e.to_error(&task.id))?;
            Ok((Some(token), Ok(version)))
        }
        _ => {
            let lease = record_execution(
                state,
                owner,
                &task.id,
                message,
                configuration,
                service_params,
            )
            .await?;
            let created = state
                .tasks
                .create(owner, task.clone())
                .await
                .map_err(|error| error.to_error(&task.id));
            Ok((lease, created))
        }
    }
}

/// Adds `sent` (the client's message) to the owner's task `task_id`, which waits for input, and
/// records the execution of the request (`message`, its ids set, and `configuration`) in the
/// same write, through a queue that keeps the tasks
/// ([`ExecutionQueue::begin_with_change`](crate::ExecutionQueue::begin_with_change)). The lease
/// token, the task as continued and its version; an error when nothing was written (the task no
/// longer takes the message, say).
async fn record_and_continue(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    sent: &Message,
    message: &Message,
    configuration: Option<&SendMessageConfiguration>,
    service_params: &ServiceParams,
) -> Result<(Option<String>, (Task, u64)), Error> {
    let Some(queue) = &state.executions else {
        return Err(Error::bare(
            ErrorKind::Internal,
            "a task to continue with its record, but no execution queue",
        ));
    };
    let token = crate::ids::new_id("lease");
    let mut changed = None;
    let version = queue
        .begin_with_change(
            owner,
            task_id,
            &mut |task, _| {
                take_message(task, task_id, sent)?;
                changed = Some(task.clone());
                Ok(())
            },
            &recorded_request(message, configuration),
            service_params,
            &token,
            state.config.executions.lease,
        )
        .await?;
    let task = changed.expect("a change that was written ran its closure to the end");
    Ok((Some(token), (task, version)))
}

/// Removes the record [`record_execution`] wrote for a request that then failed; a record
/// left behind (logged) only makes the resumer look at the task once more.
async fn forget_execution(state: &ServerState, task_id: &str, lease: Option<&str>) {
    if let (Some(queue), Some(token)) = (&state.executions, lease)
        && let Err(error) = queue.finish(task_id, token).await
    {
        tracing::warn!(%error, task_id, "a failed request's execution record could not be removed");
    }
}
