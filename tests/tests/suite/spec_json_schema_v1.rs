//! `spec/v1/generated/a2a.json` is a working JSON Schema: a standard validator (the `jsonschema` crate, draft
//! 2020-12, formats checked) accepts every canonical fixture and rejects realistic broken documents,
//! pointing at the offending member.

use a2a_tests::{fixture, workspace_root};
use serde_json::{Value, json};

fn bundle() -> Value {
    let text =
        std::fs::read_to_string(workspace_root().join("spec/v1/generated/a2a.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A validator for one definition of the bundle.
fn validator(bundle: &Value, definition: &str) -> jsonschema::Validator {
    assert!(
        bundle["$defs"].get(definition).is_some(),
        "no definition {definition}"
    );
    let mut schema = bundle.clone();
    schema["$ref"] = format!("#/$defs/{definition}").into();
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{definition}: the schema does not compile: {e}"))
}

/// Paths (JSON pointers) of the members a document is rejected for.
fn rejected_at(bundle: &Value, definition: &str, document: &Value) -> Vec<String> {
    validator(bundle, definition)
        .iter_errors(document)
        .map(|e| e.instance_path().to_string())
        .collect()
}

#[test]
fn every_fixture_is_valid() {
    let bundle = bundle();
    let messages = a2a_proto::v1::MESSAGE_NAMES;
    for full_name in messages {
        let name = full_name.trim_start_matches("lf.a2a.v1.");
        let document: Value = serde_json::from_str(&fixture(&format!("v1/{name}.json"))).unwrap();
        let errors: Vec<String> = validator(&bundle, name)
            .iter_errors(&document)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{name} fixture rejected:\n  {}",
            errors.join("\n  ")
        );
    }
    // One definition per message and enum, plus Timestamp, Struct and Value.
    assert_eq!(
        bundle["$defs"].as_object().unwrap().len(),
        messages.len() + 2 + 3
    );
}

#[test]
fn broken_documents_are_rejected_at_the_right_member() {
    let bundle = bundle();
    let message = json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hello"}]});
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "Message",
            json!({"role": "ROLE_USER", "parts": [{"text": "hi"}]}),
            "",
        ), // messageId missing
        (
            "Message",
            json!({"messageId": "", "role": "ROLE_USER", "parts": [{"text": "hi"}]}),
            "/messageId",
        ),
        (
            "Message",
            json!({"messageId": "m-1", "role": "ROLE_USER", "parts": []}),
            "/parts",
        ),
        (
            "Message",
            json!({"messageId": "m-1", "role": "ROLE_UNSPECIFIED", "parts": [{"text": "hi"}]}),
            "/role",
        ),
        (
            "Message",
            json!({"messageId": "m-1", "role": "user", "parts": [{"text": "hi"}]}),
            "/role",
        ),
        (
            "Message",
            json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "a", "url": "https://x.example"}]}),
            "/parts/0",
        ),
        (
            "Message",
            json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"mediaType": "text/plain"}]}),
            "/parts/0",
        ),
        ("Part", json!({"raw": "not base64!"}), "/raw"),
        (
            "TaskStatus",
            json!({"state": "TASK_STATE_WORKING", "timestamp": "yesterday"}),
            "/timestamp",
        ),
        (
            "ListTasksRequest",
            json!({"pageSize": 2147483648_u64}),
            "/pageSize",
        ),
        (
            "AgentCard",
            json!({"name": "Wayfarer", "description": "Trips", "version": "1.0.0",
            "supportedInterfaces": [{"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "book", "name": "Book", "description": "Books trips", "tags": []}]}),
            "/skills/0/tags",
        ),
        ("SecurityScheme", json!({}), ""),
        (
            "StreamResponse",
            json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}, "message": message}),
            "",
        ),
    ];
    for (definition, document, path) in cases {
        let paths = rejected_at(&bundle, definition, &document);
        assert!(
            paths.iter().any(|p| p == path),
            "{definition} {document}: expected an error at {path:?}, got {paths:?}"
        );
    }
}

#[test]
fn lenient_but_valid_documents_are_accepted() {
    let bundle = bundle();
    // Unknown members (spec section 5.7), JSON null as data, any timestamp offset, URL-safe base64.
    let task = json!({
        "id": "t-1",
        "kind": "task",
        "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T10:26:53.5+01:00"},
        "artifacts": [{"artifactId": "a-1", "parts": [{"data": null}, {"raw": "_-8AAQ"}]}]
    });
    assert_eq!(rejected_at(&bundle, "Task", &task), Vec::<String>::new());
}
