//! The shared store: one PostgreSQL database for every replica of the agent (see the
//! [crate docs](crate) for the schema). Each update also announces the task's new version to
//! the other replicas (see [`PostgresVersionBus`](crate::PostgresVersionBus)), inside its
//! transaction.
//!
//! Its parts: the bus that carries those versions (`bus`) and their notifications (`notify`),
//! the tasks ended before their first write, written in batches (`batch`), and the slices the
//! tasks are kept in, dropped whole when they expire (`slices`).

use std::time::Duration;

use sqlx::Postgres;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

use crate::errors::OpenError;
use crate::postgres::batch::EndedTaskBatch;
use crate::retention::{RETENTION_INTERVAL, RetentionPolicy};
use crate::store::SqlStore;

pub(crate) mod batch;
pub(crate) mod bus;
pub(crate) mod notify;
pub(crate) mod slices;

/// Tasks, event logs and push configs in one PostgreSQL database, shared by every replica of the
/// agent; cheap to clone (clones share the pool).
pub type PostgresStore = SqlStore<Postgres>;

impl SqlStore<Postgres> {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date.
    pub async fn connect(url: &str) -> Result<Self, OpenError> {
        let options: PgConnectOptions = url.parse().map_err(OpenError::Connect)?;
        Self::connect_with(options, 16).await
    }

    /// Connects with these options and a pool of at most `max_connections`, and migrates. The
    /// store's connections plan each statement once and reuse the plan (PostgreSQL's
    /// `plan_cache_mode = force_generic_plan`, set when each connects).
    pub async fn connect_with(
        options: PgConnectOptions,
        max_connections: u32,
    ) -> Result<Self, OpenError> {
        // PostgreSQL plans a prepared statement for its values until a plan without them looks as
        // cheap, and over partitioned tables (the slices) it never does: every statement was
        // planned again each time it ran, about a quarter of the database's CPU under load.
        // The plans without values are the ones `tests/plans.rs` checks: each finds its task by
        // the key, and the slice at run time.
        let options = options.options([("plan_cache_mode", "force_generic_plan")]);
        let pool = PgPoolOptions::new()
            // The bus's listener holds one connection of its own.
            .max_connections(max_connections.max(2))
            .acquire_timeout(Duration::from_secs(10))
            // A connection is checked when it fails, not before each use (a round trip saved).
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .map_err(OpenError::Connect)?;
        let store = Self::migrated(pool.clone(), pool.clone(), None)
            .await?
            .opened_with_retention(RetentionPolicy::recommended(), RETENTION_INTERVAL);
        // Set once, on a store no one else holds yet.
        let _ = store.shared.ended_batch.set(EndedTaskBatch::start(pool));
        Ok(store)
    }
}
