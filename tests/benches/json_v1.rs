//! Speed of reading and writing A2A v1 JSON with each crate, against `serde_json::Value` on the same
//! document as the baseline (so figures are ratios, comparable across machines).
//!
//! `cargo bench -p a2a-tests --bench json_v1`. Documents: the `AgentCard` and `Task` fixtures.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message as _;

fn fixture(name: &str) -> String {
    let path = format!("{}/fixtures/v1/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("fixture")
}

macro_rules! bench_document {
    ($c:expr, $name:literal, $types:ty, $proto:ty) => {{
        let text = fixture($name);
        let mut group = $c.benchmark_group(concat!("parse/", $name));
        group.bench_function("serde_json::Value (baseline)", |b| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap())
        });
        group.bench_function("a2a-types", |b| {
            b.iter(|| serde_json::from_str::<$types>(black_box(&text)).unwrap())
        });
        group.bench_function("a2a-proto", |b| {
            b.iter(|| serde_json::from_str::<$proto>(black_box(&text)).unwrap())
        });
        group.finish();

        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let types: $types = serde_json::from_str(&text).unwrap();
        let proto: $proto = serde_json::from_str(&text).unwrap();
        let mut group = $c.benchmark_group(concat!("write/", $name));
        group.bench_function("serde_json::Value (baseline)", |b| {
            b.iter(|| serde_json::to_vec(black_box(&value)).unwrap())
        });
        group.bench_function("a2a-types", |b| {
            b.iter(|| serde_json::to_vec(black_box(&types)).unwrap())
        });
        group.bench_function("a2a-proto", |b| {
            b.iter(|| serde_json::to_vec(black_box(&proto)).unwrap())
        });
        group.bench_function("a2a-proto binary", |b| {
            b.iter(|| black_box(&proto).encode_to_vec())
        });
        group.finish();

        let bytes = proto.encode_to_vec();
        let mut group = $c.benchmark_group(concat!("convert/", $name));
        group.bench_function("a2a-proto binary decode", |b| {
            b.iter(|| <$proto>::decode(black_box(bytes.as_slice())).unwrap())
        });
        group.bench_function("a2a-types -> a2a-proto", |b| {
            b.iter(|| <$proto>::from(black_box(types.clone())))
        });
        group.bench_function("a2a-proto -> a2a-types", |b| {
            b.iter(|| <$types>::try_from(black_box(proto.clone())).unwrap())
        });
        group.finish();
    }};
}

fn json(c: &mut Criterion) {
    bench_document!(
        c,
        "AgentCard",
        a2a_types::v1::AgentCard,
        a2a_proto::v1::AgentCard
    );
    bench_document!(c, "Task", a2a_types::v1::Task, a2a_proto::v1::Task);
}

criterion_group!(benches, json);
criterion_main!(benches);
