//! [`JwksCache`]: an issuer's signing keys (a JSON Web Key Set, RFC 7517), fetched from its
//! `jwks_uri`, kept, and fetched again when a token names a key id the set lacks (the issuer rotated
//! its keys) or the set is old, never more often than the cool-down allows (a stream of tokens with
//! made-up key ids cannot turn the agent into a load generator against the issuer).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use tokio::sync::{Mutex, RwLock};

use super::Unauthenticated;
use super::oidc::{DiscoveryError, fetch_json};

/// One verification key: its id, the key, and the algorithms it may verify.
#[derive(Clone)]
pub(super) struct VerificationKey {
    pub(super) kid: Option<String>,
    pub(super) key: Arc<DecodingKey>,
    pub(super) algorithms: Vec<Algorithm>,
}

#[derive(Default)]
struct KeySet {
    keys: Vec<VerificationKey>,
    fetched: Option<Instant>,
}

impl KeySet {
    /// The key of `kid`; without a kid, the only key there is.
    fn find(&self, kid: Option<&str>) -> Option<VerificationKey> {
        match kid {
            Some(kid) => self
                .keys
                .iter()
                .find(|k| k.kid.as_deref() == Some(kid))
                .cloned(),
            None if self.keys.len() == 1 => self.keys.first().cloned(),
            None => None,
        }
    }
}

/// An issuer's key set, cached: fetched again when a token names a key id the set lacks (a rotation)
/// or the set is older than its maximum age, never more often than once per cool-down.
pub struct JwksCache {
    http: reqwest::Client,
    uri: String,
    keys: RwLock<KeySet>,
    /// Held while fetching, so concurrent misses wait for one fetch instead of each making one.
    fetching: Mutex<()>,
    cooldown: Duration,
    max_age: Duration,
    fetches: AtomicU64,
}

impl std::fmt::Debug for JwksCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwksCache")
            .field("uri", &self.uri)
            .field("cooldown", &self.cooldown)
            .field("max_age", &self.max_age)
            .finish_non_exhaustive()
    }
}

impl JwksCache {
    /// The shortest time between two fetches by default.
    pub const DEFAULT_COOLDOWN: Duration = Duration::from_secs(10);
    /// How long a fetched set is used before it is fetched again by default.
    pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(15 * 60);

    /// The keys at `uri`, fetched with `http` when first needed.
    pub fn new(http: reqwest::Client, uri: impl Into<String>) -> Self {
        JwksCache {
            http,
            uri: uri.into(),
            keys: RwLock::default(),
            fetching: Mutex::new(()),
            cooldown: Self::DEFAULT_COOLDOWN,
            max_age: Self::DEFAULT_MAX_AGE,
            fetches: AtomicU64::new(0),
        }
    }

    /// At most one fetch per `cooldown` ([`DEFAULT_COOLDOWN`](Self::DEFAULT_COOLDOWN)).
    pub fn cooldown(mut self, cooldown: Duration) -> Self {
        self.cooldown = cooldown;
        self
    }

    /// A set older than `max_age` is fetched again ([`DEFAULT_MAX_AGE`](Self::DEFAULT_MAX_AGE)).
    pub fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = max_age;
        self
    }

    /// How many times the set was fetched.
    pub fn fetches(&self) -> u64 {
        self.fetches.load(Ordering::Relaxed)
    }

    /// Fetches the set now (at start-up, so a wrong `jwks_uri` fails then rather than on the first
    /// call).
    pub async fn load(&self) -> Result<(), DiscoveryError> {
        let _fetching = self.fetching.lock().await;
        self.fetch().await
    }

    /// The key for a token naming `kid`.
    pub(super) async fn key(&self, kid: Option<&str>) -> Result<VerificationKey, Unauthenticated> {
        let seen = {
            let keys = self.keys.read().await;
            let fresh = keys.fetched.is_some_and(|at| at.elapsed() < self.max_age);
            match keys.find(kid) {
                Some(key) if fresh => return Ok(key),
                _ => keys.fetched,
            }
        };
        let _fetching = self.fetching.lock().await;
        let fetched = self.keys.read().await.fetched;
        // Another call fetched while this one waited: its set is as new as it gets.
        let fetched_meanwhile = fetched != seen;
        let cooling = fetched.is_some_and(|at| at.elapsed() < self.cooldown);
        if !fetched_meanwhile
            && !cooling
            && let Err(error) = self.fetch().await
        {
            tracing::warn!(%error, "fetching the issuer's keys failed; keeping the keys known");
        }
        self.keys.read().await.find(kid).ok_or_else(|| {
            Unauthenticated(match kid {
                Some(kid) => format!("the token's key id {kid:?} is not one of the issuer's keys"),
                None => "the token names no key id and the issuer has several keys".to_owned(),
            })
        })
    }

    /// Fetches the set and replaces the cached one (the caller holds `fetching`).
    async fn fetch(&self) -> Result<(), DiscoveryError> {
        self.fetches.fetch_add(1, Ordering::Relaxed);
        let result = fetch_json(&self.http, &self.uri).await;
        let mut keys = self.keys.write().await;
        // A failed fetch counts for the cool-down too: an issuer that is down is not hammered.
        keys.fetched = Some(Instant::now());
        let document = result?;
        let entries = document["keys"].as_array().ok_or_else(|| DiscoveryError {
            url: self.uri.clone(),
            message: "the key set has no `keys` array".into(),
        })?;
        // A key this crate cannot use (another type, an encryption key) is skipped, not fatal:
        // issuers publish keys for other purposes beside their signing keys.
        keys.keys = entries
            .iter()
            .filter_map(|entry| serde_json::from_value::<Jwk>(entry.clone()).ok())
            .filter_map(|jwk| verification_key(&jwk))
            .collect();
        Ok(())
    }
}

/// The key of `jwk` and what it may verify: only asymmetric signing keys, each with the algorithms
/// of its type and curve, or only the one its `alg` names. Symmetric (`oct`) keys are never used:
/// a published key set is public, so an HMAC key from it would let anyone sign.
fn verification_key(jwk: &Jwk) -> Option<VerificationKey> {
    if matches!(
        jwk.common.public_key_use,
        Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
    ) {
        return None;
    }
    let by_type: Vec<Algorithm> = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => vec![
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => vec![Algorithm::ES256],
            EllipticCurve::P384 => vec![Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(okp) if okp.curve == EllipticCurve::Ed25519 => {
            vec![Algorithm::EdDSA]
        }
        _ => return None,
    };
    let algorithms = match &jwk.common.key_algorithm {
        Some(named) => {
            let named: Algorithm = named.to_string().parse().ok()?;
            if !by_type.contains(&named) {
                return None;
            }
            vec![named]
        }
        None => by_type,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(VerificationKey {
        kid: jwk.common.key_id.clone(),
        key: Arc::new(key),
        algorithms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwk(json: serde_json::Value) -> Jwk {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn only_asymmetric_signing_keys_are_used_with_their_own_algorithms() {
        let rsa = serde_json::json!({"kty": "RSA", "kid": "r", "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw", "e": "AQAB"});
        let key = verification_key(&jwk(rsa.clone())).unwrap();
        assert!(key.algorithms.contains(&Algorithm::RS256));
        assert!(!key.algorithms.contains(&Algorithm::HS256));
        let mut pinned = rsa.clone();
        pinned["alg"] = "PS256".into();
        assert_eq!(
            verification_key(&jwk(pinned)).unwrap().algorithms,
            [Algorithm::PS256]
        );
        let mut encryption = rsa;
        encryption["use"] = "enc".into();
        assert!(verification_key(&jwk(encryption)).is_none());
        let oct = serde_json::json!({"kty": "oct", "kid": "h", "k": "c2VjcmV0"});
        assert!(verification_key(&jwk(oct)).is_none());
    }
}
