//! `a2a-example-agent --demo`, the workspace's main job: starts the example agent on free loopback
//! ports, drives it with the workspace's client (`a2a_client`) over each binding (JSON-RPC,
//! HTTP+JSON, gRPC) — a task, a stream, an error — prints every exchange (what was sent, what came
//! back, as A2A v1 JSON), checks each answer, and shuts the agent down.
//!
//! [`run`] returns `Err` naming the first answer that was not what the agent's behaviour table says,
//! so the binary exits non-zero; the whole demo is bounded by [`DEMO_LIMIT`].

use std::fmt::Write as _;
use std::io::Write;
use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_protocol::errors::ErrorKind;
use a2a_testkit::stores::{self, StoreChoice};
use a2a_types::v1::{
    GetTaskRequest, ListTasksRequest, Message, Part, SendMessageRequest, SendMessageResponse,
    StreamResponse, TaskState,
};
use serde::Serialize;

use crate::server::{self, Config};

/// The longest the whole demo may take.
pub const DEMO_LIMIT: Duration = Duration::from_secs(60);

/// What the demo writes to: the exchange goes to `out` as it happens.
struct Transcript<'a> {
    out: &'a mut dyn Write,
}

impl Transcript<'_> {
    fn line(&mut self, text: impl AsRef<str>) {
        // A closed stdout (`--demo | head`) must not turn into a failure of the demo itself.
        let _ = writeln!(self.out, "{}", text.as_ref());
    }

    fn sent(&mut self, operation: &str, value: &impl Serialize) {
        self.line(format!("  → {operation} {}", json(value)));
    }

    fn received(&mut self, what: &str, value: &impl Serialize) {
        self.line(format!("  ← {what} {}", json(value)));
    }
}

/// Compact A2A v1 JSON of `value` (the typed value the client sent or read, whatever the binding
/// carried on the wire).
fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("<not serialisable: {e}>"))
}

/// Runs the demo, writing the exchange to `out`; `Err` says what went wrong.
pub async fn run(out: &mut dyn Write) -> Result<(), String> {
    let mut transcript = Transcript { out };
    // On the embedded store, so that the last part can show the tasks surviving a restart.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let file = format!("demo-{}-{nanos}.sqlite3", std::process::id());
    let store = std::env::temp_dir().join("a2a-example-agent").join(file);
    let config = Config {
        store: StoreChoice::Sqlite(store.clone()),
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config.clone())
        .await
        .map_err(|e| format!("starting the agent: {e}"))?;
    transcript.line(format!(
        "example agent serving on {} (card at {}{}), gRPC on {}",
        agent.base_url(),
        agent.base_url(),
        a2a_protocol::service::WELL_KNOWN_AGENT_CARD_PATH,
        agent.grpc_addr()
    ));
    let outcome = tokio::time::timeout(DEMO_LIMIT, drive(&agent.base_url(), &mut transcript))
        .await
        .unwrap_or_else(|_| Err(format!("the demo took over {} s", DEMO_LIMIT.as_secs())));
    agent.shutdown().await;
    let outcome = match outcome {
        Ok(()) => show_restart(&config, &mut transcript).await,
        failed => failed,
    };
    stores::remove_sqlite(&store);
    match &outcome {
        Ok(()) => transcript.line(
            "\nevery binding answered as expected (a task, a stream, an error), the tasks outlived a restart; agent shut down",
        ),
        Err(problem) => transcript.line(format!("\nFAILED: {problem}")),
    }
    outcome
}

async fn drive(base_url: &str, transcript: &mut Transcript<'_>) -> Result<(), String> {
    for binding in Binding::ALL {
        let client = A2aClient::connect(base_url, ClientConfig::default().only(binding))
            .await
            .map_err(|e| format!("connecting over {binding}: {e}"))?;
        transcript.line(format!("\n── {binding} at {} ──", client.interface().url));
        task(&client, transcript).await?;
        stream(&client, transcript).await?;
        error(&client, transcript).await?;
    }
    Ok(())
}

fn message_id(binding: Binding, what: &str) -> String {
    format!(
        "{what}-demo-{}",
        binding.protocol_binding().to_ascii_lowercase()
    )
}

/// A travel request (no behaviour prefix): the skills answer with a completed task.
async fn task(client: &A2aClient, transcript: &mut Transcript<'_>) -> Result<(), String> {
    let binding = client.binding();
    transcript.line("task: SendMessage, answered by the travel skills");
    let request = SendMessageRequest {
        message: Message::user(
            message_id(binding, "travel"),
            [Part::text("Find a hotel in Lisbon for 3 nights")],
        ),
        ..Default::default()
    };
    transcript.sent("SendMessage", &request);
    let response = client
        .send_message(request)
        .await
        .map_err(|e| format!("{binding} SendMessage: {e}"))?;
    transcript.received("SendMessage", &response);
    let SendMessageResponse::Task(task) = response else {
        return Err(format!("{binding} SendMessage: expected a task"));
    };
    if task.status.state != TaskState::Completed {
        return Err(format!(
            "{binding} SendMessage: task {} is {:?}, expected completed",
            task.id, task.status.state
        ));
    }
    // The task is in the store every binding shares: read it back.
    let get = GetTaskRequest {
        id: task.id.clone(),
        history_length: Some(1),
        ..Default::default()
    };
    transcript.sent("GetTask", &get);
    let read = client
        .get_task(get)
        .await
        .map_err(|e| format!("{binding} GetTask: {e}"))?;
    transcript.received("GetTask", &read);
    if read.id != task.id || read.status.state != TaskState::Completed {
        return Err(format!(
            "{binding} GetTask {}: read back {} in {:?}",
            task.id, read.id, read.status.state
        ));
    }
    Ok(())
}

/// `tck-stream-001`: working, one text artifact, completed.
async fn stream(client: &A2aClient, transcript: &mut Transcript<'_>) -> Result<(), String> {
    let binding = client.binding();
    transcript.line("stream: SendStreamingMessage, tck-stream-001");
    let request = SendMessageRequest {
        message: Message::user(
            message_id(binding, "tck-stream-001"),
            [Part::text("stream, please")],
        ),
        ..Default::default()
    };
    transcript.sent("SendStreamingMessage", &request);
    let mut events = client
        .send_streaming_message(request)
        .await
        .map_err(|e| format!("{binding} SendStreamingMessage: {e}"))?;
    let mut seen = String::new();
    let mut last_state = None;
    while let Some(event) = events.next().await {
        let event = event.map_err(|e| format!("{binding} stream: {e}"))?;
        transcript.received("event", &event);
        match &event {
            StreamResponse::Task(task) => last_state = Some(task.status.state),
            StreamResponse::StatusUpdate(update) => last_state = Some(update.status.state),
            StreamResponse::ArtifactUpdate(update) => {
                for text in update.artifact.parts.iter().filter_map(Part::as_text) {
                    let _ = write!(seen, "{text}");
                }
            }
            _ => {}
        }
    }
    if last_state != Some(TaskState::Completed) || seen != "Stream hello from TCK" {
        return Err(format!(
            "{binding} stream: ended in {last_state:?} with artifact text {seen:?}, expected \
             completed with \"Stream hello from TCK\""
        ));
    }
    Ok(())
}

/// GetTask of a task that does not exist: the typed `TaskNotFound`, whatever the binding.
async fn error(client: &A2aClient, transcript: &mut Transcript<'_>) -> Result<(), String> {
    let binding = client.binding();
    transcript.line("error: GetTask of an unknown task");
    let request = GetTaskRequest {
        id: "no-such-task".into(),
        ..Default::default()
    };
    transcript.sent("GetTask", &request);
    match client.get_task(request).await {
        Err(error) if error.a2a_kind() == Some(ErrorKind::TaskNotFound) => {
            transcript.line(format!("  ← error {error}"));
            Ok(())
        }
        Err(error) => Err(format!(
            "{binding} GetTask of an unknown task: expected TaskNotFound, got {error}"
        )),
        Ok(task) => Err(format!(
            "{binding} GetTask of an unknown task answered a task: {}",
            json(&task)
        )),
    }
}

/// The last part: an agent started anew on the store of `config` (the first one has shut down)
/// still has every task, read back over JSON-RPC.
async fn show_restart(config: &Config, transcript: &mut Transcript<'_>) -> Result<(), String> {
    let agent = server::start_on_free_ports(config.clone())
        .await
        .map_err(|e| format!("restarting the agent: {e}"))?;
    let outcome = async {
        let client = A2aClient::connect(&agent.base_url(), ClientConfig::default())
            .await
            .map_err(|e| format!("connecting to the restarted agent: {e}"))?;
        let listed = client
            .list_tasks(ListTasksRequest::default())
            .await
            .map_err(|e| format!("ListTasks after the restart: {e}"))?;
        let oldest = listed.tasks.last().ok_or("no task survived the restart")?;
        let get = GetTaskRequest {
            id: oldest.id.clone(),
            ..Default::default()
        };
        let again = client
            .get_task(get)
            .await
            .map_err(|e| format!("GetTask after the restart: {e}"))?;
        // ListTasks leaves out history and artifacts by default: the status is compared.
        if again.status != oldest.status || again.artifacts.is_empty() {
            return Err(format!("task {} changed across the restart", oldest.id));
        }
        transcript.line(format!(
            "\n── restarted on the same store ({}) ──\n  ← ListTasks: {} tasks still there\n  ← GetTask {}: {}",
            config.store,
            listed.total_size,
            again.id,
            json(&again.status)
        ));
        Ok(())
    }
    .await;
    agent.shutdown().await;
    outcome
}
