//! The HTTP client of webhook deliveries, built once when the server is built: no proxy and no
//! redirects (the SSRF guard checked this very URL and the addresses it resolves to), each attempt
//! bounded by the push timeout, and with feature `rustls` the trust of
//! [`ServerConfig::webhook_tls`](crate::ServerConfig::webhook_tls).

use crate::config::ServerConfig;
use crate::server::error::BuildError;

/// The webhook client `config` asks for.
pub(crate) fn webhook_client(config: &ServerConfig) -> Result<reqwest::Client, BuildError> {
    let builder = reqwest::Client::builder()
        .timeout(config.push.timeout)
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none());
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
