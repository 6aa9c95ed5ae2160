//! The bindings: each translates its wire form to the operations of [`crate::core`] and back,
//! and nothing more.
//!
//! | binding | serves |
//! |---|---|
//! | [`jsonrpc`] | JSON-RPC at one path, with or without a trailing slash (A2A v1 with `A2A-Version: 1.0`; v0.3 with feature `v0_3`) |
//! | [`rest`] | HTTP+JSON under a prefix: every route of the proto, with and without `/{tenant}`, GET and POST for `:subscribe` |
//! | [`card`] | the public card at `/.well-known/agent-card.json` (clean A2A v1 JSON) |
//! | [`grpc`] | `lf.a2a.v1.A2AService` (tonic) |
//! | `rest_v0_3` | A2A v0.3 HTTP+JSON under the same prefix (`/v1/...` paths without `A2A-Version: 1.x`; feature `v0_3`) |
//! | `grpc_v0_3` | A2A v0.3's `a2a.v1.A2AService` beside v1's service (feature `v0_3`) |
//!
//! The two v0.3 bindings share the translation of v0.3's protobuf messages (`v0_3_proto`).
//!
//! HTTP streams are server-sent events whose `id:` is the event's place in the task's log; a
//! client that reconnects to SubscribeToTask with `Last-Event-ID` gets the events after it. Every
//! body is read under the server's decode budget
//! ([`ServerConfig::limits`](crate::ServerConfig::limits)). What the two HTTP bindings share is in
//! [`http_common`] (requests) and [`body`] (answers).

pub(crate) mod body;
pub(crate) mod card;
pub(crate) mod grpc;
#[cfg(feature = "v0_3")]
pub(crate) mod grpc_v0_3;
pub(crate) mod http_common;
pub(crate) mod jsonrpc;
pub(crate) mod paths;
pub(crate) mod rest;
#[cfg(feature = "v0_3")]
pub(crate) mod rest_v0_3;
#[cfg(feature = "v0_3")]
pub(crate) mod v0_3_proto;
