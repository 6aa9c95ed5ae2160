//! This client against the official Python SDK 1.3's server behind OpenID Connect bearer tokens
//! (`tests/interop/sdk_oauth2_agent_server.py`: the SDK's request handler, task store and JSON-RPC,
//! REST and gRPC apps, with a Starlette `AuthenticationMiddleware` and a gRPC interceptor validating
//! JWTs against the provider's JWKS), the tokens issued by a real OpenID provider on loopback
//! (`oidc-provider`). The client reads the card, finds the token endpoint itself (through the
//! `oidc` scheme's discovery document, or the `oauth2` scheme's client-credentials flow), asks for
//! the scopes the card requires, and calls on each binding: refused without a token and with one for
//! another audience, served with its own, kept apart from another caller's tasks (the SDK's
//! in-memory store keys tasks by the user), and, when the server revokes its token, refreshing it
//! once and sending the call again.

use std::sync::Arc;
use std::time::Duration;

use a2a_client::auth::{ClientCredentials, Credential, Credentials};
use a2a_client::{A2aClient, Binding, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{
    AgentCard, ListTasksRequest, Message, Part, SendMessageRequest, StreamResponse, Task, TaskState,
};

use crate::oidc_provider::{self, AUDIENCE, OTHER_AUDIENCE, Provider, client_secret};
use crate::python::{PyServer, find};
use crate::requests::{get, task_of};

/// The bound on each binding's part of a test.
const LIMIT: Duration = Duration::from_secs(30);

/// The provider, the SDK server trusting it, and the server's public card.
struct Setup {
    _provider: Provider,
    server: PyServer,
    card: AgentCard,
}

async fn setup(test: &str) -> Option<Setup> {
    let python = find(
        "A2A_INTEROP_PYTHON",
        ".venv",
        "a2a.server.routes, grpc, uvicorn, jwt",
        test,
    )?;
    let provider = oidc_provider::start_provider(test)?;
    let server = PyServer::start(
        &python,
        "sdk_oauth2_agent_server.py",
        &["--issuer", &provider.issuer, "--audience", AUDIENCE],
    );
    let card = A2aClient::connect(&server.url(), ClientConfig::default())
        .await
        .expect("the card is public")
        .card()
        .clone();
    Some(Setup {
        _provider: provider,
        server,
        card,
    })
}

impl Setup {
    /// `client`'s credentials through the `oidc` scheme: the token endpoint from the provider's
    /// discovery document, the scopes from the card's security requirements.
    async fn discovered(&self, client: &str) -> ClientCredentials {
        ClientCredentials::discover(
            &self.card,
            "oidc",
            reqwest::Client::new(),
            client,
            client_secret(client),
        )
        .await
        .expect("the provider's discovery document names its token endpoint")
    }

    /// A client of this agent on `binding` with `source` for `scheme`, or with no credentials.
    fn client(
        &self,
        binding: Binding,
        credential: Option<(&str, Arc<ClientCredentials>)>,
    ) -> A2aClient {
        let mut credentials = Credentials::new();
        if let Some((scheme, source)) = credential {
            credentials = credentials.with(scheme, Credential::Source(source));
        }
        let config = ClientConfig {
            credentials,
            retry: RetryPolicy::NONE,
            timeout: LIMIT,
            ..ClientConfig::default()
        }
        .only(binding);
        A2aClient::from_card(self.card.clone(), config).expect("a client")
    }
}

fn hello(binding: Binding) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(
            format!("m-{binding}-{}", fastrand::u64(..)),
            [Part::text("hello")],
        ),
        ..Default::default()
    }
}

/// The text the agent completed `task` with (it names the caller the SDK handed it).
fn answer(task: &Task) -> String {
    task.status
        .message
        .as_ref()
        .map(Message::text)
        .unwrap_or_default()
}

/// A refusal for missing or invalid credentials; its message.
fn refusal<T: std::fmt::Debug>(result: Result<T, ClientError>, what: &str) -> String {
    match result {
        Err(error @ ClientError::Refused { .. }) if error.is_unauthenticated() => error.to_string(),
        other => panic!("{what}: refused as unauthenticated, not {other:?}"),
    }
}

async fn all_tasks(client: &A2aClient) -> Vec<Task> {
    client
        .list_tasks(ListTasksRequest::default())
        .await
        .expect("listed")
        .tasks
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_client_fetches_its_own_token_and_is_served_by_the_sdk_server_on_every_binding() {
    let Some(setup) = setup("the SDK server behind OpenID Connect").await else {
        return;
    };
    let alice = Arc::new(setup.discovered("alice").await);
    // Bob finds the token endpoint in the card's OAuth 2 client-credentials flow instead.
    let bob = Arc::new(
        ClientCredentials::from_card(
            &setup.card,
            "oauth2",
            reqwest::Client::new(),
            "bob",
            client_secret("bob"),
        )
        .expect("the card's oauth2 scheme has a client-credentials flow"),
    );
    let carol = Arc::new(setup.discovered("carol").await.client_secret_basic());
    for binding in Binding::ALL {
        let run = async {
            // A token for another resource of the same provider, asked for with RFC 8707's
            // resource indicator.
            let elsewhere = Arc::new(setup.discovered("alice").await.resource(OTHER_AUDIENCE));
            let anonymous = setup.client(binding, None);
            let refused = anonymous.send_message(hello(binding)).await;
            if let Err(ClientError::Refused { challenge, .. }) = &refused
                && binding != Binding::Grpc
            {
                assert_eq!(challenge.as_deref(), Some("Bearer"), "{binding}");
            }
            let no_token = refusal(refused, "no token");

            let other_audience = refusal(
                setup
                    .client(binding, Some(("oidc", elsewhere.clone())))
                    .send_message(hello(binding))
                    .await,
                "a token for another audience",
            );
            assert!(
                other_audience.contains("Audience"),
                "{binding}: {other_audience}"
            );
            // Refused once, refreshed once, refused again: two tokens, then the refusal surfaces.
            assert_eq!(elsewhere.fetches(), 2, "{binding}");

            let as_alice = setup.client(binding, Some(("oidc", alice.clone())));
            let task = task_of(&as_alice, hello(binding)).await;
            assert_eq!(task.status.state, TaskState::Completed, "{binding}");
            assert_eq!(answer(&task), "done for alice", "{binding}");
            let read = as_alice
                .get_task(get(&task.id))
                .await
                .expect("alice's task");
            assert_eq!(read.id, task.id);
            let listed = all_tasks(&as_alice).await;
            assert!(listed.iter().any(|t| t.id == task.id), "{binding}");

            let as_bob = setup.client(binding, Some(("oauth2", bob.clone())));
            let bobs = task_of(&as_bob, hello(binding)).await;
            assert_eq!(answer(&bobs), "done for bob", "{binding}");
            let hidden = as_bob.get_task(get(&task.id)).await.unwrap_err();
            assert_eq!(
                hidden.a2a_kind(),
                Some(ErrorKind::TaskNotFound),
                "{binding}: {hidden}"
            );
            // Carol's provider registration wants her secret in a Basic header.
            let as_carol = setup.client(binding, Some(("oidc", carol.clone())));
            let carols = task_of(&as_carol, hello(binding)).await;
            assert_eq!(answer(&carols), "done for carol", "{binding}");

            let bobs_list = all_tasks(&as_bob).await;
            assert!(bobs_list.iter().any(|t| t.id == bobs.id), "{binding}");
            assert!(
                bobs_list.iter().all(|t| answer(t) == "done for bob"),
                "{binding}: bob lists only his own tasks: {bobs_list:?}"
            );
            println!(
                "{binding}: no token → {no_token}; other audience → {other_audience}; \
                 alice → {} and reads it back, lists {}; bob → {}, alice's task → {hidden}, \
                 lists {} (all his)",
                answer(&task),
                listed.len(),
                answer(&bobs),
                bobs_list.len()
            );
        };
        tokio::time::timeout(LIMIT, run)
            .await
            .unwrap_or_else(|_| panic!("{binding}: done within {LIMIT:?}"));
    }
    // One token each for every binding's calls: cached, not fetched per request.
    assert_eq!(alice.fetches(), 1);
    assert_eq!(bob.fetches(), 1);
    assert_eq!(carol.fetches(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_token_is_refreshed_once_and_the_call_succeeds_on_every_binding() {
    let Some(setup) = setup("the SDK server revoking a token").await else {
        return;
    };
    let revoke = || async {
        let answer = reqwest::Client::new()
            .post(format!("{}/test/revoke", setup.server.url()))
            .send()
            .await
            .expect("the server revokes");
        let body: serde_json::Value =
            serde_json::from_slice(&answer.bytes().await.unwrap()).expect("JSON");
        assert!(body["revoked"].as_u64() > Some(0), "{body}");
    };
    for binding in Binding::ALL {
        let run = async {
            let alice = Arc::new(setup.discovered("alice").await);
            let client = setup.client(binding, Some(("oidc", alice.clone())));
            let task = task_of(&client, hello(binding)).await;
            assert_eq!(alice.fetches(), 1, "{binding}");

            revoke().await;
            let read = client
                .get_task(get(&task.id))
                .await
                .unwrap_or_else(|e| panic!("{binding}: served after one refresh: {e}"));
            assert_eq!(read.id, task.id);
            assert_eq!(
                alice.fetches(),
                2,
                "{binding}: the token endpoint hit twice"
            );

            // A stream's opening request is refreshed the same way.
            revoke().await;
            let events = client
                .send_streaming_message(hello(binding))
                .await
                .unwrap_or_else(|e| panic!("{binding}: the stream opens after a refresh: {e}"))
                .collect()
                .await
                .expect("events");
            assert!(
                events.iter().any(
                    |e| matches!(e, StreamResponse::Task(t) if t.status.state == TaskState::Completed)
                        || matches!(e, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)
                ),
                "{binding}: {events:?}"
            );
            assert_eq!(alice.fetches(), 3, "{binding}");
            println!(
                "{binding}: revoked token → one refresh, GetTask served (2 token requests); \
                 revoked again → SendStreamingMessage served (3)"
            );
        };
        tokio::time::timeout(LIMIT, run)
            .await
            .unwrap_or_else(|_| panic!("{binding}: done within {LIMIT:?}"));
    }
}
