//! A2A protocol v1.0 (protobuf package `lf.a2a.v1`) as serde types.
//!
//! Every message of the protocol is a struct here, named as in the proto; enums are open (they keep
//! values a newer peer sends as `Unrecognized`), and oneofs are enums: a [`Part`]'s content is a
//! [`PartContent`], a [`StreamResponse`] is one of four payloads, a [`SecurityScheme`] one of five.
//!
//! Fields the proto marks REQUIRED are plain fields; the rest are `Option`s or empty collections.
//! Parsing is as lenient as ProtoJSON (a REQUIRED field may be absent on the wire and reads as its
//! default); checking what the spec requires is a separate step.
//!
//! Hand-written on top: [`builders`], an [`AgentCard`] builder and short constructors for the messages
//! people write by hand.

#![allow(
    clippy::large_enum_variant,
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items
)]

pub mod builders;
mod conveniences;

include!("generated/types.rs");
include!("generated/unions.rs");
include!("generated/registry.rs");
include!("generated/validate.rs");
include!("generated/json_write.rs");

#[cfg(feature = "proto")]
// The deprecated OAuth flows still need converting.
#[allow(deprecated)]
mod proto_conversions {
    use super::*;

    include!("generated/proto_conversions.rs");
}

#[cfg(feature = "proto")]
pub use proto_conversions::visit_proto_pair;
