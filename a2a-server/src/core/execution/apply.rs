//! Applying an event to its task: the state machine every change goes through, through the
//! store's [`TaskStore::modify`](crate::TaskStore::modify), then the new version announced on the
//! bus (with the event, for the task's streams in this process) and the event handed to the
//! task's webhooks.

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{StreamResponse, Task, TaskState};

use crate::auth::Owner;
use crate::core::execution::events::{change, ends_stream};
use crate::core::owner_quota::HeldBytes;
use crate::core::state::ServerState;
use crate::errors::state_name;
use crate::push::{Delivery, PendingEvent};
use crate::store::StoredEvent;
use crate::store::memory::size;
use crate::versions::{HandedEvent, WritingHere};

/// Applies an event to the owner's task (the state machine), logs it, tells streams and
/// webhooks; returns its new version. A task that is over takes no event:
/// `TaskNotCancelable` for a cancellation, else `UnsupportedOperation`.
pub(crate) async fn apply(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    event: StreamResponse,
) -> Result<u64, Error> {
    apply_keeping(state, owner, task_id, event, |_| ())
        .await
        .map(|((), version)| version)
}

/// [`apply`], also returning `keep` of the task as the event left it: the task is
/// moved into the store, so a caller that needs none of it (the driver, once per event) pays
/// for no copy.
pub(crate) async fn apply_keeping<T: Send>(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    event: StreamResponse,
    keep: impl Fn(&Task) -> T + Sync,
) -> Result<(T, u64), Error> {
    // Webhooks get the event after the write; without an outbox the server hands it over itself.
    let to_push = (state.outbox.is_none()
        && state.card.capabilities.push_notifications == Some(true))
    .then(|| event.clone());
    let handed = to_hand(state, owner, task_id, std::slice::from_ref(&event));
    let mut kept = None;
    let version = state
        .tasks
        .modify(owner, task_id, Some(event), &mut |task, event| {
            refuse_when_over(task, event, task_id)?;
            if let Some(event) = event {
                change(task, event);
            }
            kept = Some(keep(task));
            Ok(())
        })
        .await?;
    publish(state, task_id, version, handed);
    if let Some(outbox) = &state.outbox {
        // The store wrote the deliveries with the event.
        outbox.wake();
    } else if let Some(event) = to_push {
        push_to_webhooks(state, owner, task_id, &event).await;
    }
    let kept = kept.expect("a change that was written ran its closure to the end");
    Ok((kept, version))
}

/// [`apply`] for several events of one task, in order, written together (see
/// [`TaskStore::modify_each`](crate::TaskStore::modify_each)); the last version, and the task as
/// they left it when the last of them ends the task's stream (it ended or waits for input: what
/// a blocking SendMessage answers with, so it need not read the task again). Streams hear of them
/// once they are all committed.
pub(crate) async fn apply_all(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    mut events: Vec<StreamResponse>,
) -> Result<(u64, Option<Task>), Error> {
    if events.len() == 1
        && let Some(event) = events.pop()
    {
        let ends = ends_stream(&event);
        let (ended, version) = apply_keeping(state, owner, task_id, event, |task| {
            ends.then(|| task.clone())
        })
        .await?;
        return Ok((version, ended));
    }
    let to_push = (state.outbox.is_none()
        && state.card.capabilities.push_notifications == Some(true))
    .then(|| events.clone());
    // Each event's version is known only from a store that writes them all at once.
    let handed = state
        .tasks
        .writes_each_at_once()
        .then(|| to_hand(state, owner, task_id, &events))
        .flatten();
    let mut ended = None;
    let version = state
        .tasks
        .modify_each(owner, task_id, events, &mut |task, event| {
            refuse_when_over(task, event, task_id)?;
            change_keeping_end(task, event, &mut ended);
            Ok(())
        })
        .await?;
    announce(state, owner, task_id, version, handed, to_push).await;
    Ok((version, ended))
}

/// Creates the owner's new `task` with `events` already applied, in one write (see
/// [`TaskStore::create_with_events`](crate::TaskStore::create_with_events)): for a task the
/// agent ended before it was first written. The last version and the task as the events left it.
pub(crate) async fn create_with_events(
    state: &Arc<ServerState>,
    owner: &Owner,
    task: Task,
    events: Vec<StreamResponse>,
) -> Result<(u64, Option<Task>), Error> {
    let task_id = task.id.clone();
    let mut ended = None;
    let version = state
        .tasks
        .create_with_events(owner, task, events, &mut |task, event| {
            refuse_when_over(task, event, &task_id)?;
            change_keeping_end(task, event, &mut ended);
            Ok(())
        })
        .await?;
    // A task that did not exist has no webhook yet: only streams are told.
    state.bus.publish(&task_id, version);
    Ok((version, ended))
}

/// Applies `event` to `task`; when it ends the task's stream, keeps a copy of the task as it
/// left it in `ended`.
fn change_keeping_end(task: &mut Task, event: Option<&StreamResponse>, ended: &mut Option<Task>) {
    if let Some(event) = event {
        change(task, event);
        if ends_stream(event) {
            *ended = Some(task.clone());
        }
    }
}

/// What a write hands to its task's streams in this process once it is committed.
struct Handing {
    /// Copies of the events, each in room of the owner's handed-over events.
    copies: Vec<(StreamResponse, usize, HeldBytes)>,
    /// The write marked in flight on the bus, until the copies are published.
    writing: Option<WritingHere>,
}

/// Copies of `events`, about to be written to `task_id`, for the task's streams in this process,
/// the write marked in flight on the bus meanwhile; `None` when no stream here watches the task,
/// or the owner's channels hold their share (its streams then read the events from the store).
fn to_hand(
    state: &ServerState,
    owner: &Owner,
    task_id: &str,
    events: &[StreamResponse],
) -> Option<Handing> {
    if !state.bus.watched_here(task_id) {
        return None;
    }
    let copies = events
        .iter()
        .map(|event| {
            let bytes = size::event(event);
            let room = state.handed_bytes.try_hold(owner, bytes).ok()?;
            Some((event.clone(), bytes, room))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Handing {
        copies,
        writing: state.bus.writing_here(task_id),
    })
}

/// Announces `version` of `task_id` on the bus, with the events that produced the last versions
/// up to it when they were copied for the task's streams (`handed`); the write's mark in flight
/// goes after that.
fn publish(state: &ServerState, task_id: &str, version: u64, handed: Option<Handing>) {
    let Some(Handing { copies, writing }) = handed else {
        state.bus.publish(task_id, version);
        return;
    };
    let count = u64::try_from(copies.len()).unwrap_or(u64::MAX);
    match version
        .checked_add(1)
        .and_then(|v| v.checked_sub(count))
        .filter(|_| !copies.is_empty())
    {
        Some(first) => {
            let events = (first..)
                .zip(copies)
                .map(|(id, (event, bytes, room))| {
                    HandedEvent::new(StoredEvent::new(id, event), bytes, room)
                })
                .collect();
            state.bus.publish_events(task_id, events);
        }
        None => state.bus.publish(task_id, version),
    }
    drop(writing);
}

/// After a write: streams hear of `version` (and are handed the events, when copied for them),
/// and webhooks get the events (`to_push`, when the server hands them over itself; with an
/// outbox the store wrote the deliveries).
async fn announce(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    version: u64,
    handed: Option<Handing>,
    to_push: Option<Vec<StreamResponse>>,
) {
    publish(state, task_id, version, handed);
    if let Some(outbox) = &state.outbox {
        outbox.wake();
    } else {
        for event in to_push.unwrap_or_default() {
            push_to_webhooks(state, owner, task_id, &event).await;
        }
    }
}

/// Refuses an event to a task that is over: `TaskNotCancelable` for a cancellation, else
/// `UnsupportedOperation`.
fn refuse_when_over(
    task: &Task,
    event: Option<&StreamResponse>,
    task_id: &str,
) -> Result<(), Error> {
    let task_state = task.status.state;
    if !task_state.is_terminal() {
        return Ok(());
    }
    let cancel = matches!(event, Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Canceled);
    let kind = if cancel {
        ErrorKind::TaskNotCancelable
    } else {
        ErrorKind::UnsupportedOperation
    };
    Err(Error::with_message(
        kind,
        format!("task {task_id} is already {}", state_name(task_state)),
    )
    .with_metadata("taskId", task_id))
}

/// Hands an event to every webhook of the task.
async fn push_to_webhooks(
    state: &ServerState,
    owner: &Owner,
    task_id: &str,
    event: &StreamResponse,
) {
    match state.push_configs.list(owner, task_id).await {
        Ok(configs) if configs.is_empty() => {}
        Ok(configs) => {
            // One copy of the event for all of the task's webhooks, counted against the owner.
            let held = match state.push_bytes.try_hold(owner, size::event(event)) {
                Ok(held) => held,
                Err(refused) => {
                    tracing::warn!(task_id, reason = %refused.message, "push notifications dropped");
                    return;
                }
            };
            let shared = PendingEvent::new(event.clone(), Some(held));
            for config in configs {
                let waiting = match state.push_waiting.take(owner) {
                    Ok(slot) => slot,
                    Err(refused) => {
                        tracing::warn!(task_id, reason = %refused.message, "push notification dropped");
                        continue;
                    }
                };
                state.pusher.send(Delivery {
                    config,
                    event: shared.clone(),
                    waiting: Some((owner.clone(), waiting)),
                });
            }
        }
        Err(error) => tracing::warn!(%error, task_id, "push configs could not be read"),
    }
}
