//! The fan-out of task updates to streams: an [`EventBus`] says that a task has a new version; each
//! stream then reads the events it has not sent from the task store's log (see [`crate::store`]).
//!
//! Only the newest version travels on the bus (a `watch` per task, one value), never the events, so
//! the bus holds one number per watched task however slowly streams read: a stream that stops
//! reading holds its place in the log, not a queue of copies. A bus shared by replicas (a
//! database's notifications, say) implements the same two methods.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::watch;

/// Tells streams that a task moved on.
pub trait EventBus: Send + Sync + 'static {
    /// Task `task_id` is now at `version` (its log holds the event that produced it).
    fn publish(&self, task_id: &str, version: u64);

    /// Watches a task's version: [`VersionWatch::changed`] resolves after each later publish.
    fn subscribe(&self, task_id: &str) -> VersionWatch;
}

/// A subscription to one task's versions.
#[derive(Debug)]
pub struct VersionWatch(watch::Receiver<u64>);

impl VersionWatch {
    /// A subscription fed by a `watch` channel (for buses of other kinds).
    pub fn new(receiver: watch::Receiver<u64>) -> Self {
        VersionWatch(receiver)
    }

    /// Waits for a version not seen yet; `false` when the bus dropped the task.
    pub async fn changed(&mut self) -> bool {
        self.0.changed().await.is_ok()
    }
}

/// The bus of one process: a `watch` channel per task that someone watches.
#[derive(Debug, Default)]
pub struct InMemoryEventBus {
    channels: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl InMemoryEventBus {
    /// An empty bus.
    pub fn new() -> Self {
        InMemoryEventBus::default()
    }

    /// How many tasks are watched (for tests of boundedness).
    pub fn watched(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        self.channels
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl EventBus for InMemoryEventBus {
    fn publish(&self, task_id: &str, version: u64) {
        let mut channels = self.lock();
        if let Some(sender) = channels.get(task_id) {
            if sender.receiver_count() == 0 {
                channels.remove(task_id);
            } else {
                sender.send_replace(version);
            }
        }
    }

    fn subscribe(&self, task_id: &str) -> VersionWatch {
        let mut channels = self.lock();
        // Channels nobody watches any more go whenever a new one comes, so the map holds at most
        // the watched tasks plus those left since the last subscription.
        channels.retain(|_, sender| sender.receiver_count() > 0);
        let sender = channels
            .entry(task_id.to_owned())
            .or_insert_with(|| watch::channel(0).0);
        VersionWatch(sender.subscribe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_watcher_sees_the_latest_version_and_the_bus_forgets_unwatched_tasks() {
        let bus = InMemoryEventBus::new();
        let mut watch = bus.subscribe("t");
        bus.publish("t", 3);
        bus.publish("t", 4);
        assert!(watch.changed().await);
        assert_eq!(*watch.0.borrow(), 4);
        drop(watch);
        bus.publish("t", 5);
        assert_eq!(bus.watched(), 0);
    }
}
