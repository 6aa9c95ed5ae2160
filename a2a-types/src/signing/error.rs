//! The typed errors of signing: why a card has no canonical form, why a key or a signature could not be
//! made, why a card was not accepted (and, per signature, why each one was rejected).

use std::fmt;

/// Why a card has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CanonicalizationError {
    /// Objects and arrays nest deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep {
        /// Where the first container too deep sits (`capabilities.extensions[0].params`).
        path: String,
        /// The limit.
        max_depth: usize,
    },
    /// A number that is not a finite double (only reachable with serde_json's `arbitrary_precision`).
    NotANumber {
        /// Where it is.
        path: String,
        /// Its text.
        text: String,
    },
    /// The card could not be turned into JSON.
    Json(String),
}

impl CanonicalizationError {
    /// Prefixes the path with the segment of the container holding the failing value.
    pub(super) fn within(mut self, segment: &str) -> Self {
        if let Self::TooDeep { path, .. } | Self::NotANumber { path, .. } = &mut self {
            path.insert_str(0, segment);
        }
        self
    }

    /// The JSON path of the value at fault, empty for the card itself.
    pub fn path(&self) -> &str {
        match self {
            Self::TooDeep { path, .. } | Self::NotANumber { path, .. } => {
                path.strip_prefix('.').unwrap_or(path)
            }
            Self::Json(_) => "",
        }
    }
}

impl fmt::Display for CanonicalizationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if !path.is_empty() {
            write!(f, "at `{path}`: ")?;
        }
        match self {
            Self::TooDeep { max_depth, .. } => {
                write!(f, "nesting exceeds the maximum depth of {max_depth}")
            }
            Self::NotANumber { text, .. } => write!(f, "{text} is not a finite JSON number"),
            Self::Json(message) => write!(f, "the card has no JSON form: {message}"),
        }
    }
}

impl std::error::Error for CanonicalizationError {}

/// Why a signing key could not be loaded or a signature made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignError {
    /// The name is not one of [`SigningAlgorithm`](super::SigningAlgorithm)'s (`none` and the HMAC
    /// algorithms never are).
    UnknownAlgorithm(String),
    /// The PEM text is not a private key of the algorithm's kind (an RSA key for ES256, a P-384 key for
    /// ES256, a public key, or not PEM at all).
    BadKey {
        /// The algorithm the key was loaded for.
        algorithm: super::SigningAlgorithm,
        /// What the JOSE library said.
        reason: String,
    },
    /// The card has no canonical form, so it cannot be signed.
    NotCanonicalizable(CanonicalizationError),
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownAlgorithm(name) => write!(
                f,
                "unknown signing algorithm `{}` (accepted: {})",
                super::bounded(name),
                super::SigningAlgorithm::NAMES.join(", ")
            ),
            Self::BadKey { algorithm, reason } => {
                write!(f, "the key is not a private {algorithm} key: {reason}")
            }
            Self::NotCanonicalizable(error) => {
                write!(f, "the card cannot be canonicalized: {error}")
            }
        }
    }
}

impl std::error::Error for SignError {}

/// Why a trusted key set could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeySetError {
    /// The document is not a JWK Set (`{"keys": [...]}`) or a single JWK.
    NotAKeySet(String),
    /// A key has no `kid`: signatures find their key by `kid`, so it could never be used.
    MissingKeyId {
        /// Its position in `keys`.
        index: usize,
    },
    /// Two keys share a `kid`, so a signature naming it would be ambiguous.
    DuplicateKeyId(String),
    /// No key of the set is usable for signatures (every one is an HMAC secret, of an unsupported type,
    /// or malformed).
    NoUsableKey {
        /// Why each key was skipped.
        skipped: Vec<String>,
    },
}

impl fmt::Display for KeySetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAKeySet(reason) => write!(f, "not a JWK Set: {reason}"),
            Self::MissingKeyId { index } => write!(f, "at `keys[{index}]`: the key has no `kid`"),
            Self::DuplicateKeyId(kid) => {
                write!(f, "two keys have the `kid` `{}`", super::bounded(kid))
            }
            Self::NoUsableKey { skipped } => {
                write!(f, "no usable signature key in the set")?;
                if !skipped.is_empty() {
                    write!(f, " ({})", skipped.join("; "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for KeySetError {}

/// Why a card was not accepted by [`CardVerifier::verify`](super::CardVerifier::verify).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The card has no `signatures`.
    NoSignature,
    /// The card has no canonical form, so no signature can be checked.
    NotCanonicalizable(CanonicalizationError),
    /// No signature verified; why each one was rejected, in the card's order.
    NoValidSignature(Vec<SignatureRejection>),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSignature => write!(f, "the card has no signatures"),
            Self::NotCanonicalizable(error) => {
                write!(f, "the card cannot be canonicalized: {error}")
            }
            Self::NoValidSignature(rejections) => {
                write!(f, "no valid signature: ")?;
                for (position, rejection) in rejections.iter().enumerate() {
                    if position > 0 {
                        write!(f, "; ")?;
                    }
                    write!(f, "{rejection}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Why one signature of a card was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureRejection {
    /// Its position in the card's `signatures`.
    pub index: usize,
    /// Why.
    pub reason: RejectReason,
}

impl fmt::Display for SignatureRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "signatures[{}]: {}", self.index, self.reason)
    }
}

/// Why one signature was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RejectReason {
    /// The signature is not a well-formed detached JWS: `protected` or `signature` not base64url, the
    /// protected header not a JSON object, too long, without `alg`, or with a `crit` parameter.
    Malformed(String),
    /// The header's `alg` is not on the verifier's allow-list (`none` and HMAC never are).
    AlgorithmNotAllowed(String),
    /// No trusted key has the header's `kid` (`None`: the header names none).
    UnknownKey(Option<String>),
    /// The trusted key with that `kid` does not fit the algorithm (an RSA key for ES256, a P-384 key
    /// for ES256, a key whose own `alg` is another).
    KeyDoesNotFitAlgorithm {
        /// The key's `kid`.
        kid: String,
        /// The header's algorithm.
        algorithm: String,
    },
    /// The signature does not verify: the card was changed, or signed by another key.
    SignatureMismatch {
        /// The key's `kid`.
        kid: String,
    },
    /// Beyond the number of signatures a verifier looks at ([`MAX_SIGNATURES`](super::MAX_SIGNATURES)).
    TooManySignatures,
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(what) => write!(f, "malformed signature: {what}"),
            Self::AlgorithmNotAllowed(alg) => {
                write!(f, "algorithm `{}` is not allowed", super::bounded(alg))
            }
            Self::UnknownKey(Some(kid)) => write!(f, "unknown key `{}`", super::bounded(kid)),
            Self::UnknownKey(None) => write!(f, "the protected header names no key (`kid`)"),
            Self::KeyDoesNotFitAlgorithm { kid, algorithm } => write!(
                f,
                "key `{}` cannot verify {}",
                super::bounded(kid),
                super::bounded(algorithm)
            ),
            Self::SignatureMismatch { kid } => write!(
                f,
                "the signature does not match the card (key `{}`)",
                super::bounded(kid)
            ),
            Self::TooManySignatures => write!(
                f,
                "more than {} signatures; the rest are not checked",
                super::MAX_SIGNATURES
            ),
        }
    }
}

// Reading an algorithm's name fails with this module's error, so the parse lives here, and the
// algorithm's own file does not depend on the error that depends on it.
impl std::str::FromStr for super::SigningAlgorithm {
    type Err = SignError;

    /// Reads a JWS `alg` name, exactly as RFC 7518 spells it (case matters: `es256` is not `ES256`).
    fn from_str(name: &str) -> Result<Self, SignError> {
        Self::NAMES
            .iter()
            .position(|known| *known == name)
            .map(|position| Self::ALL[position])
            .ok_or_else(|| SignError::UnknownAlgorithm(name.to_owned()))
    }
}
