//! The client crate ([`a2a_client`]) across a restart of the example agent, on each binding: the
//! agent runs on a SQLite file on fixed loopback ports, a stream follows a task that stays working
//! for a while (`test-resubscribe-message-id`), the agent is killed (`kill -9`, by its pid) while
//! the task works and started again on the same file and ports.
//!
//! What is true of the code: the client notices the cut and resubscribes to the restarted agent,
//! which takes the subscription but does not continue the task (executions are not resumed after a
//! restart: the task stays at its last committed state). The client reports that, within its
//! stream timeouts, as [`ClientError::NotResumable`] naming the task, its cause the broken
//! connection; every event it delivered is the agent's committed history (the last status it
//! streamed is exactly the stored task's), and a new subscription on the restarted agent returns
//! the stored task. Each agent process is killed by its id when the test ends, however it ends.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_example_agent::process::Server;
use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
    TaskState, TaskStatus,
};

/// The stream's idle timeout: longer than the task's working pause (3 s, the agent's default
/// `resubscribe_delay`), so a task the agent went on with would complete within it.
const IDLE: Duration = Duration::from_secs(5);

/// Leeway for the restart, the resubscription and a busy machine.
const SLACK: Duration = Duration::from_secs(20);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{}-{nanos}", std::process::id())
}

/// A loopback port free now (the agent binds it right after).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Starts the agent on `store`, HTTP on `http` and gRPC on `grpc`; returns the process and its URL.
fn start(store: &str, http: u16, grpc: u16) -> (Server, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"));
    command.args([
        "--listen",
        &format!("127.0.0.1:{http}"),
        "--grpc-listen",
        &format!("127.0.0.1:{grpc}"),
        "--store",
        store,
    ]);
    let (server, line) = Server::start(command, "the example agent").expect("the agent starts");
    let url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line is {line:?}"))
        .to_owned();
    assert_eq!(url, format!("http://127.0.0.1:{http}"));
    assert!(
        line.contains(&format!("gRPC on 127.0.0.1:{grpc}")),
        "{line}"
    );
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

/// The SQLite file and its companions, removed when the test ends.
struct TempDatabase(PathBuf);

impl Drop for TempDatabase {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut name = self.0.as_os_str().to_owned();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

async fn stream_across_a_restart(binding: Binding) {
    let database = TempDatabase(
        std::env::temp_dir().join(format!("{}.sqlite3", unique("a2a-client-restart"))),
    );
    let store = format!("sqlite:{}", database.0.display());
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

    // Only now does the client read on: it finds the connection cut and resubscribes.
    let reading = Instant::now();
    let mut after = Vec::new();
    let failure = tokio::time::timeout(IDLE + SLACK, async {
        loop {
            match stream.next().await {
                Some(Ok(event)) => after.push(event),
                Some(Err(failure)) => return failure,
                None => panic!("the stream ended without its task's end: {after:?}"),
            }
        }
    })
    .await
    .expect("the client reports within its stream timeouts");
    let took = reading.elapsed();
    eprintln!("{failure} (after {took:?})");
    let ClientError::NotResumable {
        binding: reported,
        reason,
        cause,
    } = &failure
    else {
        panic!("{binding}: NotResumable was expected: {failure}")
    };
    assert_eq!(*reported, binding);
    assert!(
        reason.contains(&format!("task {task_id} did not go on")),
        "{failure}"
    );
    assert!(
        matches!(**cause, ClientError::Transport { .. }),
        "the cause is the cut connection: {failure}"
    );
    assert!(
        took >= IDLE,
        "the resumed stream was given its idle timeout"
    );
    assert!(stream.next().await.is_none(), "the error ends the stream");

    // No event lost or duplicated: the last status streamed is the stored one, exactly.
    let stored = client
        .get_task(GetTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        })
        .await
        .expect("the restarted agent has the task");
    assert_eq!(
        stored.status.state,
        TaskState::Working,
        "the last committed state"
    );
    assert_eq!(
        before.last().and_then(status_of),
        Some(&stored.status),
        "the last status streamed before the cut is the stored one"
    );
    match binding {
        // The HTTP bindings resubscribe after the last event's id: nothing came after it.
        Binding::JsonRpc | Binding::HttpJson => assert!(after.is_empty(), "{after:?}"),
        // gRPC has no event ids: the resubscription starts from the task as stored.
        Binding::Grpc => match &after[..] {
            [StreamResponse::Task(task)] => assert_eq!(task, &stored),
            other => panic!("the stored task alone was expected: {other:?}"),
        },
    }

    // A new subscription on the restarted agent starts from the stored task.
    let mut again = client
        .subscribe_to_task(SubscribeToTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        })
        .await
        .expect("the restarted agent takes the subscription");
    match again
        .next()
        .await
        .expect("a first event")
        .expect("no error")
    {
        StreamResponse::Task(task) => assert_eq!(task, stored),
        other => panic!("the task first: {other:?}"),
    }
    drop(again);
    drop(restarted); // SIGKILL, by the child's id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jsonrpc_stream_across_an_agent_restart_is_reported_not_resumable() {
    stream_across_a_restart(Binding::JsonRpc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_json_stream_across_an_agent_restart_is_reported_not_resumable() {
    stream_across_a_restart(Binding::HttpJson).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grpc_stream_across_an_agent_restart_is_reported_not_resumable() {
    stream_across_a_restart(Binding::Grpc).await;
}
