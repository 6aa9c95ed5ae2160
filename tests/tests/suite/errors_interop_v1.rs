//! `a2a_protocol::errors` against the official Python SDK (`a2a-sdk` 1.3.0), for every error the SDK maps
//! to a JSON-RPC code: the mapping (JSON-RPC code, HTTP status, gRPC status, `ErrorInfo` reason) is the
//! SDK's; the JSON-RPC error object and the REST error body we write equal the SDK's; we read the SDK's;
//! the SDK's clients read ours back to the same error, message and data.
//!
//! The SDK's server also writes the five JSON-RPC standard errors bare, without `data`, when it has
//! nothing to add (its `a2a.server.jsonrpc_models` classes): each equals our [`Error::bare`] with the
//! same message, and reads back to it. Every body the SDK writes is compared exactly: the JSON-RPC
//! objects of the thirteen errors it can write with details, their thirteen REST bodies and the five
//! bare objects, [`SDK_BODIES`] in all.
//!
//! One error is compared less, because the SDK cannot produce it consistently: `JSONParseError` (-32700)
//! has no mapping in the SDK, whose JSON-RPC writer fails on it and whose REST writer answers 500
//! `INTERNAL` (its REST server answers real parse failures 400 `INVALID_ARGUMENT`, as we do). For it only
//! the SDK's JSON-RPC client reading our object is checked.
//!
//! Needs the SDK's interpreter like `proto_interop_v1.rs`: `A2A_INTEROP_PYTHON`, else `.venv/bin/python`;
//! skips with a message without one, fails under `CI=true`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_tests::interop::{Suite, python, run_script};
use a2a_types::validate::{FieldViolation, Violations};
use serde_json::{Value, json};

/// The error bodies the SDK writes (see the module docs), every one of which ours must equal.
const SDK_BODIES: usize = 13 + 13 + 5;

const SUITE: Suite = Suite {
    name: "errors v1",
    package_args: &[],
    sdk_module: "a2a.utils.error_handlers",
};

/// The error the SDK's sample stands for, built as a Rust server would: invalid params from
/// validation, the others with the message and context.
fn ours_for(kind: ErrorKind, message: &str, data: &Value) -> Error {
    if kind == ErrorKind::InvalidParams {
        let violations: Vec<FieldViolation> = data["errors"]
            .as_array()
            .expect("the SDK sample has errors")
            .iter()
            .map(|e| FieldViolation {
                field: e["field"].as_str().unwrap().to_owned(),
                description: e["message"].as_str().unwrap().to_owned(),
            })
            .collect();
        let mut error = Error::from(&Violations::from(violations));
        error.message = message.to_owned();
        return error;
    }
    let mut error = Error::with_message(kind, message);
    for (key, value) in data.as_object().expect("the SDK sample has data") {
        error = error.with_metadata(key.clone(), value.clone());
    }
    error
}

#[test]
fn errors_match_the_official_sdk_both_ways() {
    let Some(python) = python(&SUITE) else { return };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("errors_interop_v1");
    std::fs::create_dir_all(&dir).unwrap();
    let dir_arg = dir.to_str().unwrap();

    let (ok, stdout) = run_script(&python, "sdk_errors.py", &["generate"], &dir);
    assert!(ok, "sdk_errors.py generate failed");
    let sdk: Vec<Value> = serde_json::from_str(&stdout).unwrap();

    let mut failures = Vec::new();
    let mut passed = 0usize;
    let mut check = |ok: bool, what: String| {
        if ok {
            passed += 1;
        } else {
            failures.push(what);
        }
    };
    let mut kinds = BTreeSet::new();
    let mut ours_list = Vec::new();
    let mut bodies_equal = 0usize;
    let mut bodies = 0usize;
    for entry in &sdk {
        let name = entry["name"].as_str().unwrap();
        let code = entry["code"].as_i64().unwrap();
        let Some(kind) = ErrorKind::from_jsonrpc_code(code) else {
            check(
                false,
                format!("{name}: the SDK's code {code} is not an ErrorKind"),
            );
            continue;
        };
        if entry["bare"] == json!(true) {
            let ours = Error::bare(kind, entry["message"].as_str().unwrap());
            let sdk_object = &entry["jsonrpc"]["ok"];
            bodies += 1;
            bodies_equal += usize::from(&ours.to_jsonrpc() == sdk_object);
            check(
                &ours.to_jsonrpc() == sdk_object,
                format!(
                    "{name}: bare JSON-RPC object\n ours {}\n sdk  {sdk_object}",
                    ours.to_jsonrpc()
                ),
            );
            check(
                Error::from_jsonrpc(sdk_object).as_ref() == Ok(&ours),
                format!(
                    "{name}: reading the SDK's bare object gave {:?}",
                    Error::from_jsonrpc(sdk_object)
                ),
            );
            ours_list.push((kind, ours));
            continue;
        }
        kinds.insert(format!("{kind:?}"));
        if let Some(mapping) = entry["mapping"].as_object() {
            check(
                mapping["http"] == json!(kind.http_status()),
                format!(
                    "{name}: HTTP {} vs our {}",
                    mapping["http"],
                    kind.http_status()
                ),
            );
            check(
                mapping["grpc"] == json!(kind.grpc_code().name()),
                format!(
                    "{name}: gRPC {} vs our {}",
                    mapping["grpc"],
                    kind.grpc_code()
                ),
            );
            check(
                mapping["reason"] == json!(kind.reason()),
                format!(
                    "{name}: reason {} vs our {}",
                    mapping["reason"],
                    kind.reason()
                ),
            );
        }
        let ours = ours_for(kind, entry["message"].as_str().unwrap(), &entry["data"]);
        let compare_rest = kind != ErrorKind::JsonParse;

        match entry["jsonrpc"].get("ok") {
            Some(sdk_object) => {
                bodies += 1;
                bodies_equal += usize::from(&ours.to_jsonrpc() == sdk_object);
                check(
                    &ours.to_jsonrpc() == sdk_object,
                    format!(
                        "{name}: JSON-RPC object\n ours {}\n sdk  {sdk_object}",
                        ours.to_jsonrpc()
                    ),
                );
                check(
                    Error::from_jsonrpc(sdk_object).as_ref() == Ok(&ours),
                    format!(
                        "{name}: reading the SDK's JSON-RPC object gave {:?}",
                        Error::from_jsonrpc(sdk_object)
                    ),
                );
            }
            None => eprintln!(
                "{name}: the SDK cannot write it as JSON-RPC ({})",
                entry["jsonrpc"]["failed"]
            ),
        }
        if compare_rest {
            let sdk_body = &entry["rest"]["ok"];
            bodies += 1;
            bodies_equal += usize::from(&ours.to_rest() == sdk_body);
            check(
                &ours.to_rest() == sdk_body,
                format!(
                    "{name}: REST body\n ours {}\n sdk  {sdk_body}",
                    ours.to_rest()
                ),
            );
            check(
                Error::from_rest(sdk_body).as_ref() == Ok(&ours),
                format!(
                    "{name}: reading the SDK's REST body gave {:?}",
                    Error::from_rest(sdk_body)
                ),
            );
        }
        ours_list.push((kind, ours));
    }
    let all: BTreeSet<String> = ErrorKind::ALL.iter().map(|k| format!("{k:?}")).collect();
    check(
        kinds == all,
        format!("the SDK's errors {kinds:?} are not ours {all:?}"),
    );

    // The SDK's clients read what we write.
    let written: Vec<Value> = ours_list
        .iter()
        .map(|(_, e)| json!({"jsonrpc": e.to_jsonrpc(), "rest": e.to_rest()}))
        .collect();
    std::fs::write(dir.join("ours.json"), serde_json::to_vec(&written).unwrap()).unwrap();
    let (ok, stdout) = run_script(&python, "sdk_errors.py", &["read"], &dir);
    assert!(ok, "sdk_errors.py read {dir_arg} failed");
    let read_back: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    assert_eq!(read_back.len(), ours_list.len());
    for ((kind, ours), sdk_read) in ours_list.iter().zip(&read_back) {
        let data = if ours.metadata.is_empty() {
            Value::Null
        } else {
            Value::Object(ours.metadata.clone())
        };
        let expected = json!({"code": kind.jsonrpc_code(), "message": ours.message, "data": data});
        check(
            sdk_read["jsonrpc"] == expected,
            format!(
                "{kind:?}: the SDK's JSON-RPC client read {} for {expected}",
                sdk_read["jsonrpc"]
            ),
        );
        if *kind != ErrorKind::JsonParse {
            check(
                sdk_read["rest"] == expected,
                format!(
                    "{kind:?}: the SDK's REST client read {} for {expected}",
                    sdk_read["rest"]
                ),
            );
        }
    }

    eprintln!(
        "errors v1 against a2a-sdk: {passed} checks passed, {} failed, over {} errors; \
         {bodies_equal} of {bodies} SDK error bodies written exactly",
        failures.len(),
        sdk.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        (bodies_equal, bodies),
        (SDK_BODIES, SDK_BODIES),
        "every error body the SDK writes, written exactly"
    );
}

/// The gRPC status we encode is the `google.rpc.Status` protobuf's own library reads, and we read the
/// one it encodes, for every error: Python protobuf decodes our `grpc-status-details-bin` bytes (we read
/// its ProtoJSON of them back to the same error), and encodes the same status from ProtoJSON (we read
/// those bytes back to the same error). Metadata values are strings, as `ErrorInfo.metadata` holds.
#[test]
fn grpc_status_details_match_python_protobuf() {
    let Some(python) = python(&SUITE) else { return };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("errors_interop_v1_grpc");
    std::fs::create_dir_all(&dir).unwrap();

    let errors: Vec<Error> = ErrorKind::ALL
        .into_iter()
        .map(|kind| {
            if kind == ErrorKind::InvalidParams {
                let violations = Violations::from(vec![
                    FieldViolation {
                        field: "message.parts".into(),
                        description: "Field is required.".into(),
                    },
                    FieldViolation {
                        field: "message.role".into(),
                        description: "Field is required.".into(),
                    },
                ]);
                return Error::from(&violations);
            }
            Error::with_message(kind, format!("{kind:?} for task-123"))
                .with_metadata("taskId", "task-123")
        })
        .collect();
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let written: Vec<Value> = errors
        .iter()
        .map(|error| {
            let status = error.to_grpc_status();
            let mut details = error.details();
            // ErrorInfo.metadata is a string map: the BadRequest carries invalid params' `errors`.
            if error.kind == ErrorKind::InvalidParams {
                details[0]["metadata"] = json!({});
            }
            json!({
                "bin": hex(&status.details_bin),
                "json": {"code": status.code.code(), "message": status.message, "details": details},
            })
        })
        .collect();
    std::fs::write(
        dir.join("ours_grpc.json"),
        serde_json::to_vec(&written).unwrap(),
    )
    .unwrap();
    let (ok, stdout) = run_script(&python, "sdk_errors.py", &["grpc"], &dir);
    assert!(ok, "sdk_errors.py grpc failed");
    let results: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    assert_eq!(results.len(), errors.len());

    let mut passed = 0;
    let mut failures = Vec::new();
    for (error, result) in errors.iter().zip(&results) {
        let parsed = &result["parsed"];
        let status = error.to_grpc_status();
        let from_json = Error::from_rest(&json!({"error": parsed}));
        // The ProtoJSON of the status has what the binary has: invalid params' `errors` only in the
        // BadRequest (the gRPC reader lists them again, as the SDK's gRPC client does; the JSON readers
        // take the JSON as it is).
        let mut expected_from_json = error.clone();
        if error.kind == ErrorKind::InvalidParams {
            expected_from_json.metadata.remove("errors");
        }
        let unhex = |text: &str| -> Vec<u8> {
            (0..text.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
                .collect()
        };
        let from_bytes = Error::from_grpc_status(&unhex(result["encoded"].as_str().unwrap()));
        let checks = [
            (
                parsed["code"] == json!(status.code.code()),
                format!("code {}", parsed["code"]),
            ),
            (
                from_json.as_ref() == Ok(&expected_from_json),
                format!("protobuf decoded our bytes as {parsed}"),
            ),
            (
                from_bytes.as_ref() == Ok(error),
                format!("we read protobuf's bytes as {from_bytes:?}"),
            ),
        ];
        for (ok, what) in checks {
            if ok {
                passed += 1;
            } else {
                failures.push(format!("{:?}: {what}", error.kind));
            }
        }
    }
    eprintln!(
        "gRPC status v1 against Python protobuf: {passed} checks passed, {} failed, over {} errors",
        failures.len(),
        errors.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
