//! ListTasks as a store fills, for the store benchmark ([`super::stores`]): the latency of the
//! first page (the agent's default page size, no filter: the one caller's whole listing, the
//! largest any caller has) taken once early in the run and once after the steady-state round, when
//! the store holds many more tasks. Each sample is a few sequential calls, so it times the store's
//! listing and not a queue; the later one over the earlier one says how the listing's cost grows
//! with the tasks held (the target: within 2x from 1,000 to 100,000 tasks). The number held
//! is the answer's own `totalSize`, so a store that evicts (memory keeps 10,000) shows what it kept.

use std::time::{Duration, Instant};

use a2a_client::A2aClient;
use a2a_types::v1::ListTasksRequest;

use super::report::percentile;

/// Sequential ListTasks calls per sample.
pub const CALLS: usize = 25;

/// One sample: the tasks the store held, and the median and 90th-percentile latency of the first
/// page.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub held: i64,
    pub p50: Duration,
    pub p90: Duration,
}

/// [`CALLS`] ListTasks calls one after the other; the sample, or what went wrong.
pub async fn sample(client: &A2aClient) -> Result<Sample, String> {
    let mut latencies = Vec::with_capacity(CALLS);
    let mut held = 0;
    for _ in 0..CALLS {
        let started = Instant::now();
        let page = client
            .list_tasks(ListTasksRequest::default())
            .await
            .map_err(|e| format!("ListTasks: {e}"))?;
        latencies.push(started.elapsed());
        held = i64::from(page.total_size);
    }
    latencies.sort_unstable();
    match (percentile(&latencies, 0.5), percentile(&latencies, 0.9)) {
        (Some(p50), Some(p90)) => Ok(Sample { held, p50, p90 }),
        _ => Err("ListTasks: no call was timed".into()),
    }
}

/// The table row of one store: tasks held and latency early and late, and late over early.
pub fn row(label: &str, early: Sample, late: Sample) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "| {label} | {} | {:.2} / {:.2} ms | {} | {:.2} / {:.2} ms | {:.2} |",
        early.held,
        ms(early.p50),
        ms(early.p90),
        late.held,
        ms(late.p50),
        ms(late.p90),
        ms(late.p50) / ms(early.p50).max(1e-6)
    )
}

/// The table's header.
pub const HEADER: &str = "| store | tasks held, early | ListTasks p50 / p90, early | tasks held, late \
     | ListTasks p50 / p90, late | late ÷ early (p50) |\n|---|---|---|---|---|---|";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_gives_late_over_early() {
        let early = Sample {
            held: 1_000,
            p50: Duration::from_micros(500),
            p90: Duration::from_micros(700),
        };
        let late = Sample {
            held: 100_000,
            p50: Duration::from_millis(5),
            p90: Duration::from_millis(6),
        };
        let row = row("SQLite", early, late);
        assert_eq!(
            row,
            "| SQLite | 1000 | 0.50 / 0.70 ms | 100000 | 5.00 / 6.00 ms | 10.00 |"
        );
    }
}
