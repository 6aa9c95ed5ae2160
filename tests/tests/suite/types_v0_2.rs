//! `a2a_compat::v0_2`, the serde types of A2A v0.2's JSON-RPC binding (0.2.6): every schema definition
//! is a type, every document the schema accepts reads and writes back unchanged, and the unions pick
//! their variant by their discriminator (`kind` for parts and results, `method`, `code`).

use a2a_compat::v0_2::{self, A2aRequest, FileContent, Part, SendStreamingMessageResult};
use a2a_tests::schema_values::SchemaValues;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use serde_json::{Value, json};

/// The name a schema type's visitor answers, to check the registry.
struct Name;

impl SchemaTypeVisitor for Name {
    type Output = &'static str;
    fn visit<T: SchemaType>(self) -> &'static str {
        T::SCHEMA_NAME
    }
}

/// For one schema type: generated valid documents are valid for a standard validator (so the
/// generator is right), read into the type, and write back exactly.
pub(crate) struct RoundTrip<'a> {
    pub(crate) schema: &'a SchemaValues,
    pub(crate) name: &'a str,
}

impl SchemaTypeVisitor for RoundTrip<'_> {
    type Output = Result<(), String>;

    fn visit<T: SchemaType>(self) -> Result<(), String> {
        let mut root = self.schema.root().clone();
        root["$ref"] = format!("#/definitions/{}", self.name).into();
        let validator = jsonschema::draft7::new(&root).map_err(|e| e.to_string())?;
        a2a_tests::proptest_runner(64)
            .run(&self.schema.definition(self.name), |document| {
                if let Err(error) = validator.validate(&document) {
                    panic!(
                        "the generator made an invalid {}: {error}: {document}",
                        self.name
                    );
                }
                let parsed: T = serde_json::from_value(document.clone()).map_err(|e| {
                    proptest::test_runner::TestCaseError::fail(format!("parse: {e}"))
                })?;
                let written = serde_json::to_value(&parsed).expect("serializes");
                proptest::prop_assert_eq!(&written, &document);
                let again: T = serde_json::from_value(written).expect("reads its own output");
                proptest::prop_assert_eq!(again, parsed);
                Ok(())
            })
            .map_err(|e| format!("{}: {e}", self.name))
    }
}

#[test]
fn every_schema_definition_is_a_type() {
    let schema = SchemaValues::v0_2();
    let mut definitions = schema.definitions();
    definitions.sort();
    let mut types: Vec<String> = v0_2::SCHEMA_TYPES.iter().map(|s| s.to_string()).collect();
    types.sort();
    assert_eq!(types, definitions);
    assert_eq!(types.len(), 86);
    for name in v0_2::SCHEMA_TYPES {
        assert_eq!(v0_2::visit_schema_type(name, Name), Some(*name));
    }
    assert_eq!(v0_2::visit_schema_type("NoSuchType", Name), None);
}

#[test]
fn every_valid_document_of_every_type_round_trips_exactly() {
    let schema = SchemaValues::v0_2();
    let failures: Vec<String> = v0_2::SCHEMA_TYPES
        .iter()
        .filter_map(|name| {
            v0_2::visit_schema_type(
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
fn unions_pick_their_variant_by_discriminator_and_name_what_was_expected() {
    let part: Part =
        serde_json::from_value(json!({"kind": "file", "file": {"uri": "https://x.test/a"}}))
            .unwrap();
    assert!(matches!(part, Part::File(ref p) if matches!(p.file, FileContent::Uri(_))));
    let wrong = serde_json::from_value::<Part>(json!({"kind": "image", "text": "x"})).unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains(r#"unknown kind "image" for Part"#),
        "{wrong}"
    );
    let event: SendStreamingMessageResult = serde_json::from_value(json!({
        "kind": "status-update", "taskId": "t-1", "contextId": "c-1",
        "status": {"state": "working"}, "final": false
    }))
    .unwrap();
    assert!(matches!(
        event,
        SendStreamingMessageResult::TaskStatusUpdateEvent(_)
    ));
    // v0.3's methods are not v0.2's: `agent/getAuthenticatedExtendedCard` came with v0.3.
    let wrong = serde_json::from_value::<A2aRequest>(json!({
        "jsonrpc": "2.0", "id": 1, "method": "agent/getAuthenticatedExtendedCard"
    }))
    .unwrap_err();
    assert!(wrong.to_string().contains("unknown method"), "{wrong}");
    let request: Value = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/pushNotificationConfig/list",
                                "params": {"id": "t-1"}});
    assert!(matches!(
        serde_json::from_value::<A2aRequest>(request).unwrap(),
        A2aRequest::ListTaskPushNotificationConfig(_)
    ));
}
