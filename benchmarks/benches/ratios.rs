//! The ratio table of the workspace's `PERFORMANCE.md`: every comparison of `cases`, timed in CPU time
//! with the two sides alternating in short batches (baseline first on even rounds, contender first on
//! odd ones), so drift in the machine's load hits both alike. Prints the median ratio of the rounds and
//! their spread (lowest–highest).
//!
//! `cargo bench --manifest-path benchmarks/Cargo.toml --bench ratios [-- FILTER]`; `ROUNDS` (default
//! 15) and `BATCH_MS` (default 3) tune the effort. FILTER keeps the rows whose operation, payload or
//! contender contains it.

mod cases;

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let batch_nanos: u64 = std::env::var("BATCH_MS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        * 1_000_000;
    println!("| operation | payload | contender | baseline | ratio (median) | spread (min–max) |");
    println!("|---|---|---|---|---|---|");
    for case in cases::all() {
        let row = format!("{} {} {}", case.operation, case.payload, case.contender);
        if !filter.iter().all(|f| row.contains(f.as_str())) {
            continue;
        }
        // Calibrate: enough iterations that a baseline batch takes about `batch_nanos`.
        let mut n = 1;
        while (case.baseline)(n) < batch_nanos / 4 {
            n *= 2;
        }
        let per_call = (case.baseline)(n) as f64 / n as f64;
        let n = ((batch_nanos as f64 / per_call) as u64).max(1);
        (case.work)(n);
        let mut ratios: Vec<f64> = (0..rounds)
            .map(|round| {
                let (base, work) = if round % 2 == 0 {
                    let base = (case.baseline)(n);
                    (base, (case.work)(n))
                } else {
                    let work = (case.work)(n);
                    ((case.baseline)(n), work)
                };
                work as f64 / base as f64
            })
            .collect();
        ratios.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {} | {} {:.1} µs | {:.2} | {:.2}–{:.2} |",
            case.operation,
            case.payload,
            case.contender,
            case.baseline_name,
            per_call / 1000.0,
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1],
        );
    }
}
