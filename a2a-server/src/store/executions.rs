//! Executions that outlive their replica: the [`ExecutionQueue`] trait (a work queue with leases,
//! as a2a-go's cluster mode has), implemented by stores shared across restarts and replicas.
//!
//! When a server has a queue ([`A2aServerBuilder::execution_queue`](crate::A2aServerBuilder::execution_queue)),
//! every execution of a message on a task is recorded (the request, its service parameters, its
//! owner) with a lease that the executing replica renews while the executor runs, and removed when
//! the executor ends (the task over, waiting for input, or the executor done). A replica that crashes stops
//! renewing; once its lease has run out, a replica (the same one restarted, or another) claims
//! the record and runs the [`AgentExecutor`](crate::AgentExecutor) again for the task, with
//! [`RequestContext::resumed`](crate::RequestContext) set and
//! [`RequestContext::task`](crate::RequestContext) the task as stored, so a long-running task
//! still reaches a terminal state and streams subscribed to it go on.
//!
//! # For executor authors: at least once
//!
//! An execution may run more than once for one message: after a crash, and also when a live
//! replica loses its lease (it could not renew it in time) and another claims it; the replica that
//! lost it is told to stop (its [`EventSink`](crate::EventSink) reports cancellation), but events
//! it sent before are kept. A resumed executor should therefore look at the stored task (its
//! status, its artifacts) and go on from there rather than start over, and make side effects
//! outside the task (payments, emails) idempotent. Events already committed are never lost or
//! replayed by the server; an executor that sends again what it sent before makes new events.
//! An execution is resumed at most [`ExecutionSettings::attempts`] times in all; after that the
//! task is marked failed with a message saying so.

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_types::v1::{SendMessageRequest, Task};
use async_trait::async_trait;

use super::{StoreError, StoreIdentity, TaskChange};
use crate::executor::ServiceParams;

/// One recorded execution, as a claim returns it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ExecutionRecord {
    /// The owner's principal (`""` for anonymous).
    pub owner_principal: String,
    /// The owner's tenant (`""` for the default).
    pub owner_tenant: String,
    /// The task executed.
    pub task_id: String,
    /// The message (its ids filled in) and the request's configuration.
    pub request: SendMessageRequest,
    /// Runs so far, this one included (1 for the first).
    pub attempts: u32,
    /// The request's `A2A-Version` and `A2A-Extensions`, which a resumed run sees again.
    pub service_params: ServiceParams,
}

impl ExecutionRecord {
    /// A record as a store reads it back.
    pub fn new(
        owner_principal: String,
        owner_tenant: String,
        task_id: String,
        request: SendMessageRequest,
        attempts: u32,
    ) -> Self {
        ExecutionRecord {
            owner_principal,
            owner_tenant,
            task_id,
            request,
            attempts,
            service_params: ServiceParams::default(),
        }
    }

    /// The same record, with the request's service parameters.
    pub fn with_service_params(mut self, service_params: ServiceParams) -> Self {
        self.service_params = service_params;
        self
    }
}

/// How executions are leased and resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecutionSettings {
    /// How long a lease lasts (30 s); the executing replica renews it every third of that. A
    /// crashed replica's executions are resumed this long after its last renewal at the latest.
    pub lease: Duration,
    /// Executions claimed at most at once (8).
    pub claim_batch: usize,
    /// Runs of one execution at most, the first included (3); then the task fails.
    pub attempts: u32,
    /// How often expired leases are looked for (5 s).
    pub poll_interval: Duration,
}

impl Default for ExecutionSettings {
    fn default() -> Self {
        ExecutionSettings {
            lease: Duration::from_secs(30),
            claim_batch: 8,
            attempts: 3,
            poll_interval: Duration::from_secs(5),
        }
    }
}

/// The recorded executions (see the [module docs](self)).
#[async_trait]
pub trait ExecutionQueue: Send + Sync + 'static {
    /// Records that the owner's task `task_id` runs `request`, received with `service_params`,
    /// leased to `lease_token` for `lease` (replacing an earlier record of the task: a message
    /// continuing it).
    async fn begin(
        &self,
        owner: &crate::auth::Owner,
        task_id: &str,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<(), StoreError>;

    /// The task store this queue keeps its records beside, when it is one
    /// ([`TaskStore::store_identity`](super::TaskStore::store_identity) says which): the server
    /// then creates new tasks through [`begin_with_task`](Self::begin_with_task). `None` (the
    /// default): the queue keeps no tasks.
    fn task_store_identity(&self) -> Option<StoreIdentity> {
        None
    }

    /// [`begin`](Self::begin) for a new task, `task`, created (at version 1, as
    /// [`TaskStore::create`](super::TaskStore::create) does) in the same write as its record:
    /// both are kept or neither. Fails with `AlreadyExists` (and records nothing) when the id is
    /// taken. The server calls it only on a queue whose
    /// [`task_store_identity`](Self::task_store_identity) is its task store's; the default, for
    /// a queue that keeps no tasks, refuses.
    async fn begin_with_task(
        &self,
        owner: &crate::auth::Owner,
        task: &Task,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<u64, StoreError> {
        let _ = (owner, request, service_params, lease_token, lease);
        Err(StoreError::Backend(format!(
            "this execution queue keeps no tasks; task {} was not created",
            task.id
        )))
    }

    /// [`begin`](Self::begin) for a message continuing the owner's task `task_id`: the task
    /// changed by `change` (as [`TaskStore::modify`](super::TaskStore::modify) changes it, with
    /// no event) in the same write as the record, both kept or neither; the task's new version.
    /// `change`'s refusal is the call's error, and nothing is written. The server calls it only
    /// on a queue whose [`task_store_identity`](Self::task_store_identity) is its task store's;
    /// the default, for a queue that keeps no tasks, refuses.
    #[allow(clippy::too_many_arguments)]
    async fn begin_with_change(
        &self,
        owner: &crate::auth::Owner,
        task_id: &str,
        change: &mut TaskChange<'_>,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<u64, Error> {
        let _ = (owner, change, request, service_params, lease_token, lease);
        Err(StoreError::Backend(
            "this execution queue keeps no tasks; the task was not changed".to_owned(),
        )
        .to_error(task_id))
    }

    /// Extends the lease by `lease` from now; `false` when `lease_token` no longer holds it.
    async fn renew(
        &self,
        task_id: &str,
        lease_token: &str,
        lease: Duration,
    ) -> Result<bool, StoreError>;

    /// The execution ended: its record goes, if `lease_token` still holds it.
    async fn finish(&self, task_id: &str, lease_token: &str) -> Result<(), StoreError>;

    /// Claims at most `limit` records whose lease has run out, leasing each to `lease_token` for
    /// `lease` and counting one more attempt.
    async fn claim_expired(
        &self,
        lease_token: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<ExecutionRecord>, StoreError>;
}
