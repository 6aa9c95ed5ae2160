//! SQLite's [`GroupWriter`]: a thread of its own takes the writes callers queue, and writes all
//! those that queued while it was busy in one transaction, then answers each caller. The thread
//! runs the statements itself, on a connection of its own (`direct`): a group costs no
//! hand-off between threads, however many statements it holds. It writes only while it holds the
//! store's writer connection (its turn among the store's writes), so it never contends with them
//! for SQLite's lock. A write alone is its own transaction.
//!
//! Why a thread: SQLite has a single writer, and while the writer waits to be scheduled nobody
//! writes. On its own thread (a runtime of its own) the writer gets back to its queue as soon as
//! a commit ends, not after the server's request tasks.
//!
//! A write that fails inside a group rolls the group back; its writes are then made one by one,
//! so only the failing one fails. Nothing is answered before its commit. The tasks that came due
//! under the store's retention policy are removed in step with the writes (`expiry`): in
//! the group's transaction, after its writes.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use a2a_server::auth::Owner;
use a2a_server::store::StoreError;
use async_trait::async_trait;
use sqlx::{Pool, Sqlite};
use tokio::sync::{mpsc, oneshot};

use crate::columns::{TaskColumns, now_micros};
use crate::created_ended::INSERT_ENDED_TASK;
use crate::errors::backend;
use crate::group::{GroupWriter, TaskUpdate, Updated};
use crate::outbox::MAX_PENDING_PER_TASK;
use crate::record::{INSERT_EXECUTION, RecordColumns};
use crate::slices::{SliceSet, TaskTables};
use crate::sqlite::direct::DirectConnection;
use crate::sqlite::expiry::{Due, ExpiryAge, Pacing, remove_in_group};
use crate::sqlite::values::Value;
use crate::store::INSERT_TASK;

/// Writes committed together at most.
const MAX_GROUP: usize = 256;

/// A kind of write: its statements, run in order, and which of their values is the id of the
/// task whose row and events they write (their tables are that task's slice's; see
/// `crate::slices`), when they write either.
struct Statements {
    texts: &'static [&'static str],
    task_at: Option<usize>,
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

/// Where a create's task id is among its values (`$1`).
const CREATED_TASK_AT: Option<usize> = Some(0);

/// Where an update's task id is among its values (`$8`).
const UPDATED_TASK_AT: Option<usize> = Some(7);

const CREATE: &Statements = &Statements {
    texts: &[INSERT_TASK],
    task_at: CREATED_TASK_AT,
};
const CREATE_WITH_RECORD: &Statements = &Statements {
    texts: &[INSERT_TASK, RECORD_OF_NEW_TASK],
    task_at: CREATED_TASK_AT,
};
const CREATE_ENDED: &Statements = &Statements {
    texts: &[INSERT_ENDED_TASK],
    task_at: CREATED_TASK_AT,
};
const UPDATE_WITH_EVENTS: &Statements = &Statements {
    texts: &[UPDATE, LOG_EVENTS, QUEUE_DELIVERIES],
    task_at: UPDATED_TASK_AT,
};
const UPDATE_WITH_RECORD: &Statements = &Statements {
    texts: &[UPDATE, RECORD_OF_UPDATE, LOG_EVENTS, QUEUE_DELIVERIES],
    task_at: UPDATED_TASK_AT,
};
const RECORD: &Statements = &Statements {
    texts: &[INSERT_EXECUTION],
    task_at: None,
};
const FINISH: &Statements = &Statements {
    texts: &[FINISH_EXECUTION],
    task_at: None,
};

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
    /// The retention age the thread paces expiry by (see `expiry`).
    expiry: Arc<ExpiryAge>,
}

/// What the writer thread writes with: its connection, and the slices it routes tasks to.
struct Target<'a> {
    connection: &'a DirectConnection,
    slices: &'a SliceSet,
}

impl SqliteWriter {
    /// Starts the writer thread on the database file at `path` (migrated already), writing in
    /// its turn among the writes of `writer` (the store's writer pool, of one connection); `None`
    /// when the thread cannot start (the store then writes itself).
    /// Each task's row and events go to the tables `slices` routes its id to.
    pub(crate) async fn start(
        writer: Pool<Sqlite>,
        path: &Path,
        slices: Arc<SliceSet>,
    ) -> Option<Self> {
        let connection = DirectConnection::open_beside(&writer, path)
            .await
            .map_err(|error| tracing::warn!(%error, "the SQLite writer's connection did not open"))
            .ok()?;
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
            .spawn(move || runtime.block_on(run(writer, connection, slices, writes, pacing)))
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
            Some(record) => (CREATE_WITH_RECORD, values.record(record).done(15)),
            None => (CREATE, values.done(10)),
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
        Ok(self.write(CREATE_ENDED, values).await? > 0)
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
            Some(record) => (UPDATE_WITH_RECORD, values.record(record).done(19), 2),
            None => (UPDATE_WITH_EVENTS, values.done(14), 1),
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
        self.write(RECORD, values).await.map(drop)
    }

    async fn finish_execution(&self, task_id: &str, lease_token: &str) -> Result<(), StoreError> {
        let values = Values::default()
            .add(task_id.to_owned())
            .add(lease_token.to_owned())
            .done(2);
        self.write(FINISH, values).await.map(drop)
    }

    fn expire_after(&self, age: Option<Duration>) {
        self.expiry.set(age);
    }
}

/// The writer thread: takes what queued (at most [`MAX_GROUP`]), writes it with the tasks that
/// came due (`expiry`) in its turn on `writer`, answers, again.
async fn run(
    writer: Pool<Sqlite>,
    connection: DirectConnection,
    slices: Arc<SliceSet>,
    mut writes: mpsc::UnboundedReceiver<Write>,
    mut pacing: Pacing,
) {
    let target = Target {
        connection: &connection,
        slices: &slices,
    };
    let mut group = Vec::with_capacity(MAX_GROUP);
    while writes.recv_many(&mut group, MAX_GROUP).await > 0 {
        let due = pacing.due(group.len());
        let (results, expired) = match writer.acquire().await {
            // The turn: held, unused, while the thread's own connection writes.
            Ok(_turn) => write_group(&target, &group, due),
            Err(error) => {
                let error = backend(error);
                (group.iter().map(|_| Err(error.clone())).collect(), None)
            }
        };
        for (write, result) in group.drain(..).zip(results) {
            // A caller that stopped waiting still had its write committed.
            let _ = write.done.send(result);
        }
        match (due, expired) {
            (Some(due), Some(expired)) => pacing.settle(&connection, due, expired),
            // The group failed, and was written one write at a time.
            (Some(due), None) => match writer.acquire().await {
                Ok(_turn) => pacing.alone(&connection, due),
                Err(error) => pacing.failed(due, error),
            },
            (None, _) => 0,
        };
    }
}

/// Writes `group` in one transaction (a write alone in its own), with the slice `due` when there
/// is one; or, when that fails, each write in its own, without the slice. The rows each write
/// changed, in order, and the tasks the slice removed (`None`: not removed).
fn write_group(
    target: &Target<'_>,
    group: &[Write],
    due: Option<Due>,
) -> (Vec<Result<u64, StoreError>>, Option<u64>) {
    if group.len() > 1 || due.is_some() {
        match write_together(target, group, due) {
            Ok((rows, expired)) => return (rows.into_iter().map(Ok).collect(), expired),
            Err(error) => {
                tracing::debug!(%error, "a group of SQLite writes failed; each is written alone")
            }
        }
    }
    let results = group
        .iter()
        .map(|write| write_alone(target, write).map_err(backend))
        .collect();
    (results, None)
}

/// All of `group` in one transaction, in order, then the slice `due`, if any. The rows each write
/// changed, and the tasks the slice removed.
fn write_together(
    target: &Target<'_>,
    group: &[Write],
    due: Option<Due>,
) -> rusqlite::Result<(Vec<u64>, Option<u64>)> {
    target.connection.transaction(|connection| {
        let rows = group
            .iter()
            .map(|write| write_statements(connection, target.slices, write))
            .collect::<rusqlite::Result<Vec<u64>>>()?;
        let expired = match due {
            Some(due) => Some(remove_in_group(connection, &due)?),
            None => None,
        };
        Ok((rows, expired))
    })
}

/// The statements of `write`, in the transaction open, on the tables of its task's slice; the
/// rows they changed together.
fn write_statements(
    connection: &DirectConnection,
    slices: &SliceSet,
    write: &Write,
) -> rusqlite::Result<u64> {
    let tables = match write.statements.task_at.and_then(|at| write.values.get(at)) {
        Some(Value::Text(task_id)) => slices.tables_of(task_id),
        _ => TaskTables::BASE,
    };
    write
        .statements
        .texts
        .iter()
        .try_fold(0, |rows, statement| {
            Ok(rows + connection.run(&tables.route(statement), &write.values)?)
        })
}

/// One write in a transaction of its own (a statement alone commits by itself).
fn write_alone(target: &Target<'_>, write: &Write) -> rusqlite::Result<u64> {
    match write.statements.texts {
        [_] => write_statements(target.connection, target.slices, write),
        _ => target
            .connection
            .transaction(|connection| write_statements(connection, target.slices, write)),
    }
}

#[cfg(test)]
mod tests {
    //! A group as the writer thread writes it: each write's rows told apart, a failing write
    //! failing alone, and the tasks due removed in the group's transaction.

    use a2a_server::auth::Caller;
    use a2a_types::v1::{Task, TaskState, TaskStatus};

    use super::*;
    use crate::sqlite::direct::TestDatabase;

    fn write(statements: &'static Statements, values: Vec<Value>) -> Write {
        Write {
            statements,
            values,
            done: oneshot::channel().0,
        }
    }

    /// The writer thread's target on the test's database, with no slice.
    fn target<'a>(database: &'a TestDatabase, slices: &'a SliceSet) -> Target<'a> {
        Target {
            connection: &database.direct,
            slices,
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
        write(CREATE, values)
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
        write(CREATE_WITH_RECORD, values)
    }

    fn finish(id: &str) -> Write {
        let values = Values::default()
            .add(id.to_owned())
            .add("lease".to_owned())
            .done(2)
            .expect("values");
        write(FINISH, values)
    }

    async fn tasks(pool: &Pool<Sqlite>) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM a2a_tasks")
            .fetch_one(pool)
            .await
            .expect("counts")
    }

    #[tokio::test]
    async fn each_write_of_a_group_gets_its_own_rows() {
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
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
        let (rows, expired) =
            write_together(&target(&database, &SliceSet::default()), &group, None)
                .expect("written together");
        assert_eq!(expired, None);
        let mut expected = vec![1; 40];
        expected.extend([0, 2, 0, 2, 1, 1, 1, 1]);
        assert_eq!(rows, expected);
        assert_eq!(tasks(&pool).await, 45);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_thread_writes_in_its_turn_among_the_stores_writes() {
        let database = TestDatabase::new().await;
        // SQLite's busy handler off: a write that met the file's lock taken would fail at once.
        sqlx::query("PRAGMA busy_timeout = 0")
            .execute(&database.pool)
            .await
            .expect("set");
        let writer = SqliteWriter::start(database.pool.clone(), &database.path, Arc::default())
            .await
            .expect("starts");
        // Another write of the store holds the writer connection, its transaction open.
        let mut other = database.pool.begin().await.expect("begins");
        sqlx::query(
            "INSERT INTO a2a_task_counts (owner_principal, owner_tenant, tasks) \
             VALUES ('bob', '', 1)",
        )
        .execute(&mut *other)
        .await
        .expect("writes");
        let owner = Owner::of(&Caller::authenticated("alice"), None);
        let task = Task::new("t-1", "ctx", TaskStatus::now(TaskState::Working));
        let columns = TaskColumns::of(&task).expect("columns");
        let creation = writer.create(&owner, "t-1", &columns, None);
        tokio::pin!(creation);
        // The thread waits for its turn: it neither fails on the lock nor writes beside it.
        let early = tokio::time::timeout(Duration::from_millis(300), &mut creation).await;
        assert!(early.is_err(), "answered before its turn: {early:?}");
        other.commit().await.expect("commits");
        let created = tokio::time::timeout(Duration::from_secs(5), creation)
            .await
            .expect("written once the turn was its");
        assert_eq!(created, Ok(true));
        assert_eq!(tasks(&database.pool).await, 1);
    }

    #[tokio::test]
    async fn a_failing_write_fails_alone() {
        const BROKEN: &Statements = &Statements {
            texts: &["INSERT INTO no_such_table VALUES ($1)"],
            task_at: None,
        };
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
        let group = [
            create("a"),
            write(BROKEN, vec![Value::from(1_i64)]),
            create("b"),
        ];
        let (results, _) = write_group(&target(&database, &SliceSet::default()), &group, None);
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
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
        for n in 0..5 {
            ended_long_ago(&pool, &format!("old-{n}"), 7_200_000_000).await;
        }
        ended_long_ago(&pool, "recent", 60_000_000).await;
        let due = hourly().due(2).expect("due: nothing looked up yet");
        let (results, expired) = write_group(
            &target(&database, &SliceSet::default()),
            &[create("a"), create("b")],
            Some(due),
        );
        assert_eq!(results, [Ok(1), Ok(1)]);
        assert_eq!(expired, Some(5), "removed with the group");
        let left: Vec<String> = sqlx::query_scalar("SELECT id FROM a2a_tasks ORDER BY id")
            .fetch_all(&pool)
            .await
            .expect("ids");
        assert_eq!(left, ["a", "b", "recent"]);

        // A write alone with a slice due is a group too: one transaction, not two.
        ended_long_ago(&pool, "old-5", 7_200_000_000).await;
        let (results, expired) = write_group(
            &target(&database, &SliceSet::default()),
            &[finish("none")],
            Some(due),
        );
        assert_eq!((results, expired), (vec![Ok(0)], Some(1)));
    }

    #[tokio::test]
    async fn a_failing_slice_leaves_the_group_written_one_by_one_and_is_tried_later() {
        let database = TestDatabase::new().await;
        let pool = database.pool.clone();
        ended_long_ago(&pool, "old", 7_200_000_000).await;
        // The slice's second statement (the deliveries') fails.
        sqlx::query("DROP TABLE a2a_push_outbox")
            .execute(&pool)
            .await
            .expect("dropped");
        let mut pacing = hourly();
        let due = pacing.due(2).expect("due");
        let (results, expired) = write_group(
            &target(&database, &SliceSet::default()),
            &[create("a"), create("b")],
            Some(due),
        );
        assert_eq!(results, [Ok(1), Ok(1)], "each write committed alone");
        assert_eq!(expired, None);
        assert_eq!(tasks(&pool).await, 3);
        // Alone it fails too: tried again a second later, not with the next group.
        assert_eq!(pacing.alone(&database.direct, due), 0);
        assert_eq!(pacing.due(2), None);
        assert_eq!(tasks(&pool).await, 3);
    }
}
