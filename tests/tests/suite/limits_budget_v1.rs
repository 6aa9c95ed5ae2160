//! The decode budget (`a2a_protocol::limits`, `a2a_proto::limits`) at the entry points that read bytes:
//! every realistic document passes the defaults, in JSON and in binary; JSON-RPC requests and
//! responses over a budget get the documented error naming the limit and the path, exactly at the
//! boundary; the plain readers apply the defaults.

use std::path::PathBuf;

use a2a_proto::limits::CheckBinary as _;
use a2a_proto::registry::{MessageVisitor, ProtoMessage};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::jsonrpc::{JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::limits::{DEFAULT_MAX_ELEMENTS, Limits};
use a2a_protocol::operations::Operation;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/v1");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Encodes ProtoJSON as the named message's protobuf binary and checks it against the limits.
struct CheckBinary<'a>(&'a [u8], a2a_proto::limits::Limits);

impl MessageVisitor for CheckBinary<'_> {
    type Output = Result<usize, a2a_proto::limits::LimitError>;

    fn visit<M: ProtoMessage>(self) -> Self::Output {
        let message: M = a2a_proto::json::from_slice(self.0).unwrap();
        self.1.check_binary::<M>(&message.encode_to_vec())
    }
}

#[test]
fn every_fixture_passes_the_default_limits_in_json_and_binary() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 40, "{} fixtures", fixtures.len());
    let mut largest = 0;
    for (name, json) in &fixtures {
        let values = Limits::default()
            .check_json(json)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let full_name = format!("lf.a2a.v1.{name}");
        let fields = a2a_proto::v1::visit_message(
            &full_name,
            CheckBinary(json, a2a_proto::limits::Limits::default()),
        )
        .unwrap_or_else(|| panic!("{full_name} is not a message"))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(fields > 0 && values > 0, "{name}");
        largest = largest.max(values);
    }
    // The defaults leave a wide margin over every realistic document.
    assert!(largest * 100 < DEFAULT_MAX_ELEMENTS, "{largest}");
}

#[test]
fn a_jsonrpc_request_over_the_budget_is_invalid_request_naming_the_limit_and_path() {
    let body = br#"{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "a"}, {"text": "b"}]}}}"#;
    // envelope, jsonrpc, id, method, params, message, messageId, role, parts, 2 parts, 2 texts.
    let exact = Limits::default().with_max_elements(13);
    assert!(JsonRpcRequest::from_slice_with_limits(body, &exact).is_ok());
    let error =
        JsonRpcRequest::from_slice_with_limits(body, &exact.with_max_elements(12)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidRequest);
    assert_eq!(error.path, "params.message.parts[1].text");
    assert_eq!(
        error.to_string(),
        "params.message.parts[1].text: payload too large: more than 12 JSON values (the max_elements limit)"
    );
    assert_eq!(error.to_error().kind.jsonrpc_code(), -32600);

    let error = JsonRpcRequest::from_slice_with_limits(body, &exact.with_max_bytes(body.len() - 1))
        .unwrap_err();
    assert_eq!(
        (error.kind, error.path.as_str()),
        (ErrorKind::InvalidRequest, "")
    );
    assert!(error.problem.contains("max_bytes"), "{error}");

    // The plain reader applies the defaults; text that is not JSON is a parse error.
    let hostile = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {{"message": {{"parts": [{}{{}}]}}}}}}"#,
        "{},".repeat(DEFAULT_MAX_ELEMENTS)
    );
    let error = JsonRpcRequest::from_slice(hostile.as_bytes()).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidRequest, "{error}");
    assert!(error.path.starts_with("params.message.parts["), "{error}");
    let error = JsonRpcRequest::from_slice(b"{\"jsonrpc\": ").unwrap_err();
    assert_eq!(error.kind, ErrorKind::JsonParse);
    let ok = JsonRpcRequest::from_slice(body).unwrap();
    assert_eq!(ok.params.operation(), Operation::SendMessage);
}

#[test]
fn a_jsonrpc_response_over_the_budget_is_an_invalid_agent_response() {
    let body = br#"{"jsonrpc": "2.0", "id": 1, "result": {"tasks": [{}, {}, {}], "nextPageToken": "", "pageSize": 3, "totalSize": 3}}"#;
    // envelope, jsonrpc, id, result, tasks, 3 tasks, 3 paging members.
    let exact = Limits::default().with_max_elements(11);
    let response =
        JsonRpcResponse::from_slice_with_limits(body, Operation::ListTasks, &exact).unwrap();
    assert!(response.outcome.is_ok());
    let error = JsonRpcResponse::from_slice_with_limits(
        body,
        Operation::ListTasks,
        &exact.with_max_elements(10),
    )
    .unwrap_err();
    assert_eq!(
        (error.kind, error.path.as_str()),
        (ErrorKind::InvalidAgentResponse, "result.totalSize")
    );
    let hostile = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tasks": [{}{{}}]}}}}"#,
        "{},".repeat(DEFAULT_MAX_ELEMENTS)
    );
    let error = JsonRpcResponse::from_slice(hostile.as_bytes(), Operation::ListTasks).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidAgentResponse);
    assert!(error.problem.contains("max_elements"), "{error}");
}
