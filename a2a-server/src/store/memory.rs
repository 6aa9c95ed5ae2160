//! The in-memory [`TaskStore`]: one map under one lock, bounded by [`MemoryLimits`].
//!
//! Eviction: when a new task would exceed [`MemoryLimits::max_tasks`], the least recently updated
//! task that is over (terminal) is dropped, or, when none is, the least recently updated task of
//! all (its executor then finds it gone and stops). Each task keeps its last
//! [`MemoryLimits::max_events_per_task`] events; a reader further behind is told its page is
//! incomplete.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};

use a2a_protocol::errors::Error;
use a2a_types::v1::{ListTasksRequest, StreamResponse, Task, TaskState};
use async_trait::async_trait;

use super::{EventPage, StoreError, StoredEvent, StoredTask, TaskChange, TaskPage, TaskStore};
use crate::auth::Owner;

/// The bounds of an [`InMemoryTaskStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryLimits {
    /// Tasks kept at most (10,000 by default).
    pub max_tasks: usize,
    /// Events kept per task (256 by default).
    pub max_events_per_task: usize,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            max_tasks: 10_000,
            max_events_per_task: 256,
        }
    }
}

impl MemoryLimits {
    /// These limits with at most `max_tasks` tasks.
    pub fn with_max_tasks(mut self, max_tasks: usize) -> Self {
        self.max_tasks = max_tasks.max(1);
        self
    }

    /// These limits with at most `max_events` events per task.
    pub fn with_max_events_per_task(mut self, max_events: usize) -> Self {
        self.max_events_per_task = max_events.max(1);
        self
    }
}

struct Entry {
    owner: Owner,
    task: Task,
    version: u64,
    /// Creation order: breaks ties between equal status times in ListTasks.
    created: u64,
    /// Last write order: the eviction order.
    touched: u64,
    events: VecDeque<StoredEvent>,
    /// The highest event id dropped from `events` (0: none).
    dropped_through: u64,
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Entry>,
    clock: u64,
}

/// Tasks in memory (lost when the process ends), bounded by [`MemoryLimits`]: the least recently
/// updated finished task is evicted first, and each task keeps its last events only.
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

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every change is made of assignments that leave the map consistent, so a panic elsewhere
        // while the lock was held leaves a usable store.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn evict_one(inner: &mut Inner) {
        let victim = inner
            .tasks
            .iter()
            .min_by_key(|(_, e)| (!e.task.status.state.is_terminal(), e.touched))
            .map(|(id, _)| id.clone());
        if let Some(id) = victim {
            inner.tasks.remove(&id);
        }
    }
}

impl Entry {
    /// Counts a write of the task at `clock`: the next version, with `event` (when given) logged
    /// under it and the log cut to its last `max_events`; returns the new version.
    fn written(&mut self, clock: u64, event: Option<StreamResponse>, max_events: usize) -> u64 {
        self.version += 1;
        self.touched = clock;
        if let Some(event) = event {
            self.events.push_back(StoredEvent::new(self.version, event));
            while self.events.len() > max_events {
                if let Some(dropped) = self.events.pop_front() {
                    self.dropped_through = dropped.id;
                }
            }
        }
        self.version
    }
}

fn owned<'a>(inner: &'a mut Inner, owner: &Owner, id: &str) -> Result<&'a mut Entry, StoreError> {
    match inner.tasks.get_mut(id) {
        Some(entry) if entry.owner == *owner => Ok(entry),
        _ => Err(StoreError::NotFound),
    }
}

#[async_trait]
impl TaskStore for InMemoryTaskStore {
    async fn create(&self, owner: &Owner, task: Task) -> Result<u64, StoreError> {
        let mut inner = self.lock();
        if inner.tasks.contains_key(&task.id) {
            return Err(StoreError::AlreadyExists);
        }
        while inner.tasks.len() >= self.limits.max_tasks {
            Self::evict_one(&mut inner);
        }
        inner.clock += 1;
        let clock = inner.clock;
        inner.tasks.insert(
            task.id.clone(),
            Entry {
                owner: owner.clone(),
                task,
                version: 1,
                created: clock,
                touched: clock,
                events: VecDeque::new(),
                dropped_through: 0,
            },
        );
        Ok(1)
    }

    async fn get(&self, owner: &Owner, task_id: &str) -> Result<Option<StoredTask>, StoreError> {
        let mut inner = self.lock();
        Ok(owned(&mut inner, owner, task_id)
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
        let max_events = self.limits.max_events_per_task;
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let entry = owned(&mut inner, owner, &task.id)?;
        if entry.version != expected_version {
            return Err(StoreError::Conflict {
                current: entry.version,
            });
        }
        entry.task = task;
        Ok(entry.written(clock, event, max_events))
    }

    async fn modify(
        &self,
        owner: &Owner,
        task_id: &str,
        event: Option<StreamResponse>,
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        let max_events = self.limits.max_events_per_task;
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let entry = owned(&mut inner, owner, task_id).map_err(|e| e.to_error(task_id))?;
        // Under the lock no other writer comes between: the task changes where it lies.
        change(&mut entry.task, event.as_ref())?;
        Ok(entry.written(clock, event, max_events))
    }

    async fn events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        let mut inner = self.lock();
        let entry = owned(&mut inner, owner, task_id)?;
        let events = entry
            .events
            .iter()
            .filter(|e| e.id > after)
            .take(limit)
            .cloned()
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
        let inner = self.lock();
        let mut matching: Vec<(PageKey, &Task)> = inner
            .tasks
            .values()
            .filter(|e| e.owner == *owner)
            .filter(|e| {
                request
                    .context_id
                    .as_ref()
                    .filter(|c| !c.is_empty())
                    .is_none_or(|c| e.task.context_id.as_ref() == Some(c))
            })
            .filter(|e| {
                request
                    .status
                    .is_none_or(|s| s == TaskState::Unspecified || e.task.status.state == s)
            })
            .filter(|e| {
                request
                    .status_timestamp_after
                    .is_none_or(|after| e.task.status.timestamp.is_some_and(|t| t >= after))
            })
            .map(|e| (PageKey::of(e), &e.task))
            .collect();
        // Newest status first; the later-created task first among equal times.
        matching.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        let start = after.map_or(0, |after| {
            matching.iter().take_while(|(key, _)| *key >= after).count()
        });
        let page = &matching[start..(start + page_size).min(matching.len())];
        let next_page_token = match page.last() {
            Some((key, _)) if start + page.len() < matching.len() => key.token(),
            _ => String::new(),
        };
        Ok(TaskPage::new(
            page.iter().map(|(_, task)| (*task).clone()).collect(),
            next_page_token,
            matching.len(),
        ))
    }
}

/// Where a task sorts in ListTasks: its status time (microseconds since the epoch), then creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PageKey {
    micros: i64,
    created: u64,
}

impl PageKey {
    fn of(entry: &Entry) -> Self {
        PageKey {
            micros: entry
                .task
                .status
                .timestamp
                .map_or(0, |t| t.timestamp_micros()),
            created: entry.created,
        }
    }

    /// The token continuing after this key: opaque to clients.
    fn token(&self) -> String {
        format!("{}.{}", self.micros, self.created)
    }

    fn parse(token: &str) -> Option<PageKey> {
        let (micros, created) = token.split_once('.')?;
        Some(PageKey {
            micros: micros.parse().ok()?,
            created: created.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{TaskStatus, TaskStatusUpdateEvent};

    fn task(id: &str, state: TaskState) -> Task {
        Task::new(id, "ctx", TaskStatus::now(state))
    }

    fn event(id: &str) -> StreamResponse {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            id,
            "ctx",
            TaskStatus::now(TaskState::Working),
        ))
    }

    #[tokio::test]
    async fn updates_need_the_current_version_and_log_their_event() {
        let store = InMemoryTaskStore::new();
        let owner = Owner::default();
        assert_eq!(
            store.create(&owner, task("t", TaskState::Submitted)).await,
            Ok(1)
        );
        let working = task("t", TaskState::Working);
        let v2 = store
            .update(&owner, working.clone(), 1, Some(event("t")))
            .await;
        assert_eq!(v2, Ok(2));
        let stale = store.update(&owner, working, 1, None).await;
        assert_eq!(stale, Err(StoreError::Conflict { current: 2 }));
        let page = store.events_after(&owner, "t", 0, 10).await.unwrap();
        assert_eq!(
            (page.events.len(), page.events[0].id, page.complete),
            (1, 2, true)
        );
        assert!(
            store
                .events_after(&owner, "t", 2, 10)
                .await
                .unwrap()
                .events
                .is_empty()
        );
    }

    #[tokio::test]
    async fn another_owner_sees_nothing() {
        let store = InMemoryTaskStore::new();
        let alice = Owner {
            principal: "alice".into(),
            tenant: String::new(),
        };
        let bob = Owner {
            principal: "bob".into(),
            tenant: String::new(),
        };
        store
            .create(&alice, task("t", TaskState::Working))
            .await
            .unwrap();
        assert_eq!(store.get(&bob, "t").await, Ok(None));
        let update = store
            .update(&bob, task("t", TaskState::Canceled), 1, None)
            .await;
        assert_eq!(update, Err(StoreError::NotFound));
        let listed = store
            .list(&bob, &ListTasksRequest::default(), 10)
            .await
            .unwrap();
        assert_eq!(listed.total_size, 0);
        assert_eq!(
            store.events_after(&bob, "t", 0, 1).await,
            Err(StoreError::NotFound)
        );
    }

    #[tokio::test]
    async fn the_store_evicts_finished_tasks_first_and_bounds_each_log() {
        let limits = MemoryLimits::default()
            .with_max_tasks(2)
            .with_max_events_per_task(3);
        let store = InMemoryTaskStore::with_limits(limits);
        let owner = Owner::default();
        store
            .create(&owner, task("done", TaskState::Completed))
            .await
            .unwrap();
        store
            .create(&owner, task("busy", TaskState::Working))
            .await
            .unwrap();
        store
            .create(&owner, task("new", TaskState::Submitted))
            .await
            .unwrap();
        assert_eq!(store.len(), 2);
        assert!(store.get(&owner, "done").await.unwrap().is_none());
        assert!(store.get(&owner, "busy").await.unwrap().is_some());
        for version in 1..=10 {
            store
                .update(
                    &owner,
                    task("busy", TaskState::Working),
                    version,
                    Some(event("busy")),
                )
                .await
                .unwrap();
        }
        let all = store.events_after(&owner, "busy", 0, 100).await.unwrap();
        assert_eq!(
            all.events.iter().map(|e| e.id).collect::<Vec<_>>(),
            [9, 10, 11]
        );
        assert!(!all.complete, "events 2 to 8 are gone");
        assert!(
            store
                .events_after(&owner, "busy", 8, 100)
                .await
                .unwrap()
                .complete
        );
    }

    #[tokio::test]
    async fn list_pages_newest_first_and_refuses_foreign_tokens() {
        let store = InMemoryTaskStore::new();
        let owner = Owner::default();
        for i in 0..5 {
            store
                .create(&owner, task(&format!("t{i}"), TaskState::Completed))
                .await
                .unwrap();
        }
        let mut seen = Vec::new();
        let mut request = ListTasksRequest::default();
        loop {
            let page = store.list(&owner, &request, 2).await.unwrap();
            assert_eq!(page.total_size, 5);
            seen.extend(page.tasks.into_iter().map(|t| t.id));
            if page.next_page_token.is_empty() {
                break;
            }
            request.page_token = Some(page.next_page_token);
        }
        assert_eq!(seen.len(), 5);
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 5, "no task twice: {seen:?}");
        let bad = ListTasksRequest {
            page_token: Some("x".into()),
            ..Default::default()
        };
        assert_eq!(
            store.list(&owner, &bad, 2).await,
            Err(StoreError::InvalidPageToken)
        );
    }
}
