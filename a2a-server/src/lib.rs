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
//! | [`EventBus`] | tells streams a task moved on | [`InMemoryEventBus`] |
//! | [`Authenticator`] | headers or gRPC metadata to a [`Caller`]; tasks are visible only to their [`Owner`] | [`Anonymous`]; [`BearerTokens`] |
//! | [`WebhookPolicy`] | which webhook URLs are accepted (an SSRF guard) | public `https` only |
//!
//! Transports: [`A2aServer::router`] (axum: card, JSON-RPC, HTTP+JSON; or each alone),
//! [`A2aServer::grpc_routes`] (tonic), and [`A2aServer::serve`] for all three. Each call runs in a
//! `tracing` span `a2a.call` with the operation, the binding, the task id and the request's W3C
//! `traceparent`; with feature `opentelemetry` that `traceparent` becomes the span's parent, for a
//! `tracing-opentelemetry` layer to export in the caller's trace ([`otel`], with how to wire OTLP).
//! With feature `v0_3`, A2A v0.3 JSON-RPC clients are served on the same endpoint.
//! With feature `signing`, [`A2aServerBuilder::sign_card_with`] serves the cards signed (A2A §8.4).
//! With feature `rustls` (on by default), webhooks are delivered to `https` URLs (trusting the web
//! PKI roots and [`ServerConfig::webhook_tls`]) and [`A2aServer::serve_tls`] serves all three
//! bindings over TLS ([`tls`]).
//!
//! The spec's semantics of each operation are listed in [`handler`]; how streams stay bounded for
//! slow clients in [`streams`]; webhook delivery (retries with backoff, never failing the task) in
//! [`push`].

pub mod auth;
#[cfg(feature = "v0_3")]
mod bridge;
pub mod events;
mod execution;
pub mod executor;
pub mod grpc;
pub mod handler;
pub mod http;
mod ids;
#[cfg(feature = "opentelemetry")]
pub mod otel;
pub mod push;
mod serve;
mod server;
pub mod store;
pub mod streams;
#[cfg(feature = "rustls")]
pub mod tls;
#[cfg(feature = "rustls")]
mod tls_listener;
mod webhook_client;

pub use async_trait::async_trait;
pub use auth::{Anonymous, Authenticator, BearerTokens, Caller, Owner, Unauthenticated};
pub use events::{EventBus, InMemoryEventBus};
pub use executor::{
    AgentEvent, AgentExecutor, EventSink, RequestContext, ServiceParams, SinkClosed,
};
pub use handler::{CallContext, Reply};
pub use http::HttpPaths;
pub use push::{
    InMemoryPushConfigStore, OutboxEntry, PushConfigStore, PushOutbox, PushSettings, WebhookPolicy,
};
pub use serve::Serving;
pub use server::{A2aServer, A2aServerBuilder, BuildError, ServerConfig};
pub use store::{
    ExecutionQueue, ExecutionRecord, ExecutionSettings, InMemoryTaskStore, MemoryLimits, TaskStore,
};
pub use streams::{EventStream, StreamEvent};
