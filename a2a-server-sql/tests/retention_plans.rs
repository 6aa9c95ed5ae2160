//! The query plans of a pruning pass on a table of a few thousand tasks: every statement finds its
//! rows through an index, never by reading every task, every event, or every row of the other
//! tables holding a task's rows (push configs, deliveries, execution records). A pass holds SQLite's one
//! writer (the whole database) while it runs, and runs every few minutes on a store that may hold
//! millions of tasks: one that read them all stalled every write for seconds each time. Only the
//! cut of events by age reads every task, as its documentation says.
//!
//! The tasks that are over expire in batches, each its own transaction, so that the writer is
//! held for one batch at a time.
//!
//! The statements are the ones the store sent, recorded as it ran (see `common::counting`).
//! PostgreSQL's are planned with their values (as a pass's statements are, being run a few times
//! a process's life) after `ANALYZE`; SQLite's by `EXPLAIN QUERY PLAN`, which needs none.

mod common;

use std::time::Duration;

use a2a_server::auth::{Caller, Owner};
use a2a_server::store::TaskStore;
use a2a_server_sql::{PruneReport, RetentionPolicy};
use a2a_types::v1::{Task, TaskState, TaskStatus};
use common::counting::{Recorded, recorder, statement_texts};
use common::{postgres_url, sqlite_plan};
use sqlx::Row;

/// Tasks in the table.
const LARGE: usize = 3_000;

/// Events of each task that is over: enough that reading the events table whole costs more than
/// looking up a batch's tasks in it, as on any store that has served a while.
const EVENTS_PER_TASK: usize = 10;

/// Every part of a policy, so that each of the pass's statements runs.
fn every_part() -> RetentionPolicy {
    RetentionPolicy::new()
        .terminal_tasks_after(Duration::from_secs(3600))
        .max_events_per_task(3)
        .events_after(Duration::from_secs(3600))
        .given_up_deliveries_after(Duration::from_secs(3600))
}

/// The tables a pass reads or deletes from; none may be read whole.
const TABLES: [&str; 5] = [
    "a2a_tasks",
    "a2a_task_events",
    "a2a_push_configs",
    "a2a_push_outbox",
    "a2a_executions",
];

/// The statements about tasks and their rows the store sent since the last take, and how many
/// transactions it committed.
async fn statements_sent() -> (Vec<String>, usize) {
    let recorded = recorder()
        .take_when_quiet(Duration::from_millis(300), Duration::from_secs(5))
        .await;
    let commits = recorded
        .iter()
        .filter(|entry| matches!(entry, Recorded::Commit))
        .count();
    let mut statements: Vec<String> = statement_texts(recorded)
        .into_iter()
        .filter(|sql| TABLES.iter().any(|table| sql.contains(table)))
        .collect();
    statements.sort();
    statements.dedup();
    (statements, commits)
}

/// Whether `sql` is the cut of events by age, which reads every task.
fn cuts_by_age(sql: &str) -> bool {
    sql.contains("created_micros <")
}

/// Whether `sql` keeps the task slices (reads the catalog, makes or drops a slice's tables,
/// bounds its lock waits, or counts a whole slice about to be dropped, which is what a drop is
/// for): the pass's other statements are held to indexes.
fn keeps_slices(sql: &str) -> bool {
    ["CREATE ", "DROP ", "SET "]
        .iter()
        .any(|start| sql.trim_start().starts_with(start))
        || sql.contains("pg_inherits")
        || sql.contains("sqlite_master")
        || sql.contains("GROUP BY owner_principal")
}

/// The statements a pass with every part sends, after the table is filled: the tasks, all over
/// (as a busy store's mostly are), and one task of ten events to be cut. The pass removes every
/// task that is over, a batch per transaction.
async fn pass_statements(
    fill: impl AsyncFnOnce(),
    prune: impl AsyncFnOnce() -> PruneReport,
) -> Vec<String> {
    fill().await;
    recorder()
        .take_when_quiet(Duration::from_millis(200), Duration::from_secs(5))
        .await;
    let report = prune().await;
    let (statements, commits) = statements_sent().await;
    assert_eq!(report.tasks, LARGE as u64, "every task over is removed");
    // The batches (at most 1,000 tasks each; the last one finding fewer than a batch left),
    // then the rest of the pass.
    assert!(
        commits > LARGE / 1_000,
        "{LARGE} tasks expire in batches, each its own transaction: {commits} commits"
    );
    assert!(
        statements
            .iter()
            .any(|sql| sql.starts_with("DELETE FROM a2a_task_events WHERE task_id = $1")),
        "the long task's events were cut: {statements:?}"
    );
    assert!(
        statements.len() >= 5,
        "the pass's statements: {statements:?}"
    );
    statements
}

/// `LARGE` tasks that are over (`EVENTS_PER_TASK` events each), a task of ten events (versions 2 to 11) still
/// working, and a push config, a pending delivery and an execution record of each of `LARGE`
/// tasks that stay (their rows are what a lookup by task id must not read through), in each
/// database's SQL: `series` counts to `LARGE` as `n` in a table `g`, `[yes, no]` are its
/// booleans, and `config_order` the push configs' order column and value, where the database
/// does not number them itself (each followed by a comma), or two empty texts.
fn fill_statements(series: &str, [yes, no]: [&str; 2], config_order: [&str; 2]) -> [String; 7] {
    let [order_column, order] = config_order;
    [
        format!(
            "{series} INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, \
             terminal, status_micros, timestamped, version, updated_micros, task) \
             SELECT 'bulk-' || n, 'alice', '', 'ctx', 3, {yes}, n, {yes}, 1, n, \
             '{{\"id\":\"bulk-' || n || '\"}}' FROM g"
        ),
        format!(
            "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, \
             terminal, status_micros, timestamped, version, updated_micros, task) \
             VALUES ('long', 'alice', '', 'ctx', 2, {no}, 5, {no}, 11, 5, '{{\"id\":\"long\"}}')"
        ),
        format!(
            "{} INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
             SELECT 'long', n + 1, 5, '{{}}' FROM g WHERE n <= 10",
            series.replace(&LARGE.to_string(), "10")
        ),
        format!(
            "{series} INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
             SELECT 'bulk-' || n, v, n, '{{}}' FROM g, ({}) AS versions",
            (1..=EVENTS_PER_TASK)
                .map(|v| format!("SELECT {v} AS v"))
                .collect::<Vec<_>>()
                .join(" UNION ALL ")
        ),
        format!(
            "{series} INSERT INTO a2a_push_configs (owner_principal, owner_tenant, task_id, \
             config_id, {order_column}config) SELECT 'bob', '', 'kept-' || n, 'c', {order}'{{}}' FROM g"
        ),
        format!(
            "{series} INSERT INTO a2a_push_outbox (task_id, config_id, event_version, config, \
             event, due_micros) SELECT 'kept-' || n, 'c', 2, '{{}}', '{{}}', n FROM g"
        ),
        format!(
            "{series} INSERT INTO a2a_executions (task_id, owner_principal, owner_tenant, \
             request, attempts, lease_token, lease_until_micros) \
             SELECT 'kept-' || n, 'bob', '', '{{}}', 1, 't', n FROM g"
        ),
    ]
}

/// [`fill_statements`] run on SQLite.
async fn fill_sqlite(pool: &sqlx::SqlitePool) {
    let series = format!(
        "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < {LARGE})"
    );
    for sql in fill_statements(&series, ["1", "0"], ["seq, ", "n, "]) {
        sqlx::query(&sql).execute(pool).await.expect("the table");
    }
}

/// Whether SQLite's `plan` reads one of [`TABLES`] whole.
fn reads_a_whole_table(plan: &str) -> bool {
    TABLES
        .iter()
        .any(|table| plan.contains(&format!("SCAN {table}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_prunes_through_indexes() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    let statements = pass_statements(
        || fill_sqlite(store.pool()),
        async || store.prune(&every_part()).await.expect("the pass"),
    )
    .await;
    for sql in statements
        .iter()
        .filter(|sql| !cuts_by_age(sql) && !keeps_slices(sql))
    {
        let plan = sqlite_plan(store.pool(), sql).await;
        assert!(
            !reads_a_whole_table(&plan),
            "SQLite: {sql}\nreads a whole table:\n{plan}"
        );
    }
    drop(store);
    common::remove_sqlite(&path);
}

/// SQLite's writer removes the tasks due after each group it writes (expiry paced by the writes):
/// those statements find their rows through indexes too, and a group of one write removes a
/// slice of the tasks due, not all of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_paced_expiry_finds_its_rows_through_indexes() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    fill_sqlite(store.pool()).await;
    let policy = RetentionPolicy::new().terminal_tasks_after(Duration::from_secs(3600));
    let store = store.with_retention(Some(policy), Duration::from_secs(24 * 3600));
    recorder
        .take_when_quiet(Duration::from_millis(200), Duration::from_secs(5))
        .await;
    let owner = Owner::of(&Caller::authenticated("carol"), None);
    let task = Task::new("new", "ctx", TaskStatus::now(TaskState::Working));
    store.create(&owner, task).await.expect("created");
    let (statements, _) = statements_sent().await;
    let paced: Vec<&String> = statements
        .iter()
        .filter(|sql| sql.starts_with("WITH expiring AS"))
        .collect();
    // A delete per table, and the owners' counts lowered before the tasks' delete.
    assert_eq!(paced.len(), TABLES.len() + 1, "{statements:?}");
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM a2a_tasks WHERE terminal = 1")
        .fetch_one(store.pool())
        .await
        .expect("counted");
    assert!(
        (LARGE as i64 - 100..LARGE as i64).contains(&left),
        "a slice of the {LARGE} tasks due went after one write: {left} are left"
    );
    let (counted, rows): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT SUM(tasks) FROM a2a_task_counts), (SELECT COUNT(*) FROM a2a_tasks)",
    )
    .fetch_one(store.pool())
    .await
    .expect("counted");
    assert_eq!(counted, rows, "the owners' counts follow the slice");
    for sql in paced {
        let plan = sqlite_plan(store.pool(), sql).await;
        // The counts' update groups the slice's own tasks (its limit at most) by owner.
        let sorts =
            plan.matches("TEMP B-TREE").count() > plan.matches("TEMP B-TREE FOR GROUP BY").count();
        assert!(
            !reads_a_whole_table(&plan) && !sorts,
            "SQLite: {sql}\nreads a whole table, or sorts:\n{plan}"
        );
    }
    drop(store);
    common::remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_prunes_through_indexes() {
    let Some(url) = postgres_url("postgres_prunes_through_indexes") else {
        return;
    };
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let options = common::fresh_schema(&url).await;
    let store = common::postgres_store(&options).await;
    let series = format!("WITH g(n) AS (SELECT generate_series(1, {LARGE}))");
    let pool = store.pool().clone();
    let statements = pass_statements(
        || async {
            for sql in fill_statements(&series, ["true", "false"], ["", ""]) {
                sqlx::query(&sql).execute(&pool).await.expect("the table");
            }
            sqlx::query("ANALYZE")
                .execute(&pool)
                .await
                .expect("ANALYZE");
        },
        async || store.prune(&every_part()).await.expect("the pass"),
    )
    .await;
    for sql in statements
        .iter()
        .filter(|sql| !cuts_by_age(sql) && !keeps_slices(sql))
    {
        let plan = postgres_plan_with_values(store.pool(), sql).await;
        assert!(
            !TABLES
                .iter()
                .any(|table| plan.contains(&format!("Seq Scan on {table}"))),
            "PostgreSQL: {sql}\nreads a whole table:\n{plan}"
        );
    }
}

/// PostgreSQL's plan of `sql` with its values written in: the cap of events per task
/// (`… > $n` of a log's length) 1,000, as the recommended policy's, and every other value zero
/// (which reads as text, a number or `false`).
async fn postgres_plan_with_values(pool: &sqlx::PgPool, sql: &str) -> String {
    let mut text = sql.to_owned();
    for n in (1..=16).rev() {
        let value = if sql.contains(&format!("events_pruned_through > ${n}")) {
            "'1000'"
        } else {
            "'0'"
        };
        text = text.replace(&format!("${n}"), value);
    }
    let rows = sqlx::query(&format!("EXPLAIN {text}"))
        .fetch_all(pool)
        .await
        .expect("EXPLAIN");
    rows.iter()
        .map(|row| row.get::<String, _>(0))
        .collect::<Vec<_>>()
        .join("\n")
}
