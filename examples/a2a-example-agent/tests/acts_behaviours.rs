//! The two behaviours of the draft conformance format ACTS (upstream A2A PR #1882, §11.2) that take
//! more than one exchange, driven against the example agent over each of the three bindings, the
//! way ACTS's own tests drive them (`multi-turn.acts.yaml`, `polling.acts.yaml`):
//!
//! - `tck-multi-turn`: the task stays `INPUT_REQUIRED` turn after turn (with the `contextId` sent or
//!   left out) until a message whose text is `done` completes it; the conformance kit's
//!   `messageId` convention starts the same conversation;
//! - `tck-long-running`: sent with `returnImmediately`, the task is first submitted or working,
//!   polling sees it working, and it completes after its delay with at least one artifact.
//!
//! The agent runs in process on free 127.0.0.1 ports with a short long-running delay, and every
//! exchange is bounded in time.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_example_agent::server::{self, Config};
use a2a_server::Serving;
use a2a_testkit::behaviour::table::LONG_RUNNING_OUTPUT;
use a2a_testkit::stores::StoreChoice;
use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, Task, TaskState,
};
use common::unique as message_id;

mod common;

/// The most one exchange with the agent may take.
const EXCHANGE_LIMIT: Duration = Duration::from_secs(20);
/// How long a `tck-long-running` task works in these tests.
const LONG_RUNNING_DELAY: Duration = Duration::from_millis(600);
/// The pause between two polls of a long-running task.
const POLL_PAUSE: Duration = Duration::from_millis(50);

async fn agent() -> Serving {
    let config = Config {
        long_running_delay: LONG_RUNNING_DELAY,
        store: StoreChoice::Memory,
        ..Config::default()
    };
    server::start_on_free_ports(config)
        .await
        .expect("the agent starts on free loopback ports")
}

async fn connect(agent: &Serving, binding: Binding) -> A2aClient {
    A2aClient::connect(&agent.base_url(), ClientConfig::default().only(binding))
        .await
        .unwrap_or_else(|e| panic!("connecting over {binding}: {e}"))
}

/// Sends `message` and returns the task the agent answers with.
async fn send(client: &A2aClient, message: Message, return_immediately: bool) -> Task {
    let request = SendMessageRequest {
        message,
        configuration: return_immediately.then(|| SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    };
    let answer = tokio::time::timeout(EXCHANGE_LIMIT, client.send_message(request))
        .await
        .expect("the agent answers in time");
    match answer {
        Ok(SendMessageResponse::Task(task)) => task,
        other => panic!("over {}: a task was expected: {other:?}", client.binding()),
    }
}

/// ACTS CORE-MULTI-001 and CORE-MULTI-005 on one binding, the conversation started by `first`.
async fn multi_turn(client: &A2aClient, first: Message) {
    let binding = client.binding();
    let started = send(client, first, false).await;
    assert_eq!(
        started.status.state,
        TaskState::InputRequired,
        "{binding}: the first turn"
    );
    assert!(
        started.context_id.is_some(),
        "{binding}: the task has a context"
    );
    let turn = |text: &str, with_context: bool| {
        let message = Message::user(message_id("turn"), [Part::text(text)]).task_id(&started.id);
        match &started.context_id {
            Some(context_id) if with_context => message.context_id(context_id),
            _ => message,
        }
    };
    for (text, with_context) in [
        ("here is more input", true),
        ("and some more, without the contextId", false),
        ("not done yet", true),
    ] {
        let task = send(client, turn(text, with_context), false).await;
        assert_eq!(task.id, started.id, "{binding}: {text:?} stays on the task");
        assert_eq!(task.context_id, started.context_id, "{binding}: {text:?}");
        assert_eq!(
            task.status.state,
            TaskState::InputRequired,
            "{binding}: {text:?} asks for one more turn"
        );
    }
    let finished = send(client, turn("done", false), false).await;
    assert_eq!(finished.id, started.id);
    assert_eq!(finished.context_id, started.context_id);
    assert_eq!(
        finished.status.state,
        TaskState::Completed,
        "{binding}: \"done\" completes the conversation"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_turn_task_asks_for_input_until_done_over_every_binding() {
    let agent = agent().await;
    for binding in Binding::ALL {
        let client = connect(&agent, binding).await;
        // ACTS names the behaviour in the first text part, the conformance kit in the messageId.
        let by_text = Message::user(
            message_id("acts"),
            [Part::text("tck-multi-turn start conversation")],
        );
        multi_turn(&client, by_text).await;
        let by_message_id = Message::user(message_id("tck-multi-turn"), [Part::text("Hello")]);
        multi_turn(&client, by_message_id).await;
    }
    agent.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_required_task_still_completes_at_the_next_message_over_every_binding() {
    let agent = agent().await;
    for binding in Binding::ALL {
        let client = connect(&agent, binding).await;
        let first = Message::user(message_id("tck-input-required"), [Part::text("Hello")]);
        let started = send(&client, first, false).await;
        assert_eq!(started.status.state, TaskState::InputRequired, "{binding}");
        // The kit's convention for one more turn: a follow-up naming `tck-input-required`.
        let again = Message::user(message_id("tck-input-required"), [Part::text("more")])
            .task_id(&started.id);
        let task = send(&client, again, false).await;
        assert_eq!(task.status.state, TaskState::InputRequired, "{binding}");
        let follow_up = Message::user(message_id("turn"), [Part::text("here is more input")])
            .task_id(&started.id);
        let task = send(&client, follow_up, false).await;
        assert_eq!(task.id, started.id);
        assert_eq!(task.status.state, TaskState::Completed, "{binding}");
    }
    agent.shutdown().await;
}

/// ACTS CORE-EXEC-001 and CORE-EXEC-002 on one binding: returned at once, seen working, completed
/// with at least one artifact.
async fn long_running(client: &A2aClient, first: Message) {
    let binding = client.binding();
    let started = send(client, first, true).await;
    assert!(
        matches!(
            started.status.state,
            TaskState::Submitted | TaskState::Working
        ),
        "{binding}: returned at once, got {:?}",
        started.status.state
    );
    let mut seen = vec![started.status.state];
    let task = tokio::time::timeout(EXCHANGE_LIMIT, async {
        loop {
            let request = GetTaskRequest {
                id: started.id.clone(),
                ..Default::default()
            };
            let task = client.get_task(request).await.expect("GetTask answers");
            if seen.last() != Some(&task.status.state) {
                seen.push(task.status.state);
            }
            if task.status.state.is_terminal() {
                return task;
            }
            tokio::time::sleep(POLL_PAUSE).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{binding}: the task ends in time, seen {seen:?}"));
    assert_eq!(task.status.state, TaskState::Completed, "{binding}");
    assert!(
        seen.contains(&TaskState::Working),
        "{binding}: polling sees it working: {seen:?}"
    );
    assert!(
        !task.artifacts.is_empty(),
        "{binding}: the completed task holds an artifact"
    );
    assert_eq!(task.artifacts[0].text(), LONG_RUNNING_OUTPUT, "{binding}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_running_task_completes_after_its_delay_with_an_artifact_over_every_binding() {
    let agent = agent().await;
    for binding in Binding::ALL {
        let client = connect(&agent, binding).await;
        let by_text = Message::user(
            message_id("acts"),
            [Part::text("tck-long-running start process")],
        );
        long_running(&client, by_text).await;
        let by_message_id = Message::user(message_id("tck-long-running"), [Part::text("Hello")]);
        long_running(&client, by_message_id).await;
    }
    agent.shutdown().await;
}
