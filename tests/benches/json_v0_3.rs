//! Speed of reading and writing A2A v0.3 JSON-RPC documents with `a2a_compat::v0_3`, against
//! `serde_json::Value` on the same document as the baseline (figures are ratios). The unions read
//! through a buffered `Value` to pick their variant, so this is what that costs.
//!
//! `cargo bench -p a2a-tests --bench json_v0_3`. Documents: `tests/fixtures/v0_3/`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

fn fixture(name: &str) -> String {
    let path = format!("{}/fixtures/v0_3/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("fixture")
}

macro_rules! bench_document {
    ($c:expr, $name:literal, $types:ty) => {{
        let text = fixture($name);
        let mut group = $c.benchmark_group(concat!("v0_3/parse/", $name));
        group.bench_function("serde_json::Value (baseline)", |b| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap())
        });
        group.bench_function("a2a-types v0_3", |b| {
            b.iter(|| serde_json::from_str::<$types>(black_box(&text)).unwrap())
        });
        group.finish();

        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let types: $types = serde_json::from_str(&text).unwrap();
        let mut group = $c.benchmark_group(concat!("v0_3/write/", $name));
        group.bench_function("serde_json::Value (baseline)", |b| {
            b.iter(|| serde_json::to_vec(black_box(&value)).unwrap())
        });
        group.bench_function("a2a-types v0_3", |b| {
            b.iter(|| serde_json::to_vec(black_box(&types)).unwrap())
        });
        group.finish();
    }};
}

fn json(c: &mut Criterion) {
    bench_document!(c, "AgentCard", a2a_compat::v0_3::AgentCard);
    bench_document!(c, "Task", a2a_compat::v0_3::Task);
    bench_document!(
        c,
        "SendStreamingMessageResponse",
        a2a_compat::v0_3::SendStreamingMessageResponse
    );
}

criterion_group!(benches, json);
criterion_main!(benches);
