//! The durable push outbox of [`SqlStore`] (table `a2a_push_outbox`; see
//! [`a2a_server::push::outbox`] for what the server does with it): rows written in the
//! transaction of each logged event, claimed with a lease (on PostgreSQL `FOR UPDATE SKIP
//! LOCKED`, so replicas claiming at once take different rows; SQLite has one writer), deleted once
//! delivered, kept with their reason once given up.

use std::time::Duration;

use a2a_server::push::OutboxEntry;
use a2a_server::store::StoreError;
use sqlx::Transaction;

use crate::columns::{config_from_json, now_micros};
use crate::dialect::Dialect;
use crate::driver::sql_store_impl;
use crate::errors::backend;
use crate::log_row;
use crate::logged_event;
use crate::rows::column;
use crate::store::SqlStore;

/// The most deliveries one task may have waiting in the outbox (bound by SQLite's insert and by
/// PostgreSQL's single-statement update alike).
pub(crate) const MAX_PENDING_PER_TASK: i64 = 1024;

/// What the outbox holds, for operators and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutboxCounts {
    /// Deliveries still to be made (claimed or not).
    pub pending: u64,
    /// Deliveries given up on, kept with their reason until their task is pruned.
    pub given_up: u64,
}

/// A duration in microseconds, as the outbox's time columns count.
fn micros(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

/// An outbox id as the server names it (ids are positive).
fn entry_id(column: i64) -> u64 {
    u64::try_from(column).unwrap_or(0)
}

fn id_column(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

// The driver bounds of every generic block are in `driver`.
sql_store_impl! {
impl<D: Dialect> SqlStore<D> {
    /// Inside an update's transaction: one delivery of the event logged as `version` of `task_id`
    /// for each push config the owner's task has; how many. A row names its config and its
    /// event, it does not copy them (its `config` and `event` columns are left empty; rows of
    /// older releases hold copies, which are still read): every delivery of an event shares the
    /// logged event, and the config is the one stored when the delivery is made. A task with
    /// [`MAX_PENDING_PER_TASK`] deliveries waiting gets none for its next events until they are
    /// made or given up (its webhooks are not answering).
    pub(crate) async fn enqueue_deliveries(
        tx: &mut Transaction<'static, D>,
        owner: &a2a_server::Owner,
        task_id: &str,
        version: i64,
        now: i64,
    ) -> Result<u64, StoreError> {
        sqlx::query(
            "INSERT INTO a2a_push_outbox (task_id, config_id, event_version, config, event, due_micros) \
             SELECT task_id, config_id, $1, '', '', $2 FROM a2a_push_configs \
             WHERE owner_principal = $3 AND owner_tenant = $4 AND task_id = $5 \
             AND (SELECT COUNT(*) FROM a2a_push_outbox WHERE task_id = $5 AND gave_up_micros IS NULL) \
             < $6 ORDER BY seq",
        )
        .bind(version)
        .bind(now)
        .bind(&owner.principal)
        .bind(&owner.tenant)
        .bind(task_id.to_owned())
        .bind(MAX_PENDING_PER_TASK)
        .execute(&mut **tx)
        .await
        .map_err(backend)
        .map(|done| D::rows_affected(&done))
    }

    pub(crate) async fn claim_deliveries(
        &self,
        lease_token: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<OutboxEntry>, StoreError> {
        let now = now_micros();
        if !self.shared.outbox.should_claim(now) {
            return Ok(Vec::new());
        }
        // The outer conditions again: on PostgreSQL a row another claim changed meanwhile is
        // checked anew before it is taken.
        let rows = sqlx::query(&format!(
            "UPDATE a2a_push_outbox SET lease_token = $1, lease_until_micros = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM a2a_push_outbox WHERE gave_up_micros IS NULL \
             AND due_micros <= $3 AND lease_until_micros <= $3 ORDER BY id LIMIT $4{}) \
             AND gave_up_micros IS NULL AND lease_until_micros <= $3 \
             RETURNING id, task_id, config, event, attempts, config_id, event_version",
            D::CLAIM_ROW_LOCK
        ))
        .bind(lease_token.to_owned())
        .bind(now.saturating_add(micros(lease)))
        .bind(now)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.writer)
        .await
        .map_err(backend)?;
        if !rows.is_empty() {
            // More may be due (the claim was full), or what was claimed comes back soon (its
            // lease ends, it is put back to retry): the next claim asks.
            self.shared.outbox.queued();
        }
        let mut entries = Vec::with_capacity(rows.len());
        for row in rows {
            let id = entry_id(column(&row, 0, "a push delivery", "")?);
            let task_id: String = column(&row, 1, "push delivery", id)?;
            let config: String = column(&row, 2, "push delivery", id)?;
            let event: String = column(&row, 3, "push delivery", id)?;
            let attempts: i64 = column(&row, 4, "push delivery", id)?;
            let config_id: String = column(&row, 5, "push delivery", id)?;
            let version: i64 = column(&row, 6, "push delivery", id)?;
            // Copies (rows of older releases) hold the whole event; the log may not.
            let (config, event, context_id) = if config.is_empty() || event.is_empty() {
                match self.shared_delivery(&task_id, &config_id, version).await? {
                    Ok(shared) => shared,
                    Err(gone) => {
                        tracing::warn!(gone, id, task_id, "a push delivery is given up");
                        self.give_up_delivery(id, lease_token, gone).await?;
                        continue;
                    }
                }
            } else {
                (config, event, None)
            };
            let parsed = config_from_json(&task_id, &config).and_then(|config| {
                let event = logged_event::from_log(&task_id, context_id.as_deref(), &event)?;
                Ok((config, event))
            });
            match parsed {
                Ok((config, event)) => entries.push(OutboxEntry::new(
                    id,
                    task_id,
                    config,
                    event,
                    u32::try_from(attempts).unwrap_or(u32::MAX),
                )),
                // Unreadable rows cannot be delivered: recorded as given up, not retried.
                Err(problem) => {
                    tracing::warn!(%problem, id, "an unreadable push outbox entry is given up");
                    self.give_up_delivery(id, lease_token, &problem.to_string())
                        .await?;
                }
            }
        }
        entries.sort_by_key(|entry| entry.id);
        Ok(entries)
    }

    /// The config and the logged event a delivery names, with the task's context (the logged
    /// event may leave it out), or why it can no longer be made: the config was deleted, or the
    /// event pruned from the log, before the delivery was attempted.
    async fn shared_delivery(
        &self,
        task_id: &str,
        config_id: &str,
        version: i64,
    ) -> Result<Result<(String, String, Option<String>), &'static str>, StoreError> {
        let tables = self.shared.slices.tables_of(task_id);
        let row = sqlx::query(&tables.route(
            // The event is in the last row of the log at or before its version (a burst's row
            // holds several, see `crate::log_row`).
            "SELECT (SELECT config FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2), \
             (SELECT version FROM a2a_task_events WHERE task_id = $1 AND version <= $3 \
             ORDER BY version DESC LIMIT 1), \
             (SELECT event FROM a2a_task_events WHERE task_id = $1 AND version <= $3 \
             ORDER BY version DESC LIMIT 1), \
             (SELECT context_id FROM a2a_tasks WHERE id = $1)",
        ))
        .bind(task_id.to_owned())
        .bind(config_id.to_owned())
        .bind(version)
        .fetch_one(&self.pool)
        .await
        .map_err(backend)?;
        let config: Option<String> = column(&row, 0, "push delivery", task_id)?;
        let row_version: Option<i64> = column(&row, 1, "push delivery", task_id)?;
        let row_text: Option<String> = column(&row, 2, "push delivery", task_id)?;
        let context_id: Option<String> = column(&row, 3, "push delivery", task_id)?;
        let event = match (row_version, row_text) {
            (Some(at), Some(text)) => {
                log_row::event_in_row(task_id, at, &text, version)?.map(str::to_owned)
            }
            _ => None,
        };
        Ok(match (config, event) {
            (Some(config), Some(event)) => Ok((config, event, context_id)),
            (None, _) => Err("the push config was deleted before the delivery was made"),
            (_, None) => Err("the event was pruned from the task's log before it was delivered"),
        })
    }

    pub(crate) async fn delete_delivery(&self, id: u64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM a2a_push_outbox WHERE id = $1")
            .bind(id_column(id))
            .execute(&self.writer)
            .await
            .map_err(backend)?;
        Ok(())
    }

    pub(crate) async fn retry_delivery_later(
        &self,
        id: u64,
        lease_token: &str,
        delay: Duration,
        problem: &str,
    ) -> Result<(), StoreError> {
        let due = now_micros().saturating_add(micros(delay));
        self.release(id, lease_token, "due_micros", due, problem)
            .await?;
        // Claimable again (at once, with no delay).
        self.shared.outbox.queued();
        Ok(())
    }

    pub(crate) async fn give_up_delivery(
        &self,
        id: u64,
        lease_token: &str,
        problem: &str,
    ) -> Result<(), StoreError> {
        self.release(id, lease_token, "gave_up_micros", now_micros(), problem)
            .await
    }

    /// Ends the lease `lease_token` holds on delivery `id` (nothing, if it holds none: the
    /// delivery is another claim's now), setting the time column `column` and the last error.
    async fn release(
        &self,
        id: u64,
        lease_token: &str,
        column: &str,
        time: i64,
        problem: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "UPDATE a2a_push_outbox SET {column} = $1, lease_token = NULL, \
             lease_until_micros = 0, last_error = $2 WHERE id = $3 AND lease_token = $4"
        ))
        .bind(time)
        .bind(problem.to_owned())
        .bind(id_column(id))
        .bind(lease_token.to_owned())
        .execute(&self.writer)
        .await
        .map_err(backend)?;
        Ok(())
    }

    /// How many deliveries are pending and how many were given up.
    pub async fn outbox_counts(&self) -> Result<OutboxCounts, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) - COUNT(gave_up_micros), COUNT(gave_up_micros) FROM a2a_push_outbox",
        )
        .fetch_one(&self.pool)
        .await
        .map_err(backend)?;
        Ok(OutboxCounts {
            pending: entry_id(column(&row, 0, "the outbox count", "")?),
            given_up: entry_id(column(&row, 1, "the outbox count", "")?),
        })
    }
}
}
