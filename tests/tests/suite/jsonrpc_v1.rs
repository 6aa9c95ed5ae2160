//! `a2a_protocol::jsonrpc` on realistic v1 JSON-RPC traffic: a request and a response for every method
//! of the service (read typed by method, written back unchanged), and every way an envelope can be
//! wrong, each reported with its JSON path and the JSON-RPC error a server answers with.

use a2a_protocol::errors::ErrorKind;
use a2a_protocol::jsonrpc::{Id, JsonRpcRequest, JsonRpcResponse};
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use serde_json::{Value, json};

fn task() -> Value {
    json!({
        "id": "task-7f3a",
        "contextId": "ctx-lisbon",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-04-01T09:30:00Z"},
        "history": [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Find a hotel"}]}]
    })
}

fn push_config() -> Value {
    json!({
        "taskId": "task-7f3a",
        "id": "cfg-1",
        "url": "https://client.example/a2a/push",
        "token": "opaque-token",
        "authentication": {"scheme": "Bearer", "credentials": "secret"}
    })
}

/// One realistic call per method: (method, params, result).
fn calls() -> Vec<(&'static str, Value, Value)> {
    let message = json!({
        "messageId": "m-2", "role": "ROLE_USER", "contextId": "ctx-lisbon",
        "parts": [{"text": "Book the second one"}, {"data": {"nights": 3}, "mediaType": "application/json"}]
    });
    vec![
        (
            "SendMessage",
            json!({"message": message, "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 5}}),
            json!({"task": task()}),
        ),
        (
            "SendStreamingMessage",
            json!({"message": message, "metadata": {"trace": "abc"}}),
            json!({"statusUpdate": {"taskId": "task-7f3a", "contextId": "ctx-lisbon", "status": {"state": "TASK_STATE_COMPLETED"}}}),
        ),
        (
            "GetTask",
            json!({"id": "task-7f3a", "historyLength": 2}),
            task(),
        ),
        (
            "ListTasks",
            json!({"contextId": "ctx-lisbon", "status": "TASK_STATE_WORKING", "pageSize": 10}),
            json!({"tasks": [task()], "nextPageToken": "p2", "pageSize": 10, "totalSize": 11}),
        ),
        (
            "CancelTask",
            json!({"id": "task-7f3a", "metadata": {"reason": "user"}}),
            task(),
        ),
        (
            "SubscribeToTask",
            json!({"id": "task-7f3a"}),
            json!({"task": task()}),
        ),
        (
            "CreateTaskPushNotificationConfig",
            push_config(),
            push_config(),
        ),
        (
            "GetTaskPushNotificationConfig",
            json!({"taskId": "task-7f3a", "id": "cfg-1"}),
            push_config(),
        ),
        (
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "task-7f3a", "pageSize": 5}),
            json!({"configs": [push_config()], "nextPageToken": "n"}),
        ),
        (
            "GetExtendedAgentCard",
            json!({"tenant": "acme"}),
            json!({
                "name": "Travel agent", "description": "Books trips", "version": "1.2.0",
                "supportedInterfaces": [{"url": "https://agent.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
                "capabilities": {"streaming": true, "extendedAgentCard": true},
                "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
                "skills": [{"id": "book", "name": "Book", "description": "Books hotels", "tags": ["travel"]}]
            }),
        ),
        (
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": "task-7f3a", "id": "cfg-1"}),
            json!({}),
        ),
    ]
}

#[test]
fn every_method_reads_and_writes_requests_and_responses() {
    let calls = calls();
    let methods: Vec<&str> = calls.iter().map(|(m, _, _)| *m).collect();
    let all: Vec<&str> = Operation::all().map(Operation::jsonrpc_method).collect();
    let mut sorted = methods.clone();
    sorted.sort_unstable();
    let mut all_sorted = all.clone();
    all_sorted.sort_unstable();
    assert_eq!(sorted, all_sorted, "one call per method of the service");

    for (index, (method, params, result)) in calls.into_iter().enumerate() {
        let id = json!(format!("req-{index}"));
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let request = JsonRpcRequest::parse(&body).unwrap_or_else(|e| panic!("{method}: {e}"));
        let operation = request.params.operation();
        assert_eq!(operation.jsonrpc_method(), method);
        assert_eq!(request.id, Some(Id::String(format!("req-{index}"))));
        assert_eq!(
            request.to_json(),
            body,
            "{method}: the request written back"
        );
        assert_eq!(
            JsonRpcRequest::new(format!("req-{index}"), request.params.clone()),
            request
        );

        let response_body = json!({"jsonrpc": "2.0", "id": id, "result": result});
        let response = JsonRpcResponse::parse(&response_body, operation)
            .unwrap_or_else(|e| panic!("{method} result: {e}"));
        let result = response.outcome.as_ref().unwrap();
        assert_eq!(result.operation(), operation);
        assert_eq!(
            response.to_json(),
            response_body,
            "{method}: the response written back"
        );
    }
}

#[test]
fn typed_params_and_results() {
    let body =
        json!({"jsonrpc": "2.0", "id": 3, "method": "CancelTask", "params": {"id": "task-1"}});
    let request = JsonRpcRequest::parse(&body).unwrap();
    let MethodParams::CancelTask(params) = request.params else {
        panic!("not CancelTask")
    };
    assert_eq!(params.id, "task-1");

    // The SDK answers a delete with a null result.
    let delete = json!({"jsonrpc": "2.0", "id": 4, "result": null});
    let response =
        JsonRpcResponse::parse(&delete, Operation::DeleteTaskPushNotificationConfig).unwrap();
    assert_eq!(
        response.outcome,
        Ok(MethodResult::DeleteTaskPushNotificationConfig(Empty))
    );

    // Generic envelopes for any params or result type.
    let request = JsonRpcRequest::<a2a_types::v1::GetTaskRequest>::parse_as(
        &json!({"jsonrpc": "2.0", "id": null, "method": "GetTask", "params": {"id": "t"}}),
    )
    .unwrap();
    assert_eq!(request.id, Some(Id::Null));
    assert_eq!(request.params.id, "t");
    let notification =
        JsonRpcRequest::<Value>::parse_as(&json!({"jsonrpc": "2.0", "method": "GetTask"})).unwrap();
    assert_eq!(notification.id, None);
    assert_eq!(notification.params, json!({}));
    let answer = JsonRpcResponse::result(Id::Number(9), json!({"id": "t"}));
    assert_eq!(
        answer.to_json(),
        json!({"jsonrpc": "2.0", "id": 9, "result": {"id": "t"}})
    );
}

#[test]
fn error_responses_carry_the_error_model() {
    let error =
        a2a_protocol::errors::Error::new(ErrorKind::TaskNotFound).with_metadata("taskId", "task-9");
    let response = JsonRpcResponse::<MethodResult>::error(Some(Id::from("r")), error.clone());
    let body = response.to_json();
    assert_eq!(body["error"]["code"], -32001);
    let read = JsonRpcResponse::parse(&body, Operation::GetTask).unwrap();
    assert_eq!(read.outcome, Err(error));
    assert_eq!(read.id, Id::from("r"));
}

#[test]
fn bad_envelopes_name_the_path_and_the_error() {
    let cases = [
        (json!([{"jsonrpc": "2.0"}]), "", ErrorKind::InvalidRequest),
        (
            json!({"id": 1, "method": "GetTask"}),
            "jsonrpc",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "1.0", "id": 1, "method": "GetTask"}),
            "jsonrpc",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": 2.0, "id": 1, "method": "GetTask"}),
            "jsonrpc",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "GetTask"}),
            "id",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "GetTask"}),
            "id",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1}),
            "method",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": 5}),
            "method",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {}}),
            "method",
            ErrorKind::MethodNotFound,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": [null, "task-1", 0]}),
            "params",
            ErrorKind::InvalidParams,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": "task-1"}),
            "params",
            ErrorKind::InvalidRequest,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t", "historyLength": "many"}}),
            "params.historyLength",
            ErrorKind::InvalidParams,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                   "params": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a", "url": "b"}]}}}),
            "params.message.parts[0]",
            ErrorKind::InvalidParams,
        ),
    ];
    for (body, path, kind) in cases {
        let error = JsonRpcRequest::parse(&body).unwrap_err();
        assert_eq!(
            (error.path.as_str(), error.kind),
            (path, kind),
            "{body}: {error}"
        );
        assert!(error.to_string().starts_with(path), "{error}");
        let answer = error.to_error().to_jsonrpc();
        assert_eq!(answer["code"], kind.jsonrpc_code());
        if error.path != "id" && body.get("id") == Some(&json!(1)) {
            assert_eq!(error.id, Some(Id::Number(1)), "{body}: the id is echoed");
        }
    }
    // Invalid params also travel as a BadRequest field violation.
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"historyLength": []}});
    let error = JsonRpcRequest::parse(&body).unwrap_err().to_error();
    assert_eq!(error.field_violations[0].field, "historyLength");

    let responses = [
        (json!({"jsonrpc": "2.0", "id": 1}), ""),
        (
            json!({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": -32603}}),
            "",
        ),
        (json!({"jsonrpc": "2.0", "result": {}}), "id"),
        (
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": "x"}}),
            "error.code",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "result": {"id": 5}}),
            "result.id",
        ),
    ];
    for (body, path) in responses {
        let error = JsonRpcResponse::parse(&body, Operation::GetTask).unwrap_err();
        assert_eq!(error.path, path, "{body}: {error}");
    }
}
