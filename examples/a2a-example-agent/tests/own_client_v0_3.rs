//! The workspace's client, held to A2A v0.3 (`ClientConfig::only_version`), against the example
//! agent on each binding: v0.3 JSON-RPC, v0.3 HTTP+JSON (`/rest/v1/...`) and v0.3 gRPC
//! (`a2a.v1.A2AService`), each found from the card's v0.3 interfaces. Send (task and message
//! results), stream, get with history, subscribe, cancel, the push-config methods, the extended card
//! with the bearer token, and the errors TaskNotFound, TaskNotCancelable and UnsupportedOperation
//! read back typed from each binding's v0.3 error form. Every run is bounded in time.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_example_agent::server::{self, Config, EXTENDED_CARD_TOKEN};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    Message, Part, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};

const RUN_LIMIT: Duration = Duration::from_secs(60);

fn send(prefix: &str) -> SendMessageRequest {
    let id = format!("{prefix}-{}", uuid_like());
    SendMessageRequest {
        message: Message::user(id, [Part::text("hello over v0.3")]),
        ..Default::default()
    }
}

/// A message id suffix unique within the run.
fn uuid_like() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

async fn task_of(client: &A2aClient, request: SendMessageRequest) -> Task {
    match client.send_message(request).await.expect("sent") {
        SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

fn expect_kind<T: std::fmt::Debug>(result: Result<T, ClientError>, kind: ErrorKind) {
    let failure = result.expect_err("an error");
    assert_eq!(failure.a2a_kind(), Some(kind), "{failure}");
}

/// Every check over one binding; the names of those that passed.
async fn drive(client: &A2aClient, authorized: &A2aClient) -> Vec<&'static str> {
    let mut passed = Vec::new();
    let task = task_of(client, send("tck-artifact-text")).await;
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.artifacts[0].text(), "Generated text content");
    passed.push("send.task");

    match client
        .send_message(send("tck-message-response"))
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
        .send_streaming_message(send("tck-stream-artifact-chunked"))
        .await
        .expect("a stream")
        .collect()
        .await
        .expect("the events");
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{events:?}"
    );
    let chunks: Vec<(Option<bool>, Option<bool>)> = events
        .iter()
        .filter_map(|e| match e {
            StreamResponse::ArtifactUpdate(update) => Some((update.append, update.last_chunk)),
            _ => None,
        })
        .collect();
    // The second chunk appends to the first and is the last.
    assert!(
        matches!(chunks.as_slice(), [(_, first_last), (Some(true), Some(true))] if *first_last != Some(true)),
        "{chunks:?}"
    );
    passed.push("stream");

    let complete = task_of(client, send("tck-complete-task")).await;
    let fetched = client
        .get_task(GetTaskRequest {
            id: complete.id.clone(),
            history_length: Some(1),
            ..Default::default()
        })
        .await
        .expect("the task");
    let history: Vec<String> = fetched.history.iter().map(Message::text).collect();
    assert_eq!(history, ["Hello from TCK"], "{fetched:?}");
    passed.push("get.history");

    let background = || SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..send("test-resubscribe-message-id")
    };
    let slow = task_of(client, background()).await;
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

    let doomed = task_of(client, background()).await;
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
        "taskId": slow.id, "id": "cfg-1", "url": "https://hooks.example.com/a2a", "token": "tok"
    }))
    .expect("a config");
    let created = client
        .create_task_push_notification_config(config)
        .await
        .expect("created");
    assert_eq!(
        (created.id.as_deref(), created.url.as_str()),
        (Some("cfg-1"), "https://hooks.example.com/a2a")
    );
    let got = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
            task_id: slow.id.clone(),
            id: "cfg-1".into(),
            ..Default::default()
        })
        .await
        .expect("the config");
    assert_eq!(got.token.as_deref(), Some("tok"));
    let listed = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
            task_id: slow.id.clone(),
            ..Default::default()
        })
        .await
        .expect("the configs");
    assert_eq!(listed.configs.len(), 1, "{listed:?}");
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
            task_id: slow.id.clone(),
            id: "cfg-1".into(),
            ..Default::default()
        })
        .await
        .expect("deleted");
    passed.push("push-configs");

    let extended = authorized
        .get_extended_agent_card(GetExtendedAgentCardRequest::default())
        .await
        .expect("the extended card");
    assert!(extended.documentation_url.is_some(), "{extended:?}");
    passed.push("extended-card");

    expect_kind(
        client
            .get_task(GetTaskRequest {
                id: "no-such-task".into(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotFound,
    );
    expect_kind(
        client
            .cancel_task(CancelTaskRequest {
                id: complete.id.clone(),
                ..Default::default()
            })
            .await,
        ErrorKind::TaskNotCancelable,
    );
    let over = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: complete.id.clone(),
            ..Default::default()
        })
        .await;
    let over = match over {
        Ok(stream) => stream.collect().await.map(|_| ()),
        Err(error) => Err(error),
    };
    expect_kind(over, ErrorKind::UnsupportedOperation);
    passed.push("errors");
    passed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_client_drives_the_agent_over_every_v0_3_binding() {
    let agent = server::start_on_free_ports(Config {
        resubscribe_delay: Duration::from_millis(1500),
        ..Config::default()
    })
    .await
    .expect("the agent starts on free loopback ports");
    let mut summary = Vec::new();
    for binding in Binding::ALL {
        let config = ClientConfig::default()
            .only(binding)
            .only_version(ProtocolVersion::V0_3)
            .timeout(Duration::from_secs(15));
        let client = A2aClient::connect(&agent.base_url(), config.clone())
            .await
            .unwrap_or_else(|e| panic!("connecting over v0.3 {binding}: {e}"));
        assert_eq!(
            (client.protocol_version(), client.binding()),
            (ProtocolVersion::V0_3, binding)
        );
        let authorized =
            A2aClient::connect(&agent.base_url(), config.bearer_token(EXTENDED_CARD_TOKEN))
                .await
                .expect("connected with the token");
        let passed = tokio::time::timeout(RUN_LIMIT, drive(&client, &authorized))
            .await
            .unwrap_or_else(|_| panic!("the v0.3 {binding} run took over {RUN_LIMIT:?}"));
        summary.push(format!("v0.3 {binding}: {} checks passed", passed.len()));
    }
    println!("{}", summary.join("\n"));
    agent.shutdown().await;
}
