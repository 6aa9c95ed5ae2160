//! The bindings: each translates its wire form to the operations of [`crate::core`] and back,
//! and nothing more.
//!
//! | binding | serves |
//! |---|---|
//! | [`jsonrpc`] | JSON-RPC at one path, with or without a trailing slash (A2A v1 with `A2A-Version: 1.0`; v0.3 with feature `v0_3`) |
//! | [`rest`] | HTTP+JSON under a prefix: every route of the proto, with and without `/{tenant}`, GET and POST for `:subscribe` |
//! | [`card`] | the public card at `/.well-known/agent-card.json` (clean A2A v1 JSON) |
//! | [`grpc`] | `lf.a2a.v1.A2AService` (tonic) |
//!
//! HTTP streams are server-sent events whose `id:` is the event's place in the task's log; a
//! client that reconnects to SubscribeToTask with `Last-Event-ID` gets the events after it. Every
//! body is read under the server's decode budget
//! ([`ServerConfig::limits`](crate::ServerConfig::limits)). What the two HTTP bindings share is in
//! [`http_common`] (requests) and [`body`] (answers).

pub(crate) mod body;
pub(crate) mod card;
pub(crate) mod grpc;
pub(crate) mod http_common;
pub(crate) mod jsonrpc;
pub(crate) mod paths;
pub(crate) mod rest;
