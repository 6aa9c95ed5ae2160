//! Every `lf.a2a.v1` message, from its fixture in `tests/fixtures/v1/`: ProtoJSON in, the same canonical
//! ProtoJSON out, binary encode/decode, and agreement with an independent protobuf implementation
//! (`prost-reflect`'s dynamic messages) in both directions.
//!
//! The fixtures are canonical ProtoJSON as the official Python SDK's `json_format` prints it, so writing
//! them back unchanged proves our output matches. A message type without a fixture fails the suite.

use std::collections::BTreeSet;

use a2a_proto::registry::{MessageVisitor, ProtoMessage};
use a2a_tests::{fixture, json_equivalent, workspace_root};
use prost::Message as _;
use prost_reflect::{DescriptorPool, DynamicMessage};
use serde_json::Value;

fn pool() -> DescriptorPool {
    DescriptorPool::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET).unwrap()
}

/// Message types of the package as the descriptor lists them (map entries are not messages of their own).
fn descriptor_message_names() -> BTreeSet<String> {
    pool()
        .all_messages()
        .filter(|m| m.package_name() == "lf.a2a.v1" && !m.is_map_entry())
        .map(|m| m.full_name().to_owned())
        .collect()
}

fn fixture_name(full_name: &str) -> String {
    format!("v1/{}.json", full_name.trim_start_matches("lf.a2a.v1."))
}

/// Fails on a message type of the descriptor that the registry does not know or that has no fixture,
/// and on a fixture of no message type, naming each by its full proto name and the file concerned, all
/// at once: a spec bump that adds messages gets the whole to-do list from one run of this test.
#[test]
fn registry_and_fixtures_cover_every_message_of_the_descriptor() {
    let in_descriptor = descriptor_message_names();
    let in_registry: BTreeSet<String> = a2a_proto::v1::MESSAGE_NAMES
        .iter()
        .map(|n| n.to_string())
        .collect();
    let mut problems = Vec::new();
    for name in in_descriptor.difference(&in_registry) {
        problems.push(format!(
            "{name}: in the descriptor but not in a2a_proto::v1::MESSAGE_NAMES, so visit_message \
             does not know it (run `cargo xtask codegen`)"
        ));
    }
    for name in in_registry.difference(&in_descriptor) {
        problems.push(format!(
            "{name}: in a2a_proto::v1::MESSAGE_NAMES but not in the descriptor"
        ));
    }

    for name in &in_descriptor {
        let path = format!("tests/fixtures/{}", fixture_name(name));
        if !workspace_root().join(&path).is_file() {
            problems.push(format!(
                "{name}: no fixture; add {path} (see tests/fixtures/v1/README.md)"
            ));
        }
    }

    let mut strays: Vec<_> = std::fs::read_dir(workspace_root().join("tests/fixtures/v1"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|file| file.strip_suffix(".json").map(str::to_owned))
        .filter(|stem| !in_descriptor.contains(&format!("lf.a2a.v1.{stem}")))
        .collect();
    strays.sort();
    for stem in strays {
        problems.push(format!(
            "tests/fixtures/v1/{stem}.json: a fixture for no message type (lf.a2a.v1.{stem} is not \
             in the descriptor)"
        ));
    }

    assert!(
        problems.is_empty(),
        "the v1 message types, the registry and tests/fixtures/v1/ disagree ({} found):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

struct FixtureRoundTrip {
    full_name: String,
    pool: DescriptorPool,
}

impl MessageVisitor for FixtureRoundTrip {
    type Output = Result<(), String>;

    fn visit<M: ProtoMessage>(self) -> Self::Output {
        let name = &self.full_name;
        let text = fixture(&fixture_name(name));
        let expected: Value =
            serde_json::from_str(&text).map_err(|e| format!("{name}: fixture: {e}"))?;
        let message: M =
            a2a_proto::json::from_str(&text).map_err(|e| format!("{name}: parse: {e}"))?;
        if message == M::default() {
            return Err(format!("{name}: the fixture parsed to an empty message"));
        }

        // Canonical ProtoJSON in, the same out: exact JSON equality (so `42` is not `42.0`).
        let written = serde_json::to_value(&message).map_err(|e| format!("{name}: write: {e}"))?;
        if written != expected {
            return Err(format!(
                "{name}: written JSON differs\n ours:    {written}\n fixture: {expected}"
            ));
        }

        // Binary round trip.
        let bytes = message.encode_to_vec();
        let decoded = M::decode(bytes.as_slice()).map_err(|e| format!("{name}: decode: {e}"))?;
        if decoded != message {
            return Err(format!("{name}: binary round trip changed the message"));
        }

        // An independent implementation reads our bytes and writes the same JSON ...
        let descriptor = self
            .pool
            .get_message_by_name(name)
            .ok_or("not in the pool")?;
        let dynamic = DynamicMessage::decode(descriptor.clone(), bytes.as_slice())
            .map_err(|e| format!("{name}: prost-reflect decode: {e}"))?;
        let theirs = serde_json::to_value(&dynamic)
            .map_err(|e| format!("{name}: prost-reflect write: {e}"))?;
        if !json_equivalent(&theirs, &expected) {
            return Err(format!(
                "{name}: prost-reflect reads our bytes differently\n theirs:  {theirs}\n fixture: {expected}"
            ));
        }

        // ... and its reading of the JSON encodes to bytes we decode to the same message.
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let from_json = DynamicMessage::deserialize(descriptor, &mut deserializer)
            .map_err(|e| format!("{name}: prost-reflect parse: {e}"))?;
        let via_theirs =
            M::decode(from_json.encode_to_vec().as_slice()).map_err(|e| format!("{name}: {e}"))?;
        if via_theirs != message {
            return Err(format!(
                "{name}: prost-reflect's bytes decode to a different message"
            ));
        }
        Ok(())
    }
}

#[test]
fn every_message_round_trips_through_json_and_binary() {
    let pool = pool();
    let mut failures = Vec::new();
    let mut passed = 0;
    for full_name in a2a_proto::v1::MESSAGE_NAMES {
        let visitor = FixtureRoundTrip {
            full_name: full_name.to_string(),
            pool: pool.clone(),
        };
        match a2a_proto::v1::visit_message(full_name, visitor).expect("registered") {
            Ok(()) => passed += 1,
            Err(failure) => failures.push(failure),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        passed + failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, descriptor_message_names().len());
}

#[test]
fn unknown_names_are_not_dispatched() {
    struct Never;
    impl MessageVisitor for Never {
        type Output = ();
        fn visit<M: ProtoMessage>(self) {
            panic!("dispatched to {}", M::full_name());
        }
    }
    assert!(a2a_proto::v1::visit_message("lf.a2a.v1.NoSuchMessage", Never).is_none());
    assert!(a2a_proto::v1::visit_message("Task", Never).is_none());
}
