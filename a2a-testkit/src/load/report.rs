//! The figures of the alternating batches, summarised: per operation, binding and server, the median
//! of the batches' requests per second with their spread (lowest–highest batch), the ratio of ours
//! to each other server batch by batch (median and spread), and p50/p99 latency over every call;
//! printed as a Markdown table, ready for `PERFORMANCE.md`.

use std::time::Duration;

use super::batches::{Batch, Op};
use super::targets::Kind;
use a2a_client::Binding;

/// Every batch of one operation over one binding against one server.
pub struct Cell {
    pub op: Op,
    pub binding: Binding,
    pub kind: Kind,
    pub batches: Vec<Batch>,
}

impl Cell {
    pub fn errors(&self) -> usize {
        self.batches.iter().map(|b| b.errors).sum()
    }

    pub fn calls(&self) -> usize {
        self.batches.iter().map(|b| b.calls).sum()
    }

    fn rps(&self) -> Vec<f64> {
        self.batches.iter().map(Batch::rps).collect()
    }

    /// p50 and p99 latency over every successful call of every batch.
    fn percentiles(&self) -> Option<(Duration, Duration)> {
        latency_percentiles(&self.batches)
    }
}

/// p50 and p99 latency over every successful call of `batches` (`None` without one).
pub fn latency_percentiles(batches: &[Batch]) -> Option<(Duration, Duration)> {
    let mut all: Vec<Duration> = batches
        .iter()
        .flat_map(|b| b.latencies.iter().copied())
        .collect();
    all.sort_unstable();
    Some((percentile(&all, 0.50)?, percentile(&all, 0.99)?))
}

/// The nearest-rank percentile of sorted values.
pub(crate) fn percentile(sorted: &[Duration], fraction: f64) -> Option<Duration> {
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len().max(1)) - 1).copied()
}

/// Median, lowest and highest (`None` for no values).
pub fn spread(mut values: Vec<f64>) -> Option<(f64, f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    let median = if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    };
    Some((median, values[0], values[values.len() - 1]))
}

/// Ours over `theirs`, batch by batch (the batches ran side by side, alternating).
fn ratio(ours: &Cell, theirs: &Cell) -> Option<(f64, f64, f64)> {
    let pairs = ours.batches.iter().zip(&theirs.batches);
    spread(pairs.map(|(o, t)| o.rps() / t.rps().max(1e-9)).collect())
}

fn rps_text(cell: Option<&Cell>) -> String {
    match cell.and_then(|c| spread(c.rps())) {
        Some((median, low, high)) => format!("{median:.0} ({low:.0}–{high:.0})"),
        None => "–".into(),
    }
}

fn ratio_text(ours: Option<&Cell>, theirs: Option<&Cell>) -> String {
    match ours.zip(theirs).and_then(|(o, t)| ratio(o, t)) {
        Some((median, low, high)) => format!("{median:.2}x ({low:.2}–{high:.2})"),
        None => "–".into(),
    }
}

fn latency_text(cell: Option<&Cell>) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    match cell.and_then(Cell::percentiles) {
        Some((p50, p99)) => format!("{:.1} / {:.1}", ms(p50), ms(p99)),
        None => "–".into(),
    }
}

/// The table of every cell: one row per operation and binding.
pub fn table(cells: &[Cell]) -> String {
    let find = |op: Op, binding: Binding, kind: Kind| {
        cells
            .iter()
            .find(|c| c.op == op && c.binding == binding && c.kind == kind)
    };
    let mut out = String::from(
        "| operation | binding | rps ours | rps Python SDK | rps a2a-server-lf | ours / Python SDK | \
         ours / a2a-server-lf | p50 / p99 ms ours | Python SDK | a2a-server-lf |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for op in Op::ALL {
        for binding in Binding::ALL {
            let [ours, python, rust] =
                [Kind::Ours, Kind::PythonSdk, Kind::RustSdk].map(|k| find(op, binding, k));
            out.push_str(&format!(
                "| {} | {binding} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                op.label(),
                rps_text(ours),
                rps_text(python),
                rps_text(rust),
                ratio_text(ours, python),
                ratio_text(ours, rust),
                latency_text(ours),
                latency_text(python),
                latency_text(rust),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank_and_spreads_take_the_median() {
        let ms = Duration::from_millis;
        let sorted: Vec<Duration> = (1..=100).map(ms).collect();
        assert_eq!(percentile(&sorted, 0.50), Some(ms(50)));
        assert_eq!(percentile(&sorted, 0.99), Some(ms(99)));
        assert_eq!(percentile(&[ms(7)], 0.99), Some(ms(7)));
        assert_eq!(percentile(&[], 0.5), None);
        assert_eq!(spread(vec![3.0, 1.0, 2.0]), Some((2.0, 1.0, 3.0)));
        assert_eq!(spread(vec![4.0, 1.0, 2.0, 3.0]), Some((2.5, 1.0, 4.0)));
    }
}
