//! The extended card for A2A v0.2 clients (feature `v0_2`): v0.2 has no JSON-RPC method for it and
//! GETs it at `{card url}/../agent/authenticatedExtendedCard` (specification 0.2.6, section 7.10).
//! Over loopback: the card at v0.2's well-known path says `supportsAuthenticatedExtendedCard` once
//! the server has an extended card (though the v1 card does not declare it); the GET beside the
//! JSON-RPC endpoint is refused (401 with a challenge) without the bearer token and answers the
//! extended card in the v0.x form with it; a server without an extended card declares none and
//! answers 404.
#![cfg(feature = "v0_2")]

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_server::auth::BearerTokens;
use a2a_server::{A2aServer, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{AgentCard, AgentSkill};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(20);

struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn skill(id: &str) -> AgentSkill {
    AgentSkill {
        id: id.into(),
        name: id.into(),
        description: format!("The skill {id}."),
        tags: vec!["test".into()],
        ..Default::default()
    }
}

/// A card with v1 and v0.3 JSON-RPC at `/jsonrpc`, not declaring an extended card.
fn card(skills: &[&str]) -> AgentCard {
    let mut builder = AgentCard::builder("Older", "Serves v0.2 clients.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .jsonrpc_v0_3("http://127.0.0.1:1/jsonrpc")
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"]);
    for id in skills {
        builder = builder.skill(skill(id));
    }
    builder.build().expect("a valid card")
}

/// The status, `WWW-Authenticate` and JSON body of a GET of `url`.
async fn get(url: &str, token: Option<&str>) -> (u16, Option<String>, Value) {
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = tokio::time::timeout(LIMIT, request.send())
        .await
        .expect("in time")
        .expect("an answer");
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = response.bytes().await.expect("a body");
    let json = serde_json::from_slice(&body).unwrap_or(Value::Null);
    (status, challenge, json)
}

async fn loopback() -> (tokio::net::TcpListener, tokio::net::TcpListener) {
    (
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    )
}

#[tokio::test]
async fn a_v0_2_client_gets_the_extended_card_beside_the_jsonrpc_endpoint_with_its_token() {
    let server = A2aServer::builder(card(&["public"]), Done)
        .extended_card(card(&["public", "members-only"]))
        .authenticator(BearerTokens::new().token("t-1", "alice"))
        .build();
    let (http, grpc) = loopback().await;
    let serving = server.serve(http, grpc).await.unwrap();
    let base = serving.base_url();

    let (status, _, public) = get(&format!("{base}/.well-known/agent.json"), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        public["supportsAuthenticatedExtendedCard"], true,
        "{public}"
    );

    let extended_url = format!("{base}/agent/authenticatedExtendedCard");
    let (status, challenge, _) = get(&extended_url, None).await;
    assert_eq!(status, 401);
    assert!(challenge.is_some_and(|c| c.starts_with("Bearer")));
    let (status, _, _) = get(&extended_url, Some("not-the-token")).await;
    assert_eq!(status, 401);

    let (status, _, extended) = get(&extended_url, Some("t-1")).await;
    assert_eq!(status, 200, "{extended}");
    let skills: Vec<&str> = extended["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert_eq!(skills, ["public", "members-only"]);
    // The v0.x form, as v0.2 clients read the public card: with the v0.3 `url` and version.
    assert_eq!(extended["url"], "http://127.0.0.1:1/jsonrpc", "{extended}");
    assert!(extended["protocolVersion"].is_string(), "{extended}");
    serving.shutdown().await;
}

#[tokio::test]
async fn without_an_extended_card_none_is_declared_or_served() {
    let server = A2aServer::builder(card(&["public"]), Done)
        .authenticator(BearerTokens::new().token("t-1", "alice"))
        .build();
    let (http, grpc) = loopback().await;
    let serving = server.serve(http, grpc).await.unwrap();
    let base = serving.base_url();
    let (_, _, public) = get(&format!("{base}/.well-known/agent.json"), None).await;
    assert!(public.get("url").is_some(), "{public}");
    assert!(
        public.get("supportsAuthenticatedExtendedCard").is_none(),
        "{public}"
    );
    let (status, _, _) = get(
        &format!("{base}/agent/authenticatedExtendedCard"),
        Some("t-1"),
    )
    .await;
    assert_eq!(status, 404);
    serving.shutdown().await;
}
