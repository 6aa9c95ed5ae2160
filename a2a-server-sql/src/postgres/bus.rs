//! [`PostgresVersionBus`]: each new task version, to the streams of every replica, over
//! PostgreSQL's `LISTEN`/`NOTIFY`.
//!
//! A notification is sent by [`PostgresStore`] inside the transaction that writes the event
//! (PostgreSQL delivers it at commit; its form is in `notify`), and wakes the task's streams,
//! which read the events table after the last event they sent. While the listening connection is
//! down, notifications are lost; on reconnection every watched task is woken so that its streams
//! read what they missed. The watchers are the server crate's
//! [`VersionWatchers`](a2a_server::versions::VersionWatchers), as in its in-process bus.

use std::sync::Arc;
use std::time::Duration;

use a2a_server::versions::{HandedEvent, VersionBus, VersionWatch, VersionWatchers, WritingHere};
use sqlx::postgres::{PgListener, PgPool};

use crate::errors::OpenError;
use crate::postgres::PostgresStore;
use crate::postgres::notify::{NOTIFY_CHANNEL, dispatch};

/// Ends the listening task when the bus goes.
#[derive(Debug)]
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The [`VersionBus`] of replicas sharing one PostgreSQL: a stream on any replica learns of every
/// version any replica writes through a [`PostgresStore`] (see the [crate docs](crate)).
#[derive(Debug, Clone)]
pub struct PostgresVersionBus {
    watchers: Arc<VersionWatchers>,
    _listener: Arc<AbortOnDrop>,
}

impl PostgresVersionBus {
    /// Starts listening on the store's database (one connection of its pool, held while the bus
    /// lives); fails if the first `LISTEN` does.
    pub async fn start(store: &PostgresStore) -> Result<Self, OpenError> {
        let watchers = Arc::new(VersionWatchers::new());
        let pool = store.pool().clone();
        let first = listen(&pool).await.map_err(OpenError::Connect)?;
        let listening = tokio::spawn(run_listener(pool, first, watchers.clone()));
        Ok(PostgresVersionBus {
            watchers,
            _listener: Arc::new(AbortOnDrop(listening)),
        })
    }
}

impl VersionBus for PostgresVersionBus {
    fn publish(&self, task_id: &str, version: u64) {
        // This replica's own streams hear at once; the others through the notification the
        // store sent when it committed.
        self.watchers.publish(task_id, version);
    }

    fn subscribe(&self, task_id: &str) -> VersionWatch {
        self.watchers.subscribe(task_id)
    }

    fn watched_here(&self, task_id: &str) -> bool {
        self.watchers.watched_here(task_id)
    }

    fn writing_here(&self, task_id: &str) -> Option<WritingHere> {
        // The store's notification of this write comes back through `LISTEN`, often before the
        // writer has handed its events over: it waits for them instead of making the task's
        // streams read the log.
        self.watchers.writing_here(task_id)
    }

    fn publish_events(&self, task_id: &str, events: Vec<HandedEvent>) {
        // As for `publish`: the other replicas hear of the last version through the store's
        // notification, and read the events from the log.
        self.watchers.publish_events(task_id, events);
    }
}

async fn listen(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(NOTIFY_CHANNEL).await?;
    Ok(listener)
}

async fn run_listener(pool: PgPool, first: PgListener, watchers: Arc<VersionWatchers>) {
    let mut listener = Some(first);
    loop {
        let Some(mut current) = listener.take() else {
            match listen(&pool).await {
                Ok(reconnected) => {
                    tracing::info!("task notifications: listening again");
                    // What was committed while no one listened is in the log: every stream
                    // reads it now.
                    watchers.wake_all();
                    listener = Some(reconnected);
                }
                Err(error) => {
                    tracing::warn!(%error, "task notifications: cannot listen; retrying in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            continue;
        };
        match current.try_recv().await {
            Ok(Some(notification)) => {
                dispatch(&watchers, notification.payload());
                listener = Some(current);
            }
            Ok(None) => tracing::warn!("task notifications: the connection was lost"),
            Err(error) => tracing::warn!(%error, "task notifications: the listener failed"),
        }
    }
}
