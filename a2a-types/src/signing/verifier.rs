//! Verifying a card against keys the caller trusts: a card is accepted when one of its signatures
//! verifies with a trusted key, under an allowed algorithm (A2A §8.4.3).

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::Jwk;
use serde_json::{Map, Value};

use super::algorithm::KeyKind;
use super::{
    KeySetError, RejectReason, SignatureRejection, SigningAlgorithm, VerifyError, canonicalize,
};
use crate::v1::{AgentCard, AgentCardSignature};

/// The longest `protected` value read (base64url text): a real header is under 300 bytes.
pub const MAX_PROTECTED_HEADER_BYTES: usize = 4096;
/// The longest `signature` value read (base64url text): RSA with a 8,192-bit key needs 1,366.
pub const MAX_SIGNATURE_BYTES: usize = 2048;
/// The most signatures of one card looked at; the rest are rejected unread, so a card cannot make a
/// verifier run unbounded cryptography.
pub const MAX_SIGNATURES: usize = 32;
/// The shortest RSA modulus trusted, in bits (NIST SP 800-131A).
pub const MIN_RSA_BITS: usize = 2048;

/// The signature that made a card acceptable.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifiedSignature {
    /// Its position in the card's `signatures`.
    pub index: usize,
    /// The trusted key that verified it.
    pub kid: String,
    /// Its algorithm.
    pub algorithm: SigningAlgorithm,
}

/// One trusted public key.
#[derive(Clone)]
struct TrustedKey {
    key: DecodingKey,
    kind: KeyKind,
    /// The key's own `alg`, which then is the only algorithm it verifies.
    algorithm: Option<SigningAlgorithm>,
}

/// Verifies card signatures against a set of trusted public keys, found by `kid`.
///
/// The keys come from the caller (a JWK Set it trusts); the `jku` of a signature is never fetched or
/// followed, since a key named by the card itself proves nothing. Every algorithm of
/// [`SigningAlgorithm`] is allowed unless narrowed with [`with_algorithms`](Self::with_algorithms).
#[derive(Clone)]
pub struct CardVerifier {
    keys: BTreeMap<String, TrustedKey>,
    allowed: Vec<SigningAlgorithm>,
}

impl std::fmt::Debug for CardVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardVerifier")
            .field("kids", &self.keys.keys().collect::<Vec<_>>())
            .field("allowed", &self.allowed)
            .finish()
    }
}

impl CardVerifier {
    /// A verifier trusting the signature keys of a JWK Set document (`{"keys": [...]}`, RFC 7517
    /// section 5) or of a single JWK.
    ///
    /// Keys that cannot verify card signatures are skipped: `use` other than `sig`, symmetric (`oct`)
    /// keys, unsupported types or curves, RSA keys under [`MIN_RSA_BITS`], keys whose `alg` is not one
    /// of [`SigningAlgorithm`] or does not fit the key.
    ///
    /// # Errors
    ///
    /// [`KeySetError`]: not JSON or not a key set, a usable key without `kid`, two keys with one `kid`,
    /// or no usable key at all.
    pub fn from_jwks(document: &[u8]) -> Result<Self, KeySetError> {
        let json: Value = serde_json::from_slice(document)
            .map_err(|e| KeySetError::NotAKeySet(crate::json::bounded(&e.to_string())))?;
        Self::from_jwks_value(&json)
    }

    /// As [`from_jwks`](Self::from_jwks), from parsed JSON.
    ///
    /// # Errors
    ///
    /// As [`from_jwks`](Self::from_jwks).
    pub fn from_jwks_value(document: &Value) -> Result<Self, KeySetError> {
        let entries: Vec<&Value> = match document.get("keys") {
            Some(Value::Array(keys)) => keys.iter().collect(),
            Some(_) => {
                return Err(KeySetError::NotAKeySet("`keys` is not an array".to_owned()));
            }
            None if document.get("kty").is_some() => vec![document],
            None => {
                return Err(KeySetError::NotAKeySet(
                    "neither a `keys` array nor a JWK".to_owned(),
                ));
            }
        };
        let mut keys = BTreeMap::new();
        let mut skipped = Vec::new();
        for (index, entry) in entries.into_iter().enumerate() {
            let Some(members) = entry.as_object() else {
                skipped.push(format!("keys[{index}]: not an object"));
                continue;
            };
            let key = match trusted_key(members) {
                Ok(key) => key,
                Err(why) => {
                    skipped.push(format!("keys[{index}]: {why}"));
                    continue;
                }
            };
            let Some(kid) = members.get("kid").and_then(Value::as_str) else {
                return Err(KeySetError::MissingKeyId { index });
            };
            if keys.insert(kid.to_owned(), key).is_some() {
                return Err(KeySetError::DuplicateKeyId(kid.to_owned()));
            }
        }
        if keys.is_empty() {
            return Err(KeySetError::NoUsableKey { skipped });
        }
        Ok(Self {
            keys,
            allowed: SigningAlgorithm::ALL.to_vec(),
        })
    }

    /// Allows only these algorithms (an empty list allows none).
    pub fn with_algorithms(
        mut self,
        algorithms: impl IntoIterator<Item = SigningAlgorithm>,
    ) -> Self {
        self.allowed = algorithms.into_iter().collect();
        self
    }

    /// The `kid` of every trusted key.
    pub fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.keys.keys().map(String::as_str)
    }

    /// Accepts `card` when one of its signatures verifies; the first such signature is returned.
    ///
    /// # Errors
    ///
    /// [`VerifyError::NoSignature`], [`VerifyError::NotCanonicalizable`], or
    /// [`VerifyError::NoValidSignature`] with the reason each signature was rejected.
    pub fn verify(&self, card: &AgentCard) -> Result<VerifiedSignature, VerifyError> {
        if card.signatures.is_empty() {
            return Err(VerifyError::NoSignature);
        }
        let payload = canonicalize(card).map_err(VerifyError::NotCanonicalizable)?;
        let payload = URL_SAFE_NO_PAD.encode(payload);
        let mut rejections = Vec::new();
        for (index, signature) in card.signatures.iter().enumerate() {
            if index == MAX_SIGNATURES {
                rejections.push(SignatureRejection {
                    index,
                    reason: RejectReason::TooManySignatures,
                });
                break;
            }
            match self.check(signature, &payload) {
                Ok((kid, algorithm)) => {
                    return Ok(VerifiedSignature {
                        index,
                        kid,
                        algorithm,
                    });
                }
                Err(reason) => rejections.push(SignatureRejection { index, reason }),
            }
        }
        Err(VerifyError::NoValidSignature(rejections))
    }

    /// Checks one signature over the base64url payload.
    fn check(
        &self,
        signature: &AgentCardSignature,
        payload: &str,
    ) -> Result<(String, SigningAlgorithm), RejectReason> {
        let malformed = |what: &str| RejectReason::Malformed(what.to_owned());
        if signature.protected.len() > MAX_PROTECTED_HEADER_BYTES {
            return Err(malformed(&format!(
                "`protected` is longer than {MAX_PROTECTED_HEADER_BYTES} bytes"
            )));
        }
        if signature.signature.len() > MAX_SIGNATURE_BYTES {
            return Err(malformed(&format!(
                "`signature` is longer than {MAX_SIGNATURE_BYTES} bytes"
            )));
        }
        let header = URL_SAFE_NO_PAD
            .decode(&signature.protected)
            .map_err(|_| malformed("`protected` is not unpadded base64url"))?;
        let header: Map<String, Value> = serde_json::from_slice(&header)
            .map_err(|_| malformed("the protected header is not a JSON object"))?;
        if header.contains_key("crit") {
            // RFC 7515 section 4.1.11: extensions a verifier does not understand must fail it, and
            // this one understands none.
            return Err(malformed("the protected header has `crit` extensions"));
        }
        let algorithm = match header.get("alg") {
            Some(Value::String(name)) => name,
            _ => return Err(malformed("the protected header has no `alg`")),
        };
        let algorithm = algorithm
            .parse::<SigningAlgorithm>()
            .ok()
            .filter(|algorithm| self.allowed.contains(algorithm))
            .ok_or_else(|| RejectReason::AlgorithmNotAllowed(algorithm.clone()))?;
        let kid = match header.get("kid") {
            Some(Value::String(kid)) => kid,
            Some(_) => return Err(malformed("`kid` is not a string")),
            None => return Err(RejectReason::UnknownKey(None)),
        };
        let trusted = self
            .keys
            .get(kid)
            .ok_or_else(|| RejectReason::UnknownKey(Some(kid.clone())))?;
        let does_not_fit = || RejectReason::KeyDoesNotFitAlgorithm {
            kid: kid.clone(),
            algorithm: algorithm.name().to_owned(),
        };
        if trusted.kind != algorithm.key_kind()
            || trusted.algorithm.is_some_and(|own| own != algorithm)
        {
            return Err(does_not_fit());
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(&signature.signature)
            .map_err(|_| malformed("`signature` is not unpadded base64url"))?;
        if bytes.is_empty() {
            return Err(malformed("`signature` is empty"));
        }
        let signing_input = format!("{}.{payload}", signature.protected);
        match jsonwebtoken::crypto::verify(
            &signature.signature,
            signing_input.as_bytes(),
            &trusted.key,
            algorithm.jose(),
        ) {
            Ok(true) => Ok((kid.clone(), algorithm)),
            Ok(false) => Err(RejectReason::SignatureMismatch { kid: kid.clone() }),
            Err(_) => Err(does_not_fit()),
        }
    }
}

/// Reads one JWK as a trusted signature key, or says why it cannot be one.
fn trusted_key(members: &Map<String, Value>) -> Result<TrustedKey, String> {
    if let Some(key_use) = members.get("use").filter(|key_use| *key_use != "sig") {
        return Err(format!("`use` is {key_use}, not \"sig\""));
    }
    let text = |name: &str| members.get(name).and_then(Value::as_str);
    let kind = match (text("kty"), text("crv")) {
        (Some("RSA"), _) => KeyKind::Rsa,
        (Some("EC"), Some("P-256")) => KeyKind::Ec("P-256"),
        (Some("EC"), Some("P-384")) => KeyKind::Ec("P-384"),
        (Some("OKP"), Some("Ed25519")) => KeyKind::Okp("Ed25519"),
        (Some("oct"), _) => return Err("a symmetric (`oct`) key is never trusted".to_owned()),
        (kty, crv) => {
            return Err(format!(
                "unsupported key type {} {}",
                kty.unwrap_or("(no `kty`)"),
                crv.unwrap_or("")
            ));
        }
    };
    if kind == KeyKind::Rsa {
        let modulus = text("n")
            .and_then(|n| URL_SAFE_NO_PAD.decode(n).ok())
            .ok_or("the RSA key's `n` is missing or not base64url")?;
        let bits = modulus.iter().skip_while(|byte| **byte == 0).count() * 8;
        if bits < MIN_RSA_BITS {
            return Err(format!("the RSA key is shorter than {MIN_RSA_BITS} bits"));
        }
    }
    let algorithm = match members.get("alg") {
        None => None,
        Some(Value::String(name)) => {
            let algorithm = name.parse::<SigningAlgorithm>().map_err(|_| {
                format!("`alg` {name} is not a signature algorithm allowed for cards")
            })?;
            if algorithm.key_kind() != kind {
                return Err(format!("`alg` {name} does not fit the key"));
            }
            Some(algorithm)
        }
        Some(_) => return Err("`alg` is not a string".to_owned()),
    };
    let jwk: Jwk = serde_json::from_value(Value::Object(members.clone()))
        .map_err(|e| format!("not a valid JWK: {e}"))?;
    let key = DecodingKey::from_jwk(&jwk).map_err(|e| format!("not a valid key: {e}"))?;
    Ok(TrustedKey {
        key,
        kind,
        algorithm,
    })
}
