//! A2A protocol v0.2 (its last release, 0.2.6), JSON-RPC binding, as serde types (feature `v0_2`).
//!
//! v0.2 is v0.3's direct ancestor: the same envelopes, `message/send` and `message/stream`, parts chosen
//! by `kind`, `contextId`, `securitySchemes`. Every definition of its JSON Schema is a type here, named
//! and read as in [`crate::v0_3`] (the same field rules, the same union reader):
//!
//! | union | chosen by |
//! |---|---|
//! | [`Part`], [`SendMessageResult`], [`SendStreamingMessageResult`] | `kind` |
//! | [`SecurityScheme`] | `type` |
//! | [`A2aRequest`] | `method` (required), naming the nine methods on a wrong one |
//! | [`A2aError`] | `code` (required) |
//! | [`FileContent`], [`GetTaskPushNotificationConfigRequestParams`], the per-method responses | the members only one variant has |
//!
//! ```
//! use a2a_compat::v0_2::{A2aRequest, Part};
//!
//! let request: A2aRequest = serde_json::from_str(r#"{
//!     "jsonrpc": "2.0", "id": 3, "method": "message/send",
//!     "params": {"message": {"role": "user", "messageId": "m-1",
//!                            "parts": [{"kind": "text", "text": "Which trains leave tonight?"}]}}
//! }"#).unwrap();
//! let A2aRequest::SendMessage(request) = request else { panic!("dispatched on `method`") };
//! assert!(matches!(&request.params.message.parts[0], Part::Text(p) if p.text == "Which trains leave tonight?"));
//! ```
//!
//! `src/v0_2/generated/` is generated from `spec/v0_2/a2a.json` by `cargo xtask codegen` (target
//! `types-v0_2`); never edit it by hand.

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

impl From<A2aError> for JsonRpcError {
    fn from(error: A2aError) -> Self {
        let value = serde_json::to_value(&error).expect("an A2aError is always JSON");
        serde_json::from_value(value).expect("every A2aError is a JSON-RPC error")
    }
}

impl TryFrom<JsonRpcError> for A2aError {
    /// The error as it was, when its code is none of A2A's.
    type Error = JsonRpcError;

    fn try_from(error: JsonRpcError) -> Result<Self, JsonRpcError> {
        let value = serde_json::to_value(&error).expect("a JsonRpcError is always JSON");
        serde_json::from_value::<A2aError>(value).map_err(|_| error)
    }
}
