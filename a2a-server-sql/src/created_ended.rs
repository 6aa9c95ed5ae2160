//! A new task written with the events the agent already sent it (see
//! [`TaskStore::create_with_events`](a2a_server::TaskStore::create_with_events)): one row, the
//! task as the events left it at the version they brought it to, in one statement (one write of
//! SQLite's writer thread; on PostgreSQL, one row of a group written together, see
//! `postgres::batch`). The events themselves are not logged: the task's log is marked pruned
//! through that version, as retention marks it, so a reader asking for them is given the task
//! instead. The task is over and nobody has streamed it, so only such a reader could want them,
//! and logging them costs the database a third of its work per task. No delivery is queued and no
//! replica is told: nobody could have set up a webhook or a stream on a task that did not exist.

use a2a_protocol::errors::Error;
use a2a_server::Owner;
use a2a_server::store::{StoreError, StoredTask, TaskChange};
use a2a_types::v1::{StreamResponse, Task};

use crate::columns::{TaskColumns, version_column};
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::store::SqlStore;

/// A new task at the version its events brought it to, its log pruned through it: binds as
/// [`INSERT_TASK`](crate::store::INSERT_TASK) (ten values), then that version.
pub(crate) const INSERT_ENDED_TASK: &str = "INSERT INTO a2a_tasks (id, owner_principal, \
     owner_tenant, context_id, state, terminal, status_micros, timestamped, version, \
     events_pruned_through, updated_micros, task) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $11, $9, $10) ON CONFLICT (id) DO NOTHING";

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// `task` changed by each of `events` (by `change`), written as a new task; its version.
    /// `AlreadyExists` when the id is taken.
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
        let version = u64::try_from(events.len())
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        self.write_ended_task(owner, &task, version)
            .await
            .map_err(|e| e.to_error(&task.id))?;
        self.shared
            .written
            .remember(owner, StoredTask::new(task, version));
        Ok(version)
    }

    /// Inserts the task without a group writer: through PostgreSQL's batch when the store has
    /// one, else in a statement of its own; whether it was inserted.
    async fn insert_ended_task(
        &self,
        owner: &Owner,
        task_id: &String,
        columns: TaskColumns,
        version: i64,
    ) -> Result<bool, StoreError> {
        #[cfg(feature = "postgres")]
        let columns = match self.shared.ended_batch.get() {
            Some(batch) => {
                match batch.create_at_version(owner, task_id, columns, version).await {
                    Ok(created) => return created,
                    // The batch's writer stopped before taking it: nothing was written.
                    Err(columns) => columns,
                }
            }
            None => columns,
        };
        // Routed in the writer's turn, where the slices change (see `crate::slices`).
        let mut turn = self.writer.acquire().await.map_err(backend)?;
        let insert = self.shared.slices.tables_of(task_id).route(INSERT_ENDED_TASK);
        let inserted = Self::bind_new_task(sqlx::query(&insert), owner, task_id, &columns)
            .bind(version)
            .execute(&mut *turn)
            .await
            .map_err(backend)?;
        Ok(D::rows_affected(&inserted) > 0)
    }

    async fn write_ended_task(
        &self,
        owner: &Owner,
        task: &Task,
        version: u64,
    ) -> Result<(), StoreError> {
        let columns = TaskColumns::of(task)?;
        let version = version_column(version)?;
        let created = match self.shared.group.get() {
            Some(group) => {
                group
                    .create_at_version(owner, &task.id, &columns, version)
                    .await?
            }
            None => self.insert_ended_task(owner, &task.id, columns, version).await?,
        };
        if created {
            Ok(())
        } else {
            Err(StoreError::AlreadyExists)
        }
    }
}
}
