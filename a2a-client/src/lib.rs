//! A client for Agent2Agent (A2A) agents: resolve an agent's card, pick an interface, and call every
//! operation with the types of [`a2a_types::v1`], whichever binding and protocol version the agent
//! speaks.
//!
//! - **Resolve and choose**: [`A2aClient::connect`] fetches the card from the well-known path
//!   ([`CardResolver`], honouring `Cache-Control` and `ETag`), reads it whether the agent wrote it as
//!   A2A v1 or v0.3, and keeps every interface it can use, best first by
//!   [`ClientConfig::versions`] then [`ClientConfig::preference`]. A call moves on to the next
//!   interface when one cannot be reached.
//! - **Every operation** on JSON-RPC, HTTP+JSON and gRPC: one method per operation, streams as an
//!   [`EventStream`] that resumes after a dropped connection, or ends with
//!   [`ClientError::NotResumable`] naming the task when it cannot, an agent restarted mid-task
//!   included ([`resume`]), `ListTasks` page by page
//!   ([`TaskPages`]).
//! - **A2A v0.3 agents** on all three bindings through the bridge ([`v0_3`](crate#a2a-v03)): the
//!   same calls, converted both ways, and what cannot survive refused by name.
//! - **One error**: [`ClientError`], the same A2A error kind whichever binding carried it.
//! - **Production habits**: per-call and per-stream timeouts; retries with backoff for idempotent
//!   calls only ([`RetryPolicy`]); credentials placed as the card's security schemes say ([`auth`]);
//!   `A2A-Version`, `A2A-Extensions` and W3C `traceparent` ([`trace`]) on every request; a `tracing`
//!   span per call (`a2a.call`, `a2a.stream`, with the operation, binding, URL and trace id; with
//!   feature `opentelemetry` and a `tracing-opentelemetry` layer, the `traceparent` names that span,
//!   so the agent's spans join the caller's trace); every
//!   answer read under the decode budget ([`ClientConfig::limits`]), error bodies only up to
//!   [`MAX_ERROR_BODY`](http::MAX_ERROR_BODY).
//!
//! | binding | request | answer | stream |
//! |---|---|---|---|
//! | JSON-RPC | [`JsonRpcRequest`](a2a_protocol::jsonrpc::JsonRpcRequest) over `POST` (reqwest) | [`JsonRpcResponse::parse`](a2a_protocol::jsonrpc::JsonRpcResponse::parse), errors by [`Error::from_jsonrpc`](a2a_protocol::errors::Error::from_jsonrpc) | SSE, [`JsonDecoder`](a2a_protocol::sse::JsonDecoder) of JSON-RPC responses |
//! | HTTP+JSON | [`rest::build_request`](a2a_protocol::rest::build_request) | [`MethodResult::from_json`](a2a_protocol::operations::MethodResult::from_json), errors by [`Error::from_rest`](a2a_protocol::errors::Error::from_rest) | SSE, [`HttpJsonDecoder`](a2a_protocol::sse::HttpJsonDecoder) |
//! | gRPC | a2a-proto's tonic client stubs, messages converted by the `proto` feature | the same conversions back | tonic server streams |
//! | JSON-RPC, A2A v0.3 | [`bridge::downgrade_request`](a2a_compat::bridge::downgrade_request) | [`bridge::upgrade_response`](a2a_compat::bridge::upgrade_response) | SSE of v0.3 responses, each upgraded |
//! | HTTP+JSON, A2A v0.3 | the downgraded request as its `a2a.v1` protobuf message ([`a2a_compat::v0_3::proto`]), ProtoJSON at the path of its `google.api.http` option | the response message, converted to v0.3 then upgraded | SSE of ProtoJSON `StreamResponse`s, each upgraded |
//! | gRPC, A2A v0.3 | the same messages on a2a-proto's `a2a.v1.A2AService` stub | the same conversions back | tonic server streams, each event upgraded |
//!
//! ```no_run
//! # async fn run() -> Result<(), a2a_client::ClientError> {
//! use a2a_client::{A2aClient, ClientConfig};
//! use a2a_types::v1::{Message, Part, SendMessageRequest, SendMessageResponse};
//!
//! let client = A2aClient::connect("http://127.0.0.1:8080", ClientConfig::default()).await?;
//! let request = SendMessageRequest {
//!     message: Message::user("m-1", [Part::text("Book a table for two")]),
//!     ..Default::default()
//! };
//! if let SendMessageResponse::Task(task) = client.send_message(request).await? {
//!     println!("task {} is {:?} (over {})", task.id, task.status.state, client.binding());
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # A2A v0.3
//!
//! An agent whose card is a v0.3 card, or whose v0.3 interface is preferred
//! ([`ClientConfig::only_version`]), is called with the same methods on JSON-RPC, HTTP+JSON or gRPC:
//! each request is downgraded with [`a2a_compat::bridge`], each result, event and error upgraded. A
//! request that would lose a field on the way (a `tenant`, a part's `mediaType`, paging, and on
//! HTTP+JSON and gRPC what the protobuf request has no field for, such as `metadata` of
//! `CancelTask`) fails with [`ClientError::NotConvertible`] naming it, and `ListTasks`, which v0.3
//! lacks, likewise. The interfaces of a v0.3 card are tried in the agent's order, its
//! `preferredTransport` first (see [`card::candidates`]). v0.3 defines no error body for HTTP+JSON
//! or gRPC: errors are read as the official SDK 0.3 sends them (an HTTP status with
//! `{"message"}`, a gRPC status message starting with the error's name).
//!
//! # TLS
//!
//! With feature `rustls` (on by default), `https://` agents work on every binding, gRPC's
//! `https://` and `grpcs://` interfaces included: the agent's certificate is checked against the web
//! PKI roots ([`ClientConfig::web_pki_roots`]) and any extra roots
//! ([`ClientConfig::root_certificates`], a private CA's), with one rustls configuration for reqwest
//! and tonic ([`tls`]). A refused certificate is [`ClientError::Tls`]. Without the feature the client
//! speaks plain `http` only, unless handed a TLS-enabled `reqwest::Client` in
//! [`ClientConfig::http_client`].

pub mod auth;
mod binding;
pub mod card;
mod client;
mod config;
mod error;
mod grpc;
pub mod http;
#[cfg(feature = "opentelemetry")]
mod otel;
mod paging;
pub mod resume;
mod stream;
#[cfg(feature = "rustls")]
pub mod tls;
pub mod trace;
#[cfg(feature = "signing")]
mod trust;
mod v0_3;

pub use binding::Binding;
pub use card::{CardResolver, ResolvedCard, choose_interface, resolve_card};
pub use client::{A2aClient, is_idempotent};
pub use config::{ClientConfig, RetryPolicy};
pub use error::ClientError;
pub use paging::TaskPages;
pub use stream::EventStream;

/// The A2A protocol version this client speaks natively (v0.3 agents through the bridge).
pub const PROTOCOL_VERSION: a2a_protocol::service::ProtocolVersion =
    a2a_protocol::service::ProtocolVersion::V1_0;

#[cfg(test)]
mod tests;
