//! The example agent protected by OpenID Connect (`Config::oidc`, `--oidc-issuer --oidc-audience`)
//! against a real OpenID provider: the certified `oidc-provider` package run by node on 127.0.0.1
//! (`common::oidc_provider`; without it the test skips with one line, and fails under `CI=true`).
//!
//! The workspace's client gets tokens from the provider by the client-credentials grant (its token
//! endpoint found through the card's `openIdConnectUrl`) and calls the agent on JSON-RPC, HTTP+JSON
//! and gRPC; two callers never see each other's tasks; after the provider rotates its signing key,
//! a token signed with the new key is accepted (the agent fetches the key set again on the unknown
//! key id); a stale token is refreshed once and the call retried. An expired token, one for another
//! audience, one signed by another key, one with `alg: none`, a tampered one and none at all are
//! refused on every binding with the spec's authentication error; what each binding answered is
//! printed (run with `--nocapture`).
//!
//! The booking skill's requirement (an OpenID Connect token granting `travel.book`) is enforced on
//! messages naming the skill: alice's token with the scope books on every binding; bob's token
//! without it, and the API key (another scheme), are refused as forbidden (403 with
//! `WWW-Authenticate: Bearer error="insufficient_scope", scope="travel.book"`, -31403,
//! `PERMISSION_DENIED`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a_client::auth::{BoxFuture, ClientCredentials, Credential, Credentials, TokenSource};
use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_example_agent::server::{self, Config, OidcSettings};
use a2a_server::auth::{JwksCache, SKILL_ID_METADATA};
use a2a_types::v1::{
    AgentCard, GetTaskRequest, ListTasksRequest, Message, Part, SecurityScheme, SendMessageRequest,
    SendMessageResponse,
};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::oidc_provider::{AUDIENCE, OTHER_AUDIENCE, start_provider};

mod common;

/// The longest any one call may take.
const CALL_LIMIT: Duration = Duration::from_secs(20);

/// The JSON of one part (0: header, 1: claims) of a JWT.
fn jwt_part(token: &str, index: usize) -> serde_json::Value {
    let part = token.split('.').nth(index).expect("a JWT part");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).expect("base64url")).expect("JSON")
}

/// `token` with its claims changed to name `sub`, its signature kept.
fn tampered(token: &str, sub: &str) -> String {
    let mut claims = jwt_part(token, 1);
    claims["sub"] = sub.into();
    let parts: Vec<&str> = token.split('.').collect();
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    format!("{}.{payload}.{}", parts[0], parts[2])
}

/// Alice's or Bob's client-credentials source, found through the card's OpenID Connect scheme.
async fn credentials_of(card: &AgentCard, client: &str) -> Arc<ClientCredentials> {
    let source = ClientCredentials::discover(
        card,
        "oidc",
        reqwest::Client::new(),
        client,
        format!("{client}-secret"),
    )
    .await
    .expect("the token endpoint is found through the card")
    .scopes(["a2a.call"]);
    Arc::new(source)
}

fn client_with(card: &AgentCard, binding: Binding, source: Arc<dyn TokenSource>) -> A2aClient {
    let mut config = ClientConfig::default().only(binding);
    config.credentials = Credentials::new().with("oidc", Credential::Source(source));
    A2aClient::from_card(card.clone(), config).expect("a client")
}

fn client_with_token(card: &AgentCard, binding: Binding, token: Option<&str>) -> A2aClient {
    let mut config = ClientConfig::default().only(binding);
    config.bearer_token = token.map(str::to_owned);
    A2aClient::from_card(card.clone(), config).expect("a client")
}

fn hotel_request(id: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(id, [Part::text("Find a hotel in Porto")]),
        ..Default::default()
    }
}

async fn send(client: &A2aClient, id: &str) -> Result<String, ClientError> {
    let answer = tokio::time::timeout(CALL_LIMIT, client.send_message(hotel_request(id)))
        .await
        .expect("the call ends in time")?;
    match answer {
        SendMessageResponse::Task(task) => Ok(task.id),
        other => panic!("a task, not {other:?}"),
    }
}

/// A source that first hands out a token the agent will refuse, then the real source's: the stale
/// token of a client whose cached token the issuer no longer honours.
struct StaleFirst {
    stale: String,
    fresh: Arc<ClientCredentials>,
    invalidated: AtomicUsize,
}

impl TokenSource for StaleFirst {
    fn token(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(async move {
            if self.invalidated.load(Ordering::SeqCst) == 0 {
                Ok(self.stale.clone())
            } else {
                self.fresh.token().await
            }
        })
    }

    fn invalidate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            assert_eq!(token, self.stale, "the refused token is the one reported");
            self.invalidated.fetch_add(1, Ordering::SeqCst);
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_of_a_real_openid_provider_protect_every_binding() {
    let test = "tokens_of_a_real_openid_provider_protect_every_binding";
    let Some(provider) = start_provider(test) else {
        return;
    };
    let config = Config {
        store: a2a_testkit::stores::StoreChoice::Memory,
        oidc: Some(OidcSettings {
            issuer: provider.issuer.clone(),
            audience: AUDIENCE.to_owned(),
        }),
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent discovers the provider and starts");
    // The agent fetched the provider's keys at start-up: its cool-down runs from here.
    let keys_loaded = Instant::now();

    // The card declares the scheme the agent checks, and nothing else.
    let card = a2a_client::resolve_card(&reqwest::Client::new(), &agent.base_url(), CALL_LIMIT)
        .await
        .expect("the public card is served to anyone");
    assert_eq!(
        card.security_schemes.len(),
        1,
        "{:?}",
        card.security_schemes
    );
    match &card.security_schemes["oidc"] {
        SecurityScheme::OpenIdConnectSecurityScheme(oidc) => assert_eq!(
            oidc.open_id_connect_url,
            format!("{}/.well-known/openid-configuration", provider.issuer)
        ),
        other => panic!("an OpenID Connect scheme, not {other:?}"),
    }
    assert_eq!(card.security_requirements.len(), 1);
    assert!(card.security_requirements[0].schemes.contains_key("oidc"));

    // Two callers with the provider's tokens, on every binding: each sees its own tasks only.
    let alice = credentials_of(&card, "alice").await;
    let bob = credentials_of(&card, "bob").await;
    for binding in Binding::ALL {
        let as_alice = client_with(&card, binding, alice.clone());
        let as_bob = client_with(&card, binding, bob.clone());
        let alices = send(&as_alice, &format!("alice-{binding}"))
            .await
            .unwrap_or_else(|e| panic!("{binding}: alice's call: {e}"));
        let bobs = send(&as_bob, &format!("bob-{binding}"))
            .await
            .unwrap_or_else(|e| panic!("{binding}: bob's call: {e}"));
        let get = |id: &str| GetTaskRequest {
            id: id.to_owned(),
            ..Default::default()
        };
        as_alice.get_task(get(&alices)).await.expect("her own task");
        let hidden = as_bob.get_task(get(&alices)).await.unwrap_err();
        assert_eq!(
            hidden.a2a_kind(),
            Some(a2a_protocol::errors::ErrorKind::TaskNotFound),
            "{binding}: bob must not see alice's task: {hidden}"
        );
        let listed = as_bob
            .list_tasks(ListTasksRequest::default())
            .await
            .unwrap();
        assert!(listed.tasks.iter().all(|t| t.id != alices), "{binding}");
        assert!(listed.tasks.iter().any(|t| t.id == bobs), "{binding}");
    }
    // One token per caller, cached across the six calls above.
    assert_eq!((alice.fetches(), bob.fetches()), (1, 1));

    // A stale token is refused, reported to its source, and the call is made once more with a fresh
    // one.
    for binding in Binding::ALL {
        let stale = Arc::new(StaleFirst {
            stale: provider.forge("expired", "alice").await,
            fresh: alice.clone(),
            invalidated: AtomicUsize::new(0),
        });
        let client = client_with(&card, binding, stale.clone());
        send(&client, &format!("retry-{binding}"))
            .await
            .unwrap_or_else(|e| panic!("{binding}: the retried call: {e}"));
        assert_eq!(stale.invalidated.load(Ordering::SeqCst), 1, "{binding}");
    }

    // Refused tokens, on every binding, with the spec's authentication error.
    let real = provider.token_for("alice", AUDIENCE).await;
    let cases = [
        ("expired", provider.forge("expired", "alice").await),
        (
            "for another audience",
            provider.token_for("alice", OTHER_AUDIENCE).await,
        ),
        (
            "signed by another key",
            provider.forge("other-key", "alice").await,
        ),
        ("alg none", provider.forge("none", "alice").await),
        ("tampered (sub changed)", tampered(&real, "bob")),
    ];
    let mut answers = Vec::new();
    for (case, token) in cases
        .iter()
        .map(|(c, t)| (*c, Some(t.as_str())))
        .chain([("no token", None)])
    {
        for binding in Binding::ALL {
            let client = client_with_token(&card, binding, token);
            match send(&client, &format!("refused-{binding}")).await {
                Err(ClientError::Refused {
                    forbidden: false,
                    message,
                    challenge,
                    ..
                }) => answers.push(format!(
                    "{case:<24} {:<9} {message}{}",
                    binding.to_string(),
                    challenge
                        .map(|c| format!(" [WWW-Authenticate: {c}]"))
                        .unwrap_or_default()
                )),
                other => panic!("{case} over {binding}: refused as unauthenticated, not {other:?}"),
            }
        }
        answers.push(raw_answers(&agent.base_url(), token).await);
    }
    println!("what each binding answered:\n{}", answers.join("\n"));

    // The provider rotates its signing key: a token signed with the new key is accepted once the
    // agent fetched the key set again (on the unknown key id, after its cool-down).
    let wait = (JwksCache::DEFAULT_COOLDOWN + Duration::from_secs(1))
        .saturating_sub(keys_loaded.elapsed());
    tokio::time::sleep(wait).await;
    let new_kid = provider.rotate().await;
    let rotated = credentials_of(&card, "alice").await;
    let token = rotated.token().await.expect("a token after the rotation");
    assert_eq!(
        jwt_part(&token, 0)["kid"],
        new_kid.as_str(),
        "signed with the new key"
    );
    for binding in Binding::ALL {
        let client = client_with(&card, binding, rotated.clone());
        send(&client, &format!("rotated-{binding}"))
            .await
            .unwrap_or_else(|e| panic!("{binding}: the call after the rotation: {e}"));
    }
    agent.shutdown().await;
}

/// The raw HTTP answers of JSON-RPC and HTTP+JSON to `token` (status, challenge, error code).
async fn raw_answers(base_url: &str, token: Option<&str>) -> String {
    let http = reqwest::Client::new();
    let bearer = |request: reqwest::RequestBuilder| match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 7, "method": "SendMessage",
        "params": {"message": {"messageId": "raw", "role": "ROLE_USER", "parts": [{"text": "hi"}]}},
    });
    let jsonrpc = bearer(http.post(format!("{base_url}/jsonrpc")))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("JSON-RPC answers");
    let rest = bearer(http.post(format!("{base_url}/rest/message:send")))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body["params"].to_string())
        .send()
        .await
        .expect("HTTP+JSON answers");
    let describe = |response: &reqwest::Response| {
        format!(
            "HTTP {} WWW-Authenticate: {}",
            response.status().as_u16(),
            response
                .headers()
                .get("www-authenticate")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("(none)")
        )
    };
    let (jsonrpc_head, rest_head) = (describe(&jsonrpc), describe(&rest));
    assert_eq!(jsonrpc.status(), 401);
    assert_eq!(rest.status(), 401);
    let jsonrpc_body: serde_json::Value =
        serde_json::from_slice(&jsonrpc.bytes().await.unwrap()).unwrap();
    let rest_body: serde_json::Value =
        serde_json::from_slice(&rest.bytes().await.unwrap()).unwrap();
    assert_eq!(jsonrpc_body["error"]["code"], -31401);
    assert_eq!(jsonrpc_body["id"], 7);
    assert_eq!(rest_body["error"]["status"], "UNAUTHENTICATED");
    format!(
        "    raw JSON-RPC: {jsonrpc_head}, code {}; raw HTTP+JSON: {rest_head}, status {}",
        jsonrpc_body["error"]["code"], rest_body["error"]["status"]
    )
}

/// A message for the booking skill, naming it in its metadata.
fn booking_request(id: &str) -> SendMessageRequest {
    let mut message = Message::user(id, [Part::text("Book the Casa do Rio")]);
    message.metadata = serde_json::json!({ SKILL_ID_METADATA: "book-room" })
        .as_object()
        .cloned();
    SendMessageRequest {
        message,
        ..Default::default()
    }
}

/// The raw answers of JSON-RPC and HTTP+JSON to a booking message sent with `credential` (a header),
/// each as `(status, WWW-Authenticate, JSON-RPC code or HTTP+JSON status)`.
async fn raw_booking(
    base_url: &str,
    credential: (&str, &str),
) -> [(u16, Option<String>, serde_json::Value); 2] {
    let http = reqwest::Client::new();
    let params = serde_json::json!({"message": {
        "messageId": "raw-booking", "role": "ROLE_USER", "parts": [{"text": "Book the Casa do Rio"}],
        "metadata": {"skillId": "book-room"},
    }});
    let body =
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "SendMessage", "params": params});
    let mut answers = Vec::new();
    for (url, body, code) in [
        (format!("{base_url}/jsonrpc"), body, "/error/code"),
        (
            format!("{base_url}/rest/message:send"),
            params,
            "/error/status",
        ),
    ] {
        let response = http
            .post(url)
            .header(credential.0, credential.1)
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("an answer");
        let status = response.status().as_u16();
        let challenge = response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let json: serde_json::Value =
            serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        answers.push((
            status,
            challenge,
            json.pointer(code).cloned().unwrap_or_default(),
        ));
    }
    answers.try_into().expect("two answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skills_scopes_from_a_real_openid_provider_are_enforced_on_every_binding() {
    let test = "a_skills_scopes_from_a_real_openid_provider_are_enforced_on_every_binding";
    let Some(provider) = start_provider(test) else {
        return;
    };
    let config = Config {
        store: a2a_testkit::stores::StoreChoice::Memory,
        oidc: Some(OidcSettings {
            issuer: provider.issuer.clone(),
            audience: AUDIENCE.to_owned(),
        }),
        api_key: Some("skill-test-key".to_owned()),
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent discovers the provider and starts");
    let card = a2a_client::resolve_card(&reqwest::Client::new(), &agent.base_url(), CALL_LIMIT)
        .await
        .expect("the public card");
    // Alice's client may ask for the booking scope; Bob's may not.
    let alice = Arc::new(
        ClientCredentials::discover(
            &card,
            "oidc",
            reqwest::Client::new(),
            "alice",
            "alice-secret",
        )
        .await
        .expect("the token endpoint")
        .scopes(["a2a.call", "travel.book"]),
    );
    let bob = credentials_of(&card, "bob").await;

    // The extended card shows the skill's requirement, with the schemes the agent declares only.
    let extended = client_with(&card, Binding::JsonRpc, alice.clone())
        .get_extended_agent_card(Default::default())
        .await
        .expect("the extended card");
    let booking = extended
        .skills
        .iter()
        .find(|skill| skill.id == "book-room")
        .expect("the booking skill");
    assert_eq!(booking.security_requirements.len(), 1);
    assert_eq!(
        booking.security_requirements[0].schemes["oidc"].list,
        ["travel.book"]
    );

    let mut answers = Vec::new();
    for binding in Binding::ALL {
        // Alice holds the scope: booked.
        let as_alice = client_with(&card, binding, alice.clone());
        let answer = tokio::time::timeout(
            CALL_LIMIT,
            as_alice.send_message(booking_request(&format!("alice-book-{binding}"))),
        )
        .await
        .expect("in time")
        .unwrap_or_else(|e| panic!("{binding}: alice books: {e}"));
        assert!(
            matches!(answer, SendMessageResponse::Task(_)),
            "{binding}: {answer:?}"
        );
        // The same message without naming the skill needs no more than any other.
        let as_bob = client_with(&card, binding, bob.clone());
        send(&as_bob, &format!("bob-hotel-{binding}"))
            .await
            .unwrap_or_else(|e| panic!("{binding}: bob's hotel search: {e}"));
        // Bob's token lacks the scope, and the API key is not the skill's scheme: forbidden.
        let mut key_config = ClientConfig::default().only(binding);
        key_config.credentials =
            Credentials::new().with("apiKey", Credential::value("skill-test-key"));
        let with_key = A2aClient::from_card(card.clone(), key_config).expect("a client");
        for (who, client) in [("bob (no travel.book)", &as_bob), ("API key", &with_key)] {
            let refusal = tokio::time::timeout(
                CALL_LIMIT,
                client.send_message(booking_request(&format!("refused-{binding}"))),
            )
            .await
            .expect("in time");
            match refusal {
                Err(ClientError::Refused {
                    forbidden: true,
                    message,
                    challenge,
                    ..
                }) => {
                    assert!(message.contains("travel.book"), "{binding}: {message}");
                    answers.push(format!(
                        "{who:<22} {:<9} {message}{}",
                        binding.to_string(),
                        challenge
                            .map(|c| format!(" [WWW-Authenticate: {c}]"))
                            .unwrap_or_default()
                    ));
                }
                other => panic!("{who} over {binding}: forbidden, not {other:?}"),
            }
        }
        // A skill the card does not list is a bad request, not an unchecked one.
        let mut unknown = booking_request(&format!("unknown-{binding}"));
        unknown.message.metadata = serde_json::json!({ SKILL_ID_METADATA: "fly" })
            .as_object()
            .cloned();
        let error = as_alice.send_message(unknown).await.unwrap_err();
        assert_eq!(
            error.a2a_kind(),
            Some(a2a_protocol::errors::ErrorKind::InvalidParams),
            "{binding}: {error}"
        );
    }
    // On the wire: 403 with RFC 6750's challenge naming the scope, and each binding's code.
    let bob_token = bob.token().await.expect("bob's token");
    for (who, credential) in [
        ("bob", ("Authorization", format!("Bearer {bob_token}"))),
        ("API key", ("X-API-Key", "skill-test-key".to_owned())),
    ] {
        let [jsonrpc, rest] = raw_booking(&agent.base_url(), (credential.0, &credential.1)).await;
        for (status, challenge, _) in [&jsonrpc, &rest] {
            assert_eq!(*status, 403, "{who}");
            assert_eq!(
                challenge.as_deref(),
                Some("Bearer error=\"insufficient_scope\", scope=\"travel.book\""),
                "{who}"
            );
        }
        assert_eq!(jsonrpc.2, -31403, "{who}");
        assert_eq!(rest.2, "PERMISSION_DENIED", "{who}");
        answers.push(format!(
            "raw {who}: JSON-RPC HTTP {} code {} [{}]; HTTP+JSON HTTP {} {} [{}]",
            jsonrpc.0,
            jsonrpc.2,
            jsonrpc.1.as_deref().unwrap_or("-"),
            rest.0,
            rest.2,
            rest.1.as_deref().unwrap_or("-")
        ));
    }
    println!("what each binding answered:\n{}", answers.join("\n"));
    agent.shutdown().await;
}
