//! SQLite's slices on a store's file: tasks routed to the slice of their id and read back from
//! it, listed across every table in one order, dropped whole with their other rows and counts
//! once all expired, and a slice held by a running task left to the row-by-row expiry.

use std::time::Duration;

use a2a_server::TaskStore;
use a2a_server::auth::{Caller, Owner};
use a2a_server::push::PushConfigStore;
use a2a_types::v1::{ListTasksRequest, Task, TaskPushNotificationConfig, TaskState, TaskStatus};

use super::*;
use crate::SqliteStore;
use crate::columns::now_micros;
use crate::retention::RetentionPolicy;
use crate::slices::MAX_MADE_PER_PASS;
use crate::slices::TaskTables;
use crate::sqlite::direct::ScratchDir;

const HOUR: Duration = Duration::from_secs(3600);
const HOUR_MS: i64 = 3_600_000;

/// A task id made at `ms`, the `n`th of that millisecond.
fn id_at(ms: i64, n: u32) -> String {
    format!("{}7000{n:016x}", crate::slices::first_id_at(ms))
}

fn owner(name: &str) -> Owner {
    Owner::of(&Caller::authenticated(name), None)
}

async fn count(store: &SqliteStore, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|error| panic!("{sql}: {error}"))
}

async fn tables(store: &SqliteStore) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'a2a_task%' \
         AND name NOT IN ('a2a_task_counts') ORDER BY name",
    )
    .fetch_all(store.pool())
    .await
    .expect("the tables")
}

/// The owner's tasks' ids, page by page of `size`, following the tokens.
async fn listed(store: &SqliteStore, owner: &Owner, size: usize) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    let mut request = ListTasksRequest::default();
    loop {
        let page = TaskStore::list(store, owner, &request, size)
            .await
            .expect("a page");
        ids.extend(page.tasks.iter().map(|task| task.id.clone()));
        if page.next_page_token.is_empty() {
            return (ids, page.total_size);
        }
        request.page_token = Some(page.next_page_token);
    }
}

fn task(id: &str, state: TaskState) -> Task {
    Task::new(id, "ctx", TaskStatus::now(state))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_live_in_their_slices_and_a_slice_goes_whole_once_all_of_it_expired() {
    let dir = ScratchDir::new();
    let store = SqliteStore::open(dir.database()).await.expect("opens");
    let alice = owner("alice");
    // Slices laid out three hours ago, a quarter of an hour wide (tasks kept an hour), before
    // any task of theirs: made from that moment, ending on multiples of the width.
    let start = now_micros() / 1_000 - 3 * HOUR_MS;
    let made = expire_slices(
        store.pool(),
        &store.writer,
        &store.shared.slices,
        start,
        HOUR,
        Duration::from_secs(300),
    )
    .await
    .expect("made");
    assert_eq!(made, SliceExpiry::default());
    let slices = store.shared.slices.slices();
    assert_eq!(
        slices,
        in_file(&mut store.writer.acquire().await.unwrap())
            .await
            .unwrap()
    );
    assert_eq!(slices[0].low_ms, start);
    assert!(
        slices
            .windows(2)
            .all(|pair| pair[0].high_ms == pair[1].low_ms)
    );
    assert!(slices[1..].iter().all(|slice| slice.low_ms % 900_000 == 0));
    let (first, second) = (slices[0], slices[1]);

    // Two tasks in the first slice (one with a push config), one done and one running in the
    // second, and one whose id no slice covers.
    let done = [id_at(first.low_ms, 1), id_at(first.high_ms - 1, 2)];
    let (ended, running) = (id_at(second.low_ms + 5, 3), id_at(second.low_ms + 6, 4));
    for id in done.iter().chain([&ended, &running]) {
        store
            .create(&alice, task(id, TaskState::Submitted))
            .await
            .expect("created");
    }
    store
        .create(&alice, task("elsewhere", TaskState::Completed))
        .await
        .expect("created");
    for id in done.iter().chain([&ended]) {
        store
            .update(&alice, task(id, TaskState::Completed), 1, None)
            .await
            .expect("completed");
    }
    let config = TaskPushNotificationConfig {
        id: Some("c".into()),
        task_id: Some(done[0].clone()),
        url: "https://hooks.example.com".into(),
        ..Default::default()
    };
    PushConfigStore::save(&store, &alice, config)
        .await
        .expect("a config");

    // Each in its table; read back through the store, and listed across all of them in one
    // order, page after page.
    let in_first = format!("SELECT COUNT(*) FROM {}", first.tasks());
    let in_second = format!("SELECT COUNT(*) FROM {}", second.tasks());
    assert_eq!(count(&store, &in_first).await, 2);
    assert_eq!(count(&store, &in_second).await, 2);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM a2a_tasks").await, 1);
    let events = format!("SELECT COUNT(*) FROM {}", first.events());
    assert_eq!(count(&store, &events).await, 0, "updated without events");
    let stored = TaskStore::get(&store, &alice, &done[1])
        .await
        .expect("read")
        .expect("found");
    assert_eq!(
        (stored.task.status.state, stored.version),
        (TaskState::Completed, 2)
    );
    assert_eq!(
        TaskStore::get(&store, &owner("bob"), &done[1]).await,
        Ok(None)
    );
    let (all, total) = listed(&store, &alice, 2).await;
    assert_eq!(total, 5);
    let (mut sorted, mut expected) = (all.clone(), done.to_vec());
    expected.extend([ended.clone(), running.clone(), "elsewhere".into()]);
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected, "each task once: {all:?}");
    let one_by_one = listed(&store, &alice, 1).await.0;
    assert_eq!(one_by_one, all, "pages of one give the same order");

    // An hour and more later, the first slice goes whole with its config; the second holds a
    // running task, so it stays and its ended task goes row by row; the task outside every
    // slice goes row by row too.
    for table in [first.tasks(), second.tasks(), "a2a_tasks".into()] {
        sqlx::query(&format!("UPDATE {table} SET updated_micros = 0"))
            .execute(store.pool())
            .await
            .expect("made old");
    }
    let policy = RetentionPolicy::new().terminal_tasks_after(HOUR);
    let report = store.prune(&policy).await.expect("pruned");
    assert_eq!(report.tasks, 4, "two with their slice, two row by row");
    let left = tables(&store).await;
    assert!(
        !left.contains(&first.tasks()) && !left.contains(&first.events()),
        "{left:?}"
    );
    assert!(left.contains(&second.tasks()), "{left:?}");
    assert!(!store.shared.slices.slices().contains(&first));
    assert_eq!(TaskStore::get(&store, &alice, &done[0]).await, Ok(None));
    assert_eq!(
        store.events_after(&alice, &done[0], 0, 10).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(TaskStore::get(&store, &alice, &ended).await, Ok(None));
    assert!(
        TaskStore::get(&store, &alice, &running)
            .await
            .expect("read")
            .is_some()
    );
    assert_eq!(listed(&store, &alice, 2).await, (vec![running.clone()], 1));
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM a2a_push_configs").await,
        0,
        "the dropped task's config went with it"
    );
    assert_eq!(
        count(
            &store,
            "SELECT tasks FROM a2a_task_counts WHERE owner_principal = 'alice'"
        )
        .await,
        1
    );
    // New slices begin now, after the pass: a task made now goes to one.
    let now_id = id_at(now_micros() / 1_000, 9);
    assert_ne!(store.shared.slices.tables_of(&now_id), TaskTables::BASE);
}

#[tokio::test]
async fn a_slice_is_not_made_over_ids_outside_every_slice_nor_dropped_when_a_task_came_in() {
    let dir = ScratchDir::new();
    let store = SqliteStore::open(dir.database()).await.expect("opens");
    let alice = owner("alice");
    let start = now_micros() / 1_000 - 3 * HOUR_MS;
    // A task made at the start is stored before any slice covers it: no slice is made over it.
    store
        .create(&alice, task(&id_at(start + 10, 1), TaskState::Completed))
        .await
        .expect("created");
    let set = &store.shared.slices;
    let every = Duration::from_secs(300);
    expire_slices(store.pool(), &store.writer, set, start, HOUR, every)
        .await
        .expect("pass");
    assert!(set.slices().is_empty(), "{:?}", set.slices());
    // A minute later the range is free: slices are made from then.
    expire_slices(
        store.pool(),
        &store.writer,
        set,
        start + 60_000,
        HOUR,
        every,
    )
    .await
    .expect("pass");
    let first = set.slices()[0];
    assert_eq!(first.low_ms, start + 60_000);

    // A slice counted for its drop, then given a task before the drop's turn: not dropped.
    store
        .create(&alice, task(&id_at(first.low_ms, 2), TaskState::Completed))
        .await
        .expect("created");
    sqlx::query(&format!("UPDATE {} SET updated_micros = 0", first.tasks()))
        .execute(store.pool())
        .await
        .expect("made old");
    let cutoff = now_micros();
    let stale_seq = count(&store, &format!("SELECT MAX(seq) FROM {}", first.tasks())).await - 1;
    let mut turn = store.writer.acquire().await.expect("the turn");
    let counts = sqlx::query(&format!(
        "SELECT owner_principal, owner_tenant, COUNT(*) FROM {} GROUP BY 1, 2",
        first.tasks()
    ))
    .fetch_all(store.pool())
    .await
    .expect("counted");
    assert_eq!(
        drop_in_turn(&mut turn, set, first, cutoff, stale_seq, &counts)
            .await
            .expect("checked"),
        None
    );
    drop(turn);
    assert!(set.slices().contains(&first));
    // With the count it read, it goes, and the seq of a slice starts after its first millisecond.
    let seq = count(&store, &format!("SELECT MAX(seq) FROM {}", first.tasks())).await;
    assert_eq!(seq, first.low_ms * SEQ_PER_MS + 1);
    let mut turn = store.writer.acquire().await.expect("the turn");
    assert_eq!(
        drop_in_turn(&mut turn, set, first, cutoff, seq, &counts)
            .await
            .expect("dropped"),
        Some(1)
    );
    drop(turn);
    assert!(!set.slices().contains(&first));
    assert_eq!(
        count(
            &store,
            "SELECT tasks FROM a2a_task_counts WHERE owner_principal = 'alice'"
        )
        .await,
        1,
        "the task outside every slice is still counted"
    );
}

#[test]
fn slices_begin_now_when_none_is_ahead_and_end_on_multiples_of_their_width() {
    let fresh = slices_to_make(&[], 1_005, 100, 1_300);
    assert_eq!(
        fresh,
        [
            Slice {
                low_ms: 1_005,
                high_ms: 1_100
            },
            Slice {
                low_ms: 1_100,
                high_ms: 1_200
            },
            Slice {
                low_ms: 1_200,
                high_ms: 1_300
            },
        ]
    );
    assert_eq!(
        slices_to_make(&fresh, 1_150, 100, 1_500),
        [
            Slice {
                low_ms: 1_300,
                high_ms: 1_400
            },
            Slice {
                low_ms: 1_400,
                high_ms: 1_500
            },
        ]
    );
    // The last slice ended before now: a new run begins now.
    assert_eq!(
        slices_to_make(&fresh, 2_050, 100, 2_150)[0],
        Slice {
            low_ms: 2_050,
            high_ms: 2_100
        }
    );
    assert!(slices_to_make(&[], 1_000, 100, 1_000).is_empty());
    assert_eq!(
        slices_to_make(&[], 0, 1, 1_000_000).len(),
        MAX_MADE_PER_PASS
    );
    assert!(slices_to_make(&[], i64::MAX - 1, 10, i64::MAX).is_empty());
}
