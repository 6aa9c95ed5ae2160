//! Property-based round trips for every `lf.a2a.v1` message, both directions between the two forms:
//!
//! serde value → ProtoJSON (a2a-types) → protobuf (a2a-proto, pbjson) → binary → protobuf → ProtoJSON →
//! serde value gives back an equal value, the two JSON texts are equal, the generated encoder
//! (`a2a_types::json::to_string`) writes the same text as serde, and the generated `From` /
//! `TryFrom` conversions agree with that JSON route.
//!
//! Runs `PROPTEST_CASES` cases per message type (proptest's default, 256, when unset).

use std::collections::BTreeSet;

use a2a_proto::registry::ProtoMessage;
use a2a_tests::RoundTrip;
use a2a_types::proto::ConversionError;
use a2a_types::registry::A2aMessage;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use prost_reflect::DescriptorPool;
use serde_json::Value;

fn round_trip<M, P>(value: &M) -> Result<(), String>
where
    M: A2aMessage + Into<P> + TryFrom<P, Error = ConversionError>,
    P: ProtoMessage,
{
    let json_from_types = serde_json::to_string(value).map_err(|e| format!("serde write: {e}"))?;
    let encoded = a2a_types::json::to_string(value).map_err(|e| format!("encoder: {e}"))?;
    if encoded != json_from_types {
        return Err(format!(
            "the generated encoder and serde write different JSON\n encoder: {encoded}\n serde:   {json_from_types}"
        ));
    }
    let proto: P = a2a_proto::json::from_str(&json_from_types)
        .map_err(|e| format!("pbjson read of {json_from_types}: {e}"))?;
    let decoded =
        P::decode(proto.encode_to_vec().as_slice()).map_err(|e| format!("binary: {e}"))?;
    if decoded != proto {
        return Err("binary round trip changed the protobuf message".into());
    }
    let json_from_proto =
        a2a_proto::json::to_string(&decoded).map_err(|e| format!("pbjson write: {e}"))?;
    let back: M = serde_json::from_str(&json_from_proto)
        .map_err(|e| format!("serde read of {json_from_proto}: {e}"))?;
    if &back != value {
        return Err(format!(
            "JSON round trip changed the value\n types JSON: {json_from_types}\n proto JSON: {json_from_proto}"
        ));
    }
    let (a, b): (Value, Value) = (
        serde_json::from_str(&json_from_types).unwrap(),
        serde_json::from_str(&json_from_proto).unwrap(),
    );
    if a != b {
        return Err(format!(
            "the two JSON forms differ\n types: {a}\n proto: {b}"
        ));
    }
    let converted: P = value.clone().into();
    if converted != proto {
        return Err(format!(
            "From disagrees with the JSON route\n From: {converted:?}\n JSON: {proto:?}"
        ));
    }
    match M::try_from(converted) {
        Ok(again) if &again == value => Ok(()),
        Ok(again) => Err(format!("TryFrom gives a different value: {again:?}")),
        Err(error) => Err(format!("TryFrom: {error}")),
    }
}

#[derive(Default)]
struct Checker {
    covered: BTreeSet<String>,
    failures: Vec<String>,
}

impl RoundTrip for Checker {
    fn run<M, P>(&mut self, strategy: BoxedStrategy<M>)
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = ConversionError>,
        P: ProtoMessage,
    {
        let config = Config {
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(failure) = runner.run(&strategy, |value| {
            round_trip::<M, P>(&value).map_err(TestCaseError::fail)
        }) {
            self.failures.push(format!("{}: {failure}", M::FULL_NAME));
        }
        if M::FULL_NAME != P::full_name() {
            self.failures.push(format!(
                "{} is paired with {}",
                M::FULL_NAME,
                P::full_name()
            ));
        }
        self.covered.insert(M::FULL_NAME.to_owned());
    }
}

#[test]
fn every_message_round_trips_between_serde_protojson_and_binary() {
    let mut checker = Checker::default();
    a2a_tests::strategies_v1::for_each_message(&mut checker);
    assert!(
        checker.failures.is_empty(),
        "{}",
        checker.failures.join("\n\n")
    );

    // The descriptor decides what "every message" means: a message type without a strategy fails here.
    let pool = DescriptorPool::decode(a2a_proto::v1::FILE_DESCRIPTOR_SET).unwrap();
    let in_descriptor: BTreeSet<String> = pool
        .all_messages()
        .filter(|m| m.package_name() == "lf.a2a.v1" && !m.is_map_entry())
        .map(|m| m.full_name().to_owned())
        .collect();
    let missing: Vec<_> = in_descriptor.difference(&checker.covered).collect();
    assert!(
        missing.is_empty(),
        "message types without a property test: {missing:?}"
    );
}
