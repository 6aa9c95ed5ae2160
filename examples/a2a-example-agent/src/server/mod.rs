//! The example agent's server side, on the `a2a-server` crate: only its skills ([`skills`]), its
//! logic ([`agent`]) and its cards ([`card`]) are here; the store, the bindings, streams and push
//! delivery are the crate's. Wrapped in [`WithBehaviours`], it also answers the conformance kits'
//! `messageId` behaviours (`tck-complete-task`, …; the table is `a2a_testkit::behaviour::table`).
//!
//! [`start`] serves the agent on two loopback listeners and returns the server's [`Serving`], with
//! the addresses it serves and a [`Serving::shutdown`]. The HTTP listener serves
//!
//! | path | what |
//! |---|---|
//! | `GET /.well-known/agent-card.json` | the public card (A2A v1) |
//! | `POST /jsonrpc` (or `/jsonrpc/`) | JSON-RPC: v1 methods with `A2A-Version: 1.0`, v0.3 methods without the header |
//! | `/rest/...` | HTTP+JSON, every route of the proto with and without `/{tenant}`; v0.3's routes at `/rest/v1/...` without `A2A-Version: 1.x` |
//!
//! and the gRPC listener `lf.a2a.v1.A2AService` and v0.3's `a2a.v1.A2AService`. The card lists all
//! three under `supportedInterfaces` (gRPC with its own `host:port`), for 1.0 and for 0.3.
//!
//! `GetExtendedAgentCard` needs `Authorization: Bearer <token>` with the token of
//! [`Config::extended_card_token`] ([`EXTENDED_CARD_TOKEN`] by default); the card declares it.
//! Every other operation serves anonymous callers too, unless the agent is protected
//! ([`Config::oidc`], [`Config::api_key`], mutual TLS in [`Config::tls`]; see [`security`]): then every operation needs an OpenID
//! Connect bearer token or the API key, the extended card goes to any such caller, and the cards
//! declare those schemes instead; a task is visible only to the caller (and
//! tenant) that created it. Webhooks may be any `https` URL, or `http` on loopback (the example's
//! own conformance run listens there); other internal addresses are refused.
//!
//! Every request body is read under [`Config::limits`] (a decode budget, `a2a_protocol::limits`;
//! `--max-bytes` and `--max-elements` on the command line), checked before anything is parsed; a
//! body over it gets each binding's answer that [`ServerConfig::limits`] describes.

pub mod agent;
pub mod card;
mod config;
pub mod security;
pub mod skills;

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use a2a_server::tls::TlsIdentity;
use a2a_server::{
    A2aServer, Authenticator, BearerTokens, HttpPaths, InMemoryTaskStore, MemoryLimits, Security,
    ServerConfig, Serving,
};
use a2a_testkit::behaviour::{Delays, WithBehaviours};
use a2a_testkit::stores::OpenedStore;
use tokio::net::TcpListener;

use agent::TravelAgent;
pub use config::{
    Config, EXTENDED_CARD_PRINCIPAL, EXTENDED_CARD_TOKEN, OidcSettings, TlsSettings, default_store,
};

/// The server of the example agent on `store`, for an agent serving HTTP on `http` and gRPC on `grpc`
/// (unprotected: see [`build_protected`]).
pub fn build(config: &Config, http: SocketAddr, grpc: SocketAddr, store: OpenedStore) -> A2aServer {
    build_protected(config, http, grpc, store, None)
}

/// The same, every operation behind `security` when given ([`security::authenticator`]).
pub fn build_protected(
    config: &Config,
    http: SocketAddr,
    grpc: SocketAddr,
    store: OpenedStore,
    security: Option<Security>,
) -> A2aServer {
    let delays = Delays {
        resubscribe: config.resubscribe_delay,
        long_running: config.long_running_delay,
    };
    let agent = WithBehaviours::new(TravelAgent, delays);
    let mut server_config = ServerConfig::default();
    server_config.limits = config.limits;
    server_config.required_extensions = config.required_extensions.clone();
    server_config.webhook_policy = config.webhook_policy;
    server_config.caller_limits = config.caller_limits.clone();
    // Short leases, so a task the agent was working on when it was killed is resumed within
    // seconds on PostgreSQL (on SQLite at once: the restarted agent owns the file).
    server_config.executions.lease = Duration::from_secs(6);
    server_config.executions.poll_interval = Duration::from_secs(1);
    let memory = matches!(store, OpenedStore::Memory);
    if !config.per_caller_caps {
        server_config.max_streams_per_owner = server_config.max_streams;
        server_config.max_stream_bytes_per_owner = server_config.max_stream_bytes;
        server_config.max_executions_per_owner = server_config.max_executions;
        server_config.connections.max_connections_per_ip =
            server_config.connections.max_connections;
    }
    let declared = security
        .as_ref()
        .and_then(|security| security.card_security());
    let card = |extended| card::build_declaring(config, http, grpc, extended, declared.as_ref());
    let mut builder = store.install(A2aServer::builder(card(false), agent).config(server_config));
    if memory && !config.per_caller_caps {
        let whole = MemoryLimits::default();
        builder = builder.task_store(InMemoryTaskStore::with_limits(
            whole
                .with_max_tasks_per_owner(whole.max_tasks)
                .with_max_bytes_per_owner(whole.max_bytes),
        ));
    }
    if let Some(security) = security {
        builder = builder.extended_card(card(true)).authenticator(security);
    } else if let Some(token) = &config.extended_card_token {
        builder = builder
            .extended_card(card(true))
            .authenticator(BearerTokens::new().token(token, EXTENDED_CARD_PRINCIPAL));
    }
    builder.build()
}

/// Serves the agent on `http` (card, JSON-RPC, HTTP+JSON) and `grpc`, both loopback listeners.
/// Fails when a listener is not on a loopback address: the example is not meant to face a network.
pub async fn start(config: Config, http: TcpListener, grpc: TcpListener) -> io::Result<Serving> {
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
    let security = security::authenticator(&config)
        .await
        .map_err(io::Error::other)?;
    let tls = config.tls.as_ref().map(tls_identity).transpose()?;
    let mut store = config.store.open().await.map_err(io::Error::other)?;
    if let Some(age) = config.keep_ended {
        store = store.keeping_ended_tasks(age);
    }
    let server = build_protected(&config, http_addr, grpc_addr, store, security);
    match tls {
        Some(identity) => {
            server
                .serve_tls(http, grpc, &HttpPaths::default(), &identity)
                .await
        }
        None => server.serve(http, grpc).await,
    }
}

/// The listeners' TLS identity of `tls`, requiring client certificates when it names their roots.
fn tls_identity(tls: &TlsSettings) -> io::Result<TlsIdentity> {
    let identity = TlsIdentity::from_pem(tls.certificate_chain.clone(), tls.private_key.clone())
        .map_err(io::Error::other)?;
    match &tls.client_roots {
        Some(roots) => identity
            .require_client_certificates(roots)
            .map_err(io::Error::other),
        None => Ok(identity),
    }
}

/// Binds two free ports of 127.0.0.1 and starts the agent on them.
pub async fn start_on_free_ports(config: Config) -> io::Result<Serving> {
    let http = TcpListener::bind("127.0.0.1:0").await?;
    let grpc = TcpListener::bind("127.0.0.1:0").await?;
    start(config, http, grpc).await
}
