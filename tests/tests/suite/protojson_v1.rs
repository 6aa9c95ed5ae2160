//! The ProtoJSON rules that `pbjson`'s defaults get wrong and other SDKs depend on, one test each, on
//! payloads shaped like real A2A traffic.

use a2a_proto::json;
use a2a_proto::v1::{
    AgentCard, Artifact, Message, Part, Role, SendMessageRequest, Task, TaskState, part::Content,
};
use a2a_proto::wkt::{Timestamp, Value, value::Kind};
use prost::Message as _;
use serde_json::json;

fn parse<M: serde::de::DeserializeOwned>(value: serde_json::Value) -> M {
    json::from_str(&value.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn write<M: serde::Serialize>(message: &M) -> serde_json::Value {
    serde_json::from_str(&json::to_string(message).unwrap()).unwrap()
}

/// Rule 1: Unknown fields are ignored (A2A spec 5.7), at every depth: a peer on a newer spec, or a v0.3-era
/// peer still sending `kind`, must not be rejected.
#[test]
fn unknown_fields_are_ignored() {
    let task: Task = parse(json!({
        "kind": "task",
        "id": "5f0e8c4a-7b1d-4c4e-9a53-0c2a4f6f1d10",
        "contextId": "ctx-trip-2026-04",
        "status": {
            "state": "TASK_STATE_WORKING",
            "progress": {"percent": 40},
            "message": {
                "kind": "message",
                "messageId": "m-17",
                "role": "ROLE_AGENT",
                "parts": [{"kind": "text", "text": "Searching flights to Lisbon…", "annotations": []}]
            }
        },
        "futureField": {"nested": [1, 2, 3]}
    }));
    assert_eq!(task.id, "5f0e8c4a-7b1d-4c4e-9a53-0c2a4f6f1d10");
    assert_eq!(task.status.as_ref().unwrap().state(), TaskState::Working);
    let message = task.status.as_ref().unwrap().message.as_ref().unwrap();
    assert_eq!(
        message.parts[0].content,
        Some(Content::Text("Searching flights to Lisbon…".into()))
    );
    let written = write(&task);
    assert!(written.get("kind").is_none() && written.get("futureField").is_none());
    assert!(written["status"].get("progress").is_none());
}

/// Rule 2: `null` means absent for repeated, map, message and scalar fields; for a `google.protobuf.Value`
/// (a Part's `data`) it is the JSON null value.
#[test]
fn null_means_absent_except_for_value_fields() {
    let message: Message = parse(json!({
        "messageId": "m-1",
        "contextId": null,
        "taskId": null,
        "role": null,
        "parts": null,
        "metadata": null,
        "extensions": null,
        "referenceTaskIds": null
    }));
    assert_eq!(
        message,
        Message {
            message_id: "m-1".into(),
            ..Default::default()
        }
    );

    let card: AgentCard = parse(json!({
        "name": "Wayfarer",
        "securitySchemes": null,
        "skills": null,
        "capabilities": {"streaming": null, "pushNotifications": true},
        "provider": null,
        "documentationUrl": null
    }));
    assert!(card.security_schemes.is_empty() && card.skills.is_empty() && card.provider.is_none());
    assert_eq!(card.capabilities.as_ref().unwrap().streaming, None);
    assert_eq!(
        card.capabilities.as_ref().unwrap().push_notifications,
        Some(true)
    );

    let request: SendMessageRequest = parse(json!({
        "message": {"messageId": "m-2", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
        "configuration": {"historyLength": null, "acceptedOutputModes": null}
    }));
    assert_eq!(request.configuration.as_ref().unwrap().history_length, None);

    let task: Task =
        parse(json!({"id": "t-1", "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": null}}));
    assert_eq!(task.status.as_ref().unwrap().timestamp, None);

    // `data: null` is a Part holding JSON null: kept, written back, and distinct from "no content".
    let part: Part = parse(json!({"data": null, "mediaType": "application/json"}));
    assert_eq!(part.content, Some(Content::Data(Value::null())));
    assert_eq!(
        write(&part),
        json!({"data": null, "mediaType": "application/json"})
    );
    assert_eq!(Part::decode(part.encode_to_vec().as_slice()).unwrap(), part);
    // ... and a second content member next to it is still two members of the oneof.
    let err = json::from_str::<Part>(r#"{"data": null, "text": "x"}"#).unwrap_err();
    assert!(err.to_string().contains("duplicate field"), "{err}");
    // Any other member set to null is simply absent.
    let part: Part = parse(json!({"text": null, "url": "https://cdn.example.com/itinerary.pdf"}));
    assert_eq!(
        part.content,
        Some(Content::Url("https://cdn.example.com/itinerary.pdf".into()))
    );
}

/// Rule 3: Timestamps: RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits on output; any offset on
/// input; out-of-range values are clear errors that name the field.
#[test]
fn timestamps_are_utc_z_and_range_checked() {
    let with_offset: Task = parse(json!({
        "id": "t-1",
        "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14T10:26:53.5+01:00"}
    }));
    assert_eq!(
        write(&with_offset)["status"]["timestamp"],
        "2026-03-14T09:26:53.500Z"
    );

    for (nanos, text) in [
        (0, "2026-03-14T09:26:53Z"),
        (589_000_000, "2026-03-14T09:26:53.589Z"),
        (589_793_000, "2026-03-14T09:26:53.589793Z"),
        (589_793_238, "2026-03-14T09:26:53.589793238Z"),
    ] {
        let mut task = with_offset.clone();
        task.status.as_mut().unwrap().timestamp = Some(Timestamp {
            seconds: 1_773_480_413,
            nanos,
        });
        assert_eq!(write(&task)["status"]["timestamp"], text);
    }

    for bad in [
        "10000-01-01T00:00:00Z",
        "0000-12-31T23:59:59Z",
        "2026-03-14 09:26",
        "2026-03-14T09:26:53",
    ] {
        let text = json!({"id": "t-1", "status": {"timestamp": bad}}).to_string();
        let err = json::from_str::<Task>(&text).unwrap_err();
        assert_eq!(err.path(), "status.timestamp", "{bad}: {err}");
        assert!(err.to_string().contains("timestamp"), "{err}");
    }

    let mut task = with_offset;
    task.status.as_mut().unwrap().timestamp = Some(Timestamp {
        seconds: 253_402_300_800,
        nanos: 0,
    });
    let err = json::to_string(&task).unwrap_err();
    assert_eq!(err.path(), "status.timestamp");
    assert!(err.to_string().contains("out of range"), "{err}");
}

/// Rule 4: Bytes: standard padded base64 on output; standard or URL-safe, padded or not, on input.
#[test]
fn bytes_are_standard_base64_out_and_any_base64_in() {
    let every_byte: Vec<u8> = (0..=255).collect();
    let artifact = Artifact {
        artifact_id: "a-bin".into(),
        parts: vec![Part {
            content: Some(Content::Raw(every_byte.clone())),
            media_type: "application/octet-stream".into(),
            filename: "all-bytes.bin".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let written = write(&artifact);
    let standard = written["parts"][0]["raw"].as_str().unwrap().to_owned();
    assert!(standard.ends_with("==") && standard.contains('+') && standard.contains('/'));
    assert_eq!(parse::<Artifact>(written), artifact);

    let url_safe = standard.replace('+', "-").replace('/', "_");
    for encoded in [
        standard.trim_end_matches('=').to_owned(),
        url_safe.clone(),
        url_safe.trim_end_matches('=').to_owned(),
    ] {
        let part: Part = parse(json!({"raw": encoded}));
        assert_eq!(
            part.content,
            Some(Content::Raw(every_byte.clone())),
            "{encoded}"
        );
    }
    let err = json::from_str::<Artifact>(r#"{"parts":[{"raw":"not base64!"}]}"#).unwrap_err();
    assert_eq!(err.path(), "parts[0].raw");
}

/// Rule 5: Enums: written by name; names and numbers accepted; an unknown number is kept, survives binary,
/// and is written back as that number. Unknown names are errors.
#[test]
fn enums_are_names_out_and_open_numbers_in() {
    let message: Message =
        parse(json!({"messageId": "m-3", "role": 2, "parts": [{"text": "Done."}]}));
    assert_eq!(message.role(), Role::Agent);
    assert_eq!(write(&message)["role"], "ROLE_AGENT");

    let task: Task = parse(json!({"id": "t-9", "status": {"state": 42}}));
    assert_eq!(task.status.as_ref().unwrap().state, 42);
    let task = Task::decode(task.encode_to_vec().as_slice()).unwrap();
    assert_eq!(write(&task)["status"]["state"], 42);

    let err = json::from_str::<Task>(r#"{"id":"t-9","status":{"state":"TASK_STATE_PAUSED"}}"#)
        .unwrap_err();
    assert_eq!(err.path(), "status.state");
    assert!(err.to_string().contains("TASK_STATE_PAUSED"), "{err}");
    let err = json::from_str::<Task>(r#"{"status":{"state":4294967296}}"#).unwrap_err();
    assert_eq!(err.path(), "status.state");
}

/// Rule 6: Struct/Value numbers: integral values without a fraction; integers beyond 2^53 (and beyond u64)
/// become the nearest double instead of failing the message.
#[test]
fn struct_numbers_are_integral_when_they_can_be_and_never_fail() {
    let message: Message = parse(json!({
        "messageId": "m-4",
        "metadata": {"retries": 3, "ratio": 0.75, "neg": -12, "max_safe": 9007199254740991_u64},
        "parts": [{"data": {"booking": {"adults": 2, "nights": 7, "price": 1249.5}}}]
    }));
    let written = write(&message);
    assert_eq!(
        written["metadata"],
        json!({"neg": -12, "max_safe": 9007199254740991_u64, "ratio": 0.75, "retries": 3})
    );
    assert_eq!(
        written["parts"][0]["data"]["booking"],
        json!({"adults": 2, "nights": 7, "price": 1249.5})
    );
    assert_eq!(json::to_string(&message).unwrap().matches(".0").count(), 0);

    let text = r#"{"messageId":"m-5","metadata":{"beyond_2_53":9007199254740993,"beyond_u64":123456789012345678901234567890}}"#;
    let message: Message = json::from_str(text).unwrap();
    let fields = &message.metadata.as_ref().unwrap().fields;
    assert_eq!(
        fields["beyond_2_53"].kind,
        Some(Kind::NumberValue(9_007_199_254_740_992.0))
    );
    assert_eq!(
        fields["beyond_u64"].kind,
        Some(Kind::NumberValue(1.2345678901234568e29))
    );
}

/// Rule 7: Both camelCase and the proto's snake_case names are accepted; two members of one oneof are an error.
#[test]
fn snake_case_names_are_accepted_and_oneofs_hold_one_member() {
    let camel: Message = parse(json!({
        "messageId": "m-6", "contextId": "ctx-1", "taskId": "t-1", "role": "ROLE_USER",
        "referenceTaskIds": ["t-0"], "parts": [{"text": "Also book a hotel", "mediaType": "text/plain"}]
    }));
    let snake: Message = parse(json!({
        "message_id": "m-6", "context_id": "ctx-1", "task_id": "t-1", "role": "ROLE_USER",
        "reference_task_ids": ["t-0"], "parts": [{"text": "Also book a hotel", "media_type": "text/plain"}]
    }));
    assert_eq!(camel, snake);
    assert!(write(&snake).get("messageId").is_some());

    let err = json::from_str::<Message>(
        r#"{"messageId":"m-7","parts":[{"text":"see attachment","url":"https://cdn.example.com/a.pdf"}]}"#,
    )
    .unwrap_err();
    // Reported at the Part, naming the second member.
    assert_eq!(err.path(), "parts[0]");
    assert!(err.to_string().contains("duplicate field `url`"), "{err}");
}
