//! The execution queue of [`SqlStore`] (table `a2a_executions`; see
//! [`a2a_server::store::executions`] for how the server uses it): a row per running execution,
//! leased to the replica running it; rows whose lease ran out are claimed (on PostgreSQL with
//! `FOR UPDATE SKIP LOCKED`, so two replicas never claim one) and run again.

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::service::Extensions;
use a2a_server::store::{ExecutionRecord, StoreError, StoredTask, TaskChange};
use a2a_server::{Owner, ServiceParams};
use a2a_types::v1::{SendMessageRequest, Task};

use crate::columns::{TaskColumns, now_micros};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::record::{RecordColumns, lease_end};
use crate::rows::column;
use crate::store::{INSERT_TASK, SqlStore};

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    pub(crate) async fn begin_execution(
        &self,
        owner: &Owner,
        task_id: &str,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<(), StoreError> {
        let record = RecordColumns::of(request, service_params, lease_token, lease)?;
        if let Some(group) = self.shared.group.get() {
            return group.record_execution(owner, task_id, &record).await;
        }
        let task_id = task_id.to_owned();
        record
            .insert(owner, &task_id)
            .execute(&self.writer)
            .await
            .map_err(backend)?;
        Ok(())
    }

    /// Creates `task` and records its execution in one write: one statement where the dialect
    /// has one, else one transaction (see
    /// [`ExecutionQueue::begin_with_task`](a2a_server::ExecutionQueue::begin_with_task)).
    pub(crate) async fn begin_execution_with_task(
        &self,
        owner: &Owner,
        task: &Task,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(task)?;
        let record = RecordColumns::of(request, service_params, lease_token, lease)?;
        let created = match (self.shared.group.get(), D::CREATE_TASK_WITH_EXECUTION_AT_ONCE) {
            (Some(group), _) => group.create(owner, &task.id, &columns, Some(&record)).await?,
            (None, Some(statement)) => {
                let done = record
                    .bind_to(Self::bind_new_task(
                        sqlx::query(statement),
                        owner,
                        &task.id,
                        &columns,
                    ))
                    .execute(&self.writer)
                    .await
                    .map_err(backend)?;
                D::rows_affected(&done) > 0
            }
            (None, None) => {
                let mut tx = cost::begin(&self.writer).await?;
                // Routed in the writer's turn, where the slices change (see `crate::slices`).
                let insert = self.shared.slices.tables_of(&task.id).route(INSERT_TASK);
                // The task first: when its id is taken, nothing is recorded (the transaction is
                // dropped, so rolled back).
                let inserted = Self::bind_new_task(sqlx::query(&insert), owner, &task.id, &columns)
                        .execute(&mut *tx)
                        .await
                        .map_err(backend)?;
                let created = D::rows_affected(&inserted) > 0;
                if created {
                    record
                        .insert(owner, &task.id)
                        .execute(&mut *tx)
                        .await
                        .map_err(backend)?;
                    cost::commit(tx).await?;
                }
                created
            }
        };
        if !created {
            return Err(StoreError::AlreadyExists);
        }
        self.shared
            .written
            .remember(owner, StoredTask::new(task.clone(), 1));
        Ok(1)
    }

    /// Changes the owner's task by `change` and records its execution in one write (see
    /// [`ExecutionQueue::begin_with_change`](a2a_server::ExecutionQueue::begin_with_change)).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn begin_execution_with_change(
        &self,
        owner: &Owner,
        task_id: &str,
        change: &mut TaskChange<'_>,
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<u64, Error> {
        let record = RecordColumns::of(request, service_params, lease_token, lease)
            .map_err(|e| e.to_error(task_id))?;
        self.modify_task(owner, task_id, &mut [], change, Some(&record))
            .await
    }

    pub(crate) async fn renew_execution(
        &self,
        task_id: &str,
        lease_token: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let renewed = sqlx::query(
            "UPDATE a2a_executions SET lease_until_micros = $1 WHERE task_id = $2 AND lease_token = $3",
        )
        .bind(lease_end(lease))
        .bind(task_id.to_owned())
        .bind(lease_token.to_owned())
        .execute(&self.writer)
        .await
        .map_err(backend)?;
        Ok(D::rows_affected(&renewed) > 0)
    }

    pub(crate) async fn finish_execution(
        &self,
        task_id: &str,
        lease_token: &str,
    ) -> Result<(), StoreError> {
        if let Some(group) = self.shared.group.get() {
            return group.finish_execution(task_id, lease_token).await;
        }
        if self.shared.records_ended.take(task_id) {
            // The task's terminal write removed the record (see `crate::records_ended`).
            return Ok(());
        }
        sqlx::query("DELETE FROM a2a_executions WHERE task_id = $1 AND lease_token = $2")
            .bind(task_id.to_owned())
            .bind(lease_token.to_owned())
            .execute(&self.writer)
            .await
            .map_err(backend)?;
        Ok(())
    }

    pub(crate) async fn claim_expired_executions(
        &self,
        lease_token: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<ExecutionRecord>, StoreError> {
        let now = now_micros();
        let rows = sqlx::query(&format!(
            "UPDATE a2a_executions SET lease_token = $1, lease_until_micros = $2, attempts = attempts + 1 \
             WHERE task_id IN (SELECT task_id FROM a2a_executions WHERE lease_until_micros <= $3 \
             ORDER BY lease_until_micros LIMIT $4{}) AND lease_until_micros <= $3 \
             RETURNING task_id, owner_principal, owner_tenant, request, attempts, a2a_version, \
             a2a_extensions",
            D::CLAIM_ROW_LOCK
        ))
        .bind(lease_token.to_owned())
        .bind(lease_end(lease))
        .bind(now)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.writer)
        .await
        .map_err(backend)?;
        rows.iter()
            .map(|row| {
                let task_id: String = column(row, 0, "an execution", "")?;
                let request: String = column(row, 3, "the execution of task", &task_id)?;
                let request = serde_json::from_str(&request).map_err(|e| {
                    StoreError::Backend(format!(
                        "the stored execution of task {task_id} is unreadable: {e}"
                    ))
                })?;
                let attempts: i64 = column(row, 4, "the execution of task", &task_id)?;
                let version: String = column(row, 5, "the execution of task", &task_id)?;
                let version = match version.as_str() {
                    "" => None,
                    text => Some(text.parse().map_err(|e| {
                        StoreError::Backend(format!(
                            "the stored execution of task {task_id} has an unreadable \
                             a2a_version: {e}"
                        ))
                    })?),
                };
                let extensions: String = column(row, 6, "the execution of task", &task_id)?;
                let service_params = ServiceParams::new(version, Extensions::parse(&extensions));
                Ok(ExecutionRecord::new(
                    column(row, 1, "the execution of task", &task_id)?,
                    column(row, 2, "the execution of task", &task_id)?,
                    task_id,
                    request,
                    u32::try_from(attempts).unwrap_or(u32::MAX),
                )
                .with_service_params(service_params))
            })
            .collect()
    }

    /// Ends every execution lease at once: for a database only this process uses (SQLite),
    /// whose leases at opening were all held by a process that has stopped.
    #[cfg(feature = "sqlite")]
    pub(crate) async fn expire_execution_leases(&self) -> Result<(), StoreError> {
        sqlx::query("UPDATE a2a_executions SET lease_until_micros = 0")
            .execute(&self.writer)
            .await
            .map_err(backend)?;
        Ok(())
    }
}
}
