//! Serde types for the Agent2Agent (A2A) protocol, generated from the protocol's definition.
//!
//! ```
//! use a2a_types::v1::{Message, PartContent, Role, Task, TaskState};
//!
//! let task: Task = serde_json::from_str(r#"{
//!     "id": "task-7f3a",
//!     "contextId": "ctx-lisbon-trip",
//!     "status": {"state": "TASK_STATE_INPUT_REQUIRED", "timestamp": "2026-04-01T09:30:00Z"},
//!     "history": [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Find a hotel"}]}]
//! }"#).unwrap();
//! assert_eq!(task.status.state, TaskState::InputRequired);
//! assert_eq!(task.history[0].role, Role::User);
//! assert_eq!(task.history[0].parts[0].content, Some(PartContent::Text("Find a hotel".into())));
//! ```
//!
//! # JSON mapping
//!
//! The JSON is ProtoJSON, the encoding A2A v1 prescribes, byte for byte what the official SDKs write
//! (apart from key order, which JSON leaves free):
//!
//! | input / output | behaviour |
//! |---|---|
//! | default values (`""`, `0`, `false`, empty lists and maps, `*_UNSPECIFIED`) | omitted on output, except proto3 `optional` fields, which keep presence |
//! | `null` | the field's default, or `None`; for a `Part`'s `data` it is the JSON null value |
//! | unknown fields | ignored (A2A spec, section 5.7) |
//! | field names | written in camelCase; camelCase and the proto's snake_case accepted |
//! | enums | written by name; names and numbers accepted; an unknown number is kept as `Unrecognized` and written back as that number |
//! | messages | JSON objects only (serde's derive would also read a struct from an array, by position) |
//! | `int32`, `uint32` | numbers, or decimal strings, accepted |
//! | `int64`, `uint64` (none in v1.0; upstream's next release adds some) | decimal strings out; strings or numbers in, exactly (beyond 2^53 too) |
//! | `double`, `float` | numbers, and `"NaN"`, `"Infinity"`, `"-Infinity"` |
//! | bytes (`Part` raw content) | standard padded base64 out; standard or URL-safe, padded or not, in |
//! | timestamps ([`chrono::DateTime<Utc>`](chrono::DateTime)) | RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits out; any offset in; outside years 0001-9999, a leap second (second 60) or more than 9 fraction digits an error, both ways |
//! | `data`, `metadata` ([`serde_json::Value`], [`JsonObject`]) | kept exactly, numbers included (2^53 + 1 stays 2^53 + 1) |
//! | oneofs | the member is a key of the message; two members are an error |
//! | duplicate keys | an error naming the object's path and the key, in message fields, maps, `data`, `metadata` and v0.3 discriminators (`kind`, `method`), as protobuf's JSON parsers have it and as `a2a-proto` does; unknown fields are skipped unread, so their duplicates are not reported |
//! | numbers | correctly rounded on input (serde_json's `float_roundtrip`, which this crate enables), shortest round-trip text on output |
//! | text | Unicode throughout ([`json::check_unicode`]): invalid UTF-8 and `\u` escapes of lone surrogates are errors, inside ignored unknown fields too, when read through [`json`] |
//! | errors | a message never quotes more than a few hundred bytes of the offending value ([`json::bounded`]) |
//!
//! One deliberate difference from ProtoJSON: a message that is nothing but a oneof (`StreamResponse`,
//! `SendMessageResponse`, `SecurityScheme`, `OAuthFlows`) is a Rust enum, so `{}` (no member set) is an
//! error here, while a protobuf library reads it as an empty message. The spec requires exactly one member.
//!
//! # Speaking A2A
//!
//! Transport-free building blocks for clients and servers, for v1 without any feature:
//! - [`operations`]: every RPC of the service, generated from the proto, with its JSON-RPC method,
//!   gRPC path, HTTP bindings, types, streaming and the capability it needs;
//! - [`jsonrpc`]: JSON-RPC 2.0 envelopes, and the params and results of every method typed by name;
//! - [`rest`]: the HTTP+JSON binding's routing: method, path, query string and body to the operation
//!   and its typed request, and back for clients;
//! - [`errors`]: every A2A and JSON-RPC error with its codes in each binding, and the error objects of
//!   JSON-RPC, HTTP+JSON and (feature `proto`) gRPC;
//! - [`service`]: the `A2A-Version` and `A2A-Extensions` service parameters (with the one rule
//!   `A2A-Version` is read by, for every binding and the bridge), media types and the well-known agent
//!   card path;
//! - [`sse`]: server-sent events for the streaming methods, encoder and incremental decoder, in the
//!   JSON-RPC and the HTTP+JSON form;
//! - [`json`]: parsing whose errors name the field path.
//!
//! # Limits
//!
//! A decoded value can hold many times its input, because an empty element costs a whole struct.
//! Bytes held per input byte and per counted element, worst shapes, measured by the workspace's
//! `allocation` tests at 100,000 elements (`MEASURE=1 cargo test -p a2a-tests --test allocation --
//! --nocapture` prints the table):
//!
//! | input | held / input byte | held / element |
//! |---|---|---|
//! | protobuf binary `ListTasksResponse` of empty tasks (2 bytes each, `a2a-proto`) | 225 | 451 |
//! | JSON `ListTasksResponse` of empty tasks (`{}`, 3 bytes each) | 147 | 440 |
//! | v0.3 JSON `Message` upgraded to v1 (`bridge::upgrade_json`, a `serde_json::Value`) | 26 (peak 33) | 223 |
//! | JSON `Message` of empty parts (this crate or `a2a-proto`) | 12 | 73 |
//! | JSON `metadata` of many small members | 8 | 114 |
//! | v0.3 JSON `Message` of empty parts (`v0_3`) | 6 | 49 |
//! | JSON text with escapes | under 1 | (one string) |
//!
//! The worst ratios come from the size of the structs themselves (a `Task` is about 340 bytes, with
//! every field inline, and a list's spare capacity adds up to as much again); making them smaller
//! would mean boxing fields, a change to the public types, so the crate bounds memory with a budget
//! instead: [`limits::Limits`] caps a document's bytes ([`limits::DEFAULT_MAX_BYTES`], 16 MiB) and
//! its count of JSON values ([`limits::DEFAULT_MAX_ELEMENTS`], 100,000), checked by a pre-scan that
//! allocates nothing before the parse commits memory. Within it a decoded value holds at most
//! [`limits::JSON_BYTES_PER_ELEMENT`] (1,024) bytes per value plus
//! [`limits::JSON_BYTES_PER_BYTE`] (2) per input byte: with the defaults, 136 MB in the very worst
//! case and far less for real documents (the benchmark's 51 KB task has 1,851 values).
//!
//! The entry points that read bytes apply [`Limits::default`](limits::Limits::default) unless given
//! other limits, because a server reading hostile input should be safe without opting in:
//! [`rest::route`] / [`rest::route_with_limits`] (413 for a body over them),
//! [`jsonrpc::JsonRpcRequest::from_slice`] / `from_slice_with_limits` (`-32600` Invalid Request, as the
//! official SDK answers a body over its size limit) and the response readers beside them, and
//! [`sse::JsonDecoder`] per event (`with_limits`). Parsing through `serde_json` or [`json`] directly
//! applies no budget; [`limits::from_slice`] adds one to any type. A server sets its own numbers:
//!
//! ```
//! use a2a_types::limits::Limits;
//!
//! let limits = Limits::default().with_max_bytes(4 << 20).with_max_elements(20_000);
//! let route = a2a_types::rest::route_with_limits("GET", "/tasks/t-1", b"", &limits)?;
//! assert_eq!(route.operation, a2a_types::operations::Operation::GetTask);
//! # Ok::<(), a2a_types::rest::RouteError>(())
//! ```
//!
//! The pre-scan costs 0.10 to 0.14 of a typed decode of the same document on the benchmark's six
//! documents (`cargo bench --manifest-path benchmarks/Cargo.toml --bench budget`). For protobuf
//! binary, `a2a_proto::limits` does the same with fields as elements, with the same [`limits::Limits`]
//! (both crates re-export it from their shared support crate, `a2a-spec-support`).
//!
//! # Feature flags
//!
//! - `grpc` (off by default; implies `proto`): the error model as a `tonic::Status` and back, and the
//!   tonic client and server stubs of `a2a-proto`'s `grpc` feature.
//! - `proto` (off by default): `From`/`TryFrom` conversions between every message here and its protobuf
//!   counterpart in [`a2a-proto`](https://docs.rs/a2a-proto), for gRPC or binary storage; see the `proto`
//!   module for what a conversion cannot carry.
//! - `derive` (on by default): `#[a2a_skill]` on the functions that handle an agent's skills, and
//!   `skills!` to list their `AgentSkill` entries; see the [`skills`](mod@skills) module.
//! - `inventory` (off by default): also collect every `#[a2a_skill]` function of the binary
//!   automatically, for `skills::registered()`.
//! - `v0_3` (off by default): A2A v0.3, which most deployed agents still speak: `v0_3` holds the serde
//!   types of its JSON-RPC binding, generated from its JSON Schema, and `bridge` converts between them
//!   and the v1 types (whole requests, results and errors to and from [`jsonrpc`] and [`errors`]); with `proto` as well, `v0_3::proto` converts them to and from the v0.3 protobuf
//!   types of `a2a-proto` (package `a2a.v1`).
//! - `describe` (off by default): `describe` turns an agent's card into its OpenAPI 3.1 and OpenRPC 1.3
//!   documents and a self-contained HTML page (it embeds the generated protocol-wide documents).
//! - `signing` (off by default): signed agent cards (A2A §8.4): the RFC 8785 canonical bytes of a card
//!   as the official Python SDK computes them, signing and verifying with JWS, in the `signing`
//!   module (adds `jsonwebtoken` with its RustCrypto backend).
//!
//! # Stability across spec updates
//!
//! The protocol grows: upstream's next release already adds fields, an error and more. A release of this
//! crate that follows a spec update which only *adds* (a field, an enum value, a oneof member, a message,
//! an RPC, an error) is a minor release, and code written as below keeps compiling:
//!
//! - **Enums are `#[non_exhaustive]`**: the open enums ([`v1::TaskState`], [`v1::Role`]), whose
//!   `Unrecognized(i32)` variant also keeps values a newer peer sends; the oneof enums
//!   ([`v1::PartContent`], [`v1::StreamResponse`], [`v1::SendMessageResponse`], [`v1::SecurityScheme`],
//!   [`v1::OAuthFlows`]); and the protocol-surface enums (operations, errors). Match them with a `_`
//!   arm.
//! - **Message structs are not `#[non_exhaustive]`**, so that they can be written as literals, but only
//!   with a rest: `Task { id, status, ..Default::default() }`. A literal naming every field, or a
//!   pattern without `..`, breaks when a field is added; such code is outside this promise. The
//!   constructors and builders (`Part::text`, `Message::user`, `Task::new`, `AgentCard::builder`) never
//!   break.
//! - A new field is an `Option`, an empty collection or a default value, and reading older or newer JSON
//!   never fails because of it (unknown members are ignored; absent ones read as the default).
//! - The A2A v0.3 types (`v0_3`) describe a finished protocol version: they change only to fix bugs.
//!
//! The workspace proves the promise for itself on every CI run: `cargo xtask bump-rehearsal` grows a copy
//! of the spec by each kind of addition, regenerates, and builds and tests everything hand-written.
//!
//! # Generated code
//!
//! Everything under a `generated/` folder is written by `cargo xtask codegen` and checked in; the rest
//! is hand-written. `src/v1/generated/` comes from `spec/v1/a2a.proto`: the message structs
//! (`types.rs`) by `typify` over the JSON Schema derived from that proto
//! (`spec/v1/generated/a2a.json`), with each field's serde attributes set from the descriptor; the open
//! enums and oneofs (`unions.rs`, which typify 0.8 cannot make open or ProtoJSON-shaped), the registry,
//! validation and proto conversions by the workspace's own generator. `src/v0_3/generated/` comes the
//! same way from `spec/v0_3/a2a.json`.
//! Never edit them by hand: CI fails when they differ from a fresh generation. The serde code they hold
//! calls the field rules of the support crate `a2a-spec-support` (`a2a_support::protojson`, shared with
//! `a2a-proto`), which this crate requires at its exact version.

#[cfg(feature = "describe")]
pub mod describe;
pub mod errors;
pub mod json;
pub mod jsonrpc;
pub mod limits;
pub mod operations;
pub mod registry;
pub mod rest;
pub mod service;
#[cfg(feature = "signing")]
pub mod signing;
pub mod skills;
pub mod sse;
pub mod v1;
pub mod validate;

#[cfg(feature = "v0_3")]
pub mod v0_3;

#[cfg(feature = "v0_3")]
pub mod bridge;

#[cfg(feature = "proto")]
pub mod proto;
// The ProtoJSON field rules the generated types call live in the support crate; the hand-written
// conversions reach them here too.
use a2a_support::protojson;

pub use chrono;
pub use serde;
pub use serde_json;

#[cfg(feature = "derive")]
pub use a2a_derive::{a2a_skill, skills};

/// Not public API: what the code generated by `#[a2a_skill]` and `skills!` refers to.
#[doc(hidden)]
pub mod __private {
    pub use crate::__a2a_submit_skill as submit_skill;
    pub use crate::skills::spec::SkillSpec;
    pub use crate::v1::{AgentSkill, SecurityRequirement, StringList};
    #[cfg(feature = "inventory")]
    pub use inventory;
}

pub use a2a_support::MAX_NESTING_DEPTH;

/// A JSON object, as `metadata` fields and `google.protobuf.Struct` carry it.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

/// A point in time, as `google.protobuf.Timestamp` fields carry it.
pub type Timestamp = chrono::DateTime<chrono::Utc>;

/// Enums of the protocol, implemented by every generated enum: wire numbers and names.
pub use protojson::ProtoEnum;
