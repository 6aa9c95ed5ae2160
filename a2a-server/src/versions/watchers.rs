//! The watch channels of the tasks someone in this process watches, shared by every bus: the
//! in-process [`InMemoryVersionBus`](crate::versions::InMemoryVersionBus) is this map alone, and a
//! bus across replicas (such as a2a-spec-server-sql's PostgreSQL bus) feeds the versions it hears
//! of into one.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::watch;

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

    /// The newest version published since the subscription (0 before any).
    pub fn latest(&self) -> u64 {
        *self.0.borrow()
    }
}

/// One `watch` channel per watched task, bounded by the tasks being watched: a channel nobody
/// watches any more goes at the next publish to its task or the next subscription.
#[derive(Debug, Default)]
pub struct VersionWatchers {
    channels: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl VersionWatchers {
    /// No task watched.
    pub fn new() -> Self {
        VersionWatchers::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        // Every change is one map operation, so a panic elsewhere leaves a usable map.
        self.channels
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Wakes the watchers of `task_id`, now at `version`.
    ///
    /// The watched value only grows: a task's versions never go backwards, but their
    /// announcements may arrive out of order (two writers in this process publish after their
    /// writes in whichever order they finish; a replica's notification may come after this
    /// process's own publish of a later version). Only a version above the highest one
    /// announced wakes the watchers: a late, lower or repeated announcement (a replica bus
    /// hearing its own notification back) costs no stream a read of the log, and never sets a
    /// value that says the task is older than it is.
    pub fn publish(&self, task_id: &str, version: u64) {
        let mut channels = self.lock();
        if let Some(sender) = channels.get(task_id) {
            if sender.receiver_count() == 0 {
                channels.remove(task_id);
            } else {
                // A version already known wakes no one: a replica bus hears its own
                // announcements back, and its streams have read those versions already.
                sender.send_if_modified(|seen| {
                    let newer = version > *seen;
                    *seen = (*seen).max(version);
                    newer
                });
            }
        }
    }

    /// Wakes every watcher without a new version: each reads its task's log again (after a
    /// replica bus missed announcements while disconnected).
    pub fn wake_all(&self) {
        let mut channels = self.lock();
        channels.retain(|_, sender| sender.receiver_count() > 0);
        for sender in channels.values() {
            sender.send_modify(|_| {});
        }
    }

    /// Watches `task_id`'s versions.
    pub fn subscribe(&self, task_id: &str) -> VersionWatch {
        let mut channels = self.lock();
        // Channels nobody watches any more go whenever a new one comes, so the map holds at most
        // the watched tasks plus those left since the last subscription.
        channels.retain(|_, sender| sender.receiver_count() > 0);
        let sender = channels
            .entry(task_id.to_owned())
            .or_insert_with(|| watch::channel(0).0);
        VersionWatch::new(sender.subscribe())
    }

    /// How many tasks have a channel (for tests of boundedness).
    pub fn watched(&self) -> usize {
        self.lock().len()
    }
}
