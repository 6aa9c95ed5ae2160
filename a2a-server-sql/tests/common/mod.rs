//! What the store tests share: the stores under test (memory, SQLite in a temporary file,
//! PostgreSQL in a schema of its own), owners and tasks.

#![allow(dead_code)] // each test binary uses its own part

pub mod counting;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use a2a_server::auth::{Caller, Owner};
use a2a_server_sql::{PostgresStore, SqliteStore};
use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};

/// The variable naming the test cluster (`.ci/run` starts one and sets it).
pub const POSTGRES_URL: &str = "A2A_TEST_POSTGRES_URL";

/// The URL of the test PostgreSQL, or `None` (after one line saying the test is skipped) when
/// none is set up; under `CI=true` a missing database fails the test instead.
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var(POSTGRES_URL) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{test}: {POSTGRES_URL} is not set, and CI=true needs the PostgreSQL tests run")
        }
        _ => {
            eprintln!("skipped {test}: set {POSTGRES_URL} to a PostgreSQL database to run it");
            None
        }
    }
}

/// A name no other test of this run (or of an earlier run) uses.
pub fn unique(prefix: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{prefix}_{}_{nanos}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A task id as the server makes them (`task-`, the millisecond it was made as 12 hex digits,
/// then 20 more), unique in this run: routed to the slice of its time where there is one.
pub fn task_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!(
        "task-{millis:012x}{:08x}{:012x}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Connection options on a new, empty schema of the test database: each test has its own
/// tables, so pruning in one never touches another's rows.
pub async fn fresh_schema(url: &str) -> PgConnectOptions {
    let schema = unique("t");
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

/// A PostgreSQL store on a new schema (the same options give a second replica).
pub async fn postgres_store(options: &PgConnectOptions) -> PostgresStore {
    PostgresStore::connect_with(options.clone(), 8)
        .await
        .expect("the store opens and migrates")
}

/// A SQLite store in a new file under the system's temporary directory.
pub async fn sqlite_store() -> (SqliteStore, PathBuf) {
    let path = std::env::temp_dir().join(format!("{}.sqlite3", unique("a2a-store-test")));
    let store = SqliteStore::open(&path).await.expect("the file opens");
    (store, path)
}

/// `store` with its tasks in slices: a policy keeping ended tasks an hour makes them at once,
/// the first from now. Waits until the store writes to them (a task created after the slices
/// are in the file is in one); the first slice's task table.
pub async fn sliced(store: SqliteStore) -> (SqliteStore, String) {
    let policy = a2a_server_sql::RetentionPolicy::new()
        .terminal_tasks_after(std::time::Duration::from_secs(3600));
    let store = store.with_retention(Some(policy), std::time::Duration::from_secs(24 * 3600));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let first: Option<String> = sqlx::query_scalar(
            "SELECT MIN(name) FROM sqlite_master WHERE type = 'table' \
             AND name LIKE 'a2a\\_tasks\\_%' ESCAPE '\\'",
        )
        .fetch_one(store.pool())
        .await
        .expect("the tables");
        if let Some(first) = first {
            return (store, first);
        }
        assert!(std::time::Instant::now() < deadline, "no slice was made");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Runs `statements` that change a SQLite store's schema, in one transaction on one connection.
/// Spread over the pool's connections, a statement could be prepared on a connection still
/// holding the schema from before the one just run (SQLite refuses such a statement while it
/// prepares it, before its check for a changed schema would prepare it again).
pub async fn change_sqlite_schema(store: &SqliteStore, statements: &[&str]) {
    let mut change = store.pool().begin().await.expect("a transaction");
    for statement in statements {
        sqlx::query(statement)
            .execute(&mut *change)
            .await
            .unwrap_or_else(|error| panic!("{statement}: {error}"));
    }
    change.commit().await.expect("the schema change committed");
}

/// An authenticated owner named `principal`.
pub fn owner(principal: &str) -> Owner {
    Owner::of(&Caller::authenticated(principal), None)
}

/// Removes a test's SQLite file with its WAL, shared-memory and lock files.
pub fn remove_sqlite(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

/// The card of a test agent named `name` with one skill doing `what`, streaming when `streaming`.
pub fn card(name: &str, what: &str, streaming: bool) -> a2a_types::v1::AgentCard {
    a2a_types::v1::AgentCard::builder(name, what, "1.0.0")
        .jsonrpc("http://127.0.0.1:9/jsonrpc")
        .streaming(streaming)
        .skill(a2a_types::v1::AgentSkill {
            id: name.to_lowercase(),
            name: name.into(),
            description: what.into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .build()
        .expect("a valid card")
}

/// SQLite's plan of `sql`, as text.
pub async fn sqlite_plan(pool: &sqlx::SqlitePool, sql: &str) -> String {
    let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
        .fetch_all(pool)
        .await
        .expect("EXPLAIN QUERY PLAN");
    rows.iter()
        .map(|row| sqlx::Row::get::<String, _>(row, 3))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A push config `hook` of task `task_id`, to a URL no delivery reaches in the tests that use it.
pub fn hook_config(task_id: &str) -> a2a_types::v1::TaskPushNotificationConfig {
    a2a_types::v1::TaskPushNotificationConfig {
        id: Some("hook".into()),
        task_id: Some(task_id.to_owned()),
        url: "https://example.com/hooks/hook".into(),
        ..Default::default()
    }
}
