//! The agent killed (`kill -9`) mid-stream and restarted on the same store, on SQLite and on
//! PostgreSQL (skipped with one line without `A2A_TEST_POSTGRES_URL`; failing under `CI=true`):
//! every task and every committed event is still there, a task waiting for input goes on, and
//! a resubscription to the task whose stream was cut starts from the state the stream last sent.
//! Each agent process is killed by its id when the test ends, however it ends.

use std::process::Command;
use std::time::Duration;

use a2a_example_agent::client::{A2aClient, ClientConfig};
use a2a_example_agent::process::Server;
use a2a_types::v1::{
    GetTaskRequest, ListTasksRequest, Message, Part, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskState,
};
use sqlx::Connection;

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{}-{nanos}", std::process::id())
}

/// Starts the agent on `store`; returns the process and its URL.
fn start(store: &str) -> (Server, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"));
    command.args(["--listen", "127.0.0.1:0", "--store", store]);
    let (server, line) = Server::start(command, "the example agent").expect("the agent starts");
    let url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line is {line:?}"))
        .to_owned();
    (server, url)
}

fn message(id: String, task_id: Option<String>) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            task_id,
            ..Message::user(id, [Part::text("Find a hotel in Lisbon")])
        },
        ..Default::default()
    }
}

async fn send(client: &A2aClient, id: String, task_id: Option<String>) -> Task {
    match client.send_message(message(id, task_id)).await {
        Ok(SendMessageResponse::Task(task)) => task,
        other => panic!("a task was expected: {other:?}"),
    }
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

async fn crash_and_restart(store: &str) {
    let within = Duration::from_secs(120);
    tokio::time::timeout(within, async {
        let (agent, url) = start(store);
        let client = A2aClient::connect(&url, ClientConfig::default())
            .await
            .unwrap();
        let mut completed = Vec::new();
        for _ in 0..20 {
            completed.push(send(&client, unique("tck-complete-task"), None).await);
        }
        let waiting = send(&client, unique("tck-input-required"), None).await;
        assert_eq!(waiting.status.state, TaskState::InputRequired);
        // A stream cut by the crash: the task is working when the agent dies.
        let mut cut = client
            .send_streaming_message(message(unique("test-resubscribe-message-id"), None))
            .await
            .unwrap();
        let mut cut_task = String::new();
        let mut last_state = TaskState::Unspecified;
        while last_state != TaskState::Working {
            match cut.next().await.expect("an event").unwrap() {
                StreamResponse::Task(task) => {
                    cut_task = task.id;
                    last_state = task.status.state;
                }
                StreamResponse::StatusUpdate(update) => {
                    cut_task = update.task_id;
                    last_state = update.status.state;
                }
                _ => {}
            }
        }
        let pid = agent.pid();
        drop(agent); // SIGKILL, by the child's id
        eprintln!(
            "killed the agent (pid {pid}) mid-stream on {}",
            store.split(':').next().unwrap()
        );
        assert!(
            cut.next().await.is_none_or(|e| e.is_err()),
            "the stream ends with the agent"
        );

        let (_agent, url) = start(store);
        let client = A2aClient::connect(&url, ClientConfig::default())
            .await
            .unwrap();
        for task in &completed {
            let again = client.get_task(get(&task.id)).await.unwrap();
            assert_eq!(again.status.state, TaskState::Completed);
            assert_eq!(
                again.artifacts, task.artifacts,
                "the task as it was committed"
            );
        }
        let listed = client
            .list_tasks(ListTasksRequest::default())
            .await
            .unwrap();
        assert_eq!(
            listed.total_size, 22,
            "every task is listed after the restart"
        );
        let on = send(&client, unique("tck-continue"), Some(waiting.id.clone())).await;
        assert_eq!(on.id, waiting.id);
        assert_eq!(
            on.status.state,
            TaskState::Completed,
            "the waiting task goes on"
        );
        let stopped = client.get_task(get(&cut_task)).await.unwrap();
        assert_eq!(stopped.status.state, last_state, "the last committed state");
        let mut resumed = client
            .subscribe_to_task(SubscribeToTaskRequest {
                id: cut_task.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        match resumed.next().await.expect("a first event").unwrap() {
            StreamResponse::Task(task) => assert_eq!(task.status.state, last_state),
            other => panic!("the task first: {other:?}"),
        }
    })
    .await
    .expect("the crash test ends in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_agent_on_sqlite_restarts_with_every_task() {
    let path = std::env::temp_dir().join(format!("{}.sqlite3", unique("a2a-crash")));
    crash_and_restart(&format!("sqlite:{}", path.display())).await;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_agent_on_postgres_restarts_with_every_task() {
    let url = match std::env::var("A2A_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("A2A_TEST_POSTGRES_URL is not set, and CI=true needs the PostgreSQL tests run")
        }
        _ => {
            eprintln!(
                "skipped a_killed_agent_on_postgres_restarts_with_every_task: set A2A_TEST_POSTGRES_URL to run it"
            );
            return;
        }
    };
    // A database of its own, so the count of tasks is this test's.
    let database = unique("crash").replace('-', "_");
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("the test PostgreSQL answers");
    sqlx::query(&format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let (base, _) = url.rsplit_once('/').expect("a URL with a database");
    crash_and_restart(&format!("{base}/{database}")).await;
}
