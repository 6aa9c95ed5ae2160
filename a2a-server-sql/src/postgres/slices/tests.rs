//! The slices' rules on their own (widths, which slices a pass makes, the ids' bounds), and a
//! whole pruning pass on PostgreSQL over slices laid out in the past: a slice whose tasks all
//! expired goes whole with its rows and its owners' counts; a slice holding a running task stays
//! and loses its expired tasks one by one; a slice not yet wholly past the cutoff keeps even its
//! expired tasks; rows outside every slice expire one by one as before.
//!
//! The PostgreSQL test needs `A2A_TEST_POSTGRES_URL`; it is skipped without it, and fails under
//! `CI=true` without it.

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::{Connection, PgConnection};

use super::*;
use crate::PostgresStore;
use crate::retention::RetentionPolicy;
use crate::slices::MAX_MADE_PER_PASS;

const MINUTE_MS: i64 = 60_000;

#[test]
fn a_slice_is_a_quarter_of_the_age_at_most_a_day_and_short_ages_have_none() {
    assert_eq!(slice_width(Duration::from_secs(3 * 60)), None);
    assert_eq!(
        slice_width(Duration::from_secs(4 * 60)),
        Some(Duration::from_secs(60))
    );
    assert_eq!(
        slice_width(Duration::from_secs(7 * 24 * 60 * 60)),
        Some(Duration::from_secs(24 * 60 * 60))
    );
}

#[test]
fn bounds_are_the_ids_made_at_a_millisecond() {
    assert_eq!(first_id_at(0x0190_abcd_1234), "task-0190abcd1234");
    // An id made in that millisecond (its UUID's first 12 hex digits) sorts from the bound up to
    // the next millisecond's.
    let made = "task-0190abcd12347a1b8c2d3e4f5a6b7c8d";
    assert!(first_id_at(0x0190_abcd_1234).as_str() <= made);
    assert!(made < first_id_at(0x0190_abcd_1235).as_str());
    assert!(first_id_at(-5) == first_id_at(0));
}

#[test]
fn a_run_of_slices_starts_past_the_margin_and_continues_from_the_last() {
    let now = 1_000 * MINUTE_MS + 7;
    let fresh = slices_to_make(&[], now, MINUTE_MS, now + 4 * MINUTE_MS);
    assert_eq!(
        fresh.first(),
        Some(&Slice {
            low_ms: 1_002 * MINUTE_MS,
            high_ms: 1_003 * MINUTE_MS
        })
    );
    assert!(
        fresh
            .windows(2)
            .all(|pair| pair[0].high_ms == pair[1].low_ms)
    );
    assert!(
        fresh
            .last()
            .is_some_and(|last| last.high_ms >= now + 4 * MINUTE_MS)
    );

    // Slices of another width already reach past the margin: the run goes on from their end.
    let existing = [Slice {
        low_ms: 999 * MINUTE_MS,
        high_ms: 1_001 * MINUTE_MS + 30_000,
    }];
    let next = slices_to_make(&existing, now, MINUTE_MS, now + 3 * MINUTE_MS);
    assert_eq!(
        next.first().map(|slice| slice.low_ms),
        Some(existing[0].high_ms)
    );

    // A run that ended long ago is not continued: the ids since are in the default partition.
    let stale = [Slice {
        low_ms: 10 * MINUTE_MS,
        high_ms: 11 * MINUTE_MS,
    }];
    let restarted = slices_to_make(&stale, now, MINUTE_MS, now + 3 * MINUTE_MS);
    assert_eq!(
        restarted.first().map(|slice| slice.low_ms),
        Some(1_002 * MINUTE_MS)
    );

    // Bounds at the end of time make nothing and do not overflow.
    let end = [Slice {
        low_ms: i64::MAX - 10,
        high_ms: i64::MAX - 1,
    }];
    assert!(slices_to_make(&end, now, MINUTE_MS, i64::MAX).is_empty());

    // A pass after a long pause makes a bounded number.
    let many = slices_to_make(&[], now, 1, now + 1_000_000);
    assert_eq!(many.len(), MAX_MADE_PER_PASS);
}

#[test]
fn a_slice_is_named_by_its_bounds_and_read_back_from_its_name() {
    let slice = Slice {
        low_ms: 1_764_570_000_000,
        high_ms: 1_764_570_075_000,
    };
    assert_eq!(Slice::of_table(&slice.tasks()), Some(slice));
    assert_eq!(Slice::of_table("a2a_tasks_unsliced"), None);
    assert_eq!(Slice::of_table("a2a_tasks_5_3"), None);
}

/// The test database's URL, or `None` (the test is skipped) outside CI.
fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("A2A_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{test}: A2A_TEST_POSTGRES_URL is not set, and CI=true needs it")
        }
        _ => {
            eprintln!(
                "skipped {test}: set A2A_TEST_POSTGRES_URL to a PostgreSQL database to run it"
            );
            None
        }
    }
}

/// Options on a new schema of the test database, so the test's tables are its own.
async fn fresh_schema(url: &str) -> PgConnectOptions {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let schema = format!("slices_{}_{nanos}", std::process::id());
    let options: PgConnectOptions = url.parse().expect("a PostgreSQL URL");
    let mut connection = PgConnection::connect_with(&options)
        .await
        .expect("the test PostgreSQL answers");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut connection)
        .await
        .expect("a schema of the test's own");
    options.options([("search_path", schema.as_str())])
}

/// A task id made at `ms`, told apart by `n`.
fn id_at(ms: i64, n: u32) -> String {
    format!("{}7000{n:016x}", first_id_at(ms))
}

/// Stores task `id` of alice, over or not, last written at `updated_ms`, with three events, a
/// push config and a queued delivery.
async fn task(pool: &PgPool, id: &str, over: bool, updated_ms: i64) {
    let micros = updated_ms * 1_000;
    sqlx::query(
        "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, terminal, \
         status_micros, timestamped, version, updated_micros, task) \
         VALUES ($1, 'alice', '', 'ctx', 3, $2, $3, TRUE, 4, $3, '{}')",
    )
    .bind(id)
    .bind(over)
    .bind(micros)
    .execute(pool)
    .await
    .expect("a task");
    sqlx::query(
        "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
         SELECT $1, v, $2, '{}' FROM generate_series(2, 4) v",
    )
    .bind(id)
    .bind(micros)
    .execute(pool)
    .await
    .expect("its events");
    sqlx::query(
        "INSERT INTO a2a_push_configs (owner_principal, owner_tenant, task_id, config_id, config) \
         VALUES ('alice', '', $1, 'hook', '{}')",
    )
    .bind(id)
    .execute(pool)
    .await
    .expect("its push config");
    sqlx::query(
        "INSERT INTO a2a_push_outbox (task_id, config_id, event_version, config, event, due_micros) \
         VALUES ($1, 'hook', 4, '{}', '{}', $2)",
    )
    .bind(id)
    .bind(micros)
    .execute(pool)
    .await
    .expect("its delivery");
}

/// How many rows `table` holds of task `id` (`id` or `task_id`).
async fn rows_of(pool: &PgPool, table: &str, id: &str) -> i64 {
    let column = if table == "a2a_tasks" {
        "id"
    } else {
        "task_id"
    };
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {column} = $1"))
        .bind(id)
        .fetch_one(pool)
        .await
        .expect("a count")
}

/// Whether task `id` and all its rows are there (`true`) or all gone (`false`); panics on a mix.
async fn present(pool: &PgPool, id: &str) -> bool {
    let mut counts = Vec::new();
    for table in [
        "a2a_tasks",
        "a2a_task_events",
        "a2a_push_configs",
        "a2a_push_outbox",
    ] {
        counts.push(rows_of(pool, table, id).await);
    }
    match counts.as_slice() {
        [1, 3, 1, 1] => true,
        [0, 0, 0, 0] => false,
        other => {
            panic!("task {id} is partly there: {other:?} rows of task, events, config, delivery")
        }
    }
}

/// The age the PostgreSQL tests keep ended tasks, and how often their passes run.
const AGE: Duration = Duration::from_secs(8 * 60);
const EVERY: Duration = Duration::from_secs(60);

/// Slices and tasks as earlier passes and writes left them, before a pass at `now` (ms).
struct Layout {
    now: i64,
    /// Over an hour ago, every task over long ago: goes whole.
    expired: Slice,
    gone: Vec<String>,
    /// Over an hour ago, holding a task still running (and one over long ago).
    straggling: Slice,
    running: String,
    straggler_over: String,
    /// Across the pass's cutoff, holding a task over before it: kept until the slice goes.
    kept_for_its_slice: String,
}

/// Lays out [`Layout`] on the store at `pool`, and two tasks outside every slice (the default
/// partition): `legacy-over`, over long ago, and `legacy-recent`.
async fn lay_out(pool: &PgPool) -> Layout {
    let width_ms = 2 * MINUTE_MS;
    let now = crate::columns::now_micros() / 1_000;
    let cutoff_ms = now - 8 * MINUTE_MS;
    let slice_at = |ms: i64| Slice {
        low_ms: ms.div_euclid(width_ms) * width_ms,
        high_ms: ms.div_euclid(width_ms) * width_ms + width_ms,
    };
    let expired = slice_at(now - 60 * MINUTE_MS);
    let straggling = slice_at(expired.high_ms);
    let live = slice_at(cutoff_ms);
    for slice in [expired, straggling, live] {
        make(pool, slice).await.expect("a slice");
    }
    assert!(live.low_ms < cutoff_ms && live.high_ms > cutoff_ms);
    let gone: Vec<String> = (0..5).map(|n| id_at(expired.low_ms + 10, n)).collect();
    for id in &gone {
        task(pool, id, true, expired.low_ms + 20).await;
    }
    let running = id_at(straggling.low_ms + 10, 0);
    let straggler_over = id_at(straggling.low_ms + 10, 1);
    task(pool, &running, false, straggling.low_ms + 20).await;
    task(pool, &straggler_over, true, straggling.low_ms + 20).await;
    let kept_for_its_slice = id_at(live.low_ms + 10, 0);
    task(pool, &kept_for_its_slice, true, live.low_ms + 20).await;
    task(pool, "legacy-over", true, now - 60 * MINUTE_MS).await;
    task(pool, "legacy-recent", true, now - MINUTE_MS).await;
    Layout {
        now,
        expired,
        gone,
        straggling,
        running,
        straggler_over,
        kept_for_its_slice,
    }
}

/// What must hold after one pass (or passes of replicas at once) over `layout`.
async fn check_after_first_pass(pool: &PgPool, layout: &Layout) {
    for id in &layout.gone {
        assert!(!present(pool, id).await, "{id} went with its slice");
    }
    let after = slices(pool).await.expect("the slices");
    assert!(
        !after.contains(&layout.expired),
        "the expired slice was dropped: {after:?}"
    );
    let events_left: Option<String> = sqlx::query_scalar(&format!(
        "SELECT to_regclass('{}')::TEXT",
        layout.expired.events()
    ))
    .fetch_one(pool)
    .await
    .expect("the catalog");
    assert_eq!(events_left, None, "the slice's events table was dropped");
    assert!(
        after.contains(&layout.straggling),
        "a slice with a running task stays"
    );
    assert!(present(pool, &layout.running).await);
    assert!(
        !present(pool, &layout.straggler_over).await,
        "its expired neighbour went row by row"
    );
    assert!(present(pool, &layout.kept_for_its_slice).await);
    assert!(!present(pool, "legacy-over").await);
    assert!(present(pool, "legacy-recent").await);

    // The owners' counts follow what is left.
    assert_eq!(counted_and_held(pool).await, (3, 3));

    // The slices for the tasks of the next passes are there.
    let last = after.last().expect("slices ahead");
    assert!(
        last.high_ms >= layout.now + 2 * MINUTE_MS + 2 * MINUTE_MS,
        "slices reach past the next two passes: {after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_drops_expired_slices_whole_and_leaves_the_rest_to_rows() {
    let Some(url) = postgres_url("a_pass_drops_expired_slices_whole_and_leaves_the_rest_to_rows")
    else {
        return;
    };
    let store = PostgresStore::connect_with(fresh_schema(&url).await, 4)
        .await
        .expect("the store opens and migrates");
    let pool = store.pool().clone();
    let layout = lay_out(&pool).await;
    let policy = RetentionPolicy::new().terminal_tasks_after(AGE);
    let report = store.prune_every(&policy, EVERY).await.expect("the pass");
    check_after_first_pass(&pool, &layout).await;
    // Five with their slice, one row by row from the straggling slice, one from the default.
    assert_eq!(report.tasks, 7, "{report:?}");

    // A second pass finds the running task finished and expired, and drops its slice.
    sqlx::query("UPDATE a2a_tasks SET terminal = TRUE WHERE id = $1")
        .bind(&layout.running)
        .execute(&pool)
        .await
        .expect("the task ends");
    let again = store.prune_every(&policy, EVERY).await.expect("the pass");
    assert_eq!(again.tasks, 1, "{again:?}");
    assert!(
        !slices(&pool)
            .await
            .expect("the slices")
            .contains(&layout.straggling)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_pruning_at_once_remove_each_task_once() {
    let Some(url) = postgres_url("replicas_pruning_at_once_remove_each_task_once") else {
        return;
    };
    let options = fresh_schema(&url).await;
    let first = PostgresStore::connect_with(options.clone(), 4)
        .await
        .expect("the store opens and migrates");
    let second = PostgresStore::connect_with(options, 4)
        .await
        .expect("a second replica opens");
    let layout = lay_out(first.pool()).await;
    let policy = RetentionPolicy::new().terminal_tasks_after(AGE);
    let (one, other) = tokio::join!(
        first.prune_every(&policy, EVERY),
        second.prune_every(&policy, EVERY)
    );
    let removed = one.expect("a pass").tasks + other.expect("the other pass").tasks;
    // Each task is whole or gone (`present` checks), removed by one pass, and the counts agree.
    let mut gone = 0;
    for id in layout.gone.iter().chain([&layout.straggler_over]) {
        gone += u64::from(!present(first.pool(), id).await);
    }
    gone += u64::from(!present(first.pool(), "legacy-over").await);
    assert_eq!(removed, gone, "each task removed by one pass");
    let (counted, held) = counted_and_held(first.pool()).await;
    assert_eq!(counted, held);
    // What one pass found the other at (the upkeep lock taken) it leaves whole, and may find
    // nothing left to do once the other is done: the next pass completes it.
    let again = second
        .prune_every(&policy, EVERY)
        .await
        .expect("the next pass");
    assert_eq!(removed + again.tasks, 7, "{again:?}");
    check_after_first_pass(first.pool(), &layout).await;
}

/// The owners' counters' total for alice, and alice's tasks held.
async fn counted_and_held(pool: &PgPool) -> (i64, i64) {
    let counted: i64 = sqlx::query_scalar(
        "SELECT COALESCE(SUM(tasks), 0)::BIGINT FROM a2a_task_counts WHERE owner_principal = 'alice'",
    )
    .fetch_one(pool)
    .await
    .expect("the counts");
    let held: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM a2a_tasks WHERE owner_principal = 'alice'")
            .fetch_one(pool)
            .await
            .expect("the tasks");
    (counted, held)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_set_on_an_open_store_makes_its_slices_at_once() {
    let Some(url) = postgres_url("a_policy_set_on_an_open_store_makes_its_slices_at_once") else {
        return;
    };
    let options = fresh_schema(&url).await;
    let opened = PostgresStore::connect_with(options, 4)
        .await
        .expect("the store opens and migrates");
    // The policy a store opens with leaves its slices to its first pass, minutes away.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(slices(opened.pool()).await.expect("the slices"), []);

    let before_ms = crate::columns::now_micros() / 1_000;
    let every = Duration::from_secs(5 * 60);
    let store = opened.with_retention(
        Some(RetentionPolicy::new().terminal_tasks_after(AGE)),
        every,
    );
    let width_ms = millis(slice_width(AGE).expect("sliced"));
    // Each slice is made in a transaction of its own: wait for the last one the pass needs.
    let until_ms = before_ms + 2 * millis(every) + width_ms;
    let mut made = Vec::new();
    for _ in 0..100 {
        made = slices(store.pool()).await.expect("the slices");
        if made.last().is_some_and(|last| last.high_ms >= until_ms) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let first = *made.first().expect("slices made within five seconds");
    assert!(
        made.last().is_some_and(|last| last.high_ms >= until_ms),
        "slices for the next two passes within five seconds: {made:?}"
    );
    assert!(
        first.low_ms >= before_ms + START_MARGIN_MS
            && first.low_ms <= before_ms + START_MARGIN_MS + width_ms,
        "the first slice starts past the margin: {first:?}, set at {before_ms}"
    );
    assert!(
        made.windows(2)
            .all(|pair| pair[0].high_ms == pair[1].low_ms)
    );

    // A task made in the first slice's span is stored in its table.
    let id = id_at(first.low_ms + 1, 1);
    task(store.pool(), &id, false, first.low_ms).await;
    let table: String =
        sqlx::query_scalar("SELECT tableoid::regclass::TEXT FROM a2a_tasks WHERE id = $1")
            .bind(&id)
            .fetch_one(store.pool())
            .await
            .expect("the task's table");
    assert_eq!(table, first.tasks());
}
