//! Interoperability with the official A2A Python SDK (`a2a-sdk`, pinned with its protobuf runtime in
//! `tests/interop/requirements.txt`), on vectors the SDK itself writes.
//!
//! `tests/interop/sdk_vectors.py generate` has the SDK build messages of every `lf.a2a.v1` type that set
//! every field, plus edge cases (unicode, all 256 byte values, empty values, unknown enum numbers, integer
//! and timestamp limits, `null` data, Struct numbers) and lenient JSON input (unknown fields, snake_case,
//! nulls, numeric enums, URL-safe base64, timestamp offsets), and write each as ProtoJSON and binary.
//! Every Rust implementation under test, a [`Decoder`], then for each vector:
//!
//! - decodes the JSON and writes it back: the result must equal the SDK's canonical JSON, exactly except
//!   for how integral `google.protobuf.Value` numbers are written: we write `1` where Python's
//!   `json_format` writes `1.0` (the same number; `1` is what Go and C++ write, and what this workspace
//!   guarantees). Those vectors are counted and listed, not failed, and the SDK still has to read them back
//!   to an equal message;
//! - decodes the SDK's binary: it must be the same message as the JSON gave, its re-encoding must decode to
//!   it again, and its JSON must equal the SDK's;
//! - hands its JSON and binary output to `sdk_vectors.py check`, where the SDK parses both and compares them
//!   with the message it started from.
//!
//! The Python interpreter is `A2A_INTEROP_PYTHON`, else `<workspace>/.venv/bin/python` when that can import
//! the SDK. Without one the test skips with a message, except under `CI=true`, where it fails: CI must run
//! it (`.ci/run` installs the venv). Everything is written below the target directory.

use a2a_proto::registry::ProtoMessage;
use a2a_tests::interop::{Decoder, Outcome, ProtoRoundTrip, Suite, Vector, run_suite};
use a2a_tests::json_equivalent;
use serde_json::{Value, json};

/// Every implementation the vectors are run through. A new one is a function like [`a2a_proto_v1`] and an
/// entry here.
const DECODERS: &[Decoder] = &[
    Decoder {
        name: "a2a-proto",
        message_names: a2a_proto::v1::MESSAGE_NAMES,
        run: a2a_proto_v1,
    },
    Decoder {
        name: "a2a-types",
        message_names: a2a_types::v1::MESSAGE_NAMES,
        run: a2a_types_v1,
    },
];

/// The [`Decoder`] for `a2a-types` (typify serde types). JSON vectors are read and written through
/// serde; binary vectors are decoded by `a2a-proto` and converted with `TryFrom`, and our binary output is
/// our value converted with `From` and encoded. It declines, by design, exactly two kinds of vector, both
/// of messages the spec calls invalid: a oneof-only message with no member (a Rust enum needs a variant),
/// and a message missing a REQUIRED message field (a plain field, written back as its default `{}`).
fn a2a_types_v1(vector: &Vector) -> Outcome {
    a2a_types::v1::visit_proto_pair(&vector.type_name, TypesRoundTrip(vector))
        .unwrap_or_else(|| Outcome::failed("a2a-types has no message type of this name".to_owned()))
}

struct TypesRoundTrip<'a>(&'a Vector);

impl a2a_types::registry::ProtoPairVisitor for TypesRoundTrip<'_> {
    type Output = Outcome;

    fn visit<M, P>(self) -> Outcome
    where
        M: a2a_types::registry::A2aMessage
            + Into<P>
            + TryFrom<P, Error = a2a_types::proto::ConversionError>,
        P: ProtoMessage,
    {
        let vector = self.0;
        let message: M = match serde_json::from_str(&vector.json) {
            Ok(message) => message,
            // The only error a2a-types raises on input the SDK accepts: a oneof-only message (at any
            // depth) with no member.
            Err(error)
                if error.to_string().contains("expected exactly one of")
                    && error.to_string().contains("found none") =>
            {
                return Outcome {
                    declined: Some(format!("oneof-only message without a member: {error}")),
                    ..Outcome::default()
                };
            }
            Err(error) => return Outcome::failed(format!("JSON decode: {error}")),
        };
        let json_out = match serde_json::to_string(&message) {
            Ok(text) => text,
            Err(error) => return Outcome::failed(format!("JSON encode: {error}")),
        };
        let ours: Value = serde_json::from_str(&json_out).expect("serde_json writes valid JSON");
        let trimmed = without_added_empty_objects(&ours, &vector.expected);
        if trimmed != ours && json_equivalent(&trimmed, &vector.expected) {
            return Outcome {
                declined: Some(format!(
                    "a REQUIRED message field is absent and written back as {{}}: {json_out}"
                )),
                ..Outcome::default()
            };
        }
        let mut outcome = Outcome::default();
        outcome.compare_json("JSON in, JSON out", &json_out, &vector.expected);
        let proto: P = message.clone().into();
        let mut binary_out = proto.encode_to_vec();

        if let Some(sdk_binary) = &vector.binpb {
            match P::decode(sdk_binary.as_slice())
                .map_err(|e| e.to_string())
                .and_then(|p| M::try_from(p).map_err(|e| e.to_string()))
            {
                Err(error) => outcome
                    .failures
                    .push(format!("binary decode and conversion: {error}")),
                Ok(from_binary) => {
                    if from_binary != message {
                        outcome.failures.push(
                            "the SDK's binary and JSON give different a2a-types values".to_owned(),
                        );
                    }
                    let proto: P = from_binary.clone().into();
                    binary_out = proto.encode_to_vec();
                    outcome.binary_identical = Some(&binary_out == sdk_binary);
                    match serde_json::to_string(&from_binary) {
                        Ok(text) => {
                            outcome.compare_json("binary in, JSON out", &text, &vector.expected)
                        }
                        Err(error) => outcome
                            .failures
                            .push(format!("binary in, JSON out: encode: {error}")),
                    }
                }
            }
        }
        outcome.output = Some((json_out, binary_out));
        outcome
    }
}

/// `ours` without the members that are `{}` in ours and absent from the SDK's JSON, at any depth.
fn without_added_empty_objects(ours: &Value, sdk: &Value) -> Value {
    match (ours, sdk) {
        (Value::Object(ours), Value::Object(sdk)) => Value::Object(
            ours.iter()
                .filter(|(key, value)| sdk.contains_key(*key) || **value != json!({}))
                .map(|(key, value)| {
                    (
                        key.clone(),
                        sdk.get(key)
                            .map_or(value.clone(), |s| without_added_empty_objects(value, s)),
                    )
                })
                .collect(),
        ),
        (Value::Array(ours), Value::Array(sdk)) if ours.len() == sdk.len() => Value::Array(
            ours.iter()
                .zip(sdk)
                .map(|(o, s)| without_added_empty_objects(o, s))
                .collect(),
        ),
        _ => ours.clone(),
    }
}

/// The [`Decoder`] for `a2a-proto`.
fn a2a_proto_v1(vector: &Vector) -> Outcome {
    a2a_proto::v1::visit_message(&vector.type_name, ProtoRoundTrip(vector))
        .unwrap_or_else(|| Outcome::failed("a2a-proto has no message type of this name".to_owned()))
}

#[test]
fn every_vector_of_the_python_sdk_round_trips_and_the_sdk_reads_our_output() {
    let suite = Suite {
        name: "v1",
        package_args: &[],
        sdk_module: "a2a.types.a2a_pb2",
    };
    run_suite(
        &suite,
        DECODERS,
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
    );
}
