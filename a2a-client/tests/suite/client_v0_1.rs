//! The client against an A2A v0.1 agent ([`crate::v0_1_agent`], written in the test from the v0.1
//! schema's types, strict about what it reads): the card found at `/.well-known/agent.json` and
//! recognised as v0.1, then every v0.1 method through the bridge (send, stream, get with history,
//! cancel, push config set and get, resubscribe), the agent's TaskNotFound as the typed error, and
//! what v0.1 cannot carry refused by name before anything is sent.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, CardResolver, ClientConfig, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    AuthenticationInfo, CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, Message, Part, Role, SendMessageConfiguration,
    SendMessageRequest, StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
    TaskState,
};

use crate::requests::{events_of, get, task_of};
use crate::v0_1_agent;

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text(text)]),
        ..Default::default()
    }
}

async fn checks(client: &A2aClient) -> Vec<&'static str> {
    let mut passed = Vec::new();
    let task = task_of(client, send("tell me a joke")).await;
    assert_eq!(task.status.state, TaskState::Completed, "{task:?}");
    assert_eq!(task.artifacts[0].text(), "echo: tell me a joke");
    assert_eq!(task.context_id.as_deref(), Some("session-1"));
    passed.push("send.task");

    let events = events_of(client, send("stream me")).await;
    assert!(
        matches!(events.first(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Working),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, StreamResponse::ArtifactUpdate(a)
            if a.artifact.text() == "echo: stream me")),
        "{events:?}"
    );
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{events:?}"
    );
    passed.push("stream");

    let fetched = client
        .get_task(GetTaskRequest {
            history_length: Some(10),
            ..get(&task.id)
        })
        .await
        .expect("the task");
    assert_eq!(fetched.id, task.id);
    assert_eq!(fetched.history.len(), 2, "{fetched:?}");
    assert_eq!(
        (fetched.history[0].role, fetched.history[0].text().as_str()),
        (Role::User, "tell me a joke")
    );
    passed.push("get.history");

    let slow = task_of(client, send("slow, please")).await;
    assert_eq!(slow.status.state, TaskState::Working);
    let config = TaskPushNotificationConfig {
        task_id: Some(slow.id.clone()),
        url: "https://client.example.com/hook".into(),
        token: Some("t-1".into()),
        authentication: Some(AuthenticationInfo {
            scheme: "Bearer".into(),
            ..Default::default()
        }),
        ..Default::default()
    };
    let set = client
        .create_task_push_notification_config(config.clone())
        .await
        .expect("set");
    assert_eq!(
        (set.url.as_str(), set.token.as_deref()),
        (config.url.as_str(), Some("t-1"))
    );
    let read = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
            task_id: slow.id.clone(),
            ..Default::default()
        })
        .await
        .expect("get");
    assert_eq!(read.task_id.as_deref(), Some(slow.id.as_str()));
    assert_eq!(read.url, config.url);
    assert_eq!(
        read.authentication.map(|a| a.scheme).as_deref(),
        Some("Bearer")
    );
    passed.push("push.set-get");

    let events = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: slow.id.clone(),
            ..Default::default()
        })
        .await
        .expect("resubscribed")
        .collect()
        .await
        .expect("the events");
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u))
            if u.status.state == TaskState::Completed && u.task_id == slow.id),
        "{events:?}"
    );
    passed.push("resubscribe");

    let doomed = task_of(client, send("slow again")).await;
    let canceled = client
        .cancel_task(CancelTaskRequest {
            id: doomed.id.clone(),
            ..Default::default()
        })
        .await
        .expect("canceled");
    assert_eq!(canceled.status.state, TaskState::Canceled);
    passed.push("cancel");

    let missing = client.get_task(get("no-such-task")).await.unwrap_err();
    assert_eq!(
        missing.a2a_kind(),
        Some(ErrorKind::TaskNotFound),
        "{missing}"
    );
    passed.push("error.task-not-found");
    passed
}

/// What v0.1 cannot carry is refused by name, and nothing reaches the agent.
async fn refusals(client: &A2aClient) -> Vec<&'static str> {
    let mut passed = Vec::new();
    let mut message = Message::user("m-2", [Part::text("see the other task")]);
    message.reference_task_ids = vec!["task-0".into()];
    let refused = client
        .send_message(SendMessageRequest {
            message,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ClientError::NotConvertible { .. }),
        "{refused}"
    );
    assert!(
        refused
            .to_string()
            .contains("`params.message.referenceTaskIds`"),
        "{refused}"
    );
    passed.push("not-convertible.reference-task-ids");

    let refused = client
        .send_message(SendMessageRequest {
            configuration: Some(SendMessageConfiguration {
                accepted_output_modes: vec!["text/plain".into()],
                ..Default::default()
            }),
            ..send("hi")
        })
        .await
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("`params.configuration.acceptedOutputModes`"),
        "{refused}"
    );
    passed.push("not-convertible.accepted-output-modes");

    let refused = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
            task_id: "task-0".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, ClientError::NotConvertible { message } if message.contains("no A2A v0.1 counterpart")),
        "{refused}"
    );
    passed.push("not-convertible.list-push-configs");
    passed
}

#[tokio::test]
async fn the_client_drives_a_v0_1_agent_through_the_bridge() {
    let agent = v0_1_agent::start().await;
    let config = ClientConfig::default().bearer_token(v0_1_agent::TOKEN);
    let resolved = CardResolver::from_config(&config)
        .expect("a resolver")
        .resolve(&agent.base)
        .await
        .expect("the v0.1 card, at /.well-known/agent.json");
    assert_eq!(resolved.document_version, ProtocolVersion::V0_1);
    assert!(resolved.card.security_schemes.contains_key("Bearer"));
    let client = A2aClient::connect(&agent.base, config)
        .await
        .expect("the v0.1 card resolves");
    assert_eq!(
        (client.protocol_version(), client.binding()),
        (ProtocolVersion::V0_1, Binding::JsonRpc)
    );
    assert_eq!(client.interface().url, format!("{}/a2a", agent.base));

    let mut passed = vec!["card.recognised-0.1"];
    let run = async {
        passed.extend(checks(&client).await);
        let sent = agent.calls().len();
        passed.extend(refusals(&client).await);
        assert_eq!(
            agent.calls().len(),
            sent,
            "a refused request reached the agent"
        );
    };
    tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("the run ends within 20 s");
    // v0.1 has no `A2A-Version`: none is sent.
    assert!(
        agent
            .calls()
            .iter()
            .all(|c| c.header("a2a-version").is_none())
    );
    println!(
        "client → v0.1 agent over v0.1 JSON-RPC: {} checks passed: {}",
        passed.len(),
        passed.join(", ")
    );
}
