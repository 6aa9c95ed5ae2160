//! HTTP+JSON routing (`a2a_protocol::rest`): every binding of the generated operations table round-trips
//! a realistic request (client form built, then routed back to the same typed request), the requests
//! real clients send route to what they mean (among them every request the official Python SDK's REST
//! client sends), and bad requests get typed errors naming the field.

// Request literals keep `..Default::default()` even where they name every field today, so a field the
// spec adds does not break them.
#![allow(clippy::needless_update)]

use std::path::PathBuf;

use a2a_protocol::errors::ErrorKind;
use a2a_protocol::jsonrpc::JsonRpcRequest;
use a2a_protocol::operations::MethodParams;
use a2a_protocol::operations::{OPERATIONS, Operation};
use a2a_protocol::rest::{self, RouteError};
use a2a_tests::interop::{Suite, python, run_script};
use a2a_tests::{fixture_json, json_differences, json_equivalent};
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, GetTaskRequest, ListTasksRequest, TaskState,
};
use serde_json::{Value, json};

/// The fixture of the operation's request type (`tests/fixtures/v1/ListTasksRequest.json`).
fn fixture_request(operation: Operation) -> Value {
    let info = operation.info();
    let name = info
        .request_type
        .rsplit('.')
        .next()
        .expect("a full proto name");
    fixture_json(&format!("v1/{name}.json"))
}

fn params(operation: Operation, json: Value) -> MethodParams {
    let envelope =
        json!({"jsonrpc": "2.0", "id": 1, "method": operation.jsonrpc_method(), "params": json});
    JsonRpcRequest::parse(&envelope)
        .unwrap_or_else(|e| panic!("{operation}: {e}"))
        .params
}

fn route_built(request: &rest::HttpRequest) -> Result<rest::Route, RouteError> {
    let body = request
        .body
        .as_ref()
        .map(|body| serde_json::to_vec(body).unwrap())
        .unwrap_or_default();
    rest::route(request.method, &request.path_and_query(), &body)
}

/// The ProtoJSON name of a proto field name.
fn camel(field: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in field.chars() {
        match (c, upper) {
            ('_', _) => upper = true,
            (c, true) => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            (c, false) => out.push(c),
        }
    }
    out
}

#[test]
fn every_binding_round_trips_its_fixture_request() {
    let mut checked = 0;
    for info in &OPERATIONS {
        let fixture = fixture_request(info.operation);
        for binding in info.http {
            let path_fields = binding.path_fields();
            // The fixture as it is, then with values in the path that need percent-encoding.
            let mut awkward = fixture.clone();
            for field in &path_fields {
                awkward[camel(field)] = format!("{field} / ä:?&=#%+ {{x}}").into();
            }
            for json in [fixture.clone(), awkward] {
                let original = params(info.operation, json);
                let request = rest::build_request_for(binding, &original)
                    .unwrap_or_else(|e| panic!("{} {}: {e}", binding.method, binding.path));
                assert_eq!(request.method, binding.method);
                assert_eq!(
                    request.body.is_some(),
                    !binding.body.is_empty(),
                    "{}",
                    binding.path
                );
                if binding.body == "*" {
                    assert!(request.query.is_empty(), "{}", binding.path);
                }
                let routed = route_built(&request)
                    .unwrap_or_else(|e| panic!("{}: {e}", request.path_and_query()));
                assert_eq!(
                    routed.operation,
                    info.operation,
                    "{}",
                    request.path_and_query()
                );
                assert_eq!(routed.binding, binding, "{}", request.path_and_query());
                assert_eq!(routed.params, original, "{}", request.path_and_query());
                checked += 1;
            }
        }
    }
    let bindings: usize = OPERATIONS.iter().map(|info| info.http.len()).sum();
    assert_eq!(checked, 2 * bindings);
    assert!(bindings >= 22, "both variants of every operation");
}

#[test]
fn the_client_picks_the_tenant_binding_exactly_when_a_tenant_is_set() {
    for info in &OPERATIONS {
        let with_tenant = fixture_request(info.operation);
        assert!(
            with_tenant["tenant"].is_string(),
            "{}: fixture sets a tenant",
            info.rpc_name
        );
        let mut without = with_tenant.clone();
        without.as_object_mut().unwrap().remove("tenant");

        let request =
            rest::build_request(&params(info.operation, with_tenant.clone()), None).unwrap();
        let tenant = with_tenant["tenant"].as_str().unwrap();
        assert!(
            request.path.starts_with(&format!("/{tenant}/")),
            "{}",
            request.path
        );
        assert!(!request.query.contains("tenant"), "{}", request.query);

        let plain = params(info.operation, without.clone());
        let request = rest::build_request(&plain, None).unwrap();
        assert_eq!(request.path, {
            let mut expected = rest::build_request_for(&info.http[0], &plain).unwrap();
            expected.path.split_off(0)
        });
        assert_eq!(route_built(&request).unwrap().params, plain);

        // The tenant argument lands in the path and in the routed request.
        let request = rest::build_request(&plain, Some("tenant b")).unwrap();
        assert!(request.path.starts_with("/tenant%20b/"), "{}", request.path);
        let routed = route_built(&request).unwrap().params.to_json();
        assert_eq!(routed["tenant"], "tenant b");

        // The tenant binding cannot be used without a tenant.
        let error = rest::build_request_for(&info.http[1], &plain).unwrap_err();
        assert_eq!(error.field, "tenant", "{}", info.rpc_name);
    }
}

#[test]
fn list_tasks_filters_come_from_the_query_string() {
    let route = rest::route(
        "GET",
        "/tasks?contextId=c-1&status=TASK_STATE_WORKING&pageSize=10&historyLength=2",
        b"",
    )
    .unwrap();
    assert_eq!(route.operation, Operation::ListTasks);
    assert_eq!(
        route.params,
        MethodParams::ListTasks(ListTasksRequest {
            context_id: Some("c-1".into()),
            status: Some(TaskState::Working),
            page_size: Some(10),
            history_length: Some(2),
            ..Default::default()
        })
    );

    // Proto names, enums by number, booleans, timestamps with an offset, `+` as a space, and a
    // parameter this server does not know (ignored, as ProtoJSON ignores unknown fields).
    let route = rest::route(
        "GET",
        "/acme/tasks?context_id=c+1&status=2&page_token=p%2F2&include_artifacts=true\
         &status_timestamp_after=2026-03-14T02%3A00%3A00%2B02%3A00&sortOrder=newest",
        b"",
    )
    .unwrap();
    let MethodParams::ListTasks(request) = route.params else {
        panic!("{:?}", route.params)
    };
    assert_eq!(request.tenant.as_deref(), Some("acme"));
    assert_eq!(request.context_id.as_deref(), Some("c 1"));
    assert_eq!(request.status, Some(TaskState::Working));
    assert_eq!(request.page_token.as_deref(), Some("p/2"));
    assert_eq!(request.include_artifacts, Some(true));
    assert_eq!(
        request.status_timestamp_after.unwrap().to_rfc3339(),
        "2026-03-14T00:00:00+00:00"
    );

    // `includeArtifacts=false` is kept: the field has presence.
    let route = rest::route("GET", "/tasks?includeArtifacts=false", b"").unwrap();
    assert_eq!(route.params.to_json(), json!({"includeArtifacts": false}));
}

#[test]
fn requests_real_clients_send_route_to_what_they_mean() {
    let route = rest::route("GET", "/tenant-a/tasks/t-1?historyLength=3", b"").unwrap();
    assert_eq!(
        route.params,
        MethodParams::GetTask(GetTaskRequest {
            tenant: Some("tenant-a".into()),
            id: "t-1".into(),
            history_length: Some(3),
            ..Default::default()
        })
    );

    let send = fixture_request(Operation::SendMessage);
    let body = serde_json::to_vec(&send).unwrap();
    let route = rest::route("POST", "/message:send", &body).unwrap();
    assert_eq!(route.operation, Operation::SendMessage);
    assert_eq!(route.params, params(Operation::SendMessage, send.clone()));
    assert_eq!(route.binding, &Operation::SendMessage.info().http[0]);

    // The path's tenant wins over the body's.
    let route = rest::route("POST", "/other/message:stream", &body).unwrap();
    assert_eq!(route.operation, Operation::SendStreamingMessage);
    assert_eq!(route.params.to_json()["tenant"], "other");

    let route = rest::route("DELETE", "/tasks/t-1/pushNotificationConfigs/cfg-1", b"").unwrap();
    assert_eq!(
        route.params,
        MethodParams::DeleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest {
            task_id: "t-1".into(),
            id: "cfg-1".into(),
            ..Default::default()
        })
    );
    let route = rest::route("GET", "/tasks/t-1/pushNotificationConfigs/cfg-1", b"").unwrap();
    assert_eq!(route.operation, Operation::GetTaskPushNotificationConfig);
    let route = rest::route("GET", "/tasks/t-1/pushNotificationConfigs?pageSize=5", b"").unwrap();
    assert_eq!(route.operation, Operation::ListTaskPushNotificationConfigs);
    assert_eq!(
        route.params.to_json(),
        json!({"taskId": "t-1", "pageSize": 5})
    );

    // A cancel without a body, and with one; the path's id wins over the body's.
    let route = rest::route("POST", "/tasks/t-1:cancel", b"").unwrap();
    assert_eq!(route.params.to_json(), json!({"id": "t-1"}));
    let route = rest::route(
        "POST",
        "/tasks/t-1:cancel",
        br#"{"id": "t-2", "metadata": {"reason": "user"}}"#,
    )
    .unwrap();
    assert_eq!(
        route.params.to_json(),
        json!({"id": "t-1", "metadata": {"reason": "user"}})
    );

    let route = rest::route("GET", "/tasks/t-1:subscribe", b"").unwrap();
    assert_eq!(route.operation, Operation::SubscribeToTask);
    assert_eq!(route.params.to_json(), json!({"id": "t-1"}));
    // The official SDK's client subscribes with POST (and no body); its server takes that too.
    let route = rest::route("POST", "/acme/tasks/t-1:subscribe", b"").unwrap();
    assert_eq!(route.operation, Operation::SubscribeToTask);
    assert_eq!(route.binding.method, "GET");
    assert_eq!(
        route.params.to_json(),
        json!({"tenant": "acme", "id": "t-1"})
    );
    // Only POST gets that leniency, and only for custom methods.
    assert!(rest::route("DELETE", "/tasks/t-1:subscribe", b"").is_err());

    // The path's task id replaces the body's, in either spelling.
    let route = rest::route(
        "POST",
        "/tasks/t-1/pushNotificationConfigs",
        br#"{"task_id": "t-9", "url": "https://client.example.org/hook"}"#,
    )
    .unwrap();
    assert_eq!(
        route.params.to_json(),
        json!({"taskId": "t-1", "url": "https://client.example.org/hook"})
    );

    let route = rest::route("GET", "/extendedAgentCard", b"").unwrap();
    assert_eq!(route.operation, Operation::GetExtendedAgentCard);
    let route = rest::route("GET", "/acme/extendedAgentCard", b"").unwrap();
    assert_eq!(route.params.to_json(), json!({"tenant": "acme"}));

    // Percent-decoding: an id holding `/`, a space and a colon is one segment.
    let route = rest::route("GET", "/tasks/a%2Fb%20c%3Ad", b"").unwrap();
    assert_eq!(route.params.to_json(), json!({"id": "a/b c:d"}));
    // An id with a raw colon that is not a verb of the table is just an id.
    let route = rest::route("GET", "/tasks/urn:uuid:1", b"").unwrap();
    assert_eq!(route.params.to_json(), json!({"id": "urn:uuid:1"}));
    // Overlapping templates: the literal `tasks` beats a tenant called `tasks`.
    let route = rest::route("GET", "/tasks/extendedAgentCard", b"").unwrap();
    assert_eq!(route.operation, Operation::GetTask);
    // Method names are matched without regard to case.
    assert_eq!(
        rest::route("get", "/tasks", b"").unwrap().operation,
        Operation::ListTasks
    );
}

fn field_error(method: &str, target: &str, body: &[u8]) -> (String, String) {
    match rest::route(method, target, body) {
        Err(RouteError::InvalidField { field, problem }) => (field, problem),
        other => panic!("{method} {target}: {other:?}"),
    }
}

#[test]
fn bad_values_are_invalid_params_naming_the_field() {
    let cases = [
        ("/tasks?pageSize=ten", "pageSize", "32-bit integer"),
        ("/tasks?pageSize=1&pageSize=2", "pageSize", "sequence"),
        (
            "/tasks/t-1?tenant=a&tenant=b",
            "tenant",
            "expected one value",
        ),
        ("/tasks?historyLength=99999999999", "historyLength", ""),
        (
            "/tasks?status=TASK_STATE_PAUSED",
            "status",
            "TASK_STATE_WORKING",
        ),
        (
            "/tasks?includeArtifacts=yes",
            "includeArtifacts",
            "true or false",
        ),
        (
            "/tasks?statusTimestampAfter=yesterday",
            "statusTimestampAfter",
            "RFC 3339",
        ),
        ("/tasks?contextId=%E0%A4", "contextId", "UTF-8"),
        ("/tasks/%ZZ", "id", "percent-encoded"),
        ("/tasks/t-1?historyLength=1.5", "historyLength", ""),
    ];
    for (target, field, fragment) in cases {
        let (got_field, problem) = field_error("GET", target, b"");
        assert_eq!(got_field, field, "{target}: {problem}");
        assert!(problem.contains(fragment), "{target}: {problem}");
    }

    let (field, problem) = field_error(
        "POST",
        "/message:send",
        br#"{"message": {"messageId": "m-1", "role": "ROLE_PILOT", "parts": [{"text": "hi"}]}}"#,
    );
    assert_eq!(field, "message.role");
    assert!(problem.contains("ROLE_PILOT"), "{problem}");

    // Into the error model: INVALID_ARGUMENT with a BadRequest field violation.
    let error = rest::route("GET", "/tasks?pageSize=ten", b"").unwrap_err();
    assert_eq!(error.http_status(), 400);
    let body = error.to_rest();
    assert_eq!(body["error"]["code"], 400);
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");
    assert_eq!(body["error"]["details"][0]["reason"], "INVALID_PARAMS");
    assert_eq!(
        body["error"]["details"][1]["fieldViolations"][0]["field"],
        "pageSize"
    );
    let error = a2a_protocol::errors::Error::from(error);
    assert_eq!(error.kind, ErrorKind::InvalidParams);
    assert_eq!(error.field_violations[0].field, "pageSize");
}

#[test]
fn bodies_that_are_not_a_json_object_are_rejected() {
    match rest::route("POST", "/message:send", b"{\"message\":").unwrap_err() {
        error @ RouteError::InvalidBody {
            kind: ErrorKind::JsonParse,
            ..
        } => {
            assert_eq!(error.http_status(), 400);
            assert_eq!(
                error.to_rest()["error"]["details"][0]["reason"],
                "UNKNOWN_ERROR"
            );
        }
        other => panic!("{other:?}"),
    }
    match rest::route("POST", "/tasks/t-1:cancel", b"[1, 2]").unwrap_err() {
        RouteError::InvalidBody { kind, .. } => assert_eq!(kind, ErrorKind::InvalidRequest),
        other => panic!("{other:?}"),
    }
    // A member of the wrong JSON type is named.
    let (field, problem) = field_error("POST", "/message:send", br#"{"message": "hi"}"#);
    assert_eq!(field, "message");
    assert!(problem.contains("invalid type"), "{problem}");
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405() {
    for (method, target) in [
        ("GET", "/nothing"),
        ("GET", "/tasks/"),
        ("GET", "/tasks/t-1/artifacts"),
        ("POST", "/message:sendLater"),
        ("GET", ""),
        ("GET", "/a/b/c/d/e/f"),
    ] {
        let error = rest::route(method, target, b"").unwrap_err();
        assert!(
            matches!(error, RouteError::NotFound { .. }),
            "{target}: {error:?}"
        );
        assert_eq!(error.http_status(), 404);
        let body = error.to_rest();
        assert_eq!(body["error"]["code"], 404);
        assert_eq!(body["error"]["status"], "NOT_FOUND");
        assert_eq!(body["error"]["details"][0]["reason"], "METHOD_NOT_FOUND");
    }
    for (method, target, allowed) in [
        ("DELETE", "/tasks/t-1", vec!["GET"]),
        ("PUT", "/message:send", vec!["POST"]),
        ("GET", "/tasks/t-1:cancel", vec!["POST"]),
        ("POST", "/tasks", vec!["GET"]),
        (
            "POST",
            "/acme/tasks/t-1/pushNotificationConfigs/c-1",
            vec!["GET", "DELETE"],
        ),
    ] {
        let error = rest::route(method, target, b"").unwrap_err();
        match &error {
            RouteError::MethodNotAllowed { allowed: got, .. } => {
                assert_eq!(*got, allowed, "{method} {target}")
            }
            other => panic!("{method} {target}: {other:?}"),
        }
        assert_eq!(error.http_status(), 405);
        let body = error.to_rest();
        assert_eq!(body["error"]["code"], 405);
        assert_eq!(
            body["error"]["details"][0]["metadata"]["allow"],
            allowed.join(", ")
        );
        assert_eq!(error.to_error().kind, ErrorKind::MethodNotFound);
    }
}

#[test]
fn clients_get_method_path_query_and_body() {
    let list: MethodParams = params(Operation::ListTasks, fixture_request(Operation::ListTasks));
    let request = rest::build_request(&list, None).unwrap();
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, "/acme-corp/tasks");
    assert_eq!(
        request.query,
        "contextId=c0a8e4f2-5b3d-4c19-8e7a-6f1d2b9c4a53&historyLength=3&includeArtifacts=false\
         &pageSize=25&pageToken=eyJvZmZzZXQiOjI1LCJzb3J0IjoidXBkYXRlZCJ9\
         &status=TASK_STATE_INPUT_REQUIRED&statusTimestampAfter=2026-03-14T00%3A00%3A00Z"
    );
    assert_eq!(request.body, None);

    let delete =
        MethodParams::DeleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest {
            task_id: "t 1".into(),
            id: "cfg/1".into(),
            ..Default::default()
        });
    let request = rest::build_request(&delete, None).unwrap();
    assert_eq!(
        (request.method, request.path_and_query().as_str()),
        ("DELETE", "/tasks/t%201/pushNotificationConfigs/cfg%2F1")
    );

    let send = fixture_request(Operation::SendMessage);
    let request = rest::build_request(&params(Operation::SendMessage, send.clone()), None).unwrap();
    assert_eq!(
        (request.method, request.path.as_str()),
        ("POST", "/acme-corp/message:send")
    );
    let mut body = send;
    body.as_object_mut().unwrap().remove("tenant");
    assert_eq!(request.body, Some(body));
    assert_eq!(request.query, "");

    // An id the path needs but the request lacks has no HTTP form.
    let error =
        rest::build_request(&MethodParams::GetTask(GetTaskRequest::default()), None).unwrap_err();
    assert_eq!(error.field, "id");
    let error = rest::build_request(
        &MethodParams::DeleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest {
            id: "cfg-1".into(),
            ..Default::default()
        }),
        Some("acme"),
    )
    .unwrap_err();
    assert_eq!(error.field, "taskId");
}

const SDK_SUITE: Suite = Suite {
    name: "v1 HTTP+JSON requests",
    package_args: &[],
    sdk_module: "a2a.client.transports.rest",
};

/// The requests the official Python SDK's REST client sends (`tests/interop/sdk_rest_requests.py`)
/// route to the operation called and to the very request the SDK was given.
#[test]
fn requests_of_the_official_sdk_client_route_to_what_it_was_asked_to_send() {
    let Some(python) = python(&SDK_SUITE) else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rest_v1");
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, stdout) = run_script(&python, "sdk_rest_requests.py", &["generate"], &dir);
    assert!(ok, "sdk_rest_requests.py generate failed:\n{stdout}");
    let cases: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();

    let mut rpcs = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["case"].as_str().unwrap();
        let method = case["method"].as_str().unwrap();
        let target = case["target"].as_str().unwrap();
        let body = case["body"].as_str().unwrap_or("");
        let routed = match rest::route(method, target, body.as_bytes()) {
            Ok(routed) => routed,
            Err(error) => {
                failures.push(format!("{name}: {method} {target}: {error}"));
                continue;
            }
        };
        if routed.operation.jsonrpc_method() != case["rpc"] {
            failures.push(format!("{name}: routed to {}", routed.operation));
        }
        let ours = routed.params.to_json();
        if !json_equivalent(&ours, &case["request"]) {
            failures.push(format!(
                "{name}: {method} {target}: {:?}",
                json_differences(&ours, &case["request"])
            ));
        }
        rpcs.insert(routed.operation);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(rpcs.len(), OPERATIONS.len(), "every operation was called");
    assert!(cases.len() >= 2 * OPERATIONS.len(), "{}", cases.len());
}
