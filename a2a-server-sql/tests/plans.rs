//! The query plans of what a `SendMessage` (one that starts a task waiting for input, and one that
//! continues it to its end) and a `GetTask` ask of the database, on an empty table
//! and on one of a few thousand tasks, with no statistics gathered (a fresh PostgreSQL, before any
//! `ANALYZE`): every statement that reads or writes a task by its id finds it through an index on
//! the id (the primary key), never by reading the table or an index of all the owner's tasks.
//! The statements are the ones the store sent, recorded as it ran (see `common::counting`), and
//! PostgreSQL's are planned as prepared statements are once reused: generically, without their
//! values. PostgreSQL checks no foreign key per event written.

mod common;

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::auth::Caller;
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, EventSink, Reply, RequestContext, async_trait,
};
use a2a_server_sql::{PostgresStore, PostgresVersionBus};
use a2a_types::v1::{
    AgentCard, GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse,
};
use common::counting::{recorder, statement_texts};
use common::{postgres_url, sqlite_plan, unique};
use sqlx::Row;

/// Tasks in the large table.
const LARGE: usize = 3_000;

/// Asks for input on a new task, and completes the task once it is continued: a task the agent
/// ended at once would be written in one insert, and its update by id never planned.
struct AsksThenCompletes;

#[async_trait]
impl AgentExecutor for AsksThenCompletes {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        if context.task.is_some() {
            events.complete_with_text("done").await?;
        } else {
            events.ask_for_input("more?").await?;
        }
        Ok(())
    }
}

fn card() -> AgentCard {
    common::card(
        "AsksThenCompletes",
        "Asks for input, then completes.",
        false,
    )
}

fn context() -> CallContext {
    CallContext::new(Caller::authenticated("alice"), "JSONRPC")
}

/// A SendMessage that starts a task waiting for input, one that continues it, and a GetTask of it;
/// the statements they sent about the task (by its id).
async fn statements_by_id(server: &A2aServer) -> Vec<String> {
    recorder()
        .take_when_quiet(Duration::from_millis(200), Duration::from_secs(5))
        .await;
    let request = SendMessageRequest {
        message: Message::user(unique("m"), [Part::text("hello")]),
        ..Default::default()
    };
    let id = match server
        .call(MethodParams::SendMessage(request), &context())
        .await
    {
        Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) => task.id,
        other => panic!("a task was expected: {other:?}"),
    };
    let mut continuing = Message::user(unique("m"), [Part::text("done")]);
    continuing.task_id = Some(id.clone());
    let continued = server
        .call(
            MethodParams::SendMessage(SendMessageRequest {
                message: continuing,
                ..Default::default()
            }),
            &context(),
        )
        .await;
    assert!(continued.is_ok(), "{continued:?}");
    let got = server
        .call(
            MethodParams::GetTask(GetTaskRequest {
                id: id.clone(),
                ..Default::default()
            }),
            &context(),
        )
        .await;
    assert!(got.is_ok());
    let recorded = recorder()
        .take_when_quiet(Duration::from_millis(300), Duration::from_secs(5))
        .await;
    let mut statements: Vec<String> = statement_texts(recorded)
        .into_iter()
        .filter(|sql| {
            let sql = sql.to_ascii_lowercase();
            (sql.contains("a2a_tasks") || sql.contains("a2a_task_events"))
                && (sql.contains("where id = $")
                    || sql.contains("where t.id = $")
                    || sql.contains("where task_id = $"))
        })
        .collect();
    statements.sort();
    statements.dedup();
    assert!(
        statements.len() >= 2,
        "the task was read and updated: {statements:?}"
    );
    statements
}

/// The number of `$n` parameters of a statement.
fn parameters(sql: &str) -> usize {
    (1..=32)
        .filter(|n| sql.contains(&format!("${n}")))
        .max()
        .unwrap_or(0)
}

/// PostgreSQL's generic plan of `sql` (as a prepared statement reused), as text.
async fn postgres_plan(pool: &sqlx::PgPool, sql: &str) -> String {
    let mut connection = pool.acquire().await.expect("a connection");
    sqlx::query("SET plan_cache_mode = force_generic_plan")
        .execute(&mut *connection)
        .await
        .expect("SET");
    let name = unique("plan");
    sqlx::query(&format!("PREPARE {name} AS {sql}"))
        .execute(&mut *connection)
        .await
        .expect("PREPARE");
    // '0' reads as a value of every type the parameters have (text, integer, boolean).
    let values = vec!["'0'"; parameters(sql)].join(", ");
    let arguments = if values.is_empty() {
        String::new()
    } else {
        format!("({values})")
    };
    let rows = sqlx::query(&format!("EXPLAIN EXECUTE {name}{arguments}"))
        .fetch_all(&mut *connection)
        .await
        .expect("EXPLAIN");
    sqlx::query(&format!("DEALLOCATE {name}"))
        .execute(&mut *connection)
        .await
        .expect("DEALLOCATE");
    sqlx::query("RESET plan_cache_mode")
        .execute(&mut *connection)
        .await
        .expect("RESET");
    rows.iter()
        .map(|row| row.get::<String, _>(0))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a plan finds the task by its id: no scan of a table, no index but the id's.
fn postgres_plan_is_by_id(plan: &str) -> bool {
    // "Index Scan using NAME", "Index Only Scan using NAME", "Bitmap Index Scan on NAME".
    let indexes: Vec<&str> = [" using ", "Bitmap Index Scan on "]
        .iter()
        .flat_map(|marker| plan.split(marker).skip(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    // The tables are partitioned (task slices): each partition's indexes have names of their
    // own, made from the parent's (`a2a_tasks_unsliced_listing`) or from their columns (a
    // slice's `…_owner_principal_owner_tenant_status_micros_seq_idx`, `…_terminal_…_idx`).
    !plan.contains("Seq Scan")
        && indexes.iter().any(|index| index.ends_with("_pkey"))
        && !indexes.iter().any(|index| {
            ["listing", "owner_principal_owner_tenant", "terminal"]
                .iter()
                .any(|part| index.contains(part))
        })
}

/// A scan of a virtual table is allowed: `json_each` of a bound value (the events of an update)
/// reads the request's values, not stored rows.
fn sqlite_plan_is_by_id(plan: &str) -> bool {
    plan.lines()
        .all(|line| !line.trim_start().starts_with("SCAN") || line.contains("VIRTUAL TABLE"))
        && !plan.contains("a2a_tasks_listing")
        && !plan.contains("a2a_tasks_terminal")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_finds_a_task_by_its_id_before_any_statistics() {
    let Some(url) = postgres_url("postgres_finds_a_task_by_its_id_before_any_statistics") else {
        return;
    };
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let options = common::fresh_schema(&url).await;
    let store: PostgresStore = common::postgres_store(&options).await;
    let bus = PostgresVersionBus::start(&store).await.expect("LISTEN");
    let server = A2aServer::builder(card(), AsksThenCompletes)
        .task_store(store.clone())
        .push_config_store(store.clone())
        .push_outbox(store.clone())
        .execution_queue(store.clone())
        .version_bus(bus)
        .build();
    for size in ["empty", "large"] {
        if size == "large" {
            sqlx::query(&format!(
                "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, \
                 terminal, status_micros, timestamped, version, updated_micros, task) \
                 SELECT 'bulk-' || g, 'alice', '', 'ctx', 3, true, g, true, 1, g, \
                 '{{\"id\":\"bulk-' || g || '\"}}' FROM generate_series(1, {LARGE}) g"
            ))
            .execute(store.pool())
            .await
            .expect("the large table");
        }
        for sql in statements_by_id(&server).await {
            let plan = postgres_plan(store.pool(), &sql).await;
            assert!(
                postgres_plan_is_by_id(&plan),
                "PostgreSQL, {size} table: {sql}\nis planned as\n{plan}"
            );
        }
    }
    // Every event's insert would check its task's row again, locking it: as much work as the
    // insert itself. The statement that inserts events has just updated that row.
    let foreign_keys: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_constraint WHERE contype = 'f' \
         AND conrelid = 'a2a_task_events'::regclass",
    )
    .fetch_one(store.pool())
    .await
    .expect("the events table's constraints");
    assert_eq!(foreign_keys, 0, "the events table checks a foreign key");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_finds_a_task_by_its_id() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    sqlite_finds_by_id_in(store, &path, "a2a_tasks").await;
}

/// The same, with the store's tasks in slices (see `slices`): each statement routed to the
/// slice's tables finds its task through that slice's index on the id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_finds_a_task_by_its_id_in_its_slice() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    let (store, slice) = common::sliced(store).await;
    sqlite_finds_by_id_in(store, &path, &slice).await;
}

/// The ListTasks of an owner whose tasks are in several slices reads each table's listing index
/// in its order and merges them: no table read whole, nothing sorted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_lists_across_slices_in_index_order() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    let (store, _) = common::sliced(store).await;
    let alice = a2a_server::auth::Owner::of(&Caller::authenticated("alice"), None);
    for n in 0..3 {
        let task = a2a_types::v1::Task::new(
            common::task_id(),
            "ctx",
            a2a_types::v1::TaskStatus::now(a2a_types::v1::TaskState::Completed),
        );
        let id = if n == 0 {
            format!("outside-{}", task.id)
        } else {
            task.id.clone()
        };
        a2a_server::TaskStore::create(&store, &alice, a2a_types::v1::Task { id, ..task })
            .await
            .expect("created");
    }
    recorder
        .take_when_quiet(Duration::from_millis(200), Duration::from_secs(5))
        .await;
    let page = a2a_server::TaskStore::list(&store, &alice, &Default::default(), 10)
        .await
        .expect("listed");
    assert_eq!(page.tasks.len(), 3);
    let recorded = recorder
        .take_when_quiet(Duration::from_millis(300), Duration::from_secs(5))
        .await;
    let listing = statement_texts(recorded)
        .into_iter()
        .find(|sql| sql.contains("ORDER BY status_micros DESC"))
        .expect("the listing");
    assert!(listing.contains("UNION ALL"), "{listing}");
    let plan = sqlite_plan(store.pool(), &listing).await;
    assert!(
        plan.contains("MERGE (UNION ALL)")
            && !plan.contains("TEMP B-TREE")
            && !plan
                .lines()
                .any(|line| line.trim_start().starts_with("SCAN")),
        "SQLite: {listing}\nis planned as\n{plan}"
    );
    drop(store);
    common::remove_sqlite(&path);
}

/// Whether `sql` names a slice's table (`a2a_tasks_<from>_<to>`).
fn names_a_slice(sql: &str) -> bool {
    sql.match_indices("a2a_tasks_")
        .any(|(at, name)| sql[at + name.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// [`sqlite_finds_a_task_by_its_id`] on `store`, its tasks in `table`.
async fn sqlite_finds_by_id_in(
    store: a2a_server_sql::SqliteStore,
    path: &std::path::Path,
    table: &str,
) {
    let server = A2aServer::builder(card(), AsksThenCompletes)
        .task_store(store.clone())
        .push_config_store(store.clone())
        .push_outbox(store.clone())
        .execution_queue(store.clone())
        .build();
    for size in ["empty", "large"] {
        if size == "large" {
            sqlx::query(&format!(
                "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < {LARGE}) \
                 INSERT INTO {table} (id, owner_principal, owner_tenant, context_id, state, \
                 terminal, status_micros, timestamped, version, updated_micros, task) \
                 SELECT 'bulk-' || n, 'alice', '', 'ctx', 3, 1, n, 1, 1, n, \
                 '{{\"id\":\"bulk-' || n || '\"}}' FROM g"
            ))
            .execute(store.pool())
            .await
            .expect("the large table");
        }
        let statements = statements_by_id(&server).await;
        // The task's own table: a slice's when there are slices (the task was made now).
        let sliced = table != "a2a_tasks";
        assert!(
            statements
                .iter()
                .filter(|sql| sql.contains("a2a_tasks"))
                .all(|sql| names_a_slice(sql) == sliced),
            "sliced: {sliced}: {statements:?}"
        );
        for sql in statements {
            let plan = sqlite_plan(store.pool(), &sql).await;
            assert!(
                sqlite_plan_is_by_id(&plan),
                "SQLite, {size} table: {sql}\nis planned as\n{plan}"
            );
        }
    }
    drop(server);
    drop(store);
    common::remove_sqlite(path);
}
