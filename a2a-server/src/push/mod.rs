//! Push notifications: where configs live ([`PushConfigStore`], in memory by default), which webhook
//! URLs are accepted ([`WebhookPolicy`], an SSRF guard), and the delivery of task updates: by
//! default a bounded queue in the server's process drained by a background worker (`sender`),
//! or, with a store that keeps one, a durable outbox written with each event ([`outbox`]), whose
//! deliveries survive a crash.
//!
//! Each update of a task is POSTed, as the `StreamResponse` JSON a stream carries, to every webhook
//! registered for the task, with the config's token in `X-A2A-Notification-Token` and its
//! credentials in `Authorization: <scheme> <credentials>`. A delivery that fails (no connection, a
//! timeout, HTTP 429 or 5xx) is retried with exponential backoff; other answers are final. Delivery
//! never blocks or fails the task: deliveries run a bounded number at a time; in memory they wait in
//! a bounded queue and are dropped (and logged) when it is full, in an outbox they wait in the
//! store. Deliveries to one webhook may arrive
//! out of order when one is retried; each carries its task's full state of that moment.
//!
//! Webhook URLs must be `https` (plain `http` only when the policy allows it) and must not point at
//! loopback, private, link-local or otherwise internal addresses unless the policy allows them
//! (every IPv6 spelling of an IPv4 address is judged as that address). A host name is checked
//! again on each delivery, and the webhook client connects only to the addresses its resolver
//! let through, so a name that resolves elsewhere the second time gets no connection.

mod addresses;
pub mod outbox;
mod resolver;
mod sender;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_types::v1::TaskPushNotificationConfig;
use async_trait::async_trait;
use reqwest::Url;

pub use outbox::{OutboxEntry, PushOutbox};
pub(crate) use outbox::{OutboxWaker, start_worker as start_outbox_worker};
pub(crate) use resolver::GuardedResolver;
pub(crate) use sender::{Delivery, PendingEvent, PushSender};

use crate::auth::Owner;
use crate::errors::invalid;
use crate::store::StoreError;
use addresses::AddressKind;

/// The header carrying a push config's token, as the official SDKs (Python and JavaScript) name
/// it. The specification names no header for the token (section 4.3.3 asks only for the
/// credentials, in `Authorization`); the server sends it anyway, so that a webhook written for
/// agents built on those SDKs finds the token it registered where they put it.
pub const NOTIFICATION_TOKEN_HEADER: &str = "X-A2A-Notification-Token";

/// Push-notification configs, by owner and task.
#[async_trait]
pub trait PushConfigStore: Send + Sync + 'static {
    /// Stores a config (its `id` and `taskId` set), replacing one of the same id.
    async fn save(
        &self,
        owner: &Owner,
        config: TaskPushNotificationConfig,
    ) -> Result<(), StoreError>;

    /// One config of a task.
    async fn get(
        &self,
        owner: &Owner,
        task_id: &str,
        id: &str,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError>;

    /// Every config of a task, in the order they were first stored.
    async fn list(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Vec<TaskPushNotificationConfig>, StoreError>;

    /// Removes a config (removing one that is not there is no error).
    async fn delete(&self, owner: &Owner, task_id: &str, id: &str) -> Result<(), StoreError>;
}

/// The configs of one task, with the time (a counter) they were first stored.
type TaskConfigs = (u64, Vec<TaskPushNotificationConfig>);
/// Every task's configs by owner and task id, and the counter.
type ConfigMap = (HashMap<(Owner, String), TaskConfigs>, u64);

/// Configs in memory: at most [`InMemoryPushConfigStore::MAX_PER_TASK`] per task and
/// [`InMemoryPushConfigStore::MAX_TASKS`] tasks with configs (the oldest task's configs go first).
#[derive(Default)]
pub struct InMemoryPushConfigStore {
    inner: Mutex<ConfigMap>,
}

impl InMemoryPushConfigStore {
    /// Configs one task may have.
    pub const MAX_PER_TASK: usize = 16;
    /// Tasks with configs kept at once.
    pub const MAX_TASKS: usize = 10_000;

    /// An empty store.
    pub fn new() -> Self {
        InMemoryPushConfigStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, ConfigMap> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl PushConfigStore for InMemoryPushConfigStore {
    async fn save(
        &self,
        owner: &Owner,
        config: TaskPushNotificationConfig,
    ) -> Result<(), StoreError> {
        let mut guard = self.lock();
        let (map, clock) = &mut *guard;
        *clock += 1;
        let key = (owner.clone(), config.task_id.clone().unwrap_or_default());
        if !map.contains_key(&key) && map.len() >= Self::MAX_TASKS {
            let oldest = map
                .iter()
                .min_by_key(|(_, (c, _))| *c)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                map.remove(&oldest);
            }
        }
        let (_, configs) = map.entry(key).or_insert_with(|| (*clock, Vec::new()));
        match configs.iter().position(|c| c.id == config.id) {
            Some(at) => configs[at] = config,
            None if configs.len() >= Self::MAX_PER_TASK => {
                return Err(StoreError::Backend(format!(
                    "a task takes at most {} push notification configs",
                    Self::MAX_PER_TASK
                )));
            }
            None => configs.push(config),
        }
        Ok(())
    }

    async fn get(
        &self,
        owner: &Owner,
        task_id: &str,
        id: &str,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError> {
        let guard = self.lock();
        let key = (owner.clone(), task_id.to_owned());
        Ok(guard.0.get(&key).and_then(|(_, configs)| {
            configs
                .iter()
                .find(|c| c.id.as_deref() == Some(id))
                .cloned()
        }))
    }

    async fn list(
        &self,
        owner: &Owner,
        task_id: &str,
    ) -> Result<Vec<TaskPushNotificationConfig>, StoreError> {
        let guard = self.lock();
        let key = (owner.clone(), task_id.to_owned());
        Ok(guard
            .0
            .get(&key)
            .map(|(_, c)| c.clone())
            .unwrap_or_default())
    }

    async fn delete(&self, owner: &Owner, task_id: &str, id: &str) -> Result<(), StoreError> {
        let mut guard = self.lock();
        let key = (owner.clone(), task_id.to_owned());
        if let Some((_, configs)) = guard.0.get_mut(&key) {
            configs.retain(|c| c.id.as_deref() != Some(id));
            if configs.is_empty() {
                guard.0.remove(&key);
            }
        }
        Ok(())
    }
}

/// Which webhook URLs the server accepts and calls. The default accepts `https` URLs of public
/// hosts only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WebhookPolicy {
    /// Accept plain `http://` URLs too.
    pub allow_http: bool,
    /// Accept loopback hosts (`127.0.0.0/8`, `::1`, `localhost`).
    pub allow_loopback: bool,
    /// Accept private, link-local, shared and other non-public addresses (`10.0.0.0/8`,
    /// `169.254.0.0/16`, `fc00::/7`, ...).
    pub allow_private: bool,
}

impl WebhookPolicy {
    /// The policy of a server whose webhooks run on the same machine, for development and tests:
    /// `http` and loopback accepted, other internal addresses still refused.
    pub fn local_development() -> Self {
        WebhookPolicy {
            allow_http: true,
            allow_loopback: true,
            allow_private: false,
        }
    }

    /// Checks a webhook URL when a config is created; the error is `InvalidParams` naming `url`.
    pub fn check_url(&self, url: &str) -> Result<Url, Error> {
        let refuse = |why: String| invalid("url", format!("{url:?}: {why}"));
        let parsed = Url::parse(url).map_err(|e| refuse(format!("not a URL ({e})")))?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.allow_http => {}
            "http" => return Err(refuse("webhooks must use https".into())),
            other => return Err(refuse(format!("the scheme {other} is not http(s)"))),
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(refuse(
                "credentials go in the config's authentication, not the URL".into(),
            ));
        }
        match parsed.host() {
            None => return Err(refuse("the URL names no host".into())),
            Some(url::Host::Domain(domain)) => {
                let domain = domain.trim_end_matches('.').to_ascii_lowercase();
                if (domain == "localhost" || domain.ends_with(".localhost")) && !self.allow_loopback
                {
                    return Err(refuse("loopback hosts are not accepted".into()));
                }
            }
            Some(url::Host::Ipv4(ip)) => self.check_ip(IpAddr::V4(ip)).map_err(refuse)?,
            Some(url::Host::Ipv6(ip)) => self.check_ip(IpAddr::V6(ip)).map_err(refuse)?,
        }
        Ok(parsed)
    }

    /// Whether the server may connect to this address: judged by the IANA special-purpose
    /// registries, after unwrapping every IPv6 form that carries an IPv4 address (see
    /// `push::addresses`).
    pub fn check_ip(&self, ip: IpAddr) -> Result<(), String> {
        match addresses::classify(ip) {
            AddressKind::Public => Ok(()),
            AddressKind::Loopback if self.allow_loopback => Ok(()),
            AddressKind::Loopback => Err(format!("{ip} is a loopback address")),
            AddressKind::Internal(_) if self.allow_private => Ok(()),
            AddressKind::Internal(range) => Err(format!("{ip} is not a public address ({range})")),
        }
    }
}

/// How deliveries are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PushSettings {
    /// Deliveries waiting at most in the in-process queue (1,024 by default); more are dropped.
    /// (An outbox keeps its waiting deliveries in the store.)
    pub queue: usize,
    /// In process: deliveries one owner may have waiting at once (256); more of its are dropped
    /// (logged), others' are not.
    pub queue_per_owner: usize,
    /// Deliveries in flight at once (16).
    pub concurrency: usize,
    /// In process: attempts one owner's deliveries may have in flight at once (4), so webhooks
    /// that never answer hold up only their owner's deliveries.
    pub concurrency_per_owner: usize,
    /// Attempts per delivery (8: the first and seven retries, about 32 s of them with the
    /// default backoffs).
    pub attempts: u32,
    /// The wait before the first retry, doubled before each next one (250 ms).
    pub first_backoff: Duration,
    /// The longest wait between two attempts (60 s).
    pub max_backoff: Duration,
    /// The longest one attempt may take (10 s).
    pub timeout: Duration,
    /// Outbox: how long a claimed delivery is reserved for the replica that claimed it (30 s;
    /// longer than `timeout`, so a live attempt keeps its claim). A delivery whose replica died
    /// mid-attempt is claimed again once this has passed.
    pub lease: Duration,
    /// Outbox: deliveries claimed at most at once (32).
    pub claim_batch: usize,
    /// Outbox: how often it is read when nothing wakes the worker (1 s); a retry waits at least
    /// this long, and a delivery left by another replica is found within it.
    pub poll_interval: Duration,
    /// The largest push config accepted, as ProtoJSON bytes (16 KiB: room for a URL, a token and
    /// a JWT in the credentials); a bigger one is refused naming its largest field. Every
    /// delivery carries its config, so this bounds what a waiting delivery holds.
    pub max_config_bytes: usize,
    /// In process (no outbox): bytes of events waiting for their webhooks, in all (128 MiB). The
    /// deliveries of one event share it; an event that does not fit is not delivered (logged),
    /// as a delivery over the queue is.
    pub max_pending_bytes: usize,
    /// The part of [`max_pending_bytes`](Self::max_pending_bytes) one owner's events may hold
    /// (32 MiB), so a caller whose webhooks do not answer cannot take every other owner's room.
    pub max_pending_bytes_per_owner: usize,
}

impl Default for PushSettings {
    fn default() -> Self {
        PushSettings {
            queue: 1024,
            queue_per_owner: 256,
            concurrency: 16,
            concurrency_per_owner: 4,
            attempts: 8,
            first_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(60),
            timeout: Duration::from_secs(10),
            lease: Duration::from_secs(30),
            claim_batch: 32,
            poll_interval: Duration::from_secs(1),
            max_config_bytes: 16 * 1024,
            max_pending_bytes: 128 * 1024 * 1024,
            max_pending_bytes_per_owner: 32 * 1024 * 1024,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_policy_takes_public_https_only() {
        let policy = WebhookPolicy::default();
        for ok in [
            "https://example.com/webhook",
            "https://hooks.example.org:8443/a?b=c",
            "https://93.184.216.34/hook",
        ] {
            assert!(policy.check_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://example.com/hook",
            "https://10.0.0.1/hook",
            "https://169.254.169.254/latest/meta-data",
            "https://127.0.0.1:9000/hook",
            "https://[::1]/hook",
            "https://[::ffff:10.0.0.1]/hook",
            "https://[::10.0.0.1]/hook",
            "https://[::169.254.169.254]/latest/meta-data",
            "https://[64:ff9b::a9fe:a9fe]/hook",
            "https://[64:ff9b:1::a00:1]/hook",
            "https://[2002:a9fe:a9fe::]/hook",
            "https://[::ffff:0:a00:1]/hook",
            "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
            "https://[100::1]/hook",
            "https://[fd00::1]/hook",
            "https://localhost/hook",
            "https://100.64.0.1/hook",
            "https://0.0.0.0/hook",
            "https://user:pw@example.com/hook",
            "ftp://example.com/hook",
            "not a url",
        ] {
            let error = policy.check_url(bad).unwrap_err();
            assert_eq!(error.field_violations[0].field, "url", "{bad}");
        }
    }

    #[test]
    fn local_development_allows_loopback_but_not_other_internal_addresses() {
        let policy = WebhookPolicy::local_development();
        assert!(policy.check_url("http://127.0.0.1:9000/hook").is_ok());
        assert!(policy.check_url("http://localhost/hook").is_ok());
        assert!(policy.check_url("http://10.0.0.1/hook").is_err());
        assert!(policy.check_url("http://169.254.169.254/").is_err());
    }
}
