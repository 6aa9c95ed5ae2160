//! The workspace's client speaking A2A v0.1 to the example agent: a card whose one JSON-RPC
//! interface says `0.1.0` makes the client send `tasks/send`, `tasks/sendSubscribe`, `tasks/get`,
//! `tasks/cancel`, `tasks/pushNotification/set|get` and `tasks/resubscribe` through the bridge, which
//! the server routes as v0.1's (by method name, and by the task's creating version for the shared
//! names). The task the v0.1 client made is then read by a v1 client. The agent completes every task
//! at once, so cancel and resubscribe answer with their typed errors. Bounded in time.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_example_agent::server::{self, Config};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_testkit::stores::StoreChoice;
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, GetTaskPushNotificationConfigRequest,
    GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, TaskPushNotificationConfig, TaskState,
};

const RUN_LIMIT: Duration = Duration::from_secs(30);

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text(text)]),
        ..Default::default()
    }
}

fn get(id: &str, history_length: Option<i32>) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        history_length,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_speaks_v0_1_to_the_example_agent() {
    let config = Config {
        store: StoreChoice::Memory,
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent starts on free loopback ports");
    let card = AgentCard {
        supported_interfaces: vec![AgentInterface::new(
            format!("{}/jsonrpc", agent.base_url()),
            "JSONRPC",
            "0.1.0",
        )],
        ..Default::default()
    };
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("a v0.1 client");
    assert_eq!(client.protocol_version(), ProtocolVersion::V0_1);

    let run = async {
        let task = match client.send_message(send("tell me a joke")).await {
            Ok(SendMessageResponse::Task(task)) => task,
            other => panic!("expected a task, got {other:?}"),
        };
        assert_eq!(task.status.state, TaskState::Completed, "{task:?}");
        assert!(!task.artifacts.is_empty(), "{task:?}");

        let events = client
            .send_streaming_message(send("stream a joke"))
            .await
            .expect("a stream")
            .collect()
            .await
            .expect("the events");
        assert!(
            matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
            "{events:?}"
        );

        let fetched = client
            .get_task(get(&task.id, Some(10)))
            .await
            .expect("the task");
        assert_eq!(fetched.history[0].text(), "tell me a joke", "{fetched:?}");

        let config = TaskPushNotificationConfig {
            task_id: Some(task.id.clone()),
            url: "https://example.com/callback".into(),
            ..Default::default()
        };
        client
            .create_task_push_notification_config(config)
            .await
            .expect("set");
        let read = client
            .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                ..Default::default()
            })
            .await
            .expect("get");
        assert_eq!(read.url, "https://example.com/callback");

        let cancel = client
            .cancel_task(CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(
            cancel.a2a_kind(),
            Some(ErrorKind::TaskNotCancelable),
            "{cancel}"
        );
        // The error comes as the stream's one event (the answer is already an event stream).
        let resubscribe = match client
            .subscribe_to_task(SubscribeToTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
        {
            Err(error) => error,
            Ok(stream) => stream
                .collect()
                .await
                .expect_err("a finished task has no stream"),
        };
        assert_eq!(
            resubscribe.a2a_kind(),
            Some(ErrorKind::UnsupportedOperation),
            "{resubscribe}"
        );
        let missing = client
            .get_task(get("no-such-task", None))
            .await
            .unwrap_err();
        assert_eq!(
            missing.a2a_kind(),
            Some(ErrorKind::TaskNotFound),
            "{missing}"
        );

        // The same task, read by a v1 client.
        let v1 = A2aClient::connect(
            &agent.base_url(),
            ClientConfig::default()
                .only(Binding::JsonRpc)
                .only_version(ProtocolVersion::V1_0),
        )
        .await
        .expect("a v1 client");
        let seen = v1
            .get_task(get(&task.id, Some(10)))
            .await
            .expect("read by v1");
        assert_eq!(
            (seen.context_id, seen.history[0].text()),
            (task.context_id, "tell me a joke".to_owned())
        );
    };
    tokio::time::timeout(RUN_LIMIT, run)
        .await
        .expect("the run ends in time");
    agent.shutdown().await;
}
