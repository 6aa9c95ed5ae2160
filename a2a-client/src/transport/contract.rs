//! What every transport shares, whichever binding and protocol version it speaks: the metadata of a
//! call ([`CallMeta`]), the HTTP client the HTTP transports (and the card resolver) send with, and the
//! base URL and decode budget of an HTTP interface ([`Common`]).

use a2a_types::limits::Limits;

use crate::config::ClientConfig;
use crate::error::ClientError;
use crate::http::with_query;

/// What one request carries besides its body: service parameters, credentials, trace context.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallMeta {
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
}

/// What every HTTP request of the client carries.
#[derive(Clone, Debug)]
pub(crate) struct Common {
    http: reqwest::Client,
    base_url: String,
    limits: Limits,
}

impl Common {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        Common {
            http,
            base_url: url.trim_end_matches('/').to_owned(),
            limits,
        }
    }

    pub(crate) fn request(
        &self,
        method: reqwest::Method,
        url: &str,
        meta: &CallMeta,
    ) -> reqwest::RequestBuilder {
        let url = with_query(url, &meta.query);
        let mut request = self.http.request(method, url);
        for (name, value) in &meta.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        request
    }

    pub(crate) fn base_url(&self) -> &str {
        &self.base_url
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// The configured HTTP client, or one built with the connect timeout.
pub(crate) fn http_client(config: &ClientConfig) -> Result<reqwest::Client, ClientError> {
    if let Some(http) = &config.http_client {
        return Ok(http.clone());
    }
    let builder = reqwest::Client::builder().connect_timeout(config.connect_timeout);
    #[cfg(feature = "rustls")]
    let builder =
        builder.tls_backend_preconfigured(crate::tls::Trust::of(config)?.rustls_config()?);
    builder
        .build()
        .map_err(|e| ClientError::transport(None, format!("building the HTTP client: {e}")))
}
