//! What the stores forget, and when: [`RetentionPolicy`] (what one pruning pass removes; the stores'
//! `prune`), the policy every store runs by default ([`RetentionPolicy::recommended`], every
//! [`RETENTION_INTERVAL`]), and the guard that ties that background pass, and SQLite's file lock, to
//! the store's lifetime ([`StoreGuard`]).

use std::fs::File;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::task::AbortHandle;

/// What `prune` (of [`SqliteStore`](crate::SqliteStore) or `PostgresStore`) removes; every part is
/// optional, and [`RetentionPolicy::new`] prunes nothing. The stores run
/// [`recommended`](RetentionPolicy::recommended) from the moment they open, unless told otherwise
/// with `with_retention`.
///
/// A stream whose client is further behind than the events kept ends (the server's rule for a
/// bounded log), and the client resumes from the task's current state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetentionPolicy {
    /// Tasks that are over (completed, failed, canceled, rejected), with their events, push
    /// configs and deliveries, once unchanged for this long. With an age of 4 minutes or more,
    /// tasks go a slice at a time (the tasks made in a quarter of the age): up to
    /// a quarter of the age later than the age alone would say.
    pub terminal_tasks_after: Option<Duration>,
    /// Events logged longer ago than this (with every earlier event of the same task). Unlike the
    /// other parts, a pass with this one reads every task (the age is each event's).
    pub events_after: Option<Duration>,
    /// Events kept per task at most: the newest. A burst of events written together is kept
    /// together (one row of the log on PostgreSQL): while its newest are kept, its older ones
    /// stay too, so a log holds at most one burst less one event over this.
    pub max_events_per_task: Option<u64>,
    /// Push deliveries given up on (kept with their reason, for operators to read), once given up
    /// this long ago.
    pub given_up_deliveries_after: Option<Duration>,
}

/// How often the stores run their retention policy by default (5 minutes).
pub const RETENTION_INTERVAL: Duration = Duration::from_secs(5 * 60);

impl RetentionPolicy {
    /// A policy that prunes nothing yet.
    pub fn new() -> Self {
        RetentionPolicy::default()
    }

    /// What the stores run unless told otherwise: tasks over for 7 days go (with their events,
    /// configs and deliveries), a task keeps its newest 1,000 events, and deliveries given up a day
    /// ago go. Long enough for a client to come back for its result; short enough that a store
    /// written to for months does not grow with every task it ever ran.
    pub fn recommended() -> Self {
        RetentionPolicy::new()
            .terminal_tasks_after(Duration::from_secs(7 * 24 * 60 * 60))
            .max_events_per_task(1_000)
            .given_up_deliveries_after(Duration::from_secs(24 * 60 * 60))
    }

    /// Also removes tasks that have been over for `age`.
    pub fn terminal_tasks_after(mut self, age: Duration) -> Self {
        self.terminal_tasks_after = Some(age);
        self
    }

    /// Also removes events older than `age`.
    pub fn events_after(mut self, age: Duration) -> Self {
        self.events_after = Some(age);
        self
    }

    /// Also keeps at most `count` events per task.
    pub fn max_events_per_task(mut self, count: u64) -> Self {
        self.max_events_per_task = Some(count);
        self
    }

    /// Also removes deliveries given up on `age` ago.
    pub fn given_up_deliveries_after(mut self, age: Duration) -> Self {
        self.given_up_deliveries_after = Some(age);
        self
    }
}

/// What the database's own part of a pass did
/// ([`Dialect::expire_slices`](crate::Dialect::expire_slices)): the slices of tasks it dropped
/// whole, those it will drop later, and those whose expired tasks go row by row.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SliceExpiry {
    /// Tasks removed with the slices dropped.
    pub(crate) removed: u64,
    /// The ids the row-by-row expiry leaves alone (from, up to): slices to be dropped whole
    /// later; `None` when there are none.
    pub(crate) kept: Option<(String, String)>,
    /// Slices past the cutoff left for a task not expired (SQLite's; PostgreSQL's row-by-row
    /// expiry reads every partition): their expired tasks go row by row.
    pub(crate) row_by_row: Vec<crate::slices::TaskTables>,
}

/// What one pruning pass removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PruneReport {
    /// Tasks removed (with their events and configs).
    pub tasks: u64,
    /// Events removed from tasks that remain.
    pub events: u64,
    /// Given-up deliveries removed (of tasks that remain).
    pub given_up_deliveries: u64,
}

/// What lives as long as the last clone of a store: SQLite's file lock, and the background
/// retention pass (stopped when the guard goes, so a dropped store stops pruning).
#[derive(Debug, Default)]
pub(crate) struct StoreGuard {
    /// Held, never read: the lock lasts as long as the file is open.
    _file_lock: Option<File>,
    retention: Mutex<Option<(RetentionPolicy, Duration, AbortHandle)>>,
}

impl StoreGuard {
    pub(crate) fn with_lock(file_lock: Option<File>) -> Self {
        StoreGuard {
            _file_lock: file_lock,
            retention: Mutex::default(),
        }
    }

    /// Makes `pass` (pruning by a policy every so often) the store's retention pass, stopping the
    /// one before.
    pub(crate) fn replace_retention(&self, pass: Option<(RetentionPolicy, Duration, AbortHandle)>) {
        let mut current = self
            .retention
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((_, _, previous)) = std::mem::replace(&mut *current, pass) {
            previous.abort();
        }
    }

    /// The policy the retention pass prunes by, and how often.
    pub(crate) fn retention(&self) -> Option<(RetentionPolicy, Duration)> {
        let current = self
            .retention
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        current.as_ref().map(|(policy, every, _)| (*policy, *every))
    }
}
