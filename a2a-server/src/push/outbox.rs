//! The durable push outbox: deliveries written by the task store in the transaction that logs
//! their event, so a delivery pending at a crash is still made after it, by this replica or
//! another.
//!
//! A store that implements [`PushOutbox`] writes, whenever [`TaskStore::update`](crate::TaskStore::update)
//! logs an event, one outbox entry per push config the task has then (a copy of the config and
//! of the event), in the same transaction. A server given that store as its outbox
//! ([`A2aServerBuilder::push_outbox`](crate::A2aServerBuilder::push_outbox)) then runs a worker
//! that claims due entries with a lease, makes one attempt each, and settles it:
//!
//! | attempt | the entry |
//! |---|---|
//! | delivered (HTTP 2xx) | deleted |
//! | failed, may work later (no connection, timeout, 429, 5xx), attempts left | due again after a backoff (doubling from [`PushSettings::first_backoff`](crate::PushSettings), at most [`PushSettings::max_backoff`](crate::PushSettings)) |
//! | failed for good (4xx, a refused URL), or the last of [`PushSettings::attempts`](crate::PushSettings) | kept as given up, with the reason (and logged) |
//!
//! **At least once**: a lease makes two replicas not attempt one entry at the same time, but a
//! replica that dies between the webhook's answer and deleting the entry leaves it to be claimed
//! again when the lease ends, so a webhook may receive a delivery twice (each carries the task's
//! id and its state, so receivers can tell). An attempt counts when it is claimed, so a delivery
//! that keeps crashing its replica still ends after [`PushSettings::attempts`](crate::PushSettings).

use std::sync::Arc;
use std::time::Duration;

use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};
use async_trait::async_trait;
use tokio::sync::mpsc;

use super::sender::{Attempt, Delivery, PendingEvent, attempt, backoff, delivery_slots};
use super::{PushSettings, WebhookPolicy};
use crate::store::StoreError;

/// One claimed delivery of the outbox.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct OutboxEntry {
    /// The entry's id in the outbox.
    pub id: u64,
    /// The task the event is of.
    pub task_id: String,
    /// The webhook, as configured when the event was logged.
    pub config: TaskPushNotificationConfig,
    /// The event, as streams carry it.
    pub event: StreamResponse,
    /// Attempts made so far, this one included.
    pub attempts: u32,
}

impl OutboxEntry {
    /// An entry as a store reads it back.
    pub fn new(
        id: u64,
        task_id: String,
        config: TaskPushNotificationConfig,
        event: StreamResponse,
        attempts: u32,
    ) -> Self {
        OutboxEntry {
            id,
            task_id,
            config,
            event,
            attempts,
        }
    }
}

/// Deliveries waiting to be made, kept where the task store keeps its events (see the
/// [module docs](self)).
#[async_trait]
pub trait PushOutbox: Send + Sync + 'static {
    /// Claims at most `limit` entries that are due, not given up and not leased: each is leased
    /// to `lease_token` for `lease` (no other claim returns it meanwhile) and its attempts count
    /// one more. Entries come oldest first.
    async fn claim(
        &self,
        lease_token: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<OutboxEntry>, StoreError>;

    /// The entry was delivered: it goes.
    async fn delivered(&self, id: u64) -> Result<(), StoreError>;

    /// The entry is to be tried again after `delay`, if `lease_token` still holds its lease;
    /// `problem` is recorded.
    async fn retry_later(
        &self,
        id: u64,
        lease_token: &str,
        delay: Duration,
        problem: &str,
    ) -> Result<(), StoreError>;

    /// The entry will not be delivered: it is kept as given up with `problem`, if `lease_token`
    /// still holds its lease.
    async fn give_up(&self, id: u64, lease_token: &str, problem: &str) -> Result<(), StoreError>;
}

/// Wakes the outbox worker (after an event was logged) and, once every clone is dropped with the
/// server, ends it.
#[derive(Clone, Debug)]
pub(crate) struct OutboxWaker(mpsc::Sender<()>);

impl OutboxWaker {
    /// Tells the worker that entries may be due; never waits (one pending wake-up is enough).
    pub(crate) fn wake(&self) {
        let _ = self.0.try_send(());
    }
}

/// Starts the worker draining `outbox` (on the current tokio runtime).
pub(crate) fn start_worker(
    outbox: Arc<dyn PushOutbox>,
    policy: WebhookPolicy,
    settings: PushSettings,
    client: reqwest::Client,
) -> OutboxWaker {
    let (waker, wake_ups) = mpsc::channel(1);
    tokio::spawn(run_worker(outbox, policy, settings, client, wake_ups));
    OutboxWaker(waker)
}

async fn run_worker(
    outbox: Arc<dyn PushOutbox>,
    policy: WebhookPolicy,
    settings: PushSettings,
    client: reqwest::Client,
    mut wake_ups: mpsc::Receiver<()>,
) {
    let slots = delivery_slots(&settings);
    loop {
        // Claims only what free slots can attempt at once, so no lease runs out while waiting.
        let free = slots.available_permits().min(settings.claim_batch.max(1));
        let mut claimed_all = false;
        if free > 0 {
            let lease_token = crate::ids::new_id("lease");
            match outbox.claim(&lease_token, settings.lease, free).await {
                Ok(entries) => {
                    claimed_all = entries.len() == free;
                    for entry in entries {
                        let Ok(slot) = slots.clone().acquire_owned().await else {
                            return;
                        };
                        let outbox = outbox.clone();
                        let client = client.clone();
                        let lease_token = lease_token.clone();
                        tokio::spawn(async move {
                            settle(&*outbox, &client, policy, &settings, entry, &lease_token).await;
                            drop(slot);
                        });
                    }
                }
                Err(error) => tracing::warn!(%error, "the push outbox could not be read"),
            }
        }
        if claimed_all {
            // More may be due: claim again as soon as a slot is free.
            if slots.clone().acquire_owned().await.is_err() {
                return;
            }
            continue;
        }
        tokio::select! {
            woken = wake_ups.recv() => if woken.is_none() { return },
            () = tokio::time::sleep(settings.poll_interval) => {}
        }
    }
}

/// Makes one attempt of `entry` and records what came of it.
async fn settle(
    outbox: &dyn PushOutbox,
    client: &reqwest::Client,
    policy: WebhookPolicy,
    settings: &PushSettings,
    entry: OutboxEntry,
    lease_token: &str,
) {
    let delivery = Delivery {
        config: entry.config,
        event: PendingEvent::new(entry.event, None),
        waiting: None,
    };
    let outcome = attempt(client, policy, &delivery).await;
    let url = &delivery.config.url;
    let recorded = match outcome {
        Attempt::Delivered => outbox.delivered(entry.id).await,
        Attempt::Retry(problem) if entry.attempts < settings.attempts.max(1) => {
            tracing::warn!(%url, %problem, attempt = entry.attempts, task_id = %entry.task_id, "push notification attempt failed; retrying later");
            let delay = backoff(settings, entry.attempts);
            outbox
                .retry_later(entry.id, lease_token, delay, &problem)
                .await
        }
        Attempt::Retry(problem) | Attempt::Final(problem) => {
            tracing::warn!(%url, %problem, attempts = entry.attempts, task_id = %entry.task_id, "push notification given up");
            outbox.give_up(entry.id, lease_token, &problem).await
        }
    };
    if let Err(error) = recorded {
        // The lease runs out and the entry is claimed again: at least once.
        tracing::warn!(%error, id = entry.id, "the push outbox could not record an attempt");
    }
}
