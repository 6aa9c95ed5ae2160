//! [`settle`]: waiting for the machine to go quiet before a measured batch. The servers of a load run
//! share the machine, and some may go on working after their batch has been answered (a database
//! vacuuming or writing back what it committed, the kernel flushing a store's file, a runtime's
//! tasks winding down); the next batch, whoever it measures, would pay for that work. The store
//! benchmark waits before each batch and reports how long the waits were and whether each ended
//! quiet, so a run says whether its batches began on an idle machine.

use std::time::{Duration, Instant};

/// The machine counts as quiet once the share of its CPU time spent busy over one [`WINDOW`] is at
/// most this.
pub const QUIET_SHARE: f64 = 0.15;

/// How long each look at the machine's CPU lasts.
pub const WINDOW: Duration = Duration::from_millis(50);

/// Waits until the machine's CPUs were busy at most [`QUIET_SHARE`] of one [`WINDOW`], or `at_most`
/// has passed; how long it waited, and whether the machine went quiet. Without `/proc/stat` (not
/// Linux) it returns at once, quiet.
pub async fn settle(at_most: Duration) -> (Duration, bool) {
    let started = Instant::now();
    let Some(mut before) = cpu_times() else {
        return (Duration::ZERO, true);
    };
    loop {
        tokio::time::sleep(WINDOW).await;
        let Some(now) = cpu_times() else {
            return (started.elapsed(), true);
        };
        let (busy, total) = (now.0 - before.0, now.1 - before.1);
        if total > 0 && busy as f64 <= QUIET_SHARE * total as f64 {
            return (started.elapsed(), true);
        }
        if started.elapsed() >= at_most {
            return (started.elapsed(), false);
        }
        before = now;
    }
}

/// The machine's busy and total CPU time so far, in clock ticks, from the `cpu` line of
/// `/proc/stat` (idle and waiting on I/O count as not busy).
fn cpu_times() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    busy_and_total(stat.lines().next()?)
}

/// Busy and total ticks of a `/proc/stat` `cpu` line.
fn busy_and_total(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: Vec<u64> = fields.map(|f| f.parse().ok()).collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice], guests already in user.
    let idle = ticks.get(3)? + ticks.get(4).copied().unwrap_or(0);
    let total: u64 = ticks.iter().take(8).sum();
    Some((total - idle, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_line_is_read_as_busy_and_total_ticks() {
        let line = "cpu  100 5 50 800 40 3 2 0 0 0";
        assert_eq!(busy_and_total(line), Some((160, 1000)));
        assert_eq!(busy_and_total("cpu0 1 2 3 4"), None);
        assert_eq!(busy_and_total("cpu 1 x 3 4"), None);
    }

    #[tokio::test]
    async fn an_idle_wait_ends_within_its_bound() {
        let (waited, _) = settle(Duration::from_millis(200)).await;
        // One window past the bound at most, however busy the machine is.
        assert!(
            waited < Duration::from_millis(200) + 3 * WINDOW,
            "{waited:?}"
        );
    }
}
