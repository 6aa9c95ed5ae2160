//! The per-key state of the limits: request rates ([`RateTable`], governor's keyed GCRA with a
//! bound on the keys it keeps) and streams open ([`StreamCounts`], a count per key while it has any).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::limits::Rate;

/// How often a full table is swept for callers gone quiet (a sweep walks the whole table).
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// A table entry: a key of its own, or the budget newcomers share while the table is full.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Tracked<K> {
    Key(K),
    Overflow,
}

/// Requests per key, at most `max` keys kept.
pub(crate) struct RateTable<K: Clone + Eq + Hash> {
    limiter: DefaultKeyedRateLimiter<Tracked<K>>,
    clock: DefaultClock,
    max: usize,
    last_sweep: Mutex<Instant>,
}

impl<K: Clone + Eq + Hash> RateTable<K> {
    pub(crate) fn new(rate: Rate, max: usize) -> Self {
        let quota = Quota::per_second(rate.per_second).allow_burst(rate.burst);
        RateTable {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
            max: max.max(1),
            last_sweep: Mutex::new(Instant::now()),
        }
    }

    /// Counts one request of `key`: `Err` with how long until it would be accepted when `key` is
    /// over its rate.
    pub(crate) fn check(&self, key: &K) -> Result<(), Duration> {
        let tracked = if self.has_room() {
            Tracked::Key(key.clone())
        } else {
            Tracked::Overflow
        };
        self.limiter
            .check_key(&tracked)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Whether one more key fits, after dropping the quiet ones (at most once per [`SWEEP_EVERY`]).
    fn has_room(&self) -> bool {
        if self.limiter.len() < self.max {
            return true;
        }
        let mut last = self
            .last_sweep
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if last.elapsed() >= SWEEP_EVERY {
            *last = Instant::now();
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.len() < self.max
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.limiter.len()
    }
}

/// Streams open per key, each key capped; a key is kept only while it has streams open.
#[derive(Debug)]
pub(crate) struct StreamCounts<K: Clone + Eq + Hash> {
    cap: usize,
    open: Mutex<HashMap<K, usize>>,
}

/// One open stream of a key; dropping it frees the slot.
#[derive(Debug)]
pub(crate) struct StreamSlot<K: Clone + Eq + Hash> {
    counts: Arc<StreamCounts<K>>,
    key: K,
}

impl<K: Clone + Eq + Hash> StreamCounts<K> {
    pub(crate) fn new(cap: usize) -> Arc<Self> {
        Arc::new(StreamCounts {
            cap,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more stream of `key`, or `None` when it has `cap` open.
    pub(crate) fn take(self: &Arc<Self>, key: &K) -> Option<StreamSlot<K>> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key.clone()).or_insert(0);
        if *count >= self.cap {
            if *count == 0 {
                open.remove(key);
            }
            return None;
        }
        *count += 1;
        Some(StreamSlot {
            counts: self.clone(),
            key: key.clone(),
        })
    }

    pub(crate) fn cap(&self) -> usize {
        self.cap
    }
}

impl<K: Clone + Eq + Hash> Drop for StreamSlot<K> {
    fn drop(&mut self) {
        let mut open = self
            .counts
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use super::*;

    fn one_a_second() -> Rate {
        Rate::per_second(NonZeroU32::MIN)
    }

    #[test]
    fn a_key_over_its_rate_is_told_when_to_come_back_and_others_are_not_held_up() {
        let table = RateTable::new(one_a_second(), 10);
        assert!(table.check(&"a").is_ok());
        let wait = table
            .check(&"a")
            .expect_err("a second request within the second");
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
        assert!(table.check(&"b").is_ok());
    }

    #[test]
    fn a_full_table_puts_newcomers_in_one_shared_budget() {
        let table = RateTable::new(one_a_second(), 2);
        assert!(table.check(&1).is_ok());
        assert!(table.check(&2).is_ok());
        assert!(
            table.check(&3).is_ok(),
            "the first newcomer takes the shared budget"
        );
        assert!(table.check(&4).is_err(), "the next one shares it");
        assert!(table.len() <= 3);
    }

    #[test]
    fn stream_slots_are_counted_per_key_and_given_back() {
        let counts = StreamCounts::new(1);
        let first = counts.take(&"a").expect("room");
        assert!(counts.take(&"a").is_none());
        assert!(counts.take(&"b").is_some());
        drop(first);
        assert!(counts.take(&"a").is_some());
        assert!(counts.open.lock().unwrap().is_empty());
    }
}
