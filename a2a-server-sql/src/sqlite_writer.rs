//! SQLite's [`GroupWriter`]: a thread of its own takes the writes callers queue, and writes all
//! those that queued while it was busy in one transaction on the store's writer connection, then
//! answers each caller. Consecutive writes of a group that run the same statements go to the
//! connection's thread as one text (each write's `$n` moved past the writes before it), so a group
//! of many creations costs a few round trips to that thread, not one per write: each round trip is
//! a hand-off between threads, and one per write held the writer back more than SQLite's work
//! did. A write alone is its own transaction in one round trip (`BEGIN IMMEDIATE; …; COMMIT`).
//!
//! Why a thread: the writer connection is SQLite's single writer, and while its holder waits to
//! be scheduled between two statements nobody writes. On its own thread (a runtime of its own)
//! the writer is woken as soon as the connection answers, not after the server's request tasks.
//!
//! A write that fails inside a group rolls the group back; its writes are then made one by one,
//! so only the failing one fails. Nothing is answered before its commit. The tasks that came due
//! under the store's retention policy are removed in step with the writes (`sqlite_expiry`): in
//! the group's transaction, after its writes.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use a2a_server::auth::Owner;
use a2a_server::store::StoreError;
use async_trait::async_trait;
use sqlx::{Connection, Pool, Sqlite, SqliteConnection};
use tokio::sync::{mpsc, oneshot};

use crate::columns::{TaskColumns, now_micros};
use crate::cost::TRANSACTION_TARGET;
use crate::created_ended::INSERT_ENDED_TASK;
use crate::errors::backend;
use crate::group::{GroupWriter, TaskUpdate, Updated};
use crate::outbox::MAX_PENDING_PER_TASK;
use crate::record::{INSERT_EXECUTION, RecordColumns};
use crate::sqlite_expiry::{Due, ExpiryAge, Pacing, remove_in_group};
use crate::sqlite_values::{Value, execute, renumbered};
use crate::store::INSERT_TASK;

/// Writes committed together at most.
const MAX_GROUP: usize = 256;

/// A write's statements: as written inside a group's transaction, and alone (a transaction of
/// their own in the same text).
struct Statements {
    together: String,
    alone: String,
    /// How many statements `together` holds.
    count: usize,
}

impl Statements {
    fn new(parts: &[&str]) -> Self {
        let together = parts.join("; ");
        let alone = if parts.len() > 1 {
            format!("BEGIN IMMEDIATE; {together}; COMMIT")
        } else {
            together.clone()
        };
        Statements {
            together,
            alone,
            count: parts.len(),
        }
    }
}

/// The execution's record of a new task, only when the task was inserted (`changes()` is the
/// insert's). Binds as [`INSERT_TASK`], then the record's columns.
const RECORD_OF_NEW_TASK: &str = "INSERT INTO a2a_executions (task_id, owner_principal, \
     owner_tenant, request, attempts, lease_token, lease_until_micros, a2a_version, \
     a2a_extensions) SELECT $1, $2, $3, $11, 1, $12, $13, $14, $15 WHERE changes() = 1 \
     ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, attempts = 1, \
     lease_token = excluded.lease_token, lease_until_micros = excluded.lease_until_micros, \
     a2a_version = excluded.a2a_version, a2a_extensions = excluded.a2a_extensions";

/// The update of the task at its expected version (binds: context id, state, terminal, status
/// time, timestamped, now, the task's JSON, its id, owner principal, owner tenant, expected
/// version, the versions it moves on by, the events as a JSON array of their texts, the cap of
/// waiting deliveries, then the record's columns when there is one).
const UPDATE: &str = "UPDATE a2a_tasks SET context_id = $1, state = $2, terminal = $3, \
     status_micros = $4, timestamped = $5, version = version + $12, updated_micros = $6, \
     task = $7 WHERE id = $8 AND owner_principal IS NOT DISTINCT FROM $9 \
     AND owner_tenant IS NOT DISTINCT FROM $10 AND version = $11";

/// The execution's record of a continued task, only when the update wrote (the statement
/// before it).
const RECORD_OF_UPDATE: &str = "INSERT INTO a2a_executions (task_id, owner_principal, \
     owner_tenant, request, attempts, lease_token, lease_until_micros, a2a_version, \
     a2a_extensions) SELECT $8, $9, $10, $15, 1, $16, $17, $18, $19 WHERE changes() = 1 \
     ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, attempts = 1, \
     lease_token = excluded.lease_token, lease_until_micros = excluded.lease_until_micros, \
     a2a_version = excluded.a2a_version, a2a_extensions = excluded.a2a_extensions";

/// The events, each under the next version, only when the statement before wrote its one row.
const LOG_EVENTS: &str = "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
     SELECT $8, $11 + key + 1, $6, value FROM json_each($13) WHERE changes() = 1";

/// A delivery per event and push config, only when the events were logged (the statement before
/// wrote). The cap is checked per event: event `k` (from 0) gets its deliveries when those waiting
/// before the statement and the ones the `k` events before it queued are fewer than the cap (the
/// count of waiting rows is read before the statement inserts any).
const QUEUE_DELIVERIES: &str = "INSERT INTO a2a_push_outbox (task_id, config_id, \
     event_version, config, event, due_micros) \
     SELECT c.task_id, c.config_id, $11 + e.key + 1, '', '', $6 FROM json_each($13) e \
     JOIN a2a_push_configs c ON c.owner_principal = $9 AND c.owner_tenant = $10 \
     AND c.task_id = $8 WHERE changes() > 0 \
     AND (SELECT COUNT(*) FROM a2a_push_outbox WHERE task_id = $8 AND gave_up_micros IS NULL) \
     + e.key * (SELECT COUNT(*) FROM a2a_push_configs WHERE owner_principal = $9 \
     AND owner_tenant = $10 AND task_id = $8) < $14 ORDER BY e.key, c.seq";

const FINISH_EXECUTION: &str = "DELETE FROM a2a_executions WHERE task_id = $1 AND lease_token = $2";

static CREATE: LazyLock<Statements> = LazyLock::new(|| Statements::new(&[INSERT_TASK]));
static CREATE_WITH_RECORD: LazyLock<Statements> =
    LazyLock::new(|| Statements::new(&[INSERT_TASK, RECORD_OF_NEW_TASK]));
static CREATE_ENDED: LazyLock<Statements> = LazyLock::new(|| Statements::new(&[INSERT_ENDED_TASK]));
static UPDATE_WITH_EVENTS: LazyLock<Statements> =
    LazyLock::new(|| Statements::new(&[UPDATE, LOG_EVENTS, QUEUE_DELIVERIES]));
static UPDATE_WITH_RECORD: LazyLock<Statements> =
    LazyLock::new(|| Statements::new(&[UPDATE, RECORD_OF_UPDATE, LOG_EVENTS, QUEUE_DELIVERIES]));
static RECORD: LazyLock<Statements> = LazyLock::new(|| Statements::new(&[INSERT_EXECUTION]));
static FINISH: LazyLock<Statements> = LazyLock::new(|| Statements::new(&[FINISH_EXECUTION]));

/// A write queued for the writer: its statements, their values (`$1`, `$2`, … in order), and who
/// waits for the rows it changed (all its statements' together).
struct Write {
    statements: &'static Statements,
    values: Vec<Value>,
    done: oneshot::Sender<Result<u64, StoreError>>,
}

/// The queue of SQLite's writer thread (see the [module docs](self)); the thread ends when the
/// store (every clone) is gone.
#[derive(Debug)]
pub(crate) struct SqliteWriter {
    queue: mpsc::UnboundedSender<Write>,
    /// The retention age the thread paces expiry by (see `sqlite_expiry`).
    expiry: Arc<ExpiryAge>,
}

impl SqliteWriter {
    /// Starts the writer thread on `writer` (the store's writer pool, shared with the store's
    /// other writes); `None` when the thread cannot start (the store then writes itself).
    pub(crate) fn start(writer: Pool<Sqlite>) -> Option<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map_err(|error| tracing::warn!(%error, "the SQLite writer's runtime did not start"))
            .ok()?;
        let (queue, writes) = mpsc::unbounded_channel();
        let expiry = ExpiryAge::none();
        let pacing = Pacing::new(expiry.clone());
        std::thread::Builder::new()
            .name("a2a-sqlite-writer".to_owned())
            .spawn(move || runtime.block_on(run(writer, writes, pacing)))
            .map_err(|error| tracing::warn!(%error, "the SQLite writer's thread did not start"))
            .ok()?;
        Some(SqliteWriter { queue, expiry })
    }

    /// Queues a write and waits for its commit; the rows it changed.
    async fn write(
        &self,
        statements: &'static Statements,
        values: Result<Vec<Value>, StoreError>,
    ) -> Result<u64, StoreError> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Write {
                statements,
                values: values?,
                done,
            })
            .map_err(|_| StoreError::Backend("the SQLite writer has stopped".to_owned()))?;
        answer.await.map_err(|_| {
            StoreError::Backend("the SQLite writer stopped before committing".to_owned())
        })?
    }
}

/// Values bound in order (`$1`, `$2`, …).
#[derive(Default)]
struct Values(Vec<Value>);

impl Values {
    fn add(mut self, value: impl Into<Value>) -> Self {
        self.0.push(value.into());
        self
    }

    /// The values, checked to be `expected` many (the count the write's statements bind).
    fn done(self, expected: usize) -> Result<Vec<Value>, StoreError> {
        if self.0.len() == expected {
            Ok(self.0)
        } else {
            Err(StoreError::Backend(format!(
                "a write of {} values where its statements bind {expected}",
                self.0.len()
            )))
        }
    }

    /// The values of [`INSERT_TASK`] (ten).
    fn new_task(self, owner: &Owner, task_id: &str, columns: &TaskColumns) -> Self {
        self.add(task_id.to_owned())
            .add(owner.principal.clone())
            .add(owner.tenant.clone())
            .add(columns.context_id.clone())
            .add(columns.state)
            .add(columns.terminal)
            .add(columns.status_micros)
            .add(columns.timestamped)
            .add(now_micros())
            .add(columns.json.clone())
    }

    /// The record's columns (five).
    fn record(self, record: &RecordColumns) -> Self {
        self.add(record.request.clone())
            .add(record.lease_token.clone())
            .add(record.lease_until_micros)
            .add(record.a2a_version.clone())
            .add(record.a2a_extensions.clone())
    }
}

#[async_trait]
impl GroupWriter for SqliteWriter {
    async fn create(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &TaskColumns,
        record: Option<&RecordColumns>,
    ) -> Result<bool, StoreError> {
        let values = Values::default().new_task(owner, task_id, columns);
        let (statements, values) = match record {
            Some(record) => (&*CREATE_WITH_RECORD, values.record(record).done(15)),
            None => (&*CREATE, values.done(10)),
        };
        Ok(self.write(statements, values).await? > 0)
    }

    async fn create_at_version(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &TaskColumns,
        version: i64,
    ) -> Result<bool, StoreError> {
        let values = Values::default()
            .new_task(owner, task_id, columns)
            .add(version)
            .done(11);
        Ok(self.write(&CREATE_ENDED, values).await? > 0)
    }

    async fn update(&self, update: TaskUpdate<'_>) -> Result<Option<Updated>, StoreError> {
        let events = serde_json::to_string(update.events).map_err(|e| {
            StoreError::Backend(format!("the events could not be written as JSON: {e}"))
        })?;
        let logged = i64::try_from(update.events.len()).unwrap_or(i64::MAX);
        let steps = logged.max(1);
        let columns = update.columns;
        let values = Values::default()
            .add(columns.context_id.clone())
            .add(columns.state)
            .add(columns.terminal)
            .add(columns.status_micros)
            .add(columns.timestamped)
            .add(update.now)
            .add(columns.json.clone())
            .add(update.task_id.to_owned())
            .add(update.owner.principal.clone())
            .add(update.owner.tenant.clone())
            .add(update.expected_version)
            .add(steps)
            .add(events)
            .add(MAX_PENDING_PER_TASK);
        let (statements, values, fixed_rows) = match update.record {
            Some(record) => (&*UPDATE_WITH_RECORD, values.record(record).done(19), 2),
            None => (&*UPDATE_WITH_EVENTS, values.done(14), 1),
        };
        // The task's row (and the record's) when the update found the task, then its events,
        // then its deliveries.
        let rows = i64::try_from(self.write(statements, values).await?).unwrap_or(i64::MAX);
        Ok((rows > 0).then(|| Updated {
            version: update.expected_version.saturating_add(steps),
            queued: rows > fixed_rows + logged,
        }))
    }

    async fn record_execution(
        &self,
        owner: &Owner,
        task_id: &str,
        record: &RecordColumns,
    ) -> Result<(), StoreError> {
        let values = Values::default()
            .add(task_id.to_owned())
            .add(owner.principal.clone())
            .add(owner.tenant.clone())
            .record(record)
            .done(8);
        self.write(&RECORD, values).await.map(drop)
    }

    async fn finish_execution(&self, task_id: &str, lease_token: &str) -> Result<(), StoreError> {
        let values = Values::default()
            .add(task_id.to_owned())
            .add(lease_token.to_owned())
            .done(2);
        self.write(&FINISH, values).await.map(drop)
    }

    fn expire_after(&self, age: Option<Duration>) {
        self.expiry.set(age);
    }
}

/// The writer thread: takes what queued (at most [`MAX_GROUP`]), writes it with the tasks that
/// came due (`sqlite_expiry`), answers, again.
async fn run(writer: Pool<Sqlite>, mut writes: mpsc::UnboundedReceiver<Write>, mut pacing: Pacing) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while writes.recv_many(&mut group, MAX_GROUP).await > 0 {
        let due = pacing.due(group.len());
        let (results, expired) = write_group(&writer, &group, due).await;
        for (write, result) in group.drain(..).zip(results) {
            // A caller that stopped waiting still had its write committed.
            let _ = write.done.send(result);
        }
        match (due, expired) {
            (Some(due), Some(expired)) => pacing.settle(&writer, due, Ok(expired)).await,
            // The group failed, and was written one write at a time.
            (Some(due), None) => pacing.alone(&writer, due).await,
            (None, _) => 0,
        };
    }
}

/// Writes `group` in one transaction (a write alone in its own), with the slice `due` when there
/// is one; or, when that fails, each write in its own, without the slice. The rows each write
/// changed, in order, and the tasks the slice removed (`None`: not removed).
async fn write_group(
    writer: &Pool<Sqlite>,
    group: &[Write],
    due: Option<Due>,
) -> (Vec<Result<u64, StoreError>>, Option<u64>) {
    let mut connection = match writer.acquire().await {
        Ok(connection) => connection,
        Err(error) => {
            let error = backend(error);
            return (group.iter().map(|_| Err(error.clone())).collect(), None);
        }
    };
    if group.len() > 1 || due.is_some() {
        match write_together(&mut connection, group, due).await {
            Ok((rows, expired)) => return (rows.into_iter().map(Ok).collect(), expired),
            Err(error) => {
                tracing::debug!(%error, "a group of SQLite writes failed; each is written alone")
            }
        }
    }
    let mut results = Vec::with_capacity(group.len());
    for write in group {
        results.push(write_alone(&mut connection, write).await);
    }
    (results, None)
}

/// All of `group` in one transaction, its writes sent in few texts: each run of writes of the same
/// statements, in the group's order, as texts of [`chunk_len`] writes; then the slice `due`, if
/// any. The rows each write changed, and the tasks the slice removed.
async fn write_together(
    connection: &mut SqliteConnection,
    group: &[Write],
    due: Option<Due>,
) -> Result<(Vec<u64>, Option<u64>), sqlx::Error> {
    let mut tx = connection.begin().await?;
    tracing::trace!(target: TRANSACTION_TARGET, "begin");
    let mut rows = Vec::with_capacity(group.len());
    let mut rest = group;
    while let Some(first) = rest.first() {
        let run = rest
            .iter()
            .take_while(|write| std::ptr::eq(write.statements, first.statements))
            .count();
        let chunk = &rest[..chunk_len(run)];
        rest = &rest[chunk.len()..];
        rows.extend(write_chunk(&mut tx, chunk).await?);
    }
    let expired = match due {
        Some(due) => Some(remove_in_group(&mut tx, &due).await?),
        None => None,
    };
    tx.commit().await?;
    tracing::trace!(target: TRANSACTION_TARGET, "commit");
    Ok((rows, expired))
}

/// The writes sent in one text from a run of `run` writes of the same statements: the largest
/// power of two up to [`MAX_CHUNK`]. The texts are then few (one per statements and length) and
/// stay prepared in the connection's statement cache; a text per run length would be prepared
/// again and again, costing more than the hand-offs it saves.
fn chunk_len(run: usize) -> usize {
    let run = run.clamp(1, MAX_CHUNK);
    1 << run.ilog2()
}

/// Writes of the same statements sent in one text at most.
const MAX_CHUNK: usize = 32;

/// `chunk` (writes of the same statements) as one text; the rows each write changed.
async fn write_chunk(
    connection: &mut SqliteConnection,
    chunk: &[Write],
) -> Result<Vec<u64>, sqlx::Error> {
    let mut text = String::new();
    let mut values = Vec::new();
    for write in chunk {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&renumbered(&write.statements.together, values.len()));
        values.extend(write.values.iter().cloned());
    }
    let changed = execute(connection, &text, &values).await?;
    // SQLite reports each statement's count in turn: each write's are the next of them.
    let mut counts = changed.into_iter();
    let rows: Vec<u64> = chunk
        .iter()
        .map(|write| counts.by_ref().take(write.statements.count).sum())
        .collect();
    if counts.next().is_some() {
        return Err(sqlx::Error::Protocol(
            "SQLite reported more statements than the writes hold".to_owned(),
        ));
    }
    written(&text, rows.iter().sum());
    Ok(rows)
}

/// One write in a transaction of its own (a statement alone commits by itself).
async fn write_alone(connection: &mut SqliteConnection, write: &Write) -> Result<u64, StoreError> {
    let transacted = write.statements.alone != write.statements.together;
    match execute(connection, &write.statements.alone, &write.values).await {
        // Less what `BEGIN` and `COMMIT` report: SQLite's count of the statement before them.
        Ok(changed) if transacted => Ok(written(
            &write.statements.alone,
            changed
                .get(1..changed.len().saturating_sub(1))
                .map_or(0, |inner| inner.iter().sum()),
        )),
        Ok(changed) => Ok(written(&write.statements.alone, changed.iter().sum())),
        Err(error) => {
            if transacted {
                // A statement failed inside the write's own transaction, which is still open:
                // nothing of it is kept. (When `BEGIN` itself failed there is none to end.)
                let _ = sqlx::query("ROLLBACK").execute(&mut *connection).await;
            }
            Err(backend(error))
        }
    }
}

/// `rows`, the rows the write of `text` changed, announced when `text` holds several statements:
/// a `tracing` event of target [`TRANSACTION_TARGET`] (`written`, at `TRACE`, field `rows`) after
/// the text's statement event. That one adds up what SQLite reports for every statement of the
/// text, and SQLite reports for `BEGIN` and `COMMIT` the count of the statement before them.
fn written(text: &str, rows: u64) -> u64 {
    if text.contains(';') {
        tracing::trace!(target: TRANSACTION_TARGET, rows, "written");
    }
    rows
}

#[cfg(test)]
mod tests {
    //! A group as the writer thread writes it: runs of the same statements in texts of a few
    //! writes, each write's rows told apart, and a failing write failing alone.

    use a2a_server::auth::Caller;
    use a2a_types::v1::{Task, TaskState, TaskStatus};

    use super::*;
    use crate::sqlite_values::test_database as database;

    fn write(statements: &'static Statements, values: Vec<Value>) -> Write {
        Write {
            statements,
            values,
            done: oneshot::channel().0,
        }
    }

    fn create(id: &str) -> Write {
        let owner = Owner::of(&Caller::authenticated("alice"), None);
        let task = Task::new(id, "ctx", TaskStatus::now(TaskState::Working));
        let columns = TaskColumns::of(&task).expect("columns");
        let values = Values::default()
            .new_task(&owner, id, &columns)
            .done(10)
            .expect("values");
        write(&CREATE, values)
    }

    fn create_with_record(id: &str) -> Write {
        let owner = Owner::of(&Caller::authenticated("alice"), None);
        let task = Task::new(id, "ctx", TaskStatus::now(TaskState::Working));
        let columns = TaskColumns::of(&task).expect("columns");
        let record = RecordColumns {
            request: "{}".to_owned(),
            lease_token: "lease".to_owned(),
            lease_until_micros: 0,
            a2a_version: "1.0".to_owned(),
            a2a_extensions: String::new(),
        };
        let values = Values::default()
            .new_task(&owner, id, &columns)
            .record(&record)
            .done(15)
            .expect("values");
        write(&CREATE_WITH_RECORD, values)
    }

    fn finish(id: &str) -> Write {
        let values = Values::default()
            .add(id.to_owned())
            .add("lease".to_owned())
            .done(2)
            .expect("values");
        write(&FINISH, values)
    }

    async fn tasks(pool: &Pool<Sqlite>) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM a2a_tasks")
            .fetch_one(pool)
            .await
            .expect("counts")
    }

    #[test]
    fn runs_are_sent_in_powers_of_two_up_to_the_largest_chunk() {
        let lengths: Vec<usize> = [1, 2, 3, 7, 8, 31, 32, 33, 300]
            .into_iter()
            .map(chunk_len)
            .collect();
        assert_eq!(lengths, [1, 2, 2, 4, 8, 16, 32, 32, 32]);
    }

    #[tokio::test]
    async fn each_write_of_a_group_gets_its_own_rows() {
        let pool = database().await;
        let mut group: Vec<Write> = (0..40).map(|n| create(&format!("t-{n}"))).collect();
        // Taken already (0 rows), then writes of other statements: two statements each (the task
        // and its record: 2 rows, or none when the id is taken), one (the first record's end: 1
        // row), then a shorter run.
        group.push(create("t-0"));
        group.push(create_with_record("r-0"));
        group.push(create_with_record("t-1"));
        group.push(create_with_record("r-1"));
        group.push(finish("r-0"));
        group.extend((40..43).map(|n| create(&format!("t-{n}"))));
        // Together, not one by one as a failed group would be.
        let mut connection = pool.acquire().await.expect("a connection");
        let (rows, expired) = write_together(&mut connection, &group, None)
            .await
            .expect("written together");
        assert_eq!(expired, None);
        drop(connection);
        let mut expected = vec![1; 40];
        expected.extend([0, 2, 0, 2, 1, 1, 1, 1]);
        assert_eq!(rows, expected);
        assert_eq!(tasks(&pool).await, 45);
    }

    #[tokio::test]
    async fn a_failing_write_fails_alone() {
        static BROKEN: LazyLock<Statements> =
            LazyLock::new(|| Statements::new(&["INSERT INTO no_such_table VALUES ($1)"]));
        let pool = database().await;
        let group = [
            create("a"),
            write(&BROKEN, vec![Value::from(1_i64)]),
            create("b"),
        ];
        let (results, _) = write_group(&pool, &group, None).await;
        assert_eq!(results[0], Ok(1));
        assert!(results[1].is_err(), "{:?}", results[1]);
        assert_eq!(results[2], Ok(1));
        assert_eq!(tasks(&pool).await, 2);
    }

    /// A task of alice's over since `micros_ago`, written straight to the table.
    async fn ended_long_ago(pool: &Pool<Sqlite>, id: &str, micros_ago: i64) {
        sqlx::query(
            "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, \
             terminal, status_micros, timestamped, version, updated_micros, task) \
             VALUES ($1, 'alice', '', 'ctx', 3, 1, $2, 1, 1, $2, '{}')",
        )
        .bind(id)
        .bind(now_micros() - micros_ago)
        .execute(pool)
        .await
        .expect("an ended task");
    }

    /// Pacing by an age of an hour.
    fn hourly() -> Pacing {
        let age = ExpiryAge::none();
        age.set(Some(Duration::from_secs(3600)));
        Pacing::new(age)
    }

    #[tokio::test]
    async fn a_group_removes_the_tasks_due_in_its_own_transaction() {
        let pool = database().await;
        for n in 0..5 {
            ended_long_ago(&pool, &format!("old-{n}"), 7_200_000_000).await;
        }
        ended_long_ago(&pool, "recent", 60_000_000).await;
        let due = hourly().due(2).expect("due: nothing looked up yet");
        let (results, expired) = write_group(&pool, &[create("a"), create("b")], Some(due)).await;
        assert_eq!(results, [Ok(1), Ok(1)]);
        assert_eq!(expired, Some(5), "removed with the group");
        let left: Vec<String> = sqlx::query_scalar("SELECT id FROM a2a_tasks ORDER BY id")
            .fetch_all(&pool)
            .await
            .expect("ids");
        assert_eq!(left, ["a", "b", "recent"]);

        // A write alone with a slice due is a group too: one transaction, not two.
        ended_long_ago(&pool, "old-5", 7_200_000_000).await;
        let (results, expired) = write_group(&pool, &[finish("none")], Some(due)).await;
        assert_eq!((results, expired), (vec![Ok(0)], Some(1)));
    }

    #[tokio::test]
    async fn a_failing_slice_leaves_the_group_written_one_by_one_and_is_tried_later() {
        let pool = database().await;
        ended_long_ago(&pool, "old", 7_200_000_000).await;
        // The slice's second statement (the deliveries') fails.
        sqlx::query("DROP TABLE a2a_push_outbox")
            .execute(&pool)
            .await
            .expect("dropped");
        let mut pacing = hourly();
        let due = pacing.due(2).expect("due");
        let (results, expired) = write_group(&pool, &[create("a"), create("b")], Some(due)).await;
        assert_eq!(results, [Ok(1), Ok(1)], "each write committed alone");
        assert_eq!(expired, None);
        assert_eq!(tasks(&pool).await, 3);
        // Alone it fails too: tried again a second later, not with the next group.
        assert_eq!(pacing.alone(&pool, due).await, 0);
        assert_eq!(pacing.due(2), None);
        assert_eq!(tasks(&pool).await, 3);
    }
}
