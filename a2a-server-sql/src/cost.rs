//! What the stores' work costs the database, made visible: every transaction a store opens and
//! commits goes through [`begin`] and [`commit`], which announce it as a `tracing` event of target
//! [`TRANSACTION_TARGET`] (at `TRACE`, so it costs nothing unless a subscriber asks). With sqlx's
//! own statement events (target `sqlx::query`), and the events of the statements SQLite's writer
//! thread runs on its own connection ([`STATEMENT_TARGET`]), a subscriber counts statements,
//! transactions and round trips per operation; the store's cost tests (`tests/cost.rs`) keep those
//! counts.

use a2a_server::store::StoreError;
use sqlx::{Pool, Transaction};

use crate::dialect::Dialect;
use crate::errors::backend;

/// The `tracing` target of the transaction events: `begin` when a transaction opens, `commit`
/// when it commits (one dropped without a commit rolls back).
pub const TRANSACTION_TARGET: &str = "a2a_server_sql::transaction";

/// The `tracing` target of the statements SQLite's writer thread runs on its own connection, one
/// event per statement (at `TRACE`, fields `summary`: the statement's text, and `rows_affected`),
/// `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK` included. They run on the thread that asks for them:
/// no round trip to another thread or process.
pub const STATEMENT_TARGET: &str = "a2a_server_sql::statement";

/// Opens a transaction on a connection of `pool`, and says so.
pub(crate) async fn begin<D: Dialect>(
    pool: &Pool<D>,
) -> Result<Transaction<'static, D>, StoreError> {
    let tx = pool.begin().await.map_err(backend)?;
    tracing::trace!(target: TRANSACTION_TARGET, "begin");
    Ok(tx)
}

/// Commits `tx`, and says so.
pub(crate) async fn commit<D: Dialect>(tx: Transaction<'static, D>) -> Result<(), StoreError> {
    tx.commit().await.map_err(backend)?;
    tracing::trace!(target: TRANSACTION_TARGET, "commit");
    Ok(())
}
