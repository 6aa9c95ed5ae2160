//! [`SqlStore`]: tasks, their event logs and push configs in a SQL database, written once for both
//! databases (the differences are in [`Dialect`]). [`SqliteStore`](crate::SqliteStore) and
//! [`PostgresStore`](crate::PostgresStore) are this store on each database; see the
//! [crate docs](crate) for the guarantees and the schema.
//!
//! Its methods by concern: task writes (`writes`), task reads (`reads`), push configs (`configs`),
//! the retention policy and its pass (`retaining`), and the server crate's store traits on each
//! database (`traits`); the execution queue and the push outbox are in `executions` and `outbox`.

use std::sync::Arc;

use sqlx::Pool;

use crate::dialect::Dialect;
use crate::errors::OpenError;
use crate::group::GroupWriter;
use crate::outbox_hint::OutboxHint;
use crate::records_ended::RecordsEnded;
use crate::retention::StoreGuard;
use crate::written::Written;

mod configs;
mod reads;
mod retaining;
mod traits;
mod writes;

/// Tasks, event logs and push configs in one database of dialect `D`; cheap to clone (clones
/// share the connection pool).
#[derive(Debug)]
pub struct SqlStore<D: Dialect> {
    /// What reads use (and, on PostgreSQL, writes too).
    pub(crate) pool: Pool<D>,
    /// What writes use: on SQLite one connection, so writers wait their turn in the pool's queue
    /// instead of contending for the file's lock (and sleeping on it); on PostgreSQL `pool`.
    pub(crate) writer: Pool<D>,
    /// What the clones share besides the pools.
    pub(crate) shared: Arc<Shared>,
    /// SQLite's file lock and the retention pass, for as long as any clone lives; `None` in the
    /// retention pass's own copy, so the pass never keeps the store alive.
    pub(crate) guard: Option<Arc<StoreGuard>>,
}

/// The state of a store its clones share.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// The tasks this process wrote last: an update starts from them instead of reading first.
    pub(crate) written: Written,
    /// The tasks whose execution record a terminal write of this process removed.
    pub(crate) records_ended: RecordsEnded,
    /// Whether the outbox may hold deliveries this process has not claimed yet.
    pub(crate) outbox: OutboxHint,
    /// The slices of tasks statements are routed to (SQLite's; PostgreSQL's database routes its
    /// own), shared with SQLite's writer thread.
    pub(crate) slices: Arc<crate::slices::SliceSet>,
    /// The writer that commits the hot writes in groups, on a database that has one (SQLite).
    pub(crate) group: std::sync::OnceLock<Box<dyn GroupWriter>>,
    /// PostgreSQL's writer of tasks ended before their first write, in groups.
    #[cfg(feature = "postgres")]
    pub(crate) ended_batch: std::sync::OnceLock<crate::postgres::batch::EndedTaskBatch>,
}

impl<D: Dialect> Clone for SqlStore<D> {
    fn clone(&self) -> Self {
        SqlStore {
            pool: self.pool.clone(),
            writer: self.writer.clone(),
            shared: self.shared.clone(),
            guard: self.guard.clone(),
        }
    }
}

impl<D: Dialect> SqlStore<D> {
    /// The connection pool, for queries of your own.
    pub fn pool(&self) -> &Pool<D> {
        &self.pool
    }

    /// The store reading on `pool` and writing on `writer` (the same pool, or one connection of
    /// the same database), migrated, holding `file_lock` (SQLite's) for its lifetime.
    pub(crate) async fn migrated(
        pool: Pool<D>,
        writer: Pool<D>,
        file_lock: Option<std::fs::File>,
    ) -> Result<Self, OpenError>
    where
        D::Connection: sqlx::migrate::Migrate,
    {
        D::migrator()
            .run(&writer)
            .await
            .map_err(OpenError::Migrate)?;
        Ok(SqlStore {
            pool,
            writer,
            shared: Arc::default(),
            guard: Some(Arc::new(StoreGuard::with_lock(file_lock))),
        })
    }
}

/// The update of a task at the version it was read at (binds: context id, state, terminal,
/// status time, timestamped, now, the task's JSON, its id, owner principal, owner tenant,
/// expected version, the versions it moves on by: one per event logged with it, at least one);
/// returns the new version. The owner is compared as in `owned_task_row`, so
/// the primary key alone finds the row.
pub(crate) const UPDATE_TASK: &str = "UPDATE a2a_tasks SET context_id = $1, state = $2, \
     terminal = $3, status_micros = $4, timestamped = $5, version = version + $12, \
     updated_micros = $6, task = $7 WHERE id = $8 AND owner_principal IS NOT DISTINCT FROM $9 \
     AND owner_tenant IS NOT DISTINCT FROM $10 AND version = $11 RETURNING version";

/// The insert of a new task at version 1 (binds: id, owner principal, owner tenant, context id,
/// state, terminal, status time, timestamped, now, the task's JSON; see
/// [`SqlStore::bind_new_task`]); inserts nothing when the id is taken.
pub(crate) const INSERT_TASK: &str = "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, \
     context_id, state, terminal, status_micros, timestamped, version, updated_micros, task) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10) ON CONFLICT (id) DO NOTHING";
