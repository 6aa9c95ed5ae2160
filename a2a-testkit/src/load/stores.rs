//! The store benchmark (`a2a-example-agent --load-stores [--record] [--baseline AGENT]`): the
//! example agent on each store, side by side in one run: memory, SQLite (a file of its own),
//! PostgreSQL with one replica and with two (on a schema of their own in the database
//! `A2A_TEST_POSTGRES_URL` names; without it those rows are left out, and under `CI=true` the run
//! fails). Each store takes turns with the others in short batches, the first one rotating every
//! round and odd rounds taking the turns the other way round, each batch beginning once the
//! machine is quiet ([`settle`]), [`CONCURRENCY`] calls in flight over JSON-RPC (with two
//! replicas, alternating between them): `SendMessage` of a message the agent completes at once
//! (`tck-complete-task`), and a streamed task of [`LOAD_CHUNKS`] artifact chunks (`load-chunks`).
//!
//! The table gives, per store: `SendMessage`/s (median of the batches, lowest–highest), its ratio to
//! memory batch by batch, p50/p99 latency, streamed events per second and their ratio to memory,
//! and on PostgreSQL the transactions that wrote per `SendMessage` (transaction ids the database
//! handed out, less the benchmark's own probes; the other counts per operation are the store's cost
//! tests'). A line under it gives two replicas over one, batch by batch, for both operations. With
//! `--baseline AGENT`, another build of the agent (the one before a change) runs every store too,
//! both operations, alternating with this one, and the ratios of this build to it are given batch
//! by batch.
//!
//! The peer rows ([`super::store_peers`]): the official Python SDK's server on its own stores
//! (`InMemoryTaskStore`; its `DatabaseTaskStore` on SQLite and on PostgreSQL, a schema of its own),
//! its agent doing the same work, alternating with ours in the same rounds. Each row gives its ratio
//! to the SDK's memory row, and ours on the same store over it, batch by batch. They need
//! `A2A_INTEROP_PYTHON` (a Python with `tests/interop/requirements.txt`); without it their rows are
//! left out, and under `CI=true` the run fails. Likewise a2a-protocol-server 0.15 on its memory,
//! SQLite and PostgreSQL stores (`benchmarks/protocol-server-agent`, built by
//! `cargo build --release --manifest-path benchmarks/Cargo.toml -p a2a-protocol-server-agent`, or
//! `A2A_LOAD_PROTOCOL_SERVER_AGENT`); CI does not build it, so without it its rows are left out
//! with one line, under `CI=true` too.
//!
//! Then the steady-state round ([`super::steady`]): `SendMessage` in back-to-back batches past the
//! store's capacity, the throughput of the last batches over the first. At CI's scale on our memory
//! store only (12,000 tasks, past its 10,000); with `--record` on every store of ours and on the
//! peers' memory stores.
//!
//! Last, ListTasks on each store of this build ([`super::listing`]): the first page's latency after
//! the first round and again at the end, with the tasks each store then held.
//!
//! Every task made in the short rounds is read back with `GetTask` (before the steady-state round,
//! whose eviction would remove them); the run fails (non-zero exit) on any error or lost task, ours
//! or a peer's. Throughput is reported, never asserted: the machine may be shared.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_types::v1::{
    Message, Part, SendMessageRequest, SendMessageResponse, StreamResponse, TaskState,
};
use sqlx::Connection;

use super::batches::{Batch, CONCURRENCY, read_back};
use super::listing;
use super::report::{percentile, spread};
use super::settle::{QUIET_SHARE, WINDOW, settle};
use super::steady::{SteadyScale, first_and_last};
use super::store_peers;
use super::targets::url_of_ready_line;
use crate::behaviour::table::LOAD_CHUNKS;
use crate::process::Server;

/// How much load one run puts on each store.
#[derive(Clone, Copy, Debug)]
pub struct StoreScale {
    /// Rounds: each runs every operation against every store.
    pub rounds: usize,
    /// Calls per batch of `SendMessage`.
    pub send_message_calls: usize,
    /// Calls per batch of streamed tasks.
    pub streamed_calls: usize,
    /// Calls per batch of streamed tasks on the Python SDK's server (on SQLite it streams about 70
    /// events a second: CI's batches are kept short).
    pub peer_streamed_calls: usize,
    /// The steady-state round.
    pub steady: SteadyScale,
    /// Whether the steady-state round runs on every store and the SDK's memory store (else on our
    /// memory store only).
    pub steady_everywhere: bool,
}

impl StoreScale {
    /// CI's short run (a debug build).
    pub const CI: StoreScale = StoreScale {
        rounds: 2,
        send_message_calls: 64,
        streamed_calls: 16,
        peer_streamed_calls: 4,
        steady: SteadyScale::CI,
        steady_everywhere: false,
    };
    /// The figures of record (a release build, a quiet machine).
    pub const RECORD: StoreScale = StoreScale {
        rounds: 9,
        // Every task of the short rounds is read back, so all of them fit in a memory store's
        // 10,000 (ours, a2a-protocol-server's): 9 rounds of 800 + 200 and the warm-up's 16.
        send_message_calls: 800,
        // 100 streams lasted about 50 ms on memory: a batch that short measured its own start and
        // end more than the server (76,000-128,000 events a second within one run).
        streamed_calls: 200,
        peer_streamed_calls: 100,
        steady: SteadyScale::RECORD,
        steady_everywhere: true,
    };
}

/// The operations measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StoreOp {
    SendMessage,
    Streamed,
}

/// Where a configuration keeps its tasks.
#[derive(Clone, Debug)]
enum Store {
    Memory,
    Sqlite,
    Postgres { replicas: usize },
}

impl Store {
    fn label(&self) -> String {
        match self {
            Store::Memory => "memory".into(),
            Store::Sqlite => "SQLite".into(),
            Store::Postgres { replicas: 1 } => "PostgreSQL, 1 replica".into(),
            Store::Postgres { replicas } => format!("PostgreSQL, {replicas} replicas"),
        }
    }
}

/// The build label of the agent under test, of `--baseline`, and of the Python SDK's server.
const THIS_BUILD: &str = "this build";
const BASELINE: &str = "baseline";
const PYTHON_SDK: &str = "Python SDK";
const PROTOCOL_SERVER: &str = "a2a-protocol-server 0.15";

/// Whether `build` is another project's server (a peer row).
fn is_peer(build: &str) -> bool {
    build == PYTHON_SDK || build == PROTOCOL_SERVER
}

/// One configuration running: its agent processes (killed when dropped) and a JSON-RPC client of
/// each.
struct Running {
    store: Store,
    build: &'static str,
    clients: Vec<A2aClient>,
    _servers: Vec<Server>,
    /// The SQLite file, removed at the end.
    file: Option<PathBuf>,
    /// The PostgreSQL URL, for the transaction count.
    postgres: Option<String>,
    send_batches: Vec<Batch>,
    streamed_batches: Vec<Batch>,
    /// Writing transactions per SendMessage, one figure per batch (PostgreSQL).
    commits: Vec<f64>,
    tasks: Vec<String>,
    /// ListTasks after the first round (this build only), for the listing table.
    listing_early: Option<listing::Sample>,
}

impl Running {
    /// What this configuration is measured on: both operations, a baseline build's too (a
    /// baseline must know the `load-chunks` behaviour, as every build since the benchmark's
    /// streamed task has).
    fn ops(&self) -> &'static [StoreOp] {
        &[StoreOp::SendMessage, StoreOp::Streamed]
    }

    /// A ListTasks sample ([`listing::sample`]), an error naming this configuration.
    async fn listing_sample(&self) -> Result<listing::Sample, String> {
        listing::sample(&self.clients[0])
            .await
            .map_err(|e| format!("{} ({}): {e}", self.store.label(), self.build))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            crate::stores::remove_sqlite(file);
        }
    }
}

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1")
}

/// Makes the schema `name` in the database at `url`; the URL whose connections search it first.
async fn postgres_schema(url: &str, name: &str) -> Result<String, String> {
    let mut connection = sqlx::PgConnection::connect(url)
        .await
        .map_err(|e| format!("PostgreSQL at {url}: {e}"))?;
    sqlx::query(&format!("CREATE SCHEMA {name}"))
        .execute(&mut connection)
        .await
        .map_err(|e| format!("PostgreSQL: creating schema {name}: {e}"))?;
    let separator = if url.contains('?') { '&' } else { '?' };
    Ok(format!("{url}{separator}options=-c%20search_path%3D{name}"))
}

/// Transaction ids handed out so far (each writing transaction takes one; so does this probe).
async fn transaction_ids(url: &str) -> Option<i64> {
    let mut connection = sqlx::PgConnection::connect(url).await.ok()?;
    sqlx::query_scalar::<_, String>("SELECT pg_current_xact_id()::text")
        .fetch_one(&mut connection)
        .await
        .ok()?
        .parse()
        .ok()
}

async fn start(
    agent: &Path,
    build: &'static str,
    store: Store,
    postgres: Option<&str>,
) -> Result<Running, String> {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let unique = format!(
        "a2a_load_{}_{nanos}_{}",
        std::process::id(),
        STARTED.fetch_add(1, Ordering::Relaxed)
    );
    let (value, file, url) = match &store {
        Store::Memory => ("memory".to_owned(), None, None),
        Store::Sqlite => {
            let file = std::env::temp_dir().join(format!("{unique}.sqlite3"));
            (format!("sqlite:{}", file.display()), Some(file), None)
        }
        Store::Postgres { .. } => {
            let base = postgres.ok_or("no PostgreSQL")?;
            let url = postgres_schema(base, &unique).await?;
            // The SDK's server is given the database and the schema apart (its driver takes no
            // `options` parameter).
            let value = match build {
                PYTHON_SDK => format!("postgres:{base}"),
                PROTOCOL_SERVER => format!("postgres:{url}"),
                _ => url.clone(),
            };
            (value, None, Some(url))
        }
    };
    let replicas = match store {
        Store::Postgres { replicas } => replicas,
        _ => 1,
    };
    let mut servers = Vec::new();
    let mut clients = Vec::new();
    for _ in 0..replicas {
        let server = if build == PYTHON_SDK {
            let schema = url.is_some().then_some(unique.as_str());
            store_peers::start_sdk(agent, &value, schema)?
        } else if build == PROTOCOL_SERVER {
            store_peers::start_protocol_server(agent, &value)?
        } else {
            let mut command = Command::new(agent);
            command.args(["--listen", "127.0.0.1:0", "--store", &value, "--one-caller"]);
            let (mut server, line) = Server::start(command, "the example agent")?;
            server.url = url_of_ready_line(&line, "the example agent")?;
            server
        };
        let client =
            A2aClient::connect(&server.url, ClientConfig::default().only(Binding::JsonRpc))
                .await
                .map_err(|e| format!("{} ({build}): connecting: {e}", store.label()))?;
        servers.push(server);
        clients.push(client);
    }
    Ok(Running {
        store,
        build,
        clients,
        _servers: servers,
        file,
        postgres: url,
        send_batches: Vec::new(),
        streamed_batches: Vec::new(),
        commits: Vec::new(),
        tasks: Vec::new(),
        listing_early: None,
    })
}

/// One call; the task made and the events received, or what went wrong.
async fn one_call(
    client: &A2aClient,
    op: StoreOp,
    sequence: usize,
) -> Result<(String, usize), String> {
    let prefix = match op {
        StoreOp::SendMessage => "tck-complete-task",
        StoreOp::Streamed => "load-chunks",
    };
    let request = SendMessageRequest {
        message: Message::user(
            format!("{prefix}-stores-{sequence}-{}", std::process::id()),
            [Part::text("hello")],
        ),
        ..Default::default()
    };
    if op == StoreOp::SendMessage {
        return match client.send_message(request).await {
            Ok(SendMessageResponse::Task(task)) if task.status.state == TaskState::Completed => {
                Ok((task.id, 1))
            }
            Ok(other) => Err(format!("SendMessage: not a completed task: {other:?}")),
            Err(error) => Err(format!("SendMessage: {error}")),
        };
    }
    let events = client
        .send_streaming_message(request)
        .await
        .map_err(|e| format!("SendStreamingMessage: {e}"))?
        .collect()
        .await
        .map_err(|e| format!("stream: {e}"))?;
    let mut task_id = None;
    let mut chunks = 0;
    let mut last = None;
    for event in &events {
        match event {
            StreamResponse::Task(task) => task_id = Some(task.id.clone()),
            StreamResponse::ArtifactUpdate(_) => chunks += 1,
            StreamResponse::StatusUpdate(update) => last = Some(update.status.state),
            _ => {}
        }
    }
    match task_id {
        Some(id) if chunks == LOAD_CHUNKS && last == Some(TaskState::Completed) => {
            Ok((id, events.len()))
        }
        _ => Err(format!(
            "stream: {chunks} chunks of {LOAD_CHUNKS}, ending in {last:?}"
        )),
    }
}

/// `calls` calls of `op`, [`CONCURRENCY`] in flight, alternating over `clients`; the batch, and
/// the events received in all.
async fn batch(clients: &[A2aClient], op: StoreOp, calls: usize, first: usize) -> (Batch, usize) {
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new((Batch::default(), 0usize)));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY.min(calls) {
        let (clients, next, results) = (clients.to_vec(), next.clone(), results.clone());
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= calls {
                    break;
                }
                let client = &clients[index % clients.len()];
                let call_started = Instant::now();
                let outcome = one_call(client, op, first + index).await;
                let latency = call_started.elapsed();
                let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                match outcome {
                    Ok((task, events)) => {
                        results.0.latencies.push(latency);
                        results.0.tasks.push(task);
                        results.1 += events;
                    }
                    Err(problem) => {
                        results.0.errors += 1;
                        if results.0.first_errors.len() < 3 {
                            results.0.first_errors.push(problem);
                        }
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    let elapsed = started.elapsed();
    let (mut batch, events) =
        std::mem::take(&mut *results.lock().unwrap_or_else(|e| e.into_inner()));
    batch.calls = calls;
    batch.elapsed = elapsed;
    (batch, events)
}

/// The load commands on an agent's command line: `--load-stores [--record] [--baseline AGENT]`
/// runs [`main`] on `agent`; `None` when `args` are not that.
pub async fn command_line(agent: &Path, args: &[&str]) -> Option<i32> {
    let mut rest = args.strip_prefix(&["--load-stores"])?;
    let mut scale = StoreScale::CI;
    if let Some(after) = rest.strip_prefix(&["--record"]) {
        scale = StoreScale::RECORD;
        rest = after;
    }
    let baseline = match rest {
        [] => None,
        ["--baseline", path] => Some(PathBuf::from(path)),
        _ => return None,
    };
    Some(main(agent, baseline.as_deref(), scale).await)
}

/// Runs the store benchmark and prints its table; the process exit code (0: no error, no task
/// lost).
pub async fn main(agent: &Path, baseline: Option<&Path>, scale: StoreScale) -> i32 {
    match run(agent, baseline, scale).await {
        Ok(()) => 0,
        Err(problem) => {
            println!("FAILED: {problem}");
            1
        }
    }
}

/// Events per second of a streamed batch.
fn events_per_second(batch: &Batch, events: usize) -> f64 {
    events as f64 / batch.elapsed.as_secs_f64().max(1e-9)
}

async fn run(agent: &Path, baseline: Option<&Path>, scale: StoreScale) -> Result<(), String> {
    let postgres = std::env::var("A2A_TEST_POSTGRES_URL")
        .ok()
        .filter(|url| !url.is_empty());
    let mut stores = vec![Store::Memory, Store::Sqlite];
    match &postgres {
        Some(_) => stores.extend([
            Store::Postgres { replicas: 1 },
            Store::Postgres { replicas: 2 },
        ]),
        None if on_ci() => {
            return Err("CI is set but A2A_TEST_POSTGRES_URL names no PostgreSQL".into());
        }
        None => println!("no PostgreSQL (A2A_TEST_POSTGRES_URL): its rows are left out"),
    }
    let python = store_peers::python();
    if python.is_none() {
        if on_ci() {
            return Err(
                "CI is set but no Python for the SDK server was given (A2A_INTEROP_PYTHON)".into(),
            );
        }
        println!("no Python with the SDK (A2A_INTEROP_PYTHON): the Python SDK rows are left out");
    }
    let protocol_server = store_peers::protocol_server_agent();
    if protocol_server.is_none() {
        // CI does not build benchmarks/: only runs of record are expected to have these rows.
        println!(
            "a2a-protocol-server's agent is not built (benchmarks/protocol-server-agent; \
             A2A_LOAD_PROTOCOL_SERVER_AGENT): its rows are left out"
        );
    }
    let mut builds = vec![(THIS_BUILD, agent)];
    if let Some(baseline) = baseline {
        builds.push((BASELINE, baseline));
    }
    if let Some(python) = &python {
        builds.push((PYTHON_SDK, python.as_path()));
    }
    if let Some(binary) = &protocol_server {
        builds.push((PROTOCOL_SERVER, binary.as_path()));
    }
    let mut running = Vec::new();
    for store in &stores {
        for (build, program) in &builds {
            // One process of a peer's server per store: the rows compare stores, not replicas.
            if is_peer(build) && matches!(store, Store::Postgres { replicas } if *replicas > 1) {
                continue;
            }
            running.push(start(program, build, store.clone(), postgres.as_deref()).await?);
        }
    }
    println!(
        "store benchmark: {} rounds, batches of {} SendMessage and {} streamed tasks of {} chunks, \
         {CONCURRENCY} in flight over JSON-RPC",
        scale.rounds, scale.send_message_calls, scale.streamed_calls, LOAD_CHUNKS
    );
    let mut sequence = 0;
    // A warm-up batch each (connections, statements), kept out of the figures.
    for target in &mut running {
        for &op in target.ops() {
            let calls = if target.build == PYTHON_SDK { 2 } else { 8 };
            let (warm, _) = batch(&target.clients, op, calls, sequence).await;
            sequence += calls;
            target.tasks.extend(warm.tasks);
            if warm.errors > 0 {
                return Err(format!(
                    "{} ({}): {:?}",
                    target.store.label(),
                    target.build,
                    warm.first_errors
                ));
            }
        }
    }
    let mut streamed_events: Vec<Vec<f64>> = vec![Vec::new(); running.len()];
    let mut settled = Settled::default();
    for round in 0..scale.rounds {
        for op in [StoreOp::SendMessage, StoreOp::Streamed] {
            for turn in 0..running.len() {
                let position = turn_position(round, turn, running.len());
                let target = &mut running[position];
                if !target.ops().contains(&op) {
                    continue;
                }
                settled.note(settle(SETTLE_AT_MOST).await);
                let calls = match op {
                    StoreOp::SendMessage => scale.send_message_calls,
                    StoreOp::Streamed if target.build == PYTHON_SDK => scale.peer_streamed_calls,
                    StoreOp::Streamed => scale.streamed_calls,
                };
                let before = match (&target.postgres, op) {
                    (Some(url), StoreOp::SendMessage) => transaction_ids(url).await,
                    _ => None,
                };
                let (mut done, events) = batch(&target.clients, op, calls, sequence).await;
                sequence += calls;
                if let (Some(before), Some(url)) = (before, &target.postgres)
                    && let Some(after) = transaction_ids(url).await
                {
                    // Less the probe after the batch.
                    target
                        .commits
                        .push((after - before - 1) as f64 / calls as f64);
                }
                target.tasks.append(&mut done.tasks);
                match op {
                    StoreOp::SendMessage => target.send_batches.push(done),
                    StoreOp::Streamed => {
                        streamed_events[position].push(events_per_second(&done, events));
                        target.streamed_batches.push(done);
                    }
                }
            }
        }
        if round == 0 {
            for target in running.iter_mut().filter(|t| t.build == THIS_BUILD) {
                target.listing_early = Some(target.listing_sample().await?);
            }
        }
    }
    print_table(&running, &streamed_events);
    if let Some(line) = replicas_line(&running) {
        println!("{line}");
    }
    println!("{}", settled.summary());

    let mut problems = Vec::new();
    for target in &mut running {
        let errors: usize = target
            .send_batches
            .iter()
            .chain(&target.streamed_batches)
            .map(|b| b.errors)
            .sum();
        let first_errors: Vec<String> = target
            .send_batches
            .iter()
            .chain(&target.streamed_batches)
            .flat_map(|b| b.first_errors.iter().cloned())
            .take(3)
            .collect();
        let made = std::mem::take(&mut target.tasks);
        let count = made.len();
        let (lost, first_lost) = read_back(&target.clients, made).await;
        println!(
            "{} ({}): {count} tasks made, {errors} errors, {lost} lost",
            target.store.label(),
            target.build
        );
        if errors + lost > 0 {
            problems.push(format!(
                "{} ({}): {errors} errors, {lost} lost: {first_errors:?} {first_lost:?}",
                target.store.label(),
                target.build
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    println!("ok: no error, no task lost");
    steady_round(&mut running, scale, sequence).await?;
    listing_table(&running).await
}

/// ListTasks on each store of this build now against after the first round ([`listing`]); fails
/// on an error.
async fn listing_table(running: &[Running]) -> Result<(), String> {
    println!(
        "\nListTasks as the stores filled: the first page, {} calls one after another, after the \
         first round and again now\n\n{}",
        listing::CALLS,
        listing::HEADER
    );
    for target in running {
        let Some(early) = target.listing_early else {
            continue;
        };
        let late = target.listing_sample().await?;
        println!("{}", listing::row(&target.store.label(), early, late));
    }
    Ok(())
}

/// The steady-state round ([`super::steady`]) on the configurations `scale` names, one after the
/// other; prints its table, fails on an error.
async fn steady_round(
    running: &mut [Running],
    scale: StoreScale,
    mut sequence: usize,
) -> Result<(), String> {
    let steady = scale.steady;
    println!(
        "\nsteady-state round: {} back-to-back batches of {} SendMessage per configuration ({}), \
         the last {} against the first {}",
        steady.batches,
        steady.calls_per_batch,
        if scale.steady_everywhere {
            "every store of this build, the peers' memory stores"
        } else {
            "this build's memory store; all with --record"
        },
        steady.compared,
        steady.compared
    );
    println!(
        "\n| store | build | SendMessage/s, first batches | SendMessage/s, last batches | last ÷ first |\n\
         |---|---|---|---|---|"
    );
    let mut problems = Vec::new();
    for target in running.iter() {
        let memory = matches!(target.store, Store::Memory);
        let included = match target.build {
            THIS_BUILD => memory || scale.steady_everywhere,
            PYTHON_SDK | PROTOCOL_SERVER => memory && scale.steady_everywhere,
            _ => false,
        };
        if !included {
            continue;
        }
        // Its batches run back to back; the first starts on a quiet machine.
        settle(SETTLE_AT_MOST).await;
        let mut batches = Vec::new();
        for _ in 0..steady.batches {
            let (done, _) = batch(
                &target.clients,
                StoreOp::SendMessage,
                steady.calls_per_batch,
                sequence,
            )
            .await;
            sequence += steady.calls_per_batch;
            if done.errors > 0 {
                problems.push(format!(
                    "steady-state round, {} ({}): {} errors: {:?}",
                    target.store.label(),
                    target.build,
                    done.errors,
                    done.first_errors
                ));
                break;
            }
            batches.push(done);
        }
        if let Some((first, last, ratio)) = first_and_last(&batches, steady.compared) {
            println!(
                "| {} | {} | {first:.0} | {last:.0} | {ratio:.2} |",
                target.store.label(),
                target.build
            );
        }
    }
    if problems.is_empty() {
        println!("ok: no error in the steady-state round");
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The longest wait for a quiet machine before a batch ([`settle`]).
const SETTLE_AT_MOST: Duration = Duration::from_secs(2);

/// Which target takes turn `turn` of `round` among `targets`: the first rotates every round, and
/// odd rounds go the other way round, so each target follows each of its two neighbours in turn
/// rather than always the same one (whose lingering work would always land on it).
fn turn_position(round: usize, turn: usize, targets: usize) -> usize {
    if round.is_multiple_of(2) {
        (round + turn) % targets
    } else {
        (round + targets - turn) % targets
    }
}

/// How the waits for a quiet machine before the batches went.
#[derive(Default)]
struct Settled {
    batches: usize,
    quiet: usize,
    waits: Vec<Duration>,
}

impl Settled {
    fn note(&mut self, (waited, quiet): (Duration, bool)) {
        self.batches += 1;
        self.quiet += usize::from(quiet);
        self.waits.push(waited);
    }

    fn summary(&mut self) -> String {
        self.waits.sort();
        let median = self
            .waits
            .get(self.waits.len() / 2)
            .copied()
            .unwrap_or_default();
        format!(
            "each batch began once the machine was quiet (at most {:.0}% busy over {} ms, waiting at most {} s): {} of {} did, after a median wait of {} ms",
            QUIET_SHARE * 100.0,
            WINDOW.as_millis(),
            SETTLE_AT_MOST.as_secs(),
            self.quiet,
            self.batches,
            median.as_millis()
        )
    }
}

fn figure((median, low, high): (f64, f64, f64), decimals: usize) -> String {
    format!("{median:.decimals$} ({low:.decimals$}–{high:.decimals$})")
}

/// Batch-by-batch ratios of `mine` to `theirs`, summarised.
fn ratio(mine: &[Batch], theirs: &[Batch]) -> Option<(f64, f64, f64)> {
    spread(
        mine.iter()
            .zip(theirs)
            .map(|(a, b)| a.rps() / b.rps().max(1e-9))
            .collect(),
    )
}

/// Two replicas of this build over one, batch by batch, for both operations: the batches of the
/// two ran in the same rounds, so each pair saw the same machine. `None` without both rows.
fn replicas_line(running: &[Running]) -> Option<String> {
    let ours = |count: usize| {
        running.iter().find(|t| {
            t.build == THIS_BUILD
                && matches!(t.store, Store::Postgres { replicas } if replicas == count)
        })
    };
    let (one, two) = (ours(1)?, ours(2)?);
    let over = |batches: fn(&Running) -> &[Batch]| {
        ratio(batches(two), batches(one)).map_or("–".to_owned(), |v| figure(v, 2))
    };
    Some(format!(
        "PostgreSQL, 2 replicas over 1 (this build), batch by batch: SendMessage {}, streamed events {}",
        over(sent),
        over(streamed)
    ))
}

fn sent(running: &Running) -> &[Batch] {
    &running.send_batches
}

fn streamed(running: &Running) -> &[Batch] {
    &running.streamed_batches
}

fn print_table(running: &[Running], streamed_events: &[Vec<f64>]) {
    println!(
        "\n| store | build | SendMessage/s | ratio to memory | ratio to baseline | ours ÷ this row | p50 | p99 | streamed events/s | streamed: ratio to memory / to baseline | writing transactions per SendMessage |\n\
         |---|---|---|---|---|---|---|---|---|---|---|"
    );
    for (position, target) in running.iter().enumerate() {
        let memory = running
            .iter()
            .find(|t| matches!(t.store, Store::Memory) && t.build == target.build);
        let baseline = running
            .iter()
            .find(|t| t.build == BASELINE && t.store.label() == target.store.label());
        let ours = running
            .iter()
            .find(|t| t.build == THIS_BUILD && t.store.label() == target.store.label());
        let mut latencies: Vec<Duration> = target
            .send_batches
            .iter()
            .flat_map(|b| b.latencies.iter().copied())
            .collect();
        latencies.sort_unstable();
        let rps = spread(target.send_batches.iter().map(Batch::rps).collect());
        let cell = |value: Option<(f64, f64, f64)>, decimals| {
            value.map_or("–".to_owned(), |v| figure(v, decimals))
        };
        let millis = |d: Option<Duration>| {
            d.map_or("–".to_owned(), |d| {
                format!("{:.1} ms", d.as_secs_f64() * 1000.0)
            })
        };
        // This row's batches of one operation over another row's, batch by batch: over the same
        // build's memory store, and (this build only) over the baseline's same store.
        let to_memory = |batches: fn(&Running) -> &[Batch]| {
            cell(memory.and_then(|m| ratio(batches(target), batches(m))), 2)
        };
        let to_baseline = |batches: fn(&Running) -> &[Batch]| {
            if target.build == THIS_BUILD {
                cell(baseline.and_then(|b| ratio(batches(target), batches(b))), 2)
            } else {
                "–".to_owned()
            }
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} |",
            target.store.label(),
            target.build,
            cell(rps, 0),
            to_memory(sent),
            to_baseline(sent),
            if is_peer(target.build) {
                cell(
                    ours.and_then(|o| ratio(&o.send_batches, &target.send_batches)),
                    2,
                )
            } else {
                "–".to_owned()
            },
            millis(percentile(&latencies, 0.50)),
            millis(percentile(&latencies, 0.99)),
            cell(spread(streamed_events[position].clone()), 0),
            to_memory(streamed),
            to_baseline(streamed),
            match &target.store {
                Store::Memory => "0".to_owned(),
                Store::Sqlite if is_peer(target.build) => "–".to_owned(),
                Store::Postgres { .. } => cell(spread(target.commits.clone()), 2),
                Store::Sqlite => "see the cost test".to_owned(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_round_gives_each_target_one_turn_and_predecessors_change() {
        let targets = 5;
        let mut followed: Vec<std::collections::HashSet<usize>> = vec![Default::default(); targets];
        for round in 0..4 {
            let order: Vec<usize> = (0..targets)
                .map(|turn| turn_position(round, turn, targets))
                .collect();
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                (0..targets).collect::<Vec<_>>(),
                "round {round}: {order:?}"
            );
            for pair in order.windows(2) {
                followed[pair[1]].insert(pair[0]);
            }
        }
        // Each target came right after both of its neighbours, not always after the same one.
        for (target, before) in followed.iter().enumerate() {
            assert_eq!(before.len(), 2, "target {target} followed {before:?}");
        }
    }

    /// A configuration with no process behind it, whose batches of 100 calls took `millis` each
    /// (its streamed batches the same, in the other order).
    fn measured(store: Store, build: &'static str, millis: &[u64]) -> Running {
        let batches = |millis: &mut dyn Iterator<Item = &u64>| -> Vec<Batch> {
            millis
                .map(|&ms| Batch {
                    calls: 100,
                    elapsed: Duration::from_millis(ms),
                    ..Batch::default()
                })
                .collect()
        };
        Running {
            store,
            build,
            clients: Vec::new(),
            _servers: Vec::new(),
            file: None,
            postgres: None,
            send_batches: batches(&mut millis.iter()),
            streamed_batches: batches(&mut millis.iter().rev()),
            commits: Vec::new(),
            tasks: Vec::new(),
            listing_early: None,
        }
    }

    #[test]
    fn two_replicas_are_compared_with_one_of_the_same_build_batch_by_batch() {
        let running = vec![
            measured(
                Store::Postgres { replicas: 1 },
                THIS_BUILD,
                &[100, 200, 400],
            ),
            // A peer on one replica, slower: never the one compared with.
            measured(
                Store::Postgres { replicas: 1 },
                PYTHON_SDK,
                &[900, 900, 900],
            ),
            measured(
                Store::Postgres { replicas: 2 },
                THIS_BUILD,
                &[200, 200, 200],
            ),
        ];
        // SendMessage: 0.5, 1.0 and 2.0 in the three rounds; streamed (reversed): 2.0, 1.0, 0.5.
        assert_eq!(
            replicas_line(&running).as_deref(),
            Some(
                "PostgreSQL, 2 replicas over 1 (this build), batch by batch: \
                 SendMessage 1.00 (0.50–2.00), streamed events 1.00 (0.50–2.00)"
            )
        );
        assert_eq!(replicas_line(&running[..2]), None);
    }
}
