//! The form events take in a task's log, on SQLite and PostgreSQL (skipped with one line when no
//! test database is set up; failing under `CI=true`): a status or artifact update of the task is
//! logged without the task's ids, any other event whole, and reading gives every event back as it
//! was written, from logs in this form and from logs that hold every event whole (as older
//! releases wrote them), through a stream's catch-up and through a push delivery.

mod common;

use std::time::Duration;

use a2a_server::push::{PushConfigStore, PushOutbox};
use a2a_server::store::TaskStore;
use a2a_server_sql::{PostgresStore, SqliteStore};
use a2a_types::v1::{
    Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use common::{owner, postgres_store, postgres_url, sqlite_store, unique};

/// Direct access to a store's log, as another program reading the database would have.
trait RawLog {
    /// The task's logged events, `(version, text)` in order.
    async fn logged(&self, task_id: &str) -> Vec<(i64, String)>;
    /// Puts `text` in place of the logged event `version` of the task.
    async fn rewrite(&self, task_id: &str, version: i64, text: &str);
}

const LOGGED: &str =
    "SELECT version, event FROM a2a_task_events WHERE task_id = $1 ORDER BY version";
const REWRITE: &str = "UPDATE a2a_task_events SET event = $3 WHERE task_id = $1 AND version = $2";

/// [`RawLog`] for a store type with a `pool()` (the two stores' pools differ in type only).
macro_rules! raw_log {
    ($store:ty) => {
        impl RawLog for $store {
            async fn logged(&self, task_id: &str) -> Vec<(i64, String)> {
                sqlx::query_as(LOGGED)
                    .bind(task_id)
                    .fetch_all(self.pool())
                    .await
                    .expect("the log is read")
            }

            async fn rewrite(&self, task_id: &str, version: i64, text: &str) {
                let done = sqlx::query(REWRITE)
                    .bind(task_id)
                    .bind(version)
                    .bind(text)
                    .execute(self.pool())
                    .await
                    .expect("the event is rewritten");
                assert_eq!(done.rows_affected(), 1);
            }
        }
    };
}

raw_log!(SqliteStore);
raw_log!(PostgresStore);

/// The events a task of context `ctx-1` is written with: its own updates (left without their ids
/// in the log), then an update naming another context and a message (both logged whole).
fn events(task_id: &str) -> Vec<StreamResponse> {
    let working = TaskStatus::now(TaskState::Working);
    let chunk = Artifact::new("artifact-1", [Part::text("chunk-1 ")]);
    vec![
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            task_id,
            "ctx-1",
            working.clone(),
        )),
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::new(task_id, "ctx-1", chunk)),
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(task_id, "ctx-2", working)),
        StreamResponse::Message(
            Message::agent("m-1", [Part::text("on my way")])
                .task_id(task_id)
                .context_id("ctx-1"),
        ),
    ]
}

async fn logged_events_read_back_as_written(
    store: &(impl TaskStore + PushConfigStore + PushOutbox + RawLog),
) {
    let alice = owner(&unique("alice"));
    let id = unique("task");
    let task = Task::new(&id, "ctx-1", TaskStatus::now(TaskState::Working));
    store.create(&alice, task.clone()).await.expect("created");
    let config = common::hook_config(&id);
    store
        .save(&alice, config)
        .await
        .expect("the push config is stored");
    let written = events(&id);
    for (version, event) in (1..).zip(&written) {
        let next = store
            .update(&alice, task.clone(), version, Some(event.clone()))
            .await
            .expect("updated");
        assert_eq!(next, version + 1);
    }

    // The task's own updates are logged without its ids; the others whole.
    let logged = store.logged(&id).await;
    assert_eq!(logged.len(), written.len());
    for ((_, text), whole) in logged.iter().zip([false, false, true, true]) {
        assert_eq!(text.contains(&id), whole, "{text}");
        assert_eq!(
            text.contains("ctx-1") || text.contains("ctx-2"),
            whole,
            "{text}"
        );
    }

    // Read back as written: by a stream's catch-up and by the push deliveries.
    let read = |page: a2a_server::store::EventPage| -> Vec<StreamResponse> {
        page.events.into_iter().map(|e| e.event).collect()
    };
    let caught_up = store.events_after(&alice, &id, 0, 10).await.expect("read");
    assert_eq!(read(caught_up), written);
    let mut delivered = store
        .claim("lease-1", Duration::from_secs(60), 10)
        .await
        .expect("claimed");
    delivered.sort_by_key(|entry| entry.id);
    let delivered: Vec<_> = delivered.into_iter().map(|entry| entry.event).collect();
    assert_eq!(delivered, written);

    // A log whose events are all whole (as older releases wrote it) reads the same.
    for (version, event) in (2..).zip(&written) {
        let whole = serde_json::to_string(event).expect("ProtoJSON");
        store.rewrite(&id, version, &whole).await;
    }
    let caught_up = store.events_after(&alice, &id, 0, 10).await.expect("read");
    assert_eq!(read(caught_up), written);
}

#[tokio::test]
async fn logged_events_read_back_as_written_on_sqlite() {
    let (store, path) = sqlite_store().await;
    logged_events_read_back_as_written(&store).await;
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn logged_events_read_back_as_written_on_postgres() {
    let Some(url) = postgres_url("logged_events_read_back_as_written_on_postgres") else {
        return;
    };
    let store = postgres_store(&common::fresh_schema(&url).await).await;
    logged_events_read_back_as_written(&store).await;
}
