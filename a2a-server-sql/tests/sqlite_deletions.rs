//! SQLite's migration `0008`, which makes removing tasks cheaper, on a database that already holds
//! tasks and events: the schema is put back as it was before it (the events' table referencing
//! the tasks, a row trigger lowering the counts), the migration runs again when the store opens,
//! and then every event is still there, the reference and the trigger are gone, and a task
//! removed by retention leaves its owner's count once, with its events.

mod common;

use std::time::Duration;

use a2a_server::store::TaskStore;
use a2a_server_sql::{RetentionPolicy, SqliteStore};
use a2a_types::v1::{StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent};
use common::{change_sqlite_schema, owner, sqlite_store};

/// The schema before migration `0008`: the events' table as `0001` made it, and the trigger
/// `0005` made; the migration's record dropped so that it runs again.
const BEFORE_0008: [&str; 6] = [
    "CREATE TABLE a2a_task_events_referenced (\
     task_id TEXT NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE, \
     version INTEGER NOT NULL, created_micros INTEGER NOT NULL, event TEXT NOT NULL, \
     PRIMARY KEY (task_id, version)) WITHOUT ROWID",
    "INSERT INTO a2a_task_events_referenced SELECT task_id, version, created_micros, event \
     FROM a2a_task_events",
    "DROP TABLE a2a_task_events",
    "ALTER TABLE a2a_task_events_referenced RENAME TO a2a_task_events",
    "CREATE TRIGGER a2a_tasks_counted_out AFTER DELETE ON a2a_tasks BEGIN \
     UPDATE a2a_task_counts SET tasks = tasks - 1 \
     WHERE owner_principal = OLD.owner_principal AND owner_tenant = OLD.owner_tenant; END",
    "DELETE FROM _sqlx_migrations WHERE version = 8",
];

fn status(id: &str, state: TaskState) -> (Task, StreamResponse) {
    let status = TaskStatus::now(state);
    let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(id, "ctx", status.clone()));
    (Task::new(id, "ctx", status), event)
}

/// How many rows `sql` counts.
async fn count(store: &SqliteStore, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(store.pool())
        .await
        .expect("counted")
}

#[tokio::test]
async fn migration_0008_keeps_the_events_and_counts_each_removed_task_once() {
    let (store, path) = sqlite_store().await;
    let alice = owner("alice");
    for id in ["ended", "running"] {
        let (task, _) = status(id, TaskState::Submitted);
        store.create(&alice, task).await.expect("created");
        let (task, event) = status(id, TaskState::Working);
        store
            .update(&alice, task, 1, Some(event))
            .await
            .expect("an event logged");
    }
    let (task, event) = status("ended", TaskState::Completed);
    store
        .update(&alice, task, 2, Some(event))
        .await
        .expect("ended");
    change_sqlite_schema(&store, &BEFORE_0008).await;
    let referencing = "SELECT COUNT(*) FROM pragma_foreign_key_list('a2a_task_events')";
    assert_eq!(count(&store, referencing).await, 1, "the reference is back");
    drop(store);

    let store = SqliteStore::open(&path).await.expect("migrated again");
    assert_eq!(count(&store, referencing).await, 0, "the reference is gone");
    let triggers = "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'trigger' \
                    AND name = 'a2a_tasks_counted_out'";
    assert_eq!(count(&store, triggers).await, 0, "the row trigger is gone");
    for (id, versions) in [("ended", vec![2, 3]), ("running", vec![2])] {
        let page = store.events_after(&alice, id, 0, 10).await.expect("read");
        let read: Vec<u64> = page.events.iter().map(|event| event.id).collect();
        assert_eq!(read, versions, "{id}'s events are all kept");
    }

    tokio::time::sleep(Duration::from_millis(20)).await;
    let policy = RetentionPolicy::new().terminal_tasks_after(Duration::from_millis(10));
    assert_eq!(store.prune(&policy).await.expect("pruned").tasks, 1);
    assert_eq!(
        count(&store, "SELECT tasks FROM a2a_task_counts").await,
        1,
        "the task removed leaves the count once"
    );
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM a2a_task_events WHERE task_id = 'ended'"
        )
        .await,
        0,
        "its events go with it"
    );
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM a2a_task_events").await,
        1,
        "the other task's event stays"
    );
    drop(store);
    common::remove_sqlite(&path);
}
