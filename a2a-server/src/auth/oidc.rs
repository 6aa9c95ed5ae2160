//! OpenID Connect discovery (OpenID Connect Discovery 1.0 section 4): the provider's metadata at
//! `{issuer}/.well-known/openid-configuration`, read for its `jwks_uri` and `token_endpoint`, with the
//! issuer it names checked against the one configured.

use std::fmt;
use std::time::Duration;

/// The largest discovery document or key set read (both are a few KiB).
const MAX_DOCUMENT: usize = 1 << 20;

/// Why the provider could not be used: its URL, and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryError {
    /// The URL that was read (or refused).
    pub url: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.url, self.message)
    }
}

impl std::error::Error for DiscoveryError {}

/// What discovery found about an OpenID provider.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OidcProvider {
    /// The issuer (`iss` of its tokens), as configured and as the provider names itself.
    pub issuer: String,
    /// The discovery document's URL (what the card's `openIdConnectUrl` says).
    pub discovery_url: String,
    /// Where its signing keys are.
    pub jwks_uri: String,
    /// Its token endpoint, when it has one.
    pub token_endpoint: Option<String>,
}

impl OidcProvider {
    /// Reads the discovery document of `issuer` with `http`. The issuer must be `https`, or `http` on
    /// a loopback address (a provider run beside the agent for development and tests).
    pub async fn discover(http: &reqwest::Client, issuer: &str) -> Result<Self, DiscoveryError> {
        let issuer = issuer.trim_end_matches('/').to_owned();
        let discovery_url = format!("{issuer}/.well-known/openid-configuration");
        check_url(&discovery_url)?;
        let document = fetch_json(http, &discovery_url).await?;
        let error = |message: String| DiscoveryError {
            url: discovery_url.clone(),
            message,
        };
        let named = document["issuer"]
            .as_str()
            .ok_or_else(|| error("the document has no `issuer`".into()))?;
        // Section 4.3: the issuer in the document must be the one asked for, exactly.
        if named.trim_end_matches('/') != issuer {
            return Err(error(format!(
                "the document names the issuer {named:?}, not {issuer:?}"
            )));
        }
        let jwks_uri = document["jwks_uri"]
            .as_str()
            .ok_or_else(|| error("the document has no `jwks_uri`".into()))?
            .to_owned();
        check_url(&jwks_uri)?;
        Ok(OidcProvider {
            issuer: named.to_owned(),
            discovery_url: discovery_url.clone(),
            jwks_uri,
            token_endpoint: document["token_endpoint"].as_str().map(str::to_owned),
        })
    }
}

/// The HTTP client discovery and key fetches use unless given one: short timeouts, no redirects
/// followed (a provider's metadata is at its own address), the web PKI roots with feature `rustls`.
pub(super) fn default_client() -> Result<reqwest::Client, DiscoveryError> {
    let builder = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .connect_timeout(Duration::from_secs(5))
        .redirect(reqwest::redirect::Policy::none());
    #[cfg(feature = "rustls")]
    let builder = {
        let tls = crate::listen::tls::WebhookTls::default()
            .rustls_config()
            .map_err(|e| DiscoveryError {
                url: String::new(),
                message: e.to_string(),
            })?;
        builder.tls_backend_preconfigured(tls)
    };
    builder.build().map_err(|e| DiscoveryError {
        url: String::new(),
        message: format!("the HTTP client: {e}"),
    })
}

/// `https` anywhere, `http` only to a loopback address.
fn check_url(url: &str) -> Result<(), DiscoveryError> {
    let error = |message: &str| DiscoveryError {
        url: url.to_owned(),
        message: message.to_owned(),
    };
    let parsed = url::Url::parse(url).map_err(|e| error(&format!("not a URL: {e}")))?;
    match parsed.scheme() {
        "https" => Ok(()),
        "http" => {
            let loopback = match parsed.host() {
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
                None => false,
            };
            if loopback {
                Ok(())
            } else {
                Err(error("keys are fetched over https (http only on loopback)"))
            }
        }
        _ => Err(error("keys are fetched over https")),
    }
}

/// A JSON document at `url` (HTTP 200, at most [`MAX_DOCUMENT`] bytes).
pub(super) async fn fetch_json(
    http: &reqwest::Client,
    url: &str,
) -> Result<serde_json::Value, DiscoveryError> {
    let error = |message: String| DiscoveryError {
        url: url.to_owned(),
        message,
    };
    let mut response = http
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| error(format!("GET failed: {e}")))?;
    if !response.status().is_success() {
        return Err(error(format!("answered HTTP {}", response.status())));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| error(format!("reading the body: {e}")))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(error(format!("the body is over {MAX_DOCUMENT} bytes")));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|e| error(format!("not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_over_https_or_from_loopback() {
        assert!(check_url("https://id.example.com/jwks").is_ok());
        assert!(check_url("http://127.0.0.1:9000/jwks").is_ok());
        assert!(check_url("http://localhost/jwks").is_ok());
        assert!(check_url("http://id.example.com/jwks").is_err());
        assert!(check_url("ftp://127.0.0.1/jwks").is_err());
    }
}
