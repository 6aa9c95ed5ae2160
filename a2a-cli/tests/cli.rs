//! End-to-end tests of the `a2a` binary: real processes, stdin piped in, stdout, stderr and exit
//! status checked, on the workspace's fixtures and hand-written realistic payloads.

use std::path::PathBuf;
use std::process::Output;

use serde_json::{Value, json};

mod common;
use common::a2a;

fn transcode(type_name: &str, from: &str, to: &str, stdin: &[u8]) -> Output {
    a2a(
        &["transcode", "--type", type_name, "--from", from, "--to", to],
        stdin,
    )
}

/// The stdout of a run that must succeed, with nothing on stderr.
fn ok(output: Output) -> Vec<u8> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(stderr.is_empty(), "{stderr}");
    output.stdout
}

/// The single stderr line of a run that must fail with `code` and write nothing to stdout.
fn failure(output: Output, code: i32) -> String {
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert!(
        output.stdout.is_empty(),
        "stdout: {:?}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    let line = stderr.trim_end_matches('\n');
    assert!(!line.contains('\n'), "more than one line: {stderr:?}");
    assert!(line.starts_with("error: "), "{line}");
    line.to_owned()
}

fn json_value(bytes: &[u8]) -> Value {
    let text = std::str::from_utf8(bytes).unwrap();
    assert!(text.ends_with('\n'), "{text:?}");
    serde_json::from_str(text).unwrap()
}

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/v1")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

/// A protobuf varint, for computing expected byte offsets.
fn varint_len(mut value: usize) -> usize {
    let mut len = 1;
    while value >= 0x80 {
        value >>= 7;
        len += 1;
    }
    len
}

#[test]
fn task_round_trips_json_binpb_json() {
    let json = fixture("Task");
    let binary = ok(transcode("lf.a2a.v1.Task", "json", "binpb", &json));
    assert!(binary.len() > 1000, "{} bytes", binary.len());
    let back = ok(transcode("lf.a2a.v1.Task", "binpb", "json", &binary));
    assert_eq!(
        json_value(&back),
        serde_json::from_slice::<Value>(&json).unwrap()
    );
    // Binary to binary re-encodes to the same bytes.
    assert_eq!(
        ok(transcode("lf.a2a.v1.Task", "binpb", "binpb", &binary)),
        binary
    );
    // JSON to JSON is the same text as going through the binary.
    assert_eq!(ok(transcode("lf.a2a.v1.Task", "json", "json", &json)), back);
}

#[test]
fn every_fixture_round_trips() {
    let names = String::from_utf8(ok(a2a(&["list-types"], b""))).unwrap();
    let names: Vec<&str> = names.lines().collect();
    assert!(names.len() >= 40, "{names:?}");
    for name in names {
        let Some(simple) = name.strip_prefix("lf.a2a.v1.") else {
            continue; // A2A v0.3's protobuf: see the v0_3 tests below
        };
        let json = fixture(simple);
        let binary = ok(transcode(name, "json", "binpb", &json));
        let back = ok(transcode(name, "binpb", "json", &binary));
        assert_eq!(
            json_value(&back),
            serde_json::from_slice::<Value>(&json).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn pretty_json_is_indented_and_equal() {
    let json = fixture("AgentCard");
    let output = ok(a2a(
        &[
            "transcode",
            "--type",
            "lf.a2a.v1.AgentCard",
            "--from",
            "json",
            "--to",
            "json",
            "--pretty",
        ],
        &json,
    ));
    let text = String::from_utf8(output.clone()).unwrap();
    assert!(text.starts_with("{\n  \""), "{text}");
    assert_eq!(
        json_value(&output),
        serde_json::from_slice::<Value>(&json).unwrap()
    );
    let compact = ok(transcode("lf.a2a.v1.AgentCard", "json", "json", &json));
    assert_eq!(compact.iter().filter(|b| **b == b'\n').count(), 1);
}

#[test]
fn input_spellings_are_normalised_on_output() {
    let input = br#"{
        "id": "a6d1e0c2-6f0b-4f7e-9d7e-1b2c3d4e5f60",
        "context_id": "ctx-berlin-tokyo",
        "status": {
            "state": 2,
            "message": null,
            "timestamp": "2026-03-14T10:31:07.250+01:00"
        },
        "history": [{
            "message_id": "m-1",
            "role": "ROLE_USER",
            "parts": [{"text": "Find me a window seat", "media_type": "text/plain"}],
            "extensions": null,
            "x-client-build": 4711
        }],
        "artifacts": null,
        "metadata": {"traceId": null, "attempt": 1},
        "someFutureField": {"nested": [1, 2, 3]}
    }"#;
    let expected = json!({
        "id": "a6d1e0c2-6f0b-4f7e-9d7e-1b2c3d4e5f60",
        "contextId": "ctx-berlin-tokyo",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-03-14T09:31:07.250Z"},
        "history": [{
            "messageId": "m-1",
            "role": "ROLE_USER",
            "parts": [{"text": "Find me a window seat", "mediaType": "text/plain"}]
        }],
        "metadata": {"traceId": null, "attempt": 1}
    });
    let direct = ok(transcode("lf.a2a.v1.Task", "json", "json", input));
    assert_eq!(json_value(&direct), expected);
    let binary = ok(transcode("lf.a2a.v1.Task", "json", "binpb", input));
    assert_eq!(
        json_value(&ok(transcode("lf.a2a.v1.Task", "binpb", "json", &binary))),
        expected
    );
}

#[test]
fn empty_binary_input_is_an_empty_message() {
    assert!(ok(transcode("lf.a2a.v1.Task", "binpb", "binpb", b"")).is_empty());
    let json = ok(transcode("lf.a2a.v1.GetTaskRequest", "binpb", "json", b""));
    assert_eq!(json_value(&json), json!({}));
}

#[test]
fn empty_json_input_is_an_error() {
    let line = failure(transcode("lf.a2a.v1.Task", "json", "binpb", b""), 1);
    assert_eq!(
        line,
        "error: invalid JSON for lf.a2a.v1.Task at `.`: expected a JSON document, got empty input"
    );
}

#[test]
fn bad_json_names_the_path() {
    let input = br#"{
        "id": "3f2b8c1e-9a4d-4e7b-b6f1-2d8c5a7e9b10",
        "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-14 09:31"}
    }"#;
    let line = failure(transcode("lf.a2a.v1.Task", "json", "binpb", input), 1);
    assert!(
        line.starts_with("error: invalid JSON for lf.a2a.v1.Task at `status.timestamp`: "),
        "{line}"
    );

    let input =
        br#"{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}, {"text": 7}]}"#;
    let line = failure(transcode("lf.a2a.v1.Message", "json", "json", input), 1);
    assert!(line.contains("at `parts[1]"), "{line}");

    // Truncated document: the path where the input ran out.
    let line = failure(
        transcode(
            "lf.a2a.v1.Task",
            "json",
            "binpb",
            br#"{"id": "t-1", "status": {"state": "#,
        ),
        1,
    );
    assert!(line.contains("at `status.state`: EOF"), "{line}");

    // Two members of a oneof.
    let line = failure(
        transcode(
            "lf.a2a.v1.Part",
            "json",
            "binpb",
            br#"{"text": "hi", "url": "https://example.com/a.pdf"}"#,
        ),
        1,
    );
    assert!(
        line.starts_with("error: invalid JSON for lf.a2a.v1.Part at `"),
        "{line}"
    );
}

#[test]
fn truncated_binary_names_the_byte_offset() {
    // A task whose layout is known: id, contextId, then status (whose size we ask the tool for).
    let id = "3f2b8c1e-9a4d-4e7b-b6f1-2d8c5a7e9b10";
    let context_id = "c0a8e4f2-5b3d-4c19-8e7a-6f1d2b9c4a53";
    let status = json!({
        "state": "TASK_STATE_INPUT_REQUIRED",
        "message": {
            "messageId": "0e2c4a6b-8d1f-4c3e-a5b7-9d1f3b5c7e96",
            "role": "ROLE_AGENT",
            "parts": [{"text": "Which date do you want to fly back: 12 or 13 April?"}]
        },
        "timestamp": "2026-03-14T09:31:07.250Z"
    });
    let task = json!({"id": id, "contextId": context_id, "status": status});
    let status_len = ok(transcode(
        "lf.a2a.v1.TaskStatus",
        "json",
        "binpb",
        status.to_string().as_bytes(),
    ))
    .len();
    let binary = ok(transcode(
        "lf.a2a.v1.Task",
        "json",
        "binpb",
        task.to_string().as_bytes(),
    ));
    let status_start = 2 + id.len() + 2 + context_id.len();
    assert_eq!(
        binary.len(),
        status_start + 1 + varint_len(status_len) + status_len
    );

    // Cut inside the status field.
    let cut = &binary[..binary.len() - 10];
    let line = failure(transcode("lf.a2a.v1.Task", "binpb", "json", cut), 1);
    assert_eq!(
        line,
        format!(
            "error: invalid binpb for lf.a2a.v1.Task at byte offset {status_start}: field 3 \
             (length-delimited) needs {status_len} bytes but only {} remain \
             (Task.status: buffer underflow)",
            status_len - 10
        )
    );

    // Cut inside the id.
    let line = failure(
        transcode("lf.a2a.v1.Task", "binpb", "binpb", &binary[..20]),
        1,
    );
    assert_eq!(
        line,
        "error: invalid binpb for lf.a2a.v1.Task at byte offset 0: field 1 (length-delimited) \
         needs 36 bytes but only 18 remain (Task.id: buffer underflow)"
    );

    // A real fixture cut short still names an offset inside the input.
    let fixture_binary = ok(transcode(
        "lf.a2a.v1.Task",
        "json",
        "binpb",
        &fixture("Task"),
    ));
    let cut = fixture_binary.len() / 2;
    let line = failure(
        transcode("lf.a2a.v1.Task", "binpb", "json", &fixture_binary[..cut]),
        1,
    );
    let offset: usize = line
        .split("at byte offset ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no offset in {line}"));
    assert!(offset < cut, "{line}");
}

#[test]
fn corrupt_nested_binary_names_the_top_level_field() {
    let input = json!({
        "id": "t-1",
        "contextId": "c-1",
        "status": {
            "state": "TASK_STATE_WORKING",
            "message": {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "Grüße aus Berlin"}]}
        }
    });
    let mut binary = ok(transcode(
        "lf.a2a.v1.Task",
        "json",
        "binpb",
        input.to_string().as_bytes(),
    ));
    let umlaut = binary.windows(2).position(|w| w == "ü".as_bytes()).unwrap();
    binary[umlaut] = 0xff;
    // The parenthesis is prost's text: the fields at fault, innermost first.
    let line = failure(transcode("lf.a2a.v1.Task", "binpb", "binpb", &binary), 1);
    assert_eq!(
        line,
        format!(
            "error: invalid binpb for lf.a2a.v1.Task at byte offset 10: field 3 (length-delimited, \
             bytes 10..{}) does not decode (Part.content: Message.parts: TaskStatus.message: \
             Task.status: invalid string value: data is not UTF-8 encoded)",
            binary.len()
        )
    );
}

#[test]
fn malformed_binary_keys_name_the_offset() {
    // A valid id field, then wire type 7.
    let line = failure(
        transcode("lf.a2a.v1.Task", "binpb", "json", b"\x0a\x03t-1\x17"),
        1,
    );
    assert_eq!(
        line,
        "error: invalid binpb for lf.a2a.v1.Task at byte offset 5: invalid wire type 7 (field 2) \
         (invalid wire type value: 7)"
    );
}

#[test]
fn oneof_only_message_without_member_cannot_be_json() {
    let line = failure(
        transcode("lf.a2a.v1.StreamResponse", "binpb", "json", b""),
        1,
    );
    assert!(
        line.starts_with("error: cannot write lf.a2a.v1.StreamResponse as JSON"),
        "{line}"
    );
    // Binary to binary does not need the serde type.
    assert!(ok(transcode("lf.a2a.v1.StreamResponse", "binpb", "binpb", b"")).is_empty());
}

#[test]
fn unknown_type_is_a_usage_error_with_suggestion() {
    let line = failure(transcode("Task", "json", "binpb", b"{}"), 2);
    assert_eq!(
        line,
        "error: unknown message type `Task`; did you mean `lf.a2a.v1.Task` or `a2a.v1.Task`? \
         (`a2a list-types` prints all)"
    );
    let line = failure(transcode("lf.a2a.v1.AgentCrad", "json", "binpb", b"{}"), 2);
    assert!(
        line.contains("did you mean `lf.a2a.v1.AgentCard`?"),
        "{line}"
    );
}

#[test]
fn usage_errors_are_one_line_with_status_2() {
    let line = failure(transcode("lf.a2a.v1.Task", "xml", "json", b"{}"), 2);
    assert!(
        line.starts_with("error: invalid value 'xml' for '--from"),
        "{line}"
    );
    let line = failure(a2a(&["transcode", "--type", "lf.a2a.v1.Task"], b""), 2);
    assert!(line.contains("--from"), "{line}");
    let line = failure(a2a(&[], b""), 2);
    assert!(line.contains("requires a subcommand"), "{line}");
    let line = failure(
        a2a(
            &[
                "transcode",
                "--type",
                "lf.a2a.v1.Task",
                "--from",
                "json",
                "--to",
                "binpb",
                "--pretty",
            ],
            b"{}",
        ),
        2,
    );
    assert!(
        line.contains("--pretty applies only to JSON output"),
        "{line}"
    );
}

#[test]
fn list_types_prints_every_message_once() {
    let listed = String::from_utf8(ok(a2a(&["list-types"], b""))).unwrap();
    let names: Vec<&str> = listed.lines().collect();
    let (v1, v0_3) = names.split_at(a2a_types::v1::MESSAGE_NAMES.len());
    assert_eq!(v1, a2a_types::v1::MESSAGE_NAMES);
    assert_eq!(v0_3, a2a_proto::v0_3::MESSAGE_NAMES);
    assert!(names.contains(&"lf.a2a.v1.Task") && names.contains(&"a2a.v1.Task"));
    let mut fixtures: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json")
                .map(|simple| format!("lf.a2a.v1.{simple}"))
        })
        .collect();
    fixtures.sort();
    let mut sorted = v1.to_vec();
    sorted.sort();
    assert_eq!(sorted, fixtures);

    let upgrade = String::from_utf8(ok(a2a(&["list-types", "--for", "upgrade"], b""))).unwrap();
    assert!(
        upgrade.lines().any(|l| l == "MessageSendParams"),
        "{upgrade}"
    );
    let downgrade = String::from_utf8(ok(a2a(&["list-types", "--for", "downgrade"], b""))).unwrap();
    assert!(
        downgrade.lines().any(|l| l == "lf.a2a.v1.AgentCard"),
        "{downgrade}"
    );
}

fn v0_3_fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/v0_3")
            .join(name),
    )
    .unwrap()
}

#[test]
fn v0_3_proto_messages_transcode_between_jsonrpc_protojson_and_binary() {
    let params = json!({
        "message": {"kind": "message", "role": "user", "messageId": "m-1", "contextId": "ctx-1",
                    "parts": [{"kind": "text", "text": "Find a hotel in Lisbon"}]},
        "configuration": {"acceptedOutputModes": ["text/plain"], "blocking": true, "historyLength": 5}
    });
    let text = params.to_string();
    let proto_json = json_value(&ok(transcode(
        "a2a.v1.SendMessageRequest",
        "json",
        "proto-json",
        text.as_bytes(),
    )));
    // The v0.3 gRPC binding's names: `content` for the parts, enum names for the role.
    assert_eq!(
        proto_json["message"]["content"][0]["text"],
        "Find a hotel in Lisbon"
    );
    assert_eq!(proto_json["message"]["role"], "ROLE_USER");
    let binary = ok(transcode(
        "a2a.v1.SendMessageRequest",
        "proto-json",
        "binpb",
        proto_json.to_string().as_bytes(),
    ));
    let back = json_value(&ok(transcode(
        "a2a.v1.SendMessageRequest",
        "binpb",
        "json",
        &binary,
    )));
    assert_eq!(back["message"]["parts"], params["message"]["parts"]);
    assert_eq!(back["message"]["messageId"], "m-1");
    assert_eq!(back["configuration"]["historyLength"], 5);

    let task = ok(transcode(
        "a2a.v1.Task",
        "json",
        "binpb",
        &v0_3_fixture("Task.json"),
    ));
    let again = json_value(&ok(transcode("a2a.v1.Task", "binpb", "json", &task)));
    assert_eq!(again["status"]["state"], "completed");
    assert_eq!(again["artifacts"][0]["parts"].as_array().unwrap().len(), 3);
}

#[test]
fn v0_3_transcode_errors() {
    let line = failure(
        transcode(
            "a2a.v1.Task",
            "json",
            "binpb",
            br#"{"id":"t","contextId":"c","status":{"state":"paused"}}"#,
        ),
        1,
    );
    assert!(
        line.starts_with(
            "error: invalid JSON for a2a.v1.Task (its v0.3 JSON-RPC form) at `status.state`"
        ),
        "{line}"
    );
    let line = failure(
        transcode("a2a.v1.GetAgentCardRequest", "json", "binpb", b"{}"),
        2,
    );
    assert!(
        line.contains("has no v0.3 JSON-RPC form") && line.contains("proto-json or binpb"),
        "{line}"
    );
    let line = failure(
        transcode(
            "a2a.v1.Task",
            "proto-json",
            "json",
            br#"{"status":{"state":"TASK_STATE_NAPPING"}}"#,
        ),
        1,
    );
    assert!(
        line.starts_with("error: invalid ProtoJSON for a2a.v1.Task at `status.state`"),
        "{line}"
    );
}

#[test]
fn upgrade_and_downgrade_convert_between_versions() {
    let output = a2a(&["upgrade", "--type", "Task"], &v0_3_fixture("Task.json"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "lf.a2a.v1.Task\n");
    let v1 = json_value(&output.stdout);
    assert_eq!(v1["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        v1["artifacts"][0]["parts"][1]["url"],
        "https://cdn.example.com/maps/lisbon-shortlist.png"
    );
    // The v1 form is a valid v1 message for the transcoder too.
    ok(transcode(
        "lf.a2a.v1.Task",
        "json",
        "binpb",
        v1.to_string().as_bytes(),
    ));

    let output = a2a(
        &["downgrade", "--type", "lf.a2a.v1.Task"],
        v1.to_string().as_bytes(),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "Task\n");
    let v0_3 = json_value(&output.stdout);
    assert_eq!(v0_3["kind"], "task");
    assert_eq!(v0_3["status"]["state"], "completed");
    assert_eq!(
        v0_3["history"][0]["parts"][0]["text"],
        "Find me a hotel in Lisbon from 12 to 15 June, under 180 EUR a night."
    );

    let card = a2a(
        &["downgrade", "--type", "lf.a2a.v1.AgentCard", "--pretty"],
        &fixture("AgentCard"),
    );
    assert!(
        card.status.success(),
        "{}",
        String::from_utf8_lossy(&card.stderr)
    );
    let card = json_value(&card.stdout);
    assert!(
        card["url"].is_string() && card["protocolVersion"].is_string(),
        "{card}"
    );
}

#[test]
fn upgrade_and_downgrade_errors_are_one_line() {
    let line = failure(a2a(&["upgrade", "--type", "Tsk"], b"{}"), 2);
    assert!(line.contains("did you mean `Task`?"), "{line}");
    let line = failure(a2a(&["downgrade", "--type", "lf.a2a.v1.Part"], b"{}"), 1);
    assert!(
        line.starts_with("error: cannot downgrade lf.a2a.v1.Part"),
        "{line}"
    );
    let line = failure(a2a(&["upgrade", "--type", "Task"], b"not json"), 1);
    assert!(
        line.starts_with("error: invalid JSON for Task at `.`"),
        "{line}"
    );
}

#[test]
fn help_and_version_go_to_stdout() {
    let help = String::from_utf8(ok(a2a(&["--help"], b""))).unwrap();
    assert!(
        help.contains("transcode") && help.contains("list-types"),
        "{help}"
    );
    let version = String::from_utf8(ok(a2a(&["--version"], b""))).unwrap();
    assert_eq!(version, format!("a2a {}\n", env!("CARGO_PKG_VERSION")));
}

/// The decimal corpus of the suite's `json_exact_numbers` test (over 100,000 texts, each with the double
/// Rust's correctly rounded `str::parse` reads from it).
#[path = "../../tests/src/decimals.rs"]
#[allow(dead_code)] // `overflowing` is the suite's
mod decimals;

/// Every number survives `transcode` (JSON → binary → JSON) and `upgrade`/`downgrade` bit for bit: the
/// tool reads with correctly rounded parsing and writes shortest round-trip texts.
#[test]
fn every_number_survives_transcode_and_the_bridge_exactly() {
    let corpus = decimals::corpus();
    assert!(corpus.len() >= decimals::MIN_CORPUS);
    let texts: Vec<&str> = corpus.iter().map(|(text, _)| text.as_str()).collect();
    let array = format!("[{}]", texts.join(","));
    let check = |what: &str, values: &Value| {
        let values = values
            .as_array()
            .unwrap_or_else(|| panic!("{what}: {values}"));
        assert_eq!(values.len(), corpus.len(), "{what}");
        for (value, (text, expected)) in values.iter().zip(&corpus) {
            let ours = value.as_f64().unwrap();
            assert!(
                ours.to_bits() == expected.to_bits(),
                "{what}: {text} came out as {ours:e}, correctly rounded it is {expected:e}"
            );
        }
    };
    let binary = ok(transcode(
        "lf.a2a.v1.Part",
        "json",
        "binpb",
        format!(r#"{{"data":{array}}}"#).as_bytes(),
    ));
    let json = ok(transcode("lf.a2a.v1.Part", "binpb", "json", &binary));
    let part: Value = serde_json::from_slice(&json).unwrap();
    check("transcode JSON → binpb → JSON", &part["data"]);

    let upgrade = a2a(
        &["upgrade", "--type", "Part"],
        format!(r#"{{"kind":"data","data":{{"values":{array}}}}}"#).as_bytes(),
    );
    assert!(
        upgrade.status.success(),
        "{}",
        String::from_utf8_lossy(&upgrade.stderr)
    );
    let v1: Value = serde_json::from_slice(&upgrade.stdout).unwrap();
    check("upgrade", &v1["data"]["values"]);
    let downgrade = a2a(&["downgrade", "--type", "lf.a2a.v1.Part"], &upgrade.stdout);
    assert!(
        downgrade.status.success(),
        "{}",
        String::from_utf8_lossy(&downgrade.stderr)
    );
    let v0_3: Value = serde_json::from_slice(&downgrade.stdout).unwrap();
    check("upgrade then downgrade", &v0_3["data"]["values"]);
}

/// A wrongly typed 50 MB document gives one short line on stderr that still names the path, for
/// `transcode` (both JSON readers) and `upgrade`.
#[test]
fn a_huge_wrongly_typed_document_gives_a_short_error() {
    let task = |bytes: usize| {
        format!(
            r#"{{"id":"t-1","contextId":"c-1","status":"{}"}}"#,
            "A".repeat(bytes)
        )
    };
    // 50 MB once; the other readers with 5 MB, to keep the test quick.
    for (args, bytes) in [
        (
            &[
                "transcode",
                "--type",
                "lf.a2a.v1.Task",
                "--from",
                "json",
                "--to",
                "binpb",
            ][..],
            50_000_000,
        ),
        (
            &[
                "transcode",
                "--type",
                "a2a.v1.Task",
                "--from",
                "proto-json",
                "--to",
                "binpb",
            ][..],
            5_000_000,
        ),
    ] {
        let line = failure(a2a(args, task(bytes).as_bytes()), 1);
        assert!(line.len() < 600, "{args:?}: {} bytes", line.len());
        assert!(line.contains("`status`"), "{line}");
        assert!(line.contains("bytes left out"), "{line}");
    }
    let part = format!(r#"{{"kind":"{}","text":"hello"}}"#, "A".repeat(5_000_000));
    let line = failure(a2a(&["upgrade", "--type", "Part"], part.as_bytes()), 1);
    assert!(line.len() < 600, "upgrade: {} bytes", line.len());
    assert!(line.contains("unknown kind"), "{line}");
}

/// The input rules of both crates hold in the tool: a key twice in an object, and text that is not
/// Unicode even inside an ignored unknown field, are one-line errors.
#[test]
fn duplicate_keys_and_lone_surrogates_are_errors() {
    let part = br#"{"kind":"file","file":{"uri":"https://files.example.com/a.pdf"},"kind":"text","text":"x"}"#;
    let line = failure(a2a(&["upgrade", "--type", "Part"], part), 1);
    assert!(line.contains("duplicate key \"kind\""), "{line}");
    let metadata = br#"{"messageId":"m-1","role":"ROLE_USER","parts":[],"metadata":{"a":1,"a":2}}"#;
    let line = failure(transcode("lf.a2a.v1.Message", "json", "binpb", metadata), 1);
    assert!(
        line.contains("`metadata`") && line.contains("duplicate key \"a\""),
        "{line}"
    );
    let surrogate = br#"{"id":"t-1","contextId":"c-1","note":"\ud800"}"#;
    let line = failure(transcode("lf.a2a.v1.Task", "json", "binpb", surrogate), 1);
    assert!(line.contains("lone surrogate"), "{line}");
    let line = failure(
        transcode("a2a.v1.Task", "proto-json", "binpb", surrogate),
        1,
    );
    assert!(line.contains("lone surrogate"), "{line}");
}

/// `{"k": … {"leaf": 1}}`, `depth` objects deep.
fn nested_objects(depth: usize) -> Value {
    (1..depth).fold(json!({"leaf": 1}), |inner, _| json!({ "k": inner }))
}

/// The nesting limit (30) holds in the tool on every path: JSON in, binary in, and the bridge; a
/// document at the limit converts both ways, one level deeper is a one-line error naming the field,
/// and a document nested thousands deep is refused the same way, never a crash.
#[test]
fn nesting_beyond_the_limit_is_a_one_line_error_on_every_path() {
    const MAX: usize = 30;
    let message = |data: Value| {
        json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"data": data}]}).to_string()
    };
    let binary = ok(transcode(
        "lf.a2a.v1.Message",
        "json",
        "binpb",
        message(nested_objects(MAX)).as_bytes(),
    ));
    let json: Value = serde_json::from_slice(&ok(transcode(
        "lf.a2a.v1.Message",
        "binpb",
        "json",
        &binary,
    )))
    .unwrap();
    assert_eq!(json["parts"][0]["data"], nested_objects(MAX));

    let line = failure(
        transcode(
            "lf.a2a.v1.Message",
            "json",
            "binpb",
            message(nested_objects(MAX + 1)).as_bytes(),
        ),
        1,
    );
    assert!(line.contains("parts[0]"), "{line}");
    assert!(line.contains("nested deeper than 30 levels"), "{line}");

    // Binary nested far deeper: ListValue inside Value, 5,000 times, built from the inside out.
    let mut value: Vec<u8> = Vec::new();
    for _ in 0..5_000 {
        let mut list = vec![0x0a];
        push_varint(&mut list, value.len());
        list.extend_from_slice(&value);
        value = vec![0x32];
        push_varint(&mut value, list.len());
        value.extend_from_slice(&list);
    }
    // The Value as Message.parts[0].data (Part.data is field 4, Message.parts field 5).
    let mut part = vec![0x22];
    push_varint(&mut part, value.len());
    part.extend_from_slice(&value);
    let mut message_bytes = vec![0x2a];
    push_varint(&mut message_bytes, part.len());
    message_bytes.extend_from_slice(&part);
    let line = failure(
        transcode("lf.a2a.v1.Message", "binpb", "json", &message_bytes),
        1,
    );
    assert!(line.contains("nested deeper than 30 levels"), "{line}");

    let part = |data: Value| json!({"kind": "data", "data": data}).to_string();
    let output = a2a(
        &["upgrade", "--type", "Part"],
        part(nested_objects(MAX)).as_bytes(),
    );
    assert!(output.status.success(), "{output:?}");
    let upgraded: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(upgraded["data"], nested_objects(MAX));
    let line = failure(
        a2a(
            &["upgrade", "--type", "Part"],
            part(nested_objects(MAX + 1)).as_bytes(),
        ),
        1,
    );
    assert!(line.contains("nested deeper than 30 levels"), "{line}");
}

fn push_varint(out: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// `a2a describe` writes the agent's OpenAPI and OpenRPC documents and its page, from a card file or
/// stdin, the same as the library.
#[test]
fn describe_writes_each_format_from_a_card() {
    let card_path = fixtures_dir().join("AgentCard.json");
    let card_path = card_path.to_str().unwrap();
    let card: a2a_types::v1::AgentCard = serde_json::from_slice(&fixture("AgentCard")).unwrap();

    let openapi = json_value(&ok(a2a(
        &["describe", "--card", card_path, "--format", "openapi"],
        b"",
    )));
    assert_eq!(openapi, a2a_protocol::describe::openapi(&card).unwrap());
    assert_eq!(openapi["info"]["title"], "Wayfarer Travel Agent");

    let openrpc = json_value(&ok(a2a(
        &["describe", "--card", "-", "--format", "openrpc"],
        &fixture("AgentCard"),
    )));
    assert_eq!(openrpc, a2a_protocol::describe::openrpc(&card).unwrap());

    let html = ok(a2a(
        &["describe", "--card", card_path, "--format", "html"],
        b"",
    ));
    let html = String::from_utf8(html).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Wayfarer Travel Agent"));
}

#[test]
fn describe_names_what_is_wrong_with_a_card() {
    let mut card: Value = serde_json::from_slice(&fixture("AgentCard")).unwrap();
    card["name"] = json!("");
    card["securityRequirements"] = json!([{"schemes": {"sso": {"list": []}}}]);
    let line = failure(
        a2a(
            &["describe", "--card", "-"],
            &serde_json::to_vec(&card).unwrap(),
        ),
        1,
    );
    assert!(line.contains("the card is not valid: name: "), "{line}");
    assert!(
        line.contains("security_requirements[0].schemes[sso]"),
        "{line}"
    );

    card["name"] = json!(7);
    let line = failure(
        a2a(
            &["describe", "--card", "-", "--format", "openrpc"],
            &serde_json::to_vec(&card).unwrap(),
        ),
        1,
    );
    assert!(line.contains("at `name`"), "{line}");
    let line = failure(
        a2a(&["describe", "--card", "/nonexistent/card.json"], b""),
        1,
    );
    assert!(
        line.contains("cannot read /nonexistent/card.json"),
        "{line}"
    );
    let line = failure(
        a2a(&["describe", "--card", "-", "--format", "yaml"], b"{}"),
        2,
    );
    assert!(line.contains("yaml"), "{line}");
}
