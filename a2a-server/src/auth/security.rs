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

/// Credential schemes, each checked against every request: every scheme whose credential the
/// request presents must verify it (a presented but bad credential of any scheme refuses the
/// request; it is never skipped for another scheme's good one), and the caller records all that
/// verified ([`Caller::schemes`]), so that a requirement naming several schemes together (an API key
/// and a client certificate; an OpenID Connect token with a scope and a client certificate) can be
/// met. When several verify, the first configured names the caller ([`Caller::scheme`], its
/// principal, and its tenant unless it sets none); the caller holds the scopes of them all. A
/// request that presents none is refused unless [`allow_anonymous`](Self::allow_anonymous).
///
/// The card then declares each scheme under its name and, by default, one security requirement per
/// scheme (any one suffices); with [`require_all_of`](Self::require_all_of), exactly the
/// requirements declared that way, each of which needs all its schemes. The empty requirement is
/// added when anonymous callers are served.
#[derive(Clone, Default)]
pub struct Security {
    schemes: Vec<(String, Arc<dyn CredentialScheme>)>,
    together: Vec<Vec<String>>,
    anonymous: bool,
}

impl std::fmt::Debug for Security {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Security")
            .field(
                "schemes",
                &self.schemes.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("together", &self.together)
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

    /// Needs the credentials of all of `schemes` together (one `SecurityRequirement` naming them
    /// all, an AND), as an alternative to the other requirements declared this way. Once one is
    /// declared, the card's top-level requirements are the declared ones instead of one per scheme,
    /// and a caller meeting none of them is refused as unauthenticated (a credential is missing).
    /// A name no [`scheme`](Self::scheme) was added under can never be met.
    pub fn require_all_of(mut self, schemes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.together
            .push(schemes.into_iter().map(Into::into).collect());
        self
    }

    /// Whether `caller` meets one of the requirements declared with
    /// [`require_all_of`](Self::require_all_of) (any caller does when none was).
    fn meets_requirements(&self, caller: &Caller) -> bool {
        self.together.is_empty()
            || self
                .together
                .iter()
                .any(|group| group.iter().all(|scheme| caller.schemes.contains(scheme)))
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
        let mut verified: Option<Caller> = None;
        for (name, scheme) in &self.schemes {
            // `?`: a bad credential of any scheme refuses the request.
            let Some(found) = scheme.identify(request).await? else {
                continue;
            };
            verified = Some(match verified {
                None => found.by_scheme(name.as_str()),
                Some(named) => joined(named, found, name),
            });
        }
        if let Some(caller) = verified {
            // The empty requirement of an agent serving anonymous callers admits anyone.
            if self.anonymous || self.meets_requirements(&caller) {
                return Ok(caller);
            }
            let groups: Vec<String> = self.together.iter().map(|g| g.join(" and ")).collect();
            let presented: Vec<&str> = caller.schemes.iter().map(String::as_str).collect();
            return Err(Unauthenticated(format!(
                "this agent needs the credentials of {}; the request's verified only {}",
                groups.join(", or "),
                presented.join(" and ")
            )));
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
        let mut requirements: Vec<SecurityRequirement> = if self.together.is_empty() {
            self.schemes
                .iter()
                .map(|(name, _)| SecurityRequirement::new([(name.as_str(), Vec::<String>::new())]))
                .collect()
        } else {
            self.together
                .iter()
                .map(|group| {
                    SecurityRequirement::new(
                        group
                            .iter()
                            .map(|name| (name.as_str(), Vec::<String>::new())),
                    )
                })
                .collect()
        };
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

/// The caller `named` (by the first scheme that verified), its credential of `scheme` verified too,
/// `found` being what that credential says: `named`'s principal stays, its tenant unless it has
/// none, and the scopes of both are held.
fn joined(mut named: Caller, found: Caller, scheme: &str) -> Caller {
    named.tenant = named.tenant.or(found.tenant);
    named.scopes.extend(found.scopes);
    named.also_by_scheme(scheme)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;
    use axum::http::header::AUTHORIZATION;

    use super::*;
    use crate::auth::{ApiKeys, BearerTokens};

    /// An agent taking an API key (first) and a bearer token.
    fn key_and_token() -> Security {
        Security::new()
            .scheme("apiKey", ApiKeys::header("X-API-Key").key("k-1", "job"))
            .scheme("bearer", BearerTokens::new().token("t-1", "alice"))
    }

    fn headers(key: Option<&str>, token: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(key) = key {
            headers.insert("X-API-Key", key.parse().unwrap());
        }
        if let Some(token) = token {
            headers.insert(AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
        }
        headers
    }

    #[tokio::test]
    async fn every_presented_credential_is_checked_and_the_first_configured_names_the_caller() {
        let security = key_and_token();
        let both = security
            .authenticate(&headers(Some("k-1"), Some("t-1")))
            .await
            .unwrap();
        assert_eq!(both.principal.as_deref(), Some("job"));
        assert_eq!(both.scheme.as_deref(), Some("apiKey"));
        assert!(both.verified_by("apiKey") && both.verified_by("bearer"));
        let token_only = security
            .authenticate(&headers(None, Some("t-1")))
            .await
            .unwrap();
        assert_eq!(token_only.principal.as_deref(), Some("alice"));
        assert!(token_only.verified_by("bearer") && !token_only.verified_by("apiKey"));
        // A bad credential refuses the request, whatever else verified.
        assert!(
            security
                .authenticate(&headers(Some("k-1"), Some("t-bad")))
                .await
                .is_err()
        );
        assert!(
            security
                .authenticate(&headers(Some("k-bad"), Some("t-1")))
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_requirement_of_schemes_together_needs_every_one_and_is_declared_as_one() {
        let security = key_and_token().require_all_of(["apiKey", "bearer"]);
        assert!(
            security
                .authenticate(&headers(Some("k-1"), None))
                .await
                .is_err()
        );
        assert!(
            security
                .authenticate(&headers(None, Some("t-1")))
                .await
                .is_err()
        );
        let both = security
            .authenticate(&headers(Some("k-1"), Some("t-1")))
            .await;
        assert!(both.is_ok(), "{both:?}");
        let card = security.card_security().unwrap();
        assert_eq!(card.requirements.len(), 1);
        let named: Vec<&str> = card.requirements[0]
            .schemes
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(named, ["apiKey", "bearer"]);
        // Anonymous callers served: the empty requirement is declared and admits anyone.
        let open = security.allow_anonymous();
        assert_eq!(open.card_security().unwrap().requirements.len(), 2);
        assert!(open.authenticate(&headers(Some("k-1"), None)).await.is_ok());
    }
}
