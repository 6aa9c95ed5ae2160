//! Interoperability with the official A2A Python SDK (`a2a-sdk`, pinned with its protobuf runtime in
//! `tests/interop/requirements.txt`) for A2A v0.3's protobuf types: package `a2a.v1`, the v0.3 gRPC
//! binding, which the SDK ships in its compatibility layer (`a2a.compat.v0_3.a2a_v0_3_pb2`) and this
//! workspace as `a2a_proto::v0_3`.
//!
//! The same proof as `proto_interop_v1.rs`, on vectors the SDK writes with
//! `tests/interop/sdk_vectors.py generate --package v0_3`: messages of every `a2a.v1` type that set every
//! field (every oneof member in a case of its own), plus edge cases (unicode, all 256 byte values, empty
//! values, unknown enum numbers, integer and timestamp limits, `null` data, Struct numbers) and lenient
//! JSON input (unknown fields, snake_case and proto field names, nulls, numeric enums, URL-safe base64,
//! timestamp offsets, integers as strings). The one implementation under test, `a2a-proto`, then for each
//! vector:
//!
//! - decodes the JSON and writes it back: the result must equal the SDK's canonical JSON, exactly except
//!   for how integral `google.protobuf.Value` numbers are written (`1` for Python's `1.0`, the same
//!   number): those vectors are counted and listed, not failed, and the SDK still has to read them back
//!   to an equal message;
//! - decodes the SDK's binary: it must be the same message as the JSON gave, its re-encoding must decode to
//!   it again, and its JSON must equal the SDK's;
//! - hands its JSON and binary output to `sdk_vectors.py check --package v0_3`, where the SDK parses both
//!   and compares them with the message it started from.
//!
//! The Python interpreter is `A2A_INTEROP_PYTHON`, else `<workspace>/.venv/bin/python` when that can import
//! the SDK's v0.3 classes. Without one the test skips with a message, except under `CI=true`, where it
//! fails. Everything is written below the target directory.

use a2a_tests::interop::{Decoder, Outcome, ProtoRoundTrip, Suite, Vector, run_suite};

/// The implementation under test. The serde types of v0.3 (`a2a_compat::v0_3`) are JSON-RPC types, not
/// protobuf ones: `jsonrpc_interop_v0_3.rs` and `proto_v0_3.rs` test them against the SDK.
const DECODERS: &[Decoder] = &[Decoder {
    name: "a2a-proto",
    message_names: a2a_proto::v0_3::MESSAGE_NAMES,
    run: a2a_proto_v0_3,
}];

/// The [`Decoder`] for `a2a-proto`'s v0.3 types.
fn a2a_proto_v0_3(vector: &Vector) -> Outcome {
    a2a_proto::v0_3::visit_message(&vector.type_name, ProtoRoundTrip(vector))
        .unwrap_or_else(|| Outcome::failed("a2a-proto has no message type of this name".to_owned()))
}

#[test]
fn every_v0_3_vector_of_the_python_sdk_round_trips_and_the_sdk_reads_our_output() {
    let suite = Suite {
        name: "v0_3",
        package_args: &["--package", "v0_3"],
        sdk_module: "a2a.compat.v0_3.a2a_v0_3_pb2",
    };
    run_suite(
        &suite,
        DECODERS,
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
    );
}
