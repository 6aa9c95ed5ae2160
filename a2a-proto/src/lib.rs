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
//! # JSON mapping
//!
//! JSON is ProtoJSON, produced by `pbjson` and then adjusted by the code generator where `pbjson`'s
//! defaults break interoperability with other ProtoJSON implementations:
//!
//! | input / output | behaviour |
//! |---|---|
//! | unknown fields | ignored on input (A2A spec, section 5.7), so newer peers can add fields |
//! | `null` for a repeated, map, message or scalar field | the field's default (absent) |
//! | `null` for a `google.protobuf.Value` field (e.g. `Part.data`) | a JSON `null` value, not absent |
//! | field names | written in lowerCamelCase; camelCase and the proto's snake_case accepted |
//! | enums | written by name; names and numbers accepted; a number the schema does not know is kept and written back as that number |
//! | bytes | written as standard base64 with padding; standard or URL-safe, padded or not, accepted |
//! | `google.protobuf.Timestamp` | written as RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits; any offset accepted; out-of-range values are errors |
//! | `google.protobuf.Value` numbers | an integral number up to 2^53 is written without a fraction (`1`, not `1.0`); larger integers are read as the nearest double |
//! | oneofs | two members of one oneof are an error (`duplicate field`) |
//!
//! The four well-known types involved ([`wkt::Timestamp`], [`wkt::Struct`], [`wkt::Value`],
//! [`wkt::ListValue`]) are this crate's own, binary-compatible with every protobuf implementation; any
//! other `google.protobuf` type comes from [`pbjson_types`].
//!
//! | duplicate keys | an error naming the object and the key, in message fields, maps and `Struct`s, as protobuf's own JSON parsers have it (`a2a-types` follows the same rule); keys of unknown fields are skipped unread, so their duplicates are not reported |
//! | numbers | correctly rounded on input (serde_json's `float_roundtrip`, which this crate enables) and written as the shortest text that reads back as the same double |
//!
//! # Binary encoding
//!
//! Standard protobuf, with one documented loss: **unknown fields are dropped**. A field number the
//! schema does not define (a newer peer's field, or `field 999` added to a message) is skipped when
//! decoding and is not written back, where protobuf's reference implementations keep such fields and
//! re-encode them. prost, which these types are built on, has no storage for unknown fields; keeping
//! them would need a hidden byte buffer in every generated message, which users could not build
//! field by field or compare meaningfully, and which the serde types of `a2a-types` could not carry
//! either. Protobuf allows a decoder to drop them (the JSON encoding always does), A2A peers must
//! tolerate their absence, and everything the schema defines is kept. A test holds this behaviour
//! against the official SDK (`tests/tests/suite/input_rules.rs`).
//!
//! # Hostile input
//!
//! Every decoder here (ProtoJSON, protobuf binary) returns an error, never panics or overflows the
//! stack, on any input; the workspace's fuzzer (`cargo fuzz-run`, package `a2a-fuzz`) checks that and
//! the round trips on every message.
//!
//! - **Nesting**: objects and arrays inside a `Value`/`Struct` nest at most [`MAX_NESTING_DEPTH`] (30)
//!   deep, in JSON and binary alike; the error names the field.
//! - **Length prefixes**: a length larger than the rest of the input is an error before anything is
//!   allocated (prost checks it against the buffer); a small input never reserves a large buffer.
//! - **Time**: decoding is linear in the input (allocation counts at n and 4n are held to ~4x by the
//!   tests' `allocation` binary).
//! - **Memory**: what a decoded value holds can exceed its input many times over, because empty
//!   elements cost a whole Rust struct. Bytes held per input byte and per counted element, worst
//!   shapes, measured by that test binary (100,000 elements):
//!
//! | input | held / input byte | held / element |
//! |---|---|---|
//! | binary `ListTasksResponse` of empty tasks (2 bytes each) | 225 | 451 |
//! | JSON `ListTasksResponse` of empty tasks (`a2a-types`) | 147 | 440 |
//! | v0.3 `Message` upgraded to v1 JSON (`a2a_compat::bridge::upgrade_json`, a `serde_json::Value`) | 26 (peak 33) | 223 |
//! | the same, text to text (`a2a_compat::bridge::upgrade_slice`: typed values, no `Value`) | under 1 (peak 7) | |
//! | JSON `Message` of empty parts (either crate) | 12 | 73 |
//! | JSON `metadata` of many small members | 8 | 114 |
//! | v0.3 JSON `Message` of empty parts (`a2a_compat::v0_3`) | 5.6 | 49 |
//! | JSON text with escapes | under 1 | (one string) |
//!
//!   The ratios come from the structs' own size (a `Task` is about 340 bytes, every field inline,
//!   and a list's spare capacity adds up to as much again); shrinking them would mean boxing fields
//!   of the public types. So a server bounds memory with a **decode budget** ([`limits`]): at most
//!   `max_bytes` bytes and `max_elements` fields per message (defaults 16 MiB and 100,000), checked
//!   by one pass over the wire format that allocates nothing, before prost decodes:
//!   [`limits::decode`]`::<M>(bytes, &limits)`, walked by [`wire`]. Within it a message holds at most
//!   [`limits::BINARY_BYTES_PER_ELEMENT`] (1,024) bytes per field plus
//!   [`limits::BINARY_BYTES_PER_BYTE`] (2) per input byte. `prost::Message::decode` itself applies no
//!   budget; over gRPC, set tonic's `max_decoding_message_size` to the same `max_bytes`. For JSON,
//!   the same [`limits::Limits`] counts values (this crate's [`json`] applies no budget: check the
//!   bytes with [`Limits::check_json`](limits::Limits::check_json) first). For server-sent events,
//!   `a2a_protocol::sse::JsonDecoder` applies it per event.

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
//! The generated ProtoJSON code calls the support crate `a2a-spec-support` (`a2a_support`), shared with
//! `a2a-spec-types`, which this crate requires at its exact version.
//!
//! `src/generated/` is written by `cargo xtask codegen` from `spec/v1/a2a.proto` (protox, prost-build,
//! pbjson-build, then our ProtoJSON adjustments; the gRPC stubs with tonic-prost-build) and checked in,
//! so building this crate needs neither `protoc` nor the generator. Never edit it by hand: CI fails when
//! it differs from a fresh generation.

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
