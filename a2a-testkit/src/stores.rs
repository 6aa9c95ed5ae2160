//! Where a server keeps its tasks, as a command line names it: `--store memory|sqlite:PATH|postgres://…`
//! ([`StoreChoice`], parsed from the option's value), opened ([`StoreChoice::open`]) and given to the
//! server's builder ([`OpenedStore::install`]).
//!
//! | `--store` | store | survives a restart | shared by replicas |
//! |---|---|---|---|
//! | `memory` | the server crate's in-memory store | no | no |
//! | `sqlite:PATH` | one SQLite file ([`a2a_server_sql::SqliteStore`]) | yes | no (one process owns the file) |
//! | `postgres://user@host:port/db` | PostgreSQL ([`a2a_server_sql::PostgresStore`], streams over `LISTEN`/`NOTIFY`) | yes | yes |
//!
//! Push-notification configs go to the same place as tasks; on SQLite and PostgreSQL so do the
//! pending webhook deliveries (the store's durable outbox), so a restart does not lose them, and
//! the executions in progress, so a task working when the agent stopped is resumed after it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use a2a_server::A2aServerBuilder;
use a2a_server_sql::{
    OpenError, PostgresStore, PostgresVersionBus, RETENTION_INTERVAL, RetentionPolicy, SqliteStore,
};

/// A `--store` value: where the tasks go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreChoice {
    /// Tasks in the process's memory.
    Memory,
    /// Tasks in this SQLite file (created when missing).
    Sqlite(PathBuf),
    /// Tasks in the PostgreSQL database at this URL.
    Postgres(String),
}

impl StoreChoice {
    /// Opens the store (creating and migrating the database when needed).
    pub async fn open(&self) -> Result<OpenedStore, OpenError> {
        Ok(match self {
            StoreChoice::Memory => OpenedStore::Memory,
            StoreChoice::Sqlite(path) => {
                if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(folder)
                        .map_err(|e| OpenError::Connect(sqlx::Error::Io(e)))?;
                }
                OpenedStore::Sqlite(SqliteStore::open(path).await?)
            }
            StoreChoice::Postgres(url) => {
                let store = PostgresStore::connect(url).await?;
                let bus = PostgresVersionBus::start(&store).await?;
                OpenedStore::Postgres(store, bus)
            }
        })
    }
}

/// The `--store` value naming this store (`memory`, `sqlite:PATH` or the PostgreSQL URL).
impl fmt::Display for StoreChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreChoice::Memory => write!(f, "memory"),
            StoreChoice::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            StoreChoice::Postgres(url) => write!(f, "{url}"),
        }
    }
}

/// `--store` values that name no store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadStore(String);

impl fmt::Display for BadStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--store {}: expected memory, sqlite:PATH or postgres://user@host:port/database",
            self.0
        )
    }
}

impl std::error::Error for BadStore {}

impl FromStr for StoreChoice {
    type Err = BadStore;

    fn from_str(value: &str) -> Result<Self, BadStore> {
        if value == "memory" {
            Ok(StoreChoice::Memory)
        } else if let Some(path) = value.strip_prefix("sqlite:").filter(|p| !p.is_empty()) {
            Ok(StoreChoice::Sqlite(PathBuf::from(path)))
        } else if value.starts_with("postgres://") || value.starts_with("postgresql://") {
            Ok(StoreChoice::Postgres(value.to_owned()))
        } else {
            Err(BadStore(value.to_owned()))
        }
    }
}

/// An opened store, ready to give to the server.
#[derive(Clone, Debug)]
pub enum OpenedStore {
    /// The server's defaults.
    Memory,
    /// One SQLite file (the server's in-process event bus).
    Sqlite(SqliteStore),
    /// PostgreSQL and its notifications.
    Postgres(PostgresStore, PostgresVersionBus),
}

impl OpenedStore {
    /// The store keeping tasks that are over for `age` after their last change (`--keep-ended`),
    /// instead of the recommended 7 days; the rest of its retention policy, and how often it runs,
    /// unchanged. The memory store keeps a bounded number of tasks instead, and is unchanged.
    #[must_use]
    pub fn keeping_ended_tasks(self, age: std::time::Duration) -> Self {
        let policy = Some(RetentionPolicy::recommended().terminal_tasks_after(age));
        match self {
            OpenedStore::Memory => OpenedStore::Memory,
            OpenedStore::Sqlite(store) => {
                OpenedStore::Sqlite(store.with_retention(policy, RETENTION_INTERVAL))
            }
            OpenedStore::Postgres(store, bus) => {
                OpenedStore::Postgres(store.with_retention(policy, RETENTION_INTERVAL), bus)
            }
        }
    }

    /// The builder with this store for tasks and push configs (and its event bus).
    pub fn install(self, builder: A2aServerBuilder) -> A2aServerBuilder {
        match self {
            OpenedStore::Memory => builder,
            OpenedStore::Sqlite(store) => builder
                .task_store(store.clone())
                .push_config_store(store.clone())
                .push_outbox(store.clone())
                .execution_queue(store),
            OpenedStore::Postgres(store, bus) => builder
                .task_store(store.clone())
                .push_config_store(store.clone())
                .push_outbox(store.clone())
                .execution_queue(store)
                .version_bus(bus),
        }
    }
}

/// Removes a SQLite file with its WAL and shared-memory files, and the lock file the store takes
/// beside it (which the store leaves when it closes: removing it then would race a next opener).
pub fn remove_sqlite(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_options_parse_and_bad_ones_say_what_is_expected() {
        assert_eq!("memory".parse(), Ok(StoreChoice::Memory));
        assert_eq!(
            "sqlite:/tmp/t.db".parse(),
            Ok(StoreChoice::Sqlite("/tmp/t.db".into()))
        );
        assert_eq!(
            "postgres://a2a@127.0.0.1:5432/postgres".parse(),
            Ok(StoreChoice::Postgres(
                "postgres://a2a@127.0.0.1:5432/postgres".into()
            ))
        );
        let bad = "mysql://x".parse::<StoreChoice>().unwrap_err();
        assert!(bad.to_string().contains("expected memory, sqlite:PATH"));
        assert!("sqlite:".parse::<StoreChoice>().is_err());
    }

    #[tokio::test]
    async fn a_store_kept_for_less_prunes_ended_tasks_sooner_and_the_rest_as_recommended() {
        let path = std::env::temp_dir().join(format!("keep-ended-{}.sqlite3", std::process::id()));
        let opened = StoreChoice::Sqlite(path.clone())
            .open()
            .await
            .expect("opens");
        let OpenedStore::Sqlite(before) = opened.clone() else {
            panic!("a SQLite store")
        };
        assert_eq!(
            before.retention(),
            Some((RetentionPolicy::recommended(), RETENTION_INTERVAL))
        );
        let age = std::time::Duration::from_secs(600);
        let OpenedStore::Sqlite(kept) = opened.keeping_ended_tasks(age) else {
            panic!("still a SQLite store")
        };
        let (policy, every) = kept.retention().expect("a policy");
        assert_eq!(policy.terminal_tasks_after, Some(age));
        assert_eq!(
            policy.max_events_per_task,
            RetentionPolicy::recommended().max_events_per_task
        );
        assert_eq!(every, RETENTION_INTERVAL);
        drop((before, kept));
        remove_sqlite(&path);
        let _ = std::fs::remove_file(path.with_extension("sqlite3.lock"));
    }
}
