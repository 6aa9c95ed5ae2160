//! The execution queue of [`SqlStore`] (table `a2a_executions`; see
//! [`a2a_server::store::executions`] for how the server uses it): a row per running execution,
//! leased to the replica running it; rows whose lease ran out are claimed (on PostgreSQL with
//! `FOR UPDATE SKIP LOCKED`, so two replicas never claim one) and run again.

use std::time::Duration;

use a2a_protocol::service::Extensions;
use a2a_server::store::{ExecutionRecord, StoreError};
use a2a_server::{Owner, ServiceParams};
use a2a_types::v1::SendMessageRequest;

use crate::columns::now_micros;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::rows::column;
use crate::store::SqlStore;

/// The end of a lease of `lease` from now, in microseconds since the epoch.
fn lease_end(lease: Duration) -> i64 {
    now_micros().saturating_add(i64::try_from(lease.as_micros()).unwrap_or(i64::MAX))
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
        let request = serde_json::to_string(request).map_err(|e| {
            StoreError::Backend(format!("the request could not be written as JSON: {e}"))
        })?;
        // Each parameter as its header's value, which is how it reads back.
        let version = service_params
            .version
            .map(|v| v.to_string())
            .unwrap_or_default();
        sqlx::query(
            "INSERT INTO a2a_executions (task_id, owner_principal, owner_tenant, request, attempts, \
             lease_token, lease_until_micros, a2a_version, a2a_extensions) \
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8) \
             ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, attempts = 1, \
             lease_token = excluded.lease_token, lease_until_micros = excluded.lease_until_micros, \
             a2a_version = excluded.a2a_version, a2a_extensions = excluded.a2a_extensions",
        )
        .bind(task_id.to_owned())
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(request)
        .bind(lease_token.to_owned())
        .bind(lease_end(lease))
        .bind(version)
        .bind(service_params.extensions.to_string())
        .execute(&self.writer)
        .await
        .map_err(backend)?;
        Ok(())
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
