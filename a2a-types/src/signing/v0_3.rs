//! The canonical bytes of an A2A v0.3 card (feature `v0_3`).

use serde_json::Value;

use super::CanonicalizationError;
use super::canonical::{canonicalize_card_json, check_params_depth};
use crate::v0_3::AgentCard;

/// The canonical bytes of a v0.3 agent card: its v0.3 JSON without `signatures`, empty values dropped
/// and RFC 8785, the rules of [`canonicalize`](super::canonicalize) applied to the v0.3 form.
///
/// How v0.3 cards are signed in practice, and which bytes to use:
/// - The official Python SDK 1.3.0 verifies a v0.3 card (one without `supportedInterfaces`) after
///   reading it into a v1 card: a signature made by it, or meant for it, covers
///   [`canonicalize`](super::canonicalize) of that v1 card (`bridge` converts), not these bytes. The
///   card it serves carries v1 and v0.3 fields together, signed as v1.
/// - The Python SDK 0.3.x signed its v0.3 card with `json.dumps` over a pydantic dump without the
///   model's default values (see the module docs): for a card whose text is ASCII, whose numbers are
///   integers and whose keys are ASCII, that is these bytes except where a field equals its model
///   default (such as `"preferredTransport": "JSONRPC"`, which 0.3.x left out and which is kept
///   here).
///
/// # Errors
///
/// [`CanonicalizationError::TooDeep`] when an extension's `params` nest too deep.
pub fn canonicalize_v0_3(card: &AgentCard) -> Result<Vec<u8>, CanonicalizationError> {
    let extensions = card.capabilities.extensions.iter().flatten();
    for (index, extension) in extensions.enumerate() {
        if let Some(params) = &extension.params {
            check_params_depth(params, index)?;
        }
    }
    let json: Value =
        serde_json::to_value(card).map_err(|e| CanonicalizationError::Json(e.to_string()))?;
    canonicalize_card_json(json)
}
