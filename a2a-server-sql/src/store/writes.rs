//! The store's task writes: a task created, and a task updated with the events it logged
//! (through the group writer where the database has one, in a transaction of its own otherwise).

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::auth::Owner;
use a2a_server::store::{StoreError, StoredTask, TaskChange};
use a2a_types::v1::{StreamResponse, Task};

use crate::columns::{TaskColumns, now_micros, version_column, version_of};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::group::{TaskUpdate, Updated};
use crate::log_row;
use crate::logged_event;
use crate::record::RecordColumns;
use crate::rows::column;

use super::{INSERT_TASK, SqlStore, UPDATE_TASK};

/// How many times an update reads the task again after another writer came between.
const MAX_MODIFY_ATTEMPTS: usize = 16;

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

    /// Binds an update's values of [`UPDATE_TASK`] (the first eleven: the columns, the time of
    /// writing, the task's id and owner, the version expected) to `query`; the update at once of
    /// [`Dialect::UPDATE_TASK_AT_ONCE`] takes the same ones first.
    fn bind_task_update<'q>(
        query: sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>>,
        owner: &'q Owner,
        task_id: &'q String,
        columns: &'q TaskColumns,
        now: i64,
        expected_version: i64,
    ) -> sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>> {
        query
            .bind(&columns.context_id)
            .bind(columns.state)
            .bind(columns.terminal)
            .bind(columns.status_micros)
            .bind(columns.timestamped)
            .bind(now)
            .bind(&columns.json)
            .bind(task_id)
            .bind(&owner.principal)
            .bind(&owner.tenant)
            .bind(expected_version)
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
                // Routed in the writer's turn, where the slices change (see `crate::slices`).
                let mut turn = self.writer.acquire().await.map_err(backend)?;
                let insert = self.shared.slices.tables_of(&task.id).route(INSERT_TASK);
                let inserted = Self::bind_new_task(sqlx::query(&insert), owner, &task.id, &columns)
                    .execute(&mut *turn)
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
                let count = i64::try_from(events.len()).unwrap_or(i64::MAX);
                let expected = version_column(expected_version)?;
                let query = sqlx::query(statement);
                let query = Self::bind_task_update(query, owner, &task.id, &columns, now, expected)
                    .bind(log_row::row_text(&events))
                    .bind(count)
                    .bind(D::announcement(&task.id, last))
                    .bind(crate::outbox::MAX_PENDING_PER_TASK);
                let query = match record {
                    Some(record) => record.bind_to(query),
                    None => query,
                };
                let written = query
                    .fetch_optional(&self.writer)
                    .await
                    .map_err(backend)?
                    .map(|row| {
                        let version: i64 = column(&row, 0, "task", &task.id)?;
                        let queued: i64 = column(&row, 1, "task", &task.id)?;
                        Ok::<_, StoreError>((version, queued > 0))
                    })
                    .transpose()?;
                if written.is_some() && columns.terminal && record.is_none() {
                    // The statement removed the task's execution record with it (one it records
                    // would be left: the removal does not see the statement's own insert).
                    self.shared.records_ended.note(&task.id);
                }
                written
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
        let expected = version_column(expected_version)?;
        let tables = self.shared.slices.tables_of(&task.id);
        let update = tables.route(UPDATE_TASK);
        let insert_event = tables.route(
            "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
             VALUES ($1, $2, $3, $4)",
        );
        let query = sqlx::query(&update);
        let updated = Self::bind_task_update(query, owner, &task.id, columns, now, expected)
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
            sqlx::query(&insert_event)
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
                .insert(owner, &task.id)
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
}
}
