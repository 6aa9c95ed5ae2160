//! The well-known card: the public card as A2A v1 JSON, nothing merged in, so it validates against
//! the v1 schema. It carries `Cache-Control` and an `ETag` (section 8.6: clients should cache it),
//! and a request whose `If-None-Match` names the current one gets `304 Not Modified`. (A2A v0.3
//! clients that need v0.3's `url` and `preferredTransport` read a v0.3 card from an agent that
//! serves one; the bridge's `well_known_card_json` makes one.)

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use a2a_protocol::service::{MEDIA_TYPE_JSON, WELL_KNOWN_AGENT_CARD_PATH};
use axum::Router;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::core::state::ServerState;

/// The public card at the well-known path.
pub(crate) fn router(state: &Arc<ServerState>) -> Router {
    Router::new()
        .route(WELL_KNOWN_AGENT_CARD_PATH, get(well_known_card))
        .with_state(state.clone())
}

/// How long clients may keep the card before asking again.
const CARD_MAX_AGE: &str = "public, max-age=300";

async fn well_known_card(State(state): State<Arc<ServerState>>, headers: HeaderMap) -> Response {
    match serde_json::to_string(&state.card) {
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
            let cache = [(CACHE_CONTROL, CARD_MAX_AGE.to_owned()), (ETAG, etag)];
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
