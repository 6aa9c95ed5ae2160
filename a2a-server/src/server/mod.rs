//! The server object: [`A2aServer`] holds the agent, its cards, its stores and its settings (the
//! state of [`crate::core`]), and every public way in: typed calls ([`A2aServer::call`]), the axum
//! routers and the tonic service of the bindings ([`crate::bindings`]), and [`A2aServer::serve`]
//! on listeners of your own ([`Serving`]). Build one with [`A2aServer::builder`] (inside a tokio
//! runtime: it starts the webhook worker).

pub(crate) mod builder;
pub(crate) mod error;
pub(crate) mod webhook_client;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::MethodParams;
use a2a_protocol::operations::Operation;
use a2a_types::v1::AgentCard;
use axum::Router;
use axum::http::HeaderMap;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tonic::service::Routes;

use crate::auth::{AccessDenied, Caller, Unauthenticated};
use crate::bindings::paths::HttpPaths;
use crate::bindings::{card, grpc, jsonrpc, rest};
use crate::config::ServerConfig;
use crate::core::context::{CallContext, Reply};
use crate::core::state::ServerState;
use crate::executor::AgentExecutor;
use crate::limits::layer::CallerLimiter;
use crate::limits::refusal::Binding;
use crate::listen::serve::{Listening, start};
use builder::A2aServerBuilder;
use error::BuildError;

/// An A2A server: cheap to clone (all clones share one state).
#[derive(Clone)]
pub struct A2aServer {
    state: Arc<ServerState>,
    /// The per-caller limits' state, shared by every router (`None`: no limit set).
    limits: Option<Arc<CallerLimiter>>,
}

impl std::fmt::Debug for A2aServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("A2aServer")
            .field("card", &self.state.card.name)
            .field("config", &self.state.config)
            .finish_non_exhaustive()
    }
}

impl A2aServer {
    /// Starts a server for the agent `executor` described by `card` (its public card, served at
    /// the well-known path; its capabilities decide which operations are served).
    pub fn builder(card: AgentCard, executor: impl AgentExecutor) -> A2aServerBuilder {
        A2aServerBuilder::new(card, Arc::new(executor))
    }

    /// The public card.
    pub fn card(&self) -> &AgentCard {
        &self.state.card
    }

    /// The settings.
    pub fn config(&self) -> &ServerConfig {
        &self.state.config
    }

    /// Ends every open stream (the server is shutting down); new streams end at once.
    pub fn close_streams(&self) {
        self.state.shutdown.send_replace(true);
    }

    /// How many streams are open.
    pub fn open_streams(&self) -> usize {
        self.state.streams.open()
    }

    /// Runs the authentication hook on a request's headers (gRPC metadata as headers).
    pub async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        crate::core::call::authenticate(&self.state, headers, None, &Default::default()).await
    }

    /// Whether `caller` may call `operation` at all: the extended card needs an authenticated
    /// caller when there is one to give, and each operation its
    /// [`ScopeRequirements`](crate::ScopeRequirements).
    pub fn check_access(&self, operation: Operation, caller: &Caller) -> Result<(), AccessDenied> {
        crate::core::call::check_access(&self.state, operation, caller)
    }

    /// [`check_access`](Self::check_access) for the request's operation, and for a message the
    /// security requirements of the card's skill it is for (the one its metadata names under
    /// [`SKILL_ID_METADATA`](crate::auth::SKILL_ID_METADATA), or the agent's only skill): what each
    /// binding checks before [`call`](Self::call).
    pub fn check_request(
        &self,
        params: &MethodParams,
        caller: &Caller,
    ) -> Result<(), AccessDenied> {
        crate::core::call::check_request(&self.state, params, caller)
    }

    /// Answers one request for `context.caller`, with the specification's semantics whatever the
    /// binding: checked against the card's capabilities, the required extensions and the spec's
    /// REQUIRED fields, answered for the caller's [`Owner`](crate::Owner) only.
    ///
    /// | operation | semantics |
    /// |---|---|
    /// | SendMessage / SendStreamingMessage | a new task, or a message continuing one that waits for input; terminal tasks and tasks still working refuse messages (`UnsupportedOperation`), a `contextId` other than the task's is `InvalidParams`; `returnImmediately`, `historyLength` |
    /// | GetTask | `historyLength` (the most recent messages) |
    /// | ListTasks | filters, pages of `pageSize` (1 to the configured maximum), opaque `nextPageToken`, `""` on the last page; `historyLength`; artifacts only with `includeArtifacts` |
    /// | CancelTask | the running executor is told to stop and the task is canceled; a task that is over is `TaskNotCancelable` |
    /// | SubscribeToTask | the task first, then its events until it ends or waits for input; a task that is over is `UnsupportedOperation` (unless resuming after a `Last-Event-ID`) |
    /// | push configs | the task must be the caller's; URLs checked by the [`WebhookPolicy`](crate::WebhookPolicy) |
    /// | GetExtendedAgentCard | the extended card, to authenticated callers (the bindings answer 401 / `UNAUTHENTICATED` before) |
    pub async fn call(&self, params: MethodParams, context: &CallContext) -> Result<Reply, Error> {
        crate::core::call::call(&self.state, params, context).await
    }

    /// `router` behind the [`limits`](crate::limits) of the config (unchanged when it sets none).
    fn limited(&self, router: Router, binding: Binding) -> Router {
        match &self.limits {
            Some(limiter) => limiter.layer(router, binding),
            None => router,
        }
    }

    /// The card, JSON-RPC and HTTP+JSON, at `paths`.
    pub fn router(&self, paths: &HttpPaths) -> Router {
        self.card_router()
            .merge(self.jsonrpc_router(&paths.jsonrpc))
            .merge(self.rest_router(&paths.rest))
    }

    /// JSON-RPC at `path` and `path/` (A2A v1 with `A2A-Version: 1.0`; v0.3 with feature `v0_3`),
    /// streams as server-sent events.
    pub fn jsonrpc_router(&self, path: &str) -> Router {
        self.limited(jsonrpc::router(&self.state, path), Binding::JsonRpc)
    }

    /// HTTP+JSON under `prefix`: every route of the proto, with and without `/{tenant}`, GET and
    /// POST for `:subscribe`; with feature `v0_3`, v0.3's routes too (a path starting with `/v1/`
    /// is v0.3 unless `A2A-Version` asks for 1.x, then it is v1 for tenant `v1`).
    pub fn rest_router(&self, prefix: &str) -> Router {
        self.limited(rest::router(&self.state, prefix), Binding::Rest)
    }

    /// The public card at the well-known path (`/.well-known/agent-card.json`, clean A2A v1 JSON).
    pub fn card_router(&self) -> Router {
        self.limited(card::router(&self.state), Binding::Rest)
    }

    /// The gRPC service (with feature `v0_3`, v0.3's `a2a.v1.A2AService` beside it), to add to a
    /// tonic server (`Server::builder().add_routes(...)`), under the
    /// server's decode budget: tonic refuses a message over the size before buffering it, and the
    /// stubs' codec counts its fields before prost decodes it (both `OUT_OF_RANGE`).
    pub fn grpc_routes(&self) -> Routes {
        match &self.limits {
            Some(limiter) => Routes::from(limiter.layer(
                grpc::routes(&self.state).prepare().into_axum_router(),
                Binding::Grpc,
            )),
            None => grpc::routes(&self.state),
        }
    }

    /// Serves the card, JSON-RPC (`/jsonrpc`) and HTTP+JSON (`/rest`) on `http`, and gRPC on
    /// `grpc`; see [`A2aServer::serve_at`] for other paths.
    pub async fn serve(&self, http: TcpListener, grpc: TcpListener) -> io::Result<Serving> {
        self.serve_at(http, grpc, &HttpPaths::default()).await
    }

    /// Serves the card, JSON-RPC and HTTP+JSON at `paths` on `http`, and gRPC on `grpc`.
    pub async fn serve_at(
        &self,
        http: TcpListener,
        grpc: TcpListener,
        paths: &HttpPaths,
    ) -> io::Result<Serving> {
        // TCP_NODELAY on every accepted connection, as the TLS listener sets it: without it, Nagle's
        // algorithm holds a stream's next small event (or a unary gRPC answer's small HTTP/2 frames)
        // until the client acknowledges the last one, which a client delaying its ACKs does after
        // about 40 ms.
        let nodelay = |tcp: &mut tokio::net::TcpStream| {
            let _ = tcp.set_nodelay(true);
        };
        let listening = start(
            http.tap_io(nodelay),
            grpc.tap_io(nodelay),
            self.router(paths),
            self.grpc_router(),
            &self.state.config.connections,
        )?;
        Ok(self.serving(listening, "http"))
    }

    /// Serves like [`serve_at`](Self::serve_at), over TLS with `identity` on both listeners
    /// (feature `rustls`): HTTPS (HTTP/1.1 and HTTP/2) and gRPC over TLS. The card's interface URLs
    /// should then be `https://` ones.
    ///
    /// # Errors
    ///
    /// When a listener's address cannot be read, or tonic refuses the identity.
    #[cfg(feature = "rustls")]
    pub async fn serve_tls(
        &self,
        http: TcpListener,
        grpc: TcpListener,
        paths: &HttpPaths,
        identity: &crate::listen::tls::TlsIdentity,
    ) -> io::Result<Serving> {
        let http = crate::listen::tls_listener::TlsListener::new(http, identity)?;
        let grpc = crate::listen::tls_listener::TlsListener::new(grpc, identity)?;
        let listening = start(
            http,
            grpc,
            self.router(paths),
            self.grpc_router(),
            &self.state.config.connections,
        )?;
        Ok(self.serving(listening, "https"))
    }

    /// The gRPC service as a router of its own, served by the same connection handling as HTTP.
    fn grpc_router(&self) -> Router {
        self.grpc_routes().prepare().into_axum_router()
    }

    fn serving(&self, listening: Listening, scheme: &'static str) -> Serving {
        Serving {
            listening,
            scheme,
            server: self.clone(),
        }
    }
}

impl A2aServerBuilder {
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
        let state = self.into_state()?;
        Ok(A2aServer {
            limits: CallerLimiter::new(&state),
            state,
        })
    }
}

/// A running server (from [`A2aServer::serve`]): its addresses, and the way to stop it. Dropping
/// it stops both listeners.
#[derive(Debug)]
pub struct Serving {
    listening: Listening,
    /// `http` or `https`.
    scheme: &'static str,
    server: A2aServer,
}

impl Serving {
    /// The HTTP listener's address.
    pub fn http_addr(&self) -> SocketAddr {
        self.listening.http
    }

    /// The gRPC listener's address.
    pub fn grpc_addr(&self) -> SocketAddr {
        self.listening.grpc
    }

    /// `http://host:port` (`https://` when served with TLS), where the well-known card is.
    pub fn base_url(&self) -> String {
        format!("{}://{}", self.scheme, self.listening.http)
    }

    /// The server being served.
    pub fn server(&self) -> &A2aServer {
        &self.server
    }

    /// Serves until either listener fails (or forever).
    pub async fn wait(self) {
        self.listening.wait().await;
    }

    /// Stops both listeners, ends open streams, and waits for both servers.
    pub async fn shutdown(self) {
        self.listening.stop();
        self.server.close_streams();
        self.listening.join().await;
    }
}
