//! The extended card for A2A v0.2 clients, which have no JSON-RPC method for it: specification
//! 0.2.6, section 7.10, serves it by `GET {AgentCard.url}/../agent/authenticatedExtendedCard`,
//! beside the JSON-RPC endpoint (the card's `url`): for JSON-RPC at `/jsonrpc` it is
//! `/agent/authenticatedExtendedCard`, for `/a2a/jsonrpc` `/a2a/agent/authenticatedExtendedCard`.
//! Routed only when the server has an extended card.
//!
//! The caller is authenticated and checked as for v1's `GetExtendedAgentCard` (the same
//! authenticator, the same refusals: HTTP 401 with `WWW-Authenticate`, or 403), and the card is
//! written in the form the well-known path gives v0.x clients (the v1 card with its v0.3 fields,
//! which a v0.2 client reads).

use std::sync::Arc;

use a2a_protocol::operations::Operation;
use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::auth::{Authenticated, PeerCertificate, Presented};
use crate::bindings::http_common::{call_context, json_response, refused};
use crate::core::call::check_access;
use crate::core::state::ServerState;

/// The path v0.2 names, relative to the parent of the JSON-RPC endpoint.
const EXTENDED_CARD_PATH: &str = "agent/authenticatedExtendedCard";

/// Where v0.2 clients GET the extended card of an agent whose JSON-RPC endpoint is at
/// `jsonrpc_path` (without a trailing `/`; empty for the root).
pub(super) fn extended_card_path(jsonrpc_path: &str) -> String {
    let parent = jsonrpc_path
        .rsplit_once('/')
        .map_or("", |(parent, _)| parent);
    format!("{parent}/{EXTENDED_CARD_PATH}")
}

/// `GET .../agent/authenticatedExtendedCard`: the extended card to an authenticated caller.
pub(super) async fn extended_card(
    State(state): State<Arc<ServerState>>,
    uri: Uri,
    headers: HeaderMap,
    certificate: Option<Extension<PeerCertificate>>,
    authenticated: Option<Extension<Authenticated>>,
) -> Response {
    let presented = Presented::new(certificate, authenticated);
    let context = match call_context(&state, &headers, uri.query(), &presented, "JSONRPC").await {
        Ok(context) => context,
        Err(refusal) => return refused(&state, &headers, refusal),
    };
    if let Err(refusal) = check_access(&state, Operation::GetExtendedAgentCard, &context.caller) {
        return refused(&state, &headers, refusal);
    }
    let Some(card) = &state.extended_card else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let json = a2a_compat::bridge::well_known_card_json(card);
    json_response(StatusCode::OK, json.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extended_card_is_beside_the_jsonrpc_endpoint() {
        assert_eq!(
            extended_card_path("/jsonrpc"),
            "/agent/authenticatedExtendedCard"
        );
        assert_eq!(
            extended_card_path("/a2a/jsonrpc"),
            "/a2a/agent/authenticatedExtendedCard"
        );
        assert_eq!(extended_card_path(""), "/agent/authenticatedExtendedCard");
    }
}
