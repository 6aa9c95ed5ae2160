//! [`ClientCredentials`]: OAuth 2 access tokens by the client-credentials grant (RFC 6749 section
//! 4.4), from the token endpoint of the card's OAuth 2 flow or of the OpenID provider the card names,
//! cached until shortly before they expire (until the agent refuses them when the endpoint does not
//! say), fetched by one request at a time however many calls wait.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use a2a_types::v1::{AgentCard, SecurityScheme};

use super::{BoxFuture, TokenSource};
use crate::ClientError;

/// OAuth 2 client credentials: a [`TokenSource`] that asks the token endpoint for an access token
/// with the client's id and secret (sent in the form body, `client_secret_post`, or in an
/// `Authorization: Basic` header with [`client_secret_basic`](Self::client_secret_basic)), and keeps the
/// token until shortly before it expires, or, when the endpoint does not say when (its `expires_in`
/// is optional), until the agent refuses it. Concurrent calls wait for the one fetch in progress.
///
/// ```no_run
/// # fn run(card: &a2a_types::v1::AgentCard) -> Result<(), a2a_client::ClientError> {
/// use a2a_client::auth::{ClientCredentials, Credential, Credentials};
///
/// // The token URL and scopes come from the card's `clientCredentials` flow of scheme "oauth".
/// let source = ClientCredentials::from_card(card, "oauth", reqwest::Client::new(), "my-id", "my-secret")?;
/// let credentials = Credentials::new().with("oauth", Credential::source(source));
/// # Ok(())
/// # }
/// ```
pub struct ClientCredentials {
    http: reqwest::Client,
    token_url: String,
    client_id: String,
    client_secret: String,
    scopes: Vec<String>,
    resource: Option<String>,
    /// Whether the id and secret go in an `Authorization: Basic` header rather than the form.
    secret_in_header: bool,
    /// The token, and until when it is used (`None`: until the agent refuses it).
    cached: tokio::sync::Mutex<Option<(String, Option<Instant>)>>,
    fetches: AtomicU64,
}

impl ClientCredentials {
    /// A token is renewed this long before the endpoint said it expires (or at half its lifetime,
    /// when that is shorter).
    pub const EXPIRY_MARGIN: Duration = Duration::from_secs(30);

    /// Tokens from `token_url` for this client, with no scope asked.
    pub fn new(
        http: reqwest::Client,
        token_url: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        ClientCredentials {
            http,
            token_url: token_url.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            scopes: Vec::new(),
            resource: None,
            secret_in_header: false,
            cached: tokio::sync::Mutex::new(None),
            fetches: AtomicU64::new(0),
        }
    }

    /// These credentials asking for `scopes`.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// These credentials asking for tokens for `resource` (RFC 8707's resource indicator: the
    /// agent's audience, for providers that need it named).
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// These credentials sending the client's id and secret in an `Authorization: Basic` header
    /// (`client_secret_basic`, which RFC 6749 section 2.3.1 has every authorization server accept)
    /// rather than in the form body (`client_secret_post`, the default): for clients the provider
    /// registered that way.
    pub fn client_secret_basic(mut self) -> Self {
        self.secret_in_header = true;
        self
    }

    /// How many tokens were fetched.
    pub fn fetches(&self) -> u64 {
        self.fetches.load(Ordering::Relaxed)
    }

    /// Credentials for the card's OAuth 2 scheme `scheme`: its client-credentials flow's token URL,
    /// and every scope the flow lists.
    pub fn from_card(
        card: &AgentCard,
        scheme: &str,
        http: reqwest::Client,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Self, ClientError> {
        let error = |message: &str| credentials_error(scheme, message);
        let Some(SecurityScheme::Oauth2SecurityScheme(oauth)) = card.security_schemes.get(scheme)
        else {
            return Err(error(
                "the agent card declares no OAuth 2 scheme of this name",
            ));
        };
        let Some(a2a_types::v1::OAuthFlows::ClientCredentials(flow)) = &oauth.flows else {
            return Err(error("the scheme has no client-credentials flow"));
        };
        Ok(
            Self::new(http, flow.token_url.clone(), client_id, client_secret)
                .scopes(flow.scopes.keys().cloned()),
        )
    }

    /// Credentials for the card's scheme `scheme`: an OAuth 2 scheme's client-credentials flow (as
    /// [`from_card`](Self::from_card)), or an OpenID Connect scheme, whose provider's discovery
    /// document (the scheme's `openIdConnectUrl`, fetched now) names the token endpoint; its tokens
    /// are asked for every scope the card's security requirements list for the scheme.
    pub async fn discover(
        card: &AgentCard,
        scheme: &str,
        http: reqwest::Client,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Self, ClientError> {
        let Some(SecurityScheme::OpenIdConnectSecurityScheme(oidc)) =
            card.security_schemes.get(scheme)
        else {
            return Self::from_card(card, scheme, http, client_id, client_secret);
        };
        let url = &oidc.open_id_connect_url;
        let error = |message: String| credentials_error(scheme, &message);
        let response = http
            .get(url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| error(format!("GET {url}: {}", crate::http::describe(&e))))?;
        let status = response.status();
        let body = crate::http::read_limited(None, response, crate::http::MAX_ERROR_BODY)
            .await
            .map_err(|e| error(e.to_string()))?;
        if !status.is_success() {
            return Err(error(format!("GET {url} answered HTTP {status}")));
        }
        let document: serde_json::Value =
            serde_json::from_slice(&body).map_err(|e| error(format!("{url} is not JSON: {e}")))?;
        let token_url = document["token_endpoint"]
            .as_str()
            .ok_or_else(|| error(format!("{url} names no token_endpoint")))?;
        Ok(Self::new(http, token_url, client_id, client_secret)
            .scopes(required_scopes(card, scheme)))
    }

    async fn fetch(&self) -> Result<(String, Option<Duration>), String> {
        self.fetches.fetch_add(1, Ordering::Relaxed);
        let mut form = vec![("grant_type", "client_credentials")];
        if !self.secret_in_header {
            form.push(("client_id", &self.client_id));
            form.push(("client_secret", &self.client_secret));
        }
        let scope = self.scopes.join(" ");
        if !scope.is_empty() {
            form.push(("scope", &scope));
        }
        if let Some(resource) = &self.resource {
            form.push(("resource", resource));
        }
        let body = form
            .iter()
            .map(|(name, value)| format!("{name}={}", crate::http::percent_encode(value)))
            .collect::<Vec<_>>()
            .join("&");
        let mut request = self.http.post(&self.token_url);
        if self.secret_in_header {
            // RFC 6749 section 2.3.1: each form-encoded before they are joined and base64-encoded.
            request = request.basic_auth(
                crate::http::percent_encode(&self.client_id),
                Some(crate::http::percent_encode(&self.client_secret)),
            );
        }
        let response = request
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body)
            .send()
            .await
            .map_err(|e| format!("POST {}: {}", self.token_url, crate::http::describe(&e)))?;
        let status = response.status();
        // A token answer is small; more than 64 KiB is not one.
        let body = crate::http::read_limited(None, response, crate::http::MAX_ERROR_BODY)
            .await
            .map_err(|e| e.to_string())?;
        let json: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| format!("the token endpoint answered HTTP {status}, not JSON: {e}"))?;
        if !status.is_success() {
            return Err(format!(
                "the token endpoint answered HTTP {status}: {}",
                a2a_types::json::bounded(&json.to_string())
            ));
        }
        let token = json["access_token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .ok_or("the token endpoint's answer has no access_token")?;
        let lifetime = json["expires_in"].as_u64().map(Duration::from_secs);
        Ok((token.to_owned(), lifetime))
    }
}

/// Every scope the card's security requirements ask of `scheme`, each once, in the order first named
/// (an OpenID Connect scheme lists none of its own; the provider grants only the scopes asked for).
fn required_scopes(card: &AgentCard, scheme: &str) -> Vec<String> {
    let mut scopes: Vec<String> = Vec::new();
    let listed = card
        .security_requirements
        .iter()
        .filter_map(|requirement| requirement.schemes.get(scheme))
        .flat_map(|list| &list.list);
    for scope in listed {
        if !scopes.contains(scope) {
            scopes.push(scope.clone());
        }
    }
    scopes
}

fn credentials_error(scheme: &str, message: &str) -> ClientError {
    ClientError::Credentials {
        scheme: scheme.to_owned(),
        message: message.to_owned(),
    }
}

/// How long a token that lives `lifetime` is used: up to [`ClientCredentials::EXPIRY_MARGIN`]
/// before it expires, and no more than half its life (a short-lived token is renewed well before
/// it lapses in flight).
fn usable_for(lifetime: Duration) -> Duration {
    lifetime.saturating_sub(ClientCredentials::EXPIRY_MARGIN.min(lifetime / 2))
}

impl fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .field("resource", &self.resource)
            .field("client_secret_basic", &self.secret_in_header)
            .finish_non_exhaustive()
    }
}

impl TokenSource for ClientCredentials {
    fn token(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(async move {
            // One request at a time: callers waiting here get the token the first one fetched.
            let mut cached = self.cached.lock().await;
            if let Some((token, until)) = cached.as_ref()
                && until.is_none_or(|until| Instant::now() < until)
            {
                return Ok(token.clone());
            }
            let (token, lifetime) = self.fetch().await?;
            *cached = match lifetime.map(usable_for) {
                // Too short-lived to reuse.
                Some(usable) if usable.is_zero() => None,
                Some(usable) => Some((token.clone(), Some(Instant::now() + usable))),
                None => Some((token.clone(), None)),
            };
            Ok(token)
        })
    }

    fn invalidate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let mut cached = self.cached.lock().await;
            // Only the refused token: another call may already have put a fresh one here.
            if cached.as_ref().is_some_and(|(held, _)| held == token) {
                *cached = None;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_renewed_before_they_expire() {
        assert_eq!(
            usable_for(Duration::from_secs(3600)),
            Duration::from_secs(3570)
        );
        assert_eq!(usable_for(Duration::from_secs(40)), Duration::from_secs(20));
        assert_eq!(usable_for(Duration::ZERO), Duration::ZERO);
    }
}
