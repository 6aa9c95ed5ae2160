//! The well-known card: the public card as A2A v1 JSON, nothing merged in, so it validates against
//! the v1 schema. (A2A v0.3 clients that need v0.3's `url` and `preferredTransport` read a v0.3
//! card from an agent that serves one; the bridge's `well_known_card_json` makes one.)

use a2a_types::service::{MEDIA_TYPE_JSON, WELL_KNOWN_AGENT_CARD_PATH};
use axum::Router;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::server::A2aServer;

pub(super) fn routes() -> Router<A2aServer> {
    Router::new().route(WELL_KNOWN_AGENT_CARD_PATH, get(well_known_card))
}

async fn well_known_card(State(server): State<A2aServer>) -> Response {
    match serde_json::to_string(server.card()) {
        Ok(body) => ([(CONTENT_TYPE, MEDIA_TYPE_JSON)], body).into_response(),
        Err(error) => (
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("the card does not serialize: {error}"),
        )
            .into_response(),
    }
}
