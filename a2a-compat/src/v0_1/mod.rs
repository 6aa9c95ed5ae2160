//! A2A protocol v0.1 (release 0.1.0), JSON-RPC binding, as serde types (feature `v0_1`).
//!
//! The first public version: tasks are sent whole (`tasks/send`, `tasks/sendSubscribe`), a task's
//! conversation is a `sessionId`, parts are chosen by `type` (`text`, `file`, `data`), task states are
//! lower case, and an agent card says how to authenticate with `authentication.schemes`. Every
//! definition of its JSON Schema is a type here, named and read as in [`crate::v0_3`] (the same union
//! reader), with one difference: a member with a schema default (`final`, `index`, the card's
//! capabilities and default modes) is an `Option`, written back only when it was read, so a v0.1
//! document comes back exactly as it was sent (no SDK writes v0.1 any more to say otherwise).
//!
//! | union | chosen by |
//! |---|---|
//! | [`Part`] | `type` (`text`, `file`, `data`) |
//! | [`SendTaskStreamingResult`] | the members only one variant has (`status` / `artifact`) |
//! | [`A2aRequest`] | `method` (required), naming the six methods the schema lists |
//!
//! v0.1's schema leaves `tasks/sendSubscribe` out of [`A2aRequest`]; it is [`SendTaskStreamingRequest`].
//! Responses are one object with an optional `result` and `error` each, as the schema writes them.
//!
//! ```
//! use a2a_compat::v0_1::{A2aRequest, Part};
//!
//! let request: A2aRequest = serde_json::from_str(r#"{
//!     "jsonrpc": "2.0", "id": 1, "method": "tasks/send",
//!     "params": {"id": "task-1", "sessionId": "session-1",
//!                "message": {"role": "user", "parts": [{"type": "text", "text": "tell me a joke"}]}}
//! }"#).unwrap();
//! let A2aRequest::SendTask(request) = request else { panic!("dispatched on `method`") };
//! assert!(matches!(&request.params.message.parts[0], Part::Text(p) if p.text == "tell me a joke"));
//! let wrong = serde_json::from_str::<Part>(r#"{"type": "picture"}"#).unwrap_err();
//! assert!(wrong.to_string().contains("picture"), "{wrong}");
//! ```
//!
//! `src/v0_1/generated/` is generated from `spec/v0_1/a2a.json` by `cargo xtask codegen` (target
//! `types-v0_1`); never edit it by hand.

#![allow(
    clippy::large_enum_variant,
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items,
    clippy::derivable_impls
)]

pub use crate::v0_3::JsonRpcId;

include!("generated/types.rs");
include!("generated/unions.rs");
include!("generated/registry.rs");
