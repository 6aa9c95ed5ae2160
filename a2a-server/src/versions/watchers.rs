//! The watch channels of the tasks someone in this process watches, shared by every bus: the
//! in-process [`InMemoryVersionBus`](crate::versions::InMemoryVersionBus) is this map alone, and a
//! bus across replicas (such as a2a-spec-server-sql's PostgreSQL bus) feeds the versions it hears
//! of into one.
//!
//! Besides the newest version, a task's channel keeps the events this process wrote to it last
//! ([`HandedEvent`]s, see [`crate::versions`]), so that its streams need not read back from the
//! store what was written beside them.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};

use tokio::sync::watch;

use crate::core::owner_quota::HeldBytes;
use crate::store::StoredEvent;

/// The most events a task's channel keeps for its streams (one page of a stream's log read).
const RECENT_EVENTS: usize = 64;
/// The most bytes of events a task's channel keeps (as the byte ledgers count them).
pub(crate) const RECENT_BYTES: usize = 64 * 1024;

/// An event this process has just written, handed to its task's streams in this process with the
/// version it produced; it holds its room in the owner's ledger of handed-over events while a
/// channel keeps it.
#[derive(Debug)]
pub struct HandedEvent {
    stored: StoredEvent,
    bytes: usize,
    _room: HeldBytes,
}

impl HandedEvent {
    /// `stored`, of `bytes`, kept in the room `room` holds.
    pub(crate) fn new(stored: StoredEvent, bytes: usize, room: HeldBytes) -> Self {
        HandedEvent {
            stored,
            bytes,
            _room: room,
        }
    }

    /// The version the event produced.
    pub fn version(&self) -> u64 {
        self.stored.id
    }
}

/// What a task's channel holds.
#[derive(Debug, Default)]
struct Announced {
    /// The highest version announced.
    version: u64,
    /// How many times every watcher was woken without a version (a replica bus that may have
    /// missed announcements): a stream reads the store after each.
    wakes: u64,
    /// Events this process wrote, oldest first, their versions consecutive: any two of them
    /// have no other version between them, so a stream that sent the version before the first
    /// may send them all without reading the store.
    recent: VecDeque<HandedEvent>,
    recent_bytes: usize,
    /// Writes to the task in flight in this process ([`WritingHere`]s alive): while there are
    /// any, versions heard from elsewhere wait in `heard`.
    writing: usize,
    /// The highest version heard from elsewhere while this process was writing.
    heard: u64,
}

impl Announced {
    /// Takes `events` (consecutive versions, oldest first) into the recent run: after it when
    /// they follow it, in its place when they do not (a gap, or another writer's events
    /// announced in another order), not at all when older than it.
    fn hand(&mut self, events: Vec<HandedEvent>) {
        let Some(first) = events.first().map(HandedEvent::version) else {
            return;
        };
        match self.recent.back().map(HandedEvent::version) {
            Some(back) if first <= back => return,
            Some(back) if first != back + 1 => self.forget_recent(),
            _ => {}
        }
        for event in events {
            self.recent_bytes += event.bytes;
            self.recent.push_back(event);
        }
        while self.recent.len() > RECENT_EVENTS || self.recent_bytes > RECENT_BYTES {
            match self.recent.pop_front() {
                Some(dropped) => self.recent_bytes -= dropped.bytes,
                None => break,
            }
        }
    }

    fn forget_recent(&mut self) {
        self.recent.clear();
        self.recent_bytes = 0;
    }

    /// Raises the version to `version`; whether that is news to the watchers.
    fn raise(&mut self, version: u64) -> bool {
        let newer = version > self.version;
        self.version = self.version.max(version);
        newer
    }
}

/// A write to a watched task in flight in this process, which will publish what it wrote with
/// its events ([`VersionWatchers::writing_here`]); versions of the task heard from elsewhere
/// wait until it drops, then wake the task's streams if they are still news.
///
/// Why: a database's notification of this very write can come back before the writer has
/// handed its events over; a stream woken by it would read back from the store the events it is
/// about to be handed. A version another process wrote meanwhile waits as long as the write
/// takes, which the store's timeouts bound.
#[derive(Debug)]
pub struct WritingHere {
    sender: watch::Sender<Announced>,
}

impl Drop for WritingHere {
    fn drop(&mut self) {
        self.sender.send_if_modified(|announced| {
            announced.writing = announced.writing.saturating_sub(1);
            announced.writing == 0 && announced.raise(announced.heard)
        });
    }
}

/// A subscription to one task's versions.
#[derive(Debug)]
pub struct VersionWatch {
    receiver: watch::Receiver<Announced>,
    /// The wakes without a version already taken into account.
    wakes_seen: u64,
}

impl VersionWatch {
    fn new(receiver: watch::Receiver<Announced>) -> Self {
        let wakes_seen = receiver.borrow().wakes;
        VersionWatch {
            receiver,
            wakes_seen,
        }
    }

    /// Waits for a version not seen yet (or a wake of every watcher); `false` when the bus
    /// dropped the task.
    pub async fn changed(&mut self) -> bool {
        self.receiver.changed().await.is_ok()
    }

    /// The newest version published since the subscription (0 before any; at subscription, the
    /// newest one announced to the task's other watchers).
    pub fn latest(&self) -> u64 {
        self.receiver.borrow().version
    }

    /// Whether every watcher was woken without a version since this was last asked (a bus that
    /// may have missed versions): the task's store must be read to learn what it holds.
    pub fn woken(&mut self) -> bool {
        let wakes = self.receiver.borrow().wakes;
        let woken = wakes != self.wakes_seen;
        self.wakes_seen = wakes;
        woken
    }

    /// At most `limit` of the events this process handed over that come right after version
    /// `after`, oldest first; `None` when the first of them is not there (never handed over,
    /// no longer kept, or there may be versions between): the store's log has them.
    pub fn events_after(&self, after: u64, limit: usize) -> Option<Vec<StoredEvent>> {
        let announced = self.receiver.borrow();
        let first = announced.recent.front()?.version();
        let skip = usize::try_from(after.checked_add(1)?.checked_sub(first)?).ok()?;
        if skip >= announced.recent.len() {
            return None;
        }
        Some(
            announced
                .recent
                .iter()
                .skip(skip)
                .take(limit.max(1))
                .map(|handed| handed.stored.clone())
                .collect(),
        )
    }
}

type Channels = HashMap<String, watch::Sender<Announced>>;

/// Where an announced version comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// A write of this process, published by its writer.
    Here,
    /// Another process, or this one's own write coming back through a shared bus.
    Elsewhere,
}

/// One `watch` channel per watched task, bounded by the tasks being watched: a channel nobody
/// watches any more goes at the next publish to its task or the next subscription.
#[derive(Debug, Default)]
pub struct VersionWatchers {
    channels: Mutex<Channels>,
}

impl VersionWatchers {
    /// No task watched.
    pub fn new() -> Self {
        VersionWatchers::default()
    }

    fn lock(&self) -> MutexGuard<'_, Channels> {
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
        self.announce(task_id, version, Vec::new(), Source::Here);
    }

    /// Whether `task_id` has watchers in this process (whose streams would take its events).
    pub fn watched_here(&self, task_id: &str) -> bool {
        self.lock()
            .get(task_id)
            .is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// [`publish`](Self::publish) of the last of `events`, which this process has just written
    /// to `task_id` under consecutive versions (oldest first), keeping them for the task's
    /// streams (at most the last 64 events and 64 KiB of a task).
    pub fn publish_events(&self, task_id: &str, events: Vec<HandedEvent>) {
        let Some(version) = events.last().map(HandedEvent::version) else {
            return;
        };
        let consecutive = events
            .windows(2)
            .all(|pair| pair[0].version().checked_add(1) == Some(pair[1].version()));
        self.announce(
            task_id,
            version,
            if consecutive { events } else { Vec::new() },
            Source::Here,
        );
    }

    fn announce(&self, task_id: &str, version: u64, events: Vec<HandedEvent>, source: Source) {
        let mut channels = self.lock();
        if let Some(sender) = channels.get(task_id) {
            if sender.receiver_count() == 0 {
                channels.remove(task_id);
            } else {
                // A version already known wakes no one: a replica bus hears its own
                // announcements back, and its streams have read those versions already.
                sender.send_if_modified(|announced| {
                    if source == Source::Elsewhere && announced.writing > 0 {
                        announced.heard = announced.heard.max(version);
                        return false;
                    }
                    let newer = announced.raise(version);
                    announced.hand(events);
                    newer
                });
            }
        }
    }

    /// [`publish`](Self::publish) of a version heard from outside this process (another
    /// replica's write, or this process's own coming back through the database): while this
    /// process writes to the task ([`writing_here`](Self::writing_here)), it waits for that
    /// write to be published.
    pub fn heard(&self, task_id: &str, version: u64) {
        self.announce(task_id, version, Vec::new(), Source::Elsewhere);
    }

    /// Marks a write to `task_id` in flight, whose events this process will publish
    /// ([`publish_events`](Self::publish_events)) before the returned guard drops; `None` when
    /// no stream here watches the task.
    pub fn writing_here(&self, task_id: &str) -> Option<WritingHere> {
        let channels = self.lock();
        let sender = channels
            .get(task_id)
            .filter(|sender| sender.receiver_count() > 0)?;
        sender.send_if_modified(|announced| {
            announced.writing += 1;
            false
        });
        Some(WritingHere {
            sender: sender.clone(),
        })
    }

    /// Wakes every watcher without a new version: each reads its task's log again (after a
    /// replica bus missed announcements while disconnected).
    pub fn wake_all(&self) {
        let mut channels = self.lock();
        channels.retain(|_, sender| sender.receiver_count() > 0);
        for sender in channels.values() {
            sender.send_modify(|announced| announced.wakes += 1);
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
            .or_insert_with(|| watch::channel(Announced::default()).0);
        VersionWatch::new(sender.subscribe())
    }

    /// How many tasks have a channel (for tests of boundedness).
    pub fn watched(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use a2a_types::v1::{Artifact, Part, StreamResponse, TaskArtifactUpdateEvent};

    use super::*;
    use crate::auth::Owner;
    use crate::core::owner_quota::OwnerQuota;

    const KIB: usize = 1024;

    fn owner() -> Owner {
        Owner {
            principal: "alice".into(),
            tenant: String::new(),
        }
    }

    fn chunk(text: &str) -> StreamResponse {
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::new(
            "t",
            "c",
            Artifact::new("a", [Part::text(text)]),
        ))
    }

    /// Events at `versions`, each of `bytes`, held in `quota`.
    fn handed(
        quota: &Arc<OwnerQuota>,
        versions: std::ops::RangeInclusive<u64>,
        bytes: usize,
    ) -> Vec<HandedEvent> {
        versions
            .map(|version| {
                let room = quota.try_hold(&owner(), bytes).expect("room");
                HandedEvent::new(
                    StoredEvent::new(version, chunk(&format!("v{version}"))),
                    bytes,
                    room,
                )
            })
            .collect()
    }

    fn versions(events: Option<Vec<StoredEvent>>) -> Option<Vec<u64>> {
        events.map(|events| events.iter().map(|e| e.id).collect())
    }

    fn quota() -> Arc<OwnerQuota> {
        OwnerQuota::new("streams", 64 * KIB * KIB, 16 * KIB * KIB)
    }

    #[tokio::test]
    async fn a_stream_takes_handed_events_only_from_right_after_what_it_sent() {
        let (watchers, quota) = (VersionWatchers::new(), quota());
        let mut watch = watchers.subscribe("t");
        assert!(watchers.watched_here("t") && !watchers.watched_here("u"));
        watchers.publish_events("t", handed(&quota, 3..=5, KIB));
        assert!(watch.changed().await);
        assert_eq!(watch.latest(), 5);
        assert_eq!(versions(watch.events_after(2, 64)), Some(vec![3, 4, 5]));
        assert_eq!(versions(watch.events_after(3, 1)), Some(vec![4]));
        // Before the first kept (version 2 may hold an event nobody handed over), or past the
        // last: the log is read.
        assert_eq!(versions(watch.events_after(1, 64)), None);
        assert_eq!(versions(watch.events_after(5, 64)), None);
        // The next events follow on; a batch after a gap replaces the run; a late, older one
        // is not taken.
        watchers.publish_events("t", handed(&quota, 6..=6, KIB));
        assert_eq!(versions(watch.events_after(2, 64)), Some(vec![3, 4, 5, 6]));
        watchers.publish_events("t", handed(&quota, 9..=10, KIB));
        assert_eq!(versions(watch.events_after(6, 64)), None);
        assert_eq!(versions(watch.events_after(8, 64)), Some(vec![9, 10]));
        watchers.publish_events("t", handed(&quota, 7..=8, KIB));
        assert_eq!(versions(watch.events_after(6, 64)), None);
        assert_eq!(watch.latest(), 10);
        // A version announced without its events (another replica's) is read from the log.
        watchers.publish("t", 11);
        assert_eq!(versions(watch.events_after(10, 64)), None);
        assert_eq!(watch.latest(), 11);
    }

    #[tokio::test]
    async fn a_channel_keeps_a_page_of_events_in_room_it_gives_back() {
        let (watchers, quota) = (VersionWatchers::new(), quota());
        let watch = watchers.subscribe("t");
        watchers.publish_events("t", handed(&quota, 1..=100, KIB));
        let kept = versions(watch.events_after(36, 1000)).expect("the last 64");
        assert_eq!(kept, (37..=100).collect::<Vec<_>>());
        assert_eq!(quota.held_units(), RECENT_EVENTS);
        // Bytes bound the run too: 4 events of 20 KiB are more than 64 KiB.
        watchers.publish_events("t", handed(&quota, 101..=104, 20 * KIB));
        assert_eq!(
            versions(watch.events_after(101, 64)),
            Some(vec![102, 103, 104])
        );
        assert_eq!(quota.held_units(), 60);
        // Consecutive versions only: a batch with a gap inside is announced, not kept.
        let mut gapped = handed(&quota, 105..=105, KIB);
        gapped.extend(handed(&quota, 107..=107, KIB));
        watchers.publish_events("t", gapped);
        assert_eq!(watch.latest(), 107);
        assert_eq!(versions(watch.events_after(104, 64)), None);
        // Once nobody watches, the channel goes at the next announcement, with its room.
        drop(watch);
        assert!(!watchers.watched_here("t"));
        watchers.publish("t", 108);
        assert_eq!(watchers.watched(), 0);
        assert_eq!(quota.held_units(), 0);
    }

    #[tokio::test]
    async fn versions_heard_from_elsewhere_wait_for_a_write_in_flight_here() {
        let (watchers, quota) = (VersionWatchers::new(), quota());
        assert!(watchers.writing_here("t").is_none(), "nobody watches");
        let mut watch = watchers.subscribe("t");
        let writing = watchers.writing_here("t").expect("watched");
        // The database's notification of the write comes back first: no wake, no read.
        watchers.heard("t", 3);
        assert_eq!(watch.latest(), 0);
        assert!(!watch.receiver.has_changed().expect("open"));
        // The writer hands its events over; the stream sends them without reading the log.
        watchers.publish_events("t", handed(&quota, 1..=3, KIB));
        assert!(watch.changed().await);
        assert_eq!(versions(watch.events_after(0, 64)), Some(vec![1, 2, 3]));
        // Its own version, heard while it wrote, is no news once it is done.
        drop(writing);
        assert!(!watch.receiver.has_changed().expect("open"));
        // Another process's version heard during a write here wakes the stream when it ends,
        // and only when the last of two writes ends.
        let (first, second) = (watchers.writing_here("t"), watchers.writing_here("t"));
        watchers.heard("t", 7);
        drop(first);
        assert!(!watch.receiver.has_changed().expect("open"));
        drop(second);
        assert!(watch.changed().await);
        assert_eq!(watch.latest(), 7);
        assert_eq!(
            versions(watch.events_after(3, 64)),
            None,
            "read from the log"
        );
        // With no write here, a version heard wakes at once.
        watchers.heard("t", 8);
        assert!(watch.changed().await);
        assert_eq!(watch.latest(), 8);
    }

    #[tokio::test]
    async fn a_wake_of_every_watcher_is_seen_once_by_each() {
        let watchers = VersionWatchers::new();
        let mut first = watchers.subscribe("t");
        watchers.wake_all();
        let mut second = watchers.subscribe("t");
        assert!(first.changed().await);
        assert!(first.woken());
        assert!(!first.woken(), "seen once");
        assert!(!second.woken(), "the wake came before it watched");
        assert_eq!(first.latest(), 0);
    }
}
