//! Criterion benchmarks of every comparison in `cases` (a group per operation and payload, the
//! baseline first), timed in the thread's CPU time.
//!
//! `cargo bench --manifest-path benchmarks/Cargo.toml --bench speed [-- FILTER]`. For the ratio table
//! with alternating batches, see `benches/ratios.rs`.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

mod cases;

fn speed(c: &mut Criterion<a2a_benchmarks::CpuTime>) {
    let all = cases::all();
    let mut seen_baselines = std::collections::HashSet::new();
    for case in &all {
        let mut group = c.benchmark_group(format!("{}/{}", case.operation, case.payload));
        if seen_baselines.insert((case.operation, case.payload.clone(), case.baseline_name)) {
            let baseline = case.baseline.clone();
            group.bench_function(format!("{} (baseline)", case.baseline_name), |b| {
                b.iter_custom(|n| baseline(n))
            });
        }
        let work = case.work.clone();
        group.bench_function(case.contender, |b| b.iter_custom(|n| work(n)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .with_measurement(a2a_benchmarks::CpuTime)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = speed
}
criterion_main!(benches);
