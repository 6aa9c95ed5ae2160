//! SQLite's slices of tasks (see `crate::slices`): tables of their own for the tasks made in one
//! span of time, `a2a_tasks_<from ms>_<to ms>` and `a2a_task_events_<from ms>_<to ms>` in the
//! store's file, made ahead of the tasks by the retention pass and dropped whole once every task
//! in them expired. Removing a task row by row cost a store that expires as fast as it writes
//! about an eighth of its throughput (PERFORMANCE.md); a dropped table costs nothing per row.
//!
//! A slice's tables are made from the schema of the tables outside every slice, as
//! `sqlite_master` holds it (columns, indexes, the trigger that counts tasks in), so a migration
//! of those tables is the slices' schema too for the slices made after it.
//!
//! **Each task in one table.** The set of slices ([`SliceSet`]) changes only while the pass
//! holds the store's writer connection, which every write that inserts a task holds as well
//! (SQLite's writer thread, and the store's own writes); a new task is routed by the set of the
//! moment it is inserted. A slice is made only when no task outside every slice has an id in its
//! range, and goes into the set before the pass lets go of the writer; a slice leaves the set
//! before its tables go, in the same turn. A reader that routed to a slice just dropped finds no
//! table, and the task, which had expired, is not found.
//!
//! **Seq.** Each slice's `seq` (the order ListTasks breaks ties by) starts at its first
//! millisecond times 2^20, so the slices' orders never overlap each other's, nor those of the
//! tasks outside every slice, and a page token means the same whichever table its task is in.
//!
//! A slice holding a task that is not over, or that changed since the cutoff, is left; its
//! expired tasks then go row by row like those outside every slice.

use a2a_server::store::StoreError;
use sqlx::{Pool, Row, Sqlite, SqliteConnection};

use crate::errors::backend;
use crate::retention::SliceExpiry;
use crate::slices::{
    EVENTS, Slice, SliceSet, TASKS, millis, named, replace_name, run_after, slice_width,
};

/// The factor of a slice's first millisecond its `seq` starts after: room for a million tasks a
/// millisecond, and a `seq` that fits 63 bits until the year 2109.
const SEQ_PER_MS: i64 = 1 << 20;

/// The slices in the file, oldest first.
pub(crate) async fn in_file(connection: &mut SqliteConnection) -> Result<Vec<Slice>, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'a2a\\_tasks\\_%' ESCAPE '\\'",
    )
    .fetch_all(connection)
    .await?;
    Ok(named(&names))
}

/// The slices to make after `existing` so that the tasks made until `until_ms` have one,
/// `width_ms` wide and ending on multiples of it: after the last slice, or from `now_ms` when
/// the last one ended before it (or there is none). No margin: the slice is made in the writer's
/// turn, after checking that no task outside every slice is in its range.
pub(crate) fn slices_to_make(
    existing: &[Slice],
    now_ms: i64,
    width_ms: i64,
    until_ms: i64,
) -> Vec<Slice> {
    run_after(existing, now_ms, now_ms, width_ms, until_ms)
}

/// Whether a task outside every slice has an id in `slice`'s range.
const BASE_HOLDS_RANGE: &str = "SELECT EXISTS (SELECT 1 FROM a2a_tasks WHERE id >= $1 AND id < $2)";

/// The schema of the tables outside every slice: the tables first, then their indexes and
/// triggers (SQLite's own indexes, of `UNIQUE` and primary keys, have no text: their table's
/// makes them).
const BASE_SCHEMA: &str = "SELECT type, name, sql FROM sqlite_master \
     WHERE tbl_name IN ('a2a_tasks', 'a2a_task_events') AND sql IS NOT NULL \
     ORDER BY type = 'table' DESC, name";

/// Makes `slice`'s tables in the writer's turn and adds it to `set`; `false` when a task outside
/// every slice has an id in its range (the slice is not made).
async fn make(writer: &Pool<Sqlite>, set: &SliceSet, slice: Slice) -> Result<bool, sqlx::Error> {
    let mut turn = writer.acquire().await?;
    let mut tx = sqlx::Connection::begin(&mut *turn).await?;
    let (from, to) = slice.ids();
    let in_range: bool = sqlx::query_scalar(BASE_HOLDS_RANGE)
        .bind(&from)
        .bind(&to)
        .fetch_one(&mut *tx)
        .await?;
    if in_range {
        tx.rollback().await?;
        return Ok(false);
    }
    let (tasks, events) = (slice.tasks(), slice.events());
    let schema = sqlx::query(BASE_SCHEMA).fetch_all(&mut *tx).await?;
    for row in &schema {
        let kind: String = row.try_get(0)?;
        let name: String = row.try_get(1)?;
        let sql: String = row.try_get(2)?;
        let mut sql = replace_name(&sql, TASKS, &tasks);
        sql = replace_name(&sql, EVENTS, &events);
        if kind != "table" {
            let own = format!("{name}_{}_{}", slice.low_ms, slice.high_ms);
            sql = replace_name(&sql, &name, &own);
        }
        sqlx::query(&sql).execute(&mut *tx).await?;
    }
    sqlx::query("INSERT INTO sqlite_sequence (name, seq) VALUES ($1, $2)")
        .bind(&tasks)
        .bind(slice.low_ms.saturating_mul(SEQ_PER_MS))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    set.add(slice);
    Ok(true)
}

/// Whether the task table `tasks` holds a task that is not over, or that changed at `$1` (micros)
/// or later.
fn holds_unexpired(tasks: &str) -> String {
    format!(
        "SELECT EXISTS (SELECT 1 FROM {tasks} WHERE terminal = FALSE) \
         OR EXISTS (SELECT 1 FROM {tasks} WHERE terminal = TRUE AND updated_micros >= $1)"
    )
}

/// The last `seq` the task table `tasks` gave (0 when it holds none).
fn last_seq(tasks: &str) -> String {
    format!("SELECT COALESCE(MAX(seq), 0) FROM {tasks}")
}

/// Drops `slice` if every task in it expired before `cutoff` (micros), with its owners' counts,
/// push configs, deliveries and execution records; how many tasks, or `None` when it holds a
/// task that has not expired (or one came in while its tasks were counted).
///
/// The tasks are counted per owner on a reader, outside the writer's turn (the slice's tasks are
/// over, so nothing changes them), and the count is taken to be still right in the turn when the
/// slice's last `seq` is the same: a task inserted since would have a higher one.
async fn drop_if_expired(
    reader: &Pool<Sqlite>,
    writer: &Pool<Sqlite>,
    set: &SliceSet,
    slice: Slice,
    cutoff: i64,
) -> Result<Option<u64>, sqlx::Error> {
    let tasks = slice.tasks();
    let unexpired: bool = sqlx::query_scalar(&holds_unexpired(&tasks))
        .bind(cutoff)
        .fetch_one(reader)
        .await?;
    if unexpired {
        return Ok(None);
    }
    let counted_through: i64 = sqlx::query_scalar(&last_seq(&tasks))
        .fetch_one(reader)
        .await?;
    let counts = sqlx::query(&format!(
        "SELECT owner_principal, owner_tenant, COUNT(*) FROM {tasks} \
         GROUP BY owner_principal, owner_tenant"
    ))
    .fetch_all(reader)
    .await?;

    let mut turn = writer.acquire().await?;
    let dropped = drop_in_turn(&mut turn, set, slice, cutoff, counted_through, &counts).await;
    if dropped.is_err() {
        // The drop was rolled back: the slice is back in the file, and in the set.
        if let Ok(slices) = in_file(&mut turn).await {
            set.replace(slices);
        }
    }
    dropped
}

/// [`drop_if_expired`]'s part in the writer's turn, in one transaction: checks again that
/// nothing in the slice changed, deletes its tasks' other rows, drops its tables, takes its
/// tasks out of their owners' counts, and takes it out of `set` before committing.
async fn drop_in_turn(
    turn: &mut SqliteConnection,
    set: &SliceSet,
    slice: Slice,
    cutoff: i64,
    counted_through: i64,
    counts: &[sqlx::sqlite::SqliteRow],
) -> Result<Option<u64>, sqlx::Error> {
    let (tasks, events) = (slice.tasks(), slice.events());
    let mut tx = sqlx::Connection::begin(&mut *turn).await?;
    let unexpired: bool = sqlx::query_scalar(&holds_unexpired(&tasks))
        .bind(cutoff)
        .fetch_one(&mut *tx)
        .await?;
    let last_now: i64 = sqlx::query_scalar(&last_seq(&tasks))
        .fetch_one(&mut *tx)
        .await?;
    if unexpired || last_now != counted_through {
        tx.rollback().await?;
        return Ok(None);
    }
    let (from, to) = slice.ids();
    for table in ["a2a_push_configs", "a2a_push_outbox", "a2a_executions"] {
        sqlx::query(&format!(
            "DELETE FROM {table} WHERE task_id >= $1 AND task_id < $2"
        ))
        .bind(&from)
        .bind(&to)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(&format!("DROP TABLE {events}"))
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!("DROP TABLE {tasks}"))
        .execute(&mut *tx)
        .await?;
    let mut removed = 0;
    for row in counts {
        let principal: String = row.try_get(0)?;
        let tenant: String = row.try_get(1)?;
        let count: i64 = row.try_get(2)?;
        removed += u64::try_from(count).unwrap_or(0);
        sqlx::query(
            "UPDATE a2a_task_counts SET tasks = tasks - $3 \
             WHERE owner_principal = $1 AND owner_tenant = $2",
        )
        .bind(principal)
        .bind(tenant)
        .bind(count)
        .execute(&mut *tx)
        .await?;
    }
    // Out of the set before the commit, in the turn: no write routes to the tables from now on.
    set.remove(slice);
    tx.commit().await?;
    Ok(Some(removed))
}

/// The slices' part of a pruning pass at `now_ms` for tasks kept `age`, run every `every`: drops
/// the slices wholly past the cutoff whose tasks all expired, says which ones hold expired tasks
/// to be removed row by row (those left for a task still running), and makes the slices the
/// tasks of the next two passes need (none for ages under
/// [`MIN_SLICED_AGE`](crate::slices::MIN_SLICED_AGE)).
///
/// A slice that cannot be made or dropped now is logged and left to the next pass.
pub(crate) async fn expire_slices(
    reader: &Pool<Sqlite>,
    writer: &Pool<Sqlite>,
    set: &SliceSet,
    now_ms: i64,
    age: std::time::Duration,
    every: std::time::Duration,
) -> Result<SliceExpiry, StoreError> {
    let cutoff_ms = now_ms.saturating_sub(millis(age));
    let mut expiry = SliceExpiry::default();
    for slice in set.slices() {
        if slice.high_ms > cutoff_ms {
            continue;
        }
        match drop_if_expired(reader, writer, set, slice, cutoff_ms.saturating_mul(1_000)).await {
            Ok(Some(removed)) => expiry.removed += removed,
            Ok(None) => expiry.row_by_row.push(slice.tables()),
            Err(error) => {
                tracing::warn!(%error, slice = %slice.tasks(), "dropping a slice of tasks failed; its expired tasks go one by one, and the next pass tries again");
                expiry.row_by_row.push(slice.tables());
            }
        }
    }
    let Some(width) = slice_width(age) else {
        return Ok(expiry);
    };
    let until_ms = now_ms
        .saturating_add(millis(every).saturating_mul(2))
        .saturating_add(millis(width));
    for slice in slices_to_make(&set.slices(), now_ms, millis(width), until_ms) {
        match make(writer, set, slice).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::debug!(slice = %slice.tasks(), "tasks outside every slice are in a slice's range; it is not made");
                break;
            }
            Err(error) => {
                tracing::warn!(%error, slice = %slice.tasks(), "making a slice of tasks failed; the next pass tries again");
                break;
            }
        }
    }
    Ok(expiry)
}

/// Loads the file's slices into `set` (when the store opens).
pub(crate) async fn load(writer: &Pool<Sqlite>, set: &SliceSet) -> Result<(), StoreError> {
    let mut turn = writer.acquire().await.map_err(backend)?;
    set.replace(in_file(&mut turn).await.map_err(backend)?);
    Ok(())
}

#[cfg(test)]
mod tests;
