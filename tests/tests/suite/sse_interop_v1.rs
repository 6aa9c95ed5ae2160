//! `a2a_protocol::sse` against the server-sent event streams of the official A2A Python SDK (`a2a-sdk`
//! and its HTTP server, pinned in `tests/interop/requirements.txt`).
//!
//! `tests/interop/sdk_sse.py generate` runs the SDK's own server in-process for both HTTP bindings and
//! records the exact bytes of its streaming responses: a whole task (task, status with a multi-line
//! non-ASCII message, an artifact in two chunks, final status), streams that fail after two events
//! (with an A2A error and with an unexpected exception), and a request that fails before its first
//! event. It also records what the SDK's client reads from those bytes. Here:
//!
//! - every stream, cut in two at every byte, and fed one byte at a time, decodes to the events the
//!   SDK's client reads (event type and data);
//! - the typed layer gives the SDK's items: `StreamResponse`s equal to the SDK's canonical ProtoJSON
//!   (HTTP+JSON), JSON-RPC responses holding them, and the `error` events as errors, last;
//! - a failure before the first event is a plain JSON error response, not a stream;
//! - `check` has the SDK's client read the streams our encoder writes for the same items, and it must
//!   read the same events and items.
//!
//! Skips with a message without the SDK's interpreter, except under `CI=true`, where it fails.

use std::path::PathBuf;
use std::sync::OnceLock;

use a2a_protocol::sse::{self, Decoder, HttpJsonDecoder, JsonDecoder, StreamError, StreamItem};
use a2a_tests::interop::{Suite, python, run_script};
use a2a_types::v1::StreamResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;

const SUITE: Suite = Suite {
    name: "sse",
    package_args: &[],
    // The SDK's HTTP server needs its `http-server` extra as well.
    sdk_module: "a2a.server.routes, sse_starlette",
};

/// A JSON-RPC 2.0 response whose result is a `StreamResponse`: what each event of the JSON-RPC
/// binding's stream holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RpcResponse {
    jsonrpc: String,
    id: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<StreamResponse>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

struct Case {
    name: String,
    binding: String,
    content_type: String,
    status: u64,
    body: Vec<u8>,
    /// (event type, data) as the SDK's client reads them.
    events: Vec<(String, String)>,
    /// What the SDK's client makes of each event's data.
    items: Vec<Value>,
}

impl Case {
    fn streams(&self) -> bool {
        self.content_type.starts_with("text/event-stream")
    }
}

fn events_of(entries: &Value) -> Vec<(String, String)> {
    entries
        .as_array()
        .expect("events are a list")
        .iter()
        .map(|event| {
            (
                event["event"].as_str().unwrap().to_owned(),
                event["data"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

struct Recorded {
    python: PathBuf,
    dir: PathBuf,
    cases: Vec<Case>,
}

/// The SDK's streams, recorded once for all tests of this file; `None` where the SDK is absent.
fn recorded() -> Option<&'static Recorded> {
    static RECORDED: OnceLock<Option<Recorded>> = OnceLock::new();
    RECORDED
        .get_or_init(|| {
            let python = python(&SUITE)?;
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sse_interop_v1");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let (ok, stdout) = run_script(&python, "sdk_sse.py", &["generate"], &dir);
            assert!(ok, "sdk_sse.py generate failed:\n{stdout}");
            let manifest: Value =
                serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
            let cases: Vec<Case> = manifest
                .as_array()
                .unwrap()
                .iter()
                .map(|case| Case {
                    name: case["case"].as_str().unwrap().to_owned(),
                    binding: case["binding"].as_str().unwrap().to_owned(),
                    content_type: case["content_type"].as_str().unwrap().to_owned(),
                    status: case["status"].as_u64().unwrap(),
                    body: std::fs::read(dir.join(case["body"].as_str().unwrap())).unwrap(),
                    events: events_of(&case["events"]),
                    items: case["items"].as_array().unwrap().clone(),
                })
                .collect();
            assert_eq!(cases.len(), 8, "four outcomes for each of the two bindings");
            Some(Recorded { python, dir, cases })
        })
        .as_ref()
}

fn streaming_cases(recorded: &Recorded) -> impl Iterator<Item = &Case> {
    recorded.cases.iter().filter(|case| case.streams())
}

fn type_and_data(events: impl IntoIterator<Item = sse::Event>) -> Vec<(String, String)> {
    events
        .into_iter()
        .map(|event| (event.event_type().to_owned(), event.data))
        .collect()
}

#[test]
fn the_sdks_streams_decode_to_the_sdks_events_however_they_are_split() {
    let Some(recorded) = recorded() else { return };
    let mut splits = 0;
    for case in streaming_cases(recorded) {
        assert!(
            case.body.windows(2).any(|w| w == b"\r\n"),
            "{}: the SDK ends lines with CRLF",
            case.name
        );
        assert!(!case.events.is_empty(), "{}", case.name);
        for split in 0..=case.body.len() {
            let mut decoder = Decoder::new();
            let mut events = decoder.feed(&case.body[..split]);
            events.extend(decoder.feed(&case.body[split..]));
            assert_eq!(decoder.finish(), Ok(()), "{} split at {split}", case.name);
            let events: Vec<sse::Event> = events.into_iter().map(Result::unwrap).collect();
            assert_eq!(
                type_and_data(events),
                case.events,
                "{} split at {split}",
                case.name
            );
            splits += 1;
        }
        let mut decoder = Decoder::new();
        let events: Vec<sse::Event> = case
            .body
            .iter()
            .flat_map(|byte| decoder.feed(std::slice::from_ref(byte)))
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            type_and_data(events),
            case.events,
            "{} byte by byte",
            case.name
        );
        assert_eq!(decoder.finish(), Ok(()));
    }
    eprintln!("sse interop: {splits} splits of 6 SDK streams decoded as the SDK reads them");
}

/// The typed items of one stream, fed one byte at a time, as JSON, with whether each was an error.
fn typed_items(case: &Case) -> Vec<(bool, Value)> {
    fn collect<
        T: serde::de::DeserializeOwned + Serialize,
        E: serde::de::DeserializeOwned + Serialize,
    >(
        mut decoder: JsonDecoder<T, E>,
        body: &[u8],
    ) -> Vec<(bool, Value)> {
        let mut items = Vec::new();
        for byte in body {
            for item in decoder.feed(std::slice::from_ref(byte)) {
                items.push(match item {
                    Ok(StreamItem::Data(data)) => (false, serde_json::to_value(data).unwrap()),
                    Ok(StreamItem::Error(error)) => (true, serde_json::to_value(error).unwrap()),
                    Err(error) => panic!("{error}"),
                });
            }
        }
        decoder.finish().unwrap();
        items
    }
    match case.binding.as_str() {
        "HTTP+JSON" => collect(HttpJsonDecoder::new(), &case.body),
        "JSONRPC" => collect(JsonDecoder::<RpcResponse, RpcResponse>::new(), &case.body),
        other => panic!("unknown binding {other}"),
    }
}

#[test]
fn the_typed_layer_reads_the_sdks_items_and_errors() {
    let Some(recorded) = recorded() else { return };
    for case in streaming_cases(recorded) {
        let items = typed_items(case);
        let values: Vec<&Value> = items.iter().map(|(_, value)| value).collect();
        assert_eq!(
            values,
            case.items.iter().collect::<Vec<_>>(),
            "{}",
            case.name
        );
        let errors: Vec<bool> = items.iter().map(|(is_error, _)| *is_error).collect();
        if case.name.ends_with("_ok") {
            assert!(errors.iter().all(|e| !e), "{}", case.name);
            // The stream ends with the task's final status.
            let last = &case.items[case.items.len() - 1];
            let last = if case.binding == "JSONRPC" {
                &last["result"]
            } else {
                last
            };
            let last: StreamResponse = a2a_types::json::from_value(last.clone()).unwrap();
            let StreamResponse::StatusUpdate(update) = last else {
                panic!("{}: the last item is a status update", case.name)
            };
            assert!(update.status.state.is_terminal(), "{}", case.name);
        } else {
            assert_eq!(
                errors,
                [false, false, true],
                "{}: two items, then the error",
                case.name
            );
        }
    }
}

#[test]
fn a_failure_in_mid_stream_is_an_error_event_in_the_bindings_error_shape() {
    let Some(recorded) = recorded() else { return };
    let error_of = |name: &str| -> Value {
        let case = recorded
            .cases
            .iter()
            .find(|case| case.name == name)
            .unwrap();
        let (kind, data) = case.events.last().unwrap();
        assert_eq!(kind, sse::ERROR_EVENT_TYPE, "{name}");
        serde_json::from_str(data).unwrap()
    };
    let rest = error_of("http_json_a2a_error");
    assert_eq!(rest["error"]["code"], 404);
    assert_eq!(rest["error"]["status"], "NOT_FOUND");
    assert_eq!(rest["error"]["details"][0]["reason"], "TASK_NOT_FOUND");
    let rest = error_of("http_json_exception");
    assert_eq!(rest["error"]["code"], 500);
    assert_eq!(rest["error"]["status"], "INTERNAL");

    let rpc: RpcResponse = serde_json::from_value(error_of("jsonrpc_a2a_error")).unwrap();
    assert_eq!(rpc.id, "req-7", "the error carries the request's id");
    assert_eq!(rpc.result, None);
    assert_eq!(rpc.error.as_ref().unwrap()["code"], -32001);
    let rpc: RpcResponse = serde_json::from_value(error_of("jsonrpc_exception")).unwrap();
    assert_eq!(rpc.error.as_ref().unwrap()["code"], -32603);
}

#[test]
fn a_failure_before_the_first_event_is_a_plain_json_response() {
    let Some(recorded) = recorded() else { return };
    for case in recorded.cases.iter().filter(|case| !case.streams()) {
        assert!(
            case.name.ends_with("_error_before_first_event"),
            "{}",
            case.name
        );
        assert!(
            case.content_type.starts_with("application/json"),
            "{}",
            case.name
        );
        let body: Value = a2a_types::json::from_slice(&case.body).unwrap();
        match case.binding.as_str() {
            "HTTP+JSON" => {
                assert_eq!(case.status, 404, "the HTTP status of the error");
                assert_eq!(body["error"]["status"], "NOT_FOUND");
            }
            _ => {
                assert_eq!(case.status, 200, "JSON-RPC errors travel with HTTP 200");
                let rpc: RpcResponse = serde_json::from_value(body).unwrap();
                assert_eq!(rpc.error.unwrap()["code"], -32001);
            }
        }
        // Fed to a decoder by mistake, it is no event at all, and an unfinished one.
        let mut decoder = Decoder::new();
        assert!(decoder.feed(&case.body).is_empty());
        assert!(decoder.finish().is_err());
    }
}

/// Our encoding of one stream's typed items.
fn encode(case: &Case) -> String {
    let mut out = sse::comment("written by a2a_protocol::sse");
    for ((is_error, value), (kind, _)) in typed_items(case).into_iter().zip(&case.events) {
        assert_eq!(is_error, kind == sse::ERROR_EVENT_TYPE);
        let event = match (case.binding.as_str(), is_error) {
            (_, true) => sse::encode_json_error(&value),
            ("HTTP+JSON", false) => {
                let response: StreamResponse = a2a_types::json::from_value(value).unwrap();
                sse::encode_stream_response(&response)
            }
            (_, false) => {
                let response: RpcResponse = a2a_types::json::from_value(value).unwrap();
                sse::encode_json(&response)
            }
        };
        out.push_str(&event.unwrap());
    }
    out
}

#[test]
fn the_sdk_reads_the_streams_we_write() {
    let Some(recorded) = recorded() else { return };
    // A directory of its own, so the generated manifest is not raced by other tests.
    let dir = recorded.dir.with_file_name("sse_interop_v1_ours");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ours")).unwrap();
    std::fs::copy(
        recorded.dir.join("manifest.json"),
        dir.join("manifest.json"),
    )
    .unwrap();
    let mut written = Vec::new();
    for case in streaming_cases(recorded) {
        let body = encode(case);
        std::fs::write(dir.join("ours").join(format!("{}.sse", case.name)), &body).unwrap();
        written.push(case);
    }
    let (ok, stdout) = run_script(&recorded.python, "sdk_sse.py", &["check"], &dir);
    assert!(ok, "sdk_sse.py check failed:\n{stdout}");
    let read: Value =
        serde_json::from_slice(&std::fs::read(dir.join("ours/read.json")).unwrap()).unwrap();
    for case in &written {
        let ours = &read[&case.name];
        // The same event types and the same JSON in each (the SDK writes it with spaces, we compactly).
        let as_json = |events: &[(String, String)]| -> Vec<(String, Value)> {
            events
                .iter()
                .map(|(kind, data)| (kind.clone(), serde_json::from_str(data).unwrap()))
                .collect()
        };
        assert_eq!(
            as_json(&events_of(&ours["events"])),
            as_json(&case.events),
            "{}: events",
            case.name
        );
        assert_eq!(
            ours["items"].as_array().unwrap(),
            &case.items,
            "{}: items",
            case.name
        );
    }
    assert_eq!(written.len(), 6);
}

#[test]
fn a_stream_error_names_the_event_and_the_field() {
    // Not from the SDK: a server sending a status update with an unknown state name.
    let body = b"id: 3\r\ndata: {\"statusUpdate\": {\"taskId\": \"t\", \"status\": {\"state\": \"TASK_STATE_PAUSED\"}}}\r\n\r\n";
    let mut decoder = HttpJsonDecoder::new();
    let [Err(error)] = &decoder.feed(body)[..] else {
        panic!("one error")
    };
    let StreamError::Json { event, error: json } = error else {
        panic!("{error}")
    };
    assert_eq!(event.id.as_deref(), Some("3"));
    assert_eq!(json.path(), "statusUpdate.status.state");
    assert!(
        error.to_string().starts_with(
            "SSE event of type `message` (id `3`) holds invalid JSON at `statusUpdate.status.state`"
        ),
        "{error}"
    );
}
