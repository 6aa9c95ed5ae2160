//! The driver of one execution: applies the executor's events to its task in order, fails the
//! task when the executor fails, and, with an execution queue, renews the execution's lease while
//! it runs and removes its record when it ends (see [`crate::store::executions`]).

use std::sync::Arc;

use a2a_protocol::errors::Error;
use a2a_types::v1::{Message, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::auth::Owner;
use crate::core::execution::agent_run::AgentRun;
use crate::core::execution::apply::{apply, apply_all};
use crate::core::execution::events::{ends_stream, to_stream_event};
use crate::core::owner_slots::OwnerSlot;
use crate::core::state::ServerState;
use crate::executor::AgentEvent;

/// One running execution, handed to [`drive`].
pub(crate) struct Execution {
    pub(crate) owner: Owner,
    pub(crate) task_id: String,
    pub(crate) context_id: String,
    /// Events already read from `events` (the first, which decided that there is a task, and
    /// any that had queued behind it), applied first.
    pub(crate) first: Vec<AgentEvent>,
    pub(crate) events: mpsc::Receiver<AgentEvent>,
    /// The agent's run (ended already, when it answered at once).
    pub(crate) run: AgentRun,
    pub(crate) cancel: watch::Sender<bool>,
    /// Given the task once it ends or waits for input (what a blocking SendMessage waits for,
    /// and answers with).
    pub(crate) settle: Option<oneshot::Sender<Task>>,
    /// The lease token the execution's record is held under, with an execution queue.
    pub(crate) lease: Option<String>,
    /// The execution's slot among the owner's running ones, given back when the driver ends.
    pub(crate) slot: OwnerSlot,
}

impl Execution {
    /// Whether the driver would do nothing but wait for what already happened: the agent ended
    /// well, every event it sent is applied, no caller waits to be settled and no record is
    /// held. (An event still queued is moved to `first`.)
    fn nothing_left(&mut self) -> bool {
        if !(self.first.is_empty()
            && self.settle.is_none()
            && self.lease.is_none()
            && self.run.ended_well())
        {
            return false;
        }
        match self.events.try_recv() {
            Ok(event) => {
                self.first.push(event);
                false
            }
            // A sender may live on where the agent kept a clone of its sink.
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => true,
        }
    }
}

/// Aborts the lease renewal when the driver is done, however it ends.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs the driver of `run` in a task of its own, unless it has nothing left to do.
pub(crate) fn drive(state: &Arc<ServerState>, mut run: Execution) {
    if run.nothing_left() {
        return;
    }
    state
        .running()
        .insert(run.task_id.clone(), run.cancel.clone());
    let state = state.clone();
    tokio::spawn(async move {
        let Execution {
            owner,
            task_id,
            context_id,
            first,
            mut events,
            run,
            cancel,
            mut settle,
            lease,
            slot,
        } = run;
        let _renewal = lease
            .as_ref()
            .map(|token| AbortOnDrop(renew_lease(&state, &task_id, token, cancel.clone())));
        let mut pending = first.into_iter();
        let mut next = match pending.next() {
            Some(event) => Some(event),
            None => events.recv().await,
        };
        while let Some(event) = next.take() {
            let event = to_stream_event(event, &task_id, &context_id);
            let mut ends = ends_stream(&event);
            let mut batch = vec![event];
            // Events that queued up while the last write was committing go in one write (group
            // commit), up to one that ends the stream; streams hear of them after it.
            while !ends && let Some(more) = pending.next().or_else(|| events.try_recv().ok()) {
                let more = to_stream_event(more, &task_id, &context_id);
                ends = ends_stream(&more);
                batch.push(more);
            }
            let ended = match apply_all(&state, &owner, &task_id, batch).await {
                Ok((_, ended)) => ended,
                Err(error) => {
                    // An event the store has no room for (its error names the limit) ends the task,
                    // failed with the store's reason: unfinished, it would hold its owner's room for
                    // ever. Canceled or gone: nothing more. Either way the executor is told to stop.
                    if error.metadata.contains_key("limit") {
                        let _ =
                            fail_task(&state, &owner, &task_id, &context_id, error.message).await;
                    }
                    cancel.send_replace(true);
                    break;
                }
            };
            if let Some(task) = ended
                && let Some(settle) = settle.take()
            {
                let _ = settle.send(task);
            }
            next = match pending.next() {
                Some(event) => Some(event),
                None => events.recv().await,
            };
        }
        drop(events);
        let failure = run.end().await.err().map(|error| error.message);
        if let Some(problem) = failure
            && !cancel.borrow().to_owned()
        {
            let _ = fail_task(&state, &owner, &task_id, &context_id, problem).await;
        }
        state.running().remove(&task_id);
        drop(slot);
        if let (Some(token), Some(queue)) = (&lease, &state.executions)
            && let Err(error) = queue.finish(&task_id, token).await
        {
            // The record stays; once its lease ends the execution is resumed (and sees the
            // task as it is now).
            tracing::warn!(%error, task_id, "the execution's record could not be removed");
        }
    });
}

/// Marks the task failed with `problem` as the agent's message; its new version.
pub(crate) async fn fail_task(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    context_id: &str,
    problem: String,
) -> Result<u64, Error> {
    let mut message = Message::agent(
        crate::ids::new_id("msg"),
        [a2a_types::v1::Part::text(problem)],
    );
    message.task_id = Some(task_id.to_owned());
    message.context_id = Some(context_id.to_owned());
    let status = TaskStatus::now(TaskState::Failed).message(message);
    let update = TaskStatusUpdateEvent::new(task_id, context_id, status);
    apply(state, owner, task_id, StreamResponse::StatusUpdate(update)).await
}

/// Renews the lease `token` holds on the execution of `task_id` every third of the lease;
/// when another replica holds it now, tells the executor to stop (`cancel`).
fn renew_lease(
    state: &Arc<ServerState>,
    task_id: &str,
    token: &str,
    cancel: watch::Sender<bool>,
) -> JoinHandle<()> {
    let state = state.clone();
    let (task_id, token) = (task_id.to_owned(), token.to_owned());
    tokio::spawn(async move {
        let Some(queue) = state.executions.clone() else {
            return;
        };
        let lease = state.config.executions.lease;
        loop {
            tokio::time::sleep(lease / 3).await;
            match queue.renew(&task_id, &token, lease).await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!(
                        task_id,
                        "the execution's lease was taken over; stopping it here"
                    );
                    cancel.send_replace(true);
                    return;
                }
                // A store that does not answer: try again; if the lease runs out meanwhile,
                // another replica may resume the task (at least once).
                Err(error) => {
                    tracing::warn!(%error, task_id, "the execution's lease could not be renewed")
                }
            }
        }
    })
}
