//! What the server's tests share: a task store for tests that watch a store from outside (the
//! in-memory store behind only the methods a store must write, so `TaskStore::modify` is the
//! trait's default, counting the log events it hands out and, when asked, writing once behind the
//! caller's back), and the card of a test agent.

// Each test binary uses its part of this module.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use a2a_server::auth::Owner;
use a2a_server::store::{EventPage, StoreError, StoredTask, TaskPage};
use a2a_server::{InMemoryTaskStore, MemoryLimits, TaskStore, async_trait};
use a2a_types::v1::{AgentCard, AgentSkill, ListTasksRequest, StreamResponse, Task};

/// See the module docs; clones share their counts.
#[derive(Clone)]
pub struct ObservedStore {
    inner: Arc<InMemoryTaskStore>,
    events_read: Arc<AtomicUsize>,
    interleave_once: Arc<AtomicBool>,
}

impl ObservedStore {
    pub fn new(limits: MemoryLimits) -> Self {
        ObservedStore {
            inner: Arc::new(InMemoryTaskStore::with_limits(limits)),
            events_read: Arc::default(),
            interleave_once: Arc::default(),
        }
    }

    /// The log events handed out so far (by `events_after`).
    pub fn events_read(&self) -> usize {
        self.events_read.load(Ordering::SeqCst)
    }

    /// At the next `update`, another writer changes the task first (its metadata set to an empty
    /// object, no event), as another replica would between a read and a write.
    pub fn interleave_next_update(&self) {
        self.interleave_once.store(true, Ordering::SeqCst);
    }
}

#[async_trait]
impl TaskStore for ObservedStore {
    async fn create(&self, owner: &Owner, task: Task) -> Result<u64, StoreError> {
        self.inner.create(owner, task).await
    }

    async fn get(&self, owner: &Owner, task_id: &str) -> Result<Option<StoredTask>, StoreError> {
        self.inner.get(owner, task_id).await
    }

    async fn update(
        &self,
        owner: &Owner,
        task: Task,
        expected_version: u64,
        event: Option<StreamResponse>,
    ) -> Result<u64, StoreError> {
        if self.interleave_once.swap(false, Ordering::SeqCst) {
            let mut theirs = self.inner.get(owner, &task.id).await?.expect("stored");
            theirs.task.metadata = Some(Default::default());
            self.inner
                .update(owner, theirs.task, theirs.version, None)
                .await?;
        }
        self.inner
            .update(owner, task, expected_version, event)
            .await
    }

    async fn events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        let page = self
            .inner
            .events_after(owner, task_id, after, limit)
            .await?;
        self.events_read
            .fetch_add(page.events.len(), Ordering::SeqCst);
        Ok(page)
    }

    async fn list(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError> {
        self.inner.list(owner, request, page_size).await
    }
}

/// The card of a test agent `name` (`description`): JSON-RPC at an address nothing calls, text in
/// and out, streaming when `streaming`, and one skill named after the agent that does `does`.
pub fn card(name: &str, description: &str, does: &str, streaming: bool) -> AgentCard {
    AgentCard::builder(name, description, "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .streaming(streaming)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: name.to_lowercase(),
            name: name.into(),
            description: does.into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .unwrap()
}
