//! The example agent's server side: one in-memory task store behind JSON-RPC (A2A v1 and v0.3 on
//! the same endpoint), HTTP+JSON and gRPC.
//!
//! [`start`] serves the agent on two loopback listeners and returns an [`AgentHandle`] with the
//! addresses it serves and a [`AgentHandle::shutdown`]. The HTTP listener serves
//!
//! | path | what |
//! |---|---|
//! | `GET /.well-known/agent-card.json` | the public card (v1, with the v0.3 fields merged in for old clients) |
//! | `POST /jsonrpc` | JSON-RPC: v1 methods with `A2A-Version: 1.0`, v0.3 methods without the header |
//! | `/rest/...` | HTTP+JSON, every route of the proto with and without `/{tenant}` |
//!
//! and the gRPC listener `lf.a2a.v1.A2AService`. The card lists all three under
//! `supportedInterfaces` (gRPC with its own `host:port`).
//!
//! What the agent does with a message is chosen by the message id's prefix ([`behaviour`]); every
//! other message goes to the travel skills ([`skills`]). `GetExtendedAgentCard` needs
//! `Authorization: Bearer <token>` with the token of [`Config::extended_card_token`]
//! ([`EXTENDED_CARD_TOKEN`] by default).
//!
//! Every request body is read under [`Config::limits`] (a decode budget, `a2a_types::limits`;
//! `--max-bytes` and `--max-elements` on the command line), checked before anything is parsed:
//!
//! | binding | over `max_bytes` | over `max_elements` |
//! |---|---|---|
//! | JSON-RPC | HTTP 200, JSON-RPC `-32600` Invalid Request, "payload too large: …" (as the official Python SDK answers a body over its limit) | the same, naming the JSON path of the first value over it |
//! | HTTP+JSON | HTTP 413 with the binding's error body (`INVALID_ARGUMENT`, code 413) | HTTP 413, the message naming the path |
//! | gRPC | `OUT_OF_RANGE` (tonic's answer to a message over `max_decoding_message_size`) | `OUT_OF_RANGE`, naming the path of the first protobuf field over it (`a2a_proto::grpc::Budgeted`, counting fields, before prost decodes) |

pub mod behaviour;
pub mod card;
mod grpc;
mod jsonrpc;
mod push;
mod rest;
mod service;
pub mod skills;
mod store;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::limits::Limits;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use service::Agent;

/// The bearer token the example agent's extended card is behind unless [`Config`] says otherwise:
/// send `Authorization: Bearer example-extended-card-token`.
pub const EXTENDED_CARD_TOKEN: &str = "example-extended-card-token";

/// How the agent behaves; [`Config::default`] is what `a2a-example-agent --listen` serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a `test-resubscribe-message-id` task stays working before it completes.
    pub resubscribe_delay: Duration,
    /// The bearer token of `GetExtendedAgentCard`; `None` declares no extended card, so the method
    /// fails with `ExtendedAgentCardNotConfigured`.
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            resubscribe_delay: Duration::from_secs(3),
            extended_card_token: Some(EXTENDED_CARD_TOKEN.to_owned()),
            push_notifications: true,
            required_extensions: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// A running agent: its addresses, and the way to stop it.
pub struct AgentHandle {
    http: SocketAddr,
    grpc: SocketAddr,
    agent: Arc<Agent>,
    stop: watch::Sender<bool>,
    servers: Vec<JoinHandle<()>>,
}

impl AgentHandle {
    /// The address of the HTTP listener (card, JSON-RPC, HTTP+JSON).
    pub fn http_addr(&self) -> SocketAddr {
        self.http
    }

    /// The address of the gRPC listener.
    pub fn grpc_addr(&self) -> SocketAddr {
        self.grpc
    }

    /// `http://host:port`, where the well-known card is found.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.http)
    }

    /// The agent being served (its card, its store), for tests and the demo.
    pub fn agent(&self) -> &Arc<Agent> {
        &self.agent
    }

    /// Stops both servers and waits for them (open streams are ended).
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        self.agent.close_streams();
        for server in self.servers.drain(..) {
            let _ = server.await;
        }
    }
}

impl Drop for AgentHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        for server in &self.servers {
            server.abort();
        }
    }
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
    let limits = config.limits;
    let agent = Agent::new(config, http_addr, grpc_addr);
    let (stop, stopped) = watch::channel(false);
    let http_server = {
        let router = jsonrpc::routes()
            .merge(rest::routes())
            .merge(card::routes())
            // Bodies are read whole up to the budget's size; the handlers answer a larger one.
            .layer(DefaultBodyLimit::max(limits.max_bytes()))
            .with_state(agent.clone());
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            };
            if let Err(error) = axum::serve(http, router)
                .with_graceful_shutdown(shutdown)
                .await
            {
                eprintln!("a2a-example-agent: the HTTP server stopped: {error}");
            }
        })
    };
    let grpc_server = {
        let mut stopped = stopped.clone();
        let routes = grpc::routes(agent.clone());
        tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            };
            // tonic sets TCP_NODELAY only on sockets it accepts itself; without it, Nagle's
            // algorithm holds back the small HTTP/2 frames of a unary answer (about 40 ms each).
            let incoming = tokio_stream::StreamExt::map(
                tokio_stream::wrappers::TcpListenerStream::new(grpc),
                |accepted| {
                    if let Ok(stream) = &accepted {
                        let _ = stream.set_nodelay(true);
                    }
                    accepted
                },
            );
            if let Err(error) = tonic::transport::Server::builder()
                .add_routes(routes)
                .serve_with_incoming_shutdown(incoming, shutdown)
                .await
            {
                eprintln!("a2a-example-agent: the gRPC server stopped: {error}");
            }
        })
    };
    Ok(AgentHandle {
        http: http_addr,
        grpc: grpc_addr,
        agent,
        stop,
        servers: vec![http_server, grpc_server],
    })
}

/// Binds two free ports of 127.0.0.1 and starts the agent on them.
pub async fn start_on_free_ports(config: Config) -> io::Result<AgentHandle> {
    let http = TcpListener::bind("127.0.0.1:0").await?;
    let grpc = TcpListener::bind("127.0.0.1:0").await?;
    start(config, http, grpc).await
}
