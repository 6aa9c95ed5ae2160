//! The embedded store: one SQLite file, written by one process (see the [crate docs](crate) for the
//! schema). Streams use the server's in-process
//! [`InMemoryVersionBus`](a2a_server::InMemoryVersionBus): every writer of the file is in this
//! process.
//!
//! The file is opened in WAL mode with `synchronous = NORMAL`: a committed transaction survives the
//! process being killed (it is in the WAL); writers queue on SQLite's lock for up to the busy
//! timeout.

use std::path::Path;
use std::time::Duration;

use sqlx::Sqlite;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::errors::OpenError;
use crate::store::SqlStore;

/// Tasks, event logs and push configs in one SQLite file; cheap to clone (clones share the pool).
pub type SqliteStore = SqlStore<Sqlite>;

impl SqlStore<Sqlite> {
    /// Opens (creating it if needed) the database file at `path` and brings its schema up to date.
    pub async fn open(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        Self::open_with(options).await
    }

    /// Opens a database with these options (a pool of four connections) and migrates it.
    pub async fn open_with(options: SqliteConnectOptions) -> Result<Self, OpenError> {
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(OpenError::Connect)?;
        let store = Self::migrated(pool).await?;
        // One process uses the file: executions leased when it was opened belong to a process
        // that has stopped, and are resumed at once rather than when their leases run out.
        store
            .expire_execution_leases()
            .await
            .map_err(|e| OpenError::Connect(sqlx::Error::Protocol(e.to_string())))?;
        Ok(store)
    }
}
