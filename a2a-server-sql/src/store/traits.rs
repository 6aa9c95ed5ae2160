//! The server crate's store traits on [`SqlStore`](super::SqlStore) of each database.

/// The server crate's store traits (tasks, push configs, the execution queue, the push outbox) on
/// `SqlStore<$database>`: each method calls the store's generic one of the same name (a trait impl
/// per database, so the driver bounds are met by the concrete driver, not restated).
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
