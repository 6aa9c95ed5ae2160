//! The well-known card, in the form the request's `A2A-Version` asks for (section 3.6.2: a request
//! without one is a v0.3 request). A request for 1.x gets the public card as A2A v1 JSON, nothing
//! merged in, so it validates against the v1 schema. Any other request (no header, or 0.x), with
//! feature `v0_3`, gets the card a v0.3 client reads and a v1 client reads too: the v1 card with the
//! fields of its v0.3 form added (`url`, `preferredTransport`, `protocolVersion`,
//! `additionalInterfaces`; `a2a_compat::bridge::well_known_card_json`), as the official SDKs serve
//! it. (Without a 0.x interface in the card, or without the feature, every request gets the v1 card.)
//! A v0.2 or v0.1 client reads that same form (every member it requires is there: `url`, `name`,
//! `version`, `capabilities`, `skills`, ...); with feature `v0_2` it is served at their well-known
//! path too, `/.well-known/agent.json`, and says `supportsAuthenticatedExtendedCard` when the server
//! has an extended card (which v0.2 clients GET beside the JSON-RPC endpoint).
//!
//! Each form carries `Cache-Control`, `Vary: A2A-Version` and an `ETag` of its own body (section
//! 8.6: clients should cache the card), and a request whose `If-None-Match` names the current one
//! gets `304 Not Modified`.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use a2a_protocol::service::{A2A_VERSION_HEADER, MEDIA_TYPE_JSON, WELL_KNOWN_AGENT_CARD_PATH};
use axum::Router;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

#[cfg(feature = "v0_3")]
use crate::bindings::http_common::asks_for_v1;
use crate::core::state::ServerState;

/// Where A2A v0.1 and v0.2 clients look for the card (v0.3 moved it to `agent-card.json`).
#[cfg(feature = "v0_2")]
const OLDER_WELL_KNOWN_CARD_PATH: &str = "/.well-known/agent.json";

/// The public card at the well-known path (and, with feature `v0_2`, at v0.1's and v0.2's).
pub(crate) fn router(state: &Arc<ServerState>) -> Router {
    let routes = Router::new().route(WELL_KNOWN_AGENT_CARD_PATH, get(well_known_card));
    #[cfg(feature = "v0_2")]
    let routes = routes.route(OLDER_WELL_KNOWN_CARD_PATH, get(well_known_card));
    routes.with_state(state.clone())
}

/// How long clients may keep the card before asking again.
const CARD_MAX_AGE: &str = "public, max-age=300";

/// The card's JSON for a request with these headers (see the module docs).
#[cfg(feature = "v0_3")]
fn card_json(state: &ServerState, headers: &HeaderMap) -> Result<String, serde_json::Error> {
    if asks_for_v1(headers) {
        serde_json::to_string(&state.card)
    } else {
        let mut json = a2a_compat::bridge::well_known_card_json(&state.card);
        #[cfg(feature = "v0_2")]
        declare_extended_card(state, &mut json);
        serde_json::to_string(&json)
    }
}

/// Has the v0.x form (the one with a top-level `url`; v1 has none) declare the extended card v0.2
/// clients GET beside the JSON-RPC endpoint (`bindings::jsonrpc::older_card`) when the server has
/// one, whether or not the v1 card declares it.
#[cfg(feature = "v0_2")]
fn declare_extended_card(state: &ServerState, json: &mut serde_json::Value) {
    if state.extended_card.is_some()
        && let Some(object) = json.as_object_mut()
        && object.contains_key("url")
    {
        object.insert(
            "supportsAuthenticatedExtendedCard".into(),
            serde_json::Value::Bool(true),
        );
    }
}

/// The card's JSON: the v1 card for every request (v0.3 clients need feature `v0_3`).
#[cfg(not(feature = "v0_3"))]
fn card_json(state: &ServerState, _headers: &HeaderMap) -> Result<String, serde_json::Error> {
    serde_json::to_string(&state.card)
}

async fn well_known_card(State(state): State<Arc<ServerState>>, headers: HeaderMap) -> Response {
    match card_json(&state, &headers) {
        Ok(body) => {
            // A validator of this very body: equal cards give equal tags (not a security measure).
            let mut hasher = DefaultHasher::new();
            body.hash(&mut hasher);
            let etag = format!("\"{:016x}\"", hasher.finish());
            let fresh = headers
                .get_all(IF_NONE_MATCH)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .any(|tag| tag.trim() == etag || tag.trim() == "*");
            let cache = [
                (CACHE_CONTROL, CARD_MAX_AGE.to_owned()),
                (VARY, A2A_VERSION_HEADER.to_owned()),
                (ETAG, etag),
            ];
            if fresh {
                return (StatusCode::NOT_MODIFIED, cache).into_response();
            }
            (cache, [(CONTENT_TYPE, MEDIA_TYPE_JSON)], body).into_response()
        }
        Err(error) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the card does not serialize: {error}"),
        )
            .into_response(),
    }
}
