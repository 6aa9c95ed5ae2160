//! [`SqlStore`]: tasks, their event logs and push configs in a SQL database, written once for both
//! databases (the differences are in [`Dialect`]). [`SqliteStore`](crate::SqliteStore) and
//! [`PostgresStore`](crate::PostgresStore) are this store on each database; see the
//! [crate docs](crate) for the guarantees and the schema.

use std::sync::Arc;
use std::time::Duration;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::auth::Owner;
use a2a_server::store::{EventPage, StoreError, StoredEvent, StoredTask, TaskChange, TaskPage};
use a2a_types::v1::{ListTasksRequest, StreamResponse, Task, TaskPushNotificationConfig};
use sqlx::Pool;

use crate::columns::{
    PageKey, TaskColumns, config_from_json, config_to_json, context_filter, now_micros, page_of,
    state_filter, task_from_json, time_filter, version_column, version_of,
};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::{MAX_CONFIGS_PER_TASK, OpenError, backend, too_many_configs};
use crate::group::{GroupWriter, TaskUpdate, Updated};
use crate::logged_event;
use crate::outbox_hint::OutboxHint;
use crate::record::RecordColumns;
use crate::retention::{RetentionPolicy, StoreGuard};
use crate::rows::column;
use crate::written::Written;

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
    /// Whether the outbox may hold deliveries this process has not claimed yet.
    pub(crate) outbox: OutboxHint,
    /// The writer that commits the hot writes in groups, on a database that has one (SQLite).
    pub(crate) group: std::sync::OnceLock<Box<dyn GroupWriter>>,
    /// PostgreSQL's writer of tasks ended before their first write, in groups.
    #[cfg(feature = "postgres")]
    pub(crate) ended_batch: std::sync::OnceLock<crate::postgres_batch::EndedTaskBatch>,
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

/// How many times an update reads the task again after another writer came between.
const MAX_MODIFY_ATTEMPTS: usize = 16;

/// The update of a task at the version it was read at (binds: context id, state, terminal,
/// status time, timestamped, now, the task's JSON, its id, owner principal, owner tenant,
/// expected version, the versions it moves on by: one per event logged with it, at least one);
/// returns the new version. The owner is compared as in `owned_task_row`, so
/// the primary key alone finds the row.
pub(crate) const UPDATE_TASK: &str = "UPDATE a2a_tasks SET context_id = $1, state = $2, \
     terminal = $3, status_micros = $4, timestamped = $5, version = version + $12, \
     updated_micros = $6, task = $7 WHERE id = $8 AND owner_principal IS NOT DISTINCT FROM $9 \
     AND owner_tenant IS NOT DISTINCT FROM $10 AND version = $11 RETURNING version";

/// The owner's tasks, from the counters kept by the migrations' triggers (and, on SQLite, by the
/// statements that delete tasks) (`$1` principal, `$2` tenant).
const COUNT_OWNED_TASKS: &str = "SELECT CAST(COALESCE(SUM(tasks), 0) AS BIGINT) \
     FROM a2a_task_counts WHERE owner_principal = $1 AND owner_tenant = $2";

/// The insert of a new task at version 1 (binds: id, owner principal, owner tenant, context id,
/// state, terminal, status time, timestamped, now, the task's JSON; see
/// [`SqlStore::bind_new_task`]); inserts nothing when the id is taken.
pub(crate) const INSERT_TASK: &str = "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, \
     context_id, state, terminal, status_micros, timestamped, version, updated_micros, task) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10) ON CONFLICT (id) DO NOTHING";

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// Binds the new task's values of [`INSERT_TASK`] (the first ten) to `query`.
    pub(crate) fn bind_new_task<'q>(
        query: sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>>,
        owner: &'q Owner,
        task_id: &'q String,
        columns: &'q TaskColumns,
    ) -> sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>> {
        query
            .bind(task_id)
            .bind(&owner.principal)
            .bind(&owner.tenant)
            .bind(&columns.context_id)
            .bind(columns.state)
            .bind(columns.terminal)
            .bind(columns.status_micros)
            .bind(columns.timestamped)
            .bind(now_micros())
            .bind(&columns.json)
    }

    /// The store pruning by `policy` every `every` (the first pass one `every` from now) for as long
    /// as it (any clone) lives, instead of
    /// the policy it ran before (a store opens running [`RetentionPolicy::recommended`] every
    /// [`RETENTION_INTERVAL`](crate::RETENTION_INTERVAL)); `None` keeps everything.
    ///
    /// On PostgreSQL the slices the policy's tasks go to are made at once, not at the first
    /// pass: the tasks written before the first slice begins can only expire one by one.
    #[must_use]
    pub fn with_retention(self, policy: Option<RetentionPolicy>, every: Duration) -> Self {
        self.retaining(policy, every, true)
    }

    /// [`with_retention`](Self::with_retention) for the policy a store opens with: its slices are
    /// left to its first pass, so that a policy set right after opening (the usual case) makes
    /// the first slices, of its own width, while no pass of the one it replaces is at work.
    pub(crate) fn opened_with_retention(self, policy: RetentionPolicy, every: Duration) -> Self {
        self.retaining(Some(policy), every, false)
    }

    fn retaining(
        self,
        policy: Option<RetentionPolicy>,
        every: Duration,
        slices_now: bool,
    ) -> Self {
        if let Some(guard) = &self.guard {
            let pass = policy.map(|policy| {
                let unguarded = SqlStore {
                    pool: self.pool.clone(),
                    writer: self.writer.clone(),
                    shared: self.shared.clone(),
                    guard: None,
                };
                let first = tokio::time::Instant::now() + every;
                let pass = unguarded.spawn_retention_from(policy, first, every, slices_now);
                (policy, every, pass.abort_handle())
            });
            guard.replace_retention(pass);
            if let Some(group) = self.shared.group.get() {
                group.expire_after(policy.and_then(|policy| policy.terminal_tasks_after));
            }
        }
        self
    }

    /// The policy this store prunes by in the background, and how often; `None` when it keeps
    /// everything.
    pub fn retention(&self) -> Option<(RetentionPolicy, Duration)> {
        self.guard.as_ref().and_then(|guard| guard.retention())
    }

    /// Prunes by `policy` every `every` until the returned handle is aborted (failures are logged).
    pub fn spawn_retention(
        &self,
        policy: RetentionPolicy,
        every: Duration,
    ) -> tokio::task::JoinHandle<()> {
        self.spawn_retention_from(policy, tokio::time::Instant::now(), every, false)
    }

    /// Prunes by `policy` at `first` and every `every` after it; when `slices_now`, first makes
    /// the slices the tasks to come go to (and drops those expired), before the first pass.
    fn spawn_retention_from(
        &self,
        policy: RetentionPolicy,
        first: tokio::time::Instant,
        every: Duration,
        slices_now: bool,
    ) -> tokio::task::JoinHandle<()> {
        let store = self.clone();
        tokio::spawn(async move {
            if let (true, Some(age)) = (slices_now, policy.terminal_tasks_after) {
                let now_ms = now_micros() / 1_000;
                match D::expire_slices(&store.writer, now_ms, age, every).await {
                    Ok(expiry) => tracing::debug!(?expiry, "made the task store's slices"),
                    Err(error) => tracing::warn!(%error, "making the task store's slices failed"),
                }
            }
            let mut ticks = tokio::time::interval_at(first, every);
            loop {
                ticks.tick().await;
                match store.prune_every(&policy, every).await {
                    Ok(report) => tracing::debug!(?report, "pruned the task store"),
                    Err(error) => tracing::warn!(%error, "pruning the task store failed"),
                }
            }
        })
    }

    /// The row of the owner's task, with these columns.
    ///
    /// The owner is compared with `IS NOT DISTINCT FROM` (the same as `=` on these `NOT NULL`
    /// columns), which no index serves: the id's primary key is then the only index the planner
    /// can use. With `=`, PostgreSQL without statistics (a fresh database, before `ANALYZE`) finds
    /// the task through the listing index of all the owner's tasks, reading every one of them.
    async fn owned_task_row(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &str,
    ) -> Result<Option<D::Row>, StoreError> {
        sqlx::query(&format!(
            "SELECT {columns} FROM a2a_tasks WHERE id = $1 \
             AND owner_principal IS NOT DISTINCT FROM $2 AND owner_tenant IS NOT DISTINCT FROM $3"
        ))
        .bind(task_id.to_owned())
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend)
    }

    /// The version and the pruning mark of the owner's task.
    async fn version_of_owned(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Option<(i64, i64)>, StoreError> {
        let row = self
            .owned_task_row(owner, task_id, "version, events_pruned_through")
            .await?;
        row.map(|row| {
            Ok((
                column(&row, 0, "task", task_id)?,
                column(&row, 1, "task", task_id)?,
            ))
        })
            .transpose()
    }

    pub(crate) async fn create_task(&self, owner: &Owner, task: Task) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(&task)?;
        let created = match self.shared.group.get() {
            Some(group) => group.create(owner, &task.id, &columns, None).await?,
            None => {
                let inserted =
                    Self::bind_new_task(sqlx::query(INSERT_TASK), owner, &task.id, &columns)
                        .execute(&self.writer)
                        .await
                        .map_err(backend)?;
                D::rows_affected(&inserted) > 0
            }
        };
        if !created {
            return Err(StoreError::AlreadyExists);
        }
        self.shared.written.remember(owner, StoredTask::new(task, 1));
        Ok(1)
    }

    pub(crate) async fn get_task(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Option<StoredTask>, StoreError> {
        let row = self.owned_task_row(owner, task_id, "version, task").await?;
        row.map(|row| {
            let json: String = column(&row, 1, "task", task_id)?;
            Ok(StoredTask::new(
                task_from_json(task_id, &json)?,
                version_of(column(&row, 0, "task", task_id)?),
            ))
        })
        .transpose()
    }

    pub(crate) async fn update_task(
        &self,
        owner: &Owner,
        task: Task,
        expected_version: u64,
        mut event: Option<StreamResponse>,
    ) -> Result<u64, StoreError> {
        // Written by another path than `modify`: what this process remembers of it is stale.
        self.shared.written.forget(owner, &task.id);
        self.write_update(owner, &task, expected_version, event.as_mut_slice(), None)
            .await
    }

    /// Changes the owner's task in one step (see [`TaskStore::modify`](a2a_server::TaskStore))
    /// by each of `events` in turn (by no event when there is none), all in one write, each event
    /// under its own version; the last version. Starts from the task as this process last wrote
    /// it when it remembers it (no read), and from the database otherwise or when that was stale.
    pub(crate) async fn modify_task(
        &self,
        owner: &Owner,
        task_id: &str,
        events: &mut [StreamResponse],
        change: &mut TaskChange<'_>,
        record: Option<&RecordColumns>,
    ) -> Result<u64, Error> {
        let mut remembered = self.shared.written.take(owner, task_id);
        for _ in 0..MAX_MODIFY_ATTEMPTS {
            let from_memory = remembered.is_some();
            let stored = match remembered.take() {
                Some(stored) => stored,
                None => self
                    .get_task(owner, task_id)
                    .await
                    .map_err(|e| e.to_error(task_id))?
                    .ok_or_else(|| StoreError::NotFound.to_error(task_id))?,
            };
            let mut task = stored.task;
            let changed = if events.is_empty() {
                change(&mut task, None)
            } else {
                events
                    .iter()
                    .try_for_each(|event| change(&mut task, Some(event)))
            };
            if let Err(refused) = changed {
                if from_memory {
                    // Refused on what this process remembers: decided again on the stored task.
                    continue;
                }
                return Err(refused);
            }
            match self
                .write_update(owner, &task, stored.version, events, record)
                .await
            {
                Ok(version) => {
                    self.shared
                        .written
                        .remember(owner, StoredTask::new(task, version));
                    return Ok(version);
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(other) => return Err(other.to_error(task_id)),
            }
        }
        Err(Error::bare(
            ErrorKind::Internal,
            format!("task {task_id} kept changing while it was being updated"),
        ))
    }

    /// Writes `task` over the owner's task at `expected_version`, with `events` in its log (each
    /// under the next version, in order; with none, the version moves on by one) and a delivery
    /// of each per push config; the last new version. `events` are left as they were (see
    /// [`logged_event::to_log`]).
    async fn write_update(
        &self,
        owner: &Owner,
        task: &Task,
        expected_version: u64,
        events: &mut [StreamResponse],
        record: Option<&RecordColumns>,
    ) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(task)?;
        let events = events
            .iter_mut()
            .map(|event| logged_event::to_log(event, &task.id, &columns.context_id))
            .collect::<Result<Vec<_>, _>>()?;
        let now = now_micros();
        let written = match (self.shared.group.get(), D::UPDATE_TASK_AT_ONCE) {
            (Some(group), _) => group
                .update(TaskUpdate {
                    owner,
                    task_id: &task.id,
                    columns: &columns,
                    expected_version: version_column(expected_version)?,
                    events: &events,
                    now,
                    record,
                })
                .await?
                .map(|Updated { version, queued }| (version, queued)),
            (None, Some(plain)) => {
                let statement = match record {
                    Some(_) => D::update_task_with_record_at_once().unwrap_or(plain),
                    None => plain,
                };
                let steps = u64::try_from(events.len().max(1)).unwrap_or(u64::MAX);
                let last = expected_version.saturating_add(steps);
                // The events as one JSON array of their texts, which the statement unpacks.
                let events = serde_json::to_string(&events).map_err(|e| {
                    StoreError::Backend(format!("the events could not be written as JSON: {e}"))
                })?;
                let query = sqlx::query(statement)
                    .bind(&columns.context_id)
                    .bind(columns.state)
                    .bind(columns.terminal)
                    .bind(columns.status_micros)
                    .bind(columns.timestamped)
                    .bind(now)
                    .bind(&columns.json)
                    .bind(&task.id)
                    .bind(&owner.principal)
                    .bind(&owner.tenant)
                    .bind(version_column(expected_version)?)
                    .bind(events)
                    .bind(D::announcement(&task.id, last))
                    .bind(crate::outbox::MAX_PENDING_PER_TASK);
                let query = match record {
                    Some(record) => record.bind_to(query),
                    None => query,
                };
                query
                    .fetch_optional(&self.writer)
                    .await
                    .map_err(backend)?
                    .map(|row| {
                        let version: i64 = column(&row, 0, "task", &task.id)?;
                        let queued: i64 = column(&row, 1, "task", &task.id)?;
                        Ok::<_, StoreError>((version, queued > 0))
                    })
                    .transpose()?
            }
            (None, None) => {
                self.update_in_transaction(
                    owner,
                    task,
                    &columns,
                    expected_version,
                    events,
                    record,
                )
                .await?
            }
        };
        let Some((version, queued)) = written else {
            return match self.version_of_owned(owner, &task.id).await? {
                Some((current, _)) => Err(StoreError::Conflict {
                    current: version_of(current),
                }),
                None => Err(StoreError::NotFound),
            };
        };
        if queued {
            self.shared.outbox.queued();
        }
        Ok(version_of(version))
    }

    /// [`write_update`](Self::write_update) as a transaction of several statements (`events` as
    /// JSON); the last new version and whether deliveries were queued, or `None` when the task
    /// is not at `expected_version` (or not the owner's).
    async fn update_in_transaction(
        &self,
        owner: &Owner,
        task: &Task,
        columns: &TaskColumns,
        expected_version: u64,
        events: Vec<String>,
        record: Option<&RecordColumns>,
    ) -> Result<Option<(i64, bool)>, StoreError> {
        let now = now_micros();
        let mut tx = cost::begin(&self.writer).await?;
        // The write comes first, so on SQLite the transaction takes the write lock at once
        // (waiting for it up to the busy timeout) rather than upgrading a read, which cannot wait.
        // The owner as in `owned_task_row`: found by the primary key alone.
        let updated = sqlx::query(UPDATE_TASK)
            .bind(&columns.context_id)
            .bind(columns.state)
            .bind(columns.terminal)
            .bind(columns.status_micros)
            .bind(columns.timestamped)
            .bind(now)
            .bind(&columns.json)
            .bind(&task.id)
            .bind(&owner.principal)
            .bind(&owner.tenant)
            .bind(version_column(expected_version)?)
            .bind(i64::try_from(events.len().max(1)).unwrap_or(i64::MAX))
            .fetch_optional(&mut *tx)
            .await
            .map_err(backend)?;
        let Some(row) = updated else {
            return Ok(None);
        };
        let version: i64 = column(&row, 0, "task", &task.id)?;
        let mut queued = 0;
        // The first event's version: the events take the versions up to the new one, in order.
        let first = version + 1 - i64::try_from(events.len()).unwrap_or(i64::MAX);
        for (event_version, event) in (first..).zip(events) {
            sqlx::query(
                "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&task.id)
            .bind(event_version)
            .bind(now)
            .bind(&event)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
            // The webhooks' deliveries commit with the event, or neither does.
            queued +=
                Self::enqueue_deliveries(&mut tx, owner, &task.id, event_version, now).await?;
        }
        if let Some(record) = record {
            record
                .bind_to(
                    sqlx::query(crate::record::INSERT_EXECUTION)
                        .bind(&task.id)
                        .bind(&owner.principal)
                        .bind(&owner.tenant),
                )
                .execute(&mut *tx)
                .await
                .map_err(backend)?;
        }
        D::announce(&mut tx, &task.id, version_of(version))
            .await
            .map_err(backend)?;
        cost::commit(tx).await?;
        Ok(Some((version, queued > 0)))
    }

    pub(crate) async fn task_events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        // The task's pruning mark and the events after `after` in one statement, so one
        // snapshot: the page is complete exactly when nothing after `after` was pruned. The
        // task's row comes once per event (or once, with no event, when there is none).
        let rows = sqlx::query(
            "SELECT t.events_pruned_through, t.context_id, e.version, e.event FROM a2a_tasks t \
             LEFT JOIN a2a_task_events e ON e.task_id = t.id AND e.version > $2 \
             WHERE t.id = $1 AND t.owner_principal IS NOT DISTINCT FROM $3 \
             AND t.owner_tenant IS NOT DISTINCT FROM $4 ORDER BY e.version LIMIT $5",
        )
        .bind(task_id.to_owned())
        .bind(version_column(after)?)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        let Some(first) = rows.first() else {
            return Err(StoreError::NotFound);
        };
        let pruned_through: i64 = column(first, 0, "task", task_id)?;
        let context_id: String = column(first, 1, "task", task_id)?;
        let mut events = Vec::with_capacity(rows.len());
        for row in &rows {
            let version: Option<i64> = column(row, 2, "an event of task", task_id)?;
            let Some(version) = version else {
                continue;
            };
            let json: String = column(row, 3, "an event of task", task_id)?;
            events.push(StoredEvent::new(
                version_of(version),
                logged_event::from_log(task_id, Some(&context_id), &json)?,
            ));
        }
        Ok(EventPage::new(events, version_of(pruned_through) <= after))
    }

    pub(crate) async fn list_tasks(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError> {
        let after = PageKey::of_request(request)?;
        const FILTERS: &str = "owner_principal = $1 AND owner_tenant = $2 \
             AND ($3 IS NULL OR context_id = $3) AND ($4 IS NULL OR state = $4) \
             AND ($5 IS NULL OR (timestamped AND status_micros >= $5))";
        let context = context_filter(request).map(str::to_owned);
        let state = state_filter(request.status);
        let time = time_filter(request);
        let filtered = context.is_some() || state.is_some() || time.is_some();
        // Without a filter, the owner's counters (`COUNT_OWNED_TASKS`): a sum of a few rows
        // rather than a count of every task the owner holds.
        let total: i64 = if filtered {
            sqlx::query_scalar(&format!("SELECT COUNT(*) FROM a2a_tasks WHERE {FILTERS}"))
                .bind(&owner.principal)
                .bind(&owner.tenant)
                .bind(&context)
                .bind(state)
                .bind(time)
                .fetch_one(&self.pool)
                .await
                .map_err(backend)?
        } else {
            sqlx::query_scalar(COUNT_OWNED_TASKS)
                .bind(&owner.principal)
                .bind(&owner.tenant)
                .fetch_one(&self.pool)
                .await
                .map_err(backend)?
        };
        let rows = sqlx::query(&format!(
            "SELECT id, status_micros, seq, task FROM a2a_tasks WHERE {FILTERS} \
             AND ($6 IS NULL OR status_micros < $6 OR (status_micros = $6 AND seq < $7)) \
             ORDER BY status_micros DESC, seq DESC LIMIT $8"
        ))
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(&context)
        .bind(state)
        .bind(time)
        .bind(after.map(|key| key.micros))
        .bind(after.map(|key| key.seq))
        // One more than the page: whether another page follows.
        .bind(i64::try_from(page_size).unwrap_or(i64::MAX - 1) + 1)
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        page_of(
            rows.iter().map(|row| {
                let id: String = column(row, 0, "a task of the listing", "")?;
                let key = PageKey {
                    micros: column(row, 1, "task", &id)?,
                    seq: column(row, 2, "task", &id)?,
                };
                let json: String = column(row, 3, "task", &id)?;
                Ok((id, key, json))
            }),
            page_size,
            total,
        )
    }

    pub(crate) async fn save_config(
        &self,
        owner: &Owner,
        config: TaskPushNotificationConfig,
    ) -> Result<(), StoreError> {
        let task_id = config.task_id.clone().unwrap_or_default();
        let config_id = config.id.clone().unwrap_or_default();
        let json = config_to_json(&config)?;
        let mut tx = cost::begin(&self.writer).await?;
        // The write first (see `update_task`); the count after it decides whether to keep it.
        sqlx::query(D::UPSERT_PUSH_CONFIG)
            .bind(&owner.principal)
            .bind(&owner.tenant)
            .bind(&task_id)
            .bind(&config_id)
            .bind(&json)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM a2a_push_configs \
             WHERE owner_principal = $1 AND owner_tenant = $2 AND task_id = $3",
        )
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(&task_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(backend)?;
        if count > MAX_CONFIGS_PER_TASK {
            return Err(too_many_configs());
        }
        cost::commit(tx).await
    }

    pub(crate) async fn get_config(
        &self,
        owner: &Owner,
        task_id: &str,
        id: &str,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError> {
        let json: Option<String> = sqlx::query_scalar(
            "SELECT config FROM a2a_push_configs WHERE owner_principal = $1 AND owner_tenant = $2 \
             AND task_id = $3 AND config_id = $4",
        )
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(task_id.to_owned())
        .bind(id.to_owned())
        .fetch_optional(&self.pool)
        .await
        .map_err(backend)?;
        json.map(|json| config_from_json(task_id, &json))
            .transpose()
    }

    pub(crate) async fn list_configs(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Vec<TaskPushNotificationConfig>, StoreError> {
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT config FROM a2a_push_configs WHERE owner_principal = $1 AND owner_tenant = $2 \
             AND task_id = $3 ORDER BY seq",
        )
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(task_id.to_owned())
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        rows.iter()
            .map(|json| config_from_json(task_id, json))
            .collect()
    }

    pub(crate) async fn delete_config(
        &self,
        owner: &Owner,
        task_id: &str,
        id: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM a2a_push_configs WHERE owner_principal = $1 AND owner_tenant = $2 \
             AND task_id = $3 AND config_id = $4",
        )
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(task_id.to_owned())
        .bind(id.to_owned())
        .execute(&self.writer)
        .await
        .map_err(backend)?;
        Ok(())
    }
}
}

/// The server crate's store traits (tasks, push configs, the execution queue, the push outbox) on `SqlStore<$database>`: each method is the generic one above
/// (a trait impl per database, so the driver bounds are met by the concrete driver, not restated).
macro_rules! store_traits_for {
    ($database:ty) => {
        #[async_trait::async_trait]
        impl a2a_server::TaskStore for $crate::store::SqlStore<$database> {
            async fn create(
                &self,
                owner: &a2a_server::Owner,
                task: a2a_types::v1::Task,
            ) -> Result<u64, a2a_server::store::StoreError> {
                self.create_task(owner, task).await
            }

            fn store_identity(&self) -> Option<a2a_server::StoreIdentity> {
                Some(a2a_server::StoreIdentity::of(&self.shared))
            }

            async fn get(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
            ) -> Result<Option<a2a_server::store::StoredTask>, a2a_server::store::StoreError> {
                self.get_task(owner, task_id).await
            }

            async fn update(
                &self,
                owner: &a2a_server::Owner,
                task: a2a_types::v1::Task,
                expected_version: u64,
                event: Option<a2a_types::v1::StreamResponse>,
            ) -> Result<u64, a2a_server::store::StoreError> {
                self.update_task(owner, task, expected_version, event).await
            }

            async fn modify(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                mut event: Option<a2a_types::v1::StreamResponse>,
                change: &mut a2a_server::store::TaskChange<'_>,
            ) -> Result<u64, a2a_protocol::errors::Error> {
                self.modify_task(owner, task_id, event.as_mut_slice(), change, None).await
            }

            async fn modify_each(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                mut events: Vec<a2a_types::v1::StreamResponse>,
                change: &mut a2a_server::store::TaskChange<'_>,
            ) -> Result<u64, a2a_protocol::errors::Error> {
                self.modify_task(owner, task_id, &mut events, change, None).await
            }

            fn writes_each_at_once(&self) -> bool {
                // One write: the events take the versions after the one it expects.
                true
            }

            async fn create_with_events(
                &self,
                owner: &a2a_server::Owner,
                task: a2a_types::v1::Task,
                events: Vec<a2a_types::v1::StreamResponse>,
                change: &mut a2a_server::store::TaskChange<'_>,
            ) -> Result<u64, a2a_protocol::errors::Error> {
                self.create_task_with_events(owner, task, &events, change).await
            }

            async fn events_after(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                after: u64,
                limit: usize,
            ) -> Result<a2a_server::store::EventPage, a2a_server::store::StoreError> {
                self.task_events_after(owner, task_id, after, limit).await
            }

            async fn list(
                &self,
                owner: &a2a_server::Owner,
                request: &a2a_types::v1::ListTasksRequest,
                page_size: usize,
            ) -> Result<a2a_server::store::TaskPage, a2a_server::store::StoreError> {
                self.list_tasks(owner, request, page_size).await
            }
        }

        #[async_trait::async_trait]
        impl a2a_server::PushConfigStore for $crate::store::SqlStore<$database> {
            async fn save(
                &self,
                owner: &a2a_server::Owner,
                config: a2a_types::v1::TaskPushNotificationConfig,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.save_config(owner, config).await
            }

            async fn get(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                id: &str,
            ) -> Result<
                Option<a2a_types::v1::TaskPushNotificationConfig>,
                a2a_server::store::StoreError,
            > {
                self.get_config(owner, task_id, id).await
            }

            async fn list(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
            ) -> Result<Vec<a2a_types::v1::TaskPushNotificationConfig>, a2a_server::store::StoreError>
            {
                self.list_configs(owner, task_id).await
            }

            async fn delete(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                id: &str,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.delete_config(owner, task_id, id).await
            }
        }

        #[async_trait::async_trait]
        impl a2a_server::ExecutionQueue for $crate::store::SqlStore<$database> {
            async fn begin(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                request: &a2a_types::v1::SendMessageRequest,
                service_params: &a2a_server::ServiceParams,
                lease_token: &str,
                lease: std::time::Duration,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.begin_execution(owner, task_id, request, service_params, lease_token, lease)
                    .await
            }

            fn task_store_identity(&self) -> Option<a2a_server::StoreIdentity> {
                Some(a2a_server::StoreIdentity::of(&self.shared))
            }

            async fn begin_with_task(
                &self,
                owner: &a2a_server::Owner,
                task: &a2a_types::v1::Task,
                request: &a2a_types::v1::SendMessageRequest,
                service_params: &a2a_server::ServiceParams,
                lease_token: &str,
                lease: std::time::Duration,
            ) -> Result<u64, a2a_server::store::StoreError> {
                self.begin_execution_with_task(
                    owner,
                    task,
                    request,
                    service_params,
                    lease_token,
                    lease,
                )
                .await
            }

            async fn begin_with_change(
                &self,
                owner: &a2a_server::Owner,
                task_id: &str,
                change: &mut a2a_server::store::TaskChange<'_>,
                request: &a2a_types::v1::SendMessageRequest,
                service_params: &a2a_server::ServiceParams,
                lease_token: &str,
                lease: std::time::Duration,
            ) -> Result<u64, a2a_protocol::errors::Error> {
                self.begin_execution_with_change(
                    owner,
                    task_id,
                    change,
                    request,
                    service_params,
                    lease_token,
                    lease,
                )
                .await
            }

            async fn renew(
                &self,
                task_id: &str,
                lease_token: &str,
                lease: std::time::Duration,
            ) -> Result<bool, a2a_server::store::StoreError> {
                self.renew_execution(task_id, lease_token, lease).await
            }

            async fn finish(
                &self,
                task_id: &str,
                lease_token: &str,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.finish_execution(task_id, lease_token).await
            }

            async fn claim_expired(
                &self,
                lease_token: &str,
                lease: std::time::Duration,
                limit: usize,
            ) -> Result<Vec<a2a_server::ExecutionRecord>, a2a_server::store::StoreError> {
                self.claim_expired_executions(lease_token, lease, limit)
                    .await
            }
        }

        #[async_trait::async_trait]
        impl a2a_server::PushOutbox for $crate::store::SqlStore<$database> {
            async fn claim(
                &self,
                lease_token: &str,
                lease: std::time::Duration,
                limit: usize,
            ) -> Result<Vec<a2a_server::OutboxEntry>, a2a_server::store::StoreError> {
                self.claim_deliveries(lease_token, lease, limit).await
            }

            async fn delivered(&self, id: u64) -> Result<(), a2a_server::store::StoreError> {
                self.delete_delivery(id).await
            }

            async fn retry_later(
                &self,
                id: u64,
                lease_token: &str,
                delay: std::time::Duration,
                problem: &str,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.retry_delivery_later(id, lease_token, delay, problem)
                    .await
            }

            async fn give_up(
                &self,
                id: u64,
                lease_token: &str,
                problem: &str,
            ) -> Result<(), a2a_server::store::StoreError> {
                self.give_up_delivery(id, lease_token, problem).await
            }
        }
    };
}

#[cfg(feature = "sqlite")]
store_traits_for!(sqlx::Sqlite);
#[cfg(feature = "postgres")]
store_traits_for!(sqlx::Postgres);
