//! [`A2aServerBuilder`]: the agent, its cards, its stores and settings, put together into the
//! state a server runs on (see [`A2aServer::builder`](crate::A2aServer::builder)).

use std::sync::{Arc, Mutex};

use a2a_types::v1::AgentCard;
use tokio::sync::watch;

use crate::auth::{Anonymous, Authenticator, ScopeRequirements, SkillRequirements};
use crate::config::ServerConfig;
use crate::core::execution::resume::start_resumer;
use crate::core::owner_quota::OwnerQuota;
use crate::core::owner_slots::OwnerSlots;
use crate::core::state::ServerState;
use crate::executor::AgentExecutor;
use crate::push::{
    InMemoryPushConfigStore, PushConfigStore, PushOutbox, PushSender, start_outbox_worker,
};
use crate::server::error::BuildError;
use crate::server::webhook_client::webhook_client;
use crate::store::{ExecutionQueue, InMemoryTaskStore, TaskStore};
use crate::versions::{InMemoryVersionBus, RECENT_BYTES, VersionBus};

/// Builds an [`A2aServer`](crate::A2aServer); see
/// [`A2aServer::builder`](crate::A2aServer::builder). Every store defaults to memory.
#[must_use = "call `build()` to get the server"]
pub struct A2aServerBuilder {
    card: AgentCard,
    executor: Arc<dyn AgentExecutor>,
    extended_card: Option<AgentCard>,
    tasks: Option<Arc<dyn TaskStore>>,
    push_configs: Option<Arc<dyn PushConfigStore>>,
    push_outbox: Option<Arc<dyn PushOutbox>>,
    executions: Option<Arc<dyn ExecutionQueue>>,
    bus: Option<Arc<dyn VersionBus>>,
    authenticator: Option<Arc<dyn Authenticator>>,
    scopes: ScopeRequirements,
    config: ServerConfig,
    #[cfg(feature = "signing")]
    card_signer: Option<a2a_types::signing::CardSigner>,
}

impl A2aServerBuilder {
    /// A builder for the agent `executor` described by `card`, everything else by default.
    pub(super) fn new(card: AgentCard, executor: Arc<dyn AgentExecutor>) -> Self {
        A2aServerBuilder {
            card,
            executor,
            extended_card: None,
            tasks: None,
            push_configs: None,
            push_outbox: None,
            executions: None,
            bus: None,
            authenticator: None,
            scopes: ScopeRequirements::default(),
            config: ServerConfig::default(),
            #[cfg(feature = "signing")]
            card_signer: None,
        }
    }

    /// The card `GetExtendedAgentCard` answers to authenticated callers (the public card should
    /// say `capabilities.extendedAgentCard: true` and declare how to authenticate).
    pub fn extended_card(mut self, card: AgentCard) -> Self {
        self.extended_card = Some(card);
        self
    }

    /// Where tasks are kept ([`InMemoryTaskStore`] by default).
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks = Some(Arc::new(store));
        self
    }

    /// The same, shared with other code (the caller keeps a handle).
    pub fn shared_task_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.tasks = Some(store);
        self
    }

    /// Where push configs are kept ([`InMemoryPushConfigStore`] by default).
    pub fn push_config_store(mut self, store: impl PushConfigStore) -> Self {
        self.push_configs = Some(Arc::new(store));
        self
    }

    /// Makes webhook deliveries through this durable outbox instead of the in-process queue: a
    /// delivery pending at a crash is made after it (see [`crate::push::outbox`]). The outbox must
    /// be the task store's own (the store writes the deliveries with each event), for example
    /// the same SQL store given to [`task_store`](Self::task_store).
    pub fn push_outbox(mut self, outbox: impl PushOutbox) -> Self {
        self.push_outbox = Some(Arc::new(outbox));
        self
    }

    /// Records every execution in this queue with a lease, so one whose replica stops (a crash)
    /// is resumed by this or another replica: see [`crate::store::executions`] (executions run at
    /// least once). For example the SQL store given to [`task_store`](Self::task_store).
    pub fn execution_queue(mut self, queue: impl ExecutionQueue) -> Self {
        self.executions = Some(Arc::new(queue));
        self
    }

    /// How streams learn that a task has new events ([`InMemoryVersionBus`] by default).
    pub fn version_bus(mut self, bus: impl VersionBus) -> Self {
        self.bus = Some(Arc::new(bus));
        self
    }

    /// The former name of [`version_bus`](Self::version_bus), kept for one release.
    #[doc(hidden)]
    pub fn event_bus(self, bus: impl VersionBus) -> Self {
        self.version_bus(bus)
    }

    /// The authentication hook ([`Anonymous`] by default). When the hook says what the card should
    /// declare ([`Authenticator::card_security`], as [`Security`](crate::Security) does), the
    /// public and extended cards' `securitySchemes` and `securityRequirements` are replaced by that
    /// when the server is built, so the cards declare exactly what the hook accepts.
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.authenticator = Some(Arc::new(authenticator));
        self
    }

    /// The scopes each operation needs (none by default): a caller without them is refused on every
    /// binding before the operation runs (HTTP 403, gRPC `PERMISSION_DENIED`, JSON-RPC -31403).
    pub fn scope_requirements(mut self, scopes: ScopeRequirements) -> Self {
        self.scopes = scopes;
        self
    }

    /// The settings.
    pub fn config(mut self, config: ServerConfig) -> Self {
        self.config = config;
        self
    }

    /// Serves the public card and the extended card signed by `signer` (feature `signing`, A2A
    /// §8.4): both are signed when the server is built, so the signatures cover the cards exactly
    /// as served (a server's cards do not change after that; a new card means a new server, signed
    /// anew); signatures the cards already carry are kept (the new one is appended). Build
    /// with [`try_build`](Self::try_build) to get a card that cannot be signed as an error.
    #[cfg(feature = "signing")]
    pub fn sign_card_with(mut self, signer: a2a_types::signing::CardSigner) -> Self {
        self.card_signer = Some(signer);
        self
    }

    /// The state of the server being built, its workers started (the webhook worker, the
    /// outbox worker, the resumer). Must run inside a tokio runtime.
    pub(super) fn into_state(self) -> Result<Arc<ServerState>, BuildError> {
        let (mut card, mut extended_card) = (self.card, self.extended_card);
        let authenticator = self.authenticator.unwrap_or_else(|| Arc::new(Anonymous));
        // Written before signing, so the signatures cover what is declared.
        if let Some(security) = authenticator.card_security() {
            security.apply(&mut card);
            if let Some(extended) = &mut extended_card {
                security.apply(extended);
            }
        }
        let skills = SkillRequirements::of_cards(&card, extended_card.as_ref());
        for (skill, scheme) in skills.undeclared_schemes(extended_card.as_ref().unwrap_or(&card)) {
            tracing::warn!(
                skill,
                scheme,
                "a skill's security requirement names a scheme the card does not declare; no caller can meet it"
            );
        }
        #[cfg(feature = "signing")]
        if let Some(signer) = &self.card_signer {
            signer
                .sign(&mut card)
                .map_err(|error| BuildError::CardNotSigned {
                    card: "card",
                    error,
                })?;
            if let Some(extended) = &mut extended_card {
                signer
                    .sign(extended)
                    .map_err(|error| BuildError::CardNotSigned {
                        card: "extended card",
                        error,
                    })?;
            }
        }
        let config = self.config;
        let webhook_client = webhook_client(&config)?;
        let resumes = self.executions.is_some();
        let tasks = self
            .tasks
            .unwrap_or_else(|| Arc::new(InMemoryTaskStore::new()));
        let executions_with_tasks = self.executions.as_ref().is_some_and(|queue| {
            queue.task_store_identity().is_some()
                && queue.task_store_identity() == tasks.store_identity()
        });
        let state = Arc::new(ServerState {
            card,
            extended_card,
            executor: self.executor,
            tasks,
            push_configs: self
                .push_configs
                .unwrap_or_else(|| Arc::new(InMemoryPushConfigStore::new())),
            bus: self
                .bus
                .unwrap_or_else(|| Arc::new(InMemoryVersionBus::new())),
            authenticator,
            scopes: self.scopes,
            skills: Arc::new(skills),
            pusher: PushSender::start(config.webhook_policy, config.push, webhook_client.clone()),
            outbox: self.push_outbox.map(|outbox| {
                start_outbox_worker(outbox, config.webhook_policy, config.push, webhook_client)
            }),
            executions: self.executions,
            executions_with_tasks,
            running: Mutex::default(),
            streams: OwnerSlots::new("streams", config.max_streams, config.max_streams_per_owner),
            stream_bytes: OwnerQuota::new(
                "streams",
                config.max_stream_bytes,
                config.max_stream_bytes_per_owner,
            ),
            // Room for every stream's task to keep a full run of handed events; the ledger still
            // bounds channels left behind by streams that ended, until they are dropped.
            handed_bytes: OwnerQuota::new(
                "handed-over events",
                config.max_streams.saturating_mul(RECENT_BYTES),
                config.max_streams_per_owner.saturating_mul(RECENT_BYTES),
            ),
            push_bytes: OwnerQuota::new(
                "webhook deliveries",
                config.push.max_pending_bytes,
                config.push.max_pending_bytes_per_owner,
            ),
            push_waiting: OwnerSlots::new(
                "webhook deliveries waiting",
                config.push.queue,
                config.push.queue_per_owner,
            ),
            execution_slots: OwnerSlots::new(
                "executions",
                config.max_executions,
                config.max_executions_per_owner,
            ),
            shutdown: watch::channel(false).0,
            config,
        });
        if resumes {
            start_resumer(Arc::downgrade(&state));
        }
        Ok(state)
    }
}
