//! The embedded store: one SQLite file, written by one process (see the [crate docs](crate) for the
//! schema). Streams use the server's in-process
//! [`InMemoryVersionBus`](a2a_server::InMemoryVersionBus): every writer of the file is in this
//! process. Opening holds an exclusive lock on a file beside the database (`<file>.lock`) for as
//! long as the store lives, so a second process (or a second store in this one) is refused at open
//! ([`OpenError::InUse`]) instead of writing updates that the first one's streams never see and
//! resuming the first one's executions as if it had stopped.
//!
//! The file is opened in WAL mode with `synchronous = NORMAL`, the log checkpointed every
//! [`WAL_CHECKPOINT_PAGES`] pages: a committed transaction survives the
//! process being killed (it is in the WAL); writers queue on SQLite's lock for up to the busy
//! timeout. The hot writes (a task created with its execution's record, an update with its
//! events, an execution's end) go to a writer thread that commits those queued together in one
//! transaction, on a connection of its own that it runs itself (see `writer`).
//!
//! Its parts: the writer thread (`writer`), the connection it runs its statements on (`direct`)
//! and the values it binds there (`values`), the expiry it paces by its writes (`expiry`), and
//! the slices of tasks dropped whole (`slices`).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sqlx::Sqlite;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::errors::OpenError;
use crate::retention::{RETENTION_INTERVAL, RetentionPolicy};
use crate::sqlite::writer::SqliteWriter;
use crate::store::SqlStore;

mod direct;
mod expiry;
pub(crate) mod slices;
mod values;
mod writer;

/// The write-ahead log's size, in pages (4 KiB each: about 40 MiB), at which a commit copies it back
/// into the database file and syncs that file. SQLite's default, 1,000 pages, made the writer
/// thread checkpoint and sync several times a second under load; ten times fewer gave SendMessage
/// 1.04 (0.99–1.16) of it in ten alternating rounds of `wrk`. The log stays bounded, and a crash
/// replays at most this much.
pub(crate) const WAL_CHECKPOINT_PAGES: u32 = 10_000;

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
            .busy_timeout(Duration::from_secs(10))
            .pragma("wal_autocheckpoint", WAL_CHECKPOINT_PAGES.to_string());
        Self::open_with(options).await
    }

    /// Opens a database with these options and migrates it; a file database is locked to this
    /// store first (an in-memory one needs no lock). Writes go through one connection, in turn
    /// (SQLite writes one transaction at a time: writers queued in the pool wait without
    /// sleeping on the file's lock); reads through a pool of four others, which WAL mode lets
    /// read while the writer writes. The writer thread of the hot writes writes on a connection
    /// of its own, in its turn on that one connection (an in-memory database has no thread).
    pub async fn open_with(options: SqliteConnectOptions) -> Result<Self, OpenError> {
        let in_memory = is_in_memory(&options);
        let path = options.get_filename().to_owned();
        let file_lock = match in_memory {
            true => None,
            false => lock_beside(&path).await?,
        };
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            // A connection is checked when it fails, not before each use (a round trip saved).
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(OpenError::Connect)?;
        // An in-memory database is one connection's own: its readers are its writer.
        let pool = if in_memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .acquire_timeout(Duration::from_secs(10))
                .test_before_acquire(false)
                .connect_with(options)
                .await
                .map_err(OpenError::Connect)?
        };
        let store = Self::migrated(pool, writer, file_lock).await?;
        slices::load(&store.writer, &store.shared.slices)
            .await
            .map_err(|e| OpenError::Connect(sqlx::Error::Protocol(e.to_string())))?;
        // The writer thread opens the file a second time, which an in-memory database (one
        // connection's own) cannot be: its store writes through sqlx alone.
        let group = match in_memory {
            true => None,
            false => {
                SqliteWriter::start(store.writer.clone(), &path, store.shared.slices.clone()).await
            }
        };
        if let Some(group) = group {
            // Set once, on a store no one else holds yet, before its retention policy (which the
            // writer paces expiry by).
            let _ = store.shared.group.set(Box::new(group));
        }
        let store = store.opened_with_retention(RetentionPolicy::recommended(), RETENTION_INTERVAL);
        // One process uses the file: executions leased when it was opened belong to a process
        // that has stopped, and are resumed at once rather than when their leases run out.
        store
            .expire_execution_leases()
            .await
            .map_err(|e| OpenError::Connect(sqlx::Error::Protocol(e.to_string())))?;
        Ok(store)
    }
}

/// How long opening waits for the file's lock: a store of this process still closing (its last
/// deliveries finishing) or a process exiting lets go of it within that.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// Whether `options` name an in-memory database. sqlx gives `sqlite::memory:` a file-like name of its
/// own (`file:sqlx-in-memory-N`, a shared-cache memory database) and keeps the flag private, and its
/// URL of the options cannot be built for such a name; the flag shows in the options' `Debug` form
/// (the unit test below fails if a sqlx release changes that).
fn is_in_memory(options: &SqliteConnectOptions) -> bool {
    options.get_filename().as_os_str() == ":memory:"
        || format!("{options:?}").contains("in_memory: true")
}

/// Takes the exclusive lock of the database file at `database` (`<file>.lock` beside it, created if
/// missing), waiting up to [`LOCK_WAIT`] for its holder to let go, or says who holds it; `None` for
/// an in-memory database. The operating system lets go of the lock when the process ends, however
/// it ends, so a crash never leaves the file locked.
async fn lock_beside(database: &Path) -> Result<Option<File>, OpenError> {
    let name = database.as_os_str();
    if name.is_empty() || name == ":memory:" {
        return Ok(None);
    }
    let mut lock_path = name.to_owned();
    lock_path.push(".lock");
    let lock_path = PathBuf::from(lock_path);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|source| OpenError::Lock {
            path: lock_path.clone(),
            source,
        })?;
    let deadline = tokio::time::Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(file)),
            Err(TryLockError::WouldBlock) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(TryLockError::WouldBlock) => return Err(OpenError::InUse { path: lock_path }),
            Err(TryLockError::Error(source)) => {
                return Err(OpenError::Lock {
                    path: lock_path,
                    source,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The hot writes give the same outcome through the writer thread (grouped, as a store opens)
    //! and through the store's own transactions (a store whose writer thread did not start).

    use std::str::FromStr;

    use a2a_protocol::errors::{Error, ErrorKind};
    use a2a_server::auth::{Caller, Owner};
    use a2a_server::store::StoreError;
    use a2a_server::{ExecutionQueue, ServiceParams, TaskStore};
    use a2a_types::v1::{
        Message, Part, SendMessageRequest, StreamResponse, Task, TaskState, TaskStatus,
        TaskStatusUpdateEvent,
    };

    use super::*;
    use crate::sqlite::direct::ScratchDir;

    const LEASE: Duration = Duration::from_secs(30);

    #[tokio::test]
    async fn a_file_store_checkpoints_its_log_every_ten_thousand_pages() {
        let file = on_file().await;
        for pool in [&file.store.writer, &file.store.pool] {
            let pages: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
                .fetch_one(pool)
                .await
                .expect("read");
            assert_eq!(pages, i64::from(WAL_CHECKPOINT_PAGES));
        }
    }

    #[test]
    fn an_in_memory_database_is_told_from_a_file_whatever_name_sqlx_gives_it() {
        for memory in [
            "sqlite::memory:",
            "sqlite://:memory:",
            "sqlite://shared?mode=memory",
        ] {
            let options = SqliteConnectOptions::from_str(memory).expect("options");
            assert!(is_in_memory(&options), "{memory}");
        }
        for file in [
            "sqlite://tasks.sqlite3",
            "sqlite:///tmp/tasks.sqlite3?mode=rwc",
        ] {
            let options = SqliteConnectOptions::from_str(file).expect("options");
            assert!(!is_in_memory(&options), "{file}");
        }
    }

    /// A store as [`SqlStore::open`] opens it (its writer thread running), on a file of its own.
    struct FileStore {
        store: SqliteStore,
        /// Last, so that it goes after the store.
        _dir: ScratchDir,
    }

    async fn on_file() -> FileStore {
        let dir = ScratchDir::new();
        let store = SqliteStore::open(dir.database()).await.expect("opens");
        FileStore { store, _dir: dir }
    }

    /// An in-memory store, which writes through sqlx alone (no writer thread).
    async fn in_memory() -> SqliteStore {
        let options = SqliteConnectOptions::from_str("sqlite::memory:").expect("options");
        SqlStore::open_with(options).await.expect("opens")
    }

    fn status(state: TaskState) -> StreamResponse {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            "t-1",
            "ctx",
            TaskStatus::now(state),
        ))
    }

    async fn lease_of(store: &SqliteStore, task_id: &str) -> Option<String> {
        sqlx::query_scalar("SELECT lease_token FROM a2a_executions WHERE task_id = $1")
            .bind(task_id)
            .fetch_optional(store.pool())
            .await
            .expect("reads")
    }

    async fn the_hot_writes_hold(store: SqliteStore) {
        let owner = Owner::of(&Caller::authenticated("alice"), None);
        let request = SendMessageRequest {
            message: Message::user("m-1", [Part::text("hi")]),
            ..Default::default()
        };
        let params = ServiceParams::default();
        let task = Task::new("t-1", "ctx", TaskStatus::now(TaskState::Submitted));
        let begin = |lease: &'static str| {
            ExecutionQueue::begin_with_task(&store, &owner, &task, &request, &params, lease, LEASE)
        };
        assert_eq!(begin("lease-1").await, Ok(1));
        assert_eq!(begin("lease-0").await, Err(StoreError::AlreadyExists));
        assert_eq!(lease_of(&store, "t-1").await.as_deref(), Some("lease-1"));

        // Three events in one write, each under its own version.
        let events = vec![
            status(TaskState::Working),
            status(TaskState::Working),
            status(TaskState::InputRequired),
        ];
        let version = TaskStore::modify_each(&store, &owner, "t-1", events, &mut |task, event| {
            if let Some(StreamResponse::StatusUpdate(update)) = event {
                task.status = update.status.clone();
            }
            Ok(())
        })
        .await;
        assert_eq!(version, Ok(4));
        let page = TaskStore::events_after(&store, &owner, "t-1", 0, 10)
            .await
            .expect("events");
        let versions: Vec<u64> = page.events.iter().map(|event| event.id).collect();
        assert_eq!(versions, [2, 3, 4]);
        ExecutionQueue::finish(&store, "t-1", "lease-1")
            .await
            .expect("finishes");
        assert_eq!(lease_of(&store, "t-1").await, None);

        // A refused continuation writes nothing; an accepted one writes the task and the record.
        let refused = ExecutionQueue::begin_with_change(
            &store,
            &owner,
            "t-1",
            &mut |_, _| Err(Error::bare(ErrorKind::UnsupportedOperation, "no")),
            &request,
            &params,
            "lease-2",
            LEASE,
        )
        .await;
        assert!(refused.is_err());
        assert_eq!(lease_of(&store, "t-1").await, None);
        let continued = ExecutionQueue::begin_with_change(
            &store,
            &owner,
            "t-1",
            &mut |task, _| {
                task.history.push(request.message.clone());
                Ok(())
            },
            &request,
            &params,
            "lease-3",
            LEASE,
        )
        .await;
        assert_eq!(continued, Ok(5));
        assert_eq!(lease_of(&store, "t-1").await.as_deref(), Some("lease-3"));
        let stored = TaskStore::get(&store, &owner, "t-1")
            .await
            .expect("reads")
            .expect("the task");
        assert_eq!((stored.version, stored.task.history.len()), (5, 1));

        // Many at once (grouped when the writer thread has them queued together): all kept.
        let creations = (0..24).map(|n| {
            let store = store.clone();
            let owner = owner.clone();
            let request = request.clone();
            tokio::spawn(async move {
                let task = Task::new(
                    format!("many-{n}"),
                    "ctx",
                    TaskStatus::now(TaskState::Working),
                );
                ExecutionQueue::begin_with_task(
                    &store,
                    &owner,
                    &task,
                    &request,
                    &ServiceParams::default(),
                    "lease",
                    LEASE,
                )
                .await
            })
        });
        for creation in creations.collect::<Vec<_>>() {
            assert_eq!(creation.await.expect("joins"), Ok(1));
        }
        let executions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM a2a_executions")
            .fetch_one(store.pool())
            .await
            .expect("counts");
        assert_eq!(executions, 25);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_hot_writes_hold_through_the_writer_thread() {
        let file = on_file().await;
        assert!(file.store.shared.group.get().is_some());
        the_hot_writes_hold(file.store.clone()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_hot_writes_hold_without_it() {
        let store = in_memory().await;
        assert!(store.shared.group.get().is_none());
        the_hot_writes_hold(store).await;
    }
}
