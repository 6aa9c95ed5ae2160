//! The bus of one process: the versions the server publishes go straight to the watchers of this
//! process.

use super::bus::VersionBus;
use super::watchers::{HandedEvent, VersionWatch, VersionWatchers};

/// The bus of one process: a `watch` channel per task that someone watches.
#[derive(Debug, Default)]
pub struct InMemoryVersionBus {
    watchers: VersionWatchers,
}

impl InMemoryVersionBus {
    /// An empty bus.
    pub fn new() -> Self {
        InMemoryVersionBus::default()
    }

    /// How many tasks are watched (for tests of boundedness).
    pub fn watched(&self) -> usize {
        self.watchers.watched()
    }
}

impl VersionBus for InMemoryVersionBus {
    fn publish(&self, task_id: &str, version: u64) {
        self.watchers.publish(task_id, version);
    }

    fn subscribe(&self, task_id: &str) -> VersionWatch {
        self.watchers.subscribe(task_id)
    }

    fn watched_here(&self, task_id: &str) -> bool {
        self.watchers.watched_here(task_id)
    }

    fn publish_events(&self, task_id: &str, events: Vec<HandedEvent>) {
        self.watchers.publish_events(task_id, events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_watcher_sees_the_latest_version_and_the_bus_forgets_unwatched_tasks() {
        let bus = InMemoryVersionBus::new();
        let mut watch = bus.subscribe("t");
        bus.publish("t", 3);
        bus.publish("t", 4);
        assert!(watch.changed().await);
        assert_eq!(watch.latest(), 4);
        drop(watch);
        bus.publish("t", 5);
        assert_eq!(bus.watched(), 0);
    }
}
