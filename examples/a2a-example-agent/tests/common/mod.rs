//! What the example agent's suites share: the three stores each suite runs on, every one the
//! suite's own, so tests running in parallel never share a file or a database; and, for the crash
//! tests, the agent's binary started on a store (killed by its pid when dropped); for the
//! authentication tests, a real OpenID provider (`oidc_provider`, shared with the client's tests); and the runner of the Python
//! driver scripts (`driver`).
//!
//! - memory;
//! - SQLite: a new file in the system's temporary directory, removed (with its WAL) when dropped;
//! - PostgreSQL: a new database on the server `A2A_TEST_POSTGRES_URL` names (`.ci/postgres.sh`
//!   starts a throw-away one). Without that variable the test prints one line saying it is
//!   skipped, and under `CI=true` it fails instead.

#![allow(dead_code)] // each test binary uses its own part

pub mod driver;
#[path = "../../../../tests/interop/oidc/provider.rs"]
pub mod oidc_provider;

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use a2a_testkit::process::Server;
use a2a_testkit::stores::StoreChoice;
use sqlx::Connection;

/// The variable naming the test PostgreSQL server.
pub const POSTGRES_URL: &str = "A2A_TEST_POSTGRES_URL";

/// A name no other test of this run, or of an earlier run, uses (letters, digits and `_`, so it
/// is also a valid SQL identifier).
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

/// One store of a suite's run: what to give the agent (`Config::store`, or `--store`), and its
/// name for the reports. A SQLite file is removed when this is dropped.
pub struct TestStore {
    /// `memory`, `SQLite` or `PostgreSQL`.
    pub name: &'static str,
    /// The store, as the agent's configuration takes it.
    pub choice: StoreChoice,
}

impl TestStore {
    /// The process's memory.
    pub fn memory() -> TestStore {
        TestStore {
            name: "memory",
            choice: StoreChoice::Memory,
        }
    }

    /// A new SQLite file.
    pub fn sqlite() -> TestStore {
        let path = std::env::temp_dir().join(format!("{}.sqlite3", unique("a2a_agent_test")));
        TestStore {
            name: "SQLite",
            choice: StoreChoice::Sqlite(path),
        }
    }

    /// A new, empty database on the test PostgreSQL server; `None` (after one line naming `test`)
    /// when no server is configured, and a failure when `CI=true`.
    pub async fn postgres(test: &str) -> Option<TestStore> {
        let url = postgres_url(test)?;
        Some(TestStore {
            name: "PostgreSQL",
            choice: StoreChoice::Postgres(new_database(&url).await),
        })
    }

    /// The `--store` argument of the agent's command line.
    pub fn argument(&self) -> String {
        match &self.choice {
            StoreChoice::Memory => "memory".to_owned(),
            StoreChoice::Sqlite(path) => format!("sqlite:{}", path.display()),
            StoreChoice::Postgres(url) => url.clone(),
        }
    }
}

impl Drop for TestStore {
    fn drop(&mut self) {
        if let StoreChoice::Sqlite(path) = &self.choice {
            a2a_testkit::stores::remove_sqlite(path);
        }
    }
}

/// The URL of the test PostgreSQL server, or `None` after one line saying `test` is skipped;
/// under `CI=true` a missing server fails the test.
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

/// Creates a database of its own on the server at `url` and returns its URL (the server's URL
/// with the database name replaced, its query kept).
pub async fn new_database(url: &str) -> String {
    let database = unique("a2a_agent_test");
    let mut admin = sqlx::PgConnection::connect(url)
        .await
        .unwrap_or_else(|e| panic!("the test PostgreSQL at {url} answers: {e}"));
    sqlx::query(&format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("creating the database {database}: {e}"));
    let _ = admin.close().await;
    let (address, query) = url.split_once('?').unwrap_or((url, ""));
    let (server, _) = address.rsplit_once('/').expect("a URL ending in /database");
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{server}/{database}{query}")
}

/// The URL of a new, empty database on the test PostgreSQL (so counts are the test's own), or
/// `None` when there is none to use (said in one line; a failure under `CI=true`).
pub async fn postgres_database(test: &str) -> Option<String> {
    let url = postgres_url(test)?;
    Some(new_database(&url).await)
}

/// Starts the agent on `store`; returns the process and its URL.
pub fn start(store: &str) -> (Server, String) {
    let (server, url, _) = start_with(&["--listen", "127.0.0.1:0", "--store", store]);
    (server, url)
}

/// The variable naming another build of the agent to run instead of this one's, for seeing a
/// suite's bound fail against a release from before the fix.
pub const AGENT_BINARY: &str = "A2A_EXAMPLE_AGENT_BIN";

/// Starts the agent with these arguments; returns the process, its URL and its first line.
pub fn start_with(args: &[&str]) -> (Server, String, String) {
    let binary = std::env::var(AGENT_BINARY)
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_a2a-example-agent").to_owned());
    let mut command = Command::new(binary);
    command.args(args);
    let (server, line) = Server::start(command, "the example agent").expect("the agent starts");
    let url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line is {line:?}"))
        .to_owned();
    (server, url, line)
}

/// A new SQLite file's path in the temporary directory, and a guard removing it (with its WAL).
pub fn sqlite_file(prefix: &str) -> (String, SqliteFile) {
    let path = std::env::temp_dir().join(format!("{}.sqlite3", unique(prefix)));
    (path.display().to_string(), SqliteFile(path))
}

/// Removes a test's SQLite file and its WAL and shared-memory files when dropped.
pub struct SqliteFile(std::path::PathBuf);

impl Drop for SqliteFile {
    fn drop(&mut self) {
        a2a_testkit::stores::remove_sqlite(&self.0);
    }
}
