//! What the decode budget costs: `a2a_protocol::limits::Limits::check_json` (the counting pre-scan)
//! against a2a-types' typed JSON decode of the same document, and
//! `a2a_proto::limits::Limits::check_binary` against a2a-proto's binary decode, on the payloads of the
//! ratio table. Timed in CPU time with the two sides alternating in short batches, median of the
//! rounds, as `ratios` does; the ratio is the share a budget adds to the decode it guards.
//!
//! `cargo bench --manifest-path benchmarks/Cargo.toml --bench budget`; `ROUNDS` (default 15) and
//! `BATCH_MS` (default 3) tune the effort.

use std::hint::black_box;

use a2a_benchmarks::{Kind, thread_cpu_nanos};
use a2a_proto::limits::{CheckBinary as _, Limits as BinaryLimits};
use a2a_protocol::limits::Limits;
use prost::Message as _;
use serde::de::DeserializeOwned;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn time(n: u64, work: &dyn Fn()) -> u64 {
    let start = thread_cpu_nanos();
    for _ in 0..n {
        work();
    }
    thread_cpu_nanos() - start
}

/// The median ratio of `work` to `baseline` over alternating batches, and the baseline's time per call.
fn ratio(baseline: &dyn Fn(), work: &dyn Fn()) -> (f64, f64) {
    let batch = env("BATCH_MS", 3) * 1_000_000;
    let mut n = 1;
    while time(n, baseline) < batch / 4 {
        n *= 2;
    }
    let per_call = time(n, baseline) as f64 / n as f64;
    let n = ((batch as f64 / per_call) as u64).max(1);
    let mut ratios: Vec<f64> = (0..env("ROUNDS", 15))
        .map(|round| {
            let (base, other) = if round % 2 == 0 {
                let base = time(n, baseline);
                (base, time(n, work))
            } else {
                let other = time(n, work);
                (time(n, baseline), other)
            };
            other as f64 / base as f64
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    (ratios[ratios.len() / 2], per_call)
}

fn rows<T: DeserializeOwned, P: prost::Message + prost::Name + Default + DeserializeOwned>(
    name: &str,
    json: &str,
) {
    let limits = Limits::default();
    let elements = limits.check_json(json.as_bytes()).unwrap();
    let (json_ratio, json_time) = ratio(
        &|| {
            black_box(a2a_types::json::from_str::<T>(black_box(json)).unwrap());
        },
        &|| {
            black_box(limits.check_json(black_box(json.as_bytes())).unwrap());
        },
    );
    let bytes = a2a_proto::json::from_str::<P>(json).unwrap().encode_to_vec();
    let binary_limits = BinaryLimits::default();
    let fields = binary_limits.check_binary::<P>(&bytes).unwrap();
    let (binary_ratio, binary_time) = ratio(
        &|| {
            black_box(P::decode(black_box(bytes.as_slice())).unwrap());
        },
        &|| {
            black_box(binary_limits.check_binary::<P>(black_box(&bytes)).unwrap());
        },
    );
    println!(
        "| {name} | {elements} | {json_ratio:.2} of {:.1} µs | {fields} | {binary_ratio:.2} of {:.1} µs |",
        json_time / 1000.0,
        binary_time / 1000.0
    );
}

fn main() {
    println!("| payload | JSON values | check_json / typed JSON decode | protobuf fields | check_binary / binary decode |");
    println!("|---|---|---|---|---|");
    use a2a_proto::v1 as proto;
    use a2a_types::v1 as types;
    for payload in a2a_benchmarks::payloads() {
        let json = payload.json.as_str();
        match payload.kind {
            Kind::Message => rows::<types::Message, proto::Message>(&payload.name, json),
            Kind::Task => rows::<types::Task, proto::Task>(&payload.name, json),
            Kind::AgentCard => rows::<types::AgentCard, proto::AgentCard>(&payload.name, json),
            Kind::StreamResponse => {
                rows::<types::StreamResponse, proto::StreamResponse>(&payload.name, json)
            }
        }
    }
}
