//! Who is calling: an [`Authenticator`] turns a request's headers (HTTP headers, or gRPC metadata as
//! headers) into a [`Caller`], and every task belongs to the [`Owner`] that created it, the caller's
//! principal and the request's tenant. A task is visible only to its owner, on every operation and
//! binding; to anyone else it does not exist (`TaskNotFound`), so ids cannot be probed.
//!
//! The extended card is served only to an authenticated caller (one with a principal). An agent that
//! has one declares how to authenticate in its card (`securitySchemes` and `securityRequirements`),
//! and its authenticator must accept what it declares; [`BearerTokens::security_scheme`] gives the
//! scheme that matches [`BearerTokens`].

use std::collections::HashMap;
use std::fmt;

use a2a_types::v1::{HttpAuthSecurityScheme, SecurityScheme};
use async_trait::async_trait;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

/// The caller of one request, as the authentication hook saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Caller {
    /// Who it is; `None` for an anonymous caller.
    pub principal: Option<String>,
    /// The tenant the hook puts the caller in, used when the request names none.
    pub tenant: Option<String>,
}

impl Caller {
    /// An anonymous caller.
    pub fn anonymous() -> Self {
        Caller::default()
    }

    /// An authenticated caller.
    pub fn authenticated(principal: impl Into<String>) -> Self {
        Caller {
            principal: Some(principal.into()),
            tenant: None,
        }
    }

    /// The same caller, in this tenant.
    pub fn in_tenant(mut self, tenant: impl Into<String>) -> Self {
        self.tenant = Some(tenant.into());
        self
    }

    /// Whether the caller proved who it is.
    pub fn is_authenticated(&self) -> bool {
        self.principal.is_some()
    }
}

/// Who owns a task: the principal that created it and the tenant it was created in (both empty
/// for an anonymous caller in the default tenant). Stores key visibility on it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Owner {
    /// The creator's principal (`""` for anonymous).
    pub principal: String,
    /// The tenant (`""` for the default one).
    pub tenant: String,
}

impl Owner {
    /// The owner a request by `caller` naming `tenant` (empty or absent: the caller's) acts as.
    pub fn of(caller: &Caller, tenant: Option<&str>) -> Owner {
        let tenant = tenant
            .filter(|t| !t.is_empty())
            .or(caller.tenant.as_deref())
            .unwrap_or_default();
        Owner {
            principal: caller.principal.clone().unwrap_or_default(),
            tenant: tenant.to_owned(),
        }
    }
}

/// Why a request was refused before it was read: HTTP 401, gRPC `UNAUTHENTICATED`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unauthenticated(pub String);

impl fmt::Display for Unauthenticated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unauthenticated {}

/// The authentication hook: headers in, a caller out (or a refusal). Async, so it may look a token
/// up elsewhere.
#[async_trait]
pub trait Authenticator: Send + Sync + 'static {
    /// The caller these headers identify. A request without credentials should be answered with
    /// [`Caller::anonymous`] when the agent serves anonymous callers, and refused when it does not;
    /// bad credentials are refused.
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated>;
}

/// Every caller is anonymous (the default): all tasks of a tenant are shared.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anonymous;

#[async_trait]
impl Authenticator for Anonymous {
    async fn authenticate(&self, _headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        Ok(Caller::anonymous())
    }
}

/// `Authorization: Bearer <token>` from a fixed table of tokens, each naming a principal. Requests
/// without the header are anonymous unless [`BearerTokens::required`]; an unknown token is refused.
#[derive(Clone, Debug, Default)]
pub struct BearerTokens {
    tokens: HashMap<String, String>,
    required: bool,
}

impl BearerTokens {
    /// An empty table.
    pub fn new() -> Self {
        BearerTokens::default()
    }

    /// Adds a token and the principal it identifies.
    pub fn token(mut self, token: impl Into<String>, principal: impl Into<String>) -> Self {
        self.tokens.insert(token.into(), principal.into());
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
}

/// The token of an `Authorization: Bearer <token>` value (the scheme is case-insensitive).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

#[async_trait]
impl Authenticator for BearerTokens {
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        match bearer_token(headers) {
            Some(token) => self
                .tokens
                .get(token)
                .map(Caller::authenticated)
                .ok_or_else(|| Unauthenticated("the bearer token is not valid".into())),
            None if headers.contains_key(AUTHORIZATION) => Err(Unauthenticated(
                "Authorization must be `Bearer <token>`".into(),
            )),
            None if self.required => Err(Unauthenticated(
                "this agent needs Authorization: Bearer <token>".into(),
            )),
            None => Ok(Caller::anonymous()),
        }
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

    #[test]
    fn the_owner_takes_the_request_tenant_before_the_callers() {
        let caller = Caller::authenticated("bob").in_tenant("t-home");
        assert_eq!(Owner::of(&caller, Some("t-a")).tenant, "t-a");
        assert_eq!(Owner::of(&caller, Some("")).tenant, "t-home");
        assert_eq!(Owner::of(&caller, None).principal, "bob");
        assert_eq!(Owner::of(&Caller::anonymous(), None), Owner::default());
    }
}
