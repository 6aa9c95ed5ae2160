//! The client against the official Python SDK 1.3.0's own server classes
//! (`tests/interop/sdk_agent_server.py`: its request handler, task and push-config stores, JSON-RPC,
//! REST and gRPC apps), on each of the three bindings: every operation, streams, and every A2A error
//! that server gives, checked by kind. The server refuses requests without `A2A-Version`, so a pass
//! also proves the client sends it. Python from `A2A_INTEROP_PYTHON` or the workspace's `.venv`.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    CancelTaskRequest, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest,
    GetTaskRequest, ListTasksRequest, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
    TaskState,
};

use crate::python::{PyServer, find};
use crate::requests::{get, task_of};

fn unique(prefix: &str, binding: Binding) -> String {
    format!("{prefix}-{binding}-{}", fastrand::u64(..))
}

fn send(message_id: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(message_id, [Part::text("from the Rust client crate")]),
        ..Default::default()
    }
}

fn in_background(message_id: &str) -> SendMessageRequest {
    SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..send(message_id)
    }
}

fn expect_kind<T: std::fmt::Debug>(result: Result<T, ClientError>, kind: ErrorKind, what: &str) {
    let failure = result.expect_err(what);
    assert_eq!(failure.a2a_kind(), Some(kind), "{what}: {failure}");
}

/// Every check on one binding; returns the names of those passed.
async fn drive(client: &A2aClient, token: &str) -> Vec<&'static str> {
    let binding = client.binding();
    let mut passed = Vec::new();

    let task = task_of(client, send(&unique("tck-complete-task", binding))).await;
    assert_eq!(task.status.state, TaskState::Completed);
    passed.push("send.task");
    match client
        .send_message(send(&unique("tck-message-response", binding)))
        .await
        .expect("sent")
    {
        SendMessageResponse::Message(message) => {
            assert_eq!(message.text(), "Direct message response")
        }
        other => panic!("expected a message, got {other:?}"),
    }
    passed.push("send.message");

    let events = client
        .send_streaming_message(send(&unique("tck-stream-artifact-chunked", binding)))
        .await
        .expect("a stream")
        .collect()
        .await
        .expect("events");
    let texts: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            StreamResponse::ArtifactUpdate(a) => Some(a.artifact.text()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["chunk-1 ", "chunk-2"], "{events:?}");
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed)
    );
    passed.push("stream");

    let full = client
        .get_task(GetTaskRequest {
            history_length: Some(1),
            ..get(&task.id)
        })
        .await
        .expect("the task");
    assert_eq!(full.id, task.id);
    assert!(
        full.history.len() <= 1,
        "historyLength 1: {:?}",
        full.history
    );
    passed.push("get");

    // Three tasks in one context, read back two per page.
    let context = format!("ctx-{binding}-{}", fastrand::u64(..));
    for _ in 0..3 {
        let mut request = send(&unique("tck-complete-task", binding));
        request.message.context_id = Some(context.clone());
        task_of(client, request).await;
    }
    let listed = client
        .list_task_pages(ListTasksRequest {
            context_id: Some(context.clone()),
            page_size: Some(2),
            ..Default::default()
        })
        .all_tasks(10)
        .await
        .expect("all pages");
    assert_eq!(listed.len(), 3);
    assert!(
        listed
            .iter()
            .all(|t| t.context_id.as_deref() == Some(context.as_str()))
    );
    passed.push("list.paging");

    let running = task_of(
        client,
        in_background(&unique("test-resubscribe-message-id", binding)),
    )
    .await;
    let subscribed = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: running.id.clone(),
            ..Default::default()
        })
        .await
        .expect("subscribed")
        .collect()
        .await
        .expect("events");
    assert!(
        matches!(subscribed.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{subscribed:?}"
    );
    passed.push("subscribe");

    let doomed = task_of(
        client,
        in_background(&unique("test-resubscribe-message-id", binding)),
    )
    .await;
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
    client
        .create_task_push_notification_config(config)
        .await
        .expect("created");
    crate::python::push_config_get_list_delete(client, &task.id, "cfg-1").await;
    passed.push("push-config.crud");

    let public = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::default())
        .await;
    let extended = client
        .with_bearer_token(Some(token.to_owned()))
        .expect("a client")
        .get_extended_agent_card(GetExtendedAgentCardRequest::default())
        .await
        .expect("the extended card");
    assert!(extended.skills.iter().any(|s| s.id == "vip-lounge"));
    if let Ok(public) = public {
        assert!(!public.skills.iter().any(|s| s.id == "vip-lounge"));
    }
    passed.push("extended-card");

    expect_kind(
        client.get_task(get("no-such-task")).await,
        ErrorKind::TaskNotFound,
        "get unknown",
    );
    expect_kind(
        client
            .cancel_task(CancelTaskRequest {
                id: "no-such-task".into(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotFound,
        "cancel unknown",
    );
    expect_kind(
        client
            .cancel_task(CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotCancelable,
        "cancel completed",
    );
    let subscribe_completed = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        })
        .await;
    match subscribe_completed {
        Err(failure) => assert_eq!(
            failure.a2a_kind(),
            Some(ErrorKind::UnsupportedOperation),
            "{failure}"
        ),
        Ok(stream) => expect_kind(
            stream.collect().await,
            ErrorKind::UnsupportedOperation,
            "subscribe completed",
        ),
    }
    let mut continuing = send(&unique("tck-complete-task", binding));
    continuing.message.task_id = Some("no-such-task".into());
    expect_kind(
        client.send_message(continuing).await,
        ErrorKind::TaskNotFound,
        "continue unknown",
    );
    expect_kind(
        client
            .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
                task_id: "no-such-task".into(),
                id: "cfg-1".into(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotFound,
        "push config of unknown task",
    );
    expect_kind(
        client
            .list_tasks(ListTasksRequest {
                page_size: Some(-1),
                ..Default::default()
            })
            .await,
        ErrorKind::InvalidParams,
        "negative page size",
    );
    passed.push("errors");
    passed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_sdk_1_3_server_on_every_binding() {
    let Some(python) = find(
        "A2A_INTEROP_PYTHON",
        ".venv",
        "a2a.server.request_handlers, grpc, uvicorn",
        "the SDK 1.3 server test",
    ) else {
        return;
    };
    let server = PyServer::start(
        &python,
        "sdk_agent_server.py",
        &["--resubscribe-delay", "1.0"],
    );
    let token = server.ready["token"].as_str().expect("token").to_owned();
    let mut summary = Vec::new();
    for binding in Binding::ALL {
        let run = async {
            let client = A2aClient::connect(&server.url(), ClientConfig::default().only(binding))
                .await
                .expect("the card resolves");
            assert_eq!(client.binding(), binding);
            drive(&client, &token).await
        };
        let passed = tokio::time::timeout(Duration::from_secs(120), run)
            .await
            .unwrap_or_else(|_| panic!("{binding}: the run ends within two minutes"));
        summary.push(format!(
            "{binding}: {} ({})",
            passed.len(),
            passed.join(", ")
        ));
    }
    println!(
        "client → SDK 1.3 server, checks passed per binding: {}",
        summary.join("; ")
    );
}

/// The SDK server killed in the middle of a stream: the client tries to resubscribe, finds nobody,
/// and reports the stream as not resumable, naming the broken connection, within its bounds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_server_is_killed_is_reported_as_not_resumable() {
    let Some(python) = find(
        "A2A_INTEROP_PYTHON",
        ".venv",
        "a2a.server.request_handlers, grpc, uvicorn",
        "the killed SDK server test",
    ) else {
        return;
    };
    for binding in Binding::ALL {
        // A server per binding, each killed in turn.
        let mut server = PyServer::start(
            &python,
            "sdk_agent_server.py",
            &["--resubscribe-delay", "30"],
        );
        let config = ClientConfig {
            stream_resume_attempts: 2,
            ..ClientConfig::default().only(binding)
        };
        let client = A2aClient::connect(&server.url(), config)
            .await
            .expect("the card resolves");
        let mut stream = client
            .send_streaming_message(send(&unique("test-resubscribe-message-id", binding)))
            .await
            .expect("a stream");
        let first = stream.next().await.expect("an event").expect("the task");
        assert!(
            matches!(
                first,
                StreamResponse::Task(_) | StreamResponse::StatusUpdate(_)
            ),
            "{first:?}"
        );
        server.kill();
        let failure = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                match stream.next().await {
                    Some(Ok(_)) => continue,
                    Some(Err(error)) => break error,
                    None => {
                        panic!("{binding}: the stream ended cleanly after the server was killed")
                    }
                }
            }
        })
        .await
        .expect("reported within the bounds");
        let ClientError::NotResumable { reason, cause, .. } = &failure else {
            panic!("{binding}: {failure}")
        };
        assert!(reason.contains("2 resubscriptions"), "{binding}: {failure}");
        assert!(cause.is_transient(), "{binding}: {failure}");
        println!("{binding}: {failure}");
    }
}
