//! [`BearerTokens`]: `Authorization: Bearer <token>` looked up in a fixed table of tokens, each naming
//! a principal (tokens compared in constant time).

use a2a_types::v1::{HttpAuthSecurityScheme, SecurityScheme};
use async_trait::async_trait;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

use super::api_key::find_in_constant_time;
use super::security::CredentialScheme;
use super::{AuthRequest, Authenticator, Caller, Unauthenticated, bearer_token};

/// `Authorization: Bearer <token>` from a fixed table of tokens, each naming a principal. Requests
/// without the header are anonymous unless [`BearerTokens::required`]; an unknown token is refused.
/// Also a [`CredentialScheme`], to compose with others in a [`Security`](super::Security).
#[derive(Clone, Debug, Default)]
pub struct BearerTokens {
    tokens: Vec<(String, String)>,
    required: bool,
}

impl BearerTokens {
    /// An empty table.
    pub fn new() -> Self {
        BearerTokens::default()
    }

    /// Adds a token and the principal it identifies.
    pub fn token(mut self, token: impl Into<String>, principal: impl Into<String>) -> Self {
        self.tokens.push((token.into(), principal.into()));
        self
    }

    /// Refuses requests without a token.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The card's description of this scheme (`HTTPAuthSecurityScheme`, `Bearer`), to declare under
    /// `securitySchemes`.
    pub fn security_scheme(description: impl Into<String>) -> SecurityScheme {
        SecurityScheme::HttpAuthSecurityScheme(HttpAuthSecurityScheme {
            scheme: "Bearer".into(),
            description: Some(description.into()),
            ..Default::default()
        })
    }

    /// The caller of `headers`' token: `Ok(None)` without an `Authorization` header.
    fn identify_headers(&self, headers: &HeaderMap) -> Result<Option<Caller>, Unauthenticated> {
        match bearer_token(headers) {
            Some(token) => find_in_constant_time(&self.tokens, token)
                .map(|principal| Some(Caller::authenticated(principal)))
                .ok_or_else(|| Unauthenticated("the bearer token is not valid".into())),
            None if headers.contains_key(AUTHORIZATION) => Err(Unauthenticated(
                "Authorization must be `Bearer <token>`".into(),
            )),
            None => Ok(None),
        }
    }
}

#[async_trait]
impl Authenticator for BearerTokens {
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        match self.identify_headers(headers)? {
            Some(caller) => Ok(caller),
            None if self.required => Err(Unauthenticated(
                "this agent needs Authorization: Bearer <token>".into(),
            )),
            None => Ok(Caller::anonymous()),
        }
    }
}

#[async_trait]
impl CredentialScheme for BearerTokens {
    fn card_scheme(&self) -> SecurityScheme {
        BearerTokens::security_scheme(
            "`Authorization: Bearer <token>` with a token the agent issued.",
        )
    }

    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated> {
        self.identify_headers(request.headers)
    }

    fn challenge(&self) -> Option<String> {
        Some("Bearer".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(authorization: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(AUTHORIZATION, value.parse().unwrap());
        }
        headers
    }

    #[tokio::test]
    async fn bearer_tokens_name_the_caller_and_refuse_unknown_tokens() {
        let hook = BearerTokens::new().token("t-1", "alice");
        let alice = hook.authenticate(&headers(Some("Bearer t-1"))).await;
        assert_eq!(alice, Ok(Caller::authenticated("alice")));
        let lower = hook.authenticate(&headers(Some("bearer t-1"))).await;
        assert_eq!(lower, Ok(Caller::authenticated("alice")));
        assert!(
            hook.authenticate(&headers(Some("Bearer t-2")))
                .await
                .is_err()
        );
        assert!(
            hook.authenticate(&headers(Some("Basic eDp5")))
                .await
                .is_err()
        );
        assert_eq!(
            hook.authenticate(&headers(None)).await,
            Ok(Caller::anonymous())
        );
        assert!(hook.required().authenticate(&headers(None)).await.is_err());
    }
}
