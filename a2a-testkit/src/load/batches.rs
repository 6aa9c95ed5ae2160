//! One short batch of calls over one client, [`CONCURRENCY`] in flight: `SendMessage`
//! (`tck-complete-task`, which must answer a completed task) or a streamed task
//! (`SendStreamingMessage` with `tck-stream-001`, which must end completed with its text artifact).
//! Each call's latency is kept (the whole call; for a stream, until its last event), and so is the id
//! of every task made, for the read-back that counts lost tasks ([`read_back`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, StreamResponse,
    TaskState,
};

use a2a_client::A2aClient;

/// Calls in flight at once within a batch.
pub const CONCURRENCY: usize = 32;

/// The two operations measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `SendMessage`, answered with a completed task.
    SendMessage,
    /// `SendStreamingMessage`, read to its last event.
    StreamedTask,
}

impl Op {
    pub const ALL: [Op; 2] = [Op::SendMessage, Op::StreamedTask];

    pub fn label(self) -> &'static str {
        match self {
            Op::SendMessage => "SendMessage",
            Op::StreamedTask => "streamed task",
        }
    }
}

/// What one batch measured.
#[derive(Debug, Default)]
pub struct Batch {
    pub calls: usize,
    pub elapsed: Duration,
    /// Latency of each call that succeeded.
    pub latencies: Vec<Duration>,
    pub errors: usize,
    pub first_errors: Vec<String>,
    /// The tasks the calls made.
    pub tasks: Vec<String>,
}

impl Batch {
    /// Calls per second over the batch.
    pub fn rps(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Unique per process, call and binding, with the behaviour's prefix first.
fn message_id(prefix: &str, client: &A2aClient, sequence: usize) -> String {
    format!(
        "{prefix}-load-{}-{sequence}-{}",
        client.binding().protocol_binding().to_ascii_lowercase(),
        std::process::id()
    )
}

/// One call of `op`; the task id it made, or what went wrong.
pub(super) async fn one_call(
    client: &A2aClient,
    op: Op,
    sequence: usize,
) -> Result<String, String> {
    let binding = client.binding();
    let (prefix, text) = match op {
        Op::SendMessage => ("tck-complete-task", "hello"),
        Op::StreamedTask => ("tck-stream-001", "stream"),
    };
    let request = SendMessageRequest {
        message: Message::user(message_id(prefix, client, sequence), [Part::text(text)]),
        ..Default::default()
    };
    if op == Op::SendMessage {
        return match client.send_message(request).await {
            Ok(SendMessageResponse::Task(task)) if task.status.state == TaskState::Completed => {
                Ok(task.id)
            }
            Ok(SendMessageResponse::Task(task)) => Err(format!(
                "{binding}: task {} is {:?}, expected completed",
                task.id, task.status.state
            )),
            Ok(_) => Err(format!("{binding}: expected a task")),
            Err(error) => Err(format!("{binding} SendMessage: {error}")),
        };
    }
    let events = client
        .send_streaming_message(request)
        .await
        .map_err(|e| format!("{binding} SendStreamingMessage: {e}"))?
        .collect()
        .await
        .map_err(|e| format!("{binding} stream: {e}"))?;
    let (mut task_id, mut last_state, mut text) = (None, None, String::new());
    for event in &events {
        match event {
            StreamResponse::Task(task) => {
                task_id = Some(task.id.clone());
                last_state = Some(task.status.state);
            }
            StreamResponse::StatusUpdate(update) => {
                task_id = Some(update.task_id.clone());
                last_state = Some(update.status.state);
            }
            StreamResponse::ArtifactUpdate(update) => text.push_str(&update.artifact.text()),
            _ => {}
        }
    }
    match task_id {
        Some(id) if last_state == Some(TaskState::Completed) && text == "Stream hello from TCK" => {
            Ok(id)
        }
        _ => Err(format!(
            "{binding} stream: {} events ending in {last_state:?}, artifact text {text:?}",
            events.len()
        )),
    }
}

/// `calls` calls of `op` over `client`, [`CONCURRENCY`] in flight; `first_sequence` numbers
/// the first one (message ids stay unique across batches).
pub async fn run(client: &A2aClient, op: Op, calls: usize, first_sequence: usize) -> Batch {
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Batch::default()));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY.min(calls) {
        let (client, next, results) = (client.clone(), next.clone(), results.clone());
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= calls {
                    break;
                }
                let call_started = Instant::now();
                let outcome = one_call(&client, op, first_sequence + index).await;
                let latency = call_started.elapsed();
                let mut batch = results.lock().unwrap_or_else(|e| e.into_inner());
                match outcome {
                    Ok(task) => {
                        batch.latencies.push(latency);
                        batch.tasks.push(task);
                    }
                    Err(problem) => {
                        batch.errors += 1;
                        if batch.first_errors.len() < 3 {
                            batch.first_errors.push(problem);
                        }
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    let elapsed = started.elapsed();
    let mut batch = std::mem::take(&mut *results.lock().unwrap_or_else(|e| e.into_inner()));
    batch.calls = calls;
    batch.elapsed = elapsed;
    batch
}

/// Every task in `tasks` read back with `GetTask`, rotating over `clients` (so most are read over
/// a binding other than the one that made them): those not found, or not completed, are lost.
/// Returns how many were lost and the first few of them.
pub async fn read_back(clients: &[A2aClient], tasks: Vec<String>) -> (usize, Vec<String>) {
    let tasks = Arc::new(tasks);
    let next = Arc::new(AtomicUsize::new(0));
    let lost = Arc::new(Mutex::new((0usize, Vec::new())));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (clients, tasks, next, lost) =
            (clients.to_vec(), tasks.clone(), next.clone(), lost.clone());
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(id) = tasks.get(index) else { break };
                let client = &clients[(index + 1) % clients.len()];
                let request = GetTaskRequest {
                    id: id.clone(),
                    ..Default::default()
                };
                let problem = match client.get_task(request).await {
                    Ok(task) if task.id == *id && task.status.state == TaskState::Completed => {
                        continue;
                    }
                    Ok(task) => format!(
                        "task {id} read back over {} as {} in {:?}",
                        client.binding(),
                        task.id,
                        task.status.state
                    ),
                    Err(error) => format!("task {id}: {error}"),
                };
                let mut lost = lost.lock().unwrap_or_else(|e| e.into_inner());
                lost.0 += 1;
                if lost.1.len() < 3 {
                    lost.1.push(problem);
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    std::mem::take(&mut *lost.lock().unwrap_or_else(|e| e.into_inner()))
}
