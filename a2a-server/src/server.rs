//! The server object: [`A2aServer`] holds the agent, its cards, its stores and its settings, and
//! answers typed requests ([`A2aServer::call`], in [`crate::handler`]) for every binding; the
//! bindings ([`crate::http`], [`crate::grpc`]) only translate wire forms. Build one with
//! [`A2aServer::builder`] (inside a tokio runtime: it starts the webhook worker).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use a2a_protocol::limits::Limits;
use a2a_types::v1::AgentCard;
use tokio::sync::{Semaphore, watch};

use crate::auth::{Anonymous, Authenticator};
use crate::events::{EventBus, InMemoryEventBus};
use crate::executor::AgentExecutor;
use crate::push::{
    InMemoryPushConfigStore, OutboxWaker, PushConfigStore, PushOutbox, PushSender, PushSettings,
    WebhookPolicy, start_outbox_worker,
};
use crate::store::{ExecutionQueue, ExecutionSettings, InMemoryTaskStore, TaskStore};

/// The server's settings; [`ServerConfig::default`] suits most agents.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServerConfig {
    /// The decode budget of every request (`a2a_protocol::limits`): bodies over it are refused before
    /// they are parsed (JSON-RPC `-32600`, HTTP 413, gRPC `OUT_OF_RANGE`).
    pub limits: Limits,
    /// Extensions every request must activate (`A2A-Extensions`), else `ExtensionSupportRequired`.
    pub required_extensions: Vec<String>,
    /// Events an executor may have queued before [`EventSink::send`](crate::EventSink::send) waits (64).
    pub executor_queue: usize,
    /// Events a stream may have queued for a client that reads slowly (32). The stream then waits
    /// for the client, reading nothing more from the task's log; one whose client falls behind
    /// what the log keeps ends (the client resumes with `Last-Event-ID` or SubscribeToTask).
    pub stream_queue: usize,
    /// Streams open at once (1,024); one more is refused with an `Internal` error naming the cap.
    pub max_streams: usize,
    /// ListTasks' page size when the request gives none (50).
    pub default_page_size: usize,
    /// ListTasks' largest page size (100).
    pub max_page_size: usize,
    /// Which webhook URLs push configs may name.
    pub webhook_policy: WebhookPolicy,
    /// How webhook deliveries are made.
    pub push: PushSettings,
    /// Whom `https` webhook deliveries trust (feature `rustls`): the web PKI roots by default.
    #[cfg(feature = "rustls")]
    pub webhook_tls: crate::tls::WebhookTls,
    /// How executions are leased and resumed, with an execution queue.
    pub executions: ExecutionSettings,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            limits: Limits::default(),
            required_extensions: Vec::new(),
            executor_queue: 64,
            stream_queue: 32,
            max_streams: 1024,
            default_page_size: 50,
            max_page_size: 100,
            webhook_policy: WebhookPolicy::default(),
            push: PushSettings::default(),
            #[cfg(feature = "rustls")]
            webhook_tls: crate::tls::WebhookTls::default(),
            executions: ExecutionSettings::default(),
        }
    }
}

pub(crate) struct Inner {
    pub(crate) card: AgentCard,
    pub(crate) extended_card: Option<AgentCard>,
    pub(crate) executor: Arc<dyn AgentExecutor>,
    pub(crate) tasks: Arc<dyn TaskStore>,
    pub(crate) push_configs: Arc<dyn PushConfigStore>,
    pub(crate) bus: Arc<dyn EventBus>,
    pub(crate) authenticator: Arc<dyn Authenticator>,
    pub(crate) pusher: PushSender,
    /// With a durable outbox, the task store writes the deliveries with each event; this wakes
    /// the worker that makes them (and the in-process `pusher` is not used for events).
    pub(crate) outbox: Option<OutboxWaker>,
    /// Where executions are recorded with leases, so a stopped one is resumed.
    pub(crate) executions: Option<Arc<dyn ExecutionQueue>>,
    pub(crate) config: ServerConfig,
    /// The cancel signals of the executions running in this process, by task id.
    pub(crate) running: Mutex<HashMap<String, watch::Sender<bool>>>,
    pub(crate) streams: Arc<Semaphore>,
    pub(crate) shutdown: watch::Sender<bool>,
}

impl Inner {
    pub(crate) fn running(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<bool>>> {
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An A2A server: cheap to clone (all clones share one state).
#[derive(Clone)]
pub struct A2aServer {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for A2aServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("A2aServer")
            .field("card", &self.inner.card.name)
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl A2aServer {
    /// Starts a server for the agent `executor` described by `card` (its public card, served at
    /// the well-known path; its capabilities decide which operations are served).
    pub fn builder(card: AgentCard, executor: impl AgentExecutor) -> A2aServerBuilder {
        A2aServerBuilder {
            card,
            executor: Arc::new(executor),
            extended_card: None,
            tasks: None,
            push_configs: None,
            push_outbox: None,
            executions: None,
            bus: None,
            authenticator: None,
            config: ServerConfig::default(),
            #[cfg(feature = "signing")]
            card_signer: None,
        }
    }

    /// The public card.
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The settings.
    pub fn config(&self) -> &ServerConfig {
        &self.inner.config
    }

    /// Ends every open stream (the server is shutting down); new streams end at once.
    pub fn close_streams(&self) {
        self.inner.shutdown.send_replace(true);
    }

    /// How many streams are open.
    pub fn open_streams(&self) -> usize {
        self.inner.config.max_streams - self.inner.streams.available_permits()
    }
}

/// Builds an [`A2aServer`]; see [`A2aServer::builder`]. Every store defaults to memory.
#[must_use = "call `build()` to get the server"]
pub struct A2aServerBuilder {
    card: AgentCard,
    executor: Arc<dyn AgentExecutor>,
    extended_card: Option<AgentCard>,
    tasks: Option<Arc<dyn TaskStore>>,
    push_configs: Option<Arc<dyn PushConfigStore>>,
    push_outbox: Option<Arc<dyn PushOutbox>>,
    executions: Option<Arc<dyn ExecutionQueue>>,
    bus: Option<Arc<dyn EventBus>>,
    authenticator: Option<Arc<dyn Authenticator>>,
    config: ServerConfig,
    #[cfg(feature = "signing")]
    card_signer: Option<a2a_types::signing::CardSigner>,
}

impl A2aServerBuilder {
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

    /// How streams learn of new events ([`InMemoryEventBus`] by default).
    pub fn event_bus(mut self, bus: impl EventBus) -> Self {
        self.bus = Some(Arc::new(bus));
        self
    }

    /// The authentication hook ([`Anonymous`] by default).
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.authenticator = Some(Arc::new(authenticator));
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

    /// The server. Must run inside a tokio runtime (it starts the webhook worker).
    ///
    /// # Panics
    ///
    /// With a card signer ([`sign_card_with`](Self::sign_card_with)), if a card cannot be signed
    /// (it nests deeper than a canonical form allows), or if the webhook client cannot be built
    /// (extra roots in [`ServerConfig::webhook_tls`] that are not certificates);
    /// [`try_build`](Self::try_build) returns that as an error instead.
    pub fn build(self) -> A2aServer {
        match self.try_build() {
            Ok(server) => server,
            Err(error) => panic!("{error}"),
        }
    }

    /// The server, or why it cannot be built: a card that cannot be signed
    /// ([`BuildError::CardNotSigned`]), webhook TLS settings that cannot be used
    /// ([`BuildError::WebhookTls`]). Must run inside a tokio runtime.
    ///
    /// # Errors
    ///
    /// [`BuildError`].
    pub fn try_build(self) -> Result<A2aServer, BuildError> {
        #[cfg_attr(not(feature = "signing"), allow(unused_mut))]
        let (mut card, mut extended_card) = (self.card, self.extended_card);
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
        let webhook_client = crate::webhook_client::webhook_client(&config)?;
        let resumes = self.executions.is_some();
        let server = A2aServer {
            inner: Arc::new(Inner {
                card,
                extended_card,
                executor: self.executor,
                tasks: self
                    .tasks
                    .unwrap_or_else(|| Arc::new(InMemoryTaskStore::new())),
                push_configs: self
                    .push_configs
                    .unwrap_or_else(|| Arc::new(InMemoryPushConfigStore::new())),
                bus: self
                    .bus
                    .unwrap_or_else(|| Arc::new(InMemoryEventBus::new())),
                authenticator: self.authenticator.unwrap_or_else(|| Arc::new(Anonymous)),
                pusher: PushSender::start(
                    config.webhook_policy,
                    config.push,
                    webhook_client.clone(),
                ),
                outbox: self.push_outbox.map(|outbox| {
                    start_outbox_worker(outbox, config.webhook_policy, config.push, webhook_client)
                }),
                executions: self.executions,
                running: Mutex::default(),
                streams: Arc::new(Semaphore::new(config.max_streams)),
                shutdown: watch::channel(false).0,
                config,
            }),
        };
        if resumes {
            crate::execution::start_resumer(Arc::downgrade(&server.inner));
        }
        Ok(server)
    }
}

/// Why [`A2aServerBuilder::try_build`] could not build a server.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The webhook client's TLS settings cannot be used ([`ServerConfig::webhook_tls`], feature
    /// `rustls`); the error names the field.
    #[cfg(feature = "rustls")]
    WebhookTls(crate::tls::TlsConfigError),
    /// The webhook client could not be built (reqwest's reason).
    WebhookClient(String),
    /// A card could not be signed (feature `signing`).
    #[cfg(feature = "signing")]
    CardNotSigned {
        /// Which card: `card` (the public one) or `extended card`.
        card: &'static str,
        /// Why, naming the field path at fault.
        error: a2a_types::signing::SignError,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            #[cfg(feature = "rustls")]
            BuildError::WebhookTls(ref error) => write!(f, "ServerConfig.{error}"),
            BuildError::WebhookClient(ref reason) => {
                write!(f, "the webhook client cannot be built: {reason}")
            }
            #[cfg(feature = "signing")]
            BuildError::CardNotSigned { card, ref error } => {
                write!(f, "the {card} cannot be signed: {error}")
            }
        }
    }
}

impl std::error::Error for BuildError {}
