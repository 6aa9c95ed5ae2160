//! `a2a_protocol::jsonrpc` (with `sse`, `errors` and `service`) against the official Python SDK's own
//! JSON-RPC client and server (`a2a-sdk` 1.3.0), for every v1 method, both ways.
//!
//! `tests/interop/sdk_jsonrpc_v1.py generate` has the SDK's client call the SDK's server in-process
//! for each method (and a missing task), recording the request the client sent, what the server's
//! request handler received, the server's response (JSON, or the raw event stream) and what the
//! client made of it. Here, for each call:
//!
//! 1. SDK request → us: [`JsonRpcRequest::parse`] reads the client's request into the method's typed
//!    params, equal to what the SDK's handler received;
//! 2. SDK response → us: [`JsonRpcResponse::parse`] (each event through [`JsonDecoder`] for the
//!    streaming methods) reads the server's response into the typed result, equal to what the SDK's
//!    client read; an error response becomes the same error;
//! 3. our request → SDK (`check`): the request we write for the same call reaches the SDK server's
//!    handler as the same request;
//! 4. our response → SDK (`check`): the response (or event stream) we write for the same result is
//!    read by the SDK's client to the same result or error;
//! 5. `A2A-Version`: the SDK's client sends `1.0`, which we read as 1.0 and write the same way; for a
//!    set of header values the SDK's server serves exactly those we consider compatible with 1.0,
//!    except the one documented difference below; its refusal reads as `VersionNotSupported`.
//!
//! Both sides read a header value the same way (as a PEP 440 version: `1`, `v1.0` and `1.0rc1` are
//! 1.0). The one difference: the SDK's server serves any `1.x` for its 1.0 handler (it compares the
//! major version only), while [`ProtocolVersion::is_compatible_with`] requires the same major and
//! minor (spec section 3.6: versions are negotiated as major.minor). The test asserts that only `1.1`
//! differs, so a change on either side shows.
//!
//! Skips with a message without the SDK's interpreter, except under `CI=true`, where it fails.

use std::path::PathBuf;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::operations::MethodResult;
use a2a_protocol::operations::Operation;
use a2a_protocol::service::ProtocolVersion;
use a2a_protocol::sse::{self, JsonDecoder, StreamItem};
use a2a_tests::interop::{Suite, python, run_script};
use a2a_tests::{json_differences, json_equivalent};
use serde_json::{Value, json};

const SUITE: Suite = Suite {
    name: "JSON-RPC v1",
    package_args: &[],
    sdk_module: "a2a.server.routes, a2a.client.transports.jsonrpc, sse_starlette",
};

/// Header values probed against the SDK server's version check (`None`: no header): the cases of the
/// one `A2A-Version` rule (`a2a_protocol::service::ProtocolVersion::from_header`).
const VERSIONS: [Option<&str>; 11] = [
    None,
    Some("1.0"),
    Some("1.0.3"),
    Some("0.3"),
    Some("1.1"),
    Some("2.0"),
    Some(""),
    Some("1"),
    Some("v1.0"),
    Some("1.0rc1"),
    Some("latest"),
];

/// Pass and failure counts of one direction.
#[derive(Default)]
struct Direction {
    passed: usize,
    /// Of those passed, how many equal the SDK's only with numbers compared by value: protobuf's
    /// `Struct` holds doubles, so the SDK's reader writes `400.0` where the wire (and we) have `400`.
    numbers_by_value: usize,
    failures: Vec<String>,
}

impl Direction {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            self.failures.push(what());
        }
    }

    fn equal(&mut self, label: &str, ours: &Value, sdk: &Value) {
        let by_value = ours != sdk && json_equivalent(ours, sdk);
        self.numbers_by_value += usize::from(by_value);
        self.check(ours == sdk || by_value, || {
            format!("{label}: {}", json_differences(ours, sdk).join("; "))
        });
    }
}

/// What the SDK's client reports for an error: code, message and the `ErrorInfo` metadata.
fn sdk_error_view(error: &Error) -> Value {
    let metadata = if error.metadata.is_empty() {
        Value::Null
    } else {
        Value::Object(error.metadata.clone().into_iter().collect())
    };
    json!({"error": {"code": error.kind.jsonrpc_code(), "message": error.message, "data": metadata}})
}

/// Reads the SDK server's event stream into the JSON-RPC responses it carries.
fn read_stream(body: &str, operation: Operation) -> Result<Vec<JsonRpcResponse>, String> {
    let mut decoder = JsonDecoder::<Value, Value>::new();
    let mut responses = Vec::new();
    // A cut in the middle exercises the incremental decoder on real bytes.
    let (head, tail) = body.as_bytes().split_at(body.len() / 2);
    for item in decoder.feed(head).into_iter().chain(decoder.feed(tail)) {
        match item.map_err(|e| e.to_string())? {
            StreamItem::Data(value) | StreamItem::Error(value) => responses
                .push(JsonRpcResponse::parse(&value, operation).map_err(|e| e.to_string())?),
        }
    }
    decoder.finish().map_err(|e| e.to_string())?;
    Ok(responses)
}

/// Our event stream for the same responses: one event each, an error as an `error` event.
fn write_stream(responses: &[JsonRpcResponse]) -> String {
    responses
        .iter()
        .map(|response| match response.outcome {
            Ok(_) => sse::encode_json(&response.to_json()),
            Err(_) => sse::encode_json_error(&response.to_json()),
        })
        .collect::<Result<String, _>>()
        .expect("responses serialize")
}

/// What the SDK's client reads from a response: the result's JSON, or its error view.
fn client_view(response: &JsonRpcResponse) -> Value {
    match &response.outcome {
        // The SDK's client returns nothing for DeleteTaskPushNotificationConfig.
        Ok(MethodResult::DeleteTaskPushNotificationConfig(_)) => Value::Null,
        Ok(result) => result.to_json(),
        Err(error) => sdk_error_view(error),
    }
}

#[test]
fn every_jsonrpc_method_matches_the_official_sdk_both_ways() {
    let Some(python) = python(&SUITE) else { return };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("jsonrpc_interop_v1");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, stdout) = run_script(&python, "sdk_jsonrpc_v1.py", &["generate"], &dir);
    assert!(ok, "sdk_jsonrpc_v1.py generate failed:\n{stdout}");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let cases = manifest["cases"].as_array().unwrap();

    let mut sdk_request = Direction::default();
    let mut sdk_response = Direction::default();
    let mut our_request = Direction::default();
    let mut our_response = Direction::default();
    let mut version = Direction::default();

    // Every v1 method is called at least once.
    let called: std::collections::BTreeSet<&str> = cases
        .iter()
        .map(|case| case["method"].as_str().unwrap())
        .collect();
    for operation in Operation::all() {
        sdk_request.check(called.contains(operation.jsonrpc_method()), || {
            format!("{operation:?} is not called by the SDK script")
        });
    }

    let mut ours = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let name = case["case"].as_str().unwrap();
        let operation = Operation::from_jsonrpc_method(case["method"].as_str().unwrap())
            .unwrap_or_else(|| panic!("{name}: unknown method"));

        // 1. The SDK client's request, read by us.
        let request = match JsonRpcRequest::parse(&case["client_request"]) {
            Ok(request) => request,
            Err(error) => {
                sdk_request
                    .failures
                    .push(format!("{name}: we cannot read the SDK's request: {error}"));
                continue;
            }
        };
        sdk_request.check(request.params.operation() == operation, || {
            format!("{name}: read as {:?}", request.params.operation())
        });
        sdk_request.equal(
            &format!("{name}: params as the SDK's handler got them"),
            &request.params.to_json(),
            &case["handler_request"],
        );
        let sdk_id = Id::String(case["client_request"]["id"].as_str().unwrap().to_owned());
        sdk_request.check(request.id.as_ref() == Some(&sdk_id), || {
            format!("{name}: id {:?}", request.id)
        });

        // 2. The SDK server's response, read by us.
        let responses = if case["streaming"] == true {
            let content_type = case["response"]["content_type"].as_str().unwrap();
            sdk_response.check(
                content_type.starts_with(a2a_protocol::service::MEDIA_TYPE_EVENT_STREAM),
                || format!("{name}: content type {content_type}"),
            );
            read_stream(case["response"]["sse"].as_str().unwrap(), operation)
        } else {
            JsonRpcResponse::parse(&case["response"], operation)
                .map(|response| vec![response])
                .map_err(|e| e.to_string())
        };
        let responses = match responses {
            Ok(responses) => responses,
            Err(error) => {
                sdk_response.failures.push(format!(
                    "{name}: we cannot read the SDK's response: {error}"
                ));
                continue;
            }
        };
        let views: Vec<Value> = responses.iter().map(client_view).collect();
        let read = if case["streaming"] == true {
            Value::Array(views)
        } else {
            views[0].clone()
        };
        sdk_response.equal(
            &format!("{name}: result as the SDK's client read it"),
            &read,
            &case["client_result"],
        );
        sdk_response.check(responses.iter().all(|r| r.id == sdk_id), || {
            format!("{name}: a response's id is not the request's")
        });

        // 3 and 4. Ours for the same call, written by us, for the SDK to read.
        let our_id = Id::Number(100 + n as i64);
        let our_call = JsonRpcRequest::new(our_id.clone(), request.params.clone());
        let our_responses: Vec<JsonRpcResponse> = responses
            .into_iter()
            .map(|response| JsonRpcResponse {
                id: our_id.clone(),
                ..response
            })
            .collect();
        let mut entry = json!({
            "case": name,
            "method": operation.jsonrpc_method(),
            "streaming": case["streaming"],
            "a2a_version": ProtocolVersion::V1_0.to_string(),
            "request": our_call.to_json(),
        });
        if case["streaming"] == true {
            entry["sse"] = write_stream(&our_responses).into();
        } else {
            entry["response"] = our_responses[0].to_json();
        }
        ours.push(entry);
    }

    let our_manifest = json!({"cases": ours, "versions": VERSIONS});
    std::fs::write(
        dir.join("ours.json"),
        serde_json::to_vec_pretty(&our_manifest).unwrap(),
    )
    .unwrap();
    let (ok, stdout) = run_script(&python, "sdk_jsonrpc_v1.py", &["check"], &dir);
    assert!(ok, "sdk_jsonrpc_v1.py check failed:\n{stdout}");
    let read: Value =
        serde_json::from_slice(&std::fs::read(dir.join("sdk_read.json")).unwrap()).unwrap();

    for case in cases {
        let name = case["case"].as_str().unwrap();
        let Some(sdk) = read["cases"].get(name) else {
            our_request
                .failures
                .push(format!("{name}: not checked by the SDK"));
            continue;
        };
        match sdk.get("handler_request") {
            Some(received) => our_request.equal(
                &format!("{name}: our request as the SDK's handler got it"),
                received,
                &case["handler_request"],
            ),
            None => our_request.failures.push(format!(
                "{name}: the SDK's server refused our request: {}",
                sdk["server_error"]
            )),
        }
        our_response.equal(
            &format!("{name}: our response as the SDK's client read it"),
            &sdk["client_result"],
            &case["client_result"],
        );
    }

    // 5. A2A-Version.
    for sent in manifest["a2a_version"].as_array().unwrap() {
        let sent = sent.as_str();
        version.check(
            ProtocolVersion::from_header(sent).ok() == Some(ProtocolVersion::V1_0),
            || format!("the SDK's client sends A2A-Version {sent:?}, not read as 1.0"),
        );
        version.check(sent == Some(&*ProtocolVersion::V1_0.to_string()), || {
            format!("the SDK's client sends {sent:?}, we send 1.0")
        });
    }
    for value in VERSIONS {
        let key = serde_json::to_string(&value).unwrap();
        let probe = &read["versions"][&key];
        let sdk_serves = probe["served"] == true;
        let we_serve = ProtocolVersion::from_header(value)
            .is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0));
        let documented_difference = value == Some("1.1");
        version.check((sdk_serves == we_serve) != documented_difference, || {
            format!("A2A-Version {key}: the SDK serves it: {sdk_serves}, we would: {we_serve}")
        });
        if !sdk_serves {
            let refusal = JsonRpcResponse::parse(&probe["response"], Operation::GetTask);
            version.check(
                matches!(&refusal, Ok(JsonRpcResponse { outcome: Err(e), .. })
                    if e.kind == ErrorKind::VersionNotSupported),
                || format!("A2A-Version {key}: the SDK's refusal reads as {refusal:?}"),
            );
        }
    }

    let directions = [
        ("SDK request -> ours", &sdk_request),
        ("SDK response -> ours", &sdk_response),
        ("our request -> SDK server", &our_request),
        ("our response -> SDK client", &our_response),
        ("A2A-Version", &version),
    ];
    let mut failures = Vec::new();
    for (label, direction) in directions {
        eprintln!(
            "JSON-RPC v1 interop, {label}: {} passed ({} with numbers equal by value), {} failed",
            direction.passed,
            direction.numbers_by_value,
            direction.failures.len()
        );
        failures.extend(direction.failures.iter().map(|f| format!("{label}: {f}")));
    }
    assert!(
        failures.is_empty(),
        "{} differences from the SDK:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for (label, direction) in directions {
        assert!(direction.passed > 0, "{label}: nothing was compared");
    }
}
