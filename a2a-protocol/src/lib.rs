//! The Agent2Agent (A2A) protocol v1 without I/O: what a server or a client does with bytes it has
//! read or is about to write, for every binding, over the model of [`a2a_types`].
//!
//! - [`operations`]: every RPC of the service (JSON-RPC method, gRPC path, HTTP bindings, streaming,
//!   the capability it needs) and [`MethodParams`](operations::MethodParams) /
//!   [`MethodResult`](operations::MethodResult), the request and response every binding shares;
//! - [`jsonrpc`]: JSON-RPC 2.0 envelopes;
//! - [`rest`]: the HTTP+JSON binding's routing, method, path, query string and body to the operation
//!   and its typed request, and back for clients;
//! - [`sse`]: server-sent events for the streaming methods, encoder and incremental decoder;
//! - [`errors`]: every A2A and JSON-RPC error with its codes in each binding;
//! - [`service`]: the `A2A-Version` and `A2A-Extensions` service parameters, media types and the
//!   well-known agent card path;
//! - [`limits`]: the decode budget every entry point that reads bytes applies;
//! - `describe` (feature `describe`): an agent's OpenAPI 3.1 and OpenRPC 1.3 documents and an HTML page.
//!
//! An HTTP+JSON server finds the operation a request is for, within the limits it sets on what one
//! request may make it hold:
//!
//! ```
//! use a2a_protocol::limits::Limits;
//!
//! let limits = Limits::default().with_max_bytes(4 << 20).with_max_elements(20_000);
//! let route = a2a_protocol::rest::route_with_limits("GET", "/tasks/t-1", b"", &limits)?;
//! assert_eq!(route.operation, a2a_protocol::operations::Operation::GetTask);
//! # Ok::<(), a2a_protocol::rest::RouteError>(())
//! ```
//!
//! # Feature flags
//!
//! - `proto` (off by default): the error model as a gRPC `google.rpc.Status`.
//! - `grpc` (off by default; implies `proto`): the error model as a `tonic::Status` and back.
//! - `describe` (off by default): the `describe` module (it embeds the generated protocol documents).

#[cfg(feature = "describe")]
pub mod describe;
pub mod errors;
pub mod jsonrpc;
pub mod limits;
pub mod operations;
pub mod rest;
pub mod service;
pub mod sse;
