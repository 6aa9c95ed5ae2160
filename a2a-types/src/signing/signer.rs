//! Signing a card: a detached JWS (RFC 7515 appendix F) over the card's canonical bytes, its protected
//! header holding `alg`, `kid`, `typ` and optionally `jku` (A2A §8.4.2).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::EncodingKey;
use jsonwebtoken::jwk::Jwk;
use serde_json::{Map, Value};

use super::algorithm::KeyKind;
use super::{SignError, SigningAlgorithm, canonicalize};
use crate::JsonObject;
use crate::v1::{AgentCard, AgentCardSignature};

/// Signs agent cards with one private key.
///
/// ```
/// use a2a_types::signing::{CardSigner, CardVerifier, SigningAlgorithm};
/// use a2a_types::v1::AgentCard;
///
/// # let pem = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/signing/es256.pem"))?;
/// let signer = CardSigner::from_pem(&pem, SigningAlgorithm::Es256, "key-1")?
///     .with_jku("https://agent.example/jwks.json");
/// let mut card = AgentCard { name: "Travel agent".into(), ..Default::default() };
/// signer.sign(&mut card)?;
///
/// // A client that trusts the key (here: its JWK Set, as the agent would publish it):
/// let jwks = serde_json::json!({"keys": [signer.public_jwk()?]});
/// let verifier = CardVerifier::from_jwks(jwks.to_string().as_bytes())?;
/// assert_eq!(verifier.verify(&card)?.kid, "key-1");
///
/// card.name.push('!');
/// assert!(verifier.verify(&card).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct CardSigner {
    key: EncodingKey,
    algorithm: SigningAlgorithm,
    kid: String,
    jku: Option<String>,
    typ: Option<String>,
    unprotected: Option<JsonObject>,
}

impl std::fmt::Debug for CardSigner {
    // Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardSigner")
            .field("algorithm", &self.algorithm)
            .field("kid", &self.kid)
            .field("jku", &self.jku)
            .field("typ", &self.typ)
            .finish_non_exhaustive()
    }
}

impl CardSigner {
    /// A signer from a PEM private key (PKCS#8 `PRIVATE KEY`; for RSA also PKCS#1 `RSA PRIVATE KEY`) of
    /// the algorithm's kind, naming it `kid` in every signature. `typ` is `JOSE`, as A2A §8.4.2 advises.
    ///
    /// # Errors
    ///
    /// [`SignError::BadKey`] when the text is not such a key: not PEM, a public key, a key of another
    /// type or curve than the algorithm needs. The key is tried on a probe message here, so a signer
    /// that exists can sign.
    pub fn from_pem(
        pem: &[u8],
        algorithm: SigningAlgorithm,
        kid: impl Into<String>,
    ) -> Result<Self, SignError> {
        let bad_key = |error: jsonwebtoken::errors::Error| SignError::BadKey {
            algorithm,
            reason: error.to_string(),
        };
        let key = match algorithm.key_kind() {
            KeyKind::Rsa => EncodingKey::from_rsa_pem(pem),
            KeyKind::Ec(_) => EncodingKey::from_ec_pem(pem),
            KeyKind::Okp(_) => EncodingKey::from_ed_pem(pem),
        }
        .map_err(bad_key)?;
        jsonwebtoken::crypto::sign(b"probe", &key, algorithm.jose()).map_err(bad_key)?;
        Ok(Self {
            key,
            algorithm,
            kid: kid.into(),
            jku: None,
            typ: Some("JOSE".to_owned()),
            unprotected: None,
        })
    }

    /// Adds `jku`, the URL of the JWK Set holding the public key, to the protected header.
    pub fn with_jku(mut self, jku: impl Into<String>) -> Self {
        self.jku = Some(jku.into());
        self
    }

    /// Sets the protected header's `typ` (`None` leaves it out).
    pub fn with_typ(mut self, typ: Option<String>) -> Self {
        self.typ = typ;
        self
    }

    /// Sets the signature's unprotected `header` (not covered by the signature).
    pub fn with_unprotected_header(mut self, header: JsonObject) -> Self {
        self.unprotected = Some(header);
        self
    }

    /// The algorithm.
    pub fn algorithm(&self) -> SigningAlgorithm {
        self.algorithm
    }

    /// The key's id, as signatures name it.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The public half of the key as a JWK with `kid`, `alg` and `use: "sig"`: the entry for the JWK
    /// Set an agent publishes (at its `jku`) for clients to verify with.
    ///
    /// # Errors
    ///
    /// [`SignError::BadKey`] if the JOSE library cannot derive the public key (not expected for a key
    /// that loaded).
    pub fn public_jwk(&self) -> Result<Value, SignError> {
        let bad_key = |reason: String| SignError::BadKey {
            algorithm: self.algorithm,
            reason,
        };
        let jwk = Jwk::from_encoding_key(&self.key, self.algorithm.jose())
            .map_err(|e| bad_key(e.to_string()))?;
        let mut json = serde_json::to_value(jwk).map_err(|e| bad_key(e.to_string()))?;
        let members = json
            .as_object_mut()
            .ok_or_else(|| bad_key("the JWK is not an object".to_owned()))?;
        members.insert("kid".to_owned(), Value::from(self.kid.clone()));
        members.insert("use".to_owned(), Value::from("sig"));
        Ok(json)
    }

    /// The protected header, base64url-encoded.
    fn protected_header(&self) -> String {
        let mut header = Map::new();
        header.insert("alg".to_owned(), Value::from(self.algorithm.name()));
        header.insert("kid".to_owned(), Value::from(self.kid.clone()));
        if let Some(jku) = &self.jku {
            header.insert("jku".to_owned(), Value::from(jku.clone()));
        }
        if let Some(typ) = &self.typ {
            header.insert("typ".to_owned(), Value::from(typ.clone()));
        }
        URL_SAFE_NO_PAD.encode(Value::Object(header).to_string())
    }

    /// A signature over `card` as it is now (its existing `signatures` are not covered).
    ///
    /// # Errors
    ///
    /// [`SignError::NotCanonicalizable`] when the card has no canonical form.
    pub fn signature(&self, card: &AgentCard) -> Result<AgentCardSignature, SignError> {
        let payload = canonicalize(card).map_err(SignError::NotCanonicalizable)?;
        let protected = self.protected_header();
        let signing_input = format!("{protected}.{}", URL_SAFE_NO_PAD.encode(payload));
        let signature =
            jsonwebtoken::crypto::sign(signing_input.as_bytes(), &self.key, self.algorithm.jose())
                .map_err(|e| SignError::BadKey {
                    algorithm: self.algorithm,
                    reason: e.to_string(),
                })?;
        // `..Default::default()` keeps this compiling when the spec adds a field (the crate's rule).
        #[allow(clippy::needless_update)]
        Ok(AgentCardSignature {
            protected,
            signature,
            header: self.unprotected.clone(),
            ..Default::default()
        })
    }

    /// Signs `card` and appends the signature to its `signatures`.
    ///
    /// # Errors
    ///
    /// As [`signature`](Self::signature); the card is unchanged on error.
    pub fn sign(&self, card: &mut AgentCard) -> Result<(), SignError> {
        let signature = self.signature(card)?;
        card.signatures.push(signature);
        Ok(())
    }
}
