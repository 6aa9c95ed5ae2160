//! Who may call the agent when it is protected (`--oidc-issuer`/`--oidc-audience`, `--api-key`,
//! `--mtls-roots`): the server crate's [`Security`] with an OpenID Connect bearer-token scheme
//! (`oidc`), an API-key scheme (`apiKey`, header `X-API-Key`) and the client certificate of mutual
//! TLS (`mtls`, the caller named by the certificate's common name or first alternative name; last,
//! so that a token sent over a mutual-TLS connection still decides who calls). Anonymous callers are
//! refused on every operation; the server writes the schemes into the cards, so they declare exactly
//! what is accepted.

use a2a_server::auth::{ApiKeys, ClientCertificates, DiscoveryError, JwtBearer, Security};

use super::config::Config;

/// The card's name of the OpenID Connect scheme.
pub const OIDC_SCHEME: &str = "oidc";
/// The card's name of the API-key scheme.
pub const API_KEY_SCHEME: &str = "apiKey";
/// The header the API key is sent in.
pub const API_KEY_HEADER: &str = "X-API-Key";
/// The card's name of the mutual-TLS scheme.
pub const MTLS_SCHEME: &str = "mtls";
/// The principal an API key identifies (one key, one caller).
pub const API_KEY_PRINCIPAL: &str = "api-key-holder";

/// The authenticator `config` asks for, `None` when the agent is not protected. Discovers the
/// OpenID provider and fetches its keys now, so a wrong issuer fails at start-up.
pub async fn authenticator(config: &Config) -> Result<Option<Security>, DiscoveryError> {
    let mutual_tls = config
        .tls
        .as_ref()
        .is_some_and(|tls| tls.client_roots.is_some());
    if config.oidc.is_none() && config.api_key.is_none() && !mutual_tls {
        return Ok(None);
    }
    let mut security = Security::new();
    if let Some(oidc) = &config.oidc {
        let tokens = JwtBearer::discover(&oidc.issuer, oidc.audience.clone()).await?;
        security = security.scheme(OIDC_SCHEME, tokens);
    }
    if let Some(key) = &config.api_key {
        let keys = ApiKeys::header(API_KEY_HEADER)
            .key(key.clone(), API_KEY_PRINCIPAL)
            .description("The key the agent's operator handed out, in the X-API-Key header.");
        security = security.scheme(API_KEY_SCHEME, keys);
    }
    if mutual_tls {
        security = security.scheme(MTLS_SCHEME, ClientCertificates::new());
    }
    Ok(Some(security))
}
