//! Errors stay small: an error about a huge value quotes at most a few hundred bytes of it, and still
//! names the path at fault (`a2a_types::json::bounded`, and the same rule in `a2a_proto::json`). The
//! inputs are the shapes found in the field: a v0.3 part whose `kind` is a 50 MB string, and responses
//! whose members hold many megabytes of the wrong type. The CLI's stderr is tested in
//! `a2a-cli/tests/cli.rs`.

use a2a_protocol::jsonrpc::JsonRpcResponse;
use a2a_protocol::operations::Operation;

/// An error line this long at most: the kept start and end, the note, the path.
const SHORT: usize = 600;

fn huge_string(bytes: usize) -> String {
    format!("\"{}\"", "A".repeat(bytes))
}

/// Short, with the note of how much was left out and the length of the whole text (which the note
/// counts; the offending value is most of it).
#[track_caller]
fn is_short(error: &str, value_bytes: usize) {
    assert!(
        error.len() < SHORT,
        "{} bytes: {}…",
        error.len(),
        &error[..300]
    );
    let (_, note) = error
        .split_once("… [")
        .expect("the note of what was left out");
    let (left_out, rest) = note.split_once(" of ").unwrap();
    let (total, _) = rest.split_once(" bytes left out] …").unwrap();
    let (left_out, total): (usize, usize) = (left_out.parse().unwrap(), total.parse().unwrap());
    assert!(
        total > value_bytes && left_out > value_bytes - SHORT,
        "{error}"
    );
}

#[test]
fn a_v0_3_part_whose_kind_is_50_mb_gives_a_short_error() {
    let kind = huge_string(50_000_000);
    let document = format!(r#"{{"kind":{kind},"text":"hello"}}"#);
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::Part>(&document).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("unknown kind \"AAAA"), "{text}");
    assert!(text.len() < SHORT, "{} bytes", text.len());

    // Inside a message, the path leads to the part (5 MB from here on, to keep the test quick).
    let kind = huge_string(5_000_000);
    let document = format!(r#"{{"kind":{kind},"text":"hello"}}"#);
    let message = format!(
        r#"{{"kind":"message","role":"user","messageId":"m-1","parts":[{{"kind":"text","text":"hi"}},{{"kind":{kind},"text":"x"}}]}}"#
    );
    let error = a2a_types::json::from_str::<a2a_compat::v0_3::Message>(&message).unwrap_err();
    assert_eq!(error.path(), "parts[1]", "{error}");
    assert!(
        error.to_string().len() < SHORT,
        "{} bytes",
        error.to_string().len()
    );

    // Through the bridge's JSON entry point.
    let value: serde_json::Value = serde_json::from_str(&document).unwrap();
    let error = a2a_compat::bridge::upgrade_json("Part", value).unwrap_err();
    assert!(
        error.to_string().len() < SHORT,
        "{} bytes",
        error.to_string().len()
    );
}

#[test]
fn a_wrongly_typed_huge_member_gives_a_short_error_naming_it() {
    let status = huge_string(8_000_000);
    let task = format!(r#"{{"id":"t-1","contextId":"c-1","status":{status}}}"#);
    let types = a2a_types::json::from_str::<a2a_types::v1::Task>(&task).unwrap_err();
    assert_eq!(types.path(), "status");
    is_short(&types.to_string(), status.len());
    assert!(types.inner().to_string().len() < SHORT);
    let proto = a2a_proto::json::from_str::<a2a_proto::v1::Task>(&task).unwrap_err();
    assert_eq!(proto.path(), "status");
    is_short(&proto.to_string(), status.len());
    assert!(proto.inner().to_string().len() < SHORT);
}

#[test]
fn a_wrongly_typed_huge_json_rpc_result_gives_a_short_error() {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"id": "t-1", "status": {"state": "A".repeat(8_000_000)}},
    });
    let error = JsonRpcResponse::parse(&body, Operation::GetTask).unwrap_err();
    let text = error.to_string();
    assert!(text.len() < SHORT, "{} bytes", text.len());
    assert!(text.contains("result.status.state"), "{text}");
}

#[test]
fn short_errors_are_kept_whole() {
    let error = a2a_types::json::from_str::<a2a_types::v1::Task>(
        r#"{"id":"t-1","status":{"state":"TASK_STATE_PAUSED"}}"#,
    )
    .unwrap_err();
    assert!(!error.to_string().contains("left out"), "{error}");
    assert!(error.to_string().contains("TASK_STATE_PAUSED"), "{error}");
    assert!(error.inner().line() > 0, "line and column kept");
}
