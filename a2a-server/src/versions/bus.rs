//! The contract between the server and a bus of task versions: what the server announces after
//! each write, and what a stream waits on.

use super::watchers::VersionWatch;

/// Tells streams that a task moved on (its log holds events they have not sent).
pub trait VersionBus: Send + Sync + 'static {
    /// Task `task_id` is now at `version` (its log holds the event that produced it).
    fn publish(&self, task_id: &str, version: u64);

    /// Watches a task's version: [`VersionWatch::changed`] resolves after each later publish.
    fn subscribe(&self, task_id: &str) -> VersionWatch;
}
