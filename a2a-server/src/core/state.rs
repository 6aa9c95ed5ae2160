//! The state every clone of an [`A2aServer`](crate::A2aServer) shares: the agent, its cards, its
//! stores and settings, and what runs now (executions, streams). The server's operations are
//! functions that are handed this state; the bindings hold it too, so none of them needs the
//! server object.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use a2a_types::v1::AgentCard;
use tokio::sync::watch;

use crate::auth::{Authenticator, ScopeRequirements, SkillRequirements};
use crate::config::ServerConfig;
use crate::core::owner_quota::OwnerQuota;
use crate::core::owner_slots::OwnerSlots;
use crate::executor::AgentExecutor;
use crate::push::{OutboxWaker, PushConfigStore, PushSender};
use crate::store::{ExecutionQueue, TaskStore};
use crate::versions::VersionBus;

/// What the server is made of and what it runs, shared by all clones and bindings.
pub(crate) struct ServerState {
    pub(crate) card: AgentCard,
    pub(crate) extended_card: Option<AgentCard>,
    pub(crate) executor: Arc<dyn AgentExecutor>,
    pub(crate) tasks: Arc<dyn TaskStore>,
    pub(crate) push_configs: Arc<dyn PushConfigStore>,
    pub(crate) bus: Arc<dyn VersionBus>,
    pub(crate) authenticator: Arc<dyn Authenticator>,
    /// The scopes each operation needs.
    pub(crate) scopes: ScopeRequirements,
    /// The security requirements of the cards' skills.
    pub(crate) skills: Arc<SkillRequirements>,
    pub(crate) pusher: PushSender,
    /// With a durable outbox, the task store writes the deliveries with each event; this wakes
    /// the worker that makes them (and the in-process `pusher` is not used for events).
    pub(crate) outbox: Option<OutboxWaker>,
    /// Where executions are recorded with leases, so a stopped one is resumed.
    pub(crate) executions: Option<Arc<dyn ExecutionQueue>>,
    /// Whether `executions` is kept in the task store: a new task and its execution's record are
    /// then written together ([`ExecutionQueue::begin_with_task`]).
    pub(crate) executions_with_tasks: bool,
    pub(crate) config: ServerConfig,
    /// The cancel signals of the executions running in this process, by task id.
    pub(crate) running: Mutex<HashMap<String, watch::Sender<bool>>>,
    pub(crate) streams: Arc<OwnerSlots>,
    /// The bytes of events streams hold for their clients, counted per owner.
    pub(crate) stream_bytes: Arc<OwnerQuota>,
    /// The bytes of the events the bus keeps for the streams of the tasks they were written to
    /// (see [`crate::versions`]), counted per owner apart from `stream_bytes`: a stream waiting
    /// for room of its own never waits on what its task's channel keeps.
    pub(crate) handed_bytes: Arc<OwnerQuota>,
    /// The bytes of events waiting for their webhooks in process, counted per owner.
    pub(crate) push_bytes: Arc<OwnerQuota>,
    /// The webhook deliveries waiting in process, counted per owner.
    pub(crate) push_waiting: Arc<OwnerSlots>,
    /// The executions running in this process, counted per owner.
    pub(crate) execution_slots: Arc<OwnerSlots>,
    pub(crate) shutdown: watch::Sender<bool>,
}

impl ServerState {
    /// The cancel signals of the running executions (a poisoned lock is still a usable map:
    /// every change is one map operation).
    pub(crate) fn running(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<bool>>> {
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
