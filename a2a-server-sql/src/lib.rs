//! SQLite and PostgreSQL stores for the [`a2a_server`] crate (package `a2a-spec-server`): tasks,
//! their event logs and push-notification configs that survive a restart of the agent, and, on
//! PostgreSQL, streams that follow a task across replicas.
//!
//! | backend | feature | type | event bus |
//! |---|---|---|---|
//! | SQLite, one file, one process | `sqlite` | [`SqliteStore`] | the server's in-process [`InMemoryVersionBus`](a2a_server::InMemoryVersionBus) |
//! | PostgreSQL, shared by replicas | `postgres` | [`PostgresStore`] | [`PostgresVersionBus`] (`LISTEN`/`NOTIFY`) |
//!
//! ```no_run
//! # #[cfg(feature = "sqlite")]
//! # async fn run(card: a2a_types::v1::AgentCard, agent: impl a2a_server::AgentExecutor) -> Result<(), Box<dyn std::error::Error>> {
//! use a2a_server_sql::SqliteStore;
//!
//! let store = SqliteStore::open("tasks.sqlite3").await?; // creates the file, applies the migrations
//! let server = a2a_server::A2aServer::builder(card, agent)
//!     .task_store(store.clone())
//!     .push_config_store(store.clone())
//!     .push_outbox(store.clone()) // webhook deliveries that survive a crash
//!     .execution_queue(store) // executions resumed after a crash
//!     .build();
//! # Ok(()) }
//! ```
//!
//! Each store implements [`TaskStore`](a2a_server::TaskStore) and
//! [`PushConfigStore`](a2a_server::PushConfigStore); a clone shares the connection pool. Both are
//! one [`SqlStore`], written once over `sqlx`'s databases: what differs between them (migrations,
//! two statements, the notification to other replicas) is their [`Dialect`].
//!
//! # Guarantees
//!
//! - **Atomic**: an update writes the task's new state and the event that produced it in one
//!   transaction (on PostgreSQL, the notification to other replicas too: `NOTIFY` is delivered at
//!   commit), so a reader never sees one without the other, and a crash keeps both or neither.
//! - **No lost update**: an update names the version it read (`UPDATE … WHERE version = $n`); a
//!   stale one fails with [`StoreError::Conflict`](a2a_server::store::StoreError::Conflict) and the
//!   server reads again, so two replicas writing one task both land, in some order.
//! - **Writes that queue together commit together**: on SQLite the hot writes, on PostgreSQL the
//!   tasks the agent ended before their first write, go to the database in groups, one
//!   transaction each; a caller is answered once the group holding its write has committed, so
//!   a crash loses nothing a caller was told was stored.
//! - **Streams across replicas** (PostgreSQL): the events table is the source of truth; a
//!   notification only carries a task id and version and wakes the streams of that task on every
//!   replica, which then read the log after the last event they sent: in order, without
//!   duplicates, and a client reconnecting with `Last-Event-ID` on any replica reads the same log.
//!   When the listening connection drops, every stream is woken on reconnection to read what it
//!   may have missed.
//! - **Push deliveries survive a crash**: each store is also a
//!   [`PushOutbox`](a2a_server::PushOutbox). An update that logs an event writes, in the same
//!   transaction, one delivery per push config the task has; a server given the store as its
//!   outbox claims them with a lease (on PostgreSQL `FOR UPDATE SKIP LOCKED`: two replicas never
//!   attempt one delivery at once), deletes each once delivered, retries with bounded backoff, and
//!   keeps the ones it gives up on with the reason ([`SqlStore::outbox_counts`]). At least once: a
//!   replica killed between the webhook's answer and the delete leaves the delivery to be made
//!   again when its lease ends.
//! - **Executions resumed**: each store is also an
//!   [`ExecutionQueue`](a2a_server::ExecutionQueue): a server given it records each execution with
//!   a lease it renews, and a replica claims the executions whose lease ran out (a crashed
//!   replica's; on PostgreSQL `FOR UPDATE SKIP LOCKED`) and runs the executor again (at least
//!   once; see [`a2a_server::store::executions`]). A SQLite file has one process: on opening, the
//!   leases of the process that used it before are ended at once.
//! - **Owners**: every query names the owner; another owner's task is absent.
//! - **One process per SQLite file**: opening locks `<file>.lock` for the store's lifetime; a second
//!   store is refused ([`OpenError::InUse`]).
//! - **Bounded**: retention ([`RetentionPolicy`]) removes tasks that are over (with their events,
//!   configs and outbox deliveries), old events and given-up deliveries. Every store runs
//!   [`RetentionPolicy::recommended`] in the background from the moment it opens, every
//!   [`RETENTION_INTERVAL`]; `with_retention` changes or stops it, and `prune` runs one pass. On
//!   SQLite the writer thread also removes the tasks due with each group of writes it commits
//!   (twice as many as the group's writes at most, in the group's transaction), so a store written
//!   to without pause expires in step with what comes in instead of in one long pass that holds
//!   the single writer. The
//!   outbox holds at most one delivery per config (16 a task) per event logged; a stream whose reader fell behind what is kept ends, as
//!   with the in-memory store. Connections are pooled; a database that does not answer fails a
//!   request after the pool's acquire timeout (10 s) with a clear error, and the next request
//!   reconnects.
//!
//! # Schema
//!
//! Migrations are embedded (`migrations/sqlite`, `migrations/postgres`) and applied when a store
//! opens (PostgreSQL serialises replicas migrating at once with an advisory lock). A release refuses a
//! database that a later release migrated (the migration it does not know is the error): when an upgrade
//! changes what is stored, as `0011` does for bursts in the log, replicas of the earlier release are
//! stopped before those of the later one start. Tasks, events
//! and configs are kept as their ProtoJSON, so a newer protocol's fields survive untouched; the
//! columns beside them are what queries filter on.
//!
//! | table | columns |
//! |---|---|
//! | `a2a_tasks` | `id` (unique), `seq` (creation order), `owner_principal`, `owner_tenant`, `context_id`, `state` (the `TaskState` number), `terminal`, `status_micros` and `timestamped` (`status.timestamp`), `version`, `events_pruned_through`, `updated_micros`, `task` (ProtoJSON) |
//! | `a2a_task_events` | `task_id`, `version` (the SSE id: the task version the event produced), `created_micros`, `event` (the `StreamResponse` ProtoJSON; a status or artifact update of the task itself without its `taskId` and `contextId`, which the row's `task_id` and the task's `context_id` give back when it is read); key `(task_id, version)`; on PostgreSQL a row may hold a burst of events written together, a JSON array of them, the first under the row's version and each next one under the version after |
//! | `a2a_push_configs` | `owner_principal`, `owner_tenant`, `task_id`, `config_id`, `seq` (first-stored order), `config` (ProtoJSON) |
//! | `a2a_executions` | `task_id` (key), `owner_principal`, `owner_tenant`, `request` (the `SendMessageRequest`, ProtoJSON), `attempts`, `lease_token`, `lease_until_micros` |
//! | `a2a_push_outbox` | `id` (order), `task_id`, `config_id`, `event_version` (the delivery's config and logged event, read when it is made), `config` and `event` (empty; copies in rows of older releases), `attempts`, `due_micros` (the backoff), `lease_token` and `lease_until_micros` (the claim), `last_error`, `gave_up_micros` (set once given up) |
//!
//! ListTasks reads the index `(owner_principal, owner_tenant, status_micros DESC, seq DESC)`,
//! newest status first, and continues after its page token's `(status_micros, seq)`.
//!
//! On PostgreSQL, `a2a_tasks` and `a2a_task_events` are partitioned by ranges of task id, and
//! task ids are compared byte by byte (collation `"C"`) in every table: the server's ids begin
//! with the millisecond they were made, so each partition (a *slice*, named
//! `a2a_tasks_<from ms>_<to ms>` and `a2a_task_events_<from ms>_<to ms>`) holds the tasks made in
//! one span of time. The retention pass makes the slices ahead of the tasks (and
//! `with_retention` makes the first at once, starting a minute or so after it is called) and drops
//! a slice whose tasks have all expired as whole tables, which costs a busy store nothing like
//! deleting its rows; a slice is a quarter of `terminal_tasks_after` wide (at most a day; ages under 4
//! minutes make none). Rows no slice covers (those stored before migration `0010`, ids the server
//! did not make) are in each table's default partition, `a2a_tasks_unsliced` and
//! `a2a_task_events_unsliced`, and expire one by one.
//!
//! SQLite has no partitions: there a slice is a pair of tables of its own with the same names,
//! made in the file from the schema of `a2a_tasks` and `a2a_task_events` (which keep the tasks no
//! slice covers). The store routes each statement about one task to its slice's tables by the
//! task's id, and reads the tasks of many ids (ListTasks, its counts) from all the tables at once
//! (`UNION ALL`, merged in the listing index's order). A SQLite slice starts at once where no
//! task is in its way, since the file has one writer; each slice's `seq` starts at its first
//! millisecond times 2^20, so page tokens order tasks the same across tables.

// Without a backend only the shared types remain; the helpers they share are then unused.
#![cfg_attr(
    not(any(feature = "sqlite", feature = "postgres")),
    allow(dead_code, unused_imports)
)]

mod columns;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod cost;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod created_ended;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod dialect;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod driver;
mod errors;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod executions;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod group;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod log_row;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod logged_event;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod outbox;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod outbox_hint;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod prune;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod record;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod records_ended;
mod retention;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod rows;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod slices;
#[cfg(feature = "sqlite")]
mod sqlite;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod store;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod written;

#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub use cost::{STATEMENT_TARGET, TRANSACTION_TARGET};
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub use dialect::Dialect;
pub use errors::OpenError;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub use outbox::OutboxCounts;
#[cfg(feature = "postgres")]
pub use postgres::PostgresStore;
/// The former name of [`PostgresVersionBus`], kept for one release: the bus carries task
/// versions, not events.
#[cfg(feature = "postgres")]
#[doc(hidden)]
pub use postgres::bus::PostgresVersionBus as PostgresEventBus;
#[cfg(feature = "postgres")]
pub use postgres::bus::PostgresVersionBus;
#[cfg(feature = "postgres")]
pub use postgres::notify::NOTIFY_CHANNEL;
pub use retention::{PruneReport, RETENTION_INTERVAL, RetentionPolicy};
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub use store::SqlStore;
