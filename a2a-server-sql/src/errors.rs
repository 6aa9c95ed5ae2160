//! How the stores fail: a store that cannot open ([`OpenError`]), and a database failure or a
//! refused config as the server crate's [`StoreError`].

use std::fmt;

use a2a_server::store::StoreError;

/// Push configs one task may have, as the in-memory store allows.
pub(crate) const MAX_CONFIGS_PER_TASK: i64 =
    a2a_server::InMemoryPushConfigStore::MAX_PER_TASK as i64;

/// Why a store could not open.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// The database could not be reached or opened.
    Connect(sqlx::Error),
    /// Its schema could not be brought up to date.
    Migrate(sqlx::migrate::MigrateError),
    /// Another store holds the SQLite file (its lock file is `path`): in another process, or
    /// still open in this one.
    InUse {
        /// The lock file beside the database.
        path: std::path::PathBuf,
    },
    /// The SQLite file's lock could not be taken (the lock file cannot be created, say).
    Lock {
        /// The lock file beside the database.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Connect(e) => write!(f, "the task database could not be opened: {e}"),
            OpenError::Migrate(e) => write!(f, "the task database could not be migrated: {e}"),
            OpenError::InUse { path } => write!(
                f,
                "the task database is in use by another store ({} is locked): one process \
                 writes a SQLite store",
                path.display()
            ),
            OpenError::Lock { path, source } => write!(
                f,
                "the task database's lock {} could not be taken: {source}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Connect(e) => Some(e),
            OpenError::Migrate(e) => Some(e),
            OpenError::InUse { .. } => None,
            OpenError::Lock { source, .. } => Some(source),
        }
    }
}

/// A database failure as the server reports it (sqlx's, or that of SQLite's writer thread's own
/// connection).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn backend(error: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(format!("database: {error}"))
}

#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn too_many_configs() -> StoreError {
    StoreError::Backend(format!(
        "a task takes at most {MAX_CONFIGS_PER_TASK} push notification configs"
    ))
}
