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
        // The generated encoder writes exactly the bytes serde writes.
        let encoded =
            a2a_types::json::to_vec(&message).map_err(|e| format!("{name}: encode: {e}"))?;
        let serialized = serde_json::to_vec(&message).map_err(|e| format!("{name}: write: {e}"))?;
        if encoded != serialized {
            return Err(format!(
                "{name}: the encoder and serde differ\n encoder: {}\n serde:   {}",
                String::from_utf8_lossy(&encoded),
                String::from_utf8_lossy(&serialized)
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

/// `a2a_types` → `a2a_proto` (`From`) and back (`TryFrom`) on every fixture: each direction gives exactly
/// the value the other crate parses from the same JSON.
struct ConversionRoundTrip;

impl a2a_types::registry::ProtoPairVisitor for ConversionRoundTrip {
    type Output = Result<(), String>;

    fn visit<M, P>(self) -> Self::Output
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = a2a_types::proto::ConversionError>,
        P: a2a_proto::registry::ProtoMessage,
    {
        let name = M::FULL_NAME;
        let text = fixture(&format!(
            "v1/{}.json",
            name.trim_start_matches("lf.a2a.v1.")
        ));
        let types: M = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        let proto: P = a2a_proto::json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        let converted: P = types.clone().into();
        if converted != proto {
            return Err(format!(
                "{name}: From gives a different protobuf message\n ours:   {converted:?}\n parsed: {proto:?}"
            ));
        }
        let back = M::try_from(proto).map_err(|e| format!("{name}: TryFrom: {e}"))?;
        if back != types {
            return Err(format!(
                "{name}: TryFrom gives a different value\n ours:   {back:?}\n parsed: {types:?}"
            ));
        }
        Ok(())
    }
}

#[test]
fn every_fixture_converts_to_and_from_the_protobuf_types() {
    let mut failures = Vec::new();
    for name in a2a_types::v1::MESSAGE_NAMES {
        if let Err(failure) = a2a_types::v1::visit_proto_pair(name, ConversionRoundTrip).unwrap() {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn conversion_errors_name_the_field() {
    use a2a_proto::v1 as pb;
    use a2a_proto::wkt;
    let card = pb::AgentCard {
        name: "Wayfarer".into(),
        security_schemes: [(
            "oauth".to_owned(),
            pb::SecurityScheme {
                scheme: Some(pb::security_scheme::Scheme::Oauth2SecurityScheme(
                    pb::OAuth2SecurityScheme {
                        flows: Some(pb::OAuthFlows { flow: None }),
                        ..Default::default()
                    },
                )),
            },
        )]
        .into(),
        ..Default::default()
    };
    let err = a2a_types::v1::AgentCard::try_from(card).unwrap_err();
    assert_eq!(
        err.path(),
        r#"securitySchemes["oauth"].oauth2SecurityScheme.flows"#
    );
    assert!(err.reason().contains("expected exactly one of"), "{err}");

    let message = pb::Message {
        message_id: "m-1".into(),
        parts: vec![
            pb::Part::default(),
            pb::Part {
                content: Some(pb::part::Content::Data(
                    wkt::ListValue::from_iter([1.0, f64::NAN]).into(),
                )),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let err = a2a_types::v1::Message::try_from(message).unwrap_err();
    assert_eq!(err.path(), "parts[1].data[1]");
    assert!(
        err.to_string().starts_with("at `parts[1].data[1]`: NaN"),
        "{err}"
    );

    let status = pb::TaskStatus {
        timestamp: Some(wkt::Timestamp {
            seconds: 0,
            nanos: -1,
        }),
        ..Default::default()
    };
    assert_eq!(
        a2a_types::v1::TaskStatus::try_from(status)
            .unwrap_err()
            .path(),
        "timestamp"
    );
}
