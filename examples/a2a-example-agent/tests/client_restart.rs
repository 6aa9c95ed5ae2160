//! The client crate ([`a2a_client`]) across a restart of the example agent, on each binding: the
//! agent runs on a SQLite file on fixed loopback ports, a stream follows a task that stays working
//! for a while (`test-resubscribe-message-id`), the agent is killed (`kill -9`, by its pid) while
//! the task works and started again on the same file and ports.
//!
//! The client notices the cut and resubscribes to the restarted agent, which resumes the task's
//! execution (the store's execution queue: on SQLite at once, the restarted agent owning the
//! file): the stream goes on to the task's terminal state, with no event lost or repeated (on the
//! HTTP bindings, after the last event id the client saw, exactly the one event the task had left;
//! on gRPC, which has no event ids, the task as stored, then what followed), and the stored task
//! ends as the stream did. Each agent process is killed by its id when the test ends, however it
//! ends.

mod common;

use std::net::TcpListener;
use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_testkit::process::Server;
use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
    TaskState, TaskStatus,
};
use common::unique;

/// The stream's idle timeout: longer than the resumed task's working pause (3 s, the agent's
/// default `resubscribe_delay`) and the restart, so the resumed task completes within it.
const IDLE: Duration = Duration::from_secs(10);

/// Leeway for the restart, the resubscription and a busy machine.
const SLACK: Duration = Duration::from_secs(20);

/// A loopback port free now (the agent binds it right after).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Starts the agent on `store`, HTTP on `http` and gRPC on `grpc`; returns the process and its URL.
fn start(store: &str, http: u16, grpc: u16) -> (Server, String) {
    let (http_at, grpc_at) = (format!("127.0.0.1:{http}"), format!("127.0.0.1:{grpc}"));
    let (server, url, line) = common::start_with(&[
        "--listen",
        &http_at,
        "--grpc-listen",
        &grpc_at,
        "--store",
        store,
    ]);
    assert_eq!(url, format!("http://{http_at}"));
    assert!(line.contains(&format!("gRPC on {grpc_at}")), "{line}");
    (server, url)
}

/// The status an event carries, if any.
fn status_of(event: &StreamResponse) -> Option<&TaskStatus> {
    match event {
        StreamResponse::Task(task) => Some(&task.status),
        StreamResponse::StatusUpdate(update) => Some(&update.status),
        _ => None,
    }
}

async fn stream_across_a_restart(binding: Binding) {
    let (path, _database) = common::sqlite_file("a2a-client-restart");
    let store = format!("sqlite:{path}");
    let (http, grpc) = (free_port(), free_port());
    let (agent, url) = start(&store, http, grpc);
    let config = ClientConfig {
        stream_idle_timeout: Some(IDLE),
        ..ClientConfig::default()
    }
    .only(binding);
    let client = A2aClient::connect(&url, config)
        .await
        .expect("the client reads the card");
    assert_eq!(client.binding(), binding);

    let request = SendMessageRequest {
        message: Message::user(
            unique("test-resubscribe-message-id"),
            [Part::text("stay working for a while")],
        ),
        ..Default::default()
    };
    let mut stream = client
        .send_streaming_message(request)
        .await
        .expect("a stream");
    let mut before = Vec::new();
    let mut task_id = String::new();
    while before
        .last()
        .and_then(status_of)
        .is_none_or(|status| status.state != TaskState::Working)
    {
        let event = stream.next().await.expect("an event").expect("no error");
        match &event {
            StreamResponse::Task(task) => task_id.clone_from(&task.id),
            StreamResponse::StatusUpdate(update) => task_id.clone_from(&update.task_id),
            _ => {}
        }
        before.push(event);
    }
    assert!(!task_id.is_empty(), "the stream named its task: {before:?}");
    let pid = agent.pid();
    drop(agent); // SIGKILL, by the child's id
    eprintln!("{binding}: killed the agent (pid {pid}) while task {task_id} was working");
    let (restarted, _) = start(&store, http, grpc);
    eprintln!(
        "{binding}: restarted it (pid {}) on the same file and ports",
        restarted.pid()
    );

    // Only now does the client read on: it finds the connection cut, resubscribes, and follows
    // the resumed task to its end.
    let reading = Instant::now();
    let mut after = Vec::new();
    tokio::time::timeout(IDLE + SLACK, async {
        while let Some(event) = stream.next().await {
            after.push(event.unwrap_or_else(|failure| {
                panic!("{binding}: the stream goes on across the restart: {failure}")
            }));
        }
    })
    .await
    .expect("the resumed task ends within the stream's timeouts");
    eprintln!(
        "{binding}: {} events after the restart, the stream ended after {:?}",
        after.len(),
        reading.elapsed()
    );

    let stored = client
        .get_task(GetTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        })
        .await
        .expect("the restarted agent has the task");
    assert_eq!(
        stored.status.state,
        TaskState::Completed,
        "the resumed task ended"
    );
    assert_eq!(
        after.last().and_then(status_of),
        Some(&stored.status),
        "the stream's last status is the stored one"
    );
    let completed = |event: &StreamResponse| matches!(event, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed);
    match binding {
        // After the last event id the client saw: the one event the task had left, once.
        Binding::JsonRpc | Binding::HttpJson => {
            assert!(
                matches!(&after[..], [only] if completed(only)),
                "exactly the completion: {after:?}"
            )
        }
        // No event ids: the task as stored when resubscribing, then what followed (nothing, if
        // it had completed by then).
        Binding::Grpc => match &after[..] {
            [StreamResponse::Task(task), last] if completed(last) => {
                assert_eq!(task.status.state, TaskState::Working, "{after:?}");
                assert_eq!(Some(&task.status), before.last().and_then(status_of));
            }
            [StreamResponse::Task(task)] => assert_eq!(task, &stored),
            other => panic!("the stored task, then its completion, was expected: {other:?}"),
        },
    }
    let working = before
        .iter()
        .chain(&after)
        .filter(|event| matches!(event, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Working))
        .count();
    assert_eq!(
        working, 1,
        "the resumed task did not repeat its start: {before:?} {after:?}"
    );

    // The task is over: a new subscription has nothing to follow, and says so.
    let refused = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        })
        .await;
    assert!(refused.is_err(), "a completed task takes no subscription");
    drop(restarted); // SIGKILL, by the child's id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jsonrpc_stream_across_an_agent_restart_reaches_the_end_of_the_task() {
    stream_across_a_restart(Binding::JsonRpc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_json_stream_across_an_agent_restart_reaches_the_end_of_the_task() {
    stream_across_a_restart(Binding::HttpJson).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grpc_stream_across_an_agent_restart_reaches_the_end_of_the_task() {
    stream_across_a_restart(Binding::Grpc).await;
}
