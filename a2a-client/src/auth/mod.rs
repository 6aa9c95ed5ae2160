//! Authentication as the agent card's security schemes name it: the caller gives a [`Credential`] per
//! scheme name, and the client sends it where that scheme says (spec section 7 and the card's
//! `securitySchemes`):
//!
//! | scheme | sent as |
//! |---|---|
//! | `apiKeySecurityScheme`, `location: header` | the header the scheme names |
//! | `apiKeySecurityScheme`, `location: query` | the query parameter the scheme names (HTTP bindings; gRPC metadata of that name) |
//! | `apiKeySecurityScheme`, `location: cookie` | `Cookie: name=value` (several joined in one header by `; `) |
//! | `httpAuthSecurityScheme` | `Authorization: <scheme> <value>` (`Bearer`, or `Basic` with the encoded user and password as the value) |
//! | `oauth2SecurityScheme`, `openIdConnectSecurityScheme` | `Authorization: Bearer <token>` |
//!
//! OAuth 2 access tokens come from a [`TokenSource`] (a bearer-token provider): [`ClientCredentials`]
//! (RFC 6749's client-credentials grant, the token endpoint from the card's OAuth 2 flow or from the
//! OpenID provider its `openIdConnectUrl` names), or one the caller implements (a token exchange, a
//! vault). The client asks it before every request, so it decides when to refresh; when the agent
//! answers 401 (`UNAUTHENTICATED`) to a request that carried a token from a source, the client tells
//! the source that token was refused ([`TokenSource::invalidate`]) and sends the request once more
//! with a fresh one. Mutual TLS is configured on the client, not per scheme: a client certificate
//! (`ClientConfig::client_certificate`, feature `rustls`) or the HTTP client itself
//! ([`crate::ClientConfig::http_client`]).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use a2a_types::v1::{AgentCard, SecurityScheme};

use crate::ClientError;

mod client_credentials;

pub use client_credentials::ClientCredentials;

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

    /// The agent refused `token` (HTTP 401, gRPC `UNAUTHENTICATED`): a source that caches tokens
    /// should drop it, so the next [`token`](Self::token) gets a new one. By default nothing.
    fn invalidate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, ()> {
        let _ = token;
        Box::pin(async {})
    }
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

    fn token_source(&self) -> Option<&Arc<dyn TokenSource>> {
        match self {
            Credential::Static(_) => None,
            Credential::Source(source) => Some(source),
        }
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

/// The headers and query parameters authentication adds to one request, and the tokens sources gave
/// for it (to report them if the agent refuses them).
#[derive(Clone, Default)]
pub(crate) struct AuthParts {
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) sourced: Vec<(Arc<dyn TokenSource>, String)>,
}

impl AuthParts {
    /// Tells each source the agent refused the token it gave; whether there was any (so that a
    /// fresh one may be asked for).
    pub(crate) async fn invalidate(&self) -> bool {
        for (source, token) in &self.sourced {
            source.invalidate(token).await;
        }
        !self.sourced.is_empty()
    }
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
                        "mutual TLS carries no secret: configure the client certificate with ClientConfig::client_certificate",
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
        // One `Cookie` header however many keys go in cookies (RFC 6265 section 5.4).
        let mut cookies = Vec::new();
        for (scheme, placement, credential) in &self.entries {
            let value = credential.resolve(scheme).await?;
            if let Some(source) = credential.token_source() {
                parts.sourced.push((source.clone(), value.clone()));
            }
            match placement {
                Placement::Header(name) => parts.headers.push((name.clone(), value)),
                Placement::Query(name) => parts.query.push((name.clone(), value)),
                Placement::Cookie(name) => cookies.push(format!("{name}={value}")),
                Placement::Authorization(kind) => parts
                    .headers
                    .push(("Authorization".to_owned(), format!("{kind} {value}"))),
            }
        }
        if !cookies.is_empty() {
            parts
                .headers
                .push(("Cookie".to_owned(), cookies.join("; ")));
        }
        Ok(parts)
    }
}
