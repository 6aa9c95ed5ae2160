//! What the crash tests share: the agent's binary started on a store (killed by its pid when
//! dropped), unique names, and a PostgreSQL database of a test's own (skipped with one line
//! without `A2A_TEST_POSTGRES_URL`, failing under `CI=true`).

// Each test binary uses its own part.
#![allow(dead_code)]

use std::process::Command;

use a2a_example_agent::process::Server;
use sqlx::Connection;

/// A name no other test run uses.
pub fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{}-{nanos}", std::process::id())
}

/// Starts the agent on `store`; returns the process and its URL.
pub fn start(store: &str) -> (Server, String) {
    let (server, url, _) = start_with(&["--listen", "127.0.0.1:0", "--store", store]);
    (server, url)
}

/// Starts the agent with these arguments; returns the process, its URL and its first line.
pub fn start_with(args: &[&str]) -> (Server, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"));
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
        for suffix in ["", "-wal", "-shm"] {
            let mut name = self.0.as_os_str().to_owned();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

/// The URL of a new, empty database on the test PostgreSQL (so counts are the test's own), or
/// `None` when there is none to use (the test is then skipped, said in one line).
pub async fn postgres_database(test: &str) -> Option<String> {
    let url = match std::env::var("A2A_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("A2A_TEST_POSTGRES_URL is not set, and CI=true needs the PostgreSQL tests run")
        }
        _ => {
            eprintln!("skipped {test}: set A2A_TEST_POSTGRES_URL to run it");
            return None;
        }
    };
    let database = unique("crash").replace('-', "_");
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("the test PostgreSQL answers");
    sqlx::query(&format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let (base, _) = url.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{database}"))
}
