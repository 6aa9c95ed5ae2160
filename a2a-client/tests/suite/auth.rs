//! Authentication end to end between this client and the server crate (and a scripted token
//! endpoint): the card's schemes written by the server's `Security`, API keys sent where the card says
//! (header, query, cookie) on every binding, per-operation scopes refused with the specification's
//! authorization error on every binding (HTTP 403 with `WWW-Authenticate`, gRPC `PERMISSION_DENIED`,
//! JSON-RPC -31403), and several cookie keys in one `Cookie` header. The OAuth 2 tokens' own tests
//! are in `oauth_tokens`.

use std::time::Duration;

use a2a_client::auth::{Credential, Credentials};
use a2a_client::{A2aClient, Binding, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::errors::Error;
use a2a_protocol::operations::Operation;
use a2a_server::auth::{ApiKeys, AuthRequest, CredentialScheme, ScopeRequirements, Security};
use a2a_server::{
    A2aServer, AgentExecutor, Caller, EventSink, RequestContext, Serving, Unauthenticated,
};
use a2a_types::v1::{
    AgentCard, AgentSkill, GetTaskRequest, Message, Part, SecurityScheme, SendMessageRequest,
};
use serde_json::json;
use tokio::net::TcpListener;

use crate::agent::{rpc_result, serve, task, v1_card};

const LIMIT: Duration = Duration::from_secs(20);

struct Done;

#[a2a_server::async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

/// A test scheme naming the caller and its scopes in one header: `x-caller: NAME SCOPE…`.
struct NamedWithScopes;

#[a2a_server::async_trait]
impl CredentialScheme for NamedWithScopes {
    fn card_scheme(&self) -> SecurityScheme {
        ApiKeys::header("x-caller").card_scheme()
    }

    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated> {
        let Some(value) = request.headers.get("x-caller") else {
            return Ok(None);
        };
        let value = value
            .to_str()
            .map_err(|_| Unauthenticated("not text".into()))?;
        let mut words = value.split_whitespace();
        let name = words
            .next()
            .ok_or_else(|| Unauthenticated("no name".into()))?;
        Ok(Some(Caller::authenticated(name).with_scopes(words)))
    }
}

/// The server crate's agent on loopback behind `security` and `scopes`.
async fn agent(security: Security, scopes: ScopeRequirements) -> Serving {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", http.local_addr().unwrap());
    let card = AgentCard::builder(
        "Guarded",
        "Completes at once, for callers it knows.",
        "1.0.0",
    )
    .jsonrpc(format!("{base}/jsonrpc"))
    .http_json(format!("{base}/rest"))
    .grpc(format!("http://{}", grpc.local_addr().unwrap()))
    .default_input_modes(["text/plain"])
    .default_output_modes(["text/plain"])
    .skill(AgentSkill {
        id: "done".into(),
        name: "Done".into(),
        description: "Completes at once.".into(),
        tags: vec!["test".into()],
        ..Default::default()
    })
    .build()
    .expect("a valid card");
    A2aServer::builder(card, Done)
        .authenticator(security)
        .scope_requirements(scopes)
        .build()
        .serve(http, grpc)
        .await
        .unwrap()
}

fn send_request() -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text("hello")]),
        ..Default::default()
    }
}

async fn connect(serving: &Serving, binding: Binding, config: ClientConfig) -> A2aClient {
    let config = ClientConfig {
        retry: RetryPolicy::NONE,
        timeout: LIMIT,
        ..config
    }
    .only(binding);
    A2aClient::connect(&serving.base_url(), config)
        .await
        .expect("the public card is served to anyone")
}

#[tokio::test]
async fn api_keys_go_where_the_card_says_on_every_binding() {
    for (scheme, keys) in [
        ("header", ApiKeys::header("X-API-Key")),
        ("query", ApiKeys::query("api_key")),
        ("cookie", ApiKeys::cookie("session")),
    ] {
        let serving = agent(
            Security::new().scheme("key", keys.key("k-good", "ops")),
            ScopeRequirements::new(),
        )
        .await;
        for binding in Binding::ALL {
            let with = |key: &str| ClientConfig {
                credentials: Credentials::new().with("key", Credential::value(key)),
                ..ClientConfig::default()
            };
            let client = connect(&serving, binding, with("k-good")).await;
            // The card the server wrote declares the scheme the keys are checked by.
            match &client.card().security_schemes["key"] {
                SecurityScheme::ApiKeySecurityScheme(declared) => {
                    assert_eq!(declared.location, scheme)
                }
                other => panic!("an API key scheme, not {other:?}"),
            }
            tokio::time::timeout(LIMIT, client.send_message(send_request()))
                .await
                .unwrap()
                .unwrap_or_else(|e| panic!("{scheme} key over {binding}: {e}"));
            let wrong = connect(&serving, binding, with("k-bad")).await;
            let refused = wrong.send_message(send_request()).await.unwrap_err();
            assert!(
                refused.is_unauthenticated(),
                "{scheme} over {binding}: {refused}"
            );
            let none = connect(&serving, binding, ClientConfig::default()).await;
            let refused = none.send_message(send_request()).await.unwrap_err();
            assert!(
                refused.is_unauthenticated(),
                "{scheme} over {binding}: {refused}"
            );
        }
        serving.shutdown().await;
    }
}

#[tokio::test]
async fn a_caller_without_the_operations_scope_is_forbidden_on_every_binding() {
    let serving = agent(
        Security::new().scheme("caller", NamedWithScopes),
        ScopeRequirements::new().operation(Operation::SendMessage, ["a2a.write"]),
    )
    .await;
    let as_caller = |value: &str| ClientConfig {
        headers: vec![("x-caller".to_owned(), value.to_owned())],
        ..ClientConfig::default()
    };
    for binding in Binding::ALL {
        let reader = connect(&serving, binding, as_caller("rita a2a.read")).await;
        match reader.send_message(send_request()).await {
            Err(ClientError::Refused {
                forbidden: true,
                message,
                challenge,
                ..
            }) => {
                assert!(message.contains("a2a.write"), "{binding}: {message}");
                if binding != Binding::Grpc {
                    assert_eq!(
                        challenge.as_deref(),
                        Some("Bearer error=\"insufficient_scope\", scope=\"a2a.write\"")
                    );
                }
            }
            other => panic!("{binding}: forbidden, not {other:?}"),
        }
        // Operations that need no scope are served to the same caller.
        let missing = reader
            .get_task(GetTaskRequest {
                id: "t-none".into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(
            missing.a2a_kind(),
            Some(a2a_protocol::errors::ErrorKind::TaskNotFound),
            "{binding}: {missing}"
        );
        let writer = connect(&serving, binding, as_caller("wes a2a.read a2a.write")).await;
        writer
            .send_message(send_request())
            .await
            .unwrap_or_else(|e| panic!("{binding}: the writer is served: {e}"));
    }

    // The wire forms: HTTP 403 on both HTTP bindings, JSON-RPC's -31403 with the request's id.
    let http = reqwest::Client::new();
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "SendMessage",
        "params": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}}});
    let jsonrpc = http
        .post(format!("{}/jsonrpc", serving.base_url()))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .header("x-caller", "rita a2a.read")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(jsonrpc.status(), 403);
    let answer: serde_json::Value =
        serde_json::from_slice(&jsonrpc.bytes().await.unwrap()).unwrap();
    assert_eq!(answer["error"]["code"], -31403, "{answer}");
    assert_eq!(answer["id"], 3, "{answer}");
    assert_eq!(
        answer["error"]["data"][0]["reason"], "PERMISSION_DENIED",
        "{answer}"
    );
    let rest = http
        .post(format!("{}/rest/message:send", serving.base_url()))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .header("x-caller", "rita a2a.read")
        .body(body["params"].to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(rest.status(), 403);
    let answer: serde_json::Value = serde_json::from_slice(&rest.bytes().await.unwrap()).unwrap();
    assert_eq!(answer["error"]["status"], "PERMISSION_DENIED", "{answer}");
    serving.shutdown().await;
}

#[tokio::test]
async fn api_keys_in_cookies_share_one_cookie_header() {
    // RFC 6265 section 5.4: one Cookie header, its pairs joined by "; ".
    let agent = serve(|request, _, _| rpc_result(request, task("t-1", "TASK_STATE_WORKING"))).await;
    let mut card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    for (scheme, cookie) in [("session", "sid"), ("tenant", "tid")] {
        card.security_schemes.insert(
            scheme.into(),
            serde_json::from_value(
                json!({"apiKeySecurityScheme": {"location": "cookie", "name": cookie}}),
            )
            .unwrap(),
        );
    }
    let config = ClientConfig {
        credentials: Credentials::new()
            .with("session", Credential::value("s-1"))
            .with("tenant", Credential::value("t-9")),
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    A2aClient::from_card(card, config)
        .unwrap()
        .get_task(crate::requests::get("t-1"))
        .await
        .expect("answered");
    let sent = &agent.calls()[0];
    let cookies: Vec<_> = sent.headers.get_all("cookie").iter().collect();
    assert_eq!(cookies, ["sid=s-1; tid=t-9"]);
}
