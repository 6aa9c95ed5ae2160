//! [`GroupWriter`]: the hot writes of a store (a task created with its execution's record or
//! already ended, a task's update with its events, an execution's record ended) handed to one writer that commits
//! those queued together in one transaction (group commit). A store whose database gains from it
//! (SQLite: one writer at a time, whose commits are its cost) has one;
//! the others write these themselves.
//!
//! Durability is unchanged: a caller is answered only once the transaction holding its write has
//! committed.

use std::time::Duration;

use a2a_server::auth::Owner;
use a2a_server::store::StoreError;
use async_trait::async_trait;

use crate::columns::TaskColumns;
use crate::record::RecordColumns;

/// An update of a task at the version it was read at, with the events it logs. Only a group
/// writer reads it, and only SQLite has one: a build without SQLite makes it and never reads it.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
pub(crate) struct TaskUpdate<'a> {
    pub(crate) owner: &'a Owner,
    pub(crate) task_id: &'a str,
    pub(crate) columns: &'a TaskColumns,
    pub(crate) expected_version: i64,
    /// The events' ProtoJSON texts, each logged under the next version, in order.
    pub(crate) events: &'a [String],
    pub(crate) now: i64,
    /// An execution's record written in the same write (a message continuing the task).
    pub(crate) record: Option<&'a RecordColumns>,
}

/// What an update wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Updated {
    /// The task's new version.
    pub(crate) version: i64,
    /// Whether push deliveries were queued with the events.
    pub(crate) queued: bool,
}

/// Writes of one store, committed in groups (see the [module docs](self)).
#[async_trait]
pub(crate) trait GroupWriter: Send + Sync + std::fmt::Debug {
    /// Inserts the owner's new task at version 1 and, with `record`, its execution's record;
    /// `false` (nothing written) when the id is taken.
    async fn create(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &TaskColumns,
        record: Option<&RecordColumns>,
    ) -> Result<bool, StoreError>;

    /// Inserts the owner's new task at `version`, its event log pruned through it (a task the
    /// agent ended before its first write); `false` (nothing written) when the id is taken.
    async fn create_at_version(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &TaskColumns,
        version: i64,
    ) -> Result<bool, StoreError>;

    /// Writes `update`; `None` (nothing written) when the task is not at the expected version or
    /// not the owner's.
    async fn update(&self, update: TaskUpdate<'_>) -> Result<Option<Updated>, StoreError>;

    /// Records the owner's execution of task `task_id`, replacing an earlier record.
    async fn record_execution(
        &self,
        owner: &Owner,
        task_id: &str,
        record: &RecordColumns,
    ) -> Result<(), StoreError>;

    /// Removes the record of task `task_id`'s execution if `lease_token` still holds it.
    async fn finish_execution(&self, task_id: &str, lease_token: &str) -> Result<(), StoreError>;

    /// Tasks that are over expire once unchanged for `age` (the store's retention policy;
    /// `None`: never): the writer removes them in step with its writes.
    fn expire_after(&self, age: Option<Duration>);
}
