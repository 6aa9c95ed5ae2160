//! The store's retention: the policy it prunes by in the background, set and read, and the
//! pass that prunes.

use std::time::Duration;

use crate::columns::now_micros;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::retention::RetentionPolicy;

use super::SqlStore;

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// The store pruning by `policy` every `every` (the first pass one `every` from now) for as long
    /// as it (any clone) lives, instead of
    /// the policy it ran before (a store opens running [`RetentionPolicy::recommended`] every
    /// [`RETENTION_INTERVAL`](crate::RETENTION_INTERVAL)); `None` keeps everything.
    ///
    /// The slices the policy's tasks go to are made at once, not at the first pass: the tasks
    /// written before the first slice begins can only expire one by one.
    #[must_use]
    pub fn with_retention(self, policy: Option<RetentionPolicy>, every: Duration) -> Self {
        self.retaining(policy, every, true)
    }

    /// [`with_retention`](Self::with_retention) for the policy a store opens with: its slices are
    /// left to its first pass, so that a policy set right after opening (the usual case) makes
    /// the first slices, of its own width, while no pass of the one it replaces is at work.
    pub(crate) fn opened_with_retention(self, policy: RetentionPolicy, every: Duration) -> Self {
        self.retaining(Some(policy), every, false)
    }

    fn retaining(
        self,
        policy: Option<RetentionPolicy>,
        every: Duration,
        slices_now: bool,
    ) -> Self {
        if let Some(guard) = &self.guard {
            let pass = policy.map(|policy| {
                let unguarded = SqlStore {
                    pool: self.pool.clone(),
                    writer: self.writer.clone(),
                    shared: self.shared.clone(),
                    guard: None,
                };
                let first = tokio::time::Instant::now() + every;
                let pass = unguarded.spawn_retention_from(policy, first, every, slices_now);
                (policy, every, pass.abort_handle())
            });
            guard.replace_retention(pass);
            if let Some(group) = self.shared.group.get() {
                group.expire_after(policy.and_then(|policy| policy.terminal_tasks_after));
            }
        }
        self
    }

    /// The policy this store prunes by in the background, and how often; `None` when it keeps
    /// everything.
    pub fn retention(&self) -> Option<(RetentionPolicy, Duration)> {
        self.guard.as_ref().and_then(|guard| guard.retention())
    }

    /// Prunes by `policy` every `every` until the returned handle is aborted (failures are logged).
    pub fn spawn_retention(
        &self,
        policy: RetentionPolicy,
        every: Duration,
    ) -> tokio::task::JoinHandle<()> {
        self.spawn_retention_from(policy, tokio::time::Instant::now(), every, false)
    }

    /// Prunes by `policy` at `first` and every `every` after it; when `slices_now`, first makes
    /// the slices the tasks to come go to (and drops those expired), before the first pass.
    fn spawn_retention_from(
        &self,
        policy: RetentionPolicy,
        first: tokio::time::Instant,
        every: Duration,
        slices_now: bool,
    ) -> tokio::task::JoinHandle<()> {
        let store = self.clone();
        tokio::spawn(async move {
            if let (true, Some(age)) = (slices_now, policy.terminal_tasks_after) {
                let now_ms = now_micros() / 1_000;
                match D::expire_slices(&store.pool, &store.writer, &store.shared.slices, now_ms, age, every).await {
                    Ok(expiry) => tracing::debug!(?expiry, "made the task store's slices"),
                    Err(error) => tracing::warn!(%error, "making the task store's slices failed"),
                }
            }
            let mut ticks = tokio::time::interval_at(first, every);
            loop {
                ticks.tick().await;
                match store.prune_every(&policy, every).await {
                    Ok(report) => tracing::debug!(?report, "pruned the task store"),
                    Err(error) => tracing::warn!(%error, "pruning the task store failed"),
                }
            }
        })
    }
}
}
