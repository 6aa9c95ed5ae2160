//! The typify-generated serde types of `a2a-types` read and write exactly the canonical ProtoJSON of
//! every `lf.a2a.v1` message, and follow the same edge-case rules as `a2a-proto`.

use a2a_tests::fixture;
use a2a_types::registry::{A2aMessage, MessageVisitor};
use serde_json::Value;

#[test]
fn every_message_type_has_a_serde_type() {
    assert_eq!(a2a_types::v1::MESSAGE_NAMES, a2a_proto::v1::MESSAGE_NAMES);
}

struct FixtureRoundTrip;

impl MessageVisitor for FixtureRoundTrip {
    type Output = Result<(), String>;

    fn visit<M: A2aMessage>(self) -> Self::Output {
        let name = M::FULL_NAME;
        let text = fixture(&format!(
            "v1/{}.json",
            name.trim_start_matches("lf.a2a.v1.")
        ));
        let expected: Value = serde_json::from_str(&text).unwrap();
        let message: M = serde_json::from_str(&text).map_err(|e| format!("{name}: parse: {e}"))?;
        let written = serde_json::to_value(&message).map_err(|e| format!("{name}: write: {e}"))?;
        if written != expected {
            return Err(format!(
                "{name}: written JSON differs\n ours:    {written}\n fixture: {expected}"
            ));
        }
        let again: M =
            serde_json::from_value(written).map_err(|e| format!("{name}: re-parse: {e}"))?;
        if again != message {
            return Err(format!("{name}: a second round trip changed the value"));
        }
        Ok(())
    }
}

#[test]
fn every_fixture_round_trips_exactly() {
    let mut failures = Vec::new();
    for name in a2a_types::v1::MESSAGE_NAMES {
        if let Err(failure) = a2a_types::v1::visit_message(name, FixtureRoundTrip).unwrap() {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        a2a_types::v1::MESSAGE_NAMES.len(),
        failures.join("\n")
    );
}
