//! `a2a_compat::v0_3`, the serde types of A2A v0.3's JSON-RPC binding: every schema definition is a type,
//! every document the schema accepts reads and writes back unchanged, and every union picks its variant
//! by its discriminator, with errors that say what was expected.

use a2a_compat::v0_3::{
    self, A2aError, A2aRequest, FileContent, GetTaskPushNotificationConfigRequestParams,
    JsonRpcError, JsonRpcId, JsonRpcResponse, Part, SecurityScheme, SendMessageResponse,
    SendMessageResult, SendStreamingMessageResult, TaskNotFoundError,
};
use a2a_tests::schema_values::SchemaValues;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use serde_json::{Value, json};

fn parse<T: serde::de::DeserializeOwned>(json: Value) -> Result<T, String> {
    serde_json::from_value(json).map_err(|e| e.to_string())
}

fn error_of<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: Value) -> String {
    match parse::<T>(json.clone()) {
        Ok(parsed) => panic!("accepted {json}: {parsed:?}"),
        Err(e) => e,
    }
}

#[test]
fn every_schema_definition_is_a_type() {
    let schema = SchemaValues::v0_3();
    let mut definitions = schema.definitions();
    definitions.sort();
    let mut types: Vec<String> = v0_3::SCHEMA_TYPES.iter().map(|s| s.to_string()).collect();
    types.sort();
    assert_eq!(types, definitions);
    assert_eq!(types.len(), 93);
    struct Name;
    impl SchemaTypeVisitor for Name {
        type Output = &'static str;
        fn visit<T: SchemaType>(self) -> &'static str {
            T::SCHEMA_NAME
        }
    }
    for name in v0_3::SCHEMA_TYPES {
        assert_eq!(v0_3::visit_schema_type(name, Name), Some(*name));
    }
    assert_eq!(v0_3::visit_schema_type("NoSuchType", Name), None);
}

/// For one schema type: generated valid documents are valid for a standard validator (so the generator
/// is right), read into the type, and write back exactly.
struct RoundTrip<'a> {
    schema: &'a SchemaValues,
    name: &'a str,
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
fn every_valid_document_of_every_type_round_trips_exactly() {
    let schema = SchemaValues::v0_3();
    let failures = a2a_tests::v0_3_type_failures(|name| RoundTrip {
        schema: &schema,
        name,
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn part_kind_selects_the_variant_and_a_wrong_one_says_what_was_expected() {
    let text: Part = parse(json!({"kind": "text", "text": "hi"})).unwrap();
    assert!(matches!(text, Part::Text(ref p) if p.text == "hi"));
    let file: Part =
        parse(json!({"kind": "file", "file": {"uri": "https://x.test/a.pdf", "mimeType": "application/pdf"}}))
            .unwrap();
    assert!(matches!(file, Part::File(ref p) if matches!(p.file, FileContent::Uri(_))));
    let data: Part = parse(json!({"kind": "data", "data": {"n": 1}})).unwrap();
    assert!(matches!(data, Part::Data(_)));

    // The raw typify output read this as a text part.
    let e = error_of::<Part>(json!({"kind": "file", "text": "x"}));
    assert!(
        e.contains("FilePart") && e.contains("missing field `file`"),
        "{e}"
    );
    let e = error_of::<Part>(json!({"kind": "image", "text": "x"}));
    assert!(
        e.contains(r#"unknown kind "image" for Part, expected one of `text`, `file`, `data`"#),
        "{e}"
    );
    let e = error_of::<Part>(json!({"kind": 3, "text": "x"}));
    assert!(e.contains("unknown kind 3"), "{e}");
    // Inside a variant, the error names the member, through nested unions too.
    let e = error_of::<Part>(json!({"kind": "file", "file": {"uri": 5}}));
    assert!(
        e.contains("Part (FilePart): at `file`: FileContent (FileWithUri): at `uri`: invalid type: integer `5`"),
        "{e}"
    );
}

#[test]
fn a_missing_kind_is_inferred_and_always_written() {
    let part: Part = parse(json!({"text": "no kind"})).unwrap();
    assert_eq!(
        serde_json::to_value(&part).unwrap(),
        json!({"kind": "text", "text": "no kind"})
    );
    let part: Part = parse(json!({"file": {"bytes": "aGk="}})).unwrap();
    assert!(matches!(part, Part::File(ref p) if matches!(p.file, FileContent::Bytes(_))));

    // The spec's own examples leave `kind` out of messages.
    let message = json!({"role": "user", "messageId": "m-1", "parts": [{"text": "hello"}]});
    let result: SendMessageResult = parse(message).unwrap();
    let SendMessageResult::Message(message) = &result else {
        panic!("a message: {result:?}")
    };
    assert_eq!(
        serde_json::to_value(message).unwrap(),
        json!({"kind": "message", "role": "user", "messageId": "m-1", "parts": [{"kind": "text", "text": "hello"}]})
    );
    let task = json!({"id": "t-1", "contextId": "c-1", "status": {"state": "working"}});
    assert!(matches!(
        parse::<SendMessageResult>(task).unwrap(),
        SendMessageResult::Task(_)
    ));
    let event = json!({"taskId": "t-1", "contextId": "c-1", "final": true, "status": {"state": "completed"}});
    assert!(matches!(
        parse::<SendStreamingMessageResult>(event).unwrap(),
        SendStreamingMessageResult::TaskStatusUpdateEvent(ref e) if e.final_
    ));
}

#[test]
fn members_of_two_variants_or_of_none_are_errors_not_guesses() {
    let e = error_of::<Part>(json!({"text": "a", "data": {}}));
    assert!(
        e.contains("ambiguous Part")
            && e.contains("`text` (TextPart)")
            && e.contains("`data` (DataPart)"),
        "{e}"
    );
    let e = error_of::<Part>(json!({"metadata": {}}));
    assert!(
        e.contains("cannot tell which Part this is: no `kind`"),
        "{e}"
    );
    let e = error_of::<FileContent>(json!({"bytes": "aGk=", "uri": "https://x.test"}));
    assert!(e.contains("ambiguous FileContent"), "{e}");
}

#[test]
fn the_method_selects_the_request_and_is_required() {
    let request = |method: &str| json!({"jsonrpc": "2.0", "id": "r-1", "method": method, "params": {"id": "t-1"}});
    // The raw typify output read these two as `tasks/get`.
    assert!(matches!(
        parse::<A2aRequest>(request("tasks/cancel")).unwrap(),
        A2aRequest::CancelTask(_)
    ));
    assert!(matches!(
        parse::<A2aRequest>(request("tasks/pushNotificationConfig/get")).unwrap(),
        A2aRequest::GetTaskPushNotificationConfig(ref r)
            if matches!(r.params, GetTaskPushNotificationConfigRequestParams::TaskId(_))
    ));
    assert!(matches!(
        parse::<A2aRequest>(request("tasks/resubscribe")).unwrap(),
        A2aRequest::TaskResubscription(_)
    ));
    let e = error_of::<A2aRequest>(request("tasks/delete"));
    assert!(
        e.contains(r#"unknown method "tasks/delete" for A2aRequest, expected one of `message/send`, `message/stream`, `tasks/get`"#),
        "{e}"
    );
    let mut missing = request("tasks/get");
    missing.as_object_mut().unwrap().remove("method");
    let e = error_of::<A2aRequest>(missing);
    assert!(e.contains("missing field `method` for A2aRequest"), "{e}");
    // A request type on its own checks its method too.
    let e = error_of::<v0_3::GetTaskRequest>(request("tasks/cancel"));
    assert!(
        e.contains(r#"expected `tasks/get`, found "tasks/cancel""#),
        "{e}"
    );
}

#[test]
fn jsonrpc_version_and_ids() {
    let e = error_of::<v0_3::GetTaskRequest>(
        json!({"jsonrpc": "1.0", "id": 1, "method": "tasks/get", "params": {"id": "t"}}),
    );
    assert!(e.contains(r#"expected `2.0`, found "1.0""#), "{e}");
    for (id, expected) in [
        (json!("abc"), JsonRpcId::from("abc")),
        (json!(42), JsonRpcId::from(42)),
    ] {
        let request: v0_3::GetTaskRequest = parse(
            json!({"jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": {"id": "t"}}),
        )
        .unwrap();
        assert_eq!(request.id, expected);
    }
    let e = error_of::<v0_3::GetTaskRequest>(
        json!({"jsonrpc": "2.0", "id": 1.5, "method": "tasks/get", "params": {"id": "t"}}),
    );
    assert!(e.contains("a JSON-RPC id (a string or an integer)"), "{e}");
    // An error response may carry a null id, and always writes it.
    let response: v0_3::JsonRpcErrorResponse =
        parse(json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Invalid JSON payload"}}))
            .unwrap();
    assert_eq!(response.id, None);
    assert_eq!(serde_json::to_value(&response).unwrap()["id"], Value::Null);
}

#[test]
fn error_codes_select_the_a2a_error() {
    let error: A2aError =
        parse(json!({"code": -32001, "message": "Task not found", "data": {"id": "t-9"}})).unwrap();
    assert!(matches!(error, A2aError::TaskNotFound(ref e) if e.data == Some(json!({"id": "t-9"}))));
    let e = error_of::<A2aError>(json!({"code": -1, "message": "?"}));
    assert!(
        e.contains("unknown code -1 for A2aError, expected one of `-32700`"),
        "{e}"
    );
    let e = error_of::<A2aError>(json!({}));
    assert!(e.contains("missing field `code`"), "{e}");
    let e = error_of::<TaskNotFoundError>(json!({"code": -32002, "message": "x"}));
    assert!(e.contains("expected `-32001`, found -32002"), "{e}");

    // A response carries any JSON-RPC error; the typed one is a conversion away, both ways.
    let generic: JsonRpcError = parse(json!({"code": -32001, "message": "gone"})).unwrap();
    let typed = A2aError::try_from(generic.clone()).unwrap();
    assert!(matches!(typed, A2aError::TaskNotFound(_)));
    assert_eq!(JsonRpcError::from(typed), generic);
    let custom: JsonRpcError = parse(json!({"code": 4001, "message": "quota"})).unwrap();
    assert_eq!(A2aError::try_from(custom.clone()), Err(custom));
    assert_eq!(
        serde_json::to_value(TaskNotFoundError {
            message: "Task not found".into(),
            ..Default::default()
        })
        .unwrap(),
        json!({"code": -32001, "message": "Task not found"})
    );
}

#[test]
fn responses_are_told_apart_by_result_or_error() {
    let success = json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}}});
    assert!(matches!(
        parse::<SendMessageResponse>(success.clone()).unwrap(),
        SendMessageResponse::Success(_)
    ));
    let failure =
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}});
    assert!(matches!(
        parse::<SendMessageResponse>(failure.clone()).unwrap(),
        SendMessageResponse::Error(_)
    ));
    let e = error_of::<SendMessageResponse>(
        json!({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": ""}}),
    );
    assert!(e.contains("ambiguous SendMessageResponse"), "{e}");
    // The raw typify output turned this into `{}`: the data is kept.
    let any: JsonRpcResponse = parse(success.clone()).unwrap();
    assert_eq!(serde_json::to_value(&any).unwrap(), success);
    let list = json!({"jsonrpc": "2.0", "id": "x", "result": [{"taskId": "t", "pushNotificationConfig": {"url": "https://cb.test/hook"}}]});
    let any: JsonRpcResponse = parse(list.clone()).unwrap();
    assert!(matches!(
        any,
        JsonRpcResponse::ListTaskPushNotificationConfig(_)
    ));
    assert_eq!(serde_json::to_value(&any).unwrap(), list);
}

#[test]
fn security_schemes_by_type() {
    let scheme: SecurityScheme =
        parse(json!({"type": "apiKey", "in": "header", "name": "X-API-Key"})).unwrap();
    assert!(matches!(scheme, SecurityScheme::ApiKey(_)));
    let scheme: SecurityScheme = parse(json!({"type": "mutualTLS"})).unwrap();
    assert!(matches!(scheme, SecurityScheme::MutualTls(_)));
    let scheme: SecurityScheme = parse(json!({"scheme": "bearer"})).unwrap();
    assert!(matches!(scheme, SecurityScheme::HttpAuth(_)));
    let e = error_of::<SecurityScheme>(json!({"type": "saml"}));
    assert!(
        e.contains("expected one of `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`"),
        "{e}"
    );
}

#[test]
fn optional_members_keep_empty_values_and_drop_nulls() {
    let task = json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "canceled"},
                      "history": [], "metadata": {}, "artifacts": null});
    let parsed: v0_3::Task = parse(task).unwrap();
    assert_eq!(
        serde_json::to_value(&parsed).unwrap(),
        json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "canceled"}, "history": [], "metadata": {}})
    );
}

/// Checks one fixture: valid for the schema, read as its type, written back exactly.
struct Fixture<'a> {
    schema: &'a SchemaValues,
    name: &'a str,
    document: Value,
}

impl SchemaTypeVisitor for Fixture<'_> {
    type Output = ();

    fn visit<T: SchemaType>(self) {
        let mut root = self.schema.root().clone();
        root["$ref"] = format!("#/definitions/{}", self.name).into();
        let validator = jsonschema::draft7::new(&root).unwrap();
        if let Err(error) = validator.validate(&self.document) {
            panic!("fixture {} is invalid: {error}", self.name);
        }
        let parsed: T = parse(self.document.clone()).unwrap();
        assert_eq!(
            serde_json::to_value(&parsed).unwrap(),
            self.document,
            "{}",
            self.name
        );
    }
}

#[test]
fn realistic_fixtures_are_valid_and_read_and_write_back() {
    let schema = SchemaValues::v0_3();
    let dir = a2a_tests::workspace_root().join("tests/fixtures/v0_3");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v0_3::visit_schema_type(
            &name,
            Fixture {
                schema: &schema,
                name: &name,
                document,
            },
        )
        .unwrap_or_else(|| panic!("{name}.json names no schema type"));
        seen += 1;
    }
    assert!(seen >= 3, "fixtures: {seen}");

    let card: v0_3::AgentCard =
        parse(serde_json::from_str(&a2a_tests::fixture("v0_3/AgentCard.json")).unwrap()).unwrap();
    assert_eq!(card.url, "https://georoute-agent.example.com/a2a/v1");
    assert!(matches!(
        card.security_schemes.as_ref().unwrap()["google"],
        SecurityScheme::OpenIdConnect(_)
    ));
    let task: v0_3::Task =
        parse(serde_json::from_str(&a2a_tests::fixture("v0_3/Task.json")).unwrap()).unwrap();
    assert_eq!(task.status.state, v0_3::TaskState::Completed);
    assert!(matches!(
        &task.artifacts.as_ref().unwrap()[0].parts[..],
        [Part::Data(_), Part::File(_), Part::Text(_)]
    ));
}
