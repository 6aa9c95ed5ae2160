//! PostgreSQL's task slices: `a2a_tasks` and `a2a_task_events` are partitioned by ranges of task
//! id (migration `0010_task_slices.sql`), and since the server's ids begin with the millisecond
//! they were made, a range of ids is a span of time. A pruning pass makes the slices the next
//! minutes need, and drops a slice whose every task expired as two tables at once, instead of
//! deleting its rows one by one: deleting millions of rows cost a busy store a quarter of its
//! throughput (the writes, their log, and the dead rows left for `VACUUM`); a dropped table costs
//! none of that.
//!
//! A slice is dropped only when every task in it is over and unchanged since before the cutoff,
//! exactly what the row-by-row expiry would remove; its owners' counts are taken out, and its
//! push configs, deliveries and execution records deleted, in the same transaction. A slice
//! holding a task still running is left to the row-by-row expiry (its expired tasks go one by
//! one); a slice that is not wholly past the cutoff yet is left alone by both, so its tasks go
//! with it up to one slice's width later than their age alone would say.
//!
//! A slice's width is a quarter of the age tasks are kept (at most a day); ages under
//! [`MIN_SLICED_AGE`](crate::slices::MIN_SLICED_AGE) make no slices, the few tasks such a store
//! holds going row by row.

use std::time::Duration;

use a2a_server::store::StoreError;
use sqlx::{PgPool, Row};

use crate::errors::backend;
use crate::retention::SliceExpiry;
use crate::slices::{Slice, first_id_at, millis, named, run_after, slice_width};

/// How far ahead of its clock a pass starts a new run of slices: ids of the coming minute may
/// already be in the default partition (made by a replica whose clock runs ahead, or while no
/// slice was ready), and a slice cannot take a range the default partition holds rows of.
const START_MARGIN_MS: i64 = 60_000;

/// Takes, for the rest of the transaction, the lock that one replica's pass at a time holds while
/// it makes or drops a slice (keyed by the task table's oid, so stores in other schemas of the
/// database do not share it); answers whether it was free. Passes of replicas at once would
/// otherwise wait on each other's table locks, each holding one the other needs.
const TAKE_UPKEEP_LOCK: &str =
    "SELECT pg_try_advisory_xact_lock('a2a_tasks'::regclass::oid::BIGINT)";

/// How long a pass waits for a table's lock before it leaves that slice to the next pass: below
/// PostgreSQL's `deadlock_timeout` (1 s), so when the pass and a query wait on each other the
/// pass gives up first.
const LOCK_TIMEOUT: &str = "SET LOCAL lock_timeout = '200ms'";

/// The slices that exist, oldest first.
pub(crate) async fn slices(pool: &PgPool) -> Result<Vec<Slice>, StoreError> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT c.relname::TEXT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
         WHERE i.inhparent = 'a2a_tasks'::regclass",
    )
    .fetch_all(pool)
    .await
    .map_err(backend)?;
    Ok(named(&names))
}

/// The slices to make so that the tasks made until `until_ms` have one, `width_ms` wide: after
/// the last slice, or, when it ends before `now_ms` and a margin, from the next multiple of the
/// width after that margin (the ids in between stay in the default partition).
pub(crate) fn slices_to_make(
    existing: &[Slice],
    now_ms: i64,
    width_ms: i64,
    until_ms: i64,
) -> Vec<Slice> {
    let width_ms = width_ms.max(1);
    let earliest = now_ms.saturating_add(START_MARGIN_MS);
    let fresh = (earliest.div_euclid(width_ms) * width_ms).saturating_add(width_ms);
    run_after(existing, earliest, fresh, width_ms, until_ms)
}

/// Makes `slice`'s two tables, each a partition of its table for the slice's range of ids;
/// `false` when another replica's pass holds the upkeep lock.
async fn make(pool: &PgPool, slice: Slice) -> Result<bool, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let made = make_in(&mut tx, slice).await;
    settle(tx, made, |made| *made).await
}

/// [`make`]'s statements, in `tx`.
async fn make_in(tx: &mut PgTransaction, slice: Slice) -> Result<bool, sqlx::Error> {
    if !upkeep_lock(tx).await? {
        return Ok(false);
    }
    let (from, to) = (first_id_at(slice.low_ms), first_id_at(slice.high_ms));
    for (table, parent) in [
        (slice.tasks(), "a2a_tasks"),
        (slice.events(), "a2a_task_events"),
    ] {
        sqlx::query(&format!(
            "CREATE TABLE IF NOT EXISTS {table} PARTITION OF {parent} \
             FOR VALUES FROM ('{from}') TO ('{to}')"
        ))
        .execute(&mut **tx)
        .await?;
    }
    Ok(true)
}

/// A transaction of the pass's.
type PgTransaction = sqlx::Transaction<'static, sqlx::Postgres>;

/// Commits `tx` when `outcome` is one to keep, and otherwise rolls it back now: sqlx rolls back
/// a dropped transaction only when its connection is next used, and until then its locks (the
/// upkeep lock among them) stay taken, so the pass's next transaction would find it busy.
async fn settle<T>(
    tx: PgTransaction,
    outcome: Result<T, sqlx::Error>,
    keep: impl FnOnce(&T) -> bool,
) -> Result<T, sqlx::Error> {
    match outcome {
        Ok(done) if keep(&done) => {
            tx.commit().await?;
            Ok(done)
        }
        Ok(done) => {
            tx.rollback().await?;
            Ok(done)
        }
        Err(error) => {
            // The error is what the caller needs; a failed rollback closes the connection.
            let _ = tx.rollback().await;
            Err(error)
        }
    }
}

/// Bounds the transaction's waits for locks and takes the upkeep lock; whether it was free.
async fn upkeep_lock(tx: &mut PgTransaction) -> Result<bool, sqlx::Error> {
    sqlx::query(LOCK_TIMEOUT).execute(&mut **tx).await?;
    sqlx::query_scalar(TAKE_UPKEEP_LOCK)
        .fetch_one(&mut **tx)
        .await
}

/// What became of a slice a pass meant to drop.
enum Dropped {
    /// Dropped, with this many tasks.
    Removed(u64),
    /// It holds a task not over, or over since the cutoff.
    Unexpired,
    /// Another replica's pass holds the upkeep lock.
    Busy,
}

/// Whether `slice` holds a task that is not over, or that changed at `cutoff` (micros) or later.
const HOLDS_UNEXPIRED: &str = "SELECT EXISTS (SELECT 1 FROM {tasks} WHERE terminal = FALSE) \
     OR EXISTS (SELECT 1 FROM {tasks} WHERE terminal = TRUE AND updated_micros >= $1)";

/// Drops `slice` if every task in it expired before `cutoff` (micros), with its owners' counts,
/// push configs, deliveries and execution records.
async fn drop_if_expired(pool: &PgPool, slice: Slice, cutoff: i64) -> Result<Dropped, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let dropped = drop_in(&mut tx, slice, cutoff).await;
    settle(tx, dropped, |dropped| {
        matches!(dropped, Dropped::Removed(_))
    })
    .await
}

/// [`drop_if_expired`]'s statements, in `tx`.
async fn drop_in(
    tx: &mut PgTransaction,
    slice: Slice,
    cutoff: i64,
) -> Result<Dropped, sqlx::Error> {
    let (tasks, events) = (slice.tasks(), slice.events());
    if !upkeep_lock(tx).await? {
        return Ok(Dropped::Busy);
    }
    let unexpired: bool = sqlx::query_scalar(&HOLDS_UNEXPIRED.replace("{tasks}", &tasks))
        .bind(cutoff)
        .fetch_one(&mut **tx)
        .await?;
    if unexpired {
        return Ok(Dropped::Unexpired);
    }
    // One process for the count: parallel workers would take every core from the writers for
    // the second it lasts, instead of one core for a little longer.
    sqlx::query("SET LOCAL max_parallel_workers_per_gather = 0")
        .execute(&mut **tx)
        .await?;
    // Counted before the drop, applied after it: the counters' rows are taken in the order the
    // table's writers take them only once no writer of the table is left (the drop waits for
    // them), so the pass and a writer never hold one each and wait for the other.
    let counts = sqlx::query(&format!(
        "SELECT owner_principal, owner_tenant, (MIN(seq) % 32)::SMALLINT, COUNT(*) FROM {tasks} \
         GROUP BY owner_principal, owner_tenant ORDER BY owner_principal, owner_tenant"
    ))
    .fetch_all(&mut **tx)
    .await?;
    let (from, to) = (first_id_at(slice.low_ms), first_id_at(slice.high_ms));
    for table in ["a2a_push_configs", "a2a_push_outbox", "a2a_executions"] {
        sqlx::query(&format!(
            "DELETE FROM {table} WHERE task_id >= $1 AND task_id < $2"
        ))
        .bind(&from)
        .bind(&to)
        .execute(&mut **tx)
        .await?;
    }
    // The parents first, as their writers lock them (parent, then the partition a row is in):
    // dropping a partition locks its parent too, and taking the partition first could wait on a
    // writer that waits on it.
    sqlx::query("LOCK TABLE a2a_tasks, a2a_task_events IN ACCESS EXCLUSIVE MODE")
        .execute(&mut **tx)
        .await?;
    sqlx::query(&format!("DROP TABLE {events}, {tasks}"))
        .execute(&mut **tx)
        .await?;
    let mut removed = 0;
    let (mut principals, mut tenants, mut shards, mut gone) = (vec![], vec![], vec![], vec![]);
    for row in &counts {
        let count: i64 = row.try_get(3)?;
        removed += u64::try_from(count).unwrap_or(0);
        principals.push(row.try_get::<String, _>(0)?);
        tenants.push(row.try_get::<String, _>(1)?);
        shards.push(row.try_get::<i16, _>(2)?);
        gone.push(-count);
    }
    sqlx::query(
        "INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks) \
         SELECT * FROM UNNEST($1::TEXT[], $2::TEXT[], $3::SMALLINT[], $4::BIGINT[]) \
         ON CONFLICT (owner_principal, owner_tenant, shard) \
         DO UPDATE SET tasks = a2a_task_counts.tasks + EXCLUDED.tasks",
    )
    .bind(principals)
    .bind(tenants)
    .bind(shards)
    .bind(gone)
    .execute(&mut **tx)
    .await?;
    Ok(Dropped::Removed(removed))
}

/// The slices' part of a pruning pass at `now_ms` for tasks kept `age`, run every `every`: drops
/// the slices wholly past the cutoff whose tasks all expired, makes the slices the tasks of the
/// next two passes need, and says which ids the row-by-row expiry must leave to later drops.
///
/// A slice that cannot be made or dropped now (its lock busy, a row in the way) is logged and
/// left to the next pass; the pass goes on.
pub(crate) async fn expire_slices(
    pool: &PgPool,
    now_ms: i64,
    age: Duration,
    every: Duration,
) -> Result<SliceExpiry, StoreError> {
    let Some(width) = slice_width(age) else {
        return Ok(SliceExpiry::default());
    };
    let width_ms = millis(width);
    let cutoff_ms = now_ms.saturating_sub(millis(age));
    let mut expiry = SliceExpiry::default();
    // The slices come oldest first (and those made after them all), so the first one kept is
    // where the kept ids begin, and the last one left is where they end.
    let mut kept_from: Option<i64> = None;
    let mut left = Vec::new();
    for slice in slices(pool).await? {
        if slice.high_ms > cutoff_ms {
            kept_from.get_or_insert(slice.low_ms);
            left.push(slice);
            continue;
        }
        match drop_if_expired(pool, slice, cutoff_ms.saturating_mul(1_000)).await {
            Ok(Dropped::Removed(removed)) => expiry.removed += removed,
            // A task still running: its expired neighbours go row by row.
            Ok(Dropped::Unexpired) => left.push(slice),
            // Another replica's pass dropped it first.
            Err(error) if code_of(&error).as_deref() == Some(UNDEFINED_TABLE) => {}
            // Left whole to the next pass (or to the replica's pass at it now): the row-by-row
            // expiry leaves it alone.
            outcome => {
                if let Err(error) = outcome {
                    log_left(&error, slice, "dropping");
                }
                kept_from.get_or_insert(slice.low_ms);
                left.push(slice);
            }
        }
    }
    let until_ms = now_ms
        .saturating_add(millis(every).saturating_mul(2))
        .saturating_add(width_ms);
    for slice in slices_to_make(&left, now_ms, width_ms, until_ms) {
        match make(pool, slice).await {
            // Another replica's pass is making slices.
            Ok(false) => break,
            Ok(true) => {
                kept_from.get_or_insert(slice.low_ms);
                left.push(slice);
            }
            Err(error) => {
                log_left(&error, slice, "making");
                break;
            }
        }
    }
    if let (Some(from), Some(last)) = (kept_from, left.last()) {
        expiry.kept = Some((first_id_at(from), first_id_at(last.high_ms)));
    }
    Ok(expiry)
}

/// PostgreSQL's code for a table that does not exist.
const UNDEFINED_TABLE: &str = "42P01";

/// PostgreSQL's code for a lock not had within `lock_timeout`.
const LOCK_NOT_AVAILABLE: &str = "55P03";

/// The SQLSTATE of a database's error.
fn code_of(error: &sqlx::Error) -> Option<String> {
    error
        .as_database_error()
        .and_then(|error| error.code())
        .map(|code| code.into_owned())
}

/// Logs that a slice was left to the next pass: a lock busy with the table's traffic (or another
/// replica's pass) is expected now and then; anything else is worth a warning.
fn log_left(error: &sqlx::Error, slice: Slice, doing: &str) {
    let slice = slice.tasks();
    if code_of(error).as_deref() == Some(LOCK_NOT_AVAILABLE) {
        tracing::debug!(%error, %slice, "{doing} a slice of tasks waited too long for its lock; the next pass tries again");
    } else {
        tracing::warn!(%error, %slice, "{doing} a slice of tasks failed; the next pass tries again");
    }
}

#[cfg(test)]
mod tests;
