//! The execution queue of [`SqlStore`] (table `a2a_executions`; see
//! [`a2a_server::store::executions`] for how the server uses it): a row per running execution,
//! leased to the replica running it; rows whose lease ran out are claimed (on PostgreSQL with
//! `FOR UPDATE SKIP LOCKED`, so two replicas never claim one) and run again.

use std::time::Duration;

use a2a_protocol::service::Extensions;
use a2a_server::store::{ExecutionRecord, StoreError, StoredTask};
use a2a_server::{Owner, ServiceParams};
use a2a_types::v1::{SendMessageRequest, Task};

use crate::columns::{TaskColumns, now_micros};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::rows::column;
use crate::store::{INSERT_TASK, SqlStore};

/// The end of a lease of `lease` from now, in microseconds since the epoch.
fn lease_end(lease: Duration) -> i64 {
    now_micros().saturating_add(i64::try_from(lease.as_micros()).unwrap_or(i64::MAX))
}

/// The record of an execution (binds: task id, owner principal, owner tenant, then those of
/// [`RecordColumns::bind_to`]), replacing the task's earlier one.
const INSERT_EXECUTION: &str = "INSERT INTO a2a_executions (task_id, owner_principal, \
     owner_tenant, request, attempts, lease_token, lease_until_micros, a2a_version, \
     a2a_extensions) VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8) \
     ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, attempts = 1, \
     lease_token = excluded.lease_token, lease_until_micros = excluded.lease_until_micros, \
     a2a_version = excluded.a2a_version, a2a_extensions = excluded.a2a_extensions";

/// The columns of an execution's record besides its task and owner, as written.
struct RecordColumns {
    request: String,
    lease_token: String,
    lease_until_micros: i64,
    a2a_version: String,
    a2a_extensions: String,
}

impl RecordColumns {
    fn of(
        request: &SendMessageRequest,
        service_params: &ServiceParams,
        lease_token: &str,
        lease: Duration,
    ) -> Result<Self, StoreError> {
        let request = serde_json::to_string(request).map_err(|e| {
            StoreError::Backend(format!("the request could not be written as JSON: {e}"))
        })?;
        // Each parameter as its header's value, which is how it reads back.
        Ok(RecordColumns {
            request,
            lease_token: lease_token.to_owned(),
            lease_until_micros: lease_end(lease),
            a2a_version: service_params
                .version
                .map(|v| v.to_string())
                .unwrap_or_default(),
            a2a_extensions: service_params.extensions.to_string(),
        })
    }

    /// Binds the request, the lease token, the lease's end, the version and the extensions.
    fn bind_to<'q, D: sqlx::Database>(
        &'q self,
        query: sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>>,
    ) -> sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>>
    where
        &'q String: sqlx::Encode<'q, D> + sqlx::Type<D>,
        i64: sqlx::Encode<'q, D> + sqlx::Type<D>,
    {
        query
            .bind(&self.request)
            .bind(&self.lease_token)
            .bind(self.lease_until_micros)
            .bind(&self.a2a_version)
            .bind(&self.a2a_extensions)
    }
}

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
        record
            .bind_to(
                sqlx::query(INSERT_EXECUTION)
                    .bind(task_id.to_owned())
                    .bind(&owner.principal)
                    .bind(&owner.tenant),
            )
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
        let created = match D::CREATE_TASK_WITH_EXECUTION_AT_ONCE {
            Some(statement) => {
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
            None => {
                let mut tx = cost::begin(&self.writer).await?;
                // The task first: when its id is taken, nothing is recorded (the transaction is
                // dropped, so rolled back).
                let inserted =
                    Self::bind_new_task(sqlx::query(INSERT_TASK), owner, &task.id, &columns)
                        .execute(&mut *tx)
                        .await
                        .map_err(backend)?;
                let created = D::rows_affected(&inserted) > 0;
                if created {
                    record
                        .bind_to(
                            sqlx::query(INSERT_EXECUTION)
                                .bind(&task.id)
                                .bind(&owner.principal)
                                .bind(&owner.tenant),
                        )
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
    pub(crate) async fn expire_execution_leases(&self) -> Result<(), StoreError> {
        sqlx::query("UPDATE a2a_executions SET lease_until_micros = 0")
            .execute(&self.writer)
            .await
            .map_err(backend)?;
        Ok(())
    }
}
}
