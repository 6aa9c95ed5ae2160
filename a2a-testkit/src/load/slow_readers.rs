//! Many concurrent streams with slow readers, against one server at a time on a fresh process (so
//! its peak resident set, `VmHWM`, is the round's own).
//!
//! Each stream asks for `load-progress`: working, [`PROGRESS_UPDATES`] versions of one text
//! artifact ([`PROGRESS_TEXT_BYTES`] each), completed; the streams are spread over the server's
//! bindings. Two rounds, side by side:
//!
//! - **prompt readers** read every event as it comes;
//! - **stalled readers** read the first event, then stop reading for a while (the agent meanwhile
//!   produces the rest: the backlog), ask `GetTask` whether the task is already done, then read
//!   everything that waited.
//!
//! Every stream must deliver every update in order (an update folded into the first event's task
//! counts as delivered) and end completed, and the task must read back completed with the last
//! update: anything else is an error or a lost task. The backlog is the artifact text the stalled
//! readers read after their stall; a server that held each reader's backlog in its own memory would
//! grow by at least that much more than with prompt readers.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, StreamResponse, Task, TaskState,
};

use super::targets::{self, Kind};
use crate::behaviour::table::{PROGRESS_TEXT_BYTES, PROGRESS_UPDATES, progress_text};
use a2a_client::{A2aClient, ClientConfig};

/// What one round measured.
#[derive(Debug, Default)]
pub struct Round {
    pub streams: usize,
    pub stalled: bool,
    /// Streams that delivered every update in order and ended completed.
    pub complete: usize,
    pub errors: usize,
    /// Tasks that did not read back completed with the last update.
    pub lost: usize,
    pub first_problems: Vec<String>,
    /// Stalled readers whose task was already completed when they resumed reading.
    pub done_at_resume: usize,
    /// Bytes of artifact text read after the stall (0 for prompt readers).
    pub backlog_bytes: u64,
    /// The server's resident set once its clients had connected, and its peak over the round.
    pub rss_start_kib: Option<u64>,
    pub rss_peak_kib: Option<u64>,
    pub elapsed: Duration,
}

impl Round {
    /// How much the server's resident set rose over the round, in KiB.
    pub fn growth_kib(&self) -> Option<u64> {
        Some(self.rss_peak_kib?.saturating_sub(self.rss_start_kib?))
    }

    fn problem(&mut self, lost: bool, problem: String) {
        if lost {
            self.lost += 1;
        } else {
            self.errors += 1;
        }
        if self.first_problems.len() < 3 {
            self.first_problems.push(problem);
        }
    }
}

/// The index of a progress text, when it is one exactly.
fn progress_index(text: &str) -> Option<usize> {
    let index: usize = text.get(9..12)?.parse().ok()?;
    (text == progress_text(index)).then_some(index)
}

/// The progress index a task's artifact stands at (`None` before the first update).
fn task_progress(task: &Task) -> Option<usize> {
    let artifact = task
        .artifacts
        .iter()
        .find(|a| a.artifact_id == "progress")?;
    progress_index(&artifact.text())
}

/// What one reader saw.
struct Reading {
    task_id: String,
    done_at_resume: bool,
    late_bytes: u64,
}

/// One stream over `client`, read promptly or after `stall`; `probe` (a connection of its own, as
/// the stalled streams hold their HTTP/2 connection's flow-control window) asks GetTask at resume.
async fn read_one(
    client: &A2aClient,
    probe: &A2aClient,
    index: usize,
    stall: Option<Duration>,
) -> Result<Reading, String> {
    let binding = client.binding();
    let request = SendMessageRequest {
        message: Message::user(
            format!("load-progress-{index}-{}", std::process::id()),
            [Part::text("progress")],
        ),
        ..Default::default()
    };
    let mut stream = client
        .send_streaming_message(request)
        .await
        .map_err(|e| format!("{binding} SendStreamingMessage: {e}"))?;
    let (mut task_id, mut next_update, mut state) = (None::<String>, 0usize, None);
    let (mut done_at_resume, mut late_bytes, mut first) = (false, 0u64, true);
    while let Some(event) = stream.next().await {
        let event = event.map_err(|e| format!("{binding} stream: {e}"))?;
        match &event {
            StreamResponse::Task(task) => {
                task_id = Some(task.id.clone());
                state = Some(task.status.state);
                next_update = task_progress(task).map_or(0, |i| i + 1);
            }
            StreamResponse::StatusUpdate(update) => {
                task_id = Some(update.task_id.clone());
                state = Some(update.status.state);
            }
            StreamResponse::ArtifactUpdate(update) => {
                let text = update.artifact.text();
                if progress_index(&text) != Some(next_update) {
                    return Err(format!(
                        "{binding} stream: update {next_update} expected, got {:?}",
                        text.get(..12).unwrap_or(&text)
                    ));
                }
                next_update += 1;
                if !first && stall.is_some() {
                    late_bytes += text.len() as u64;
                }
            }
            _ => {}
        }
        if std::mem::take(&mut first)
            && let (Some(stall), Some(id)) = (stall, &task_id)
        {
            tokio::time::sleep(stall).await;
            let request = GetTaskRequest {
                id: id.clone(),
                ..Default::default()
            };
            let task = probe
                .get_task(request)
                .await
                .map_err(|e| format!("{binding} GetTask at resume: {e}"))?;
            done_at_resume = task.status.state == TaskState::Completed;
        }
    }
    match task_id {
        Some(task_id) if next_update == PROGRESS_UPDATES && state == Some(TaskState::Completed) => {
            Ok(Reading {
                task_id,
                done_at_resume,
                late_bytes,
            })
        }
        _ => Err(format!(
            "{binding} stream ended at update {next_update} of {PROGRESS_UPDATES} in {state:?}"
        )),
    }
}

/// One round: `streams` streams at once against a fresh server of `kind`, stalled for `stall` when
/// given, bounded by `limit` as a whole.
pub async fn round(
    kind: Kind,
    program: Option<&Path>,
    streams: usize,
    stall: Option<Duration>,
    limit: Duration,
) -> Result<Round, String> {
    let target = targets::start(kind, program).await?;
    let mut round = Round {
        streams,
        stalled: stall.is_some(),
        rss_start_kib: target.memory_kib("VmRSS"),
        ..Round::default()
    };
    let mut probes = Vec::new();
    for client in &target.clients {
        let config = ClientConfig::default().only(client.binding());
        let probe = A2aClient::connect(&target.server.url, config)
            .await
            .map_err(|e| format!("{}: connecting a probe: {e}", kind.label()))?;
        probes.push(probe);
    }
    let started = Instant::now();
    let readings = Arc::new(Mutex::new(Vec::new()));
    let mut readers = tokio::task::JoinSet::new();
    for index in 0..streams {
        let client = target.clients[index % target.clients.len()].clone();
        let probe = probes[index % probes.len()].clone();
        let readings = readings.clone();
        readers.spawn(async move {
            let reading = read_one(&client, &probe, index, stall).await;
            readings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((probe, reading));
        });
    }
    let all_read = async { while readers.join_next().await.is_some() {} };
    if tokio::time::timeout(limit, all_read).await.is_err() {
        return Err(format!(
            "{}: {streams} slow-reader streams took over {limit:?}",
            kind.label()
        ));
    }
    round.elapsed = started.elapsed();
    round.rss_peak_kib = target.memory_kib("VmHWM");
    let readings = std::mem::take(&mut *readings.lock().unwrap_or_else(|e| e.into_inner()));
    for (client, reading) in readings {
        let reading = match reading {
            Ok(reading) => reading,
            Err(problem) => {
                round.problem(false, problem);
                continue;
            }
        };
        round.complete += 1;
        round.done_at_resume += usize::from(reading.done_at_resume);
        round.backlog_bytes += reading.late_bytes;
        let request = GetTaskRequest {
            id: reading.task_id.clone(),
            ..Default::default()
        };
        match client.get_task(request).await {
            Ok(task)
                if task.status.state == TaskState::Completed
                    && task_progress(&task) == Some(PROGRESS_UPDATES - 1) => {}
            Ok(task) => round.problem(
                true,
                format!("task {} read back in {:?}", task.id, task.status.state),
            ),
            Err(error) => round.problem(true, format!("task {}: {error}", reading.task_id)),
        }
    }
    Ok(round)
}

/// The most ours may grow with stalled readers beyond its growth with prompt readers: the backlog
/// itself (the artifact text the stalled readers read late). Ours takes from the task's log only as
/// many events as a stream's queue has room for, `ServerConfig::stream_queue` (32) at most for a
/// reader that stalls, about a third of each stalled reader's [`PROGRESS_UPDATES`] here, the rest
/// staying in the task's bounded log that prompt readers leave the same; a server that queued each
/// reader's whole backlog as events (each larger than its text) would pass it.
pub fn backlog_allowance_kib(stalled: &Round) -> u64 {
    stalled.backlog_bytes / 1024
}

/// The artifact text each stream carries in all (for the report).
pub const TEXT_PER_STREAM: usize = PROGRESS_UPDATES * PROGRESS_TEXT_BYTES;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_texts_read_back_as_their_index_and_nothing_else_does() {
        assert_eq!(progress_index(&progress_text(0)), Some(0));
        assert_eq!(progress_index(&progress_text(99)), Some(99));
        assert_eq!(progress_index("progress 007"), None);
        assert_eq!(progress_index(&progress_text(7).replace('.', ",")), None);
    }
}
