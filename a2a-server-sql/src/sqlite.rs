//! The embedded store: one SQLite file, written by one process (see the [crate docs](crate) for the
//! schema). Streams use the server's in-process [`InMemoryEventBus`](a2a_server::InMemoryEventBus):
//! every writer of the file is in this process.
//!
//! The file is opened in WAL mode with `synchronous = NORMAL`: a committed transaction survives the
//! process being killed (it is in the WAL); writers queue on SQLite's lock for up to the busy
//! timeout.

use std::path::Path;
use std::time::Duration;

use a2a_server::auth::Owner;
use a2a_server::push::PushConfigStore;
use a2a_server::store::{EventPage, StoreError, StoredEvent, StoredTask, TaskPage, TaskStore};
use a2a_types::v1::{ListTasksRequest, StreamResponse, Task, TaskPushNotificationConfig};
use async_trait::async_trait;
use sqlx::Row;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::columns::{
    PageKey, PruneReport, RetentionPolicy, TaskColumns, config_from_json, config_to_json,
    context_filter, event_from_json, event_to_json, micros_ago, now_micros, state_filter,
    task_from_json, time_filter, version_column, version_of,
};
use crate::{MAX_CONFIGS_PER_TASK, OpenError, backend};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");

/// Tasks, event logs and push configs in one SQLite file; cheap to clone (clones share the pool).
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating it if needed) the database file at `path` and brings its schema up to date.
    pub async fn open(path: impl AsRef<Path>) -> Result<Self, OpenError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        Self::open_with(options).await
    }

    /// Opens a database with these options (a pool of four connections) and migrates it.
    pub async fn open_with(options: SqliteConnectOptions) -> Result<Self, OpenError> {
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(OpenError::Connect)?;
        MIGRATOR.run(&pool).await.map_err(OpenError::Migrate)?;
        Ok(SqliteStore { pool })
    }

    /// The connection pool, for queries of your own.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Removes what `policy` says is old; see [`RetentionPolicy`].
    pub async fn prune(&self, policy: &RetentionPolicy) -> Result<PruneReport, StoreError> {
        let mut report = PruneReport::default();
        let mut tx = self.pool.begin().await.map_err(backend)?;
        if let Some(age) = policy.terminal_tasks_after {
            let cutoff = micros_ago(age);
            sqlx::query(
                "DELETE FROM a2a_push_configs WHERE task_id IN \
                 (SELECT id FROM a2a_tasks WHERE terminal AND updated_micros < $1)",
            )
            .bind(cutoff)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
            sqlx::query(
                "DELETE FROM a2a_task_events WHERE task_id IN \
                 (SELECT id FROM a2a_tasks WHERE terminal AND updated_micros < $1)",
            )
            .bind(cutoff)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
            report.tasks =
                sqlx::query("DELETE FROM a2a_tasks WHERE terminal AND updated_micros < $1")
                    .bind(cutoff)
                    .execute(&mut *tx)
                    .await
                    .map_err(backend)?
                    .rows_affected();
        }
        if let Some(max) = policy.max_events_per_task {
            let max = version_column(max)?;
            sqlx::query(
                "UPDATE a2a_tasks SET events_pruned_through = version - $1 \
                 WHERE version - $1 > events_pruned_through",
            )
            .bind(max)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
        }
        if let Some(age) = policy.events_after {
            sqlx::query(
                "UPDATE a2a_tasks SET events_pruned_through = \
                 (SELECT MAX(version) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
                 WHERE (SELECT MAX(version) FROM a2a_task_events WHERE task_id = a2a_tasks.id AND created_micros < $1) \
                 > events_pruned_through",
            )
            .bind(micros_ago(age))
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
        }
        report.events = sqlx::query(
            "DELETE FROM a2a_task_events WHERE version <= \
             (SELECT events_pruned_through FROM a2a_tasks WHERE id = a2a_task_events.task_id)",
        )
        .execute(&mut *tx)
        .await
        .map_err(backend)?
        .rows_affected();
        tx.commit().await.map_err(backend)?;
        Ok(report)
    }

    /// Prunes by `policy` every `every` until the returned handle is aborted (failures are logged).
    pub fn spawn_retention(
        &self,
        policy: RetentionPolicy,
        every: Duration,
    ) -> tokio::task::JoinHandle<()> {
        let store = self.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                match store.prune(&policy).await {
                    Ok(report) => tracing::debug!(?report, "pruned the task store"),
                    Err(error) => tracing::warn!(%error, "pruning the task store failed"),
                }
            }
        })
    }

    async fn version_of_owned(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Option<(i64, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT version, events_pruned_through FROM a2a_tasks \
             WHERE id = $1 AND owner_principal = $2 AND owner_tenant = $3",
        )
        .bind(task_id)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend)?;
        Ok(row.map(|row| (row.get(0), row.get(1))))
    }
}

#[async_trait]
impl TaskStore for SqliteStore {
    async fn create(&self, owner: &Owner, task: Task) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(&task)?;
        let inserted = sqlx::query(
            "INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, state, terminal, \
             status_micros, timestamped, version, updated_micros, task) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&task.id)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(&columns.context_id)
        .bind(columns.state)
        .bind(columns.terminal)
        .bind(columns.status_micros)
        .bind(columns.timestamped)
        .bind(now_micros())
        .bind(&columns.json)
        .execute(&self.pool)
        .await
        .map_err(backend)?;
        if inserted.rows_affected() == 0 {
            return Err(StoreError::AlreadyExists);
        }
        Ok(1)
    }

    async fn get(&self, owner: &Owner, task_id: &str) -> Result<Option<StoredTask>, StoreError> {
        let row = sqlx::query(
            "SELECT version, task FROM a2a_tasks \
             WHERE id = $1 AND owner_principal = $2 AND owner_tenant = $3",
        )
        .bind(task_id)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend)?;
        row.map(|row| {
            let json: String = row.get(1);
            Ok(StoredTask::new(
                task_from_json(task_id, &json)?,
                version_of(row.get(0)),
            ))
        })
        .transpose()
    }

    async fn update(
        &self,
        owner: &Owner,
        task: Task,
        expected_version: u64,
        event: Option<StreamResponse>,
    ) -> Result<u64, StoreError> {
        let columns = TaskColumns::of(&task)?;
        let event = event.as_ref().map(event_to_json).transpose()?;
        let now = now_micros();
        let mut tx = self.pool.begin().await.map_err(backend)?;
        // The write comes first, so the transaction takes SQLite's write lock at once (waiting
        // for it up to the busy timeout) rather than upgrading a read, which cannot wait.
        let updated = sqlx::query(
            "UPDATE a2a_tasks SET context_id = $1, state = $2, terminal = $3, status_micros = $4, \
             timestamped = $5, version = version + 1, updated_micros = $6, task = $7 \
             WHERE id = $8 AND owner_principal = $9 AND owner_tenant = $10 AND version = $11 \
             RETURNING version",
        )
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
        .fetch_optional(&mut *tx)
        .await
        .map_err(backend)?;
        let Some(row) = updated else {
            drop(tx);
            return match self.version_of_owned(owner, &task.id).await? {
                Some((current, _)) => Err(StoreError::Conflict {
                    current: version_of(current),
                }),
                None => Err(StoreError::NotFound),
            };
        };
        let version: i64 = row.get(0);
        if let Some(event) = event {
            sqlx::query(
                "INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&task.id)
            .bind(version)
            .bind(now)
            .bind(event)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
        }
        tx.commit().await.map_err(backend)?;
        Ok(version_of(version))
    }

    async fn events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        // Events first, then the task's pruning mark: a pruning in between makes the page look
        // incomplete (the reader resumes from the task), never complete with a hole.
        let rows = sqlx::query(
            "SELECT version, event FROM a2a_task_events \
             WHERE task_id = $1 AND version > $2 ORDER BY version LIMIT $3",
        )
        .bind(task_id)
        .bind(version_column(after)?)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        let Some((_, pruned_through)) = self.version_of_owned(owner, task_id).await? else {
            return Err(StoreError::NotFound);
        };
        let events = rows
            .into_iter()
            .map(|row| {
                let json: String = row.get(1);
                Ok(StoredEvent::new(
                    version_of(row.get(0)),
                    event_from_json(task_id, &json)?,
                ))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(EventPage::new(events, version_of(pruned_through) <= after))
    }

    async fn list(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError> {
        let after = PageKey::of_request(request)?;
        const FILTERS: &str = "owner_principal = $1 AND owner_tenant = $2 \
             AND ($3 IS NULL OR context_id = $3) AND ($4 IS NULL OR state = $4) \
             AND ($5 IS NULL OR (timestamped AND status_micros >= $5))";
        let total: i64 =
            sqlx::query_scalar(&format!("SELECT COUNT(*) FROM a2a_tasks WHERE {FILTERS}"))
                .bind(&owner.principal)
                .bind(&owner.tenant)
                .bind(context_filter(request))
                .bind(state_filter(request.status))
                .bind(time_filter(request))
                .fetch_one(&self.pool)
                .await
                .map_err(backend)?;
        let rows = sqlx::query(&format!(
            "SELECT id, status_micros, seq, task FROM a2a_tasks WHERE {FILTERS} \
             AND ($6 IS NULL OR status_micros < $6 OR (status_micros = $6 AND seq < $7)) \
             ORDER BY status_micros DESC, seq DESC LIMIT $8"
        ))
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(context_filter(request))
        .bind(state_filter(request.status))
        .bind(time_filter(request))
        .bind(after.map(|key| key.micros))
        .bind(after.map(|key| key.seq))
        // One more than the page: whether another page follows.
        .bind(i64::try_from(page_size).unwrap_or(i64::MAX - 1) + 1)
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        crate::page_of(
            rows.iter().map(|row| {
                (
                    row.get::<String, _>(0),
                    PageKey {
                        micros: row.get(1),
                        seq: row.get(2),
                    },
                    row.get::<String, _>(3),
                )
            }),
            page_size,
            total,
        )
    }
}

#[async_trait]
impl PushConfigStore for SqliteStore {
    async fn save(
        &self,
        owner: &Owner,
        config: TaskPushNotificationConfig,
    ) -> Result<(), StoreError> {
        let task_id = config.task_id.clone().unwrap_or_default();
        let config_id = config.id.clone().unwrap_or_default();
        let json = config_to_json(&config)?;
        let mut tx = self.pool.begin().await.map_err(backend)?;
        // The write first (see `update`); the count after it decides whether to keep it.
        sqlx::query(
            "INSERT INTO a2a_push_configs (owner_principal, owner_tenant, task_id, config_id, seq, config) \
             VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(seq), 0) + 1 FROM a2a_push_configs), $5) \
             ON CONFLICT (owner_principal, owner_tenant, task_id, config_id) \
             DO UPDATE SET config = excluded.config",
        )
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
            return Err(crate::too_many_configs());
        }
        tx.commit().await.map_err(backend)
    }

    async fn get(
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
        .bind(task_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend)?;
        json.map(|json| config_from_json(task_id, &json))
            .transpose()
    }

    async fn list(
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
        .bind(task_id)
        .fetch_all(&self.pool)
        .await
        .map_err(backend)?;
        rows.iter()
            .map(|json| config_from_json(task_id, json))
            .collect()
    }

    async fn delete(&self, owner: &Owner, task_id: &str, id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM a2a_push_configs WHERE owner_principal = $1 AND owner_tenant = $2 \
             AND task_id = $3 AND config_id = $4",
        )
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(task_id)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(backend)?;
        Ok(())
    }
}
