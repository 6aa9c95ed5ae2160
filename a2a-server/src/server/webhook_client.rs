//! The HTTP client of webhook deliveries, built once when the server is built: no proxy and no
//! redirects (the SSRF guard checked this very URL), a resolver that hands it only the addresses the
//! webhook policy allows (so the guard judges the addresses actually connected to), each attempt
//! bounded by the push timeout, and with feature `rustls` the trust of
//! [`ServerConfig::webhook_tls`](crate::ServerConfig::webhook_tls).

use std::sync::Arc;

use crate::config::ServerConfig;
use crate::push::GuardedResolver;
use crate::server::error::BuildError;

/// The webhook client `config` asks for.
pub(crate) fn webhook_client(config: &ServerConfig) -> Result<reqwest::Client, BuildError> {
    let builder = reqwest::Client::builder()
        .timeout(config.push.timeout)
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .dns_resolver(Arc::new(GuardedResolver {
            policy: config.webhook_policy,
        }));
    #[cfg(feature = "rustls")]
    let builder = builder.tls_backend_preconfigured(
        config
            .webhook_tls
            .rustls_config()
            .map_err(BuildError::WebhookTls)?,
    );
    builder
        .build()
        .map_err(|e| BuildError::WebhookClient(e.to_string()))
}
