//! The contract between the server and a bus of task versions: what the server announces after
//! each write, and what a stream waits on.

use super::watchers::{HandedEvent, VersionWatch, WritingHere};

/// Tells streams that a task moved on (its log holds events they have not sent).
pub trait VersionBus: Send + Sync + 'static {
    /// Task `task_id` is now at `version` (its log holds the event that produced it).
    fn publish(&self, task_id: &str, version: u64);

    /// Watches a task's version: [`VersionWatch::changed`] resolves after each later publish.
    fn subscribe(&self, task_id: &str) -> VersionWatch;

    /// Whether streams in this process watch `task_id`, so that events written to it are worth
    /// handing to them ([`publish_events`](Self::publish_events)). The default: never.
    fn watched_here(&self, _task_id: &str) -> bool {
        false
    }

    /// Marks a write to `task_id` in flight in this process, which will
    /// [`publish_events`](Self::publish_events) before the guard drops: a bus that hears of
    /// versions from outside the process holds them back meanwhile (see [`WritingHere`]). The
    /// default (a bus that hears only this process): `None`.
    fn writing_here(&self, _task_id: &str) -> Option<WritingHere> {
        None
    }

    /// [`publish`](Self::publish) of the last of `events`, events this process has just written
    /// to `task_id` under consecutive versions, oldest first; a bus that keeps its watchers in
    /// [`VersionWatchers`](super::VersionWatchers) hands the events to the task's streams, which
    /// then send them without reading them back from the store. The default announces the last
    /// version only.
    fn publish_events(&self, task_id: &str, events: Vec<HandedEvent>) {
        if let Some(last) = events.last() {
            self.publish(task_id, last.version());
        }
    }
}
