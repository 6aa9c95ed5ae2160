//! An Agent2Agent (A2A) server: an agent's logic behind one trait, served over JSON-RPC, HTTP+JSON
//! and gRPC with the specification's semantics, from this workspace's protocol types.
//!
//! ```no_run
//! use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
//! use a2a_protocol::errors::Error;
//! use a2a_types::v1::AgentCard;
//!
//! struct Echo;
//!
//! #[async_trait]
//! impl AgentExecutor for Echo {
//!     async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
//!         events.complete_with_text(format!("You said: {}", context.message.text())).await?;
//!         Ok(())
//!     }
//! }
//!
//! # async fn run() -> std::io::Result<()> {
//! let http = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let grpc = tokio::net::TcpListener::bind("127.0.0.1:8081").await?;
//! let card = AgentCard::builder("Echo", "Says it back.", "1.0.0")
//!     .jsonrpc("http://127.0.0.1:8080/jsonrpc")
//!     .http_json("http://127.0.0.1:8080/rest")
//!     .grpc("127.0.0.1:8081")
//!     .default_input_modes(["text/plain"])
//!     .default_output_modes(["text/plain"])
//!     .build()
//!     .expect("a valid card");
//! let serving = A2aServer::builder(card, Echo).build().serve(http, grpc).await?;
//! serving.wait().await;
//! # Ok(()) }
//! ```
//!
//! | piece | what | default |
//! |---|---|---|
//! | [`AgentExecutor`] | the agent: a [`RequestContext`] in, events out through an [`EventSink`] (bounded), with one-line helpers (`complete_with_text`, `ask_for_input`, `fail`, `stream_artifact`, `reply`) | yours |
//! | [`TaskStore`] | tasks with a version each (optimistic concurrency) and an event log (resumable streams) | [`InMemoryTaskStore`], bounded with eviction |
//! | [`PushConfigStore`] | push-notification configs | [`InMemoryPushConfigStore`] |
//! | [`ExecutionQueue`] | executions recorded with leases, resumed after a crash (at least once) | none: executions end with their process |
//! | [`PushOutbox`] | webhook deliveries written with each event, made after a crash too | none: deliveries queue in memory |
//! | [`VersionBus`] | tells streams a task moved on, and hands the streams beside the writer the events it wrote | [`InMemoryVersionBus`] |
//! | [`Authenticator`] | headers or gRPC metadata to a [`Caller`]; tasks are visible only to their [`Owner`]; [`Security`] composes schemes and writes the card's `securitySchemes` | [`Anonymous`]; [`BearerTokens`], [`ApiKeys`], `auth::JwtBearer` (OpenID Connect, feature `oidc`) |
//! | [`WebhookPolicy`] | which webhook URLs are accepted (an SSRF guard) | public `https` only |
//! | [`limits::CallerLimits`] | requests per second and streams open, per caller and per tenant: a tower layer on every router, refusing with HTTP 429 and `Retry-After`, gRPC `RESOURCE_EXHAUSTED` with `RetryInfo` | none |
//!
//! Transports: [`A2aServer::router`] (axum: card, JSON-RPC, HTTP+JSON; or each alone),
//! [`A2aServer::grpc_routes`] (tonic), and [`A2aServer::serve`] for all three. Each call runs in a
//! `tracing` span `a2a.call` with the operation, the binding, the task id and the request's W3C
//! `traceparent`; with feature `opentelemetry` that `traceparent` becomes the span's parent, for a
//! `tracing-opentelemetry` layer to export in the caller's trace ([`otel`], with how to wire OTLP).
//! With feature `v0_3`, A2A v0.3 clients are served on every binding: JSON-RPC on the same endpoint,
//! HTTP+JSON under the same prefix (a path starting with `/v1/` is v0.3 unless `A2A-Version` asks for
//! 1.x), and gRPC's `a2a.v1.A2AService` beside v1's service in [`A2aServer::grpc_routes`].
//! With feature `signing`, [`A2aServerBuilder::sign_card_with`] serves the cards signed (A2A §8.4).
//! With feature `rustls` (on by default), webhooks are delivered to `https` URLs (trusting the web
//! PKI roots and [`ServerConfig::webhook_tls`]) and [`A2aServer::serve_tls`] serves all three
//! bindings over TLS ([`tls`]).
//!
//! The spec's semantics of each operation are listed at [`A2aServer::call`]; how streams stay
//! bounded for slow clients at [`EventStream`]; webhook delivery (retries with backoff, never
//! failing the task) in [`push`].

// The rooms: the server object and its builder, the operations over the state it shares, the
// bindings that translate wire forms, the listeners, and the stores, push and the version bus.
pub mod auth;
mod bindings;
mod config;
mod core;
mod errors;
pub mod executor;
mod ids;
pub mod limits;
mod listen;
#[cfg(feature = "opentelemetry")]
pub mod otel;
pub mod push;
mod server;
pub mod store;
pub mod versions;

pub use async_trait::async_trait;
pub use auth::{
    AccessDenied, Anonymous, ApiKeys, AuthRequest, Authenticator, BearerTokens, Caller,
    CardSecurity, CredentialScheme, Forbidden, Owner, PeerCertificate, ScopeRequirements, Security,
    Unauthenticated,
};
#[cfg(feature = "rustls")]
pub use auth::{CertificateName, ClientCertificates};
pub use bindings::paths::HttpPaths;
pub use config::ServerConfig;
pub use core::context::{CallContext, Reply};
pub use core::streams::{EventStream, StreamEvent};
pub use executor::{
    AgentEvent, AgentExecutor, EventSink, RequestContext, ServiceParams, SinkClosed,
};
pub use listen::settings::ConnectionSettings;
pub use push::{
    InMemoryPushConfigStore, OutboxEntry, PushConfigStore, PushOutbox, PushSettings, WebhookPolicy,
};
pub use server::builder::A2aServerBuilder;
pub use server::error::BuildError;
pub use server::{A2aServer, Serving};
pub use store::{
    ExecutionQueue, ExecutionRecord, ExecutionSettings, InMemoryTaskStore, MemoryLimits,
    StoreIdentity, TaskStore,
};
pub use versions::{InMemoryVersionBus, VersionBus};

/// TLS (feature `rustls`): whom webhook deliveries trust ([`WebhookTls`](tls::WebhookTls)), the
/// certificate the server presents from [`A2aServer::serve_tls`]
/// ([`TlsIdentity`](tls::TlsIdentity)), and the HTTPS listener it serves with
/// ([`TlsListener`](tls::TlsListener)), also for serving [`A2aServer::router`] over TLS in an
/// application of your own.
///
/// One crypto provider throughout: the one the program installed as the process default, else
/// aws-lc-rs (the rule tonic and reqwest follow too), so the webhook client, the HTTPS listener
/// and the gRPC listener negotiate with the same algorithms.
#[cfg(feature = "rustls")]
pub mod tls {
    pub use crate::listen::tls::{TlsConfigError, TlsIdentity, WebhookTls};
    pub use crate::listen::tls_listener::TlsListener;
}

/// The former names of [`VersionBus`] and [`InMemoryVersionBus`], kept for one release: the bus
/// carries task versions (events only to the streams of the process that wrote them).
#[doc(hidden)]
pub use versions::{InMemoryVersionBus as InMemoryEventBus, VersionBus as EventBus};

/// The former place of [`versions`], kept for one release.
#[doc(hidden)]
pub mod events {
    pub use crate::versions::{
        InMemoryVersionBus as InMemoryEventBus, VersionBus as EventBus, VersionWatch,
    };
}

/// The former place of [`CallContext`], [`Reply`] and the errors the operations answer with, kept
/// for one release.
#[doc(hidden)]
pub mod handler {
    pub use crate::core::context::{CallContext, Reply};
    pub use crate::errors::{invalid, not_found};
}

/// The former place of [`HttpPaths`], kept for one release.
#[doc(hidden)]
pub mod http {
    pub use crate::bindings::paths::HttpPaths;
}

/// The former place of the gRPC binding, kept for one release: [`A2aServer::grpc_routes`] is the
/// service.
#[doc(hidden)]
pub mod grpc {}

/// The former place of [`EventStream`] and [`StreamEvent`], kept for one release.
#[doc(hidden)]
pub mod streams {
    pub use crate::core::streams::{EventStream, StreamEvent};
}
