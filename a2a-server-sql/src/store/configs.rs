//! The store's push-notification configs: saved (at most so many per task), read, listed and
//! deleted.

use a2a_server::auth::Owner;
use a2a_server::store::StoreError;
use a2a_types::v1::TaskPushNotificationConfig;

use crate::columns::{config_from_json, config_to_json};
use crate::cost;
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::{MAX_CONFIGS_PER_TASK, backend, too_many_configs};

use super::SqlStore;

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
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
