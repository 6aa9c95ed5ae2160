//! [`OutboxHint`]: whether the push outbox may hold anything this process could claim, so the
//! claims the server makes after every logged event do not each cost a statement.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

/// Whether claiming may find anything, so a claim that cannot is not sent: the server wakes its
/// outbox worker after every event it logs, and most tasks have no push config. A claim goes to
/// the database when this process queued deliveries (or put one back to retry) since its last
/// claim, when that claim found any (more may be due; what it took comes back if its lease
/// ends), or when the last one is
/// [`OutboxHint::RECHECK`] old or more (the worker's timed polls: retries coming due, deliveries
/// other replicas queued, leases of a stopped replica run out).
#[derive(Debug, Default)]
pub(crate) struct OutboxHint {
    /// Deliveries queued (or left) since the last claim.
    pending: AtomicBool,
    /// When the database was last asked, as microseconds since the epoch (0: never).
    last_claim_micros: AtomicI64,
}

impl OutboxHint {
    /// A claim older than this is made again whatever the hint says.
    const RECHECK: Duration = Duration::from_millis(500);

    /// Deliveries were queued.
    pub(crate) fn queued(&self) {
        self.pending.store(true, Ordering::Release);
    }

    /// Whether a claim now should ask the database; if so, it is counted as asked.
    pub(crate) fn should_claim(&self, now: i64) -> bool {
        let recent = now.saturating_sub(self.last_claim_micros.load(Ordering::Acquire))
            < i64::try_from(Self::RECHECK.as_micros()).unwrap_or(i64::MAX);
        if recent && !self.pending.swap(false, Ordering::AcqRel) {
            return false;
        }
        self.pending.store(false, Ordering::Release);
        self.last_claim_micros.store(now, Ordering::Release);
        true
    }
}
