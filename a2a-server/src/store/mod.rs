//! Where tasks live: the [`TaskStore`] trait and its in-memory default ([`InMemoryTaskStore`]).
//!
//! The trait is written for stores shared by several server replicas (a database): every method is
//! async and returns owned values; every write names the version it read, so two replicas writing
//! the same task cannot lose an update (optimistic concurrency: a stale write fails with
//! [`StoreError::Conflict`] and the server reads again and retries); and every update may carry the
//! event that caused it, kept in the task's event log under the version it produced. A stream is a
//! reader of that log: it starts after the version of the snapshot it sent first, resumes after a
//! `Last-Event-ID`, and learns of new versions from the [`VersionBus`](crate::versions::VersionBus).
//!
//! Every method takes the [`Owner`] of the request: a store answers only with tasks of that owner
//! (`None`, or no rows), which is what makes one caller's tasks invisible to another.

pub mod executions;
pub(crate) mod memory;

use std::fmt;
use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{ListTasksRequest, StreamResponse, Task};
use async_trait::async_trait;

pub use executions::{ExecutionQueue, ExecutionRecord, ExecutionSettings};
pub use memory::{InMemoryTaskStore, MemoryLimits};

use crate::auth::Owner;

/// A change [`TaskStore::modify`] makes to a task: it gets the task as stored and the event, when
/// there is one, and changes the task or refuses with the error the caller gets.
pub type TaskChange<'a> =
    dyn FnMut(&mut Task, Option<&StreamResponse>) -> Result<(), Error> + Send + 'a;

/// When a client refused for want of room ([`StoreError::Full`]) is told to try again.
const FULL_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// How many times [`TaskStore::modify`]'s default reads the task again after another writer came
/// between, before the change fails.
const MAX_MODIFY_ATTEMPTS: usize = 16;

/// A task as stored, with its version (1 when created, one more on every update).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StoredTask {
    /// The task.
    pub task: Task,
    /// Its version; an update names it to succeed.
    pub version: u64,
}

impl StoredTask {
    /// A stored task at `version`.
    pub fn new(task: Task, version: u64) -> Self {
        StoredTask { task, version }
    }
}

/// The error of a [`TaskStore::modify_each`] given no event.
pub(crate) fn no_events(task_id: &str) -> Error {
    Error::bare(
        ErrorKind::Internal,
        format!("no event to apply to task {task_id}"),
    )
}

/// One event of a task's log: its id is the task version it produced.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StoredEvent {
    /// The version of the task after this event (the SSE `id`).
    pub id: u64,
    /// The event, as streams send it.
    pub event: StreamResponse,
}

impl StoredEvent {
    /// An event at `id`.
    pub fn new(id: u64, event: StreamResponse) -> Self {
        StoredEvent { id, event }
    }
}

/// The events of a task after some version.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct EventPage {
    /// The events, oldest first.
    pub events: Vec<StoredEvent>,
    /// `false` when some events after the version asked for are no longer kept (the log is
    /// bounded), so a reader has missed some.
    pub complete: bool,
}

impl EventPage {
    /// A page of events.
    pub fn new(events: Vec<StoredEvent>, complete: bool) -> Self {
        EventPage { events, complete }
    }
}

/// One page of ListTasks, before `historyLength` and `includeArtifacts` are applied.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct TaskPage {
    /// The tasks of the page, in the order ListTasks gives them (newest status first).
    pub tasks: Vec<Task>,
    /// The opaque token of the next page; empty on the last.
    pub next_page_token: String,
    /// How many tasks match the filters, across all pages.
    pub total_size: usize,
}

impl TaskPage {
    /// A page.
    pub fn new(tasks: Vec<Task>, next_page_token: String, total_size: usize) -> Self {
        TaskPage {
            tasks,
            next_page_token,
            total_size,
        }
    }
}

/// Why a store refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// No task of that id for that owner.
    NotFound,
    /// A task of that id exists already.
    AlreadyExists,
    /// The task changed since the version the write named; read it again.
    Conflict {
        /// The version now stored.
        current: u64,
    },
    /// ListTasks' `pageToken` is not one this store gave out.
    InvalidPageToken,
    /// The store itself failed (a database error, say).
    Backend(String),
    /// The write would break one of the store's bounds and nothing may go to make room (the
    /// caller's own tasks are all unfinished, say).
    Full {
        /// The bound, as its setting names it (`max_tasks_per_owner`).
        limit: String,
        /// Why, for the caller.
        problem: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("no such task"),
            StoreError::AlreadyExists => f.write_str("a task of that id exists already"),
            StoreError::Conflict { current } => {
                write!(f, "the task changed meanwhile (now version {current})")
            }
            StoreError::InvalidPageToken => f.write_str("not a page token this agent gave out"),
            StoreError::Backend(problem) => write!(f, "the task store failed: {problem}"),
            StoreError::Full { problem, .. } => f.write_str(problem),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    /// The A2A error a client sees for this refusal about task `task_id`.
    pub fn to_error(&self, task_id: &str) -> Error {
        match self {
            StoreError::NotFound => crate::errors::not_found(task_id),
            StoreError::InvalidPageToken => crate::errors::invalid("pageToken", self.to_string()),
            // One task bigger than a task may be: no retry helps, the message is too big.
            StoreError::Full { limit, problem } if limit == "max_task_bytes" => {
                crate::errors::invalid("message", problem.clone())
                    .with_metadata("limit", limit.as_str())
                    .with_metadata("taskId", task_id)
            }
            // Room comes back once the caller's (or the biggest holder's) tasks finish: a
            // temporary refusal, as the server answers at its other caps (§3.3.2 system
            // errors: JSON-RPC -32603 with a RetryInfo, HTTP 503 with Retry-After, gRPC
            // UNAVAILABLE), naming the limit.
            StoreError::Full { limit, problem } => {
                Error::unavailable(problem.clone(), FULL_RETRY_AFTER)
                    .with_metadata("limit", limit.as_str())
                    .with_metadata("taskId", task_id)
            }
            // A failure, not an A2A answer: bare, as the SDK's server answers what it did not foresee.
            other => Error::bare(ErrorKind::Internal, other.to_string()),
        }
    }
}

/// Which store a [`TaskStore`] or an [`ExecutionQueue`] writes to, so the
/// server can tell that its task store and its queue are one (clones of one database store) and
/// write a new task and its execution's record together
/// ([`ExecutionQueue::begin_with_task`]). Stores that write to one place compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoreIdentity(usize);

impl StoreIdentity {
    /// The identity of whatever holds `shared`: every clone of a store that shares one `Arc`
    /// (its pool, its state) has the same.
    pub fn of<T: ?Sized>(shared: &Arc<T>) -> Self {
        StoreIdentity(Arc::as_ptr(shared).cast::<()>() as usize)
    }
}

/// Tasks, their versions and their event logs, by owner.
#[async_trait]
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task at version 1. Fails with `AlreadyExists` when its id is taken.
    async fn create(&self, owner: &Owner, task: Task) -> Result<u64, StoreError>;

    /// Which store this is, for a server that writes a new task together with its execution's
    /// record when its [`ExecutionQueue`] is kept in the same store (see
    /// [`ExecutionQueue::task_store_identity`]); `None` (the default) for a store that keeps no
    /// queue.
    fn store_identity(&self) -> Option<StoreIdentity> {
        None
    }

    /// The task with this id, if `owner` owns it.
    async fn get(&self, owner: &Owner, task_id: &str) -> Result<Option<StoredTask>, StoreError>;

    /// Replaces the task (same id) if it is still at `expected_version`, appending `event` to its
    /// log under the new version; returns the new version. Fails with `Conflict` when the task
    /// moved on, `NotFound` when `owner` has no such task.
    async fn update(
        &self,
        owner: &Owner,
        task: Task,
        expected_version: u64,
        event: Option<StreamResponse>,
    ) -> Result<u64, StoreError>;

    /// Changes the owner's task in one step and returns its new version: `change` sees the task as
    /// stored (and the event, when given) and either changes it or refuses with the error the
    /// caller gets, leaving it as it was; the changed task is kept under the next version, with
    /// `event`, when given, in its log.
    ///
    /// `change` decides before it changes anything, and may run more than once. The default reads
    /// with [`get`](Self::get) and writes with [`update`](Self::update), reading again when another
    /// writer came between (all a store shared by replicas needs); a store that keeps its tasks in
    /// memory changes them where they lie, which saves a copy of the whole task per event.
    async fn modify(
        &self,
        owner: &Owner,
        task_id: &str,
        event: Option<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        for _ in 0..MAX_MODIFY_ATTEMPTS {
            let stored = self
                .get(owner, task_id)
                .await
                .map_err(|e| e.to_error(task_id))?
                .ok_or_else(|| crate::errors::not_found(task_id))?;
            let mut task = stored.task;
            change(&mut task, event.as_ref())?;
            match self
                .update(owner, task, stored.version, event.clone())
                .await
            {
                Ok(version) => return Ok(version),
                Err(StoreError::Conflict { .. }) => continue,
                Err(other) => return Err(other.to_error(task_id)),
            }
        }
        Err(Error::bare(
            ErrorKind::Internal,
            format!("task {task_id} kept changing while it was being updated"),
        ))
    }

    /// [`modify`](Self::modify) by each of `events` in turn, each kept under its own version (the
    /// next ones, in order); returns the last. A store that can writes them all at once (a
    /// database store in one commit: the server hands it the events that queued up while its last
    /// write was committing). The default modifies by one event at a time. When `change`
    /// refuses one, the call fails with its error, and the events before it may have been kept.
    async fn modify_each(
        &self,
        owner: &Owner,
        task_id: &str,
        events: Vec<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        let mut last = None;
        for event in events {
            last = Some(self.modify(owner, task_id, Some(event), change).await?);
        }
        last.ok_or_else(|| no_events(task_id))
    }

    /// Whether [`modify_each`](Self::modify_each) writes a call's events at once, under
    /// consecutive versions that end at the one it returns, with no other write between them
    /// (a database store's one commit). The server then knows each event's version, and hands
    /// the events to the task's streams in this process, which send them without reading them
    /// back. The default: `false` (the default `modify_each` writes one event at a time, and
    /// another writer may come between).
    fn writes_each_at_once(&self) -> bool {
        false
    }

    /// Stores a new task that took `events` before it was first written: `task` as
    /// [`create`](Self::create) keeps it (version 1), then changed by each event in turn as
    /// [`modify_each`](Self::modify_each) changes it, each event under the next version; the last
    /// version. The server calls it when the agent ended a task in the events it sent before the
    /// task was written, so the task is written once. The task is over and nobody could have
    /// streamed it, so a store may leave the events out of its log, as pruned
    /// ([`events_after`](Self::events_after) then says the page is not complete). Fails with
    /// `AlreadyExists` (nothing written) when the id is taken, or with `change`'s refusal.
    ///
    /// The default creates, then modifies (two writes). A store that keeps the execution queue
    /// too ([`store_identity`](Self::store_identity)) must write it all at once: the server then
    /// records no execution for the task, so a task left half written by a crash would never be
    /// run again.
    async fn create_with_events(
        &self,
        owner: &Owner,
        task: Task,
        events: Vec<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        let task_id = task.id.clone();
        let created = self
            .create(owner, task)
            .await
            .map_err(|e| e.to_error(&task_id))?;
        if events.is_empty() {
            return Ok(created);
        }
        self.modify_each(owner, &task_id, events, change).await
    }

    /// At most `limit` events of the task's log with ids above `after`, oldest first.
    async fn events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError>;

    /// One page of the owner's tasks matching the request's `contextId`, `status` and
    /// `statusTimestampAfter`, newest status first, `page_size` at most, continuing after
    /// `pageToken`. The server has checked the request's values.
    async fn list(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError>;
}
