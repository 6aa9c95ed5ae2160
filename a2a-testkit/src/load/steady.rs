//! The steady-state round of the store benchmark ([`super::stores`]): one store taking
//! `SendMessage` in back-to-back batches until it holds more tasks than its capacity (the memory
//! store keeps 10,000 and evicts the oldest finished one for each new one), and its throughput at
//! the end of the round against the start: a store whose eviction or growth costs more as it fills
//! shows as a ratio under 1 (the target is at least 0.9).

use super::batches::Batch;

/// How long the steady-state round runs on each store.
#[derive(Clone, Copy, Debug)]
pub struct SteadyScale {
    /// Back-to-back batches.
    pub batches: usize,
    /// `SendMessage` calls per batch.
    pub calls_per_batch: usize,
    /// Batches at each end of the round that are compared.
    pub compared: usize,
}

impl SteadyScale {
    /// CI's short round, on the memory store only: 12,000 tasks, past its 10,000.
    pub const CI: SteadyScale = SteadyScale {
        batches: 12,
        calls_per_batch: 1000,
        compared: 2,
    };
    /// The round of record, on every store: 100,000 tasks, ten times the memory store's capacity
    /// and the size the listing is measured at after it ([`super::listing`]). Each end compared is
    /// 20,000 tasks, over a second on every store: ends of five batches lasted about 300 ms on the
    /// memory store, and a pause of another process moved its ratio anywhere from 0.75 to 1.6
    /// between runs.
    pub const RECORD: SteadyScale = SteadyScale {
        batches: 100,
        calls_per_batch: 1000,
        compared: 20,
    };
}

/// `SendMessage`/s over the first and the last `compared` batches of a round, and the last over
/// the first; `None` when the round has too few batches to compare.
pub fn first_and_last(batches: &[Batch], compared: usize) -> Option<(f64, f64, f64)> {
    if compared == 0 || batches.len() < 2 * compared {
        return None;
    }
    let rate = |part: &[Batch]| {
        let calls: usize = part.iter().map(|b| b.calls).sum();
        let seconds: f64 = part.iter().map(|b| b.elapsed.as_secs_f64()).sum();
        calls as f64 / seconds.max(1e-9)
    };
    let first = rate(&batches[..compared]);
    let last = rate(&batches[batches.len() - compared..]);
    Some((first, last, last / first.max(1e-9)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn batch(calls: usize, millis: u64) -> Batch {
        Batch {
            calls,
            elapsed: Duration::from_millis(millis),
            ..Batch::default()
        }
    }

    #[test]
    fn compares_the_ends_of_the_round() {
        let batches = [
            batch(100, 100),
            batch(100, 100),
            batch(100, 150),
            batch(100, 200),
        ];
        let (first, last, ratio) = first_and_last(&batches, 1).unwrap();
        assert_eq!((first.round(), last.round()), (1000.0, 500.0));
        assert!((ratio - 0.5).abs() < 1e-9);
        assert!(first_and_last(&batches, 3).is_none());
    }
}
