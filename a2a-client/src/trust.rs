//! The trust root of feature `signing` (A2A §8.4.3): a client given a
//! [`CardVerifier`] refuses every card no trusted key signed, with [`ClientError::UntrustedCard`]
//! naming the card and why (unsigned, each signature's reason, no canonical form).

use a2a_compat::bridge::AnyAgentCard;
use a2a_compat::v0_3::signing::v0_3_card_as_v1;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::signing::CardVerifier;
use a2a_types::v1::AgentCard;

use crate::error::ClientError;

/// For a v0.3 document, the v1 form its signatures cover: the official SDK reads a fetched v0.3
/// card with its card reader before verifying, which differs from the bridge's conversion in the
/// protocol versions of `additionalInterfaces` (see `a2a_types::signing`). `None` for a v1 document,
/// whose signatures cover the card as read.
pub(crate) fn signed_form(body: &[u8], version: ProtocolVersion) -> Option<AgentCard> {
    if version != ProtocolVersion::V0_3 {
        return None;
    }
    // The body was read under the limits already (`read_card`); read again only for its v0.3 form.
    let json = a2a_types::json::value_from_slice(body).ok()?;
    match AnyAgentCard::from_json(json).ok()? {
        AnyAgentCard::V0_3(card) => Some(v0_3_card_as_v1(&card)),
        _ => None,
    }
}

/// Accepts `card` (described by `which`) when there is no trust root or one of its signatures
/// verifies.
pub(crate) fn check(
    verifier: Option<&CardVerifier>,
    card: &AgentCard,
    which: &str,
) -> Result<(), ClientError> {
    match verifier {
        None => Ok(()),
        Some(verifier) => verifier
            .verify(card)
            .map(|_| ())
            .map_err(|reason| untrusted(which.to_owned(), reason)),
    }
}

/// The refusal of `card` (a description of which card) for `reason`, logged.
pub(crate) fn untrusted(card: String, reason: a2a_types::signing::VerifyError) -> ClientError {
    tracing::warn!(%card, %reason, "agent card refused by the trust root");
    ClientError::UntrustedCard { card, reason }
}
