//! The store's task reads: a task, its event log after a version, and a page of the owner's tasks.

use a2a_server::auth::Owner;
use a2a_server::store::{EventPage, StoreError, StoredEvent, StoredTask, TaskPage};
use a2a_types::v1::ListTasksRequest;

use crate::columns::{
    PageKey, context_filter, page_of, state_filter, task_from_json, time_filter, version_column,
    version_of,
};
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::log_row;
use crate::logged_event;
use crate::rows::column;
use crate::slices::{TASKS, TaskTables, is_missing_table, replace_name};

use super::SqlStore;

/// The owner's tasks, from the counters kept by the migrations' triggers (and, on SQLite, by the
/// statements that delete tasks) (`$1` principal, `$2` tenant).
const COUNT_OWNED_TASKS: &str = "SELECT CAST(COALESCE(SUM(tasks), 0) AS BIGINT) \
     FROM a2a_task_counts WHERE owner_principal = $1 AND owner_tenant = $2";

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// The row of the owner's task, with these columns.
    ///
    /// The owner is compared with `IS NOT DISTINCT FROM` (the same as `=` on these `NOT NULL`
    /// columns), which no index serves: the id's primary key is then the only index the planner
    /// can use. With `=`, PostgreSQL without statistics (a fresh database, before `ANALYZE`) finds
    /// the task through the listing index of all the owner's tasks, reading every one of them.
    pub(super) async fn owned_task_row(
        &self,
        owner: &Owner,
        task_id: &str,
        columns: &str,
    ) -> Result<Option<D::Row>, StoreError> {
        let tables = self.shared.slices.tables_of(task_id);
        let read = sqlx::query(&tables.route(&format!(
            "SELECT {columns} FROM a2a_tasks WHERE id = $1 \
             AND owner_principal IS NOT DISTINCT FROM $2 AND owner_tenant IS NOT DISTINCT FROM $3"
        )))
        .bind(task_id.to_owned())
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .fetch_optional(&self.pool)
        .await;
        match read {
            Ok(row) => Ok(row),
            // Its slice was dropped since it was routed: the task expired.
            Err(error) if tables != TaskTables::BASE && is_missing_table(&error) => Ok(None),
            Err(error) => Err(backend(error)),
        }
    }

    pub(crate) async fn get_task(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Option<StoredTask>, StoreError> {
        let row = self.owned_task_row(owner, task_id, "version, task").await?;
        row.map(|row| {
            let json: String = column(&row, 1, "task", task_id)?;
            Ok(StoredTask::new(
                task_from_json(task_id, &json)?,
                version_of(column(&row, 0, "task", task_id)?),
            ))
        })
        .transpose()
    }

    pub(crate) async fn task_events_after(
        &self,
        owner: &Owner,
        task_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<EventPage, StoreError> {
        // The task's pruning mark and the rows of events after `after` in one statement, so one
        // snapshot: the page is complete exactly when nothing after `after` was pruned. The
        // task's row comes once per row of the log (or once, with none, when there is none).
        // The rows begin with the last one at or before `after` when it holds a burst, which may
        // go on past `after` (see `crate::log_row`); it is found by the key, backwards.
        let tables = self.shared.slices.tables_of(task_id);
        let read = sqlx::query(&tables.route(
            "SELECT t.events_pruned_through, t.context_id, e.version, e.event FROM a2a_tasks t \
             LEFT JOIN a2a_task_events e ON e.task_id = t.id AND e.version >= COALESCE(\
             (SELECT CASE WHEN substr(l.event, 1, 1) = '[' THEN l.version ELSE $2 + 1 END \
             FROM a2a_task_events l WHERE l.task_id = $1 AND l.version <= $2 \
             ORDER BY l.version DESC LIMIT 1), $2 + 1) \
             WHERE t.id = $1 AND t.owner_principal IS NOT DISTINCT FROM $3 \
             AND t.owner_tenant IS NOT DISTINCT FROM $4 ORDER BY e.version LIMIT $5",
        ))
        .bind(task_id.to_owned())
        .bind(version_column(after)?)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await;
        let rows = match read {
            Ok(rows) => rows,
            // Its slice was dropped since it was routed: the task expired.
            Err(error) if tables != TaskTables::BASE && is_missing_table(&error) => vec![],
            Err(error) => return Err(backend(error)),
        };
        let Some(first) = rows.first() else {
            return Err(StoreError::NotFound);
        };
        let pruned_through: i64 = column(first, 0, "task", task_id)?;
        let context_id: String = column(first, 1, "task", task_id)?;
        let mut events = Vec::with_capacity(rows.len());
        'rows: for row in &rows {
            let version: Option<i64> = column(row, 2, "an event of task", task_id)?;
            let Some(version) = version else {
                continue;
            };
            let text: String = column(row, 3, "an event of task", task_id)?;
            for (version, json) in log_row::events_of_row(task_id, version, &text)? {
                let version = version_of(version);
                if version <= after {
                    continue;
                }
                if events.len() == limit {
                    break 'rows;
                }
                events.push(StoredEvent::new(
                    version,
                    logged_event::from_log(task_id, Some(&context_id), json)?,
                ));
            }
        }
        Ok(EventPage::new(events, version_of(pruned_through) <= after))
    }

    pub(crate) async fn list_tasks(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, StoreError> {
        // Read from every table of tasks there is; a slice dropped meanwhile is read without.
        for _ in 0..2 {
            match self.list_tasks_in(owner, request, page_size).await {
                Err(ListError::SliceGone) => continue,
                Err(ListError::Store(error)) => return Err(error),
                Ok(page) => return Ok(page),
            }
        }
        Err(StoreError::Backend(
            "slices of tasks were dropped while the tasks were listed, twice".to_owned(),
        ))
    }

    /// A page of the owner's tasks, read from the tables of tasks there are now.
    async fn list_tasks_in(
        &self,
        owner: &Owner,
        request: &ListTasksRequest,
        page_size: usize,
    ) -> Result<TaskPage, ListError> {
        let tasks = self.shared.slices.all_tasks();
        let from_every_table = |statement: &str| replace_name(statement, TASKS, &tasks);
        let after = PageKey::of_request(request)?;
        const FILTERS: &str = "owner_principal = $1 AND owner_tenant = $2 \
             AND ($3 IS NULL OR context_id = $3) AND ($4 IS NULL OR state = $4) \
             AND ($5 IS NULL OR (timestamped AND status_micros >= $5))";
        let context = context_filter(request).map(str::to_owned);
        let state = state_filter(request.status);
        let time = time_filter(request);
        let filtered = context.is_some() || state.is_some() || time.is_some();
        // Without a filter, the owner's counters (`COUNT_OWNED_TASKS`): a sum of a few rows
        // rather than a count of every task the owner holds.
        let total: i64 = if filtered {
            sqlx::query_scalar(&from_every_table(&format!(
                "SELECT COUNT(*) FROM a2a_tasks WHERE {FILTERS}"
            )))
            .bind(&owner.principal)
            .bind(&owner.tenant)
            .bind(&context)
            .bind(state)
            .bind(time)
            .fetch_one(&self.pool)
            .await
            .map_err(|error| ListError::of(error, &tasks))?
        } else {
            sqlx::query_scalar(COUNT_OWNED_TASKS)
                .bind(&owner.principal)
                .bind(&owner.tenant)
                .fetch_one(&self.pool)
                .await
                .map_err(backend)?
        };
        let rows = sqlx::query(&from_every_table(&format!(
            "SELECT id, status_micros, seq, task FROM a2a_tasks WHERE {FILTERS} \
             AND ($6 IS NULL OR status_micros < $6 OR (status_micros = $6 AND seq < $7)) \
             ORDER BY status_micros DESC, seq DESC LIMIT $8"
        )))
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(&context)
        .bind(state)
        .bind(time)
        .bind(after.map(|key| key.micros))
        .bind(after.map(|key| key.seq))
        // One more than the page: whether another page follows.
        .bind(i64::try_from(page_size).unwrap_or(i64::MAX - 1) + 1)
        .fetch_all(&self.pool)
        .await
        .map_err(|error| ListError::of(error, &tasks))?;
        Ok(page_of(
            rows.iter().map(|row| {
                let id: String = column(row, 0, "a task of the listing", "")?;
                let key = PageKey {
                    micros: column(row, 1, "task", &id)?,
                    seq: column(row, 2, "task", &id)?,
                };
                let json: String = column(row, 3, "task", &id)?;
                Ok((id, key, json))
            }),
            page_size,
            total,
        )?)
    }
}
}

/// Why a listing failed: a slice it read was dropped meanwhile (read again without it), or
/// anything else.
enum ListError {
    SliceGone,
    Store(StoreError),
}

impl ListError {
    /// `error` of a statement that read `tasks` (every table of tasks there was).
    fn of(error: sqlx::Error, tasks: &str) -> Self {
        if tasks != TASKS && is_missing_table(&error) {
            ListError::SliceGone
        } else {
            ListError::Store(backend(error))
        }
    }
}

impl From<StoreError> for ListError {
    fn from(error: StoreError) -> Self {
        ListError::Store(error)
    }
}
