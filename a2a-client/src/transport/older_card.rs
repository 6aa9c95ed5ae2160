//! v0.2's authenticated extended card, which v0.2 serves by an HTTP GET, not by a JSON-RPC method
//! (specification 0.2.6, section 7.10): at `{AgentCard.url}/../agent/authenticatedExtendedCard`,
//! only when the public card says `supportsAuthenticatedExtendedCard`, with the client's
//! credentials. The answer is a card like the public one, read and upgraded to v1 the same way.
//!
//! The URL drops the last segment of the card's `url` (a trailing `/` ignored): for
//! `https://example.com/a2a/v1` it is `https://example.com/a2a/agent/authenticatedExtendedCard`,
//! as the specification's own example has it; for an agent at its host's root
//! (`http://host:port/`, as the official SDK 0.2's agents are) it is
//! `http://host:port/agent/authenticatedExtendedCard`, where that SDK serves it.

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::MethodResult;
use a2a_types::v1::GetExtendedAgentCardRequest;
use serde_json::Value;

use crate::binding::Binding;
use crate::card::read_card_json;
use crate::error::ClientError;
use crate::http::{read_json, send};
use crate::transport::contract::{CallMeta, Common};

/// The path v0.2 names, relative to the parent of the card's `url`.
const EXTENDED_CARD_PATH: &str = "agent/authenticatedExtendedCard";

/// The URL of the extended card of a v0.2 agent whose card's `url` is `card_url`.
pub(crate) fn extended_card_url(card_url: &str) -> Result<String, ClientError> {
    let mut url = reqwest::Url::parse(card_url).map_err(|e| {
        ClientError::invalid(
            Some(Binding::JsonRpc),
            format!("the card's `url` {card_url:?}: {e}"),
        )
    })?;
    let path = url.path().trim_end_matches('/');
    let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
    let path = format!("{parent}/{EXTENDED_CARD_PATH}");
    url.set_path(&path);
    url.set_query(None);
    Ok(url.to_string())
}

/// GETs the extended card at `url` with the call's credentials, as a v1 card. A 404 is the agent
/// saying it has none configured (the SDK's answer); a 401 or 403 is the refusal of the
/// credentials.
pub(crate) async fn get_extended_card(
    common: &Common,
    url: &str,
    request: &GetExtendedAgentCardRequest,
    meta: &CallMeta,
) -> Result<MethodResult, ClientError> {
    if request.tenant.as_deref().is_some_and(|t| !t.is_empty()) {
        return Err(ClientError::NotConvertible {
            message: "`params.tenant`: v0.2's extended card GET has no tenant".to_owned(),
        });
    }
    const JSONRPC: Binding = Binding::JsonRpc;
    let request = common
        .request(reqwest::Method::GET, url, meta)
        .header(reqwest::header::ACCEPT, "application/json");
    let response = send(JSONRPC, url, request, meta.observing.as_ref()).await?;
    let (status, json) = read_json(JSONRPC, response, common.limits()).await?;
    match status {
        200..=299 => read_extended_card(json),
        404 => Err(ClientError::A2a {
            binding: JSONRPC,
            error: Error::with_message(
                ErrorKind::ExtendedAgentCardNotConfigured,
                format!("HTTP 404 at {url}"),
            ),
        }),
        _ => Err(ClientError::transport(
            Some(JSONRPC),
            format!(
                "HTTP {status} at {url}: {}",
                a2a_types::json::bounded(&json.to_string())
            ),
        )),
    }
}

/// The extended card's JSON (v0.2, read as v0.3, or any version the public card may be in) as v1.
fn read_extended_card(json: Value) -> Result<MethodResult, ClientError> {
    let (card, _) = read_card_json(json).map_err(|e| {
        ClientError::invalid(
            Some(Binding::JsonRpc),
            format!("the v0.2 extended card: {e}"),
        )
    })?;
    Ok(MethodResult::GetExtendedAgentCard(card))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extended_card_is_beside_the_last_segment_of_the_card_url() {
        for (card_url, expected) in [
            (
                "https://example.com/a2a/v1",
                "https://example.com/a2a/agent/authenticatedExtendedCard",
            ),
            (
                "http://127.0.0.1:8000/",
                "http://127.0.0.1:8000/agent/authenticatedExtendedCard",
            ),
            (
                "http://127.0.0.1:8000",
                "http://127.0.0.1:8000/agent/authenticatedExtendedCard",
            ),
            (
                "https://example.com/a2a/v1/?x=1",
                "https://example.com/a2a/agent/authenticatedExtendedCard",
            ),
        ] {
            assert_eq!(extended_card_url(card_url).unwrap(), expected, "{card_url}");
        }
        assert!(matches!(
            extended_card_url("not a url"),
            Err(ClientError::InvalidResponse { .. })
        ));
    }

    #[test]
    fn a_v0_2_extended_card_reads_as_v1() {
        let json = serde_json::json!({
            "name": "agent", "description": "d", "url": "http://h/", "version": "1",
            "protocolVersion": "0.2.6", "capabilities": {},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "secret", "name": "Secret", "description": "s", "tags": []}],
        });
        match read_extended_card(json).expect("a card") {
            MethodResult::GetExtendedAgentCard(card) => assert_eq!(card.skills[0].id, "secret"),
            other => panic!("{other:?}"),
        }
        let broken = serde_json::json!({"name": 3});
        assert!(matches!(
            read_extended_card(broken),
            Err(ClientError::InvalidResponse { .. })
        ));
    }
}
