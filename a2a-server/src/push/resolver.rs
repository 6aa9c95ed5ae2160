//! The webhook client's DNS resolver: it resolves a host name and hands the client only the addresses
//! the [`WebhookPolicy`] allows, so the check is made on the very addresses the client connects to.
//! A name that resolved to a public address when its delivery was checked and to an internal one a
//! moment later (DNS rebinding) gets no connection.

use std::fmt;
use std::net::SocketAddr;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::WebhookPolicy;

/// Why a webhook host was refused: every address it resolves to is one the policy refuses. A
/// delivery that meets it is not retried (the policy will not change its mind).
#[derive(Debug)]
pub(crate) struct HostRefused(pub(crate) String);

impl fmt::Display for HostRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HostRefused {}

impl HostRefused {
    /// The refusal somewhere in an error's chain of sources, as reqwest wraps a resolver's error.
    pub(crate) fn in_chain<'e>(error: &'e (dyn std::error::Error + 'static)) -> Option<&'e Self> {
        let mut current = Some(error);
        while let Some(error) = current {
            if let Some(refused) = error.downcast_ref::<Self>() {
                return Some(refused);
            }
            current = error.source();
        }
        None
    }
}

/// Resolves with the system resolver, then keeps only the addresses `policy` allows; with none
/// left, resolution fails naming the first refused address.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GuardedResolver {
    pub(crate) policy: WebhookPolicy,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            // Port 0: the client puts the URL's port on whatever is returned.
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut allowed = Vec::new();
            let mut first_refusal = None;
            for address in resolved {
                match policy.check_ip(address.ip()) {
                    Ok(()) => allowed.push(address),
                    Err(why) => {
                        first_refusal.get_or_insert(why);
                    }
                }
            }
            if allowed.is_empty() {
                let why = first_refusal.unwrap_or_else(|| "it resolves to no address".to_owned());
                return Err(Box::new(HostRefused(format!("{host}: {why}"))) as _);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    /// A webhook on a loopback listener, named `localhost`: with a policy that refuses loopback the
    /// client never connects (the listener accepts nothing), and the error names the refusal; with
    /// one that allows it, the same request reaches the listener. Nothing leaves the machine: the
    /// only name resolved is `localhost`, the only address is the test's own listener.
    #[tokio::test]
    async fn the_client_connects_only_to_addresses_the_policy_allows() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://localhost:{port}/hook");
        let client = |policy: WebhookPolicy| {
            reqwest::Client::builder()
                .no_proxy()
                .timeout(Duration::from_secs(5))
                .dns_resolver(Arc::new(GuardedResolver { policy }))
                .build()
                .unwrap()
        };
        let refusing = WebhookPolicy {
            allow_http: true,
            ..WebhookPolicy::default()
        };
        let error = client(refusing).post(&url).send().await.unwrap_err();
        let refused = HostRefused::in_chain(&error).expect("the refusal is in the error's chain");
        assert!(refused.0.contains("loopback"), "{refused}");
        let accepted = tokio::time::timeout(Duration::from_millis(300), listener.accept()).await;
        assert!(accepted.is_err(), "a refused webhook was connected to");

        let allowing = WebhookPolicy::local_development();
        let sent = tokio::spawn(async move { client(allowing).post(&url).send().await });
        let accepted = tokio::time::timeout(Duration::from_secs(5), listener.accept()).await;
        assert!(accepted.is_ok(), "an allowed webhook was not connected to");
        sent.abort();
    }
}
