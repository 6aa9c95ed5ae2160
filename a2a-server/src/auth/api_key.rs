//! [`ApiKeys`]: a key sent in a header, a query parameter or a cookie, as the card's
//! `APIKeySecurityScheme` says (spec section 4.5.2), looked up in a table of keys compared in
//! constant time, each naming a principal.

use a2a_types::v1::{ApiKeySecurityScheme, SecurityScheme};
use async_trait::async_trait;
use axum::http::header::COOKIE;
use subtle::ConstantTimeEq;

use super::security::CredentialScheme;
use super::{AuthRequest, Caller, Unauthenticated};

/// Where an API key is sent (`APIKeySecurityScheme.location`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiKeyLocation {
    /// A request header (on gRPC, metadata) of the scheme's name.
    Header,
    /// A query parameter of the scheme's name (on gRPC, where requests have no query, metadata of
    /// that name, as the client sends it).
    Query,
    /// A cookie of the scheme's name.
    Cookie,
}

impl ApiKeyLocation {
    /// The card's spelling: `header`, `query`, `cookie`.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiKeyLocation::Header => "header",
            ApiKeyLocation::Query => "query",
            ApiKeyLocation::Cookie => "cookie",
        }
    }
}

/// API keys at one place, each naming a principal, as a [`CredentialScheme`]
/// (compose it with [`Security`](super::Security)).
///
/// ```
/// use a2a_server::auth::{ApiKeys, Security};
///
/// let keys = ApiKeys::header("X-API-Key").key("k-3a9f…", "reporting-job");
/// let authenticator = Security::new().scheme("apiKey", keys);
/// ```
#[derive(Clone)]
pub struct ApiKeys {
    location: ApiKeyLocation,
    name: String,
    keys: Vec<(String, String)>,
    description: Option<String>,
}

impl std::fmt::Debug for ApiKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKeys")
            .field("location", &self.location)
            .field("name", &self.name)
            .field("keys", &self.keys.len())
            .finish_non_exhaustive()
    }
}

impl ApiKeys {
    /// Keys sent at `location` under `name`; none yet.
    pub fn new(location: ApiKeyLocation, name: impl Into<String>) -> Self {
        ApiKeys {
            location,
            name: name.into(),
            keys: Vec::new(),
            description: None,
        }
    }

    /// Keys in the request header `name`.
    pub fn header(name: impl Into<String>) -> Self {
        ApiKeys::new(ApiKeyLocation::Header, name)
    }

    /// Keys in the query parameter `name`.
    pub fn query(name: impl Into<String>) -> Self {
        ApiKeys::new(ApiKeyLocation::Query, name)
    }

    /// Keys in the cookie `name`.
    pub fn cookie(name: impl Into<String>) -> Self {
        ApiKeys::new(ApiKeyLocation::Cookie, name)
    }

    /// Adds a key and the principal it identifies.
    pub fn key(mut self, key: impl Into<String>, principal: impl Into<String>) -> Self {
        self.keys.push((key.into(), principal.into()));
        self
    }

    /// The card's description of the scheme.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The key the request carries, if any.
    fn presented(&self, request: &AuthRequest<'_>) -> Option<String> {
        let header = || {
            request
                .headers
                .get(self.name.as_str())
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        match self.location {
            ApiKeyLocation::Header => header(),
            ApiKeyLocation::Query => match request.query {
                Some(query) => url::form_urlencoded::parse(query.as_bytes())
                    .find(|(name, _)| name == self.name.as_str())
                    .map(|(_, value)| value.into_owned()),
                None => header(),
            },
            ApiKeyLocation::Cookie => request
                .headers
                .get_all(COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(';'))
                .filter_map(|pair| pair.trim().split_once('='))
                .find(|(name, _)| *name == self.name)
                .map(|(_, value)| value.trim_matches('"').to_owned()),
        }
    }
}

/// The principal of `presented` in `table` (secret, principal), every entry compared in constant
/// time and none skipped, so the time taken does not say how much of a key matched.
pub(super) fn find_in_constant_time<'a>(
    table: &'a [(String, String)],
    presented: &str,
) -> Option<&'a str> {
    let mut found = None;
    for (secret, principal) in table {
        let equal: bool = secret.as_bytes().ct_eq(presented.as_bytes()).into();
        if equal {
            found = Some(principal.as_str());
        }
    }
    found
}

#[async_trait]
impl CredentialScheme for ApiKeys {
    fn card_scheme(&self) -> SecurityScheme {
        SecurityScheme::ApiKeySecurityScheme(ApiKeySecurityScheme {
            location: self.location.as_str().to_owned(),
            name: self.name.clone(),
            description: self.description.clone(),
        })
    }

    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated> {
        let Some(presented) = self.presented(request) else {
            return Ok(None);
        };
        find_in_constant_time(&self.keys, presented.trim())
            .map(|principal| Some(Caller::authenticated(principal)))
            .ok_or_else(|| {
                Unauthenticated(format!(
                    "the API key in the {} {:?} is not valid",
                    self.location.as_str(),
                    self.name
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;

    use super::*;
    use crate::auth::{Authenticator, Security};

    fn request_with<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> AuthRequest<'a> {
        AuthRequest::new(headers).with_query(query)
    }

    #[tokio::test]
    async fn each_location_reads_the_key_where_the_card_says() {
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", "k-1".parse().unwrap());
        headers.insert(COOKIE, "theme=dark; session=k-2".parse().unwrap());
        let header = ApiKeys::header("X-API-Key").key("k-1", "alice");
        let query = ApiKeys::query("api_key").key("k 3", "carol");
        let cookie = ApiKeys::cookie("session").key("k-2", "bob");
        let req = request_with(&headers, Some("a=1&api_key=k%203"));
        assert_eq!(
            header.identify(&req).await,
            Ok(Some(Caller::authenticated("alice")))
        );
        assert_eq!(
            query.identify(&req).await,
            Ok(Some(Caller::authenticated("carol")))
        );
        assert_eq!(
            cookie.identify(&req).await,
            Ok(Some(Caller::authenticated("bob")))
        );
        // A wrong key is refused, an absent one is not this scheme's business.
        let wrong = request_with(&headers, Some("api_key=k-1"));
        assert!(query.identify(&wrong).await.is_err());
        let none = HeaderMap::new();
        assert_eq!(header.identify(&request_with(&none, None)).await, Ok(None));
    }

    #[tokio::test]
    async fn security_refuses_requests_without_keys_and_declares_the_scheme() {
        let security = Security::new().scheme("apiKey", ApiKeys::header("X-API-Key").key("k", "a"));
        assert!(security.authenticate(&HeaderMap::new()).await.is_err());
        let card = security.card_security().unwrap();
        assert_eq!(card.schemes[0].0, "apiKey");
        assert!(matches!(
            &card.schemes[0].1,
            SecurityScheme::ApiKeySecurityScheme(s) if s.location == "header" && s.name == "X-API-Key"
        ));
        assert_eq!(card.requirements.len(), 1);
        let open = Security::new()
            .scheme("apiKey", ApiKeys::header("X-API-Key"))
            .allow_anonymous();
        assert_eq!(
            open.authenticate(&HeaderMap::new()).await,
            Ok(Caller::anonymous())
        );
        assert_eq!(open.card_security().unwrap().requirements.len(), 2);
    }
}
