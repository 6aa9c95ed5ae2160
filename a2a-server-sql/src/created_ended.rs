//! A new task written together with the events the agent already sent it (see
//! [`TaskStore::create_with_events`](a2a_server::TaskStore::create_with_events)): the task's row
//! at the version its last event brought it to, its events in the log under versions 2 and on,
//! all or nothing. One statement on PostgreSQL, one write of SQLite's writer thread, otherwise
//! one transaction. No delivery is queued and no replica is told: nobody could have set up a
//! webhook or a stream on a task that did not exist.

use a2a_protocol::errors::Error;
use a2a_server::Owner;
use a2a_server::store::{StoreError, StoredTask, TaskChange};
use a2a_types::v1::{StreamResponse, Task};

use crate::columns::{TaskColumns, event_to_json, now_micros, version_column};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::store::SqlStore;

/// A new task inserted at the version its events brought it to instead of 1: binds as
/// [`INSERT_TASK`](crate::store::INSERT_TASK) (ten values), then that version.
pub(crate) const INSERT_TASK_AT_VERSION: &str = "INSERT INTO a2a_tasks (id, owner_principal, \
     owner_tenant, context_id, state, terminal, status_micros, timestamped, version, \
     updated_micros, task) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $9, $10) \
     ON CONFLICT (id) DO NOTHING";

/// One event of the log: task id, version, time, the event's ProtoJSON.
const LOG_EVENT: &str =
    "INSERT INTO a2a_task_events (task_id, version, created_micros, event) VALUES ($1, $2, $3, $4)";

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// `task` changed by each of `events` (by `change`), written as a new task with the events
    /// in its log; its version. `AlreadyExists` when the id is taken.
    pub(crate) async fn create_task_with_events(
        &self,
        owner: &Owner,
        mut task: Task,
        events: &[StreamResponse],
        change: &mut TaskChange<'_>,
    ) -> Result<u64, Error> {
        for event in events {
            change(&mut task, Some(event))?;
        }
        let version = self
            .write_new_task_with_events(owner, &task, events)
            .await
            .map_err(|e| e.to_error(&task.id))?;
        self.shared
            .written
            .remember(owner, StoredTask::new(task, version));
        Ok(version)
    }

    async fn write_new_task_with_events(
        &self,
        owner: &Owner,
        task: &Task,
        events: &[StreamResponse],
    ) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(task)?;
        let texts = events
            .iter()
            .map(event_to_json)
            .collect::<Result<Vec<_>, _>>()?;
        let version = u64::try_from(texts.len()).unwrap_or(u64::MAX).saturating_add(1);
        let version_value = version_column(version)?;
        let created = match (self.shared.group.get(), D::CREATE_TASK_WITH_EVENTS_AT_ONCE) {
            (Some(group), _) => {
                group
                    .create_with_events(owner, &task.id, &columns, version_value, &texts)
                    .await?
            }
            (None, Some(statement)) => {
                // The events as one JSON array of their texts, which the statement unpacks.
                let array = serde_json::to_string(&texts).map_err(|e| {
                    StoreError::Backend(format!("the events could not be written as JSON: {e}"))
                })?;
                Self::bind_new_task(sqlx::query(statement), owner, &task.id, &columns)
                    .bind(version_value)
                    .bind(array)
                    .fetch_optional(&self.writer)
                    .await
                    .map_err(backend)?
                    .is_some()
            }
            (None, None) => {
                let mut tx = cost::begin(&self.writer).await?;
                let inserted = Self::bind_new_task(
                    sqlx::query(INSERT_TASK_AT_VERSION),
                    owner,
                    &task.id,
                    &columns,
                )
                .bind(version_value)
                .execute(&mut *tx)
                .await
                .map_err(backend)?;
                // When the id is taken nothing is logged: the transaction is dropped, so rolled
                // back.
                let created = D::rows_affected(&inserted) > 0;
                if created {
                    let now = now_micros();
                    for (event_version, event) in (2_i64..).zip(&texts) {
                        sqlx::query(LOG_EVENT)
                            .bind(&task.id)
                            .bind(event_version)
                            .bind(now)
                            .bind(event)
                            .execute(&mut *tx)
                            .await
                            .map_err(backend)?;
                    }
                    cost::commit(tx).await?;
                }
                created
            }
        };
        if !created {
            return Err(StoreError::AlreadyExists);
        }
        Ok(version)
    }
}
}
