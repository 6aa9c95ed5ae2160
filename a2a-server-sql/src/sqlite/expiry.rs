//! Expiry paced by the writes, on SQLite: with each group it commits, the writer thread
//! (`writer`) removes the tasks that expired under the store's retention policy (over, and
//! unchanged for its `terminal_tasks_after`), as many as twice the group's writes at most, in the
//! group's own transaction (one commit for both, and the pages both change written once), after
//! the group's writes, on the thread's own connection (`direct`). A group that fails is
//! written again one write at a time, and its slice then goes in a transaction of its own.
//!
//! Why: the retention pass expires what built up since the last one in batches of
//! [`EXPIRY_BATCH`], and between two batches the writer commits one group, of at most the requests
//! in flight. On a store written to without pause, that pass takes the single writer for most of a
//! minute every few minutes, while the requests that wait for it leave the other cores idle. Paced,
//! the same deletions are spread over every group, in step with the tasks that come in; the pass
//! remains, for what expires while nothing is written, and for the rest of the policy.
//!
//! It removes the tasks outside every slice (`slices`): a slice's tasks go with their tables, or,
//! in a slice a running task holds back, in batches of the retention pass.
//!
//! The writer knows when the next task is due ([`Pacing`]): the oldest update of a task that is
//! over, plus the age. Until then it sends nothing, so a store whose tasks are young (the
//! recommended seven days) pays one lookup after opening and one per slice that catches up.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use sqlx::Sqlite;

use crate::columns::now_micros;
use crate::prune::{EXPIRING, EXPIRY_BATCH, removal};
use crate::sqlite::direct::DirectConnection;
use crate::sqlite::values::Value;

/// Tasks removed per write of the group before, at most: more than one, so that a backlog (left by
/// a pause, or by a policy just shortened) drains while the writes go on.
const SLICE_PER_WRITE: i64 = 2;

/// Tasks removed after a group at least (when that many are due), so that a store written to one
/// request at a time drains a backlog too.
const SLICE_MIN: i64 = 16;

/// The expiring tasks of a slice (`$1`: the cutoff in micros, `$2`: how many) removed with their
/// rows, statement by statement, inside a transaction the caller opened: the writer thread runs
/// them before the commit of the group they follow, so that the two share one commit (and the
/// pages both change are written once). Each statement selects the tasks again through the index
/// on `(terminal, updated_micros)`, in its order: inside the transaction nobody else writes, so
/// each finds the same tasks. The tasks leave their owners' counts just before they go. The last
/// statement's count is the tasks'.
static SLICE: LazyLock<Vec<String>> = LazyLock::new(|| {
    removal::<Sqlite>("IN (SELECT id FROM expiring)")
        .iter()
        .map(|statement| format!("WITH expiring AS ({EXPIRING}) {statement}"))
        .collect()
});

/// How long after a failed slice the writer tries again (micros): a database that refuses every
/// slice costs one attempt and one warning a second, not one per group.
const RETRY_AFTER: i64 = 1_000_000;

/// When the next task is due: the oldest update of a task that is over.
const OLDEST_ENDED: &str = "SELECT MIN(updated_micros) FROM a2a_tasks WHERE terminal = TRUE";

/// The age after which tasks that are over expire, shared by the store (which sets it with its
/// retention policy) and its writer thread (which paces by it).
#[derive(Debug, Default)]
pub(crate) struct ExpiryAge {
    /// Microseconds; negative: no task expires.
    micros: AtomicI64,
}

impl ExpiryAge {
    /// No task expires until [`set`](Self::set).
    pub(crate) fn none() -> Arc<Self> {
        Arc::new(ExpiryAge {
            micros: AtomicI64::new(-1),
        })
    }

    /// Tasks that are over expire once unchanged for `age`; `None`: never.
    pub(crate) fn set(&self, age: Option<Duration>) {
        let micros = age.map_or(-1, |age| i64::try_from(age.as_micros()).unwrap_or(i64::MAX));
        self.micros.store(micros, Ordering::Relaxed);
    }

    fn get(&self) -> Option<i64> {
        let micros = self.micros.load(Ordering::Relaxed);
        (micros >= 0).then_some(micros)
    }
}

/// What the writer thread knows of the expiry to come (its own: only that thread reads or changes it).
#[derive(Debug)]
pub(crate) struct Pacing {
    age: Arc<ExpiryAge>,
    /// The age `due` was worked out for, and the time (micros) before which no task expires
    /// (`None`: not known yet, to be looked up).
    due: (i64, Option<i64>),
}

impl Pacing {
    pub(crate) fn new(age: Arc<ExpiryAge>) -> Self {
        Pacing {
            age,
            due: (-1, None),
        }
    }

    /// The slice due after a group of `writes`, if any: at most [`SLICE_PER_WRITE`] tasks per
    /// write (at least [`SLICE_MIN`]), to be removed with the group ([`remove_in_group`]) or alone
    /// ([`alone`](Self::alone)), then [`settle`](Self::settle)d.
    pub(crate) fn due(&self, writes: usize) -> Option<Due> {
        let age = self.age.get()?;
        let now = now_micros();
        let due = if self.due.0 == age { self.due.1 } else { None };
        if due.is_some_and(|due| now < due) {
            return None;
        }
        let limit = (SLICE_PER_WRITE * i64::try_from(writes).unwrap_or(i64::MAX))
            .clamp(SLICE_MIN, EXPIRY_BATCH);
        Some(Due {
            age,
            cutoff: now.saturating_sub(age),
            limit,
        })
    }

    /// After a group of `writes`: removes what is due in a transaction of its own; how many
    /// tasks it removed.
    #[cfg(test)]
    pub(crate) fn after_group(&mut self, connection: &DirectConnection, writes: usize) -> u64 {
        match self.due(writes) {
            Some(due) => self.alone(connection, due),
            None => 0,
        }
    }

    /// Removes the slice `due` in a transaction of its own, and settles it; how many tasks. The
    /// caller holds the writer's turn.
    pub(crate) fn alone(&mut self, connection: &DirectConnection, due: Due) -> u64 {
        match connection.transaction(|connection| remove_in_group(connection, &due)) {
            Ok(removed) => self.settle(connection, due, removed),
            Err(error) => self.failed(due, error),
        }
    }

    /// Takes in that removing `due` removed `removed` tasks: when that is fewer than its limit
    /// (none is left due), looks up when the next task is (the oldest update of a task that is
    /// over, or now when none is). How many tasks it removed.
    pub(crate) fn settle(&mut self, connection: &DirectConnection, due: Due, removed: u64) -> u64 {
        let oldest = if removed >= u64::try_from(due.limit).unwrap_or(u64::MAX) {
            None
        } else {
            match connection.read_number(OLDEST_ENDED) {
                Ok(oldest) => Some(oldest.unwrap_or_else(now_micros)),
                Err(error) => return self.failed(due, error),
            }
        };
        self.due = (due.age, oldest.map(|oldest| oldest.saturating_add(due.age)));
        removed
    }

    /// Takes in that removing `due`, or looking up the next, failed: logged, and tried again
    /// after [`RETRY_AFTER`]. No task was removed.
    pub(crate) fn failed(&mut self, due: Due, error: impl std::fmt::Display) -> u64 {
        tracing::warn!(%error, "expiring the tasks due failed; retried in a second");
        self.due = (due.age, Some(now_micros().saturating_add(RETRY_AFTER)));
        0
    }
}

/// A slice of tasks due: those over before `cutoff` (micros), `limit` of them at most, under the
/// age `age`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Due {
    age: i64,
    cutoff: i64,
    limit: i64,
}

/// Removes the slice `due` inside the transaction open on `connection` (the group's, before its
/// commit); the tasks it removed.
pub(crate) fn remove_in_group(connection: &DirectConnection, due: &Due) -> rusqlite::Result<u64> {
    let values = [Value::from(due.cutoff), Value::from(due.limit)];
    let mut removed = 0;
    for statement in SLICE.iter() {
        removed = connection.run(statement, &values)?;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    //! A slice as the writer runs it: the tasks due go with their rows, oldest first, up to the
    //! limit; tasks not over, or not due, stay; nothing is sent until the next task is due.

    use sqlx::Pool;

    use super::*;
    use crate::sqlite::direct::TestDatabase;

    /// Task `id`, over or not, last written at `updated` (micros), with two events and an
    /// execution record.
    async fn task(pool: &Pool<Sqlite>, id: &str, over: bool, updated: i64) {
        sqlx::query(
            "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, \
             terminal, status_micros, timestamped, version, updated_micros, task) \
             VALUES ($1, 'alice', '', 'ctx', 3, $2, $3, 1, 3, $3, '{}')",
        )
        .bind(id)
        .bind(over)
        .bind(updated)
        .execute(pool)
        .await
        .expect("a task");
        for version in [2, 3] {
            sqlx::query(
                "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
                 VALUES ($1, $2, $3, '{}')",
            )
            .bind(id)
            .bind(version)
            .bind(updated)
            .execute(pool)
            .await
            .expect("an event");
        }
        sqlx::query(
            "INSERT INTO a2a_executions (task_id, owner_principal, owner_tenant, request, \
             attempts, lease_token, lease_until_micros) VALUES ($1, 'alice', '', '{}', 1, 't', 0)",
        )
        .bind(id)
        .execute(pool)
        .await
        .expect("a record");
    }

    async fn ids(pool: &Pool<Sqlite>, table: &str, column: &str) -> Vec<String> {
        sqlx::query_scalar(&format!(
            "SELECT DISTINCT {column} FROM {table} ORDER BY {column}"
        ))
        .fetch_all(pool)
        .await
        .expect("ids")
    }

    #[tokio::test]
    async fn removes_the_oldest_tasks_due_with_their_rows_up_to_the_limit() {
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
        let hour = 3_600_000_000;
        let now = now_micros();
        // Due: over for two hours, or for one hour and a half (the age is one hour).
        for n in 0..40 {
            task(&pool, &format!("due-{n:02}"), true, now - 2 * hour + n).await;
        }
        task(&pool, "due-late", true, now - 3 * hour / 2).await;
        // Not due: over for half an hour; working for two hours.
        task(&pool, "young", true, now - hour / 2).await;
        task(&pool, "working", false, now - 2 * hour).await;

        let age = ExpiryAge::none();
        age.set(Some(Duration::from_secs(3600)));
        let mut pacing = Pacing::new(age.clone());
        // A group of 10 writes: 20 go, the oldest.
        assert_eq!(pacing.after_group(&database.direct, 10), 20);
        let left = ids(&pool, "a2a_tasks", "id").await;
        assert_eq!(left.len(), 23, "{left:?}");
        assert_eq!(left[0], "due-20");
        for (table, column) in [
            ("a2a_task_events", "task_id"),
            ("a2a_executions", "task_id"),
        ] {
            assert_eq!(ids(&pool, table, column).await, left, "{table}");
        }
        let count: i64 = sqlx::query_scalar("SELECT tasks FROM a2a_task_counts")
            .fetch_one(&pool)
            .await
            .expect("the count");
        assert_eq!(count, 23);

        // A group of one: at least SLICE_MIN go; then the rest, and the one that was due later.
        assert_eq!(pacing.after_group(&database.direct, 1), 16);
        assert_eq!(pacing.after_group(&database.direct, 1), 5);
        assert_eq!(
            ids(&pool, "a2a_tasks", "id").await,
            ["working", "young"],
            "only what is not due stays"
        );
        // The next task is due in half an hour: nothing is sent before then.
        let due = pacing.due.1.expect("known");
        assert!((due - (now + hour / 2)).abs() < 1_000_000, "{due} {now}");
        sqlx::query("UPDATE a2a_tasks SET updated_micros = 0")
            .execute(&pool)
            .await
            .expect("made old");
        assert_eq!(pacing.after_group(&database.direct, 1), 0, "not looked up");

        // A new policy is worked out again; no policy removes nothing.
        age.set(Some(Duration::from_secs(7200)));
        assert_eq!(
            pacing.after_group(&database.direct, 1),
            1,
            "the young task, now old"
        );
        age.set(None);
        sqlx::query("UPDATE a2a_tasks SET terminal = 1")
            .execute(&pool)
            .await
            .expect("over");
        assert_eq!(pacing.after_group(&database.direct, 1), 0);
        assert_eq!(ids(&pool, "a2a_tasks", "id").await, ["working"]);
    }

    #[tokio::test]
    async fn a_failed_slice_is_rolled_back_and_tried_again_a_second_later() {
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
        let now = now_micros();
        task(&pool, "due", true, now - 7_200_000_000).await;
        sqlx::query(
            "INSERT INTO a2a_push_configs (owner_principal, owner_tenant, task_id, config_id, \
             seq, config) VALUES ('alice', '', 'due', 'c', 1, '{}')",
        )
        .execute(&pool)
        .await
        .expect("a config");
        // The second statement of the slice (the deliveries') fails: the config the first one
        // removed is back, and the connection is left with no transaction open.
        sqlx::query("DROP TABLE a2a_push_outbox")
            .execute(&pool)
            .await
            .expect("dropped");
        let age = ExpiryAge::none();
        age.set(Some(Duration::from_secs(3600)));
        let mut pacing = Pacing::new(age);
        assert_eq!(pacing.after_group(&database.direct, 1), 0);
        assert_eq!(ids(&pool, "a2a_tasks", "id").await, ["due"]);
        assert_eq!(ids(&pool, "a2a_task_events", "task_id").await, ["due"]);
        assert_eq!(ids(&pool, "a2a_push_configs", "task_id").await, ["due"]);
        let due = pacing.due.1.expect("a retry time");
        assert!((due - (now + RETRY_AFTER)).abs() < 500_000, "{due} {now}");
        sqlx::query("UPDATE a2a_tasks SET version = 4")
            .execute(&pool)
            .await
            .expect("the connection writes again");
    }
}
