//! [`ClientCredentials`] against scripted token endpoints and agents: tokens fetched once however
//! many calls wait, renewed shortly before they expire (kept until refused when the endpoint does not
//! say how long they live), the token endpoint found by OpenID discovery with the scopes the card
//! requires, and a token the agent refuses refreshed once and the call sent again, by one fetch
//! however many calls it refused together; the secret in a Basic header when asked; a token source
//! of the caller's own asked before each request and told of a refusal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use a2a_client::auth::{ClientCredentials, Credential, Credentials, TokenSource};
use a2a_client::{A2aClient, ClientConfig, RetryPolicy};
use a2a_types::v1::{AgentCard, GetTaskRequest};
use serde_json::json;
use tokio::net::TcpListener;

use crate::agent::{json_response, rpc_result, serve, task, v1_card};

/// A scripted agent whose token endpoint hands out `tok-1`, `tok-2`, … (slowly, so concurrent calls
/// overlap), each living an hour, and which refuses the tokens in `refused` with HTTP 401.
async fn token_agent(refused: &'static [&'static str]) -> (crate::agent::FakeAgent, AgentCard) {
    token_agent_living(refused, Some(3600)).await
}

/// [`token_agent`] with tokens living `expires_in` seconds (no `expires_in` in the answer for
/// `None`). It also serves an OpenID discovery document naming its token endpoint.
async fn token_agent_living(
    refused: &'static [&'static str],
    expires_in: Option<u64>,
) -> (crate::agent::FakeAgent, AgentCard) {
    let issued = Arc::new(AtomicUsize::new(0));
    let agent = serve(move |request, _, base| {
        if request.path == "/token" {
            std::thread::sleep(Duration::from_millis(200));
            let n = issued.fetch_add(1, Ordering::SeqCst) + 1;
            let mut answer = json!({"access_token": format!("tok-{n}"), "token_type": "Bearer"});
            if let Some(seconds) = expires_in {
                answer["expires_in"] = json!(seconds);
            }
            return json_response(200, &answer);
        }
        if request.path == "/.well-known/openid-configuration" {
            return json_response(
                200,
                &json!({"issuer": base, "token_endpoint": format!("{base}/token")}),
            );
        }
        let token = request.header("authorization").unwrap_or_default();
        if refused.iter().any(|r| token == format!("Bearer {r}")) {
            return json_response(
                401,
                &json!({"jsonrpc": "2.0", "id": request.body["id"],
                "error": {"code": -31401, "message": "the token has expired"}}),
            );
        }
        rpc_result(request, task("t-1", "TASK_STATE_WORKING"))
    })
    .await;
    let card = with_oauth_flow(
        v1_card(&agent.base, &[("/rpc", "JSONRPC")]),
        format!("{}/token", agent.base),
    );
    (agent, card)
}

fn oauth_client(card: &AgentCard, source: Arc<ClientCredentials>) -> A2aClient {
    let config = ClientConfig {
        credentials: Credentials::new().with("oauth", Credential::Source(source)),
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    A2aClient::from_card(card.clone(), config).expect("client")
}

fn get_t1() -> GetTaskRequest {
    GetTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_wait_for_one_token_fetch() {
    let (agent, card) = token_agent(&[]).await;
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    let client = oauth_client(&card, source.clone());
    // Spawned all at once (collected), then awaited.
    let calls: Vec<_> = (0..16)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.get_task(get_t1()).await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().expect("answered");
    }
    assert_eq!(source.fetches(), 1);
    let token_requests = agent
        .requests()
        .iter()
        .filter(|r| r.path == "/token")
        .count();
    assert_eq!(token_requests, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_refreshed_once_and_the_call_sent_again() {
    // `tok-1` is refused (the issuer revoked it, say): one new token, one more request.
    let (agent, card) = token_agent(&["tok-1"]).await;
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    oauth_client(&card, source.clone())
        .get_task(get_t1())
        .await
        .expect("answered with the fresh token");
    assert_eq!(source.fetches(), 2);
    let sent: Vec<_> = agent
        .calls()
        .iter()
        .filter(|r| r.path == "/rpc")
        .map(|r| r.header("authorization").unwrap_or_default().to_owned())
        .collect();
    assert_eq!(sent, ["Bearer tok-1", "Bearer tok-2"]);

    // Every token refused: the call is sent twice, not more, and the refusal reaches the caller.
    let (agent, card) = token_agent(&["tok-1", "tok-2", "tok-3"]).await;
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    let refused = oauth_client(&card, source.clone())
        .get_task(get_t1())
        .await
        .unwrap_err();
    assert!(refused.is_unauthenticated(), "{refused}");
    assert_eq!(agent.calls().iter().filter(|r| r.path == "/rpc").count(), 2);
}

/// `card` with the OAuth 2 scheme `oauth`: a client-credentials flow at `token_url`.
fn with_oauth_flow(mut card: AgentCard, token_url: String) -> AgentCard {
    let flow = json!({"clientCredentials": {"tokenUrl": token_url, "scopes": {}}});
    card.security_schemes.insert(
        "oauth".into(),
        serde_json::from_value(json!({"oauth2SecurityScheme": {"flows": flow}})).unwrap(),
    );
    card
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_refused_together_share_one_refresh() {
    // Eight calls hold the cached `tok-1` when the agent starts refusing it (the issuer revoked it).
    // The agent answers those refusals slowly, so all eight are refused before any has a new token:
    // one new token serves them all.
    let revoked = Arc::new(AtomicBool::new(false));
    let issued = Arc::new(AtomicUsize::new(0));
    let sent = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let token = move || {
        let issued = issued.clone();
        async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let n = issued.fetch_add(1, Ordering::SeqCst) + 1;
            json_response(
                200,
                &json!({"access_token": format!("tok-{n}"), "expires_in": 3600}),
            )
        }
    };
    let rpc = {
        let (revoked, sent) = (revoked.clone(), sent.clone());
        move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let (revoked, sent) = (revoked.clone(), sent.clone());
            async move {
                let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                let token = headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                sent.lock().unwrap().push(token.clone());
                if revoked.load(Ordering::SeqCst) && token == "Bearer tok-1" {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    return json_response(
                        401,
                        &json!({"jsonrpc": "2.0", "id": body["id"],
                        "error": {"code": -31401, "message": "the token was revoked"}}),
                    );
                }
                json_response(
                    200,
                    &json!({"jsonrpc": "2.0", "id": body["id"],
                        "result": task("t-1", "TASK_STATE_WORKING")}),
                )
            }
        }
    };
    let app = axum::Router::new()
        .route("/token", axum::routing::post(token))
        .route("/rpc", axum::routing::post(rpc));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let serving = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let card = with_oauth_flow(
        v1_card(&base, &[("/rpc", "JSONRPC")]),
        format!("{base}/token"),
    );
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    let client = oauth_client(&card, source.clone());
    client.get_task(get_t1()).await.expect("served with tok-1");
    revoked.store(true, Ordering::SeqCst);
    // Spawned all at once (collected), then awaited.
    let calls: Vec<_> = (0..8)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.get_task(get_t1()).await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().expect("answered with the fresh token");
    }
    serving.abort();
    let sent = sent.lock().unwrap().clone();
    let with = |token: &str| sent.iter().filter(|t| *t == token).count();
    // The warm-up call and the eight refused together; one refresh served every call.
    assert_eq!((with("Bearer tok-1"), with("Bearer tok-2")), (9, 8));
    assert_eq!(source.fetches(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_renewed_shortly_before_they_expire() {
    // A token living 2 s is used for 1 s (half its life), then a new one is fetched unasked.
    let (_agent, card) = token_agent_living(&[], Some(2)).await;
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    let client = oauth_client(&card, source.clone());
    client.get_task(get_t1()).await.expect("answered");
    client.get_task(get_t1()).await.expect("answered");
    assert_eq!(source.fetches(), 1, "reused while fresh");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    client.get_task(get_t1()).await.expect("answered");
    assert_eq!(source.fetches(), 2, "renewed before it expired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_of_unknown_lifetime_is_kept_until_refused() {
    // The token endpoint says no `expires_in` (RFC 6749 only recommends it): the token is kept,
    // not fetched anew for every request, until the agent refuses it.
    let (_agent, card) = token_agent_living(&["tok-2"], None).await;
    let source = Arc::new(
        ClientCredentials::from_card(&card, "oauth", reqwest::Client::new(), "c", "s").unwrap(),
    );
    let client = oauth_client(&card, source.clone());
    for _ in 0..3 {
        client.get_task(get_t1()).await.expect("answered");
    }
    assert_eq!(source.fetches(), 1);
    source.invalidate("tok-1").await;
    // tok-2 is refused, tok-3 kept.
    for _ in 0..3 {
        client.get_task(get_t1()).await.expect("answered");
    }
    assert_eq!(source.fetches(), 3);
}

#[tokio::test]
async fn openid_discovery_finds_the_token_endpoint_and_asks_the_scopes_the_card_requires() {
    let (agent, mut card) = token_agent(&[]).await;
    card.security_schemes.insert(
        "oidc".into(),
        serde_json::from_value(json!({"openIdConnectSecurityScheme": {
            "openIdConnectUrl": format!("{}/.well-known/openid-configuration", agent.base)}}))
        .unwrap(),
    );
    card.security_requirements = serde_json::from_value(json!([
        {"schemes": {"oidc": {"list": ["a2a.call"]}}},
        {"schemes": {"oauth": {"list": []}}},
        {"schemes": {"oidc": {"list": ["a2a.read", "a2a.call"]}}}
    ]))
    .unwrap();
    let source = ClientCredentials::discover(&card, "oidc", reqwest::Client::new(), "c", "s")
        .await
        .expect("discovered");
    source.token().await.expect("a token");
    let asked = agent
        .requests()
        .into_iter()
        .find(|r| r.path == "/token")
        .expect("a token request");
    assert!(
        asked.text.contains("&scope=a2a.call%20a2a.read"),
        "{}",
        asked.text
    );
}

#[tokio::test]
async fn the_secret_goes_in_a_basic_header_when_asked() {
    // RFC 6749 section 2.3.1: id and secret form-encoded, joined by a colon, base64-encoded.
    let (agent, card) = token_agent(&[]).await;
    let source = ClientCredentials::from_card(
        &card,
        "oauth",
        reqwest::Client::new(),
        "my client",
        "s3cr:t&",
    )
    .unwrap()
    .client_secret_basic();
    source.token().await.expect("a token");
    let asked = agent
        .requests()
        .into_iter()
        .find(|r| r.path == "/token")
        .expect("a token request");
    assert_eq!(
        asked.header("authorization"),
        Some("Basic bXklMjBjbGllbnQ6czNjciUzQXQlMjY=")
    );
    assert_eq!(asked.text, "grant_type=client_credentials");
}

/// A bearer-token provider of the caller's own: hands out `vault-N`, a new one after a refusal.
struct Vault {
    issued: AtomicUsize,
    refused: std::sync::Mutex<Vec<String>>,
}

impl TokenSource for Vault {
    fn token(&self) -> a2a_client::auth::BoxFuture<'_, Result<String, String>> {
        let n = self.refused.lock().unwrap().len() + 1;
        self.issued.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(format!("vault-{n}")) })
    }

    fn invalidate<'a>(&'a self, token: &'a str) -> a2a_client::auth::BoxFuture<'a, ()> {
        self.refused.lock().unwrap().push(token.to_owned());
        Box::pin(async {})
    }
}

#[tokio::test]
async fn a_token_source_of_the_callers_own_is_asked_and_told_of_refusals() {
    let (agent, card) = token_agent(&["vault-1"]).await;
    let vault = Arc::new(Vault {
        issued: AtomicUsize::new(0),
        refused: std::sync::Mutex::new(Vec::new()),
    });
    let config = ClientConfig {
        credentials: Credentials::new().with("oauth", Credential::Source(vault.clone())),
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    A2aClient::from_card(card, config)
        .unwrap()
        .get_task(get_t1())
        .await
        .expect("served with the vault's second token");
    assert_eq!(*vault.refused.lock().unwrap(), ["vault-1"]);
    let sent: Vec<_> = agent
        .calls()
        .iter()
        .map(|r| r.header("authorization").unwrap_or_default().to_owned())
        .collect();
    assert_eq!(sent, ["Bearer vault-1", "Bearer vault-2"]);
}
