//! The statements of a pruning pass ([`SqlStore::prune`](crate::store::SqlStore::prune)), each
//! written so that both databases find its rows through an index (`tests/retention_plans.rs`
//! holds them to it): `terminal = TRUE` rather than a bare `terminal`, which SQLite cannot look up in the index
//! on `(terminal, updated_micros)` and reads every task for instead.

use a2a_server::store::StoreError;
use sqlx::{ColumnIndex, Decode, Row, Type};

use crate::rows::column;

/// Tasks expired per transaction at most: each batch of a pass is a transaction of its own, so
/// on SQLite the store's other writes wait for one batch at most, not for every task that expired
/// since the last pass.
pub(crate) const EXPIRY_BATCH: i64 = 1_000;

/// The ids of the `$2` oldest tasks over before `$1` (micros): a batch. Read once, then deleted
/// by id with what belongs to them, so that no delete depends on the planner's estimate of how
/// many tasks are old (on PostgreSQL, a stale one had the events' delete read every event and
/// look up its task, for each batch).
pub(crate) const EXPIRING: &str = "SELECT id FROM a2a_tasks \
     WHERE terminal = TRUE AND updated_micros < $1 ORDER BY updated_micros LIMIT $2";

/// The tables holding rows of a task besides `a2a_tasks`, each with a column `task_id`.
pub(crate) const TASK_ROWS: [&str; 4] = [
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
/// with its new mark. Reads every task (its age is the events', not the task's).
pub(crate) const CUT_EVENTS_BEFORE: &str = "UPDATE a2a_tasks SET events_pruned_through = \
     (SELECT MAX(version) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
     WHERE (SELECT MAX(version) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
     > events_pruned_through RETURNING id, events_pruned_through";

/// Deletes task `$1`'s events up to its mark `$2`, through the events' primary key.
pub(crate) const DELETE_EVENTS_THROUGH: &str =
    "DELETE FROM a2a_task_events WHERE task_id = $1 AND version <= $2";

/// The tasks and marks [`CAP_EVENTS`] or [`CUT_EVENTS_BEFORE`] returned.
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
