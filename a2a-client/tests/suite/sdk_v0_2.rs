//! The client against an A2A v0.2 agent built with the official Python SDK 0.2.x
//! (`tests/interop/sdk_v0_2_agent_server.py`, in the environment of
//! `tests/interop/requirements-v0_2.txt`; `A2A_INTEROP_PYTHON_V0_2` or the workspace's `.venv-v0_2`),
//! on JSON-RPC, the one binding v0.2 defines: the card found at v0.2's well-known path
//! (`/.well-known/agent.json`, after `agent-card.json` answers 404) and recognised as 0.2, then the
//! same v1 calls sent as v0.3 JSON-RPC through the bridge, whose wire v0.2 shares: send (task and
//! message), stream, get, cancel, push configs (set, get, list, delete), resubscribe to a running
//! task, the extended card by v0.2's authenticated GET, the SDK's errors, and what v0.2 cannot carry
//! refused by name.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, CardResolver, ClientConfig};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    Message, Part, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig, TaskState,
};

use crate::python::{PyServer, find};
use crate::requests::{events_of, get, task_of};

fn send(message_id: &str, text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(message_id, [Part::text(text)]),
        ..Default::default()
    }
}

/// A send to the slow behaviour, answered at once with the working task.
fn slow(message_id: &str) -> SendMessageRequest {
    SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..send(message_id, "take your time")
    }
}

/// v0.2's four push-config methods on `task_id`: set, get, list, delete (then the list is empty).
async fn push_configs(client: &A2aClient, task_id: &str) -> Vec<&'static str> {
    let config = TaskPushNotificationConfig {
        task_id: Some(task_id.to_owned()),
        id: Some("cfg-1".into()),
        url: "https://client.example.com/hook".into(),
        token: Some("t-1".into()),
        ..Default::default()
    };
    let set = client
        .create_task_push_notification_config(config.clone())
        .await
        .expect("set");
    assert_eq!(
        (set.id.as_deref(), set.url.as_str()),
        (Some("cfg-1"), config.url.as_str())
    );
    let named = GetTaskPushNotificationConfigRequest {
        task_id: task_id.to_owned(),
        id: "cfg-1".into(),
        ..Default::default()
    };
    let read = client
        .get_task_push_notification_config(named.clone())
        .await
        .expect("get");
    assert_eq!(
        (read.task_id.as_deref(), read.token.as_deref()),
        (Some(task_id), Some("t-1"))
    );
    let list = ListTaskPushNotificationConfigsRequest {
        task_id: task_id.to_owned(),
        ..Default::default()
    };
    let listed = client
        .list_task_push_notification_configs(list.clone())
        .await
        .expect("list");
    assert_eq!(listed.configs.len(), 1, "{listed:?}");
    assert_eq!(listed.configs[0].id.as_deref(), Some("cfg-1"));
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
            task_id: task_id.to_owned(),
            id: "cfg-1".into(),
            ..Default::default()
        })
        .await
        .expect("deleted");
    let listed = client
        .list_task_push_notification_configs(list)
        .await
        .expect("list");
    assert!(listed.configs.is_empty(), "{listed:?}");
    vec!["push.set", "push.get", "push.list", "push.delete"]
}

/// The SDK 0.2 agent, or `None` (the test skips) without its environment.
fn start_agent() -> Option<PyServer> {
    let python = find(
        "A2A_INTEROP_PYTHON_V0_2",
        ".venv-v0_2",
        "a2a.server.apps, uvicorn",
        "the SDK 0.2 agent test",
    )?;
    Some(PyServer::start(
        &python,
        "sdk_v0_2_agent_server.py",
        &["--delay", "1.5"],
    ))
}

async fn checks(server: &PyServer) -> Vec<&'static str> {
    let mut passed = Vec::new();
    let config = ClientConfig::default();
    let resolved = CardResolver::from_config(&config)
        .expect("a resolver")
        .resolve(&server.url())
        .await
        .expect("the v0.2 card, at /.well-known/agent.json");
    assert_eq!(
        resolved.document_version,
        ProtocolVersion { major: 0, minor: 2 }
    );
    assert_eq!(resolved.card.name, "SDK v0.2 agent");
    passed.push("card.legacy-path");

    // Left to choose, the client takes the one interface it can speak: JSON-RPC, as v0.3.
    let client = A2aClient::connect(&server.url(), config)
        .await
        .expect("the v0.2 card resolves");
    assert_eq!(
        (client.protocol_version(), client.binding()),
        (ProtocolVersion::V0_3, Binding::JsonRpc)
    );
    assert!(
        client.interface().protocol_version.starts_with("0.2."),
        "{:?}",
        client.interface()
    );
    passed.push("card.recognised-0.2");

    let task = task_of(&client, send("v02-echo-1", "hello v0.2")).await;
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.artifacts[0].text(), "echo: hello v0.2");
    passed.push("send.task");

    match client
        .send_message(send("v02-message-1", "hi"))
        .await
        .expect("sent")
    {
        SendMessageResponse::Message(message) => {
            assert_eq!(message.text(), "direct v0.2 answer")
        }
        other => panic!("expected a message, got {other:?}"),
    }
    passed.push("send.message");

    let events = events_of(&client, send("v02-stream-1", "stream")).await;
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, StreamResponse::ArtifactUpdate(a)
            if a.artifact.text() == "streamed v0.2 text")),
        "{events:?}"
    );
    passed.push("stream");

    let fetched = client.get_task(get(&task.id)).await.expect("the task");
    assert_eq!(
        (fetched.id.as_str(), fetched.status.state),
        (task.id.as_str(), TaskState::Completed)
    );
    passed.push("get");

    let doomed = task_of(&client, slow("v02-slow-1")).await;
    let canceled = client
        .cancel_task(CancelTaskRequest {
            id: doomed.id.clone(),
            ..Default::default()
        })
        .await
        .expect("canceled");
    assert_eq!(canceled.status.state, TaskState::Canceled);
    passed.push("cancel");

    passed.extend(push_configs(&client, &task.id).await);

    // The SDK 0.2 answers a send only once the task is done, whatever `blocking` says: a task is
    // seen running through a stream, kept open while the client resubscribes.
    let mut first = client
        .send_streaming_message(send("v02-slow-2", "take your time"))
        .await
        .expect("a stream");
    let running = match first.next().await {
        Some(Ok(StreamResponse::Task(task))) => task,
        other => panic!("expected the task first, got {other:?}"),
    };
    assert!(!running.status.state.is_terminal(), "{running:?}");
    let events = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: running.id.clone(),
            ..Default::default()
        })
        .await
        .expect("resubscribed")
        .collect()
        .await
        .expect("the events");
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u))
            if u.status.state == TaskState::Completed && u.task_id == running.id),
        "{events:?}"
    );
    drop(first);
    passed.push("resubscribe");

    let missing = client.get_task(get("no-such-task")).await.unwrap_err();
    assert_eq!(
        missing.a2a_kind(),
        Some(ErrorKind::TaskNotFound),
        "{missing}"
    );
    passed.push("error.task-not-found");

    let refused = client
        .get_task(GetTaskRequest {
            tenant: Some("acme".into()),
            ..get(&task.id)
        })
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("`params.tenant`"), "{refused}");
    passed.push("not-convertible.tenant");

    // v0.2 serves the extended card by HTTP GET beside the card's url, not by JSON-RPC: without
    // credentials the agent refuses it, with them the card has the skill the public one lacks.
    let refused = client
        .get_extended_agent_card(Default::default())
        .await
        .unwrap_err();
    assert!(refused.is_unauthenticated(), "{refused}");
    let extended = client
        .with_bearer_token(Some("v02-extended-token".into()))
        .expect("a client with credentials")
        .get_extended_agent_card(Default::default())
        .await
        .expect("the extended card");
    let skills: Vec<&str> = extended.skills.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(skills, ["echo", "extended-echo"]);
    assert_eq!(extended.name, "SDK v0.2 agent");
    passed.push("extended-card.get");
    passed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_an_sdk_0_2_agent_over_jsonrpc() {
    let Some(server) = start_agent() else {
        return;
    };
    let passed = tokio::time::timeout(Duration::from_secs(120), checks(&server))
        .await
        .expect("the run ends within two minutes");
    println!(
        "client → SDK 0.2 server over v0.2 JSON-RPC: {} checks passed: {}",
        passed.len(),
        passed.join(", ")
    );
}
