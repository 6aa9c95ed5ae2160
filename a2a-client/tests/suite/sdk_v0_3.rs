//! The client against an A2A v0.3 agent built with the official Python SDK 0.3.x
//! (`tests/interop/sdk_v0_3_agent_server.py`, in the environment of
//! `tests/interop/requirements-v0_3.txt`; `A2A_INTEROP_PYTHON_V0_3` or the workspace's `.venv-v0_3`),
//! on each of its three bindings: the same v1 calls, sent as v0.3 JSON-RPC, v0.3 HTTP+JSON or v0.3
//! gRPC through the bridge. Send (task and message), stream, get, cancel, subscribe, the SDK's
//! errors (task not found, not cancelable), the push-config methods and the extended card as far as
//! each SDK binding serves them, a file artifact's bytes, and what v0.3 cannot carry refused by
//! name. The card names gRPC as its preferred transport, which a client left to choose follows.
//!
//! What the SDK 0.3 serves of push configs differs by binding, and each test holds it:
//! JSON-RPC serves all four; gRPC serves create and get (list and delete are `UNIMPLEMENTED`);
//! HTTP+JSON serves get, answers list with a 500, has no `DELETE` route (405), and reads the create
//! body as a whole `CreateTaskPushNotificationConfigRequest`, where the v0.3 proto's
//! `body: "config"` makes it the `TaskPushNotificationConfig` alone, which this client sends (so
//! create over HTTP+JSON fails against the SDK with its 500 "unknown exception").

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Part, PartContent, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
    TaskState,
};

use crate::python::{PyServer, find};
use crate::requests::{events_of, get, task_of};

fn send(message_id: &str, text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(message_id, [Part::text(text)]),
        ..Default::default()
    }
}

fn push_config(task_id: &str, id: &str) -> TaskPushNotificationConfig {
    serde_json::from_value(serde_json::json!({
        "taskId": task_id, "id": id, "url": "http://127.0.0.1:9/hook", "token": "tok"
    }))
    .expect("a config")
}

fn get_config(task_id: &str, id: &str) -> GetTaskPushNotificationConfigRequest {
    GetTaskPushNotificationConfigRequest {
        task_id: task_id.into(),
        id: id.into(),
        ..Default::default()
    }
}

/// The SDK 0.3 agent, or `None` (the test skips) without its environment.
fn start_agent() -> Option<PyServer> {
    let python = find(
        "A2A_INTEROP_PYTHON_V0_3",
        ".venv-v0_3",
        "a2a.server.apps, a2a.server.request_handlers.grpc_handler, uvicorn",
        "the SDK 0.3 agent test",
    )?;
    Some(PyServer::start(
        &python,
        "sdk_v0_3_agent_server.py",
        &["--delay", "1.5", "--preferred", "GRPC"],
    ))
}

/// A client of the agent on `binding` only.
async fn client_on(server: &PyServer, binding: Binding) -> A2aClient {
    let client = A2aClient::connect(&server.url(), ClientConfig::default().only(binding))
        .await
        .expect("the v0.3 card resolves");
    assert_eq!(
        (client.protocol_version(), client.binding()),
        (ProtocolVersion::V0_3, binding)
    );
    assert_eq!(client.card().name, "SDK v0.3 agent");
    client
}

/// What every binding of the SDK serves alike: send, stream, get, subscribe, cancel, the errors,
/// and the refusals. Returns the names of the checks passed and a completed task.
async fn common_checks(client: &A2aClient) -> (Vec<&'static str>, Task) {
    let mut passed = Vec::new();
    let task = task_of(client, send("v03-echo-1", "hello bridge")).await;
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.artifacts[0].text(), "echo: hello bridge");
    passed.push("send.task");

    // The SDK writes the base64 text of the content in `file_with_bytes` over gRPC (the JS SDK
    // writes the content itself, `sdk_js`): both read back exactly.
    let file = task_of(client, send("v03-file-1", "a file, please")).await;
    let part = &file.artifacts[0].parts[0];
    assert_eq!(
        (part.content.as_ref(), part.filename.as_deref()),
        (
            Some(&PartContent::Raw(b"Generated file content".to_vec())),
            Some("output.txt")
        ),
        "{file:?}"
    );
    passed.push("file-bytes.exact");

    match client
        .send_message(send("v03-message-1", "hi"))
        .await
        .expect("sent")
    {
        SendMessageResponse::Message(message) => {
            assert_eq!(message.text(), "direct v0.3 answer")
        }
        other => panic!("expected a message, got {other:?}"),
    }
    passed.push("send.message");

    let events = events_of(client, send("v03-stream-1", "stream")).await;
    let last = events.last().expect("events");
    assert!(
        matches!(last, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, StreamResponse::ArtifactUpdate(a)
            if a.artifact.text() == "streamed v0.3 text")),
        "{events:?}"
    );
    passed.push("stream");

    let fetched = client.get_task(get(&task.id)).await.expect("the task");
    assert_eq!(
        (fetched.id.as_str(), fetched.status.state),
        (task.id.as_str(), TaskState::Completed)
    );
    passed.push("get");

    // A slow task, sent without waiting: subscribe to it, then cancel another one.
    let background = |id: &str| SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..send(id, "take your time")
    };
    let slow = task_of(client, background("v03-slow-1")).await;
    let subscribed = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: slow.id.clone(),
            ..Default::default()
        })
        .await
        .expect("subscribed")
        .collect()
        .await
        .expect("the events");
    assert!(
        subscribed.iter().any(|e| matches!(e, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)),
        "{subscribed:?}"
    );
    passed.push("subscribe");
    let doomed = task_of(client, background("v03-slow-2")).await;
    let canceled = client
        .cancel_task(CancelTaskRequest {
            id: doomed.id.clone(),
            ..Default::default()
        })
        .await
        .expect("canceled");
    assert_eq!(canceled.status.state, TaskState::Canceled);
    passed.push("cancel");

    let expect = |result: Result<Task, ClientError>, kind: ErrorKind| {
        let failure = result.expect_err("an error");
        assert_eq!(failure.a2a_kind(), Some(kind), "{failure}");
    };
    expect(
        client.get_task(get("no-such-task")).await,
        ErrorKind::TaskNotFound,
    );
    passed.push("error.task-not-found");
    expect(
        client
            .cancel_task(CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotCancelable,
    );
    passed.push("error.not-cancelable");

    let failure = client
        .list_tasks(ListTasksRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(failure, ClientError::NotConvertible { .. }),
        "{failure}"
    );
    let failure = client
        .get_task(GetTaskRequest {
            tenant: Some("acme".into()),
            ..get(&task.id)
        })
        .await
        .unwrap_err();
    assert!(failure.to_string().contains("`params.tenant`"), "{failure}");
    passed.push("not-convertible");
    (passed, task)
}

/// Runs `checks` against a fresh agent within two minutes and prints the pass count.
async fn run<F, Fut>(binding: Binding, checks: F)
where
    F: FnOnce(PyServer) -> Fut,
    Fut: std::future::Future<Output = Vec<&'static str>>,
{
    let Some(server) = start_agent() else {
        return;
    };
    let passed = tokio::time::timeout(Duration::from_secs(120), checks(server))
        .await
        .expect("the run ends within two minutes");
    println!(
        "client → SDK 0.3 server over v0.3 {binding}: {} checks passed: {}",
        passed.len(),
        passed.join(", ")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_an_sdk_0_3_agent_over_jsonrpc() {
    run(Binding::JsonRpc, |server| async move {
        let client = client_on(&server, Binding::JsonRpc).await;
        let (mut passed, task) = common_checks(&client).await;
        let created = client
            .create_task_push_notification_config(push_config(&task.id, "cfg-1"))
            .await
            .expect("created");
        assert_eq!(
            (created.id.as_deref(), created.url.as_str()),
            (Some("cfg-1"), "http://127.0.0.1:9/hook")
        );
        crate::python::push_config_get_list_delete(&client, &task.id, "cfg-1").await;
        passed.push("push-config.create-get-list-delete");
        // The card does not claim an extended card: the SDK raises its "not configured" error but
        // answers it as -32603 Internal error, which is what the client reports.
        let failure = client
            .get_extended_agent_card(GetExtendedAgentCardRequest::default())
            .await
            .unwrap_err();
        assert_eq!(
            failure.a2a_error().map(|e| (e.kind, e.message.as_str())),
            Some((ErrorKind::Internal, "Authenticated card not supported")),
            "{failure}"
        );
        passed.push("extended-card.not-configured");
        passed
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_an_sdk_0_3_agent_over_grpc() {
    run(Binding::Grpc, |server| async move {
        // Left to choose, the client follows the card's preferred transport, then its additional
        // interfaces in their order (the preferred one, repeated there, once).
        let chosen = A2aClient::connect(&server.url(), ClientConfig::default())
            .await
            .expect("the v0.3 card resolves");
        let order: Vec<Binding> = chosen.interfaces().map(|c| c.binding).collect();
        assert_eq!(
            order,
            [Binding::Grpc, Binding::JsonRpc, Binding::HttpJson],
            "{:?}",
            chosen.interfaces().collect::<Vec<_>>()
        );
        let client = client_on(&server, Binding::Grpc).await;
        assert_eq!(client.interface().url, chosen.interface().url);
        let (mut passed, task) = common_checks(&client).await;
        passed.insert(0, "preferred-transport");

        let created = client
            .create_task_push_notification_config(push_config(&task.id, "cfg-g"))
            .await
            .expect("created");
        assert_eq!(created.id.as_deref(), Some("cfg-g"));
        let fetched = client
            .get_task_push_notification_config(get_config(&task.id, "cfg-g"))
            .await
            .expect("fetched");
        assert_eq!(
            (fetched.token.as_deref(), fetched.url.as_str()),
            (Some("tok"), "http://127.0.0.1:9/hook")
        );
        passed.push("push-config.create-get");
        // The SDK's servicer has no list or delete: gRPC's own UNIMPLEMENTED, no A2A error.
        let listed = client
            .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
                task_id: task.id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert!(
            matches!(&listed, ClientError::Transport { message, .. } if message.contains("Unimplemented")),
            "{listed}"
        );
        passed.push("push-config.list-unimplemented");
        // The SDK's servicer answers GetAgentCard with its card whatever the card claims.
        let card = client
            .get_extended_agent_card(GetExtendedAgentCardRequest::default())
            .await
            .expect("the card over gRPC");
        assert_eq!(card.name, "SDK v0.3 agent");
        assert_eq!(card.supported_interfaces.len(), 4, "{card:?}");
        passed.push("extended-card");
        passed
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_an_sdk_0_3_agent_over_http_json() {
    run(Binding::HttpJson, |server| async move {
        let client = client_on(&server, Binding::HttpJson).await;
        let (mut passed, task) = common_checks(&client).await;

        // The spec's create body (the config alone) is not what the SDK parses: its 500.
        let refused = client
            .create_task_push_notification_config(push_config(&task.id, "cfg-r"))
            .await
            .unwrap_err();
        assert_eq!(
            refused.a2a_error().map(|e| (e.kind, e.message.as_str())),
            Some((ErrorKind::Internal, "unknown exception")),
            "{refused}"
        );
        passed.push("push-config.create-refused-by-sdk");
        // A config created over JSON-RPC on the same agent reads back over HTTP+JSON.
        client_on(&server, Binding::JsonRpc)
            .await
            .create_task_push_notification_config(push_config(&task.id, "cfg-r"))
            .await
            .expect("created over JSON-RPC");
        let fetched = client
            .get_task_push_notification_config(get_config(&task.id, "cfg-r"))
            .await
            .expect("fetched");
        assert_eq!(
            (fetched.id.as_deref(), fetched.token.as_deref()),
            (Some("cfg-r"), Some("tok"))
        );
        passed.push("push-config.get");
        let missing = client
            .get_task_push_notification_config(get_config("no-such-task", "cfg-r"))
            .await
            .unwrap_err();
        assert_eq!(
            missing.a2a_kind(),
            Some(ErrorKind::TaskNotFound),
            "{missing}"
        );
        // No DELETE route: the router's 405, no A2A error.
        let deleted = client
            .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: "cfg-r".into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert!(
            matches!(&deleted, ClientError::Transport { message, .. } if message.contains("405")),
            "{deleted}"
        );
        passed.push("push-config.delete-no-route");
        // No `/v1/card` route unless the card claims an extended card: the router's 404.
        let failure = client
            .get_extended_agent_card(GetExtendedAgentCardRequest::default())
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::Transport { message, .. } if message.contains("404")),
            "{failure}"
        );
        passed.push("extended-card.no-route");
        passed
    })
    .await;
}
