//! A loop of one operation on one benchmark document, for a profiler (`perf record -g`):
//! `cargo run --profile bench --manifest-path benchmarks/Cargo.toml --example profile -- OPERATION PAYLOAD [SECONDS | n=CALLS]`
//! with OPERATION one of `types-decode`, `proto-decode`, `types-encode` (the generated encoders),
//! `types-serde-encode` (the same bytes through `Serialize`), `proto-encode`, `convert`,
//! `binary-decode`, `value-decode`, `value-encode` (`convert` clones its input each time, so that
//! counts too) and PAYLOAD a word of a payload's name (`message`, `task`, `card`, `event`, `long`,
//! `large`; `v0.3 stream` and `v0.3 task` for the v0.3 documents, whose only operations are
//! `types-decode` and `value-decode`). It prints the CPU time per call.
//!
//! On a busy machine CPU time moves by tens of percent; instruction counts do not. With `n=CALLS` the
//! loop makes exactly that many calls, so the instructions of one call are the difference of two runs
//! under `valgrind --tool=cachegrind --cache-sim=no` (`n=0` and, say, `n=200`), divided by the calls;
//! `cg_diff` of the two outputs gives them per function.

use std::hint::black_box;
use std::time::{Duration, Instant};

use a2a_benchmarks::{Kind, Payload, thread_cpu_nanos};

/// How long to loop: for a time, or (`n=COUNT`) a fixed number of calls, for an instruction count
/// under `valgrind --tool=cachegrind` (deterministic where CPU time on a shared machine is not).
enum Budget {
    Time(Duration),
    Calls(u64),
}

fn run<T, P>(operation: &str, payload: &Payload, budget: Budget)
where
    T: serde::de::DeserializeOwned + serde::Serialize + a2a_types::json::WriteJson + Clone,
    P: serde::de::DeserializeOwned + serde::Serialize + prost::Message + Default + From<T>,
{
    let json = payload.json.as_str();
    let types: T = serde_json::from_str(json).expect("a2a-types reads the payload");
    let proto: P = a2a_proto::json::from_str(json).expect("a2a-proto reads the payload");
    let value: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let bytes = proto.encode_to_vec();
    let start = Instant::now();
    let cpu_start = thread_cpu_nanos();
    let mut iterations = 0u64;
    let (time, calls, chunk) = match budget {
        Budget::Time(time) => (time, u64::MAX, 64),
        Budget::Calls(calls) => (Duration::MAX, calls, 1),
    };
    while start.elapsed() < time && iterations < calls {
        for _ in 0..chunk {
            match operation {
                "types-decode" => drop(black_box(serde_json::from_str::<T>(black_box(json)))),
                "proto-decode" => drop(black_box(a2a_proto::json::from_str::<P>(black_box(json)))),
                "value-decode" => drop(black_box(serde_json::from_str::<serde_json::Value>(
                    black_box(json),
                ))),
                "types-encode" => drop(black_box(a2a_types::json::to_vec(black_box(&types)))),
                "types-serde-encode" => drop(black_box(serde_json::to_vec(black_box(&types)))),
                "proto-encode" => drop(black_box(a2a_proto::json::to_string(black_box(&proto)))),
                "value-encode" => drop(black_box(serde_json::to_vec(black_box(&value)))),
                "convert" => drop(black_box(P::from(black_box(types.clone())))),
                "binary-decode" => drop(black_box(P::decode(black_box(&bytes[..])))),
                other => panic!("unknown operation {other}"),
            }
        }
        iterations += chunk;
    }
    let per_call = (thread_cpu_nanos() - cpu_start) as f64 / iterations.max(1) as f64;
    println!(
        "{operation} {}: {:.2} µs CPU per call",
        payload.name,
        per_call / 1000.0
    );
}

/// The loop of [`run`] for a v0.3 document, read as `T` (`types-decode`) or as `Value`.
fn run_v0_3<T: serde::de::DeserializeOwned>(operation: &str, payload: &Payload, budget: Budget) {
    let json = payload.json.as_str();
    serde_json::from_str::<T>(json).expect("a2a-types reads the v0.3 payload");
    let cpu_start = thread_cpu_nanos();
    let start = Instant::now();
    let mut iterations = 0u64;
    let (time, calls) = match budget {
        Budget::Time(time) => (time, u64::MAX),
        Budget::Calls(calls) => (Duration::MAX, calls),
    };
    while start.elapsed() < time && iterations < calls {
        match operation {
            "types-decode" => drop(black_box(serde_json::from_str::<T>(black_box(json)))),
            "value-decode" => drop(black_box(serde_json::from_str::<serde_json::Value>(
                black_box(json),
            ))),
            other => panic!("unknown v0.3 operation {other}"),
        }
        iterations += 1;
    }
    let per_call = (thread_cpu_nanos() - cpu_start) as f64 / iterations.max(1) as f64;
    println!(
        "{operation} {}: {:.2} µs CPU per call",
        payload.name,
        per_call / 1000.0
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [operation, wanted, rest @ ..] = &args[..] else {
        panic!("usage: profile OPERATION PAYLOAD [SECONDS]");
    };
    let budget = match rest.first().map(String::as_str) {
        None => Budget::Time(Duration::from_secs(5)),
        Some(calls) if calls.starts_with("n=") => Budget::Calls(calls[2..].parse().expect("calls")),
        Some(seconds) => Budget::Time(Duration::from_secs_f64(seconds.parse().expect("seconds"))),
    };
    if wanted.starts_with("v0.3") {
        let payloads = a2a_benchmarks::v0_3_payloads();
        let payload = payloads
            .iter()
            .find(|p| p.name.contains(wanted.as_str()))
            .expect("a v0.3 payload of that name");
        return match payload.kind {
            Kind::StreamResponse => run_v0_3::<a2a_compat::v0_3::SendStreamingMessageResponse>(
                operation, payload, budget,
            ),
            _ => run_v0_3::<a2a_compat::v0_3::Task>(operation, payload, budget),
        };
    }
    let payloads = a2a_benchmarks::payloads();
    let payload = payloads
        .iter()
        .find(|p| p.name.contains(wanted.as_str()))
        .expect("a payload of that name");
    use a2a_proto::v1 as proto;
    use a2a_types::v1 as types;
    match payload.kind {
        Kind::Message => run::<types::Message, proto::Message>(operation, payload, budget),
        Kind::Task => run::<types::Task, proto::Task>(operation, payload, budget),
        Kind::AgentCard => run::<types::AgentCard, proto::AgentCard>(operation, payload, budget),
        Kind::StreamResponse => {
            run::<types::StreamResponse, proto::StreamResponse>(operation, payload, budget)
        }
    }
}
