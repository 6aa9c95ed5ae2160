//! One rule per input class, in both crates, the bridge and v0.3 (issue 13): duplicate JSON keys are
//! errors naming the object's path and the key, as in protobuf's JSON parsers; binary unknown fields are
//! dropped (documented in `a2a-proto`'s crate docs, "Binary encoding"); and the v0.3 findings: the delete
//! response the Python SDK writes (no `result`) and `"pushNotificationConfigId": null`.

use std::process::Command;

use a2a_tests::interop::{Suite, python};

#[track_caller]
fn duplicate(error: &dyn std::fmt::Display, key: &str) {
    let text = error.to_string();
    assert!(
        text.contains(&format!("duplicate key \"{key}\""))
            || text.contains(&format!("duplicate field `{key}`")),
        "{text}"
    );
}

/// `metadata` and `data` (protobuf `Struct` and `Value`): a key twice is an error in both crates; it was
/// read as the last one by a2a-types.
#[test]
fn duplicate_keys_in_metadata_and_data_are_errors_in_both_crates() {
    let message = r#"{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}],
        "metadata":{"traceId":"a","traceId":"b"}}"#;
    let types = a2a_types::json::from_str::<a2a_types::v1::Message>(message).unwrap_err();
    assert_eq!(types.path(), "metadata");
    duplicate(&types, "traceId");
    let proto = a2a_proto::json::from_str::<a2a_proto::v1::Message>(message).unwrap_err();
    assert_eq!(proto.path(), "metadata");
    duplicate(&proto, "traceId");

    let part = r#"{"data":{"booking":{"seats":2,"seats":3}}}"#;
    let types = a2a_types::json::from_str::<a2a_types::v1::Part>(part).unwrap_err();
    duplicate(&types, "seats");
    let proto = a2a_proto::json::from_str::<a2a_proto::v1::Part>(part).unwrap_err();
    duplicate(&proto, "seats");

    // Map fields: serde's maps kept the last of two; both crates reject them now.
    let card = r#"{"name":"Travel agent","securitySchemes":{
        "oauth":{"apiKeySecurityScheme":{"name":"X-Key","location":"header"}},
        "oauth":{"httpAuthSecurityScheme":{"scheme":"bearer"}}}}"#;
    let types = a2a_types::json::from_str::<a2a_types::v1::AgentCard>(card).unwrap_err();
    assert_eq!(types.path(), "securitySchemes");
    duplicate(&types, "oauth");
    let proto = a2a_proto::json::from_str::<a2a_proto::v1::AgentCard>(card).unwrap_err();
    assert_eq!(proto.path(), "securitySchemes");
    duplicate(&proto, "oauth");

    // A message field twice was already an error in both.
    let twice = r#"{"messageId":"m-1","messageId":"m-2","role":"ROLE_USER","parts":[]}"#;
    duplicate(
        &a2a_types::json::from_str::<a2a_types::v1::Message>(twice).unwrap_err(),
        "messageId",
    );
    duplicate(
        &a2a_proto::json::from_str::<a2a_proto::v1::Message>(twice).unwrap_err(),
        "messageId",
    );
}

/// A duplicate `kind` picked the last one silently: a file part became a text part.
#[test]
fn a_duplicate_v0_3_discriminator_is_an_error() {
    let part = r#"{"kind":"file","file":{"uri":"https://files.example.com/a.pdf"},"kind":"text","text":"x"}"#;
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::Part>(part).unwrap_err();
    duplicate(&error, "kind");
    let request = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t-1"},"method":"tasks/cancel"}"#;
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::A2aRequest>(request).unwrap_err();
    duplicate(&error, "method");
    // Inside a message, the path leads to the part.
    let message = format!(
        r#"{{"kind":"message","role":"user","messageId":"m-1","parts":[{{"kind":"text","text":"a"}},{part}]}}"#
    );
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::Message>(&message).unwrap_err();
    assert_eq!(error.path(), "parts[1]", "{error}");
    // v0.3 `metadata` and `data` members follow the same rule.
    let metadata =
        r#"{"kind":"message","role":"user","messageId":"m-1","parts":[],"metadata":{"a":1,"a":2}}"#;
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::Message>(metadata).unwrap_err();
    assert_eq!(error.path(), "metadata", "{error}");
    duplicate(&error, "a");
    // The bridge's JSON entry point reads text through the same rule.
    let card = r#"{"name":"a","name":"b","protocolVersion":"0.3.0"}"#;
    duplicate(
        &a2a_compat::bridge::AnyAgentCard::from_json_str(card).unwrap_err(),
        "name",
    );
    duplicate(&a2a_types::json::value_from_str(part).unwrap_err(), "kind");
}

/// The official SDK's server writes the delete response with `exclude_none`: no `result` member. A Rust
/// v0.3 client must read it as the success it is (the SDK, asked here, is the oracle).
#[test]
fn the_delete_response_the_python_sdk_writes_is_a_success() {
    let sdk_written =
        sdk_delete_response().unwrap_or_else(|| r#"{"id":1,"jsonrpc":"2.0"}"#.to_owned());
    assert!(!sdk_written.contains("result"), "{sdk_written}");
    let response: a2a_compat::v0_3::DeleteTaskPushNotificationConfigResponse =
        a2a_types::json::from_str(&sdk_written).unwrap();
    assert!(
        matches!(
            response,
            a2a_compat::v0_3::DeleteTaskPushNotificationConfigResponse::Success(_)
        ),
        "{response:?}"
    );
    // We write `result: null`, as JSON-RPC has it, and read that back too.
    let written = serde_json::to_string(&response).unwrap();
    assert!(written.contains(r#""result":null"#), "{written}");
    let again: a2a_compat::v0_3::DeleteTaskPushNotificationConfigResponse =
        a2a_types::json::from_str(&written).unwrap();
    assert_eq!(again, response);
    // An error response is still an error.
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}"#;
    let response: a2a_compat::v0_3::DeleteTaskPushNotificationConfigResponse =
        a2a_types::json::from_str(error).unwrap();
    assert!(
        !matches!(
            response,
            a2a_compat::v0_3::DeleteTaskPushNotificationConfigResponse::Success(_)
        ),
        "{response:?}"
    );
}

/// What the SDK's v0.3 model writes for a successful delete, as its JSON-RPC server sends it; `None`
/// (with a note) where the SDK is not installed.
fn sdk_delete_response() -> Option<String> {
    let python = python(&Suite {
        name: "v0_3 delete response",
        package_args: &[],
        sdk_module: "a2a.compat.v0_3.types",
    })?;
    let output = Command::new(python)
        .args([
            "-c",
            "from a2a.compat.v0_3.types import DeleteTaskPushNotificationConfigSuccessResponse as R\n\
             print(R(id=1, result=None).model_dump_json(by_alias=True, exclude_none=True))",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8(output.stdout).unwrap().trim().to_owned())
}

/// `"pushNotificationConfigId": null` chose the params form with a config id; written back without it,
/// it read as the other form. `null` means "not set", so it is the task-id form, both times.
#[test]
fn a_null_push_notification_config_id_keeps_its_params_form() {
    use a2a_compat::v0_3::GetTaskPushNotificationConfigRequestParams as Params;
    let params: Params =
        a2a_types::json::from_str(r#"{"id":"t-1","pushNotificationConfigId":null}"#).unwrap();
    assert!(matches!(params, Params::TaskId(_)), "{params:?}");
    let again: Params =
        a2a_types::json::from_str(&serde_json::to_string(&params).unwrap()).unwrap();
    assert_eq!(again, params);
    let with_id: Params =
        a2a_types::json::from_str(r#"{"id":"t-1","pushNotificationConfigId":"cfg-1"}"#).unwrap();
    assert!(
        matches!(with_id, Params::GetTaskPushNotificationConfig(_)),
        "{with_id:?}"
    );
}

/// Binary unknown fields are dropped, not kept (a2a-proto's crate docs, "Binary encoding", say why): the
/// SDK's own Task with a field 999 added decodes, converts and re-encodes to the Task without it, and
/// the SDK reads our bytes as exactly that.
#[test]
fn binary_unknown_fields_are_dropped_on_a_round_trip() {
    use prost::Message as _;
    // Field 999, length-delimited (tag (999 << 3) | 2 as a varint), holding "hello".
    const FIELD_999: &[u8] = &[0xba, 0x3e, 5, b'h', b'e', b'l', b'l', b'o'];
    // The task the SDK's script builds, encoded by prost: the test's input where the SDK is absent,
    // and checked against the SDK's own encoding where it is present.
    let ours_known = sdk_script_task().encode_to_vec();
    let (known, with_unknown) = match sdk_task_with_field_999() {
        Some((known, with_unknown)) => {
            assert_eq!(
                known, ours_known,
                "prost encodes the SDK script's task as the SDK does"
            );
            (known, with_unknown)
        }
        None => (
            ours_known.clone(),
            [ours_known.as_slice(), FIELD_999].concat(),
        ),
    };
    assert!(
        with_unknown.ends_with(FIELD_999),
        "the SDK appended field 999"
    );

    let decoded = a2a_proto::v1::Task::decode(with_unknown.as_slice()).unwrap();
    assert_eq!(
        decoded,
        a2a_proto::v1::Task::decode(known.as_slice()).unwrap()
    );
    let ours = decoded.encode_to_vec();
    assert!(
        !ours.windows(FIELD_999.len()).any(|w| w == FIELD_999),
        "field 999 is gone"
    );
    assert_eq!(ours.len(), known.len());
    // Through a2a-types and back: the same.
    let types = a2a_types::v1::Task::try_from(decoded.clone()).unwrap();
    assert_eq!(a2a_proto::v1::Task::from(types), decoded);
    // The SDK reads what we wrote as its Task without the unknown field.
    if let Some(python) = sdk_python() {
        let output = Command::new(python)
            .args([
                "-c",
                "import sys\nfrom a2a.types import a2a_pb2 as pb\n\
                 ours = pb.Task.FromString(bytes.fromhex(sys.argv[1]))\n\
                 known = pb.Task.FromString(bytes.fromhex(sys.argv[2]))\n\
                 print(ours == known and ours.SerializeToString(deterministic=True) == known.SerializeToString(deterministic=True))",
                &hex(&ours),
                &hex(&known),
            ])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            "True",
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sdk_python() -> Option<std::path::PathBuf> {
    python(&Suite {
        name: "v1 unknown fields",
        package_args: &[],
        sdk_module: "a2a.types.a2a_pb2",
    })
}

/// The task `sdk_task_with_field_999` builds in Python, built here with prost. A task always has a
/// status (a2a-types' `Task.status` is required, so a task without one would not round-trip).
fn sdk_script_task() -> a2a_proto::v1::Task {
    a2a_proto::v1::Task {
        id: "task-7f3a".into(),
        context_id: "ctx-lisbon-trip".into(),
        status: Some(a2a_proto::v1::TaskStatus {
            state: a2a_proto::v1::TaskState::Working.into(),
            timestamp: Some(a2a_proto::wkt::Timestamp {
                seconds: 1_775_035_800,
                nanos: 0,
            }),
            ..Default::default()
        }),
        history: vec![a2a_proto::v1::Message {
            message_id: "msg-1".into(),
            role: a2a_proto::v1::Role::User.into(),
            parts: vec![a2a_proto::v1::Part {
                content: Some(a2a_proto::v1::part::Content::Text("Find a hotel".into())),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A realistic Task built by the SDK, its bytes, and the same bytes with field 999 appended, as the SDK
/// itself keeps and writes it.
fn sdk_task_with_field_999() -> Option<(Vec<u8>, Vec<u8>)> {
    let output = Command::new(sdk_python()?)
        .args([
            "-c",
            "from a2a.types import a2a_pb2 as pb\n\
             task = pb.Task(id='task-7f3a', context_id='ctx-lisbon-trip')\n\
             task.status.state = pb.TASK_STATE_WORKING\n\
             task.status.timestamp.FromJsonString('2026-04-01T09:30:00Z')\n\
             task.history.add(message_id='msg-1', role=pb.ROLE_USER).parts.add(text='Find a hotel')\n\
             known = task.SerializeToString(deterministic=True)\n\
             kept = pb.Task.FromString(known + bytes([0xba, 0x3e, 5]) + b'hello')\n\
             print(known.hex())\n\
             print(kept.SerializeToString(deterministic=True).hex())",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = text.lines().map(|line| {
        (0..line.len())
            .step_by(2)
            .map(|at| u8::from_str_radix(&line[at..at + 2], 16).unwrap())
            .collect::<Vec<u8>>()
    });
    Some((lines.next().unwrap(), lines.next().unwrap()))
}

/// Text that is not Unicode, inside an unknown field each type ignores, was accepted or rejected
/// depending on the crate and the type (serde_json skips ignored members unchecked, but types that
/// buffer, such as parts and v0.3 unions, read them). One rule now: rejected everywhere, at `.`; a
/// proper surrogate pair is fine.
#[test]
fn text_that_is_not_unicode_is_an_error_in_every_crate_even_when_ignored() {
    let documents = [
        r#"{"id":"t-1","contextId":"c-1","note":"\ud800","status":{"state":"TASK_STATE_WORKING"}}"#,
        r#"{"id":"t-1","contextId":"c-1","note":"\udc00 and more","status":{"state":"TASK_STATE_WORKING"}}"#,
        r#"{"id":"t-1","contextId":"c-1","note":"\ud800\u0041","status":{"state":"TASK_STATE_WORKING"}}"#,
    ];
    for document in documents {
        let types = a2a_types::json::from_str::<a2a_types::v1::Task>(document).unwrap_err();
        assert!(types.to_string().contains("lone surrogate"), "{types}");
        let proto = a2a_proto::json::from_str::<a2a_proto::v1::Task>(document).unwrap_err();
        assert!(proto.to_string().contains("lone surrogate"), "{proto}");
        let part = document.replace(r#""id":"t-1","contextId":"c-1","#, r#""text":"hi","#);
        assert!(
            a2a_types::json::from_str::<a2a_types::v1::Part>(&part).is_err(),
            "{part}"
        );
        assert!(
            a2a_proto::json::from_str::<a2a_proto::v1::Part>(&part).is_err(),
            "{part}"
        );
        let v0_3 = document
            .replace(
                r#""contextId":"c-1","#,
                r#""contextId":"c-1","kind":"task","#,
            )
            .replace("TASK_STATE_WORKING", "working");
        assert!(
            a2a_types::json::from_str::<a2a_compat::v0_3::Task>(&v0_3).is_err(),
            "{v0_3}"
        );
    }
    let mut invalid_utf8 = br#"{"id":"t-1","contextId":"c-1","note":"caf"#.to_vec();
    invalid_utf8.extend_from_slice(b"\xe9\", \"status\":{\"state\":\"TASK_STATE_WORKING\"}}");
    let types = a2a_types::json::from_slice::<a2a_types::v1::Task>(&invalid_utf8).unwrap_err();
    assert!(types.to_string().contains("UTF-8"), "{types}");
    let proto = a2a_proto::json::from_slice::<a2a_proto::v1::Task>(&invalid_utf8).unwrap_err();
    assert!(proto.to_string().contains("UTF-8"), "{proto}");

    let paired = r#"{"id":"t-1","contextId":"c-1","note":"\ud83d\ude00 \\ud800","status":{"state":"TASK_STATE_WORKING"}}"#;
    a2a_types::json::from_str::<a2a_types::v1::Task>(paired).unwrap();
    a2a_proto::json::from_str::<a2a_proto::v1::Task>(paired).unwrap();
}

/// chrono can hold a leap second, which would be written as `:60.500`, a text every reader here (and
/// protobuf's) rejects: `downgrade` wrote it and `upgrade` refused it. Writing one is an error now.
#[test]
fn a_leap_second_is_never_written() {
    let leap = a2a_types::chrono::NaiveDate::from_ymd_opt(2026, 6, 30)
        .unwrap()
        .and_hms_milli_opt(23, 59, 59, 1_500)
        .unwrap()
        .and_utc();
    let status = a2a_types::v1::TaskStatus {
        state: a2a_types::v1::TaskState::Working,
        timestamp: Some(leap),
        ..Default::default()
    };
    let error = serde_json::to_string(&status).unwrap_err();
    assert!(error.to_string().contains("leap second"), "{error}");
    let error = a2a_compat::v0_3::TaskStatus::try_from(status).unwrap_err();
    assert!(error.to_string().contains("leap second"), "{error}");
    assert_eq!(error.path(), "timestamp");
    // And the text it used to write is rejected on the way up, as before.
    let up = a2a_types::json::from_str::<a2a_compat::v0_3::TaskStatus>(
        r#"{"state":"working","timestamp":"2026-06-30T23:59:60.500Z"}"#,
    )
    .map_err(|e| e.to_string())
    .and_then(|status| a2a_types::v1::TaskStatus::try_from(status).map_err(|e| e.to_string()));
    assert!(up.is_err(), "{up:?}");
}
