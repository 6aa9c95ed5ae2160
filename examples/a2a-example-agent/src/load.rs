//! `a2a-example-agent --load [PYTHON]`: a small load test of the example agent, compared with the
//! official Python SDK's own server (`tests/interop/sdk_agent_server.py`) answering the same requests
//! on the same machine in the same run.
//!
//! Against each server, driven by the example client:
//!
//! 1. [`REQUESTS`] `SendMessage` calls (`tck-complete-task`), split evenly over JSON-RPC, HTTP+JSON
//!    and gRPC, binding after binding, [`CONCURRENCY`] in flight; each must answer a completed task.
//! 2. [`STREAMS`] `SendStreamingMessage` calls (`tck-stream-001`) open at once, spread over the three
//!    bindings; each must end completed with its text artifact.
//! 3. Every task created above is read back with `GetTask`, over a binding other than the one that
//!    created it: a task not found, or not completed, is a lost task.
//!
//! The example agent runs as a child process (this binary with `--listen 127.0.0.1:0 --store memory`), so its
//! memory is its own: its peak resident set (`VmHWM` of `/proc/PID/status`) must stay under
//! [`PEAK_RSS_LIMIT_MIB`]. It prints a table (binding, requests, errors, requests per second of
//! ours and of the SDK, and their ratio) and returns a non-zero exit code when the agent answered an
//! error, lost a task or went over the memory bound. Throughput is reported, never asserted.
//!
//! The SDK server needs a Python with `tests/interop/requirements.txt` installed: the argument, or
//! `A2A_INTEROP_PYTHON`. Without one the SDK columns are left out (under `CI=true`, it fails).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, StreamResponse,
    TaskState,
};

use crate::client::{A2aClient, Binding, ClientConfig};
use crate::process::{Server, start_sdk_server};

/// Unary requests per server, across the three bindings.
pub const REQUESTS: usize = 2_000;
/// Streams open at once per server, across the three bindings.
pub const STREAMS: usize = 200;
/// Unary requests in flight at once.
pub const CONCURRENCY: usize = 32;
/// The most the example agent's resident set may reach during the whole load (it holds every task
/// it created, about 2,200 small ones, and serves 200 streams at once; a debug build peaks near
/// 30 MiB).
pub const PEAK_RSS_LIMIT_MIB: u64 = 128;
/// The longest one server's whole load may take.
const TARGET_LIMIT: Duration = Duration::from_secs(180);

/// A memory figure of `/proc/PID/status` (`VmRSS`, `VmHWM`), in KiB; `None` off Linux.
fn proc_status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

/// One phase's figures for one binding (or for all, for the streams).
#[derive(Clone, Debug, Default)]
struct Figures {
    requests: usize,
    errors: usize,
    elapsed: Duration,
    first_errors: Vec<String>,
}

impl Figures {
    fn rps(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Everything measured against one server.
#[derive(Debug, Default)]
struct TargetResult {
    unary: Vec<(Binding, Figures)>,
    streams: Figures,
    tasks_created: usize,
    lost: usize,
    first_lost: Vec<String>,
}

impl TargetResult {
    fn errors(&self) -> usize {
        self.unary.iter().map(|(_, f)| f.errors).sum::<usize>() + self.streams.errors
    }

    fn problems(&self) -> Vec<String> {
        self.unary
            .iter()
            .flat_map(|(_, f)| f.first_errors.iter())
            .chain(&self.streams.first_errors)
            .chain(&self.first_lost)
            .take(5)
            .cloned()
            .collect()
    }
}

fn unique(prefix: &str, binding: Binding, index: usize) -> String {
    format!(
        "{prefix}-load-{}-{index}-{}",
        binding.protocol_binding().to_ascii_lowercase(),
        std::process::id()
    )
}

/// Collects errors (the first few verbatim) and created task ids from many workers.
#[derive(Default)]
struct Tally {
    errors: AtomicUsize,
    first_errors: Mutex<Vec<String>>,
    tasks: Mutex<Vec<String>>,
}

impl Tally {
    fn error(&self, problem: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_errors.lock().unwrap_or_else(|e| e.into_inner());
        if first.len() < 3 {
            first.push(problem);
        }
    }

    fn task(&self, id: String) {
        self.tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(id);
    }

    fn figures(&self, requests: usize, elapsed: Duration) -> Figures {
        Figures {
            requests,
            errors: self.errors.load(Ordering::Relaxed),
            elapsed,
            first_errors: self
                .first_errors
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        }
    }

    fn take_tasks(&self) -> Vec<String> {
        std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Phase 1 over one binding: `count` SendMessage calls, [`CONCURRENCY`] in flight.
async fn unary_phase(client: &A2aClient, count: usize, tally: &Arc<Tally>) -> Duration {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (client, next, tally) = (client.clone(), next.clone(), tally.clone());
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                let request = SendMessageRequest {
                    message: Message::user(
                        unique("tck-complete-task", client.binding(), index),
                        [Part::text("hello")],
                    ),
                    ..Default::default()
                };
                match client.send_message(request).await {
                    Ok(SendMessageResponse::Task(task))
                        if task.status.state == TaskState::Completed =>
                    {
                        tally.task(task.id)
                    }
                    Ok(SendMessageResponse::Task(task)) => tally.error(format!(
                        "{}: task {} is {:?}, expected completed",
                        client.binding(),
                        task.id,
                        task.status.state
                    )),
                    Ok(_) => tally.error(format!("{}: expected a task", client.binding())),
                    Err(error) => tally.error(format!("SendMessage: {error}")),
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    started.elapsed()
}

/// One stream: working, the text artifact, completed; the task's id when it was all there.
async fn one_stream(client: &A2aClient, index: usize) -> Result<String, String> {
    let binding = client.binding();
    let request = SendMessageRequest {
        message: Message::user(
            unique("tck-stream-001", binding, index),
            [Part::text("stream")],
        ),
        ..Default::default()
    };
    let events = client
        .send_streaming_message(request)
        .await
        .map_err(|e| format!("SendStreamingMessage: {e}"))?
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

/// Phase 3: every task read back over the binding after the one that made it (all of them, rotating).
async fn read_back(clients: &[A2aClient], tasks: Vec<String>) -> (usize, Vec<String>) {
    let tasks = Arc::new(tasks);
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Tally::default());
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (clients, tasks, next, tally) =
            (clients.to_vec(), tasks.clone(), next.clone(), tally.clone());
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(id) = tasks.get(index) else { break };
                let client = &clients[(index + 1) % clients.len()];
                let request = GetTaskRequest {
                    id: id.clone(),
                    ..Default::default()
                };
                match client.get_task(request).await {
                    Ok(task) if task.id == *id && task.status.state == TaskState::Completed => {}
                    Ok(task) => tally.error(format!(
                        "task {id} read back over {} as {} in {:?}",
                        client.binding(),
                        task.id,
                        task.status.state
                    )),
                    Err(error) => tally.error(format!("task {id}: {error}")),
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    let figures = tally.figures(tasks.len(), Duration::ZERO);
    (figures.errors, figures.first_errors)
}

/// The three phases against the server at `url`.
async fn load(url: &str) -> Result<TargetResult, String> {
    let mut clients = Vec::new();
    for binding in Binding::ALL {
        let client = A2aClient::connect(url, ClientConfig::default().only(binding))
            .await
            .map_err(|e| format!("connecting over {binding}: {e}"))?;
        clients.push(client);
    }
    let mut result = TargetResult::default();
    let mut tasks = Vec::new();

    for (position, client) in clients.iter().enumerate() {
        // 667, 667, 666: the requests split as evenly as they go.
        let count = REQUESTS / clients.len() + usize::from(position < REQUESTS % clients.len());
        let tally = Arc::new(Tally::default());
        let elapsed = unary_phase(client, count, &tally).await;
        tasks.extend(tally.take_tasks());
        result
            .unary
            .push((client.binding(), tally.figures(count, elapsed)));
    }

    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let mut streams = tokio::task::JoinSet::new();
    for index in 0..STREAMS {
        let (client, tally) = (clients[index % clients.len()].clone(), tally.clone());
        streams.spawn(async move {
            match one_stream(&client, index).await {
                Ok(id) => tally.task(id),
                Err(problem) => tally.error(problem),
            }
        });
    }
    while streams.join_next().await.is_some() {}
    result.streams = tally.figures(STREAMS, started.elapsed());
    tasks.extend(tally.take_tasks());

    result.tasks_created = tasks.len();
    let (lost, first_lost) = read_back(&clients, tasks).await;
    result.lost = lost;
    result.first_lost = first_lost;
    Ok(result)
}

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1")
}

fn start_ours() -> Result<Server, String> {
    let exe = std::env::current_exe().map_err(|e| format!("finding this binary: {e}"))?;
    let mut command = Command::new(exe);
    // In memory, as the SDK's server keeps its tasks: the figures compare the two servers, not
    // stores (and no run shares the default SQLite file with another agent).
    command.args(["--listen", "127.0.0.1:0", "--store", "memory"]);
    let (mut server, line) = Server::start(command, "the example agent")?;
    server.url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| {
            format!(
                "the example agent: unexpected ready line {:?}",
                line.trim_end()
            )
        })?
        .to_owned();
    Ok(server)
}

async fn bounded_load(url: &str, what: &str) -> Result<TargetResult, String> {
    tokio::time::timeout(TARGET_LIMIT, load(url))
        .await
        .unwrap_or_else(|_| Err(format!("the load on {what} took over {TARGET_LIMIT:?}")))
}

fn mib(kib: Option<u64>) -> String {
    kib.map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
        .unwrap_or_else(|| "unknown".into())
}

/// Runs the load test and prints its table; returns the process exit code (0: no error, no lost
/// task, memory within its bound).
pub async fn main(python: Option<&str>) -> i32 {
    match run(python).await {
        Ok(()) => 0,
        Err(problem) => {
            println!("FAILED: {problem}");
            1
        }
    }
}

async fn run(python: Option<&str>) -> Result<(), String> {
    let python = python
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("A2A_INTEROP_PYTHON").map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty());
    if python.is_none() && on_ci() {
        return Err(
            "CI is set but no Python for the SDK server was given (A2A_INTEROP_PYTHON)".into(),
        );
    }
    println!(
        "load: {REQUESTS} SendMessage requests ({CONCURRENCY} in flight) and {STREAMS} concurrent \
         streams across JSON-RPC, HTTP+JSON and gRPC, then every task read back"
    );

    let ours = start_ours()?;
    let rss_before = proc_status_kib(ours.pid(), "VmRSS");
    let started = Instant::now();
    let our_result = bounded_load(&ours.url, "the example agent").await?;
    println!(
        "example agent ({}): {:.1} s",
        ours.url,
        started.elapsed().as_secs_f32()
    );
    let rss_after = proc_status_kib(ours.pid(), "VmRSS");
    let rss_peak = proc_status_kib(ours.pid(), "VmHWM");
    drop(ours);

    let sdk_result = match &python {
        Some(python) => {
            let (sdk, _) = start_sdk_server(python, &[])?;
            let started = Instant::now();
            let result = bounded_load(&sdk.url, "the SDK server").await?;
            println!(
                "SDK server ({}): {:.1} s, peak RSS {}",
                sdk.url,
                started.elapsed().as_secs_f32(),
                mib(proc_status_kib(sdk.pid(), "VmHWM"))
            );
            Some(result)
        }
        None => {
            println!("no Python with the SDK (A2A_INTEROP_PYTHON): the SDK columns are left out");
            None
        }
    };

    print_table(&our_result, sdk_result.as_ref());
    println!(
        "tasks: ours created {}, lost {}{}",
        our_result.tasks_created,
        our_result.lost,
        sdk_result
            .as_ref()
            .map(|s| format!("; SDK created {}, lost {}", s.tasks_created, s.lost))
            .unwrap_or_default()
    );
    println!(
        "memory of the example agent: RSS {} before, {} after, peak {} (bound {PEAK_RSS_LIMIT_MIB} MiB)",
        mib(rss_before),
        mib(rss_after),
        mib(rss_peak)
    );
    if let Some(sdk) = &sdk_result
        && sdk.errors() + sdk.lost > 0
    {
        println!(
            "note: the SDK server answered {} errors and lost {} tasks: {:?}",
            sdk.errors(),
            sdk.lost,
            sdk.problems()
        );
    }

    let mut problems = Vec::new();
    if our_result.errors() > 0 {
        problems.push(format!("{} errors", our_result.errors()));
    }
    if our_result.lost > 0 {
        problems.push(format!("{} tasks lost", our_result.lost));
    }
    if our_result.tasks_created != REQUESTS + STREAMS {
        problems.push(format!(
            "{} tasks created, expected {}",
            our_result.tasks_created,
            REQUESTS + STREAMS
        ));
    }
    match rss_peak {
        Some(peak) if peak > PEAK_RSS_LIMIT_MIB * 1024 => problems.push(format!(
            "peak RSS {} over the bound of {PEAK_RSS_LIMIT_MIB} MiB",
            mib(Some(peak))
        )),
        Some(_) => {}
        None if cfg!(target_os = "linux") => {
            problems.push("the agent's peak RSS could not be read".into())
        }
        None => println!("(peak RSS is read from /proc, which this system lacks: not checked)"),
    }
    if problems.is_empty() {
        println!("ok: no error, no task lost, memory within its bound");
        Ok(())
    } else {
        Err(format!(
            "the example agent: {}; first problems: {:?}",
            problems.join(", "),
            our_result.problems()
        ))
    }
}

fn print_table(ours: &TargetResult, sdk: Option<&TargetResult>) {
    println!(
        "\n{:<26} {:>8} {:>12} {:>10} {:>10} {:>7}",
        "binding", "requests", "errors o/S", "rps ours", "rps SDK", "ratio"
    );
    let row = |name: &str, our: &Figures, their: Option<&Figures>| {
        let (their_errors, their_rps, ratio) = match their {
            Some(f) => (
                f.errors.to_string(),
                format!("{:.0}", f.rps()),
                format!("{:.2}x", our.rps() / f.rps().max(1e-9)),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<26} {:>8} {:>12} {:>10.0} {:>10} {:>7}",
            name,
            our.requests,
            format!("{}/{their_errors}", our.errors),
            our.rps(),
            their_rps,
            ratio
        );
    };
    for (position, (binding, figures)) in ours.unary.iter().enumerate() {
        let theirs = sdk.and_then(|s| s.unary.get(position)).map(|(_, f)| f);
        row(&format!("{binding} SendMessage"), figures, theirs);
    }
    row(
        "streams, all 3 at once",
        &ours.streams,
        sdk.map(|s| &s.streams),
    );
    println!();
}
