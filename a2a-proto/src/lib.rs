//! Protobuf types for the Agent2Agent (A2A) protocol v1.0 (package `lf.a2a.v1`), with a ProtoJSON
//! mapping that the official SDKs accept.
//!
//! ```
//! use a2a_proto::v1::{Part, Role, Message, part::Content};
//! use prost::Message as _;
//!
//! let json = r#"{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"Book a table for two"}]}"#;
//! let message: Message = serde_json::from_str(json).unwrap();
//! assert_eq!(message.role(), Role::User);
//! assert_eq!(message.parts[0].content, Some(Content::Text("Book a table for two".into())));
//!
//! // The same message in the protobuf binary encoding, and back.
//! let bytes = message.encode_to_vec();
//! assert_eq!(Message::decode(bytes.as_slice()).unwrap(), message);
//! assert_eq!(serde_json::to_string(&message).unwrap(), json);
//! # let _ = Part::default();
//! ```
//!
//! The JSON mapping (where it departs from `pbjson`'s defaults), the one loss of the binary
//! encoding (unknown fields), and what a decoded message holds on hostile input are in the crate's
//! README. Every decoder returns an error, never panics, on any input; bound the memory a message
//! can make you hold with a decode budget ([`limits`]).
//!
//! # Feature flags
//!
//! - `v0_3` (off by default): [`v0_3`], the protobuf types of A2A v0.3 (package `a2a.v1`), for
//!   talking to agents that have not moved to v1.
//! - `grpc` (off by default): [tonic](https://docs.rs/tonic) 0.14 client and server stubs of the A2A
//!   gRPC service over this crate's messages. For `lf.a2a.v1.A2AService`:
//!   `v1::a2a_service_client::A2aServiceClient` and `v1::a2a_service_server::{A2aService,
//!   A2aServiceServer}`; with `v0_3` as well, the same two modules in `v0_3` for `a2a.v1.A2AService`.
//!   An agent implements the `A2aService` trait: one async method per RPC, streaming RPCs returning a
//!   boxed stream. Every method has a default answering `UNIMPLEMENTED`, so an agent writes only the
//!   RPCs it supports and an RPC added to the protocol does not break it. The stubs carry no
//!   transport: serve and connect with tonic's default features (`transport`, `router`) in your own
//!   dependency on tonic 0.14, or with any HTTP/2 tower service. The stubs' codec decodes every
//!   message under a decode budget ([`limits`]): the default one, or yours through `grpc`. Without
//!   this feature the crate depends on neither tonic nor any async runtime.
//!
//! ```no_run
//! # #[cfg(feature = "grpc")]
//! # mod example {
//! use a2a_proto::v1::a2a_service_client::A2aServiceClient;
//! use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
//! use a2a_proto::v1::{GetTaskRequest, Task};
//! use tonic::{Request, Response, Status};
//!
//! /// Answers GetTask; every other RPC is UNIMPLEMENTED.
//! struct Agent;
//!
//! #[tonic::async_trait]
//! impl A2aService for Agent {
//!     async fn get_task(&self, request: Request<GetTaskRequest>) -> Result<Response<Task>, Status> {
//!         Err(Status::not_found(format!("no task {}", request.into_inner().id)))
//!     }
//! }
//!
//! async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//!     tonic::transport::Server::builder()
//!         .add_service(A2aServiceServer::new(Agent))
//!         .serve("127.0.0.1:50051".parse()?)
//!         .await?;
//!     Ok(())
//! }
//!
//! async fn ask() -> Result<Task, Box<dyn std::error::Error>> {
//!     let channel = tonic::transport::Endpoint::from_static("http://127.0.0.1:50051")
//!         .connect()
//!         .await?;
//!     let request = GetTaskRequest { id: "t-1".into(), ..Default::default() };
//!     Ok(A2aServiceClient::new(channel).get_task(request).await?.into_inner())
//! }
//! # }
//! ```
//!
//! # Generated code
//!
//! `src/generated/` is written by `cargo xtask codegen` from `spec/` and checked in, so building this
//! crate needs neither `protoc` nor the generator.

#[cfg(feature = "grpc")]
pub mod grpc;
pub mod json;
pub mod limits;

pub use a2a_support::MAX_NESTING_DEPTH;

pub mod registry;
pub mod wire;
pub mod wkt;

pub use pbjson_types;

/// A2A protocol v1.0: package `lf.a2a.v1`.
///
/// Every message implements `prost::Message`, `prost::Name`, `serde::Serialize` and
/// `serde::Deserialize` (ProtoJSON). [`visit_message`](v1::visit_message) finds a type by its full name.
pub mod v1 {
    #![allow(clippy::doc_lazy_continuation, clippy::large_enum_variant)]

    include!("generated/lf.a2a.v1.rs");
    include!("generated/lf.a2a.v1.serde.rs");
    include!("generated/lf.a2a.v1.registry.rs");
    #[cfg(feature = "grpc")]
    include!("generated/lf.a2a.v1.tonic.rs");

    /// The compiled `FileDescriptorSet` of `spec/v1/a2a.proto` and everything it imports, encoded in
    /// the protobuf binary format: for gRPC reflection and descriptor-driven tools.
    pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!("generated/lf.a2a.v1.fds.binpb");
}

pub mod rpc;

/// A2A protocol v0.3, gRPC binding: package `a2a.v1` (feature `v0_3`).
///
/// The revision the official SDKs ship as their v0.3 compatibility layer. Its JSON follows the same
/// ProtoJSON rules as [`v1`] (the v0.3 JSON-RPC binding has a different shape; see `a2a-types`).
#[cfg(feature = "v0_3")]
pub mod v0_3 {
    #![allow(clippy::doc_lazy_continuation, clippy::large_enum_variant)]

    include!("generated/a2a.v1.rs");
    include!("generated/a2a.v1.serde.rs");
    include!("generated/a2a.v1.registry.rs");
    #[cfg(feature = "grpc")]
    include!("generated/a2a.v1.tonic.rs");

    /// The compiled `FileDescriptorSet` of `spec/v0_3/a2a.proto` and everything it imports.
    pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!("generated/a2a.v1.fds.binpb");
}
