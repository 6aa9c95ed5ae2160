//! What differs between the two databases, in one place: the embedded migrations, the SQL text of
//! the few statements whose dialects differ, and what an update does inside its transaction
//! besides writing (PostgreSQL tells the other replicas; SQLite has no other replica to tell).
//! Everything else is [`SqlStore`](crate::SqlStore), written once over [`sqlx::Database`].

use async_trait::async_trait;
use sqlx::Transaction;
use sqlx::migrate::Migrator;

/// A database the stores run on: implemented for [`sqlx::Sqlite`] (feature `sqlite`) and
/// [`sqlx::Postgres`] (feature `postgres`) only.
#[async_trait]
pub trait Dialect: sqlx::Database + private::Sealed {
    /// The schema's migrations, embedded in the crate.
    fn migrator() -> &'static Migrator;

    /// Inserts or replaces a push config: binds owner principal, owner tenant, task id, config
    /// id and the config's JSON; a new config takes the next first-stored order (`seq`).
    const UPSERT_PUSH_CONFIG: &'static str;

    /// The condition that a column (written before it) is one of the texts of the JSON array of
    /// strings bound as `$1`: the ids of a batch of a pruning pass. Written so that the column's
    /// index is used whatever the table's size (on PostgreSQL, `= ANY` of an array, an index
    /// condition, rather than `IN` of a set, which it joins by reading the table when that looks
    /// cheaper).
    const IN_JSON_TEXTS: &'static str;

    /// Whether the database's triggers take the tasks deleted out of their owners' counts
    /// (`a2a_task_counts`), once per statement on PostgreSQL. `false` on SQLite, where a trigger
    /// runs once per row: there the store lowers the counts itself, one update per owner just
    /// before each statement that deletes tasks.
    const COUNTS_DELETIONS: bool;

    /// What the push outbox's claim adds to the select of the rows it takes: on PostgreSQL,
    /// `FOR UPDATE SKIP LOCKED`, so concurrent claims take different rows without waiting.
    const CLAIM_ROW_LOCK: &'static str;

    /// The whole of an update in one statement, when the database can: the task written at the
    /// version it was read at, its events logged in one row (see the [crate docs](crate)), a delivery
    /// queued per push config and event, the other replicas told; one round trip, committed on
    /// its own. Binds those of the store's update of the task alone (`UPDATE a2a_tasks`, but for
    /// the last), then the text of the events' row (`NULL` for no event), the number of events
    /// (each takes the next version, in order; with none the version moves on by one), the
    /// [`announcement`](Self::announcement) of the last version and the per-task cap of pending
    /// deliveries (checked per event: an event gets its deliveries when those waiting before the
    /// statement and those of the events before it are fewer); returns the last new version and
    /// the deliveries queued. A write that ends the task removes its execution's record too (the
    /// store then sends no end of that record, see `crate::records_ended`).
    /// `None`: the update is a transaction of several statements.
    const UPDATE_TASK_AT_ONCE: Option<&'static str>;

    /// A new task and its execution's record in one statement, when the database can: binds
    /// those of the store's insert of a task, then the record's request, lease token, lease end,
    /// A2A version and extensions; writes one row of each, or none when the task's id is taken.
    /// `None`: a transaction of two statements.
    const CREATE_TASK_WITH_EXECUTION_AT_ONCE: Option<&'static str>;

    /// [`UPDATE_TASK_AT_ONCE`](Self::UPDATE_TASK_AT_ONCE) that also records an execution of the
    /// task (a message continuing it) when the update found its row: binds those, then the
    /// record's request, lease token, lease end, A2A version and extensions. `None` when there
    /// is no update at once.
    fn update_task_with_record_at_once() -> Option<&'static str>;

    /// What [`UPDATE_TASK_AT_ONCE`](Self::UPDATE_TASK_AT_ONCE) announces of `version` of
    /// `task_id`.
    fn announcement(task_id: &str, version: u64) -> String;

    /// The database's own part of expiring the tasks ended `age` before `now_ms` (milliseconds
    /// since the epoch), in a pass run every `every`: dropping the slices of tasks that all
    /// expired and making those to come, reading on `reader` and writing on `writer`
    /// (`postgres::slices`, and on SQLite `sqlite::slices`, which keeps `slices` to route by).
    #[doc(hidden)]
    async fn expire_slices(
        reader: &sqlx::Pool<Self>,
        writer: &sqlx::Pool<Self>,
        slices: &crate::slices::SliceSet,
        now_ms: i64,
        age: std::time::Duration,
        every: std::time::Duration,
    ) -> Result<crate::retention::SliceExpiry, a2a_server::store::StoreError>;

    /// The last version an event row of the log holds (one row may hold a burst, see
    /// the [crate docs](crate)), as an expression over the row's `version` and `event`: what pruning
    /// compares with a task's mark, so that a burst's row goes only once all its events have.
    const LOG_ROW_LAST_VERSION: &'static str;

    /// How many rows a statement changed (each driver has its own result type).
    fn rows_affected(result: &Self::QueryResult) -> u64;

    /// Runs inside an update's transaction, after the task and its event are written: announces
    /// `version` of `task_id` to whoever else reads this database.
    async fn announce(
        tx: &mut Transaction<'static, Self>,
        task_id: &str,
        version: u64,
    ) -> Result<(), sqlx::Error>;
}

mod private {
    /// Only this crate's databases are dialects: the SQL text is written for them alone.
    pub trait Sealed {}
    #[cfg(feature = "sqlite")]
    impl Sealed for sqlx::Sqlite {}
    #[cfg(feature = "postgres")]
    impl Sealed for sqlx::Postgres {}
}

#[cfg(feature = "sqlite")]
static SQLITE_MIGRATOR: Migrator = sqlx::migrate!("migrations/sqlite");

#[cfg(feature = "sqlite")]
#[async_trait]
impl Dialect for sqlx::Sqlite {
    fn migrator() -> &'static Migrator {
        &SQLITE_MIGRATOR
    }

    // SQLite has no identity column besides the rowid: the next order is counted here, under the
    // write lock the transaction holds.
    const UPSERT_PUSH_CONFIG: &'static str = "INSERT INTO a2a_push_configs \
         (owner_principal, owner_tenant, task_id, config_id, seq, config) \
         VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(seq), 0) + 1 FROM a2a_push_configs), $5) \
         ON CONFLICT (owner_principal, owner_tenant, task_id, config_id) \
         DO UPDATE SET config = excluded.config";

    const COUNTS_DELETIONS: bool = false;

    // One writer at a time: the claim's update is atomic as it stands.
    const IN_JSON_TEXTS: &'static str = "IN (SELECT value FROM json_each($1))";
    const CLAIM_ROW_LOCK: &'static str = "";

    // No data-modifying `WITH`: a transaction, whose statements cost no network round trip.
    const UPDATE_TASK_AT_ONCE: Option<&'static str> = None;

    const CREATE_TASK_WITH_EXECUTION_AT_ONCE: Option<&'static str> = None;

    // This store logs one event per row, but reads a burst's row as PostgreSQL writes it.
    const LOG_ROW_LAST_VERSION: &'static str = "(version + CASE WHEN substr(event, 1, 1) = '[' \
         THEN json_array_length(event) - 1 ELSE 0 END)";

    fn update_task_with_record_at_once() -> Option<&'static str> {
        None
    }

    fn announcement(_: &str, _: u64) -> String {
        String::new()
    }

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
    }

    async fn expire_slices(
        reader: &sqlx::Pool<Self>,
        writer: &sqlx::Pool<Self>,
        slices: &crate::slices::SliceSet,
        now_ms: i64,
        age: std::time::Duration,
        every: std::time::Duration,
    ) -> Result<crate::retention::SliceExpiry, a2a_server::store::StoreError> {
        crate::sqlite::slices::expire_slices(reader, writer, slices, now_ms, age, every).await
    }

    async fn announce(
        _tx: &mut Transaction<'static, Self>,
        _task_id: &str,
        _version: u64,
    ) -> Result<(), sqlx::Error> {
        // One process writes the file; its in-process bus hears of the version from the server.
        Ok(())
    }
}

#[cfg(feature = "postgres")]
static POSTGRES_MIGRATOR: Migrator = sqlx::migrate!("migrations/postgres");

#[cfg(feature = "postgres")]
#[async_trait]
impl Dialect for sqlx::Postgres {
    fn migrator() -> &'static Migrator {
        &POSTGRES_MIGRATOR
    }

    // `seq` is an identity column: PostgreSQL numbers new rows itself.
    const UPSERT_PUSH_CONFIG: &'static str = "INSERT INTO a2a_push_configs \
         (owner_principal, owner_tenant, task_id, config_id, config) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (owner_principal, owner_tenant, task_id, config_id) \
         DO UPDATE SET config = excluded.config";

    // Statement triggers (migration 0008).
    const COUNTS_DELETIONS: bool = true;

    const IN_JSON_TEXTS: &'static str = "= ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))";
    const CLAIM_ROW_LOCK: &'static str = " FOR UPDATE SKIP LOCKED";

    // A burst's events are one row of the log, their text bound as it is written: nothing in the
    // statement parses them (see `crate::log_row`). Each data-modifying `WITH` runs once whatever
    // reads it; the log's row and the deliveries are written only when the update found its row
    // (they select from it), and the notification, delivered at commit, is sent for that row
    // alone. The channel is `NOTIFY_CHANNEL`. A task that ends takes its execution's record with
    // it (`ended`): nothing is left to resume, and the commit that would remove the record once
    // the executor returns is saved (that delete then finds nothing, which writes nothing).
    const UPDATE_TASK_AT_ONCE: Option<&'static str> = Some(
        "WITH updated AS (UPDATE a2a_tasks SET context_id = $1, state = $2, terminal = $3, \
         status_micros = $4, timestamped = $5, \
         version = version + GREATEST($13::bigint, 1), updated_micros = $6, \
         task = $7 WHERE id = $8 AND owner_principal IS NOT DISTINCT FROM $9 \
         AND owner_tenant IS NOT DISTINCT FROM $10 AND version = $11 RETURNING version), \
         logged AS (INSERT INTO a2a_task_events (task_id, version, created_micros, event) \
         SELECT $8, version - $13::bigint + 1, $6, $12::text FROM updated \
         WHERE $12::text IS NOT NULL), \
         queued AS (INSERT INTO a2a_push_outbox \
         (task_id, config_id, event_version, config, event, due_micros) \
         SELECT c.task_id, c.config_id, u.version - $13::bigint + e.ord, '', '', $6 \
         FROM updated u CROSS JOIN generate_series(1, $13::bigint) AS e(ord) \
         JOIN a2a_push_configs c ON c.owner_principal = $9 AND c.owner_tenant = $10 \
         AND c.task_id = $8 WHERE (SELECT COUNT(*) FROM a2a_push_outbox \
         WHERE task_id = $8 AND gave_up_micros IS NULL) + (e.ord - 1) * (SELECT COUNT(*) \
         FROM a2a_push_configs WHERE owner_principal = $9 AND owner_tenant = $10 \
         AND task_id = $8) < $15 ORDER BY e.ord, c.seq \
         RETURNING 1), \
         ended AS (DELETE FROM a2a_executions WHERE task_id = $8 AND $3 \
         AND EXISTS (SELECT 1 FROM updated)) \
         SELECT version, (SELECT COUNT(*) FROM queued), pg_notify('a2a_task_versions', $14::text) \
         FROM updated",
    );

    // A burst's row is an array of the events (`crate::log_row`), counted only when it is one.
    const LOG_ROW_LAST_VERSION: &'static str = "(version + CASE WHEN substr(event, 1, 1) = '[' \
         THEN json_array_length(event::json) - 1 ELSE 0 END)";

    // The record is inserted from the task's insert, so only when the task was.
    const CREATE_TASK_WITH_EXECUTION_AT_ONCE: Option<&'static str> = Some(
        "WITH created AS (INSERT INTO a2a_tasks (id, owner_principal, owner_tenant, context_id, \
         state, terminal, status_micros, timestamped, version, updated_micros, task) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10) ON CONFLICT (id) DO NOTHING \
         RETURNING id) \
         INSERT INTO a2a_executions (task_id, owner_principal, owner_tenant, request, attempts, \
         lease_token, lease_until_micros, a2a_version, a2a_extensions) \
         SELECT id, $2, $3, $11::text, 1, $12::text, $13::bigint, $14::text, $15::text \
         FROM created ON CONFLICT (task_id) DO UPDATE SET request = excluded.request, \
         attempts = 1, lease_token = excluded.lease_token, \
         lease_until_micros = excluded.lease_until_micros, a2a_version = excluded.a2a_version, \
         a2a_extensions = excluded.a2a_extensions",
    );

    fn update_task_with_record_at_once() -> Option<&'static str> {
        // The record is inserted from the update, so only when the task was found; a continued
        // task is not over, so `ended` removes nothing.
        static STATEMENT: std::sync::LazyLock<Option<String>> = std::sync::LazyLock::new(|| {
            <sqlx::Postgres as Dialect>::UPDATE_TASK_AT_ONCE.map(|update| {
                update.replacen(
                    " ended AS (",
                    " recorded AS (INSERT INTO a2a_executions (task_id, owner_principal, \
                     owner_tenant, request, attempts, lease_token, lease_until_micros, \
                     a2a_version, a2a_extensions) SELECT $8, $9, $10, $16::text, 1, $17::text, \
                     $18::bigint, $19::text, $20::text FROM updated ON CONFLICT (task_id) DO \
                     UPDATE SET request = excluded.request, attempts = 1, \
                     lease_token = excluded.lease_token, \
                     lease_until_micros = excluded.lease_until_micros, \
                     a2a_version = excluded.a2a_version, \
                     a2a_extensions = excluded.a2a_extensions), ended AS (",
                    1,
                )
            })
        });
        STATEMENT.as_deref()
    }

    fn announcement(task_id: &str, version: u64) -> String {
        crate::postgres::notify::notification(task_id, version)
    }

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
    }

    async fn expire_slices(
        _reader: &sqlx::Pool<Self>,
        writer: &sqlx::Pool<Self>,
        _slices: &crate::slices::SliceSet,
        now_ms: i64,
        age: std::time::Duration,
        every: std::time::Duration,
    ) -> Result<crate::retention::SliceExpiry, a2a_server::store::StoreError> {
        // The database routes each statement to its partition: the set stays empty.
        crate::postgres::slices::expire_slices(writer, now_ms, age, every).await
    }

    async fn announce(
        tx: &mut Transaction<'static, Self>,
        task_id: &str,
        version: u64,
    ) -> Result<(), sqlx::Error> {
        // Delivered to every listening replica when (and only if) the transaction commits.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(crate::postgres::notify::NOTIFY_CHANNEL)
            .bind(crate::postgres::notify::notification(task_id, version))
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}

#[cfg(all(test, feature = "postgres"))]
mod tests {
    use super::*;

    #[test]
    fn the_update_with_a_record_records_it() {
        let statement = <sqlx::Postgres as Dialect>::update_task_with_record_at_once();
        assert!(statement.is_some_and(|s| s.contains("recorded AS (INSERT INTO a2a_executions")));
    }

    #[test]
    fn the_update_at_once_announces_on_the_channel_the_bus_listens_to() {
        let statement = <sqlx::Postgres as Dialect>::UPDATE_TASK_AT_ONCE.unwrap_or_default();
        assert!(statement.contains(&format!(
            "pg_notify('{}'",
            crate::postgres::notify::NOTIFY_CHANNEL
        )));
    }
}
