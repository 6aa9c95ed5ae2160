//! The load test of an agent binary (`a2a-example-agent --load [--record] [PYTHON]` runs it on the
//! workspace's example agent, on the server crate), side by side with the official Python SDK's server
//! (`tests/interop/sdk_agent_server.py`) and, when built, the official Rust SDK's server
//! (`benchmarks/lf-agent` on `a2a-server-lf`), all answering the same requests on the same machine
//! in the same run, each in its own process.
//!
//! 1. **Alternating batches** ([`batches`]): for each batch round, operation (`SendMessage`; a
//!    streamed task) and binding, one short batch against each server in turn, the order rotating
//!    every round, [`batches::CONCURRENCY`] calls in flight. The table ([`report`]) gives the
//!    median requests per second with the spread over the batches, ours over each other server
//!    batch by batch, and p50/p99 latency. Throughput is reported, never asserted.
//! 2. **Lost tasks**: every task made is read back with `GetTask` over another binding.
//! 3. **Slow readers** ([`slow_readers`]): many concurrent streams with prompt, then stalled,
//!    readers, against ours and the Python SDK's server, each round on a fresh process: peak RSS of
//!    both, every update delivered, every task read back.
//!
//! It fails (non-zero exit) when our server answered an error, lost a task, went over
//! [`PEAK_RSS_LIMIT_MIB`], or grew with stalled readers by more than their backlog
//! ([`slow_readers::backlog_allowance_kib`]) beyond its growth with prompt readers. The other servers'
//! failures are printed, not asserted.
//!
//! Without `--record` it runs CI's short scale ([`Scale::CI`], meant for a debug build); with it, the
//! scale of the figures of record ([`Scale::RECORD`], for `--release`). The Python SDK's server needs
//! a Python with `tests/interop/requirements.txt` installed (the argument, or `A2A_INTEROP_PYTHON`);
//! without one its columns are left out, and under `CI=true` the test fails. The a2a-server-lf agent
//! is `A2A_LOAD_LF_AGENT`, else `benchmarks/target/release/a2a-lf-agent` when built
//! (`cargo build --release --manifest-path benchmarks/Cargo.toml -p a2a-lf-agent`).

pub mod batches;
pub mod listing;
pub mod profile;
pub mod report;
pub mod settle;
pub mod slow_readers;
pub mod steady;
pub mod store_peers;
pub mod stores;
pub mod targets;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use batches::Op;
use report::Cell;
use slow_readers::Round;
use targets::{Kind, Target, mib};

use a2a_client::Binding;

/// The most our server's resident set may reach over the alternating batches (it keeps every task
/// it made, up to about 10,000 small ones; a release build peaks near 30 MiB).
pub const PEAK_RSS_LIMIT_MIB: u64 = 128;
/// The longest the alternating batches may take in all, and each slow-reader round.
const PHASE_LIMIT: Duration = Duration::from_secs(600);

/// Pairs of slow-reader rounds (prompt, then stalled) ours runs: identical rounds differ by up to
/// about 12 MiB in peak RSS, as much as the backlog the check allows at CI's scale, so each side
/// needs three draws for the spread alone not to fail it (see `slow_reader_rounds`).
const SLOW_READER_PAIRS: usize = 3;

/// How much load one run puts on each server.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// Batch rounds (each runs every operation over every binding against every server).
    pub rounds: usize,
    /// Calls per batch of `SendMessage`.
    pub send_message_calls: usize,
    /// Calls per batch of streamed tasks.
    pub streamed_calls: usize,
    /// Concurrent streams of each slow-reader round.
    pub slow_streams: usize,
    /// How long a stalled reader stops reading.
    pub stall: Duration,
    /// Whether the Python SDK's server gets the slow-reader rounds too (they take it minutes).
    pub slow_peers: bool,
}

impl Scale {
    /// CI's short run (a debug build).
    pub const CI: Scale = Scale {
        rounds: 3,
        send_message_calls: 100,
        streamed_calls: 40,
        slow_streams: 400,
        stall: Duration::from_secs(2),
        slow_peers: false,
    };
    /// The figures of record (a release build).
    pub const RECORD: Scale = Scale {
        rounds: 8,
        send_message_calls: 300,
        streamed_calls: 100,
        slow_streams: 1000,
        stall: Duration::from_secs(5),
        slow_peers: true,
    };

    fn calls(&self, op: Op) -> usize {
        match op {
            Op::SendMessage => self.send_message_calls,
            Op::StreamedTask => self.streamed_calls,
        }
    }
}

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1")
}

/// The load commands on an agent's command line, `args` being what follows the program's name:
/// `--load [--record] [PYTHON]` runs [`main`] on `agent` at [`Scale::CI`] (with `--record`,
/// [`Scale::RECORD`]); `--load-profile AGENT [CALLS]` runs [`profile::main`];
/// `--load-stores [--record] [--baseline AGENT]` runs the store benchmark ([`stores`]). Returns the process
/// exit code, or `None` when `args` are neither.
pub async fn command_line(agent: &Path, args: &[&str]) -> Option<i32> {
    let (scale, python) = match args {
        ["--load-profile", profiled] => {
            profile::main(profiled, None).await;
            return Some(0);
        }
        ["--load-profile", profiled, calls] => {
            profile::main(profiled, Some(calls)).await;
            return Some(0);
        }
        ["--load"] => (Scale::CI, None),
        ["--load", "--record"] => (Scale::RECORD, None),
        ["--load", "--record", python] => (Scale::RECORD, Some(*python)),
        ["--load", python] => (Scale::CI, Some(*python)),
        ["--load-stores", ..] => return stores::command_line(agent, args).await,
        _ => return None,
    };
    Some(main(agent, scale, python).await)
}

/// Runs the load test of the agent binary `agent` at `scale` and prints its tables; returns the
/// process exit code (0: no error, no lost task, memory within its bounds). The agent is started as
/// `AGENT --listen 127.0.0.1:0 --store memory` and must print `listening on URL` when ready.
pub async fn main(agent: &Path, scale: Scale, python: Option<&str>) -> i32 {
    match run(agent, scale, python).await {
        Ok(()) => 0,
        Err(problem) => {
            println!("FAILED: {problem}");
            1
        }
    }
}

/// The programs of the other servers: (kind, program) for each one available.
fn peers(python: Option<&str>) -> Result<Vec<(Kind, PathBuf)>, String> {
    let python = python
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("A2A_INTEROP_PYTHON").map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty());
    let mut peers = Vec::new();
    match python {
        Some(python) => peers.push((Kind::PythonSdk, python)),
        None if on_ci() => {
            return Err(
                "CI is set but no Python for the SDK server was given (A2A_INTEROP_PYTHON)".into(),
            );
        }
        None => println!(
            "no Python with the SDK (A2A_INTEROP_PYTHON): the Python SDK columns are left out"
        ),
    }
    match targets::lf_agent_binary() {
        Some(binary) => peers.push((Kind::RustSdk, binary)),
        None => println!(
            "a2a-server-lf's agent is not built (benchmarks/lf-agent; A2A_LOAD_LF_AGENT): its columns are left out"
        ),
    }
    Ok(peers)
}

async fn run(agent: &Path, scale: Scale, python: Option<&str>) -> Result<(), String> {
    let peers = peers(python)?;
    println!(
        "load: {} rounds of alternating batches ({} SendMessage, {} streamed tasks per batch, {} in \
         flight) per binding and server; then {} concurrent streams with prompt and with stalled readers",
        scale.rounds,
        scale.send_message_calls,
        scale.streamed_calls,
        batches::CONCURRENCY,
        scale.slow_streams
    );
    let mut targets = vec![targets::start(Kind::Ours, Some(agent)).await?];
    for (kind, program) in &peers {
        targets.push(targets::start(*kind, Some(program)).await?);
    }
    let started = Instant::now();
    let (cells, created) = tokio::time::timeout(PHASE_LIMIT, alternate(&targets, scale))
        .await
        .map_err(|_| format!("the alternating batches took over {PHASE_LIMIT:?}"))?;
    println!(
        "alternating batches: {:.1} s\n",
        started.elapsed().as_secs_f32()
    );
    print!("{}", report::table(&cells));

    let mut problems = Vec::new();
    for (target, tasks) in targets.iter().zip(created) {
        let made = tasks.len();
        let (lost, first_lost) = batches::read_back(&target.clients, tasks).await;
        let errors: usize = cells
            .iter()
            .filter(|c| c.kind == target.kind)
            .map(Cell::errors)
            .sum();
        let calls: usize = cells
            .iter()
            .filter(|c| c.kind == target.kind)
            .map(Cell::calls)
            .sum();
        let warm_up_calls = target.clients.len() * Op::ALL.len() * WARM_UP_CALLS;
        let peak = target.memory_kib("VmHWM");
        println!(
            "{}: {calls} calls (and {warm_up_calls} to warm up), {errors} errors, {made} tasks made, \
             {lost} lost, peak RSS {}",
            target.kind.label(),
            mib(peak)
        );
        let first_errors = cells
            .iter()
            .filter(|c| c.kind == target.kind)
            .flat_map(|c| c.batches.iter().flat_map(|b| b.first_errors.iter()))
            .chain(&first_lost)
            .take(3)
            .cloned()
            .collect::<Vec<_>>();
        if target.kind != Kind::Ours {
            if errors + lost > 0 {
                println!("  note: {first_errors:?}");
            }
            continue;
        }
        if errors + lost > 0 || made != calls + warm_up_calls {
            problems.push(format!(
                "ours: {errors} errors, {lost} lost, {made} tasks for {calls} calls and \
                 {warm_up_calls} warm-up calls: {first_errors:?}"
            ));
        }
        match peak {
            Some(peak) if peak > PEAK_RSS_LIMIT_MIB * 1024 => problems.push(format!(
                "ours: peak RSS {} over the bound of {PEAK_RSS_LIMIT_MIB} MiB",
                mib(Some(peak))
            )),
            Some(_) => {}
            None if cfg!(target_os = "linux") => {
                problems.push("ours: the peak RSS could not be read".into())
            }
            None => println!("(peak RSS is read from /proc, which this system lacks: not checked)"),
        }
    }
    drop(targets);

    problems.extend(slow_reader_rounds(scale, agent, &peers).await?);
    if problems.is_empty() {
        println!("ok: no error, no task lost, memory within its bounds");
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Calls of the warm-up batch, per client and operation.
const WARM_UP_CALLS: usize = 8;

/// The alternating batches; the cells, and the tasks each target made (in `targets` order, the
/// warm-up's included).
async fn alternate(targets: &[Target], scale: Scale) -> (Vec<Cell>, Vec<Vec<String>>) {
    let mut cells = Vec::new();
    for op in Op::ALL {
        for binding in Binding::ALL {
            for target in targets.iter().filter(|t| t.client(binding).is_some()) {
                cells.push(Cell {
                    op,
                    binding,
                    kind: target.kind,
                    batches: Vec::new(),
                });
            }
        }
    }
    let mut created = vec![Vec::new(); targets.len()];
    let mut sequence = 0;
    // A warm-up batch per client (connections, caches), kept out of the figures.
    for (position, target) in targets.iter().enumerate() {
        for client in &target.clients {
            for op in Op::ALL {
                let warm_up = batches::run(client, op, WARM_UP_CALLS, sequence).await;
                sequence += WARM_UP_CALLS;
                created[position].extend(warm_up.tasks);
            }
        }
    }
    for round in 0..scale.rounds {
        for op in Op::ALL {
            for binding in Binding::ALL {
                // Side by side: the servers take turns, the first one rotating each round.
                for turn in 0..targets.len() {
                    let position = (round + turn) % targets.len();
                    let Some(client) = targets[position].client(binding) else {
                        continue;
                    };
                    let calls = scale.calls(op);
                    let mut batch = batches::run(client, op, calls, sequence).await;
                    sequence += calls;
                    created[position].append(&mut batch.tasks);
                    let kind = targets[position].kind;
                    if let Some(cell) = cells
                        .iter_mut()
                        .find(|c| c.op == op && c.binding == binding && c.kind == kind)
                    {
                        cell.batches.push(batch);
                    }
                }
            }
        }
    }
    (cells, created)
}

/// Prompt and stalled readers against ours and the Python SDK's server; the problems of ours.
async fn slow_reader_rounds(
    scale: Scale,
    agent: &Path,
    peers: &[(Kind, PathBuf)],
) -> Result<Vec<String>, String> {
    let mut servers = vec![(Kind::Ours, Some(agent))];
    servers.extend(
        peers
            .iter()
            .filter(|(kind, _)| scale.slow_peers && *kind == Kind::PythonSdk)
            .map(|(kind, program)| (*kind, Some(program.as_path()))),
    );
    println!(
        "\nslow readers: {} concurrent streams of {} artifact updates ({} KiB of text each), spread \
         over the bindings; stalled readers stop for {:?} after the first event",
        scale.slow_streams,
        crate::behaviour::table::PROGRESS_UPDATES,
        slow_readers::TEXT_PER_STREAM / 1024,
        scale.stall
    );
    println!(
        "\n| server | readers | streams complete | errors | lost | done at resume | backlog | RSS at start | peak RSS | growth | time |\n\
         |---|---|---|---|---|---|---|---|---|---|---|"
    );
    if !scale.slow_peers {
        println!(
            "(at this scale only ours gets the slow-reader rounds; --record adds the Python SDK's server)"
        );
    }
    let mut problems = Vec::new();
    for (kind, program) in servers {
        // Peak RSS differs by several MiB between identical rounds (allocator arenas, how many
        // streams are in flight at the peak): ours gets `SLOW_READER_PAIRS` of rounds, alternating, and its
        // stalled readers are judged by their smallest growth against the prompt readers' largest.
        let pairs = if kind == Kind::Ours {
            SLOW_READER_PAIRS
        } else {
            1
        };
        let mut rounds = Vec::new();
        for _ in 0..pairs {
            for stall in [None, Some(scale.stall)] {
                let round =
                    slow_readers::round(kind, program, scale.slow_streams, stall, PHASE_LIMIT)
                        .await?;
                print_round(kind, &round);
                rounds.push(round);
            }
        }
        if kind != Kind::Ours {
            for round in rounds.iter().filter(|r| !r.first_problems.is_empty()) {
                println!("  note: {:?}", round.first_problems);
            }
            continue;
        }
        for round in &rounds {
            if round.complete != round.streams || round.errors + round.lost > 0 {
                problems.push(format!(
                    "ours, {} readers: {} of {} streams complete, {} errors, {} lost: {:?}",
                    if round.stalled { "stalled" } else { "prompt" },
                    round.complete,
                    round.streams,
                    round.errors,
                    round.lost,
                    round.first_problems
                ));
            }
        }
        let growths = |stalled: bool| {
            rounds
                .iter()
                .filter(|r| r.stalled == stalled)
                .map(Round::growth_kib)
                .collect::<Option<Vec<u64>>>()
        };
        match (growths(false), growths(true)) {
            (Some(prompt), Some(stalled)) => {
                let allowance = rounds
                    .iter()
                    .filter(|r| r.stalled)
                    .map(slow_readers::backlog_allowance_kib)
                    .min()
                    .unwrap_or(0);
                let largest_prompt = prompt.iter().copied().max().unwrap_or(0);
                let smallest_stalled = stalled.iter().copied().min().unwrap_or(0);
                let extra = smallest_stalled.saturating_sub(largest_prompt);
                println!(
                    "ours with stalled readers grew {} more than with prompt readers (the least of \
                     {} stalled rounds against the most of {} prompt ones; allowed: the backlog, {})",
                    mib(Some(extra)),
                    stalled.len(),
                    prompt.len(),
                    mib(Some(allowance))
                );
                if extra > allowance {
                    problems.push(format!(
                        "ours grew {} more with stalled readers, over their backlog ({})",
                        mib(Some(extra)),
                        mib(Some(allowance))
                    ));
                }
            }
            _ if cfg!(target_os = "linux") => problems.push("ours: RSS could not be read".into()),
            _ => {}
        }
    }
    Ok(problems)
}

fn print_round(kind: Kind, round: &Round) {
    println!(
        "| {} | {} | {} of {} | {} | {} | {} | {:.1} MiB | {} | {} | {} | {:.1} s |",
        kind.label(),
        if round.stalled { "stalled" } else { "prompt" },
        round.complete,
        round.streams,
        round.errors,
        round.lost,
        if round.stalled {
            format!("{} of {}", round.done_at_resume, round.streams)
        } else {
            "–".into()
        },
        round.backlog_bytes as f64 / (1024.0 * 1024.0),
        mib(round.rss_start_kib),
        mib(round.rss_peak_kib),
        mib(round.growth_kib()),
        round.elapsed.as_secs_f32()
    );
}
