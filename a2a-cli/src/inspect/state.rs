//! What the inspector keeps for the run: its address and token, the client configuration the
//! command line asked for, one client per agent, binding and version chosen in the page, the tasks
//! seen (for agents without ListTasks), and the exchange log every client reports to.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher as _;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_protocol::service::ProtocolVersion;
use a2a_types::signing::CardVerifier;

use super::record::ExchangeLog;

/// Which agent a client speaks to, on which bindings and versions.
pub type ClientKey = (String, Vec<Binding>, Vec<ProtocolVersion>);

/// The state of one run of `a2a inspect`.
pub struct Inspector {
    /// Where the page is served.
    pub address: SocketAddr,
    /// The secret of this run: the page URL holds it, the API demands it.
    pub token: String,
    /// The agent named on the command line, filled in on the page.
    pub default_url: Option<String>,
    /// The configuration of the command line (headers, bearer token, timeout).
    config: ClientConfig,
    /// The keys of `--jwks`.
    pub verifier: Option<CardVerifier>,
    clients: Mutex<HashMap<ClientKey, A2aClient>>,
    /// The tasks each agent answered with in this run, newest last.
    seen_tasks: Mutex<HashMap<String, Vec<String>>>,
    /// What every client saw on the wire.
    pub log: Arc<ExchangeLog>,
}

impl Inspector {
    pub fn new(
        address: SocketAddr,
        default_url: Option<String>,
        config: ClientConfig,
        verifier: Option<CardVerifier>,
    ) -> Self {
        Inspector {
            address,
            token: fresh_token(),
            default_url,
            config,
            verifier,
            clients: Mutex::default(),
            seen_tasks: Mutex::default(),
            log: Arc::new(ExchangeLog::default()),
        }
    }

    /// The page's URL, with the token.
    pub fn page_url(&self) -> String {
        format!("http://{}/?token={}", self.address, self.token)
    }

    /// The configuration of the command line, each call observed by the exchange log.
    pub fn config(&self) -> ClientConfig {
        let mut config = self.config.clone();
        config.observer = Some(self.log.clone());
        config
    }

    /// The client of `key` made earlier, if any.
    pub fn client(&self, key: &ClientKey) -> Option<A2aClient> {
        lock(&self.clients).get(key).cloned()
    }

    /// Keeps `client` for later calls with `key`.
    pub fn keep_client(&self, key: ClientKey, client: A2aClient) {
        lock(&self.clients).insert(key, client);
    }

    /// Notes that `agent` answered with task `task_id`.
    pub fn saw_task(&self, agent: &str, task_id: &str) {
        let mut seen = lock(&self.seen_tasks);
        let tasks = seen.entry(agent.to_owned()).or_default();
        if !tasks.iter().any(|t| t == task_id) {
            tasks.push(task_id.to_owned());
        }
    }

    /// The tasks `agent` answered with in this run, newest first.
    pub fn seen_tasks(&self, agent: &str) -> Vec<String> {
        let seen = lock(&self.seen_tasks);
        seen.get(agent)
            .map(|tasks| tasks.iter().rev().cloned().collect())
            .unwrap_or_default()
    }
}

/// A mutex's contents; a panic while it was held leaves data that is still usable here.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// 128 unpredictable bits as hex. The standard library's `RandomState` is keyed from the operating
/// system's random source, so its hashes cannot be guessed by another site; no RNG crate is needed.
fn fresh_token() -> String {
    let half = |salt: u64| RandomState::new().hash_one((salt, std::process::id()));
    format!("{:016x}{:016x}", half(1), half(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_differ() {
        let (a, b) = (fresh_token(), fresh_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
