//! Making deliveries: one attempt ([`attempt`]: the SSRF check of the resolved host, the POST with
//! the config's token and credentials, and what the answer means), and the in-process queue of a
//! server without a durable outbox ([`PushSender`]: bounded in all and per owner, drained by a
//! background worker that retries with backoff and drops what does not fit, logged). In process,
//! an owner has at most [`PushSettings::queue_per_owner`] deliveries waiting and
//! [`PushSettings::concurrency_per_owner`] attempts in flight, so webhooks that never answer hold
//! up only their owner's deliveries.

use std::sync::Arc;

use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};
use tokio::sync::{Semaphore, mpsc};

use super::resolver::HostRefused;
use super::{NOTIFICATION_TOKEN_HEADER, PushSettings, WebhookPolicy};
use crate::auth::Owner;
use crate::core::owner_quota::{HeldBytes, OwnerQuota};
use crate::core::owner_slots::OwnerSlot;

/// One delivery: this event, to this webhook. The deliveries of one event to a task's webhooks
/// share it (and the room it holds in the owner's share of pending bytes).
#[derive(Debug)]
pub(crate) struct Delivery {
    pub(crate) config: TaskPushNotificationConfig,
    pub(crate) event: Arc<PendingEvent>,
    /// In process: whose it is, and its place among the owner's waiting deliveries.
    pub(crate) waiting: Option<(Owner, OwnerSlot)>,
}

/// An event waiting for its webhooks, counted against its owner's pending bytes (in process) or
/// read back from the outbox (`held` is `None`: the store holds it).
#[derive(Debug)]
pub(crate) struct PendingEvent {
    pub(crate) event: StreamResponse,
    _held: Option<HeldBytes>,
}

impl PendingEvent {
    pub(crate) fn new(event: StreamResponse, held: Option<HeldBytes>) -> Arc<Self> {
        Arc::new(PendingEvent { event, _held: held })
    }
}

/// What one attempt came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Attempt {
    /// The webhook took it (HTTP 2xx).
    Delivered,
    /// It may work later (no connection, a timeout, HTTP 429 or 5xx); why.
    Retry(String),
    /// It never will (a refused URL, HTTP 4xx, an event that does not serialize); why.
    Final(String),
}

/// The slots that bound how many deliveries a worker has in flight at once.
pub(crate) fn delivery_slots(settings: &PushSettings) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(settings.concurrency.max(1)))
}

/// The wait before the attempt after `attempts` failed ones: the first backoff doubled each time,
/// never more than the largest backoff.
pub(crate) fn backoff(settings: &PushSettings, attempts: u32) -> std::time::Duration {
    let doublings = attempts.saturating_sub(1).min(31);
    settings
        .first_backoff
        .saturating_mul(1 << doublings)
        .min(settings.max_backoff)
}

/// The queue of deliveries and the worker draining it.
#[derive(Clone, Debug)]
pub(crate) struct PushSender {
    queue: mpsc::Sender<Delivery>,
}

impl PushSender {
    /// Starts the worker (on the current tokio runtime), delivering with `client`
    /// (the webhook client built with the server).
    pub(crate) fn start(
        policy: WebhookPolicy,
        settings: PushSettings,
        client: reqwest::Client,
    ) -> Self {
        let (queue, mut deliveries) = mpsc::channel::<Delivery>(settings.queue.max(1));
        let in_flight = OwnerQuota::counting(
            "webhook attempts",
            settings.concurrency.max(1),
            settings.concurrency_per_owner.max(1),
        );
        tokio::spawn(async move {
            // One task per delivery, each waiting for a slot of its owner's: as many as there are
            // waiting deliveries, which the per-owner and total caps of `queue` bound.
            while let Some(delivery) = deliveries.recv().await {
                let (client, in_flight) = (client.clone(), in_flight.clone());
                tokio::spawn(async move {
                    deliver_with_retries(&client, policy, settings, &in_flight, delivery).await;
                });
            }
        });
        PushSender { queue }
    }

    /// Queues one delivery; drops it (logged) when the queue is full.
    pub(crate) fn send(&self, delivery: Delivery) {
        if let Err(error) = self.queue.try_send(delivery) {
            tracing::warn!(%error, "push notification dropped: the delivery queue is full");
        }
    }
}

/// One POST of `delivery` to its webhook.
pub(crate) async fn attempt(
    client: &reqwest::Client,
    policy: WebhookPolicy,
    delivery: &Delivery,
) -> Attempt {
    let Delivery { config, event, .. } = delivery;
    let url = match policy.check_url(&config.url) {
        Ok(url) => url,
        Err(error) => return Attempt::Final(format!("webhook refused: {}", error.message)),
    };
    let body = match serde_json::to_vec(&event.event) {
        Ok(body) => body,
        Err(error) => return Attempt::Final(format!("the event did not serialize: {error}")),
    };
    let mut request = client
        .post(url)
        .header(
            reqwest::header::CONTENT_TYPE,
            a2a_protocol::service::MEDIA_TYPE_JSON,
        )
        .body(body);
    if let Some(token) = config.token.as_deref().filter(|t| !t.is_empty()) {
        request = request.header(NOTIFICATION_TOKEN_HEADER, token);
    }
    if let Some(auth) = &config.authentication
        && let Some(credentials) = auth.credentials.as_deref().filter(|c| !c.is_empty())
    {
        request = request.header(
            reqwest::header::AUTHORIZATION,
            format!("{} {credentials}", auth.scheme),
        );
    }
    match request.send().await {
        Ok(response) if response.status().is_success() => Attempt::Delivered,
        Ok(response) => {
            let status = response.status();
            let problem = format!("the webhook answered {status}");
            if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
                Attempt::Retry(problem)
            } else {
                Attempt::Final(problem)
            }
        }
        // The client's resolver refused every address of the host: final, as a refused URL is.
        Err(error) => match HostRefused::in_chain(&error) {
            Some(refused) => Attempt::Final(format!("webhook refused: {refused}")),
            None => Attempt::Retry(format!("the delivery failed: {error}")),
        },
    }
}

/// The in-process delivery: attempts with backoff, in memory, until one succeeds or the attempts
/// run out (logged).
async fn deliver_with_retries(
    client: &reqwest::Client,
    policy: WebhookPolicy,
    settings: PushSettings,
    in_flight: &Arc<OwnerQuota>,
    delivery: Delivery,
) {
    let attempts = settings.attempts.max(1);
    let anonymous = Owner::default();
    let owner = delivery
        .waiting
        .as_ref()
        .map_or(&anonymous, |(owner, _)| owner);
    for attempt_number in 1..=attempts {
        // In flight only while attempting, not while waiting for the next attempt.
        let slot = in_flight.hold(owner, 1).await;
        let outcome = attempt(client, policy, &delivery).await;
        drop(slot);
        let problem = match outcome {
            Attempt::Delivered => return,
            Attempt::Final(problem) => {
                tracing::warn!(url = %delivery.config.url, %problem, attempt = attempt_number, "push notification not delivered");
                return;
            }
            Attempt::Retry(problem) => problem,
        };
        tracing::warn!(url = %delivery.config.url, %problem, attempt = attempt_number, "push notification attempt failed");
        if attempt_number < attempts {
            tokio::time::sleep(backoff(&settings, attempt_number)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_backoff_doubles_from_the_first_and_stops_at_the_largest() {
        let settings = PushSettings {
            first_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(3),
            ..PushSettings::default()
        };
        let waits: Vec<_> = (1..=6).map(|n| backoff(&settings, n)).collect();
        assert_eq!(
            waits,
            [250, 500, 1000, 2000, 3000, 3000].map(Duration::from_millis)
        );
        assert_eq!(backoff(&settings, u32::MAX), Duration::from_secs(3));
    }
}
