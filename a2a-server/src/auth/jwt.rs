//! [`JwtBearer`]: `Authorization: Bearer <JWT>` access tokens checked with the `jsonwebtoken` crate
//! against an issuer's keys ([`JwksCache`]) found by OpenID Connect discovery: the signature with a
//! key of the issuer and an algorithm that key allows (`alg: none` and symmetric algorithms never),
//! `iss`, `aud`, `exp` and `nbf` with a clock-skew allowance. The caller, its tenant and its scopes
//! come from claims ([`JwtRules`]).

use std::time::Duration;

use a2a_types::v1::{OpenIdConnectSecurityScheme, SecurityScheme};
use async_trait::async_trait;
use jsonwebtoken::errors::ErrorKind as JwtErrorKind;
use jsonwebtoken::{Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::jwks::JwksCache;
use super::oidc::{DiscoveryError, OidcProvider, default_client};
use super::security::CredentialScheme;
use super::{AuthRequest, Caller, Unauthenticated, bearer_token};

/// What a token must say and which claims say who the caller is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct JwtRules {
    /// The issuer its `iss` must name.
    pub issuer: String,
    /// Its `aud` must name one of these (RFC 9068: the resource's identifier).
    pub audiences: Vec<String>,
    /// Clock skew allowed on `exp` and `nbf` (60 seconds).
    pub leeway: Duration,
    /// The claim naming the caller (`sub`).
    pub principal_claim: String,
    /// The claim naming the caller's tenant (none).
    pub tenant_claim: Option<String>,
}

impl JwtRules {
    /// Tokens of `issuer` for `audience`, the caller in `sub`.
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        JwtRules {
            issuer: issuer.into(),
            audiences: vec![audience.into()],
            leeway: Duration::from_secs(60),
            principal_claim: "sub".to_owned(),
            tenant_claim: None,
        }
    }
}

/// JWT bearer tokens of one OpenID provider, as a [`CredentialScheme`] (the card declares
/// `openIdConnectSecurityScheme` with the provider's discovery URL).
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use a2a_server::auth::{JwtBearer, Security};
///
/// let tokens = JwtBearer::discover("https://id.example.com", "https://agent.example.com")
///     .await?
///     .tenant_claim("org");
/// let authenticator = Security::new().scheme("oidc", tokens);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct JwtBearer {
    rules: JwtRules,
    keys: JwksCache,
    discovery_url: String,
}

impl JwtBearer {
    /// Discovers `issuer` (its metadata, then its keys, both fetched now so a wrong issuer fails at
    /// start-up) and accepts its tokens for `audience`.
    pub async fn discover(
        issuer: &str,
        audience: impl Into<String>,
    ) -> Result<JwtBearer, DiscoveryError> {
        let http = default_client()?;
        let provider = OidcProvider::discover(&http, issuer).await?;
        let keys = JwksCache::new(http, provider.jwks_uri.clone());
        keys.load().await?;
        let rules = JwtRules::new(provider.issuer.clone(), audience);
        Ok(JwtBearer::new(rules, keys, provider.discovery_url))
    }

    /// Tokens checked by `rules` with `keys`; the card names `discovery_url`.
    pub fn new(rules: JwtRules, keys: JwksCache, discovery_url: impl Into<String>) -> Self {
        JwtBearer {
            rules,
            keys,
            discovery_url: discovery_url.into(),
        }
    }

    /// The caller's principal from `claim` instead of `sub`.
    pub fn principal_claim(mut self, claim: impl Into<String>) -> Self {
        self.rules.principal_claim = claim.into();
        self
    }

    /// The caller's tenant from `claim`.
    pub fn tenant_claim(mut self, claim: impl Into<String>) -> Self {
        self.rules.tenant_claim = Some(claim.into());
        self
    }

    /// The clock skew allowed on `exp` and `nbf`.
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.rules.leeway = leeway;
        self
    }

    /// The rules tokens are checked by.
    pub fn rules(&self) -> &JwtRules {
        &self.rules
    }

    /// The issuer's key set.
    pub fn keys(&self) -> &JwksCache {
        &self.keys
    }

    /// The caller `token` identifies, or why it is refused.
    pub async fn validate(&self, token: &str) -> Result<Caller, Unauthenticated> {
        // `alg: none` (and any algorithm the crate does not know) fails here: jsonwebtoken has no
        // unsigned algorithm to read it as.
        let header = decode_header(token).map_err(|_| {
            Unauthenticated(
                "the bearer token is not a JWT signed with an algorithm this agent accepts \
                 (unsigned `alg: none` tokens are refused)"
                    .into(),
            )
        })?;
        let key = self.keys.key(header.kid.as_deref()).await?;
        if !key.algorithms.contains(&header.alg) {
            return Err(Unauthenticated(format!(
                "the token's algorithm {:?} is not one its key allows",
                header.alg
            )));
        }
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.rules.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.rules.issuer]);
        validation.set_audience(&self.rules.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let claims = decode::<Map<String, Value>>(token, &key.key, &validation)
            .map_err(|e| Unauthenticated(refusal(e.kind())))?
            .claims;
        self.caller(&claims)
    }

    fn caller(&self, claims: &Map<String, Value>) -> Result<Caller, Unauthenticated> {
        let principal = claims
            .get(&self.rules.principal_claim)
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                Unauthenticated(format!(
                    "the token has no {:?} claim naming the caller",
                    self.rules.principal_claim
                ))
            })?;
        let mut caller = Caller::authenticated(principal);
        if let Some(claim) = &self.rules.tenant_claim
            && let Some(tenant) = claims.get(claim).and_then(Value::as_str)
        {
            caller = caller.in_tenant(tenant);
        }
        // RFC 9068 and RFC 8693: `scope` is a space-separated string; some issuers send `scp`, a list.
        let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
            (Some(Value::String(scope)), _) => {
                scope.split_whitespace().map(str::to_owned).collect()
            }
            (_, Some(Value::Array(list))) => list
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Ok(caller.with_scopes(scopes))
    }
}

/// What a refused token is told: which check failed, never the key or the claims.
fn refusal(kind: &JwtErrorKind) -> String {
    match kind {
        JwtErrorKind::ExpiredSignature => "the token has expired".into(),
        JwtErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        JwtErrorKind::InvalidAudience => "the token is for another audience".into(),
        JwtErrorKind::InvalidIssuer => "the token is from another issuer".into(),
        JwtErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        JwtErrorKind::InvalidAlgorithm => "the token's algorithm is not allowed".into(),
        JwtErrorKind::MissingRequiredClaim(claim) => format!("the token has no {claim:?} claim"),
        other => format!("the bearer token is not valid ({other:?})"),
    }
}

#[async_trait]
impl CredentialScheme for JwtBearer {
    fn card_scheme(&self) -> SecurityScheme {
        SecurityScheme::OpenIdConnectSecurityScheme(OpenIdConnectSecurityScheme {
            open_id_connect_url: self.discovery_url.clone(),
            description: Some(format!(
                "`Authorization: Bearer <access token>`: a JWT of this provider for the audience {}.",
                self.rules.audiences.join(" or ")
            )),
        })
    }

    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated> {
        match bearer_token(request.headers) {
            Some(token) => self.validate(token).await.map(Some),
            None if request
                .headers
                .contains_key(axum::http::header::AUTHORIZATION) =>
            {
                Err(Unauthenticated(
                    "Authorization must be `Bearer <token>`".into(),
                ))
            }
            None => Ok(None),
        }
    }

    fn challenge(&self) -> Option<String> {
        Some(format!("Bearer realm={:?}", self.rules.issuer))
    }
}
