//! A client for Agent2Agent (A2A) agents: resolve an agent's card, pick an interface, and call every
//! operation with the types of [`a2a_types::v1`], whichever binding (JSON-RPC, HTTP+JSON, gRPC) and
//! protocol version (A2A v1, or v0.3, v0.2 and v0.1 through the bridge) the agent speaks.
//!
//! [`A2aClient::connect`] fetches the card from the well-known path ([`CardResolver`]) and keeps
//! every interface it can use, best first by [`ClientConfig::versions`] then
//! [`ClientConfig::preference`], moving on to the next when one cannot be reached. Each operation
//! is one method; a streaming one returns an [`EventStream`] that resumes after a dropped
//! connection ([`resume`]); every failure is a [`ClientError`], the same A2A error kind whichever
//! binding carried it. [`ClientConfig`] holds the rest: timeouts, retries of idempotent calls
//! ([`RetryPolicy`]), credentials placed as the card's security schemes say ([`auth`]), trusted
//! certificates ([`tls`], feature `rustls`), trust roots for signed cards (feature `signing`) and
//! the decode budget every answer is read under, and an [`observe::Observer`] that sees each
//! request and answer as it crosses the wire.
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
//! ([`ClientConfig::only_version`]), is called with the same methods on each binding: each request
//! is downgraded with [`a2a_compat::bridge`], each result, event and error upgraded. A request that
//! would lose a field on the way fails with [`ClientError::NotConvertible`] naming it, and
//! `ListTasks`, which v0.3 lacks, likewise.

pub mod auth;
mod binding;
pub mod card;
mod client;
mod config;
mod error;
pub mod http;
pub mod observe;
#[cfg(feature = "opentelemetry")]
mod otel;
mod paging;
pub mod resume;
mod stream;
#[cfg(feature = "rustls")]
pub mod tls;
pub mod trace;
mod transport;
#[cfg(feature = "signing")]
mod trust;

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
