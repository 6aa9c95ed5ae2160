//! One table of awkward-but-real inputs, run through both implementations: `a2a-proto` (prost + pbjson)
//! and `a2a-types` (typify). Each must produce the same canonical ProtoJSON, or reject the input at the
//! same field. This is how the two crates are held to the same ProtoJSON rules.

use a2a_proto::registry::{MessageVisitor as ProtoVisitor, ProtoMessage};
use a2a_types::registry::{A2aMessage, MessageVisitor as TypesVisitor};
use serde_json::{Value, json};

/// What an input must turn into.
enum Expect {
    /// Canonical ProtoJSON output.
    Output(Value),
    /// An error whose field path is this, and whose message contains that.
    Error(&'static str, &'static str),
}

/// Parses with path-aware errors, writes canonical JSON.
fn run<M: serde::Serialize + serde::de::DeserializeOwned>(
    input: &str,
) -> Result<Value, (String, String)> {
    let mut deserializer = serde_json::Deserializer::from_str(input);
    let message: M = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))?;
    serde_json::to_value(&message).map_err(|e| (".".to_owned(), e.to_string()))
}

struct ViaProto<'a>(&'a str);
impl ProtoVisitor for ViaProto<'_> {
    type Output = Result<Value, (String, String)>;
    fn visit<M: ProtoMessage>(self) -> Self::Output {
        run::<M>(self.0)
    }
}

struct ViaTypes<'a>(&'a str);
impl TypesVisitor for ViaTypes<'_> {
    type Output = Result<Value, (String, String)>;
    fn visit<M: A2aMessage>(self) -> Self::Output {
        run::<M>(self.0)
    }
}

fn cases() -> Vec<(&'static str, &'static str, Value, Expect)> {
    use Expect::{Error, Output};
    vec![
        (
            "unknown fields are ignored at every depth",
            "Task",
            json!({"kind": "task", "id": "t-1", "status": {"state": "TASK_STATE_WORKING", "progress": 40,
                   "message": {"kind": "message", "messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"kind": "text", "text": "Searching…"}]}}}),
            Output(
                json!({"id": "t-1", "status": {"state": "TASK_STATE_WORKING",
                   "message": {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "Searching…"}]}}}),
            ),
        ),
        (
            "null means absent",
            "Message",
            json!({"messageId": "m-1", "contextId": null, "role": null, "parts": null, "metadata": null, "extensions": null, "referenceTaskIds": null}),
            Output(json!({"messageId": "m-1"})),
        ),
        (
            "null maps, lists and messages in a card",
            "AgentCard",
            json!({"name": "Wayfarer", "securitySchemes": null, "skills": null, "provider": null,
                   "capabilities": {"streaming": null, "pushNotifications": false}}),
            Output(json!({"name": "Wayfarer", "capabilities": {"pushNotifications": false}})),
        ),
        (
            "null Part data is the JSON null value",
            "Part",
            json!({"data": null, "mediaType": "application/json"}),
            Output(json!({"data": null, "mediaType": "application/json"})),
        ),
        (
            "null oneof member is unset",
            "Part",
            json!({"text": null, "url": "https://cdn.example.com/itinerary.pdf"}),
            Output(json!({"url": "https://cdn.example.com/itinerary.pdf"})),
        ),
        (
            "two oneof members",
            "Part",
            json!({"text": "see attachment", "url": "https://cdn.example.com/a.pdf"}),
            Error(".", "url"),
        ),
        (
            "two oneof members inside a list",
            "Message",
            json!({"messageId": "m-1", "parts": [{"text": "a"}, {"data": null, "raw": "AAE="}]}),
            Error("parts[1]", ""),
        ),
        (
            "snake_case names",
            "Message",
            json!({"message_id": "m-6", "context_id": "ctx-1", "reference_task_ids": ["t-0"], "parts": [{"text": "hi", "media_type": "text/plain"}]}),
            Output(
                json!({"messageId": "m-6", "contextId": "ctx-1", "referenceTaskIds": ["t-0"], "parts": [{"text": "hi", "mediaType": "text/plain"}]}),
            ),
        ),
        (
            "numeric enums, known and unknown",
            "TaskStatusUpdateEvent",
            json!({"taskId": "t-1", "contextId": "c-1", "status": {"state": 42, "message": {"messageId": "m", "role": 2}}}),
            Output(
                json!({"taskId": "t-1", "contextId": "c-1", "status": {"state": 42, "message": {"messageId": "m", "role": "ROLE_AGENT"}}}),
            ),
        ),
        (
            "unknown enum name",
            "Task",
            json!({"id": "t-9", "status": {"state": "TASK_STATE_PAUSED"}}),
            Error("status.state", "TASK_STATE_PAUSED"),
        ),
        (
            "enum number beyond int32",
            "Task",
            json!({"id": "t-9", "status": {"state": 4294967296_u64}}),
            Error("status.state", ""),
        ),
        (
            "timestamps are normalised to UTC with Z",
            "TaskStatus",
            json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T10:26:53.5+01:00"}),
            Output(
                json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T09:26:53.500Z"}),
            ),
        ),
        (
            "nanosecond timestamps keep nine digits",
            "TaskStatus",
            json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T09:26:53.000000001Z"}),
            Output(
                json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T09:26:53.000000001Z"}),
            ),
        ),
        (
            "the last representable instant",
            "TaskStatus",
            json!({"timestamp": "9999-12-31T23:59:59.999999999Z"}),
            Output(json!({"timestamp": "9999-12-31T23:59:59.999999999Z"})),
        ),
        (
            "year 10000 is out of range",
            "Task",
            json!({"id": "t-1", "status": {"timestamp": "10000-01-01T00:00:00Z"}}),
            Error("status.timestamp", "timestamp"),
        ),
        (
            "year 0 after applying the offset is out of range",
            "TaskStatus",
            json!({"timestamp": "0001-01-01T00:30:00+01:00"}),
            Error("timestamp", "range"),
        ),
        (
            "a timestamp without offset",
            "TaskStatus",
            json!({"timestamp": "2025-04-02T16:59:35.331844"}),
            Error("timestamp", "timestamp"),
        ),
        (
            "URL-safe unpadded base64 becomes standard padded",
            "Part",
            json!({"raw": "_-8AAQ", "filename": "card.bin"}),
            Output(json!({"raw": "/+8AAQ==", "filename": "card.bin"})),
        ),
        (
            "invalid base64",
            "Artifact",
            json!({"artifactId": "a", "parts": [{"raw": "not base64!"}]}),
            Error("parts[0]", ""),
        ),
        (
            "int32 as a string, zero on an optional field is kept",
            "SendMessageConfiguration",
            json!({"historyLength": "0", "acceptedOutputModes": ["text/plain"]}),
            Output(json!({"historyLength": 0, "acceptedOutputModes": ["text/plain"]})),
        ),
        (
            "int32 limits",
            "ListTasksResponse",
            json!({"pageSize": 2147483647, "totalSize": "-2147483648"}),
            Output(json!({"pageSize": 2147483647, "totalSize": -2147483648_i64})),
        ),
        (
            "int32 written as a float or with an exponent",
            "ListTasksResponse",
            json!({"pageSize": 50.0, "totalSize": 1e3, "nextPageToken": "p2"}),
            Output(json!({"pageSize": 50, "totalSize": 1000, "nextPageToken": "p2"})),
        ),
        (
            "int32 as an exponent string",
            "GetTaskRequest",
            json!({"id": "t-1", "historyLength": "2e1"}),
            Output(json!({"id": "t-1", "historyLength": 20})),
        ),
        (
            "int32 with a fraction",
            "GetTaskRequest",
            json!({"id": "t-1", "historyLength": 2.5}),
            Error("historyLength", ""),
        ),
        (
            "negative zero in data keeps its sign",
            "Part",
            json!({"data": {"delta": -0.0, "zero": 0.0}}),
            Output(json!({"data": {"delta": -0.0, "zero": 0}})),
        ),
        (
            "int32 overflow",
            "ListTasksResponse",
            json!({"pageSize": 2147483648_u64}),
            Error("pageSize", ""),
        ),
        (
            "defaults are omitted",
            "Task",
            json!({"id": "t-1", "contextId": "", "history": [], "artifacts": [], "status": {"state": "TASK_STATE_UNSPECIFIED"}, "metadata": {}}),
            Output(json!({"id": "t-1", "status": {}, "metadata": {}})),
        ),
        (
            "integral Struct numbers have no fraction",
            "Message",
            json!({"messageId": "m-4", "metadata": {"retries": 3.0, "ratio": 0.75, "neg": -12}, "parts": [{"data": {"adults": 2, "price": 1249.5}}]}),
            Output(
                json!({"messageId": "m-4", "metadata": {"retries": 3, "ratio": 0.75, "neg": -12}, "parts": [{"data": {"adults": 2, "price": 1249.5}}]}),
            ),
        ),
        (
            "a map of oneof messages",
            "AgentCard",
            json!({"name": "W", "capabilities": {}, "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
                   "mtls": {"mtls_security_scheme": {}}}}),
            Output(
                json!({"name": "W", "capabilities": {}, "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
                   "mtls": {"mtlsSecurityScheme": {}}}}),
            ),
        ),
    ]
}

#[test]
fn both_crates_follow_the_same_protojson_rules() {
    let mut failures = Vec::new();
    let cases = cases();
    for (title, type_name, input, expect) in &cases {
        let full_name = format!("lf.a2a.v1.{type_name}");
        let text = input.to_string();
        let results = [
            (
                "a2a-proto",
                a2a_proto::v1::visit_message(&full_name, ViaProto(&text)).unwrap(),
            ),
            (
                "a2a-types",
                a2a_types::v1::visit_message(&full_name, ViaTypes(&text)).unwrap(),
            ),
        ];
        for (implementation, result) in results {
            let ok = match (expect, &result) {
                (Expect::Output(want), Ok(got)) => got == want,
                // A path prefix: pbjson reports a bad value at the member, the flattened oneof at its object.
                (Expect::Error(path, fragment), Err((got_path, message))) => {
                    got_path.starts_with(path) && message.contains(fragment)
                }
                _ => false,
            };
            if !ok {
                let want = match expect {
                    Expect::Output(v) => v.to_string(),
                    Expect::Error(p, f) => format!("error at `{p}` mentioning {f:?}"),
                };
                failures.push(format!(
                    "{title} ({type_name}, {implementation}):\n   got  {result:?}\n   want {want}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} checks failed:\n{}",
        failures.len(),
        cases.len() * 2,
        failures.join("\n")
    );
}

/// Where the crates differ by design: `a2a-types` keeps JSON numbers exactly (serde_json), while
/// protobuf's `google.protobuf.Value` holds doubles, so `a2a-proto` rounds beyond 2^53.
#[test]
fn big_integers_in_data_survive_exactly_in_a2a_types() {
    let text = r#"{"messageId":"m-5","metadata":{"max_safe":9007199254740991,"beyond":9007199254740993,"u64_max":18446744073709551615}}"#;
    let types: a2a_types::v1::Message = serde_json::from_str(text).unwrap();
    let written = serde_json::to_string(&types).unwrap();
    for exact in [
        "9007199254740991",
        "9007199254740993",
        "18446744073709551615",
    ] {
        assert!(written.contains(exact), "{exact} not in {written}");
    }
    assert_eq!(
        serde_json::from_str::<Value>(&written).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    let proto: a2a_proto::v1::Message = serde_json::from_str(text).unwrap();
    let written = serde_json::to_value(&proto).unwrap();
    assert_eq!(written["metadata"]["max_safe"], json!(9007199254740991_u64));
    assert_eq!(written["metadata"]["beyond"], json!(9007199254740992_u64));
}

/// And a REQUIRED message field absent from the input: protobuf keeps the absence, `a2a-types` has a
/// plain field and writes its default (for valid messages the two agree, and the output stays valid).
#[test]
fn an_absent_required_message_is_written_as_its_default_by_a2a_types() {
    let text = r#"{"name":"Wayfarer"}"#;
    let proto: a2a_proto::v1::AgentCard = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&proto).unwrap(), text);
    let types: a2a_types::v1::AgentCard = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_string(&types).unwrap(),
        r#"{"name":"Wayfarer","capabilities":{}}"#
    );
}

/// The other deliberate difference: a oneof-only message with no member.
#[test]
fn an_empty_oneof_message_is_rejected_by_a2a_types_only() {
    let proto: a2a_proto::v1::StreamResponse = serde_json::from_str("{}").unwrap();
    assert_eq!(proto.payload, None);
    let err = serde_json::from_str::<a2a_types::v1::StreamResponse>(r#"{"kind": "status-update"}"#)
        .unwrap_err();
    assert!(err.to_string().contains("expected exactly one of"), "{err}");
}
