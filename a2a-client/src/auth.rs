//! Authentication as the agent card's security schemes name it: the caller gives a [`Credential`] per
//! scheme name, and the client sends it where that scheme says (spec section 7 and the card's
//! `securitySchemes`):
//!
//! | scheme | sent as |
//! |---|---|
//! | `apiKeySecurityScheme`, `location: header` | the header the scheme names |
//! | `apiKeySecurityScheme`, `location: query` | the query parameter the scheme names (HTTP bindings; gRPC metadata of that name) |
//! | `apiKeySecurityScheme`, `location: cookie` | `Cookie: name=value` |
//! | `httpAuthSecurityScheme` | `Authorization: <scheme> <value>` (`Bearer`, or `Basic` with the encoded user and password as the value) |
//! | `oauth2SecurityScheme`, `openIdConnectSecurityScheme` | `Authorization: Bearer <token>` |
//!
//! OAuth 2 access tokens come from a [`TokenSource`] the caller implements (client credentials, a
//! token exchange, a refresh loop): the client asks it before every request, so it decides when to
//! refresh. Mutual TLS is configured on the HTTP client itself ([`crate::ClientConfig::http_client`]).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use a2a_types::v1::{AgentCard, SecurityScheme};

use crate::ClientError;

/// A boxed future, as [`TokenSource`] returns it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where a client gets an access token (or any secret) each time it sends a request.
///
/// ```
/// use a2a_client::auth::{BoxFuture, TokenSource};
///
/// /// A token fetched elsewhere and refreshed by the program (here: fixed).
/// struct FromVault;
///
/// impl TokenSource for FromVault {
///     fn token(&self) -> BoxFuture<'_, Result<String, String>> {
///         Box::pin(async { Ok("eyJhbGciOi…".to_owned()) })
///     }
/// }
/// ```
pub trait TokenSource: Send + Sync {
    /// The current token, or why there is none.
    fn token(&self) -> BoxFuture<'_, Result<String, String>>;
}

/// The secret for one security scheme.
#[derive(Clone)]
#[non_exhaustive]
pub enum Credential {
    /// A fixed value: an API key, a bearer token, encoded basic credentials.
    Static(String),
    /// A value asked for before each request (OAuth 2 access tokens).
    Source(Arc<dyn TokenSource>),
}

impl Credential {
    /// A fixed value.
    pub fn value(value: impl Into<String>) -> Self {
        Credential::Static(value.into())
    }

    /// A value from `source`.
    pub fn source(source: impl TokenSource + 'static) -> Self {
        Credential::Source(Arc::new(source))
    }

    async fn resolve(&self, scheme: &str) -> Result<String, ClientError> {
        match self {
            Credential::Static(value) => Ok(value.clone()),
            Credential::Source(source) => {
                source
                    .token()
                    .await
                    .map_err(|message| ClientError::Credentials {
                        scheme: scheme.to_owned(),
                        message,
                    })
            }
        }
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Credential::Static(_) => "Static(…)",
            Credential::Source(_) => "Source(…)",
        })
    }
}

/// Credentials by security scheme name.
#[derive(Clone, Debug, Default)]
pub struct Credentials(BTreeMap<String, Credential>);

impl Credentials {
    /// No credentials.
    pub fn new() -> Self {
        Self::default()
    }

    /// These credentials with `credential` for the card's scheme `scheme`.
    pub fn with(mut self, scheme: impl Into<String>, credential: Credential) -> Self {
        self.0.insert(scheme.into(), credential);
        self
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Where one credential goes.
#[derive(Clone, Debug)]
enum Placement {
    Header(String),
    Query(String),
    Cookie(String),
    Authorization(String),
}

/// Each credential with where its scheme says to send it, checked against one card.
#[derive(Clone, Debug, Default)]
pub(crate) struct Authenticator {
    entries: Vec<(String, Placement, Credential)>,
}

/// The headers and query parameters authentication adds to one request.
#[derive(Clone, Debug, Default)]
pub(crate) struct AuthParts {
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
}

impl Authenticator {
    /// Places each credential by its scheme in `card`; a credential for a scheme the card does not
    /// declare, or for one that cannot carry a secret (mutual TLS), is an error rather than ignored.
    pub(crate) fn new(card: &AgentCard, credentials: &Credentials) -> Result<Self, ClientError> {
        let mut entries = Vec::new();
        for (name, credential) in &credentials.0 {
            let error = |message: &str| ClientError::Credentials {
                scheme: name.clone(),
                message: message.to_owned(),
            };
            let scheme = card
                .security_schemes
                .get(name)
                .ok_or_else(|| error("the agent card declares no security scheme of this name"))?;
            let placement = match scheme {
                SecurityScheme::ApiKeySecurityScheme(key) => {
                    match key.location.to_ascii_lowercase().as_str() {
                        "header" => Placement::Header(key.name.clone()),
                        "query" => Placement::Query(key.name.clone()),
                        "cookie" => Placement::Cookie(key.name.clone()),
                        other => {
                            return Err(error(&format!(
                                "API key location {other:?} is not header, query or cookie"
                            )));
                        }
                    }
                }
                SecurityScheme::HttpAuthSecurityScheme(http) => {
                    let mut scheme = http.scheme.clone();
                    if scheme.eq_ignore_ascii_case("bearer") {
                        scheme = "Bearer".to_owned();
                    } else if scheme.eq_ignore_ascii_case("basic") {
                        scheme = "Basic".to_owned();
                    }
                    Placement::Authorization(scheme)
                }
                SecurityScheme::Oauth2SecurityScheme(_)
                | SecurityScheme::OpenIdConnectSecurityScheme(_) => {
                    Placement::Authorization("Bearer".to_owned())
                }
                SecurityScheme::MtlsSecurityScheme(_) => {
                    return Err(error(
                        "mutual TLS carries no secret: configure the client certificate on ClientConfig::http_client",
                    ));
                }
                _ => {
                    return Err(error(
                        "this kind of security scheme is not known to this client",
                    ));
                }
            };
            entries.push((name.clone(), placement, credential.clone()));
        }
        Ok(Authenticator { entries })
    }

    /// The headers and query parameters for one request, asking token sources now.
    pub(crate) async fn parts(&self) -> Result<AuthParts, ClientError> {
        let mut parts = AuthParts::default();
        for (scheme, placement, credential) in &self.entries {
            let value = credential.resolve(scheme).await?;
            match placement {
                Placement::Header(name) => parts.headers.push((name.clone(), value)),
                Placement::Query(name) => parts.query.push((name.clone(), value)),
                Placement::Cookie(name) => parts
                    .headers
                    .push(("Cookie".to_owned(), format!("{name}={value}"))),
                Placement::Authorization(kind) => parts
                    .headers
                    .push(("Authorization".to_owned(), format!("{kind} {value}"))),
            }
        }
        Ok(parts)
    }
}

/// OAuth 2 client credentials (RFC 6749 section 4.4): a [`TokenSource`] that asks the token endpoint
/// for an access token with the client's id and secret (sent in the form body,
/// `client_secret_post`), and keeps the token until shortly before it expires.
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
    cached: tokio::sync::Mutex<Option<(String, std::time::Instant)>>,
}

impl ClientCredentials {
    /// A token is renewed this long before the endpoint said it expires.
    pub const EXPIRY_MARGIN: std::time::Duration = std::time::Duration::from_secs(30);

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
            cached: tokio::sync::Mutex::new(None),
        }
    }

    /// These credentials asking for `scopes`.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
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
        let error = |message: &str| ClientError::Credentials {
            scheme: scheme.to_owned(),
            message: message.to_owned(),
        };
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

    async fn fetch(&self) -> Result<(String, Option<std::time::Duration>), String> {
        let mut form = vec![
            ("grant_type", "client_credentials"),
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.as_str()),
        ];
        let scope = self.scopes.join(" ");
        if !scope.is_empty() {
            form.push(("scope", &scope));
        }
        let body = form
            .iter()
            .map(|(name, value)| format!("{name}={}", crate::http::percent_encode(value)))
            .collect::<Vec<_>>()
            .join("&");
        let response = self
            .http
            .post(&self.token_url)
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
        let lifetime = json["expires_in"]
            .as_u64()
            .map(std::time::Duration::from_secs);
        Ok((token.to_owned(), lifetime))
    }
}

impl fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl TokenSource for ClientCredentials {
    fn token(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(async move {
            // One request at a time: callers waiting here get the token the first one fetched.
            let mut cached = self.cached.lock().await;
            if let Some((token, until)) = cached.as_ref()
                && std::time::Instant::now() < *until
            {
                return Ok(token.clone());
            }
            let (token, lifetime) = self.fetch().await?;
            *cached = lifetime
                .and_then(|l| l.checked_sub(Self::EXPIRY_MARGIN))
                .map(|l| (token.clone(), std::time::Instant::now() + l));
            Ok(token)
        })
    }
}
