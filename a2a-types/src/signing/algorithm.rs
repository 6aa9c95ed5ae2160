//! The JWS algorithms a card may be signed with: the asymmetric ones only. `none` and the HMAC family
//! are not representable, so neither a signer nor a verifier can be made to use them, and a public key
//! can never be taken for an HMAC secret (the classic algorithm-confusion attack).

use std::fmt;

use jsonwebtoken::Algorithm;

/// A JWS signature algorithm (RFC 7518 section 3, RFC 8037 for EdDSA) that agent card signatures may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SigningAlgorithm {
    /// ECDSA on P-256 with SHA-256.
    Es256,
    /// ECDSA on P-384 with SHA-384.
    Es384,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    Rs384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    Rs512,
    /// RSASSA-PSS with SHA-256.
    Ps256,
    /// RSASSA-PSS with SHA-384.
    Ps384,
    /// RSASSA-PSS with SHA-512.
    Ps512,
    /// EdDSA on Ed25519.
    EdDsa,
}

/// The kind of key an algorithm needs, as a JWK names it (`kty`, and `crv` where there is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyKind {
    Rsa,
    Ec(&'static str),
    Okp(&'static str),
}

impl SigningAlgorithm {
    /// Every algorithm, the default allow-list of a verifier.
    pub const ALL: [SigningAlgorithm; 9] = [
        Self::Es256,
        Self::Es384,
        Self::Rs256,
        Self::Rs384,
        Self::Rs512,
        Self::Ps256,
        Self::Ps384,
        Self::Ps512,
        Self::EdDsa,
    ];

    /// Their `alg` names, in the order of [`ALL`](Self::ALL).
    pub const NAMES: [&'static str; 9] = [
        "ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA",
    ];

    /// The JWS `alg` name (`ES256`, `EdDSA`).
    pub fn name(self) -> &'static str {
        let position = Self::ALL
            .iter()
            .position(|algorithm| *algorithm == self)
            .expect("ALL lists every algorithm");
        Self::NAMES[position]
    }

    pub(super) fn jose(self) -> Algorithm {
        match self {
            Self::Es256 => Algorithm::ES256,
            Self::Es384 => Algorithm::ES384,
            Self::Rs256 => Algorithm::RS256,
            Self::Rs384 => Algorithm::RS384,
            Self::Rs512 => Algorithm::RS512,
            Self::Ps256 => Algorithm::PS256,
            Self::Ps384 => Algorithm::PS384,
            Self::Ps512 => Algorithm::PS512,
            Self::EdDsa => Algorithm::EdDSA,
        }
    }

    pub(super) fn key_kind(self) -> KeyKind {
        match self {
            Self::Es256 => KeyKind::Ec("P-256"),
            Self::Es384 => KeyKind::Ec("P-384"),
            Self::EdDsa => KeyKind::Okp("Ed25519"),
            Self::Rs256 | Self::Rs384 | Self::Rs512 | Self::Ps256 | Self::Ps384 | Self::Ps512 => {
                KeyKind::Rsa
            }
        }
    }
}

impl fmt::Display for SigningAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::SignError;

    #[test]
    fn names_read_back_and_none_and_hmac_are_not_algorithms() {
        for algorithm in SigningAlgorithm::ALL {
            assert_eq!(algorithm.name().parse::<SigningAlgorithm>(), Ok(algorithm));
            assert_eq!(format!("{:?}", algorithm.jose()), algorithm.name());
        }
        for name in ["none", "HS256", "HS512", "es256", ""] {
            assert_eq!(
                name.parse::<SigningAlgorithm>(),
                Err(SignError::UnknownAlgorithm(name.to_owned()))
            );
        }
    }
}
