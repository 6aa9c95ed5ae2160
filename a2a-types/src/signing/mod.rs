//! Signed agent cards (A2A §8.4, feature `signing`): the canonical bytes a card's signatures cover,
//! signing with a private key, and verifying against keys the caller trusts.
//!
//! ```
//! use a2a_types::signing::{CardSigner, CardVerifier, SigningAlgorithm, VerifyError};
//! use a2a_types::v1::AgentCard;
//!
//! # let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/signing");
//! # let pem = std::fs::read(format!("{fixtures}/eddsa.pem"))?;
//! # let jwks = std::fs::read(format!("{fixtures}/jwks.json"))?;
//! // The agent signs its card (the key's PEM and the `kid` its JWK Set publishes the key under).
//! let signer = CardSigner::from_pem(&pem, SigningAlgorithm::EdDsa, "eddsa-test")?;
//! let mut card: AgentCard = serde_json::from_str(r#"{"name": "Travel agent", "version": "1.0.0"}"#)?;
//! signer.sign(&mut card)?;
//!
//! // A client that trusts the keys of that JWK Set accepts the card, and refuses it once changed.
//! let verifier = CardVerifier::from_jwks(&jwks)?.with_algorithms([SigningAlgorithm::EdDsa]);
//! assert_eq!(verifier.verify(&card)?.kid, "eddsa-test");
//! card.version = "1.0.1".into();
//! assert!(matches!(verifier.verify(&card), Err(VerifyError::NoValidSignature(_))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Canonical bytes
//!
//! [`canonicalize`] gives the JWS payload of a card's signatures, byte for byte what the official
//! Python SDK 1.3.0 signs and verifies (`a2a-sdk[signing]`; the workspace's `signing_v1` interop tests
//! compare every fixture card and thousands of generated ones with it):
//!
//! 1. The card's ProtoJSON, as the SDK's `MessageToDict` writes it and as this crate serializes it:
//!    camelCase names, fields without presence left out at their default (`""`, `false`, `0`, empty
//!    lists and maps), proto3 `optional` fields kept when set (`"streaming": false` stays), enums by
//!    name. Every number is an IEEE 754 double: the numbers of an extension's `params` are a
//!    `google.protobuf.Struct`'s there, so `2^53 + 1` is signed as `9007199254740992`.
//! 2. `signatures` removed.
//! 3. Empty values dropped, at every depth, inside `params` too: `""`, `null`, `[]`, `{}`, and arrays
//!    and objects left empty once their own members are dropped. `false` and `0` stay. A card with
//!    nothing left canonicalizes to `null`.
//! 4. RFC 8785 ([`canonical_json`]): members ordered by UTF-16 code units, ECMAScript number text
//!    (`1e+21`, `5e-324`, `1.0` as `1`, `-0` as `0`), UTF-8 text with only `"`, `\` and controls
//!    escaped, no whitespace.
//! 5. Nesting deeper than [`MAX_DEPTH`] (128 objects and arrays, the card counting 1) has no canonical
//!    form ([`CanonicalizationError::TooDeep`]), as in the SDK.
//!
//! A v0.3 card (`a2a_compat::v0_3::signing::canonicalize_v0_3`) is signed over the canonical bytes of its v1
//! form, as the Python SDK 1.3.0 reads a fetched v0.3 card into v1 before verifying it.
//!
//! ## Where implementations disagree
//!
//! - **The spec and the Python SDK**: §8.4.1's example keeps REQUIRED fields at their default
//!   (`"description": ""`, `"skills": []`); the SDK drops every empty value, REQUIRED or not, and so
//!   does this crate (a signature must verify with the SDKs that exist). The spec says nothing about
//!   `null` or empty values inside `params`; the SDK drops them there too.
//! - **Python SDK 0.3.x and 1.3.0**: 0.3.x wrote the canonical form with Python's `json.dumps`
//!   (`sort_keys`, ASCII escapes for all non-ASCII text, keys in code point order, Python's float
//!   text) over a pydantic dump that also dropped fields equal to their model defaults; 1.3.0 writes
//!   RFC 8785 (a2a-python #1193). Cards with non-ASCII text, astral-plane keys or fractional numbers
//!   signed by 0.3.x do not verify with 1.3.0 or here.
//! - **The JS SDK 1.3.0** (`@a2a-js/sdk`'s `canonicalizeAgentCard`, compared by the workspace's
//!   `signing_js` tests): the same bytes for every card but one with nothing left once empty values
//!   are dropped, which it writes `{}` (the Python SDK and this crate: `null`; we follow Python). It
//!   has no nesting limit. Its verifier also refuses a signature whose protected header lacks `typ`
//!   (so [`CardSigner::with_typ`]`(None)` makes cards it will not accept).
//! - **The Python SDK 1.3.0 with itself, on v0.3 cards**: its message conversion
//!   (`compat.v0_3.conversions`, which `a2a_compat::bridge` follows) gives a v0.3 card's
//!   `additionalInterfaces` the protocol version `0.3`, its client's card reader (`parse_agent_card`,
//!   applied before verifying) the card's own `protocolVersion`. A signature covers the reader's form,
//!   so `v0_3_card_as_v1` and `canonicalize_v0_3` follow the reader.
//! - **The Python SDK's verifier** hands the payload to PyJWT's JWT decoder, which wants a JSON object:
//!   a card whose canonical form is `null` is signed by that SDK but never verified by it. It verifies
//!   here.
//! - **Nesting**: this crate reads `params` up to [`MAX_NESTING_DEPTH`](crate::MAX_NESTING_DEPTH) (30)
//!   deep from JSON, while the Python SDK's card reader goes to its parser's limit (100) and its
//!   canonicalizer to 128: a card with `params` nested deeper than 30 can verify there and is refused
//!   here when read (a card built in code canonicalizes here up to the same 128).
//! - **base64url**: the Python SDK's decoder accepts padding and skips characters outside the alphabet;
//!   this verifier accepts only unpadded base64url (RFC 7515 section 2), so such a signature is
//!   [`RejectReason::Malformed`] here.
//!
//! # Signing
//!
//! [`CardSigner`] makes a detached JWS (RFC 7515 appendix F) per A2A §8.4.2: the protected header
//! holds `alg`, `kid`, `typ` (`JOSE` by default) and optionally `jku`; the signing input is
//! `protected || "." || BASE64URL(canonical bytes)`; the result is an
//! [`AgentCardSignature`](crate::v1::AgentCardSignature) appended to the card's `signatures`. The
//! algorithms are [`SigningAlgorithm`]'s: ES256, ES384, RS256/384/512, PS256/384/512 and EdDSA
//! (Ed25519). `none` and HMAC cannot be named.
//!
//! # Verifying
//!
//! [`CardVerifier`] holds the public keys the caller trusts (a JWK Set) and an algorithm allow-list.
//! A card is accepted when one signature verifies ([`VerifiedSignature`]); otherwise
//! [`VerifyError`] says why: no signature, no canonical form, or for each signature a
//! [`RejectReason`] (malformed, algorithm not allowed, unknown key, key not fitting the algorithm,
//! signature not matching, too many signatures). A signature's `jku` is not fetched: a key the card
//! names for itself proves nothing. Hostile input is bounded: [`MAX_PROTECTED_HEADER_BYTES`],
//! [`MAX_SIGNATURE_BYTES`], [`MAX_SIGNATURES`], [`MAX_DEPTH`]; RSA keys under [`MIN_RSA_BITS`] and
//! symmetric keys are never trusted; the key's type, curve and own `alg` must fit the header's `alg`.
//!
//! # Cryptography
//!
//! None is written here: the signatures and JWK parsing are `jsonwebtoken` 11's, with its RustCrypto
//! backend (`p256`, `p384`, `rsa`, `ed25519-dalek`; pure Rust, no C toolchain), through its
//! `crypto::sign` / `crypto::verify`, which work on any bytes (a card's payload is not JWT claims).
//! `josekit` was the alternative; it needs OpenSSL. Note that the `rsa` crate's private-key operations
//! are not constant-time (RUSTSEC-2023-0071): an agent that signs on hardware an attacker can time
//! should prefer ES256 or EdDSA. Verification uses only public keys and is unaffected.

mod algorithm;
mod canonical;
mod error;
mod jcs;
mod signer;
mod verifier;

use crate::json::bounded;

pub use algorithm::SigningAlgorithm;
pub use canonical::{canonicalize, check_params_depth};
pub use error::{
    CanonicalizationError, KeySetError, RejectReason, SignError, SignatureRejection, VerifyError,
};
pub use jcs::{MAX_DEPTH, canonical_json};
pub use signer::CardSigner;
pub use verifier::{
    CardVerifier, MAX_PROTECTED_HEADER_BYTES, MAX_SIGNATURE_BYTES, MAX_SIGNATURES, MIN_RSA_BITS,
    VerifiedSignature,
};
