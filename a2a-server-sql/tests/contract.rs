//! The store traits' contract, one test body run against every store: in memory, SQLite and
//! PostgreSQL (skipped with one line when no test database is set up; failing under `CI=true`).
//! Then what only the SQL stores promise: concurrent updaters that lose nothing, tasks that
//! outlive the process's handle on the file, and retention.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::push::PushConfigStore;
use a2a_server::store::{StoreError, TaskStore};
use a2a_server::{InMemoryPushConfigStore, InMemoryTaskStore};
use a2a_server_sql::{RetentionPolicy, SqliteStore};
use a2a_types::v1::{
    Artifact, ListTasksRequest, Message, Part, StreamResponse, Task, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use chrono::{TimeZone, Utc};
use common::{owner, postgres_store, postgres_url, sqlite_store, unique};

fn task_at(id: &str, context: &str, state: TaskState, second: i64) -> Task {
    let status = TaskStatus {
        timestamp: Some(Utc.timestamp_opt(1_800_000_000 + second, 0).unwrap()),
        ..TaskStatus::now(state)
    };
    Task::new(id, context, status)
}

fn working(id: &str) -> StreamResponse {
    let status = task_at(id, "ctx", TaskState::Working, 5).status;
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(id, "ctx", status))
}

fn config(task_id: &str, id: &str, url: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        id: Some(id.into()),
        task_id: Some(task_id.into()),
        url: url.into(),
        token: Some(format!("token-{id}")),
        ..Default::default()
    }
}

/// Every promise of `TaskStore` and `PushConfigStore`, on one store.
async fn contract(tasks: Arc<dyn TaskStore>, push: Arc<dyn PushConfigStore>) {
    let alice = owner(&unique("alice"));
    let bob = owner(&unique("bob"));
    let id = common::task_id();

    // Create, read back exactly (a task with history, artifacts and metadata), refuse a taken id.
    let mut task = task_at(&id, "ctx-a", TaskState::Submitted, 0);
    task.history
        .push(Message::user("m-1", [Part::text("Book a table for two")]));
    task.artifacts
        .push(Artifact::new("a-1", [Part::text("Table at 8pm")]));
    task.metadata = Some(serde_json::from_str(r#"{"priority": 3, "tags": ["x"]}"#).unwrap());
    assert_eq!(tasks.create(&alice, task.clone()).await, Ok(1));
    let stored = tasks.get(&alice, &id).await.unwrap().expect("stored");
    assert_eq!((stored.task, stored.version), (task.clone(), 1));
    assert_eq!(
        tasks.create(&alice, task.clone()).await,
        Err(StoreError::AlreadyExists)
    );
    assert_eq!(
        tasks.create(&bob, task.clone()).await,
        Err(StoreError::AlreadyExists),
        "ids are unique across owners"
    );

    // Optimistic concurrency and the event log.
    task.status.state = TaskState::Working;
    assert_eq!(
        tasks
            .update(&alice, task.clone(), 1, Some(working(&id)))
            .await,
        Ok(2)
    );
    assert_eq!(
        tasks
            .update(&alice, task.clone(), 1, Some(working(&id)))
            .await,
        Err(StoreError::Conflict { current: 2 })
    );
    assert_eq!(tasks.update(&alice, task.clone(), 2, None).await, Ok(3));
    assert_eq!(
        tasks
            .update(&alice, task.clone(), 3, Some(working(&id)))
            .await,
        Ok(4)
    );
    let page = tasks.events_after(&alice, &id, 0, 10).await.unwrap();
    assert!(page.complete);
    assert_eq!(
        page.events.iter().map(|e| e.id).collect::<Vec<_>>(),
        [2, 4],
        "an update without an event logs none"
    );
    assert_eq!(page.events[0].event, working(&id));
    let later = tasks.events_after(&alice, &id, 2, 10).await.unwrap();
    assert_eq!(later.events.iter().map(|e| e.id).collect::<Vec<_>>(), [4]);
    let limited = tasks.events_after(&alice, &id, 0, 1).await.unwrap();
    assert_eq!(limited.events.len(), 1);
    assert_eq!(tasks.get(&alice, &id).await.unwrap().unwrap().version, 4);

    // Another owner sees nothing and changes nothing.
    assert_eq!(tasks.get(&bob, &id).await, Ok(None));
    assert_eq!(
        tasks.update(&bob, task.clone(), 4, None).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(
        tasks.events_after(&bob, &id, 0, 10).await,
        Err(StoreError::NotFound)
    );
    let missing = task_at(&common::task_id(), "ctx", TaskState::Working, 0);
    assert_eq!(
        tasks.update(&alice, missing, 1, None).await,
        Err(StoreError::NotFound)
    );

    // ListTasks: newest status first, paged, filtered, counted; the owner's tasks only.
    let lister = owner(&unique("lister"));
    for (i, (context, state)) in [
        ("ctx-1", TaskState::Completed),
        ("ctx-2", TaskState::Working),
        ("ctx-1", TaskState::Working),
        ("ctx-2", TaskState::Completed),
        ("ctx-1", TaskState::Failed),
    ]
    .into_iter()
    .enumerate()
    {
        let listed = task_at(&format!("{id}-{i}"), context, state, i as i64 * 10);
        tasks.create(&lister, listed).await.unwrap();
    }
    let mut request = ListTasksRequest::default();
    let mut seen = Vec::new();
    loop {
        let page = tasks.list(&lister, &request, 2).await.unwrap();
        assert_eq!(page.total_size, 5);
        assert!(page.tasks.len() <= 2);
        seen.extend(page.tasks.into_iter().map(|t| t.id));
        if page.next_page_token.is_empty() {
            break;
        }
        request.page_token = Some(page.next_page_token);
    }
    let expected: Vec<String> = (0..5).rev().map(|i| format!("{id}-{i}")).collect();
    assert_eq!(seen, expected, "newest status first, each task once");
    let filter =
        |context: Option<&str>, status: Option<TaskState>, after: Option<i64>| ListTasksRequest {
            context_id: context.map(Into::into),
            status,
            status_timestamp_after: after.map(|s| Utc.timestamp_opt(1_800_000_000 + s, 0).unwrap()),
            ..Default::default()
        };
    let ids = |page: a2a_server::store::TaskPage| {
        let total = page.total_size;
        (
            page.tasks.into_iter().map(|t| t.id).collect::<Vec<_>>(),
            total,
        )
    };
    let by_context = tasks
        .list(&lister, &filter(Some("ctx-1"), None, None), 10)
        .await
        .unwrap();
    assert_eq!(
        ids(by_context),
        (
            vec![format!("{id}-4"), format!("{id}-2"), format!("{id}-0")],
            3
        )
    );
    let by_state = tasks
        .list(&lister, &filter(None, Some(TaskState::Working), None), 10)
        .await
        .unwrap();
    assert_eq!(
        ids(by_state),
        (vec![format!("{id}-2"), format!("{id}-1")], 2)
    );
    let by_time = tasks
        .list(&lister, &filter(Some("ctx-1"), None, Some(20)), 10)
        .await
        .unwrap();
    assert_eq!(
        ids(by_time),
        (vec![format!("{id}-4"), format!("{id}-2")], 2)
    );
    let unspecified = tasks
        .list(
            &lister,
            &filter(None, Some(TaskState::Unspecified), None),
            10,
        )
        .await
        .unwrap();
    assert_eq!(unspecified.total_size, 5, "UNSPECIFIED filters nothing");
    let foreign = ListTasksRequest {
        page_token: Some("not-a-token".into()),
        ..Default::default()
    };
    assert_eq!(
        tasks.list(&lister, &foreign, 2).await,
        Err(StoreError::InvalidPageToken)
    );
    assert_eq!(
        tasks
            .list(&owner(&unique("nobody")), &ListTasksRequest::default(), 10)
            .await
            .unwrap()
            .total_size,
        0
    );

    // Push configs: by owner and task, in first-stored order, replaced in place, deleted.
    let first = config(&id, "c-1", "https://hooks.example.com/one");
    let second = config(&id, "c-2", "https://hooks.example.com/two");
    push.save(&alice, first.clone()).await.unwrap();
    push.save(&alice, second.clone()).await.unwrap();
    let replaced = config(&id, "c-1", "https://hooks.example.com/replaced");
    push.save(&alice, replaced.clone()).await.unwrap();
    assert_eq!(
        push.list(&alice, &id).await.unwrap(),
        [replaced.clone(), second.clone()]
    );
    assert_eq!(push.get(&alice, &id, "c-2").await, Ok(Some(second.clone())));
    assert_eq!(push.get(&bob, &id, "c-2").await, Ok(None));
    assert!(push.list(&bob, &id).await.unwrap().is_empty());
    push.delete(&alice, &id, "c-1").await.unwrap();
    push.delete(&alice, &id, "c-1").await.unwrap();
    assert_eq!(push.list(&alice, &id).await.unwrap(), [second]);
    let many = unique("many");
    for i in 0..16 {
        push.save(
            &alice,
            config(&many, &format!("c-{i}"), "https://h.example.com"),
        )
        .await
        .unwrap();
    }
    assert!(matches!(
        push.save(&alice, config(&many, "c-16", "https://h.example.com"))
            .await,
        Err(StoreError::Backend(_))
    ));
    assert_eq!(push.list(&alice, &many).await.unwrap().len(), 16);

    // Several events in one change: each takes the next version, in order, all logged.
    let batched = common::task_id();
    tasks
        .create(&alice, task_at(&batched, "ctx", TaskState::Submitted, 1))
        .await
        .unwrap();
    let mut changes = 0;
    let events = vec![working(&batched), working(&batched), working(&batched)];
    let last = tasks
        .modify_each(&alice, &batched, events.clone(), &mut |task, event| {
            changes += 1;
            if let Some(StreamResponse::StatusUpdate(update)) = event {
                task.status = update.status.clone();
            }
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(
        (last, changes),
        (4, 3),
        "one version and one change per event"
    );
    let logged = tasks.events_after(&alice, &batched, 1, 10).await.unwrap();
    assert_eq!(
        logged.events.iter().map(|e| e.id).collect::<Vec<_>>(),
        [2, 3, 4]
    );
    assert_eq!(
        logged
            .events
            .into_iter()
            .map(|e| e.event)
            .collect::<Vec<_>>(),
        events
    );
    let stored = tasks.get(&alice, &batched).await.unwrap().unwrap();
    assert_eq!(
        (stored.version, stored.task.status.state),
        (4, TaskState::Working)
    );
}

#[tokio::test]
async fn the_contract_holds_in_memory() {
    contract(
        Arc::new(InMemoryTaskStore::new()),
        Arc::new(InMemoryPushConfigStore::new()),
    )
    .await;
}

#[tokio::test]
async fn the_contract_holds_on_sqlite() {
    let (store, path) = sqlite_store().await;
    contract(Arc::new(store.clone()), Arc::new(store)).await;
    common::remove_sqlite(&path);
}

/// The contract on a SQLite store whose tasks all go to slices (a policy keeping ended tasks an
/// hour makes them at once, from now): every statement routed to a slice's tables, every listing
/// read across them; then the file opened again finds its slices.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_contract_holds_on_sqlite_in_slices() {
    let (store, path) = sqlite_store().await;
    let policy = RetentionPolicy::new().terminal_tasks_after(Duration::from_secs(3600));
    let store = store.with_retention(Some(policy), Duration::from_secs(24 * 3600));
    let slices = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' \
         AND name LIKE 'a2a\\_tasks\\_%' ESCAPE '\\'";
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while sqlx::query_scalar::<_, i64>(slices)
        .fetch_one(store.pool())
        .await
        .unwrap()
        == 0
    {
        assert!(tokio::time::Instant::now() < deadline, "no slice was made");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The set is changed in the same turn of the writer as the tables; one more write's turn
    // and it has them.
    store
        .create(
            &owner("turn"),
            task_at(&common::task_id(), "c", TaskState::Working, 0),
        )
        .await
        .unwrap();
    contract(Arc::new(store.clone()), Arc::new(store.clone())).await;
    let outside: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM a2a_tasks")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(outside, 0, "every task in a slice");

    let alice = owner("reopened");
    let id = common::task_id();
    store
        .create(&alice, task_at(&id, "ctx", TaskState::Working, 0))
        .await
        .unwrap();
    store
        .update(
            &alice,
            task_at(&id, "ctx", TaskState::Completed, 1),
            1,
            Some(working(&id)),
        )
        .await
        .unwrap();
    store.pool().close().await;
    drop(store);
    let reopened = SqliteStore::open(&path).await.unwrap();
    let stored = TaskStore::get(&reopened, &alice, &id)
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(
        (stored.task.status.state, stored.version),
        (TaskState::Completed, 2)
    );
    let page = reopened.events_after(&alice, &id, 0, 10).await.unwrap();
    assert_eq!(page.events.len(), 1);
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn the_contract_holds_on_postgres() {
    let Some(url) = postgres_url("the_contract_holds_on_postgres") else {
        return;
    };
    let store = postgres_store(&common::fresh_schema(&url).await).await;
    contract(Arc::new(store.clone()), Arc::new(store)).await;
}

/// `workers` updaters per task on `tasks` tasks, each making `updates` read-modify-write updates
/// (a message appended, the event logged), spread over the given stores (replicas of one
/// database): every update must land, once, in the task and in its log.
async fn concurrent_updaters_lose_nothing(replicas: Vec<Arc<dyn TaskStore>>) {
    const TASKS: usize = 4;
    const WORKERS: usize = 8;
    const UPDATES: usize = 12;
    let alice = owner(&unique("alice"));
    let ids: Vec<String> = (0..TASKS).map(|_| unique("busy")).collect();
    for id in &ids {
        replicas[0]
            .create(&alice, task_at(id, "ctx", TaskState::Working, 0))
            .await
            .unwrap();
    }
    let mut workers = Vec::new();
    let mut conflicts = 0;
    for (w, id) in (0..WORKERS).flat_map(|w| ids.iter().map(move |id| (w, id.clone()))) {
        let store = replicas[w % replicas.len()].clone();
        let alice = alice.clone();
        workers.push(tokio::spawn(async move {
            let mut conflicts = 0;
            for u in 0..UPDATES {
                loop {
                    let stored = store.get(&alice, &id).await.unwrap().unwrap();
                    let mut task = stored.task;
                    let message = Message::user(format!("w{w}-u{u}"), [Part::text("one more")]);
                    task.history.push(message.clone());
                    match store
                        .update(
                            &alice,
                            task,
                            stored.version,
                            Some(StreamResponse::Message(message)),
                        )
                        .await
                    {
                        Ok(_) => break,
                        Err(StoreError::Conflict { .. }) => conflicts += 1,
                        Err(other) => panic!("update failed: {other}"),
                    }
                }
            }
            conflicts
        }));
    }
    for worker in workers {
        conflicts += worker.await.unwrap();
    }
    let per_task = WORKERS * UPDATES;
    for id in &ids {
        let stored = replicas[replicas.len() - 1]
            .get(&alice, id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.version, 1 + per_task as u64);
        let mut messages: Vec<String> = stored
            .task
            .history
            .iter()
            .map(|m| m.message_id.clone())
            .collect();
        assert_eq!(messages.len(), per_task, "every update is in the task");
        messages.sort();
        messages.dedup();
        assert_eq!(messages.len(), per_task, "and each once");
        let log = replicas[0]
            .events_after(&alice, id, 0, 10_000)
            .await
            .unwrap();
        assert!(log.complete);
        let versions: Vec<u64> = log.events.iter().map(|e| e.id).collect();
        assert_eq!(versions, (2..=1 + per_task as u64).collect::<Vec<_>>());
    }
    eprintln!(
        "{} updates on {} replica(s), {conflicts} conflicts retried, none lost",
        TASKS * per_task,
        replicas.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_updaters_lose_nothing_in_memory() {
    concurrent_updaters_lose_nothing(vec![Arc::new(InMemoryTaskStore::new())]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_updaters_lose_nothing_on_sqlite() {
    let (store, path) = sqlite_store().await;
    concurrent_updaters_lose_nothing(vec![Arc::new(store)]).await;
    common::remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_updaters_on_two_postgres_replicas_lose_nothing() {
    let Some(url) = postgres_url("concurrent_updaters_on_two_postgres_replicas_lose_nothing")
    else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let a = postgres_store(&options).await;
    let b = postgres_store(&options).await;
    concurrent_updaters_lose_nothing(vec![Arc::new(a), Arc::new(b)]).await;
}

/// One store writes a SQLite file: a second one (another process, or this one) is refused at open
/// (after waiting a few seconds for the first to let go),
/// naming the lock, while the first lives; once it is gone the file opens again.
#[tokio::test]
async fn a_second_store_on_one_sqlite_file_is_refused_until_the_first_is_gone() {
    let (store, path) = sqlite_store().await;
    let clone = store.clone();
    drop(store);
    let refused = SqliteStore::open(&path)
        .await
        .expect_err("a clone still holds the file");
    assert!(
        matches!(&refused, a2a_server_sql::OpenError::InUse { path: lock } if lock.ends_with(format!("{}.lock", path.file_name().unwrap().to_string_lossy()))),
        "{refused}"
    );
    assert!(
        refused.to_string().contains("in use by another store"),
        "{refused}"
    );
    drop(clone);
    let reopened = SqliteStore::open(&path).await.expect("free again");
    drop(reopened);
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn sqlite_tasks_and_events_outlive_the_store_that_wrote_them() {
    let (store, path) = sqlite_store().await;
    let alice = owner("alice");
    store
        .create(&alice, task_at("kept", "ctx", TaskState::Working, 0))
        .await
        .unwrap();
    store
        .update(
            &alice,
            task_at("kept", "ctx", TaskState::Completed, 1),
            1,
            Some(working("kept")),
        )
        .await
        .unwrap();
    store.pool().close().await;
    drop(store);
    let reopened = SqliteStore::open(&path).await.unwrap();
    let stored = TaskStore::get(&reopened, &alice, "kept")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.version, stored.task.status.state),
        (2, TaskState::Completed)
    );
    let log = reopened.events_after(&alice, "kept", 0, 10).await.unwrap();
    assert_eq!(log.events.iter().map(|e| e.id).collect::<Vec<_>>(), [2]);
    common::remove_sqlite(&path);
}

/// Retention on a store that offers it: old terminal tasks go with their events and configs,
/// logs keep their newest events, readers behind what is kept are told.
macro_rules! retention_test {
    ($store:expr) => {{
        let store = $store;
        let alice = owner("alice");
        store
            .create(&alice, task_at("done", "ctx", TaskState::Working, 0))
            .await
            .unwrap();
        store
            .update(
                &alice,
                task_at("done", "ctx", TaskState::Completed, 1),
                1,
                Some(working("done")),
            )
            .await
            .unwrap();
        PushConfigStore::save(&store, &alice, config("done", "c", "https://h.example.com"))
            .await
            .unwrap();
        store
            .create(&alice, task_at("long", "ctx", TaskState::Working, 0))
            .await
            .unwrap();
        for version in 1..=10 {
            store
                .update(
                    &alice,
                    task_at("long", "ctx", TaskState::Working, 2),
                    version,
                    Some(working("long")),
                )
                .await
                .unwrap();
        }
        let nothing = store.prune(&RetentionPolicy::new()).await.unwrap();
        assert_eq!((nothing.tasks, nothing.events), (0, 0));
        let kept_hours = RetentionPolicy::new().terminal_tasks_after(Duration::from_secs(3600));
        assert_eq!(
            store.prune(&kept_hours).await.unwrap().tasks,
            0,
            "not old enough"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        let policy = RetentionPolicy::new()
            .terminal_tasks_after(Duration::from_millis(10))
            .max_events_per_task(3);
        let report = store.prune(&policy).await.unwrap();
        assert_eq!((report.tasks, report.events), (1, 7));
        assert_eq!(TaskStore::get(&store, &alice, "done").await, Ok(None));
        assert!(
            PushConfigStore::list(&store, &alice, "done")
                .await
                .unwrap()
                .is_empty()
        );
        let all = TaskStore::events_after(&store, &alice, "long", 0, 100)
            .await
            .unwrap();
        assert_eq!(
            all.events.iter().map(|e| e.id).collect::<Vec<_>>(),
            [9, 10, 11]
        );
        assert!(!all.complete, "events 2 to 8 are gone");
        assert!(
            TaskStore::events_after(&store, &alice, "long", 8, 100)
                .await
                .unwrap()
                .complete
        );
        let by_age = RetentionPolicy::new().events_after(Duration::from_millis(1));
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(store.prune(&by_age).await.unwrap().events, 3);
        assert!(
            TaskStore::get(&store, &alice, "long")
                .await
                .unwrap()
                .is_some(),
            "a working task stays"
        );
    }};
}

/// A store opens pruning by the recommended policy every five minutes, with nothing configured;
/// `with_retention` changes it, the pass runs in the background (a task over for eight days goes
/// at its first tick, a task over for moments stays), and `None` keeps everything.
#[tokio::test]
async fn a_store_prunes_by_the_recommended_policy_in_the_background_until_told_otherwise() {
    let (store, path) = sqlite_store().await;
    assert_eq!(
        store.retention(),
        Some((
            RetentionPolicy::recommended(),
            a2a_server_sql::RETENTION_INTERVAL
        ))
    );
    let alice = owner("alice");
    for id in ["old", "recent"] {
        store
            .create(&alice, task_at(id, "ctx", TaskState::Working, 0))
            .await
            .unwrap();
        store
            .update(
                &alice,
                task_at(id, "ctx", TaskState::Completed, 1),
                1,
                Some(working(id)),
            )
            .await
            .unwrap();
    }
    let eight_days: i64 = 8 * 24 * 60 * 60 * 1_000_000;
    sqlx::query("UPDATE a2a_tasks SET updated_micros = updated_micros - ? WHERE id = 'old'")
        .bind(eight_days)
        .execute(store.pool())
        .await
        .unwrap();

    let keeping = store.with_retention(None, Duration::from_millis(10));
    assert_eq!(keeping.retention(), None);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TaskStore::get(&keeping, &alice, "old")
            .await
            .unwrap()
            .is_some()
    );

    let pruning = keeping.with_retention(
        Some(RetentionPolicy::recommended()),
        Duration::from_millis(10),
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while TaskStore::get(&pruning, &alice, "old")
        .await
        .unwrap()
        .is_some()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the task over for eight days is still there"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        TaskStore::get(&pruning, &alice, "recent")
            .await
            .unwrap()
            .is_some(),
        "a task over for moments stays"
    );
    drop(pruning);
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn retention_prunes_sqlite() {
    let (store, path) = sqlite_store().await;
    retention_test!(store);
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn retention_prunes_postgres() {
    let Some(url) = postgres_url("retention_prunes_postgres") else {
        return;
    };
    retention_test!(postgres_store(&common::fresh_schema(&url).await).await);
}

/// A row whose columns were changed by hand to values of another type (SQLite keeps any value in
/// any column) is an error naming the task, for GetTask, ListTasks and the event log alike, never a
/// panic; the owner's other tasks are still read one by one.
#[tokio::test]
async fn a_tampered_sqlite_row_is_an_error_naming_the_task() {
    let (store, path) = sqlite_store().await;
    let tasks: &dyn TaskStore = &store;
    let alice = owner("alice");
    let (good, bad) = (unique("good"), unique("bad"));
    for id in [&good, &bad] {
        tasks
            .create(&alice, task_at(id, "ctx", TaskState::Submitted, 0))
            .await
            .unwrap();
        let working_task = task_at(id, "ctx", TaskState::Working, 5);
        tasks
            .update(&alice, working_task, 1, Some(working(id)))
            .await
            .unwrap();
    }
    for statement in [
        "UPDATE a2a_tasks SET task = x'00ff', version = 'many', status_micros = 'late' WHERE id = $1",
        "UPDATE a2a_task_events SET version = 'first', event = 42 WHERE task_id = $1",
    ] {
        sqlx::query(statement)
            .bind(&bad)
            .execute(store.pool())
            .await
            .unwrap();
    }
    let named = |error: StoreError| {
        let text = format!("{error:?}");
        assert!(text.contains(&bad), "{text}");
    };
    named(tasks.get(&alice, &bad).await.unwrap_err());
    named(
        tasks
            .list(&alice, &ListTasksRequest::default(), 10)
            .await
            .unwrap_err(),
    );
    named(tasks.events_after(&alice, &bad, 0, 10).await.unwrap_err());
    assert!(tasks.get(&alice, &good).await.unwrap().is_some());
    common::remove_sqlite(&path);
}
