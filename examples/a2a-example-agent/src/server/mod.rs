//! The example agent's server side, on the `a2a-server` crate: only its behaviours
//! ([`behaviour`]), its skills ([`skills`]), its logic ([`agent`]) and its cards ([`card`]) are here;
//! the store, the bindings, streams and push delivery are the crate's.
//!
//! [`start`] serves the agent on two loopback listeners and returns an [`AgentHandle`] with the
//! addresses it serves and a [`AgentHandle::shutdown`]. The HTTP listener serves
//!
//! | path | what |
//! |---|---|
//! | `GET /.well-known/agent-card.json` | the public card (A2A v1) |
//! | `POST /jsonrpc` (or `/jsonrpc/`) | JSON-RPC: v1 methods with `A2A-Version: 1.0`, v0.3 methods without the header |
//! | `/rest/...` | HTTP+JSON, every route of the proto with and without `/{tenant}` |
//!
//! and the gRPC listener `lf.a2a.v1.A2AService`. The card lists all three under
//! `supportedInterfaces` (gRPC with its own `host:port`).
//!
//! `GetExtendedAgentCard` needs `Authorization: Bearer <token>` with the token of
//! [`Config::extended_card_token`] ([`EXTENDED_CARD_TOKEN`] by default); the card declares it.
//! Every other operation serves anonymous callers too; a task is visible only to the caller (and
//! tenant) that created it. Webhooks may be any `https` URL, or `http` on loopback (the example's
//! own conformance run listens there); other internal addresses are refused.
//!
//! Every request body is read under [`Config::limits`] (a decode budget, `a2a_protocol::limits`;
//! `--max-bytes` and `--max-elements` on the command line), checked before anything is parsed:
//!
//! | binding | over `max_bytes` | over `max_elements` |
//! |---|---|---|
//! | JSON-RPC | HTTP 200, JSON-RPC `-32600` Invalid Request, "payload too large: …" (as the official Python SDK answers a body over its limit) | the same, naming the JSON path of the first value over it |
//! | HTTP+JSON | HTTP 413 with the binding's error body (`INVALID_ARGUMENT`, code 413) | HTTP 413, the message naming the path |
//! | gRPC | `OUT_OF_RANGE` (tonic's answer to a message over `max_decoding_message_size`) | `OUT_OF_RANGE`, naming the path of the first protobuf field over it (`a2a_proto::grpc::Budgeted`, counting fields, before prost decodes) |

pub mod agent;
pub mod behaviour;
pub mod card;
pub mod skills;

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use a2a_protocol::limits::Limits;
use a2a_server::{A2aServer, BearerTokens, ServerConfig, Serving, WebhookPolicy};
use tokio::net::TcpListener;

use crate::stores::{OpenedStore, StoreChoice};
use agent::ExampleAgent;
use behaviour::Delays;

/// The bearer token the example agent's extended card is behind unless [`Config`] says otherwise:
/// send `Authorization: Bearer example-extended-card-token`.
pub const EXTENDED_CARD_TOKEN: &str = "example-extended-card-token";

/// The principal the extended card's token identifies.
pub const EXTENDED_CARD_PRINCIPAL: &str = "example-client";

/// How the agent behaves; [`Config::default`] is what `a2a-example-agent --listen` serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a `test-resubscribe-message-id` task stays working before it completes.
    pub resubscribe_delay: Duration,
    /// How long a `tck-long-running` task stays working before it completes.
    pub long_running_delay: Duration,
    /// The bearer token of `GetExtendedAgentCard`; `None` configures no extended card, so the
    /// method fails with `ExtendedAgentCardNotConfigured`.
    pub extended_card_token: Option<String>,
    /// Whether the agent takes push-notification configs (declared in the card's capabilities);
    /// without, the four push-config methods fail with `PushNotificationNotSupported`.
    pub push_notifications: bool,
    /// Extensions the card declares as required: a request whose `A2A-Extensions` does not name
    /// each of them fails with `ExtensionSupportRequired`.
    pub required_extensions: Vec<String>,
    /// The decode budget of every request body (see the [module docs](self) for the answers to a
    /// body over it); `Limits::default()` unless told otherwise.
    pub limits: Limits,
    /// Which webhook URLs push configs may name: any `https` URL, `http` on loopback.
    pub webhook_policy: WebhookPolicy,
    /// Where tasks and push configs are kept (`--store`): by default the SQLite file of
    /// [`StoreChoice::default_sqlite`], so tasks survive a restart; tests and embedders that must not
    /// share that file name their own (`StoreChoice::Memory` or a file of their own).
    pub store: StoreChoice,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            resubscribe_delay: Duration::from_secs(3),
            long_running_delay: Duration::from_secs(3),
            extended_card_token: Some(EXTENDED_CARD_TOKEN.to_owned()),
            push_notifications: true,
            required_extensions: Vec::new(),
            limits: Limits::default(),
            webhook_policy: WebhookPolicy::local_development(),
            store: StoreChoice::default_sqlite(),
        }
    }
}

/// A running agent: its addresses, and the way to stop it.
pub struct AgentHandle {
    serving: Serving,
}

impl AgentHandle {
    /// The address of the HTTP listener (card, JSON-RPC, HTTP+JSON).
    pub fn http_addr(&self) -> SocketAddr {
        self.serving.http_addr()
    }

    /// The address of the gRPC listener.
    pub fn grpc_addr(&self) -> SocketAddr {
        self.serving.grpc_addr()
    }

    /// `http://host:port`, where the well-known card is found.
    pub fn base_url(&self) -> String {
        self.serving.base_url()
    }

    /// The server being served (its card, its settings).
    pub fn server(&self) -> &A2aServer {
        self.serving.server()
    }

    /// Stops both servers and waits for them (open streams are ended).
    pub async fn shutdown(self) {
        self.serving.shutdown().await
    }
}

/// The server of the example agent, for an agent serving HTTP on `http` and gRPC on `grpc`, on
/// the in-memory store.
pub fn build(config: &Config, http: SocketAddr, grpc: SocketAddr) -> A2aServer {
    build_on(config, http, grpc, OpenedStore::Memory)
}

/// The same on an opened store.
pub fn build_on(
    config: &Config,
    http: SocketAddr,
    grpc: SocketAddr,
    store: OpenedStore,
) -> A2aServer {
    let agent = ExampleAgent {
        delays: Delays {
            resubscribe: config.resubscribe_delay,
            long_running: config.long_running_delay,
        },
    };
    let mut server_config = ServerConfig::default();
    server_config.limits = config.limits;
    server_config.required_extensions = config.required_extensions.clone();
    server_config.webhook_policy = config.webhook_policy;
    // Short leases, so a task the agent was working on when it was killed is resumed within
    // seconds on PostgreSQL (on SQLite at once: the restarted agent owns the file).
    server_config.executions.lease = Duration::from_secs(6);
    server_config.executions.poll_interval = Duration::from_secs(1);
    let mut builder = store.install(
        A2aServer::builder(card::build(config, http, grpc, false), agent).config(server_config),
    );
    if let Some(token) = &config.extended_card_token {
        builder = builder
            .extended_card(card::build(config, http, grpc, true))
            .authenticator(BearerTokens::new().token(token, EXTENDED_CARD_PRINCIPAL));
    }
    builder.build()
}

/// Serves the agent on `http` (card, JSON-RPC, HTTP+JSON) and `grpc`, both loopback listeners.
/// Fails when a listener is not on a loopback address: the example is not meant to face a network.
pub async fn start(
    config: Config,
    http: TcpListener,
    grpc: TcpListener,
) -> io::Result<AgentHandle> {
    let http_addr = http.local_addr()?;
    let grpc_addr = grpc.local_addr()?;
    for address in [http_addr, grpc_addr] {
        if !address.ip().is_loopback() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{address} is not a loopback address; the example agent serves 127.0.0.1 or ::1 only"
                ),
            ));
        }
    }
    let store = config.store.open().await.map_err(io::Error::other)?;
    let server = build_on(&config, http_addr, grpc_addr, store);
    Ok(AgentHandle {
        serving: server.serve(http, grpc).await?,
    })
}

/// Binds two free ports of 127.0.0.1 and starts the agent on them.
pub async fn start_on_free_ports(config: Config) -> io::Result<AgentHandle> {
    let http = TcpListener::bind("127.0.0.1:0").await?;
    let grpc = TcpListener::bind("127.0.0.1:0").await?;
    start(config, http, grpc).await
}
