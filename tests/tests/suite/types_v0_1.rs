//! `a2a_compat::v0_1`, the serde types of A2A v0.1's JSON-RPC binding (0.1.0): every schema definition
//! is a type, every document the schema accepts reads and writes back unchanged (members with a default
//! included or left out, as sent), and the unions pick their variant by their discriminator (`type`
//! for parts, `method` for requests).

use a2a_compat::v0_1::{self, A2aRequest, Part, SendTaskStreamingResult, TaskState};
use a2a_tests::schema_values::SchemaValues;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::types_v0_2::RoundTrip;

#[test]
fn every_schema_definition_is_a_type() {
    let schema = SchemaValues::v0_1();
    let mut definitions = schema.definitions();
    definitions.sort();
    let mut types: Vec<String> = v0_1::SCHEMA_TYPES.iter().map(|s| s.to_string()).collect();
    types.sort();
    assert_eq!(types, definitions);
    assert_eq!(types.len(), 50);
}

/// v0.1's schema, with status timestamps generated as the date-times its `format` asks for (the
/// types keep them as text, as sent).
fn schema() -> SchemaValues {
    SchemaValues::v0_1().with_member(
        "timestamp",
        a2a_tests::strategy::timestamp()
            .prop_map(|t| {
                Value::from(t.to_rfc3339_opts(a2a_types::chrono::SecondsFormat::AutoSi, true))
            })
            .boxed(),
    )
}

#[test]
fn every_valid_document_of_every_type_round_trips_exactly() {
    let schema = schema();
    let failures: Vec<String> = v0_1::SCHEMA_TYPES
        .iter()
        .filter_map(|name| {
            v0_1::visit_schema_type(
                name,
                RoundTrip {
                    schema: &schema,
                    name,
                },
            )
            .expect("every schema type is visitable")
            .err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn parts_are_chosen_by_type_and_a_wrong_one_says_what_was_expected() {
    let part: Part = serde_json::from_value(json!({"type": "data", "data": {"n": 1}})).unwrap();
    assert!(matches!(part, Part::Data(_)));
    let part: Part =
        serde_json::from_value(json!({"type": "file", "file": {"uri": "https://x.test/a.pdf"}}))
            .unwrap();
    assert!(
        matches!(part, Part::File(ref p) if p.file.uri.as_deref() == Some("https://x.test/a.pdf"))
    );
    let wrong = serde_json::from_value::<Part>(json!({"type": "file", "text": "x"})).unwrap_err();
    assert!(
        wrong.to_string().contains("missing field `file`"),
        "{wrong}"
    );
    let wrong = serde_json::from_value::<Part>(json!({"type": "image"})).unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains(r#"unknown type "image" for Part, expected one of `text`, `file`, `data`"#),
        "{wrong}"
    );
    // v0.2's `kind` is not v0.1's discriminator: the part is read by its members, and `kind` ignored.
    let part: Part = serde_json::from_value(json!({"kind": "text", "text": "hi"})).unwrap();
    assert_eq!(
        serde_json::to_value(&part).unwrap(),
        json!({"type": "text", "text": "hi"})
    );
}

#[test]
fn requests_are_chosen_by_method_and_states_are_lower_case() {
    let request: A2aRequest = serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tasks/pushNotification/get", "params": {"id": "t-1"}
    }))
    .unwrap();
    assert!(matches!(request, A2aRequest::GetTaskPushNotification(_)));
    let wrong = serde_json::from_value::<A2aRequest>(json!({
        "jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {}
    }))
    .unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains(r#"unknown method "message/send""#),
        "{wrong}"
    );
    let state: TaskState = serde_json::from_value(json!("input-required")).unwrap();
    assert_eq!(state, TaskState::InputRequired);
    assert!(serde_json::from_value::<TaskState>(json!("TASK_STATE_WORKING")).is_err());
    let event: SendTaskStreamingResult = serde_json::from_value(json!({
        "id": "t-1", "artifact": {"parts": [{"type": "text", "text": "a"}], "index": 0}
    }))
    .unwrap();
    assert!(matches!(event, SendTaskStreamingResult::Artifact(_)));
}
