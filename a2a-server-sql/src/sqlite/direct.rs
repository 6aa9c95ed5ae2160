//! The SQLite writer thread's own connection ([`DirectConnection`]): opened on the store's file
//! with the settings of the store's writer connection, and used on that thread alone, where a
//! statement is a function call.
//!
//! Why not a connection of sqlx's: sqlx runs each SQLite connection on a worker thread of its own
//! and sends every statement's result back over a channel, so a group of writes was dozens of
//! hand-offs between two threads, each one waking a thread. Under a load of streams those
//! hand-offs cost the writer about as much as SQLite's own work.
//!
//! Two connections writing one file would contend for SQLite's lock, and the loser sleeps in
//! SQLite's busy handler. This one never does: the writer thread writes only while it holds the
//! store's writer connection (the one connection of the store's writer pool, taken and left
//! unused), so whoever holds that connection is the file's only writer, and the store's other
//! writes wait their turn in the pool's queue, as they do for each other.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use sqlx::{Pool, Sqlite, SqliteConnection};

use crate::cost::STATEMENT_TARGET;
use crate::sqlite::values::Value;

/// Statements kept prepared: every text the writer thread runs (about twenty, for the tables
/// outside every slice and for a few slices) stays prepared.
const PREPARED: usize = 128;

/// The writer thread's connection (see the [module docs](self)).
#[derive(Debug)]
pub(crate) struct DirectConnection {
    connection: Connection,
}

/// What the store's writer connection was set up with, read from it so that the thread's
/// connection behaves the same whatever options the store was opened with.
#[derive(Debug, PartialEq, Eq)]
struct Settings {
    journal_mode: String,
    locking_mode: String,
    synchronous: i64,
    foreign_keys: i64,
    busy_timeout_ms: i64,
    wal_autocheckpoint: i64,
    cache_size: i64,
}

impl Settings {
    async fn of(writer: &Pool<Sqlite>) -> Result<Self, sqlx::Error> {
        let mut connection = writer.acquire().await?;
        Ok(Settings {
            journal_mode: pragma(&mut connection, "journal_mode").await?,
            locking_mode: pragma(&mut connection, "locking_mode").await?,
            synchronous: pragma(&mut connection, "synchronous").await?,
            foreign_keys: pragma(&mut connection, "foreign_keys").await?,
            busy_timeout_ms: pragma(&mut connection, "busy_timeout").await?,
            wal_autocheckpoint: pragma(&mut connection, "wal_autocheckpoint").await?,
            cache_size: pragma(&mut connection, "cache_size").await?,
        })
    }
}

/// The value of the pragma `name` on `connection`.
async fn pragma<T>(connection: &mut SqliteConnection, name: &str) -> Result<T, sqlx::Error>
where
    T: for<'r> sqlx::Decode<'r, Sqlite> + sqlx::Type<Sqlite> + Send + Unpin,
{
    sqlx::query_scalar(&format!("PRAGMA {name}"))
        .fetch_one(connection)
        .await
}

impl DirectConnection {
    /// Opens the database file at `path` (the store's, already migrated) with the settings of the
    /// store's `writer` connection. Refused (the store then writes through sqlx alone) unless the
    /// file is in WAL mode and not locked by one connection: only then can this connection write
    /// beside the store's readers without waiting for them.
    pub(crate) async fn open_beside(writer: &Pool<Sqlite>, path: &Path) -> Result<Self, String> {
        let settings = Settings::of(writer)
            .await
            .map_err(|error| format!("the writer's settings could not be read: {error}"))?;
        if !settings.journal_mode.eq_ignore_ascii_case("wal")
            || !settings.locking_mode.eq_ignore_ascii_case("normal")
        {
            return Err(format!(
                "the database is in journal mode {} with locking mode {}, not WAL and normal",
                settings.journal_mode, settings.locking_mode
            ));
        }
        Self::open(path, &settings).map_err(|error| format!("{}: {error}", path.display()))
    }

    fn open(path: &Path, settings: &Settings) -> rusqlite::Result<Self> {
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // Numbers only, read from SQLite itself: nothing here is quoted text.
        connection.execute_batch(&format!(
            "PRAGMA synchronous = {}; PRAGMA foreign_keys = {}; \
             PRAGMA wal_autocheckpoint = {}; PRAGMA cache_size = {}",
            settings.synchronous,
            settings.foreign_keys,
            settings.wal_autocheckpoint,
            settings.cache_size
        ))?;
        let busy_ms = u64::try_from(settings.busy_timeout_ms).unwrap_or(0);
        connection.busy_timeout(Duration::from_millis(busy_ms))?;
        connection.set_prepared_statement_cache_capacity(PREPARED);
        Ok(DirectConnection { connection })
    }

    /// Runs the statement `sql` (prepared once, then kept) with `values` bound by number (`$n` is
    /// `values[n - 1]`, as sqlx binds on the store's other connections); the rows it changed.
    pub(crate) fn run(&self, sql: &str, values: &[Value]) -> rusqlite::Result<u64> {
        let mut statement = self.connection.prepare_cached(sql)?;
        for index in 1..=statement.parameter_count() {
            let value = statement
                .parameter_name(index)
                .and_then(|name| name.strip_prefix('$'))
                .and_then(|number| number.parse::<usize>().ok())
                .and_then(|number| number.checked_sub(1))
                .and_then(|position| values.get(position));
            match value {
                Some(value) => statement.raw_bind_parameter(index, value)?,
                None => {
                    let name = statement.parameter_name(index).unwrap_or("?");
                    return Err(rusqlite::Error::InvalidParameterName(name.to_owned()));
                }
            }
        }
        let changed = u64::try_from(statement.raw_execute()?).unwrap_or(u64::MAX);
        tracing::trace!(target: STATEMENT_TARGET, summary = sql, rows_affected = changed);
        Ok(changed)
    }

    /// The single integer (or `NULL`) the query `sql` answers.
    pub(crate) fn read_number(&self, sql: &str) -> rusqlite::Result<Option<i64>> {
        let number = self
            .connection
            .prepare_cached(sql)?
            .query_row([], |row| row.get(0))?;
        tracing::trace!(target: STATEMENT_TARGET, summary = sql, rows_affected = 0_u64);
        Ok(number)
    }

    /// Runs `body` in a transaction that takes SQLite's write lock at once, committed when `body`
    /// succeeds and rolled back otherwise (a failed commit too).
    pub(crate) fn transaction<T>(
        &self,
        body: impl FnOnce(&Self) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.control("BEGIN IMMEDIATE")?;
        let outcome = body(self).and_then(|done| self.control("COMMIT").map(|()| done));
        if outcome.is_err() {
            // Nothing of it is kept; a transaction that `COMMIT` did end has nothing to roll back.
            let _ = self.control("ROLLBACK");
        }
        outcome
    }

    fn control(&self, sql: &str) -> rusqlite::Result<()> {
        self.connection.prepare_cached(sql)?.raw_execute()?;
        tracing::trace!(target: STATEMENT_TARGET, summary = sql, rows_affected = 0_u64);
        Ok(())
    }
}

/// A directory of its own under the system's temporary one, for a test's database file: removed
/// whole when dropped, the file's log, shared memory and lock with it.
#[cfg(test)]
pub(crate) struct ScratchDir(std::path::PathBuf);

#[cfg(test)]
impl ScratchDir {
    pub(crate) fn new() -> Self {
        use std::sync::atomic::{AtomicUsize, Ordering};

        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "a2a-sqlite-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a directory");
        ScratchDir(dir)
    }

    /// The database file's path in it.
    pub(crate) fn database(&self) -> std::path::PathBuf {
        self.0.join("tasks.sqlite3")
    }
}

#[cfg(test)]
impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A migrated database file of its own for the writer's tests: the store's writer pool on it (one
/// connection) and the thread's connection beside it; the files go when it is dropped.
#[cfg(test)]
pub(crate) struct TestDatabase {
    pub(crate) pool: Pool<Sqlite>,
    pub(crate) direct: DirectConnection,
    /// The database file.
    pub(crate) path: std::path::PathBuf,
    /// Last, so that it goes after the connections.
    _dir: ScratchDir,
}

#[cfg(test)]
impl TestDatabase {
    pub(crate) async fn new() -> Self {
        use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};

        use crate::dialect::Dialect;

        let dir = ScratchDir::new();
        let path = dir.database();
        let options = SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .expect("connects");
        <Sqlite as Dialect>::migrator()
            .run(&pool)
            .await
            .expect("migrates");
        let direct = DirectConnection::open_beside(&pool, &path)
            .await
            .expect("opens beside");
        TestDatabase {
            pool,
            direct,
            path,
            _dir: dir,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_connection_takes_the_writers_settings_and_binds_by_number() {
        let database = TestDatabase::new().await;
        let read = |pragma: &str| {
            database
                .direct
                .connection
                .query_row(pragma, [], |row| row.get::<_, i64>(0))
                .expect("read")
        };
        assert_eq!(read("PRAGMA foreign_keys"), 1);
        let settings = Settings::of(&database.pool).await.expect("settings");
        assert_eq!(read("PRAGMA synchronous"), settings.synchronous);
        assert_eq!(read("PRAGMA busy_timeout"), settings.busy_timeout_ms);
        assert_eq!(
            read("PRAGMA wal_autocheckpoint"),
            settings.wal_autocheckpoint
        );

        // `$2` before `$1`, and `$1` twice: each is its own value.
        let changed = database
            .direct
            .run(
                "INSERT INTO a2a_task_counts (owner_principal, owner_tenant, tasks) \
                 VALUES ($2, $1 || $1, $3)",
                &[
                    Value::from("t".to_owned()),
                    Value::from("alice".to_owned()),
                    Value::from(4_i64),
                ],
            )
            .expect("inserted");
        assert_eq!(changed, 1);
        let row: (String, String, i64) =
            sqlx::query_as("SELECT owner_principal, owner_tenant, tasks FROM a2a_task_counts")
                .fetch_one(&database.pool)
                .await
                .expect("seen by the store's connection");
        assert_eq!(row, ("alice".to_owned(), "tt".to_owned(), 4));

        let missing = database.direct.run("SELECT $2", &[Value::from(1_i64)]);
        assert!(
            matches!(&missing, Err(rusqlite::Error::InvalidParameterName(name)) if name == "$2"),
            "{missing:?}"
        );
    }

    #[tokio::test]
    async fn a_failing_transaction_keeps_nothing_and_leaves_none_open() {
        let database = TestDatabase::new().await;
        let insert = "INSERT INTO a2a_task_counts (owner_principal, owner_tenant, tasks) \
                      VALUES ($1, '', 1)";
        let failed = database.direct.transaction(|direct| {
            direct.run(insert, &[Value::from("alice".to_owned())])?;
            direct.run("INSERT INTO no_such_table VALUES (1)", &[])
        });
        assert!(failed.is_err());
        let kept = database
            .direct
            .transaction(|direct| direct.run(insert, &[Value::from("bob".to_owned())]));
        assert_eq!(kept, Ok(1));
        let owners: Vec<String> = sqlx::query_scalar("SELECT owner_principal FROM a2a_task_counts")
            .fetch_all(&database.pool)
            .await
            .expect("read");
        assert_eq!(owners, ["bob"]);
    }
}
