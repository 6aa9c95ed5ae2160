//! Push notifications: each task update is POSTed, as the `StreamResponse` JSON the SDK's server
//! sends, to every webhook registered for the task, with the config's token in
//! `X-A2A-Notification-Token` and its credentials in `Authorization`. One worker delivers in order;
//! a webhook that fails or hangs (5 s) is logged and skipped, never retried.

use std::time::Duration;

use tokio::sync::mpsc;

use super::store::Delivery;

/// The header carrying a push config's token, as the SDK's server and client name it.
pub const NOTIFICATION_TOKEN_HEADER: &str = "X-A2A-Notification-Token";

/// The queue of deliveries, drained by one background worker.
pub struct Pusher {
    queue: mpsc::UnboundedSender<Delivery>,
}

impl Pusher {
    pub fn start() -> Self {
        let (queue, mut deliveries) = mpsc::unbounded_channel::<Delivery>();
        tokio::spawn(async move {
            let client = match reqwest::Client::builder()
                .timeout(Duration::from_secs(5))
                .no_proxy()
                .build()
            {
                Ok(client) => client,
                Err(error) => {
                    eprintln!("a2a-example-agent: no HTTP client for push notifications: {error}");
                    return;
                }
            };
            while let Some((config, event)) = deliveries.recv().await {
                let body = match serde_json::to_vec(&event) {
                    Ok(body) => body,
                    Err(error) => {
                        eprintln!("a2a-example-agent: an event did not serialize: {error}");
                        continue;
                    }
                };
                let mut request = client
                    .post(&config.url)
                    .header(
                        reqwest::header::CONTENT_TYPE,
                        a2a_types::service::MEDIA_TYPE_JSON,
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
                    Ok(response) if response.status().is_success() => {}
                    Ok(response) => eprintln!(
                        "a2a-example-agent: webhook {} answered {}",
                        config.url,
                        response.status()
                    ),
                    Err(error) => {
                        eprintln!("a2a-example-agent: webhook {} failed: {error}", config.url)
                    }
                }
            }
        });
        Pusher { queue }
    }

    /// Queues one delivery.
    pub fn deliver(&self, delivery: Delivery) {
        let _ = self.queue.send(delivery);
    }
}
