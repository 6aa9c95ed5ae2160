//! An execution's record as written (table `a2a_executions`): its columns besides the task and
//! the owner, and the statement that writes it; shared by the execution queue and SQLite's writer.

use std::time::Duration;

use a2a_server::ServiceParams;
use a2a_server::auth::Owner;
use a2a_server::store::StoreError;
use a2a_types::v1::SendMessageRequest;

use crate::columns::now_micros;

/// The end of a lease of `lease` from now, in microseconds since the epoch.
pub(crate) fn lease_end(lease: Duration) -> i64 {
    now_micros().saturating_add(i64::try_from(lease.as_micros()).unwrap_or(i64::MAX))
}

/// The record of an execution (binds: task id, owner principal, owner tenant, then those of
/// [`RecordColumns::bind_to`]), replacing the task's earlier one.
pub(crate) const INSERT_EXECUTION: &str = "INSERT INTO a2a_executions (task_id, owner_principal, \
     owner_tenant, request, attempts, lease_token, lease_until_micros, a2a_version, \
     a2a_extensions) VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8) \
     ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, attempts = 1, \
     lease_token = excluded.lease_token, lease_until_micros = excluded.lease_until_micros, \
     a2a_version = excluded.a2a_version, a2a_extensions = excluded.a2a_extensions";

/// The columns of an execution's record besides its task and owner, as written.
#[derive(Debug)]
pub(crate) struct RecordColumns {
    pub(crate) request: String,
    pub(crate) lease_token: String,
    pub(crate) lease_until_micros: i64,
    pub(crate) a2a_version: String,
    pub(crate) a2a_extensions: String,
}

impl RecordColumns {
    pub(crate) fn of(
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

    /// [`INSERT_EXECUTION`] of this record for the owner's task `task_id`, every value bound.
    pub(crate) fn insert<'q, D: sqlx::Database>(
        &'q self,
        owner: &'q Owner,
        task_id: &'q String,
    ) -> sqlx::query::Query<'q, D, <D as sqlx::Database>::Arguments<'q>>
    where
        &'q String: sqlx::Encode<'q, D> + sqlx::Type<D>,
        i64: sqlx::Encode<'q, D> + sqlx::Type<D>,
    {
        self.bind_to(
            sqlx::query(INSERT_EXECUTION)
                .bind(task_id)
                .bind(&owner.principal)
                .bind(&owner.tenant),
        )
    }

    /// Binds the request, the lease token, the lease's end, the version and the extensions.
    pub(crate) fn bind_to<'q, D: sqlx::Database>(
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
