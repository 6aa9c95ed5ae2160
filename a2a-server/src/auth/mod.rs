//! Who is calling: an [`Authenticator`] turns a request (its headers, HTTP headers or gRPC metadata as
//! headers, and its query) into a [`Caller`], and every task belongs to the [`Owner`] that created it,
//! the caller's principal and the request's tenant. A task is visible only to its owner, on every
//! operation and binding; to anyone else it does not exist (`TaskNotFound`), so ids cannot be probed.
//!
//! The authenticators deployments use, each its own type:
//!
//! | type | checks | card scheme |
//! |---|---|---|
//! | [`BearerTokens`] | `Authorization: Bearer` from a fixed table | `httpAuthSecurityScheme` |
//! | [`ApiKeys`] | a key in a header, query parameter or cookie, compared in constant time | `apiKeySecurityScheme` |
//! | [`JwtBearer`] (feature `oidc`) | JWT access tokens against an issuer's JWKS found by OpenID Connect discovery | `openIdConnectSecurityScheme` |
//! | [`ClientCertificates`] (feature `rustls`) | the client certificate verified by mutual TLS ([`PeerCertificate`]): its subject's CN or first DNS/URI SAN | `mtlsSecurityScheme` |
//!
//! [`Security`] composes schemes into one authenticator (every credential a request presents is
//! checked, a bad one refuses it, and the caller records every scheme that verified, so a
//! requirement naming several schemes together can be met) and writes the card's `securitySchemes` and
//! `securityRequirements` from them (the server replaces what the card said with that, so the card
//! and the checks cannot disagree). [`ScopeRequirements`] refuses a caller without an operation's
//! scopes with the specification's authorization error on every binding (HTTP 403 with
//! `WWW-Authenticate: Bearer error="insufficient_scope"`, gRPC `PERMISSION_DENIED`, JSON-RPC -31403;
//! a 403 for want of an API key or a client certificate, which are not HTTP authentication schemes,
//! carries no `WWW-Authenticate`: see [`Forbidden::bearer`]).
//! The card's per-skill `securityRequirements` are enforced the same way on the messages sent to a
//! skill: the one a message's metadata names under [`SKILL_ID_METADATA`], or the agent's only skill
//! (see `skills.rs` for the rule).
//!
//! The extended card is served only to an authenticated caller (one with a principal).

mod api_key;
mod bearer;
#[cfg(feature = "rustls")]
mod client_certificates;
#[cfg(feature = "oidc")]
mod jwks;
#[cfg(feature = "oidc")]
mod jwt;
#[cfg(feature = "oidc")]
mod oidc;
mod peer_certificate;
mod presented;
mod requirements;
mod security;
mod skills;

use std::collections::BTreeSet;
use std::fmt;

use a2a_types::v1::{AgentCard, SecurityRequirement, SecurityScheme};
use async_trait::async_trait;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

pub use api_key::{ApiKeyLocation, ApiKeys};
pub use bearer::BearerTokens;
#[cfg(feature = "rustls")]
pub use client_certificates::{CertificateName, ClientCertificates};
#[cfg(feature = "oidc")]
pub use jwks::JwksCache;
#[cfg(feature = "oidc")]
pub use jwt::{JwtBearer, JwtRules};
#[cfg(feature = "oidc")]
pub use oidc::{DiscoveryError, OidcProvider};
pub use peer_certificate::PeerCertificate;
pub(crate) use presented::{Authenticated, Presented};
pub use requirements::ScopeRequirements;
pub use security::{CredentialScheme, Security};
pub use skills::SKILL_ID_METADATA;
pub(crate) use skills::SkillRequirements;

/// The caller of one request, as the authentication hook saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Caller {
    /// Who it is; `None` for an anonymous caller.
    pub principal: Option<String>,
    /// The tenant the hook puts the caller in, used when the request names none.
    pub tenant: Option<String>,
    /// The scopes its credential grants (an OAuth 2 token's `scope`), checked by
    /// [`ScopeRequirements`].
    pub scopes: BTreeSet<String>,
    /// The name of the card's security scheme that identified it (`None`: anonymous, or a hook
    /// that does not say). When several verified, the one that names the caller (for
    /// [`Security`], the first configured).
    pub scheme: Option<String>,
    /// Every scheme whose credential the request presented and that verified it (with
    /// [`scheme`](Self::scheme) among them), so that a requirement naming several schemes together
    /// can be met.
    pub schemes: BTreeSet<String>,
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
            ..Caller::default()
        }
    }

    /// The same caller, in this tenant.
    pub fn in_tenant(mut self, tenant: impl Into<String>) -> Self {
        self.tenant = Some(tenant.into());
        self
    }

    /// The same caller, granted these scopes.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The same caller, identified by the card's scheme `scheme` (which names it, and joins
    /// [`schemes`](Self::schemes)).
    pub fn by_scheme(mut self, scheme: impl Into<String>) -> Self {
        let scheme = scheme.into();
        self.schemes.insert(scheme.clone());
        self.scheme = Some(scheme);
        self
    }

    /// The same caller, its credential of the card's scheme `scheme` verified too (without it
    /// naming the caller).
    pub fn also_by_scheme(mut self, scheme: impl Into<String>) -> Self {
        self.schemes.insert(scheme.into());
        self
    }

    /// Whether the request's credential of the card's scheme `scheme` verified: the caller is
    /// authenticated and `scheme` is among [`schemes`](Self::schemes); a caller of a hook that
    /// names no scheme at all counts as verified by any.
    pub fn verified_by(&self, scheme: &str) -> bool {
        self.is_authenticated()
            && (self.schemes.contains(scheme)
                || (self.schemes.is_empty()
                    && self.scheme.as_deref().is_none_or(|named| named == scheme)))
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

/// Why an authenticated caller may not do what it asked: HTTP 403, gRPC `PERMISSION_DENIED`,
/// JSON-RPC -31403 (spec section 3.3.2, "Authorization Errors": name what is missing, not what
/// exists).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Forbidden {
    /// What the caller lacks, in words.
    pub message: String,
    /// The scopes the operation needs (for `WWW-Authenticate: Bearer scope="…"`).
    pub scopes: Vec<String>,
    /// Whether what is missing is a bearer token's (OAuth 2, OpenID Connect, HTTP `Bearer`): the
    /// HTTP 403 then carries `WWW-Authenticate: Bearer error="insufficient_scope"` (RFC 6750
    /// section 3.1). Otherwise (an API key, a client certificate: no HTTP authentication scheme,
    /// so no challenge a client could answer) it carries no `WWW-Authenticate`.
    pub bearer: bool,
}

impl Forbidden {
    /// A refusal naming the scopes of a bearer token the operation needs.
    pub fn missing_scopes(message: impl Into<String>, scopes: Vec<String>) -> Self {
        Forbidden {
            message: message.into(),
            scopes,
            bearer: true,
        }
    }

    /// A refusal for want of credentials that are not a bearer token's (an API key, a client
    /// certificate, or their scopes): no `WWW-Authenticate` challenge.
    pub fn missing_credentials(message: impl Into<String>, scopes: Vec<String>) -> Self {
        Forbidden {
            message: message.into(),
            scopes,
            bearer: false,
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Forbidden {}

/// Why a call was refused before the operation ran: who is calling is not known, or it may not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessDenied {
    /// No valid credentials (401).
    Unauthenticated(Unauthenticated),
    /// Valid credentials without the rights the operation needs (403).
    Forbidden(Forbidden),
}

impl fmt::Display for AccessDenied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessDenied::Unauthenticated(refusal) => refusal.fmt(f),
            AccessDenied::Forbidden(refusal) => refusal.fmt(f),
        }
    }
}

impl std::error::Error for AccessDenied {}

impl From<Unauthenticated> for AccessDenied {
    fn from(refusal: Unauthenticated) -> Self {
        AccessDenied::Unauthenticated(refusal)
    }
}

impl From<Forbidden> for AccessDenied {
    fn from(refusal: Forbidden) -> Self {
        AccessDenied::Forbidden(refusal)
    }
}

/// What authentication sees of one request: its headers (gRPC metadata as headers), on the HTTP
/// bindings its query string (for API keys sent as query parameters), and the client's verified TLS
/// certificate when it presented one ([`peer_certificate`](Self::peer_certificate)).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct AuthRequest<'a> {
    /// The request's headers.
    pub headers: &'a HeaderMap,
    /// The query string of the request's URL (`None` on gRPC, or when there is none).
    pub query: Option<&'a str>,
    /// Read with [`peer_certificate`](Self::peer_certificate).
    peer_certificate: Option<&'a PeerCertificate>,
}

impl<'a> AuthRequest<'a> {
    /// A request of these headers and no query.
    pub fn new(headers: &'a HeaderMap) -> Self {
        AuthRequest {
            headers,
            query: None,
            peer_certificate: None,
        }
    }

    /// The same request, over a connection whose client presented this verified certificate.
    pub fn with_peer_certificate(mut self, certificate: Option<&'a PeerCertificate>) -> Self {
        self.peer_certificate = certificate;
        self
    }

    /// The certificate the client presented in the TLS handshake and the listener verified (mutual
    /// TLS), when it presented one.
    pub fn peer_certificate(&self) -> Option<&'a PeerCertificate> {
        self.peer_certificate
    }

    /// The same request with this query string.
    pub fn with_query(mut self, query: Option<&'a str>) -> Self {
        self.query = query;
        self
    }
}

/// How a card says clients authenticate: the `securitySchemes` and the `securityRequirements`
/// (each requirement one way to satisfy the agent; an empty one means anonymous callers are served).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct CardSecurity {
    /// The schemes by name.
    pub schemes: Vec<(String, SecurityScheme)>,
    /// The alternatives a client may satisfy.
    pub requirements: Vec<SecurityRequirement>,
}

impl CardSecurity {
    /// Writes these schemes and requirements into `card`, replacing what it said.
    pub fn apply(&self, card: &mut AgentCard) {
        card.security_schemes = self.schemes.iter().cloned().collect();
        card.security_requirements = self.requirements.clone();
    }
}

/// The authentication hook: a request in, a caller out (or a refusal). Async, so it may look a
/// token up elsewhere.
#[async_trait]
pub trait Authenticator: Send + Sync + 'static {
    /// The caller these headers identify. A request without credentials should be answered with
    /// [`Caller::anonymous`] when the agent serves anonymous callers, and refused when it does not;
    /// bad credentials are refused.
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated>;

    /// The caller this request identifies; what the bindings call. By default
    /// [`authenticate`](Self::authenticate) on the headers; hooks that read the query too (API keys
    /// in a query parameter) implement this.
    async fn authenticate_request(
        &self,
        request: &AuthRequest<'_>,
    ) -> Result<Caller, Unauthenticated> {
        self.authenticate(request.headers).await
    }

    /// What the card should declare for this hook, when it knows; the server then writes it into
    /// the public and extended cards (`None`: the cards say what they were built with).
    fn card_security(&self) -> Option<CardSecurity> {
        None
    }

    /// The `WWW-Authenticate` challenge of an HTTP 401 (RFC 9110 section 11.6.1).
    fn challenge(&self) -> String {
        "Bearer".to_owned()
    }
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

/// The token of an `Authorization: Bearer <token>` value (the scheme is case-insensitive).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owner_takes_the_request_tenant_before_the_callers() {
        let caller = Caller::authenticated("bob").in_tenant("t-home");
        assert_eq!(Owner::of(&caller, Some("t-a")).tenant, "t-a");
        assert_eq!(Owner::of(&caller, Some("")).tenant, "t-home");
        assert_eq!(Owner::of(&caller, None).principal, "bob");
        assert_eq!(Owner::of(&Caller::anonymous(), None), Owner::default());
    }
}
