//! ListTasks' total without a filter comes from per-owner counters (`a2a_task_counts`), kept by
//! the migrations' triggers and, on SQLite, by the statements that remove tasks: they follow
//! every creation (a refused duplicate counts nothing), every task retention removes, each owner
//! apart, and a database that held tasks before the counters existed is counted when it
//! migrates. Each step is checked against a count of the rows, and against the filtered total,
//! which still counts rows.

mod common;

use std::time::Duration;

use a2a_server::auth::Owner;
use a2a_server::store::{StoreError, TaskStore};
use a2a_server_sql::RetentionPolicy;
use a2a_types::v1::{ListTasksRequest, Task, TaskState, TaskStatus};
use common::{owner, postgres_store, postgres_url, sqlite_store};

fn task(id: &str, state: TaskState) -> Task {
    Task::new(id, "ctx", TaskStatus::now(state))
}

/// Creates each of `ids` for `owner`, working.
async fn create_working(store: &dyn TaskStore, owner: &Owner, ids: &[&str]) {
    for id in ids {
        store
            .create(owner, task(id, TaskState::Working))
            .await
            .unwrap();
    }
}

/// The owner's total without a filter, and with a filter that every task of these tests passes
/// (so the two must agree).
async fn totals(store: &dyn TaskStore, owner: &Owner) -> (usize, usize) {
    let all = store
        .list(owner, &ListTasksRequest::default(), 10)
        .await
        .expect("ListTasks");
    let filtered = ListTasksRequest {
        context_id: Some("ctx".into()),
        ..Default::default()
    };
    let filtered = store.list(owner, &filtered, 10).await.expect("ListTasks");
    (all.total_size, filtered.total_size)
}

/// Creates, refuses a duplicate, finishes and prunes (by `prune`, the store's own, giving the
/// tasks it removed); the totals after each step.
async fn counts_follow_the_rows(
    store: &dyn TaskStore,
    prune: impl AsyncFnOnce(&RetentionPolicy) -> u64,
) {
    let (alice, bob) = (owner("alice"), owner("bob"));
    create_working(store, &alice, &["a1", "a2", "a3"]).await;
    create_working(store, &bob, &["b1"]).await;
    assert_eq!(totals(store, &alice).await, (3, 3));
    assert_eq!(totals(store, &bob).await, (1, 1));
    assert_eq!(
        store.create(&alice, task("a1", TaskState::Working)).await,
        Err(StoreError::AlreadyExists)
    );
    assert_eq!(
        totals(store, &alice).await,
        (3, 3),
        "a refused duplicate counts nothing"
    );
    for id in ["a1", "a2"] {
        store
            .update(&alice, task(id, TaskState::Completed), 1, None)
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    let pruned =
        prune(&RetentionPolicy::new().terminal_tasks_after(Duration::from_millis(10))).await;
    assert_eq!(pruned, 2);
    assert_eq!(
        totals(store, &alice).await,
        (1, 1),
        "pruned tasks leave the count"
    );
    assert_eq!(
        totals(store, &bob).await,
        (1, 1),
        "another owner's count is untouched"
    );
}

/// Tasks created already ended, many at once by several owners, with some ids sent twice side
/// by side: each id is stored once (the second gets `AlreadyExists`), every task reads back as
/// written, and each owner's total is its own tasks. On both databases these creations are
/// written in groups, so the tasks share statements here.
async fn ended_tasks_created_together_are_each_counted_once(store: &(dyn TaskStore + Sync)) {
    const PER_OWNER: usize = 60;
    let owners = [owner("carol"), owner("dave"), owner("erin")];
    let mut creations = Vec::new();
    for (o, owner) in owners.iter().enumerate() {
        for n in 0..PER_OWNER {
            creations.push((owner, format!("{o}-{n}")));
            if n % 10 == 0 {
                creations.push((owner, format!("{o}-{n}")));
            }
        }
    }
    let created = futures_util::future::join_all(creations.iter().map(|(owner, id)| async move {
        let ended = task(id, TaskState::Completed);
        store
            .create_with_events(owner, ended, Vec::new(), &mut |_, _| Ok(()))
            .await
    }))
    .await;
    for (o, owner) in owners.iter().enumerate() {
        for n in 0..PER_OWNER {
            let id = format!("{o}-{n}");
            let answers: Vec<_> = creations
                .iter()
                .zip(&created)
                .filter(|((_, created_id), _)| *created_id == id)
                .map(|(_, answer)| answer.clone())
                .collect();
            let stored = answers.iter().filter(|answer| answer.is_ok()).count();
            assert_eq!(stored, 1, "{id} is stored once: {answers:?}");
            for answer in answers.iter().filter(|answer| answer.is_err()) {
                assert_eq!(
                    answer,
                    &Err(StoreError::AlreadyExists.to_error(&id)),
                    "{id} sent again is refused"
                );
            }
            let read = store.get(owner, &id).await.expect("GetTask");
            let read = read.expect("the task reads back");
            assert_eq!(read.task.status.state, TaskState::Completed);
        }
        assert_eq!(totals(store, owner).await, (PER_OWNER, PER_OWNER));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_ended_tasks_created_together_are_each_counted_once() {
    let (store, path) = sqlite_store().await;
    ended_tasks_created_together_are_each_counted_once(&store).await;
    drop(store);
    common::remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_ended_tasks_created_together_are_each_counted_once() {
    let Some(url) = postgres_url("postgres_ended_tasks_created_together_are_each_counted_once")
    else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let store = postgres_store(&options).await;
    ended_tasks_created_together_are_each_counted_once(&store).await;
}

/// A task PostgreSQL refuses (text holding a NUL, which its `text` type cannot store) among tasks
/// created side by side: its group's statement fails, and the group is written again task by
/// task, so that task alone fails; the others are stored and counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_refused_task_fails_alone_in_its_group() {
    const TASKS: usize = 40;
    const REFUSED: usize = 17;
    let Some(url) = postgres_url("postgres_a_refused_task_fails_alone_in_its_group") else {
        return;
    };
    let store = postgres_store(&common::fresh_schema(&url).await).await;
    let frank = owner("frank");
    let created = futures_util::future::join_all((0..TASKS).map(|n| {
        let mut ended = task(&format!("f-{n}"), TaskState::Completed);
        if n == REFUSED {
            ended.context_id = Some("ctx\0".into());
        }
        let (store, frank) = (&store, &frank);
        async move {
            store
                .create_with_events(frank, ended, Vec::new(), &mut |_, _| Ok(()))
                .await
        }
    }))
    .await;
    for (n, answer) in created.iter().enumerate() {
        if n == REFUSED {
            assert!(
                answer.is_err(),
                "the task with a NUL is refused: {answer:?}"
            );
        } else {
            assert!(answer.is_ok(), "f-{n} is stored beside it: {answer:?}");
        }
    }
    let refused = store.get(&frank, &format!("f-{REFUSED}")).await;
    assert!(
        matches!(refused, Ok(None)),
        "nothing of it was written: {refused:?}"
    );
    assert_eq!(totals(&store, &frank).await, (TASKS - 1, TASKS - 1));
}

#[tokio::test]
async fn sqlite_counts_follow_creations_duplicates_and_pruning() {
    let (store, path) = sqlite_store().await;
    counts_follow_the_rows(&store, async |policy| {
        store.prune(policy).await.unwrap().tasks
    })
    .await;
    drop(store);
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn postgres_counts_follow_creations_duplicates_and_pruning() {
    let Some(url) = postgres_url("postgres_counts_follow_creations_duplicates_and_pruning") else {
        return;
    };
    let store = postgres_store(&common::fresh_schema(&url).await).await;
    counts_follow_the_rows(&store, async |policy| {
        store.prune(policy).await.unwrap().tasks
    })
    .await;
}

/// A database whose tasks were written before the counters existed: the counters' migrations are
/// taken back (the table, the trigger and their records dropped), tasks are written, and opening
/// the store again migrates and counts them; a task pruned then leaves the count once.
#[tokio::test]
async fn sqlite_tasks_held_before_the_counters_are_counted_when_it_migrates() {
    let (store, path) = sqlite_store().await;
    // The counters as 0005 made them and 0008 changed them (its trigger for deletions dropped):
    // both run again.
    common::change_sqlite_schema(
        &store,
        &[
            "DROP TRIGGER a2a_tasks_counted_in",
            "DROP TABLE a2a_task_counts",
            "DELETE FROM _sqlx_migrations WHERE version IN (5, 8)",
        ],
    )
    .await;
    let alice = owner("alice");
    create_working(&store, &alice, &["a1", "a2"]).await;
    drop(store);
    let store = reopen_sqlite(&path).await;
    assert_eq!(totals(&store, &alice).await, (2, 2));
    create_working(&store, &alice, &["a3"]).await;
    assert_eq!(totals(&store, &alice).await, (3, 3));
    store
        .update(&alice, task("a1", TaskState::Completed), 1, None)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let policy = RetentionPolicy::new().terminal_tasks_after(Duration::from_millis(10));
    assert_eq!(store.prune(&policy).await.unwrap().tasks, 1);
    assert_eq!(
        totals(&store, &alice).await,
        (2, 2),
        "a task removed after migrating again leaves the count once"
    );
    drop(store);
    common::remove_sqlite(&path);
}

/// Opens the file again once the store before has let go of its lock.
async fn reopen_sqlite(path: &std::path::Path) -> a2a_server_sql::SqliteStore {
    a2a_server_sql::SqliteStore::open(path)
        .await
        .expect("the file opens again")
}

#[tokio::test]
async fn postgres_tasks_held_before_the_counters_are_counted_when_it_migrates() {
    let Some(url) =
        postgres_url("postgres_tasks_held_before_the_counters_are_counted_when_it_migrates")
    else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let store = postgres_store(&options).await;
    for statement in [
        // The counters as 0005 made them and 0008 changed them: both run again.
        "DROP TRIGGER a2a_tasks_counted_in ON a2a_tasks",
        "DROP TRIGGER a2a_tasks_counted_out ON a2a_tasks",
        "DROP FUNCTION a2a_tasks_counted_per_statement()",
        "DROP TABLE a2a_task_counts",
        "DELETE FROM _sqlx_migrations WHERE version IN (5, 8)",
    ] {
        sqlx::query(statement).execute(store.pool()).await.unwrap();
    }
    let (alice, bob) = (owner("alice"), owner("bob"));
    create_working(&store, &alice, &["a1", "a2"]).await;
    create_working(&store, &bob, &["b1"]).await;
    let again = postgres_store(&options).await;
    assert_eq!(totals(&again, &alice).await, (2, 2));
    assert_eq!(totals(&again, &bob).await, (1, 1));
    create_working(&again, &alice, &["a3"]).await;
    assert_eq!(totals(&again, &alice).await, (3, 3));
}
