//! The in-memory [`TaskStore`]: one map under one lock, bounded by [`MemoryLimits`] in tasks and
//! in bytes, in all, per owner and per task.
//!
//! Bytes are counted per task ([`size`]: an upper bound of the heap it holds, its event log
//! included) and added up per owner and in all. Each write keeps the bounds, cheapest first:
//! 1. the task itself within [`MemoryLimits::max_task_bytes`]: its oldest events go first, then
//!    its oldest history messages (the spec lets an agent keep only some messages in a task's
//!    history, section 4.1.4 of v1.0: what is kept is the status, with its message, every artifact,
//!    and the newest messages and events that fit); a task too big even so is refused;
//! 2. its owner and the store within their counts and bytes: finished tasks are evicted, in the
//!    order and under the rule of the [`ledger`] (the writer's own first; another owner's only
//!    when the store as a whole is full and that owner holds more than the writer; never a
//!    task that is not finished), each found in O(log n);
//! 3. otherwise the write is refused ([`StoreError::Full`], naming the limit) and undone, and
//!    other owners are not affected. A write that finishes a task is never refused: refusing it
//!    would keep the task unfinished, holding its owner's room for ever; its owner's next write
//!    makes room again.
//!
//! Each task keeps its last [`MemoryLimits::max_events_per_task`] events (fewer when they do not
//! fit in its bytes); a reader further behind is told its page is incomplete.

mod ledger;
mod limits;
mod listing;
pub(crate) mod size;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, VecDeque};
use std::mem::size_of;
use std::sync::{Mutex, MutexGuard};

use a2a_protocol::errors::Error;
use a2a_types::v1::{ListTasksRequest, StreamResponse, Task, TaskState};
use async_trait::async_trait;

use super::{EventPage, StoreError, StoredEvent, StoredTask, TaskChange, TaskPage, TaskStore};
use crate::auth::Owner;
use ledger::{Footprint, Holder, Ledger, Limit};
pub use limits::MemoryLimits;
use listing::{Listing, PageKey};

/// What a task costs the store besides its own values, as an upper bound: its slot in the map
/// (a hash table at most 8/7 full, doubling: under 3 slots a task), its id three times more (the
/// key, the eviction index and the listing), its owner twice (in the entry, and as the listing's
/// key, counted for each task, though shared by an owner's tasks), its holder four times (in the
/// entry, and in the ledger's map and two indexes, likewise), its places in the eviction index
/// and in the listing, and a share of its holder's records.
fn overhead(id: &str, owner: &Owner, holder: &Holder) -> usize {
    3 * (size_of::<(String, Entry)>() + 1)
        + 3 * id.len()
        + 2 * (owner.principal.capacity() + owner.tenant.capacity())
        + 4 * holder.heap_bytes()
        + Listing::entry_overhead()
        + 1024
}

/// One event of a task's log, with the heap it holds.
struct LoggedEvent {
    event: StoredEvent,
    bytes: usize,
}

struct Entry {
    owner: Owner,
    holder: Holder,
    task: Task,
    version: u64,
    /// Creation order: breaks ties between equal status times in ListTasks.
    created: u64,
    /// Where the listing has it (its [`PageKey`] when last listed).
    listed: PageKey,
    /// Last write order: the eviction order.
    touched: u64,
    events: VecDeque<LoggedEvent>,
    /// The heap the logged events hold.
    events_bytes: usize,
    /// The highest event id dropped from `events` (0: none).
    dropped_through: u64,
    /// The bytes it holds, as last measured (what the ledger counts).
    bytes: usize,
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Entry>,
    ledger: Ledger,
    listing: Listing,
    clock: u64,
    /// The tasks the current write evicted, dropped once the lock is released (freeing a task
    /// is most of evicting it, and other writers need not wait for it).
    evicted: Vec<Entry>,
}

/// Tasks in memory (lost when the process ends), bounded by [`MemoryLimits`] in tasks and bytes,
/// in all, per owner (one principal in one tenant; every anonymous caller together is one owner)
/// and per task.
///
/// - Eviction takes the least recently written finished task: the writer's own first; another
///   owner's only when the store as a whole is full and that owner holds more than the writer
///   (most tasks, or most bytes when bytes are short); never a task that is not finished. Each
///   eviction is a lookup in ordered indexes, O(log n), never a scan of the store.
/// - A task over [`MemoryLimits::max_task_bytes`] drops its oldest events, then its oldest
///   history messages (the spec lets an agent keep only some messages in a task's history): it
///   keeps its status with its message, every artifact, and its newest messages and events.
/// - A write that cannot fit is undone and refused with [`StoreError::Full`] naming the limit
///   (a client sees a temporary refusal: JSON-RPC `-32603` with a `RetryInfo`, HTTP 503 with
///   `Retry-After`, gRPC `UNAVAILABLE`; or invalid params when one task alone is too big); other
///   owners are not affected. A write that finishes a task is never refused.
///
/// Bytes are an upper bound of the heap each task holds, its event log included
/// ([`InMemoryTaskStore::bytes`]).
#[derive(Default)]
pub struct InMemoryTaskStore {
    inner: Mutex<Inner>,
    limits: MemoryLimits,
}

impl InMemoryTaskStore {
    /// An empty store with the default limits.
    pub fn new() -> Self {
        InMemoryTaskStore::default()
    }

    /// An empty store with these limits.
    pub fn with_limits(limits: MemoryLimits) -> Self {
        InMemoryTaskStore {
            inner: Mutex::default(),
            limits,
        }
    }

    /// How many tasks it holds.
    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes its tasks hold, event logs included (an upper bound; the store's own few
    /// kilobytes of tables aside).
    pub fn bytes(&self) -> usize {
        self.lock().ledger.bytes()
    }

    /// The bytes `owner`'s tasks hold (every anonymous caller's together).
    pub fn bytes_of(&self, owner: &Owner) -> usize {
        self.lock().ledger.bytes_of(&Holder::of(owner))
    }

    /// Runs `write` under the store's lock, then, with the lock released, drops what it evicted.
    fn write<R>(&self, write: impl FnOnce(&mut Inner) -> R) -> R {
        let mut inner = self.lock();
        let written = write(&mut inner);
        let evicted = std::mem::take(&mut inner.evicted);
        drop(inner);
        drop(evicted);
        written
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every change is made of assignments that leave the map consistent, so a panic elsewhere
        // while the lock was held leaves a usable store.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// [`TaskStore::modify`] under the store's lock (`inner`).
    fn modify_locked(
        &self,
        inner: &mut Inner,
        owner: &Owner,
        task_id: &str,
        event: Option<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        let limits = self.limits;
        inner.clock += 1;
        let clock = inner.clock;
        let entry = owned(&mut inner.tasks, owner, task_id).map_err(|e| e.to_error(task_id))?;
        // Under the lock no other writer comes between: the task changes where it lies, unless
        // the change may not fit, when a copy is kept to undo it.
        let bound = event.as_ref().map(|event| entry.growth_bound(event));
        let mut in_place =
            bound.is_some_and(|bound| fits_unchanged(&inner.ledger, entry, bound, &limits));
        if !in_place
            && let Some(bound) = bound
            && entry.bytes + bound <= limits.max_task_bytes
        {
            // A store at its bounds (the usual state of one in service) makes the room the
            // change may need first, as the write would after it, so the task need not be
            // copied at every event to be put back.
            let (holder, counted) = (entry.holder.clone(), entry.footprint());
            inner.room_ahead(&holder, task_id, counted, bound, &limits);
        }
        let entry = owned(&mut inner.tasks, owner, task_id).map_err(|e| e.to_error(task_id))?;
        if !in_place && let Some(bound) = bound {
            in_place = fits_unchanged(&inner.ledger, entry, bound, &limits);
        }
        let before = (!in_place).then(|| entry.task.clone());
        // As counted: the change may finish the task (or, for a change of the caller's own,
        // unfinish it), which moves it in or out of the eviction order.
        let counted = entry.footprint();
        change(&mut entry.task, event.as_ref())?;
        let (holder, touched) = (entry.holder.clone(), entry.touched);
        let version = entry.written(clock, event, limits.max_events_per_task);
        let fits = entry.fit(task_id, limits.max_task_bytes);
        let finishes = entry.task.status.state.is_terminal();
        inner
            .ledger
            .recount(&holder, task_id, counted, entry.footprint());
        inner.relist(task_id);
        match (
            inner.settle(&holder, task_id, fits, finishes, &limits),
            before,
        ) {
            (None, _) => Ok(version),
            (Some(limit), Some(before)) => {
                inner.undo(task_id, before, touched);
                Err(self.full(limit).to_error(task_id))
            }
            (Some(limit), None) => {
                // Only a change adding more than its event carries gets here: it stays, and the
                // owner's next write makes room again.
                tracing::warn!(
                    task_id,
                    limit = limit.name(),
                    "a change grew its task beyond its event"
                );
                Ok(version)
            }
        }
    }

    fn full(&self, limit: Limit) -> StoreError {
        StoreError::Full {
            limit: limit.name().to_owned(),
            problem: limit.problem(&self.limits),
        }
    }
}

impl Entry {
    fn footprint(&self) -> Footprint {
        Footprint {
            touched: self.touched,
            terminal: self.task.status.state.is_terminal(),
            bytes: self.bytes,
        }
    }

    /// Where it sorts in ListTasks now.
    fn page_key(&self) -> PageKey {
        PageKey {
            micros: self
                .task
                .status
                .timestamp
                .map_or(0, |t| t.timestamp_micros()),
            created: self.created,
        }
    }

    /// Measures what it holds now.
    fn measure(&mut self, id: &str) {
        self.bytes = overhead(id, &self.owner, &self.holder)
            + size::task(&self.task)
            + self.events.capacity() * size_of::<LoggedEvent>()
            + self.events_bytes;
    }

    /// Counts a write of the task at `clock`: the next version, with `event` (when given) logged
    /// under it and the log cut to its last `max_events`; returns the new version.
    fn written(&mut self, clock: u64, event: Option<StreamResponse>, max_events: usize) -> u64 {
        self.version += 1;
        self.touched = clock;
        if let Some(event) = event {
            let bytes = size::event(&event);
            self.events.push_back(LoggedEvent {
                event: StoredEvent::new(self.version, event),
                bytes,
            });
            self.events_bytes += bytes;
            while self.events.len() > max_events {
                self.drop_oldest_event();
            }
        }
        self.version
    }

    fn drop_oldest_event(&mut self) {
        if let Some(dropped) = self.events.pop_front() {
            self.dropped_through = dropped.event.id;
            self.events_bytes -= dropped.bytes;
        }
    }

    /// Undoes the last [`written`](Self::written) (version `version`, at `touched` before).
    fn unwritten(&mut self, touched: u64) {
        if self
            .events
            .back()
            .is_some_and(|e| e.event.id == self.version)
            && let Some(undone) = self.events.pop_back()
        {
            self.events_bytes -= undone.bytes;
        }
        self.version -= 1;
        self.touched = touched;
    }

    /// Measures it and brings it within `max_bytes`: its oldest events go first, then its oldest
    /// messages. Whether it fits.
    fn fit(&mut self, id: &str, max_bytes: usize) -> bool {
        self.measure(id);
        // Dropping an event frees what it holds; the log's capacity stays.
        while self.bytes > max_bytes
            && let Some(oldest) = self.events.front()
        {
            self.bytes -= oldest.bytes;
            self.drop_oldest_event();
        }
        if self.bytes > max_bytes {
            let mut dropped = 0;
            let mut freed = 0;
            for message in &self.task.history {
                if self.bytes - freed <= max_bytes {
                    break;
                }
                freed += size::message(message);
                dropped += 1;
            }
            self.task.history.drain(..dropped);
            self.measure(id);
        }
        self.bytes <= max_bytes
    }

    /// An upper bound of the bytes the server's change for `event` adds to the task (see
    /// `core::execution::events::change`): the event in the log, a status message in the
    /// history and in the status, artifact parts added or an artifact replaced, and the
    /// vectors they go into grown.
    fn growth_bound(&self, event: &StreamResponse) -> usize {
        let event_bytes = size::event(event);
        let logged = event_bytes
            + (self.events.capacity() + self.events.len() + 5) * size_of::<LoggedEvent>();
        let applied = match event {
            StreamResponse::StatusUpdate(_) | StreamResponse::Message(_) => {
                2 * event_bytes + size::growth(&self.task.history, 1)
            }
            StreamResponse::ArtifactUpdate(update) => {
                let parts = self
                    .task
                    .artifacts
                    .iter()
                    .find(|a| a.artifact_id == update.artifact.artifact_id)
                    .map_or(0, |a| size::growth(&a.parts, update.artifact.parts.len()));
                event_bytes + parts + size::growth(&self.task.artifacts, 1)
            }
            _ => 0,
        };
        logged + applied
    }
}

impl Inner {
    fn insert(&mut self, id: String, mut entry: Entry) {
        self.ledger.add(&entry.holder, &id, entry.footprint());
        entry.listed = entry.page_key();
        self.listing.add(&entry.owner, entry.listed, &id);
        self.tasks.insert(id, entry);
    }

    fn evict(&mut self, id: &str) -> Option<Entry> {
        let entry = self.tasks.remove(id)?;
        self.ledger.remove(&entry.holder, id, entry.footprint());
        self.listing.remove(&entry.owner, entry.listed);
        Some(entry)
    }

    /// Moves task `id` in the listing to where it sorts now (after a write changed its status).
    fn relist(&mut self, id: &str) {
        if let Some(entry) = self.tasks.get_mut(id) {
            let now = entry.page_key();
            self.listing.moved(&entry.owner, entry.listed, now);
            entry.listed = now;
        }
    }

    /// After a write of task `id` by `holder` (`fits`: within its own bytes; `finishes`: it is
    /// now finished): makes room, or tells the bound the write breaks. A write that finishes
    /// its task breaks none (see the module docs).
    fn settle(
        &mut self,
        holder: &Holder,
        id: &str,
        fits: bool,
        finishes: bool,
        limits: &MemoryLimits,
    ) -> Option<Limit> {
        if !fits && !finishes {
            return Some(Limit::TaskBytes);
        }
        match self.make_room(holder, id, limits) {
            Err(limit) if !finishes => Some(limit),
            _ => None,
        }
    }

    /// Puts task `id` back as it was `before` its last write (at `touched`).
    fn undo(&mut self, id: &str, before: Task, touched: u64) {
        if let Some(entry) = self.tasks.get_mut(id) {
            self.ledger.remove(&entry.holder, id, entry.footprint());
            entry.task = before;
            entry.unwritten(touched);
            entry.measure(id);
            self.ledger.add(&entry.holder, id, entry.footprint());
        }
        self.relist(id);
    }

    /// Evicts what the ledger's rule says until every bound would hold were task `id` (counted
    /// as `counted`) of `holder` to grow by `bound` bytes, or until nothing more may go.
    fn room_ahead(
        &mut self,
        holder: &Holder,
        id: &str,
        counted: Footprint,
        bound: usize,
        limits: &MemoryLimits,
    ) {
        let grown = Footprint {
            bytes: counted.bytes + bound,
            ..counted
        };
        self.ledger.recount(holder, id, counted, grown);
        // A bound that cannot be kept is the write's to refuse, once it knows what it adds.
        let _ = self.make_room(holder, id, limits);
        self.ledger.recount(holder, id, grown, counted);
    }

    /// Evicts what the ledger's rule says until every bound holds after a write of task `id`
    /// by `holder`, or tells the bound that cannot be kept.
    fn make_room(&mut self, holder: &Holder, id: &str, limits: &MemoryLimits) -> Result<(), Limit> {
        while let Some((_, victim)) = self.ledger.next_eviction(holder, id, limits)? {
            if let Some(evicted) = self.evict(&victim) {
                self.evicted.push(evicted);
            } else {
                // The ledger names only tasks the map holds; were it ever not so, stop here
                // rather than ask again for the same task for ever, under the lock.
                debug_assert!(false, "the ledger named task {victim}, which is not stored");
                break;
            }
        }
        Ok(())
    }
}

/// Whether a growth of `bytes` of `entry` fits every bound without evicting or trimming.
fn fits_unchanged(ledger: &Ledger, entry: &Entry, bytes: usize, limits: &MemoryLimits) -> bool {
    entry.bytes + bytes <= limits.max_task_bytes
        && ledger.bytes_of(&entry.holder) + bytes <= limits.max_bytes_per_owner
        && ledger.bytes() + bytes <= limits.max_bytes
}

fn owned<'a>(
    tasks: &'a mut HashMap<String, Entry>,
    owner: &Owner,
    id: &str,
) -> Result<&'a mut Entry, StoreError> {
    match tasks.get_mut(id) {
        Some(entry) if entry.owner == *owner => Ok(entry),
        _ => Err(StoreError::NotFound),
    }
}

#[async_trait]
impl TaskStore for InMemoryTaskStore {
    async fn create(&self, owner: &Owner, task: Task) -> Result<u64, StoreError> {
        // Made and measured before the lock: the task is nobody else's yet.
        let id = task.id.clone();
        let holder = Holder::of(owner);
        let mut entry = Entry {
            owner: owner.clone(),
            holder: holder.clone(),
            task,
            version: 1,
            // Both set under the lock.
            created: 0,
            touched: 0,
            // Set where the listing takes it in (`Inner::insert`).
            listed: PageKey::default(),
            events: VecDeque::new(),
            events_bytes: 0,
            dropped_through: 0,
            bytes: 0,
        };
        let fits = entry.fit(&id, self.limits.max_task_bytes);
        self.write(|inner| {
            if inner.tasks.contains_key(&id) {
                return Err(StoreError::AlreadyExists);
            }
            if !fits {
                return Err(self.full(Limit::TaskBytes));
            }
            inner.clock += 1;
            (entry.created, entry.touched) = (inner.clock, inner.clock);
            inner.insert(id.clone(), entry);
            if let Err(limit) = inner.make_room(&holder, &id, &self.limits) {
                inner.evict(&id);
                return Err(self.full(limit));
            }
            Ok(1)
        })
    }

    async fn get(&self, owner: &Owner, task_id: &str) -> Result<Option<StoredTask>, StoreError> {
        let mut inner = self.lock();
        Ok(owned(&mut inner.tasks, owner, task_id)
            .ok()
            .map(|e| StoredTask::new(e.task.clone(), e.version)))
    }

    async fn update(
        &self,
        owner: &Owner,
        task: Task,
        expected_version: u64,
        event: Option<StreamResponse>,
    ) -> Result<u64, StoreError> {
        let limits = self.limits;
        self.write(|inner| {
            inner.clock += 1;
            let clock = inner.clock;
            let entry = owned(&mut inner.tasks, owner, &task.id)?;
            if entry.version != expected_version {
                return Err(StoreError::Conflict {
                    current: entry.version,
                });
            }
            let (id, holder, touched) = (task.id.clone(), entry.holder.clone(), entry.touched);
            inner.ledger.remove(&holder, &id, entry.footprint());
            let before = std::mem::replace(&mut entry.task, task);
            let version = entry.written(clock, event, limits.max_events_per_task);
            let fits = entry.fit(&id, limits.max_task_bytes);
            let finishes = entry.task.status.state.is_terminal();
            inner.ledger.add(&holder, &id, entry.footprint());
            inner.relist(&id);
            if let Some(limit) = inner.settle(&holder, &id, fits, finishes, &limits) {
                inner.undo(&id, before, touched);
                return Err(self.full(limit));
            }
            Ok(version)
        })
    }

    async fn modify(
        &self,
        owner: &Owner,
        task_id: &str,
        event: Option<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        self.write(|inner| self.modify_locked(inner, owner, task_id, event, change))
    }

    async fn modify_each(
        &self,
        owner: &Owner,
        task_id: &str,
        events: Vec<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        // Under one lock: no other writer comes between, so the events take consecutive versions.
        self.write(|inner| {
            let mut last = None;
            for event in events {
                last = Some(self.modify_locked(inner, owner, task_id, Some(event), change)?);
            }
            last.ok_or_else(|| super::no_events(task_id))
        })
    }

    fn writes_each_at_once(&self) -> bool {
        true
    }

    async fn events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        let mut inner = self.lock();
        let entry = owned(&mut inner.tasks, owner, task_id)?;
        let events = entry
            .events
            .iter()
            .filter(|e| e.event.id > after)
            .take(limit)
            .map(|e| e.event.clone())
            .collect();
        Ok(EventPage::new(events, entry.dropped_through <= after))
    }

    async fn list(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError> {
        let after = match request.page_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(token) => Some(PageKey::parse(token).ok_or(StoreError::InvalidPageToken)?),
        };
        let context = request.context_id.as_deref().filter(|c| !c.is_empty());
        let state = request.status.filter(|s| *s != TaskState::Unspecified);
        let time = request.status_timestamp_after;
        let matches = |task: &Task| {
            context.is_none_or(|c| task.context_id.as_deref() == Some(c))
                && state.is_none_or(|s| task.status.state == s)
                && time.is_none_or(|after| task.status.timestamp.is_some_and(|t| t >= after))
        };
        let inner = self.lock();
        let listed = |after| {
            inner
                .listing
                .after(owner, after)
                .filter_map(|(key, id)| Some((key, &inner.tasks.get(id)?.task)))
                .filter(|(_, task)| matches(task))
        };
        let mut page = Vec::new();
        let mut last = None;
        let mut more = false;
        for (key, task) in listed(after) {
            if page.len() == page_size {
                more = true;
                break;
            }
            page.push(task.clone());
            last = Some(key);
        }
        let next_page_token = match last {
            Some(key) if more => key.token(),
            _ => String::new(),
        };
        // Without a filter the total is the owner's count; with one, a walk of the owner's own
        // tasks (never the store's).
        let total = match (context, state, time) {
            (None, None, None) => inner.listing.count(owner),
            _ => listed(None).count(),
        };
        Ok(TaskPage::new(page, next_page_token, total))
    }
}
