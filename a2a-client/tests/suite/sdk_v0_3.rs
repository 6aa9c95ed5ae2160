//! The client against an A2A v0.3 agent built with the official Python SDK 0.3.x
//! (`tests/interop/sdk_v0_3_agent_server.py`, in the environment of
//! `tests/interop/requirements-v0_3.txt`; `A2A_INTEROP_PYTHON_V0_3` or the workspace's `.venv-v0_3`):
//! the same v1 calls, sent as v0.3 JSON-RPC through the bridge. Send (task and message), stream,
//! get, cancel, subscribe, the four push-config methods, the SDK's errors, and what v0.3 cannot
//! carry refused by name.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_types::errors::ErrorKind;
use a2a_types::service::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message, Part, SendMessageConfiguration,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task,
    TaskPushNotificationConfig, TaskState,
};

use crate::python::{PyServer, find};

fn send(message_id: &str, text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(message_id, [Part::text(text)]),
        ..Default::default()
    }
}

async fn task_of(client: &A2aClient, request: SendMessageRequest) -> Task {
    match client.send_message(request).await.expect("sent") {
        SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_an_sdk_0_3_agent_through_the_bridge() {
    let Some(python) = find(
        "A2A_INTEROP_PYTHON_V0_3",
        ".venv-v0_3",
        "a2a.server.apps, uvicorn",
        "the SDK 0.3 agent test",
    ) else {
        return;
    };
    let server = PyServer::start(&python, "sdk_v0_3_agent_server.py", &["--delay", "1.5"]);
    let run = async {
        let mut passed = Vec::new();
        let client = A2aClient::connect(&server.url(), ClientConfig::default())
            .await
            .expect("the v0.3 card resolves");
        assert_eq!(client.protocol_version(), ProtocolVersion::V0_3);
        assert_eq!(client.binding(), Binding::JsonRpc);
        assert_eq!(client.card().name, "SDK v0.3 agent");
        passed.push("card");

        let task = task_of(&client, send("v03-echo-1", "hello bridge")).await;
        assert_eq!(task.status.state, TaskState::Completed);
        assert_eq!(task.artifacts[0].text(), "echo: hello bridge");
        passed.push("send.task");

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

        let events = client
            .send_streaming_message(send("v03-stream-1", "stream"))
            .await
            .expect("a stream")
            .collect()
            .await
            .expect("the events");
        let last = events.last().expect("events");
        assert!(
            matches!(last, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed),
            "{events:?}"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, StreamResponse::ArtifactUpdate(a)
            if a.artifact.text() == "streamed v0.3 text"))
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
        let slow = task_of(&client, background("v03-slow-1")).await;
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
        let doomed = task_of(&client, background("v03-slow-2")).await;
        let canceled = client
            .cancel_task(CancelTaskRequest {
                id: doomed.id.clone(),
                ..Default::default()
            })
            .await
            .expect("canceled");
        assert_eq!(canceled.status.state, TaskState::Canceled);
        passed.push("cancel");

        let config: TaskPushNotificationConfig = serde_json::from_value(serde_json::json!({
            "taskId": task.id, "id": "cfg-1", "url": "http://127.0.0.1:9/hook", "token": "tok"
        }))
        .expect("a config");
        let created = client
            .create_task_push_notification_config(config)
            .await
            .expect("created");
        assert_eq!(
            (created.id.as_deref(), created.url.as_str()),
            (Some("cfg-1"), "http://127.0.0.1:9/hook")
        );
        crate::python::push_config_get_list_delete(&client, &task.id, "cfg-1").await;
        passed.push("push-config.crud");

        let expect = |result: Result<Task, ClientError>, kind: ErrorKind| {
            let failure = result.expect_err("an error");
            assert_eq!(failure.a2a_kind(), Some(kind), "{failure}");
        };
        expect(
            client.get_task(get("no-such-task")).await,
            ErrorKind::TaskNotFound,
        );
        expect(
            client
                .cancel_task(CancelTaskRequest {
                    id: task.id.clone(),
                    ..Default::default()
                })
                .await,
            ErrorKind::TaskNotCancelable,
        );
        passed.push("errors");

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
        passed
    };
    let passed = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the run ends within two minutes");
    println!(
        "client → SDK 0.3 server over v0.3 JSON-RPC: {} checks passed: {}",
        passed.len(),
        passed.join(", ")
    );
}
