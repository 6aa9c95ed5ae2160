//! A mutation fuzzer on stable Rust for every decoder, conversion and parser of the workspace.
//!
//! ```sh
//! cargo fuzz-run --budget 60 [TARGET...]     # 60 s per target (all targets when none is named)
//! cargo fuzz-run --list                      # the targets
//! ```
//!
//! Each target starts from a seed corpus (the workspace's fixtures, and their protobuf binary form)
//! and runs mutated inputs ([`mutate`]) through one entry point, checking its invariants: no panic and
//! no hang (an input slower than [`SLOW`] is a finding), and, for what decodes, that the value
//! re-encodes and decodes to itself and that conversions keep what they claim to keep
//! ([`targets`]). An input that grows the set of distinct outcomes (error messages, with numbers and
//! quoted text blanked) joins the corpus: a cheap stand-in for coverage feedback that steers the
//! mutations past the first errors. Findings are written to `target/fuzz-findings/` and make the run
//! fail; each one becomes a regression test.

mod mutate;
mod targets;

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// An input that takes longer than this is reported as a hang (debug builds included).
const SLOW: Duration = Duration::from_secs(2);
/// Inputs longer than this are cut: every target's cost is meant to be linear, and this keeps the
/// executions per second up.
const MAX_INPUT: usize = 64 * 1024;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut budget = Duration::from_secs(10);
    let mut seed = None;
    let mut names = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--budget" => {
                let value = args.next().unwrap_or_default();
                let seconds: f64 = value.trim_end_matches('s').parse().unwrap_or(-1.0);
                if seconds <= 0.0 {
                    eprintln!("--budget takes seconds, such as 60 or 60s");
                    return ExitCode::from(2);
                }
                budget = Duration::from_secs_f64(seconds);
            }
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()),
            "--list" => {
                for target in targets::ALL {
                    println!("{:<16} {}", target.name, target.about);
                }
                return ExitCode::SUCCESS;
            }
            name => names.push(name.to_owned()),
        }
    }
    let chosen: Vec<&targets::Target> = if names.is_empty() {
        targets::ALL.iter().collect()
    } else {
        let mut chosen = Vec::new();
        for name in &names {
            match targets::ALL.iter().find(|t| t.name == name) {
                Some(target) => chosen.push(target),
                None => {
                    eprintln!("unknown target {name:?}; `--list` prints the targets");
                    return ExitCode::from(2);
                }
            }
        }
        chosen
    };
    let seed = seed.unwrap_or_else(|| fastrand::u64(..));
    // Findings are reported once each, shortened, by `run`; the default hook would print every panic.
    std::panic::set_hook(Box::new(|_| {}));
    println!("seed {seed}, {} s per target", budget.as_secs_f64());
    let mut findings = 0;
    for target in chosen {
        findings += run(target, budget, seed);
    }
    if findings == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "{findings} finding(s), inputs in {}",
            findings_dir().display()
        );
        ExitCode::FAILURE
    }
}

fn findings_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("fuzz-findings")
}

/// Runs one target for `budget`; returns the number of findings.
fn run(target: &targets::Target, budget: Duration, seed: u64) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed ^ fxhash(target.name));
    let mut corpus = (target.seeds)();
    assert!(!corpus.is_empty(), "{}: no seeds", target.name);
    let mut outcomes = HashSet::new();
    let mut findings = 0;
    let mut executions = 0u64;
    let started = Instant::now();
    // Seeds first, unmutated, then mutations until the budget is spent.
    let mut pending: Vec<Vec<u8>> = corpus.clone();
    while started.elapsed() < budget && findings < 5 {
        let input = pending.pop().unwrap_or_else(|| {
            let base = &corpus[rng.usize(..corpus.len())];
            let other = &corpus[rng.usize(..corpus.len())];
            let mut input = mutate::mutate(&mut rng, base, other);
            input.truncate(MAX_INPUT);
            input
        });
        let begun = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let took = begun.elapsed();
        executions += 1;
        let problem = match outcome {
            Err(panic) => Some(panic_message(&panic).chars().take(600).collect()),
            Ok(_) if took > SLOW => Some(format!("slow: {took:?} for {} bytes", input.len())),
            Ok(outcome) => {
                if outcomes.insert(outcome) && corpus.len() < 4096 {
                    corpus.push(input.clone());
                }
                None
            }
        };
        if let Some(problem) = problem {
            findings += 1;
            let dir = findings_dir();
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("{}-{executions}.bin", target.name));
            let _ = std::fs::write(&file, &input);
            println!(
                "FINDING {}: {problem}\n  input ({} bytes) in {}: {:?}",
                target.name,
                input.len(),
                file.display(),
                String::from_utf8_lossy(&input[..input.len().min(300)])
            );
        }
    }
    println!(
        "{:<16} {executions:>9} executions in {:>5.1} s, corpus {:>4}, outcomes {:>4}, findings {findings}",
        target.name,
        started.elapsed().as_secs_f64(),
        corpus.len(),
        outcomes.len(),
    );
    findings
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "panic".to_owned())
}

/// A stable hash of the target's name, so each target gets its own random sequence from one seed.
fn fxhash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
