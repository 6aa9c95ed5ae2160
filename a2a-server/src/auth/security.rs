//! [`Security`]: several [`CredentialScheme`]s (OpenID Connect bearer tokens, API keys, …) as one
//! [`Authenticator`], which also writes the card's `securitySchemes` and `securityRequirements`, so
//! what the card declares is exactly what the server accepts.

use std::sync::Arc;

use a2a_types::v1::{SecurityRequirement, SecurityScheme};
use async_trait::async_trait;
use axum::http::HeaderMap;

use super::{AuthRequest, Authenticator, Caller, CardSecurity, Unauthenticated};

/// One way to authenticate, under a name in the card's `securitySchemes`.
#[async_trait]
pub trait CredentialScheme: Send + Sync + 'static {
    /// How the card describes this scheme.
    fn card_scheme(&self) -> SecurityScheme;

    /// The caller this request's credential for this scheme identifies: `Ok(None)` when the request
    /// carries no credential of this scheme, an error when it carries a bad one.
    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated>;

    /// This scheme's `WWW-Authenticate` challenge, when HTTP has one for it.
    fn challenge(&self) -> Option<String> {
        None
    }
}

/// Credential schemes, tried in the order given: the first whose credential the request carries
/// decides (a bad credential is refused, not passed to the next scheme). A request with none is
/// refused unless [`allow_anonymous`](Self::allow_anonymous).
///
/// The card then declares each scheme under its name and one security requirement per scheme (any
/// one suffices), plus the empty requirement when anonymous callers are served.
#[derive(Clone, Default)]
pub struct Security {
    schemes: Vec<(String, Arc<dyn CredentialScheme>)>,
    anonymous: bool,
}

impl std::fmt::Debug for Security {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Security")
            .field(
                "schemes",
                &self.schemes.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("anonymous", &self.anonymous)
            .finish()
    }
}

impl Security {
    /// No scheme yet; anonymous callers refused.
    pub fn new() -> Self {
        Security::default()
    }

    /// Adds `scheme` under `name` (the key of the card's `securitySchemes`).
    pub fn scheme(mut self, name: impl Into<String>, scheme: impl CredentialScheme) -> Self {
        self.schemes.push((name.into(), Arc::new(scheme)));
        self
    }

    /// Serves requests without credentials too, as anonymous callers.
    pub fn allow_anonymous(mut self) -> Self {
        self.anonymous = true;
        self
    }
}

#[async_trait]
impl Authenticator for Security {
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        self.authenticate_request(&AuthRequest::new(headers)).await
    }

    async fn authenticate_request(
        &self,
        request: &AuthRequest<'_>,
    ) -> Result<Caller, Unauthenticated> {
        for (name, scheme) in &self.schemes {
            if let Some(caller) = scheme.identify(request).await? {
                return Ok(caller.by_scheme(name.as_str()));
            }
        }
        if self.anonymous {
            return Ok(Caller::anonymous());
        }
        let names: Vec<&str> = self.schemes.iter().map(|(n, _)| n.as_str()).collect();
        Err(Unauthenticated(format!(
            "this agent needs credentials of one of its card's security schemes: {}",
            names.join(", ")
        )))
    }

    fn card_security(&self) -> Option<CardSecurity> {
        let schemes = self
            .schemes
            .iter()
            .map(|(name, scheme)| (name.clone(), scheme.card_scheme()))
            .collect();
        let mut requirements: Vec<SecurityRequirement> = self
            .schemes
            .iter()
            .map(|(name, _)| SecurityRequirement::new([(name.as_str(), Vec::<String>::new())]))
            .collect();
        if self.anonymous {
            requirements.push(SecurityRequirement::default());
        }
        Some(CardSecurity {
            schemes,
            requirements,
        })
    }

    fn challenge(&self) -> String {
        let challenges: Vec<String> = self
            .schemes
            .iter()
            .filter_map(|(_, scheme)| scheme.challenge())
            .collect();
        if challenges.is_empty() {
            "Bearer".to_owned()
        } else {
            challenges.join(", ")
        }
    }
}
