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

    /// What the push outbox's claim adds to the select of the rows it takes: on PostgreSQL,
    /// `FOR UPDATE SKIP LOCKED`, so concurrent claims take different rows without waiting.
    const CLAIM_ROW_LOCK: &'static str;

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

    // One writer at a time: the claim's update is atomic as it stands.
    const CLAIM_ROW_LOCK: &'static str = "";

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
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

    const CLAIM_ROW_LOCK: &'static str = " FOR UPDATE SKIP LOCKED";

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
    }

    async fn announce(
        tx: &mut Transaction<'static, Self>,
        task_id: &str,
        version: u64,
    ) -> Result<(), sqlx::Error> {
        // Delivered to every listening replica when (and only if) the transaction commits.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(crate::notify::NOTIFY_CHANNEL)
            .bind(crate::notify::notification(task_id, version))
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}
