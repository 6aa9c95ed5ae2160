//! Resuming executions whose replica stopped: a background worker claims the records of an
//! [`ExecutionQueue`](crate::store::ExecutionQueue) whose lease ran out and runs the executor again
//! for each task still going (see [`crate::store::executions`]).

use std::sync::{Arc, Weak};

use tokio::sync::{mpsc, watch};

use crate::auth::{Caller, Owner};
use crate::core::execution::agent_run::AgentRun;
use crate::core::execution::drive::{Execution, drive, fail_task};
use crate::core::state::ServerState;
use crate::executor::{EventSink, RequestContext};
use crate::store::{ExecutionQueue, ExecutionRecord};

/// Starts the worker; it ends when the server is dropped.
pub(crate) fn start_resumer(state: Weak<ServerState>) {
    tokio::spawn(async move {
        loop {
            // The state is held only while claiming, so dropping it ends the worker.
            let poll = {
                let Some(state) = state.upgrade() else {
                    return;
                };
                resume_expired(&state).await;
                state.config.executions.poll_interval
            };
            tokio::time::sleep(poll).await;
        }
    });
}

/// Claims the executions whose lease ran out and resumes each.
async fn resume_expired(state: &Arc<ServerState>) {
    let Some(queue) = &state.executions else {
        return;
    };
    let settings = state.config.executions;
    let token = crate::ids::new_id("lease");
    match queue
        .claim_expired(&token, settings.lease, settings.claim_batch.max(1))
        .await
    {
        Ok(records) => {
            for record in records {
                resume(state, record, &token).await;
            }
        }
        Err(error) => tracing::warn!(%error, "stopped executions could not be read"),
    }
}

/// Runs the executor again for `record`'s task, unless the task is over or waits for input,
/// or the execution has used its attempts (then the task fails).
async fn resume(state: &Arc<ServerState>, record: ExecutionRecord, token: &str) {
    let Some(queue) = &state.executions else {
        return;
    };
    let owner = Owner {
        principal: record.owner_principal.clone(),
        tenant: record.owner_tenant.clone(),
    };
    let task_id = record.task_id.clone();
    let stored = match state.tasks.get(&owner, &task_id).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return finish(queue.as_ref(), &task_id, token).await,
        Err(error) => {
            // The lease runs out again and the next claim tries again.
            tracing::warn!(%error, task_id, "a stopped execution's task could not be read");
            return;
        }
    };
    let task_state = stored.task.status.state;
    if task_state.is_terminal() || task_state.is_interrupted() {
        return finish(queue.as_ref(), &task_id, token).await;
    }
    let context_id = stored.task.context_id.clone().unwrap_or_default();
    let attempts = state.config.executions.attempts.max(1);
    if record.attempts > attempts {
        let problem = format!(
            "the agent stopped {} times before finishing this task; it was given up",
            record.attempts - 1
        );
        tracing::warn!(
            task_id,
            attempts = record.attempts - 1,
            "a stopped execution is given up"
        );
        let _ = fail_task(state, &owner, &task_id, &context_id, problem).await;
        return finish(queue.as_ref(), &task_id, token).await;
    }
    tracing::info!(
        task_id,
        attempt = record.attempts,
        "resuming a stopped execution"
    );
    let caller = Caller {
        principal: Some(record.owner_principal).filter(|p| !p.is_empty()),
        tenant: Some(record.owner_tenant).filter(|t| !t.is_empty()),
        // The scopes of the request are not recorded: a resumed execution runs as its owner.
        ..Caller::default()
    };
    let skill = state
        .skills
        .skill_of(&record.request.message)
        .ok()
        .flatten()
        .map(str::to_owned);
    let context = RequestContext {
        skill,
        skill_requirements: state.skills.clone(),
        message: record.request.message,
        task_id: task_id.clone(),
        context_id: context_id.clone(),
        task: Some(stored.task),
        caller,
        service_params: record.service_params,
        configuration: record.request.configuration,
        resumed: true,
    };
    let (sender, events) = mpsc::channel(state.config.executor_queue.max(1));
    let (cancel, cancel_signal) = watch::channel(false);
    let sink = EventSink::new(sender, cancel_signal, task_id.clone(), context_id.clone());
    let slot = state.execution_slots.take_anyway(&owner);
    let run = AgentRun::start(state.executor.clone(), context, sink).await;
    drive(
        state,
        Execution {
            owner,
            task_id,
            context_id,
            first: Vec::new(),
            events,
            run,
            cancel,
            settle: None,
            lease: Some(token.to_owned()),
            slot,
        },
    );
}

/// Removes a record the claim took but that needs no run.
async fn finish(queue: &dyn ExecutionQueue, task_id: &str, token: &str) {
    if let Err(error) = queue.finish(task_id, token).await {
        tracing::warn!(%error, task_id, "a stopped execution's record could not be removed");
    }
}
