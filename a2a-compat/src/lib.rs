//! The Agent2Agent (A2A) protocol versions before v1, for servers and clients that still speak to
//! peers using them: each version's serde types and the bridge between it and v1 ([`a2a_types`],
//! [`a2a_protocol`]). Each version is a feature, so a v1-only program compiles none of them.
//!
//! A v0.3 request upgraded to the v1 operation and its typed params:
//!
//! ```
//! use a2a_compat::bridge::upgrade_request;
//! use a2a_compat::v0_3;
//! use a2a_protocol::operations::Operation;
//!
//! let request: v0_3::A2aRequest = serde_json::from_str(r#"{
//!     "jsonrpc": "2.0", "id": "req-1", "method": "message/send",
//!     "params": {"message": {"role": "user", "messageId": "m-1",
//!                            "parts": [{"kind": "text", "text": "Plan a trip to Lisbon"}]}}
//! }"#)?;
//! let (_id, params) = upgrade_request(request)?;
//! assert_eq!(params.operation(), Operation::SendMessage);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Feature flags
//!
//! - `v0_3` (on by default): A2A v0.3, which most deployed agents still speak: [`v0_3`] holds the
//!   serde types of its JSON-RPC binding, generated from its JSON Schema, and [`bridge`] converts
//!   between them and v1 (whole requests, results and errors).
//! - `v0_2` (off by default, implies `v0_3`): A2A v0.2 (0.2.6), [`v0_2`], generated from its JSON
//!   Schema.
//! - `v0_1` (off by default, implies `v0_2`): A2A v0.1 (0.1.0), [`v0_1`], generated from its JSON
//!   Schema: the first agents' traffic (`tasks/send`, `sessionId`, parts chosen by `type`).
//! - `proto` (off by default): `v0_3::proto` converts the v0.3 types to and from the v0.3 protobuf
//!   types of `a2a-proto` (package `a2a.v1`).
//! - `signing` (off by default): `v0_3::signing`, the canonical bytes a v0.3 card's signatures cover.

#[cfg(feature = "v0_3")]
pub mod bridge;
#[cfg(feature = "v0_1")]
pub mod v0_1;
#[cfg(feature = "v0_2")]
pub mod v0_2;
#[cfg(feature = "v0_3")]
pub mod v0_3;
