//! The canonical bytes of an A2A v0.3 card (feature `signing`): those of its v1 form, as the official
//! SDK's client reads it, signed and verified by [`a2a_types::signing`].

use a2a_types::signing::{CanonicalizationError, check_params_depth};
use a2a_types::v1;

use crate::v0_3;

/// The protocol version the SDK's card reader assumes for a v0.3 card that names none.
const DEFAULT_V0_3_VERSION: &str = "0.3.0";

/// The v1 form a v0.3 card is verified in: the [`bridge`](crate::bridge) conversion, with the one
/// difference of the official Python SDK 1.3.0's card reader (`parse_agent_card`, which its client
/// applies to every fetched card before verifying it): the `additionalInterfaces` get the card's
/// `protocolVersion` (`0.3.0` when it has none), where the SDK's message conversion, which the bridge
/// follows, gives them `0.3`.
pub fn v0_3_card_as_v1(card: &v0_3::AgentCard) -> v1::AgentCard {
    let mut v1_card: v1::AgentCard = card.clone().into();
    let version = if card.protocol_version.is_empty() {
        DEFAULT_V0_3_VERSION
    } else {
        &card.protocol_version
    };
    for interface in v1_card.supported_interfaces.iter_mut().skip(1) {
        interface.protocol_version = version.to_owned();
    }
    v1_card
}

/// The canonical bytes of a v0.3 agent card, as the official Python SDK 1.3.0 signs and verifies
/// them: those of its v1 form ([`v0_3_card_as_v1`]). To verify a v0.3 card, give that v1 card to
/// [`CardVerifier::verify`](a2a_types::signing::CardVerifier::verify); its `signatures` carry over.
///
/// The Python SDK 0.3.x signed the v0.3 form itself, with rules of its own (see the module docs):
/// its signatures do not verify with the SDK 1.3.0, nor here.
///
/// # Errors
///
/// [`CanonicalizationError::TooDeep`] when an extension's `params` nest too deep.
pub fn canonicalize_v0_3(card: &v0_3::AgentCard) -> Result<Vec<u8>, CanonicalizationError> {
    // Checked before the conversion, which clones `params` recursively.
    let extensions = card.capabilities.extensions.iter().flatten();
    for (index, extension) in extensions.enumerate() {
        if let Some(params) = &extension.params {
            check_params_depth(params, index)?;
        }
    }
    a2a_types::signing::canonicalize(&v0_3_card_as_v1(card))
}
