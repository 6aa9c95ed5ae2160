//! A pruning pass ([`SqlStore::prune`]) and its statements, each written so that both databases
//! find its rows through an index (`tests/retention_plans.rs` holds them to it): `terminal = TRUE`
//! rather than a bare `terminal`, which SQLite cannot look up in the index on
//! `(terminal, updated_micros)` and reads every task for instead.

use a2a_server::store::StoreError;
use sqlx::{ColumnIndex, Decode, Row, Type};

use crate::columns::{micros_ago, now_micros, version_column};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::retention::{PruneReport, RetentionPolicy};
use crate::rows::column;
use crate::slices::TaskTables;
use crate::store::SqlStore;

/// Tasks expired per transaction at most: each batch of a pass is a transaction of its own, so
/// on SQLite the store's other writes wait for one batch at most, not for every task that expired
/// since the last pass.
pub(crate) const EXPIRY_BATCH: i64 = 1_000;

/// The ids of the `$2` oldest tasks over before `$1` (micros): a batch. Read once, then deleted
/// by id with what belongs to them, so that no delete depends on the planner's estimate of how
/// many tasks are old (on PostgreSQL, a stale one had the events' delete read every event and
/// look up its task, for each batch).
#[cfg(feature = "sqlite")]
pub(crate) const EXPIRING: &str = "SELECT id FROM a2a_tasks \
     WHERE terminal = TRUE AND updated_micros < $1 ORDER BY updated_micros LIMIT $2";

/// [`EXPIRING`] outside the ids from `$3` up to `$4` (texts; `''` and `''` leave none out): the
/// slices a database drops whole ([`SliceExpiry::kept`](crate::retention::SliceExpiry)).
pub(crate) const EXPIRING_OUTSIDE: &str = "SELECT id FROM a2a_tasks \
     WHERE terminal = TRUE AND updated_micros < $1 AND (id < $3 OR id >= $4) \
     ORDER BY updated_micros LIMIT $2";

/// The statements that remove the tasks whose ids are `ids` (what follows an id column in a
/// condition, such as [`Dialect::IN_JSON_TEXTS`]), in order: their rows in the other tables,
/// their owners' counts where no trigger lowers them ([`Dialect::COUNTS_DELETIONS`]), then the
/// tasks. The last statement's count is the tasks'.
pub(crate) fn removal<D: Dialect>(ids: &str) -> Vec<String> {
    let mut statements: Vec<String> = TASK_ROWS
        .iter()
        .map(|table| format!("DELETE FROM {table} WHERE task_id {ids}"))
        .collect();
    if !D::COUNTS_DELETIONS {
        statements.push(uncount(&format!("id {ids}")));
    }
    statements.push(format!("DELETE FROM a2a_tasks WHERE id {ids}"));
    statements
}

/// Takes the tasks `which` selects (a condition on `a2a_tasks`) out of their owners' counts, one
/// update per owner, before they are deleted.
fn uncount(which: &str) -> String {
    format!(
        "UPDATE a2a_task_counts SET tasks = tasks - gone.n FROM \
         (SELECT owner_principal, owner_tenant, COUNT(*) AS n FROM a2a_tasks WHERE {which} \
         GROUP BY owner_principal, owner_tenant) AS gone \
         WHERE a2a_task_counts.owner_principal = gone.owner_principal \
         AND a2a_task_counts.owner_tenant = gone.owner_tenant"
    )
}

/// The tables holding rows of a task besides `a2a_tasks`, each with a column `task_id`.
const TASK_ROWS: [&str; 4] = [
    "a2a_push_configs",
    "a2a_push_outbox",
    "a2a_executions",
    "a2a_task_events",
];

/// Cuts the log of each task with more than `$1` events kept to its newest `$1`, found through
/// the index of the tasks that keep events (`a2a_tasks_log_length`, whose condition the first
/// term repeats so that both databases see it applies); returns each task cut with its new mark.
pub(crate) const CAP_EVENTS: &str = "UPDATE a2a_tasks SET events_pruned_through = version - $1 \
     WHERE version > events_pruned_through AND version - events_pruned_through > $1 \
     RETURNING id, events_pruned_through";

/// Cuts each task's log after its last event logged before `$1` (micros); returns each task cut
/// with its new mark. Reads every task (its age is the events', not the task's). A burst's row
/// counts by its last event (see [`Dialect::LOG_ROW_LAST_VERSION`]).
pub(crate) fn cut_events_before<D: Dialect>() -> String {
    let last = D::LOG_ROW_LAST_VERSION;
    format!(
        "UPDATE a2a_tasks SET events_pruned_through = \
         (SELECT MAX({last}) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
         WHERE (SELECT MAX({last}) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
         > events_pruned_through RETURNING id, events_pruned_through"
    )
}

/// Deletes the rows of task `$1`'s log whose events are all at or before its mark `$2`, found
/// through the events' primary key; returns how many events each row held. A burst's row that
/// goes on past the mark stays whole (see [`crate::log_row`]).
pub(crate) fn delete_events_through<D: Dialect>() -> String {
    let last = D::LOG_ROW_LAST_VERSION;
    format!(
        "DELETE FROM a2a_task_events WHERE task_id = $1 AND version <= $2 AND {last} <= $2 \
         RETURNING {last} - version + 1"
    )
}

/// The tasks and marks [`CAP_EVENTS`] or [`cut_events_before`] returned.
pub(crate) fn marks<R>(rows: &[R]) -> Result<Vec<(String, i64)>, StoreError>
where
    R: Row,
    usize: ColumnIndex<R>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
{
    rows.iter()
        .map(|row| {
            let task_id: String = column(row, 0, "task", "")?;
            let mark: i64 = column(row, 1, "task", &task_id)?;
            Ok((task_id, mark))
        })
        .collect()
}

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// Removes what `policy` says is old; see [`RetentionPolicy`].
    ///
    /// Every statement finds its rows through an index (`tests/retention_plans.rs`): the pass
    /// holds the writer (on SQLite, the whole database's) while it runs, so it never reads every
    /// task or every event: the cap of events per task reads only the tasks over it. Only
    /// `events_after` reads every task, the age being the events', not the task's. The tasks that
    /// are over expire in batches of a thousand, each its own transaction, and the rest of
    /// the pass is one more: other writes wait for a batch at most, not for the whole pass.
    ///
    /// Tasks made in one span of time are kept together (a slice, a quarter of
    /// `terminal_tasks_after` wide, when that is 4 minutes or more) and go together once every
    /// one of them has expired: a task may outlive its age by up to a slice's width. The pass
    /// makes the slices of the tasks to come; it assumes it runs every
    /// [`RETENTION_INTERVAL`](crate::RETENTION_INTERVAL) or more often.
    pub async fn prune(&self, policy: &RetentionPolicy) -> Result<PruneReport, StoreError> {
        self.prune_every(policy, crate::retention::RETENTION_INTERVAL).await
    }

    /// [`prune`](Self::prune), for a pass run every `every`.
    pub(crate) async fn prune_every(
        &self,
        policy: &RetentionPolicy,
        every: std::time::Duration,
    ) -> Result<PruneReport, StoreError> {
        let mut report = PruneReport::default();
        if let Some(age) = policy.terminal_tasks_after {
            let cutoff = micros_ago(age);
            let now_ms = now_micros() / 1_000;
            let slices =
                D::expire_slices(&self.pool, &self.writer, &self.shared.slices, now_ms, age, every)
                    .await?;
            report.tasks = slices.removed
                + self
                    .expire_ended_before(cutoff, slices.kept, &TaskTables::BASE)
                    .await?;
            for tables in &slices.row_by_row {
                report.tasks += self.expire_ended_before(cutoff, None, tables).await?;
            }
        }
        let mut tx = cost::begin(&self.writer).await?;
        // The tasks whose log was cut this pass, each with its new mark: their events up to it go.
        let mut cut: Vec<(String, i64)> = Vec::new();
        // Every table of tasks, each slice's with the rest: a task's log is cut in its own.
        let tables = self.shared.slices.every_table();
        if let Some(max) = policy.max_events_per_task {
            for table in &tables {
                let rows = sqlx::query(&table.route(CAP_EVENTS))
                    .bind(version_column(max)?)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(backend)?;
                cut.extend(marks(&rows)?);
            }
        }
        if let Some(age) = policy.events_after {
            for table in &tables {
                let rows = sqlx::query(&table.route(&cut_events_before::<D>()))
                    .bind(micros_ago(age))
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(backend)?;
                cut.extend(marks(&rows)?);
            }
        }
        if let Some(age) = policy.given_up_deliveries_after {
            report.given_up_deliveries = sqlx::query(
                "DELETE FROM a2a_push_outbox WHERE gave_up_micros IS NOT NULL AND gave_up_micros < $1",
            )
            .bind(micros_ago(age))
            .execute(&mut *tx)
            .await
            .map_err(backend)
            .map(|done| D::rows_affected(&done))?;
        }
        let delete_events = delete_events_through::<D>();
        for (task_id, mark) in &cut {
            let tables = self.shared.slices.tables_of(task_id);
            let rows: Vec<i64> = sqlx::query_scalar(&tables.route(&delete_events))
                .bind(task_id)
                .bind(mark)
                .fetch_all(&mut *tx)
                .await
                .map_err(backend)?;
            report.events += rows
                .into_iter()
                .map(|events| u64::try_from(events).unwrap_or(0))
                .sum::<u64>();
        }
        cost::commit(tx).await?;
        Ok(report)
    }

    /// Removes the tasks of `tables` over before `cutoff` (micros) with their events, push
    /// configs, deliveries and execution records, oldest first, in batches of
    /// [`EXPIRY_BATCH`](EXPIRY_BATCH) tasks, each its own transaction, but for the ids in `kept`
    /// (from, up to); how many tasks.
    async fn expire_ended_before(
        &self,
        cutoff: i64,
        kept: Option<(String, String)>,
        tables: &TaskTables,
    ) -> Result<u64, StoreError> {
        let (kept_from, kept_to) = kept.unwrap_or_default();
        let statements: Vec<String> = removal::<D>(D::IN_JSON_TEXTS)
            .iter()
            .map(|statement| tables.route(statement).into_owned())
            .collect();
        let expiring = tables.route(EXPIRING_OUTSIDE);
        let mut removed = 0;
        loop {
            let mut tx = cost::begin(&self.writer).await?;
            let rows = sqlx::query(&expiring)
                .bind(cutoff)
                .bind(EXPIRY_BATCH)
                .bind(&kept_from)
                .bind(&kept_to)
                .fetch_all(&mut *tx)
                .await
                .map_err(backend)?;
            let ids = rows
                .iter()
                .map(|row| -> Result<String, StoreError> { column(row, 0, "task", "") })
                .collect::<Result<Vec<_>, _>>()?;
            if ids.is_empty() {
                cost::commit(tx).await?;
                return Ok(removed);
            }
            let count = ids.len();
            let batch = serde_json::Value::from(ids).to_string();
            let mut last = 0;
            for statement in &statements {
                last = sqlx::query(statement)
                    .bind(&batch)
                    .execute(&mut *tx)
                    .await
                    .map_err(backend)
                    .map(|done| D::rows_affected(&done))?;
            }
            removed += last;
            cost::commit(tx).await?;
            if count < usize::try_from(EXPIRY_BATCH).unwrap_or(usize::MAX) {
                return Ok(removed);
            }
        }
    }
}
}
