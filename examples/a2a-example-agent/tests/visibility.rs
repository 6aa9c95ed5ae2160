//! Who sees what, on every binding: a task is visible only to the caller and tenant that created
//! it. Alice (one bearer token) creates a task; Bob (another token), an anonymous caller and Alice
//! herself in another tenant cannot read, list, cancel, subscribe to or give a push config to it, on
//! JSON-RPC, HTTP+JSON and gRPC; a token the agent does not know is refused. The server is the
//! example agent's logic on the server crate with a two-token authentication hook, on free
//! 127.0.0.1 ports; every call is bounded in time and the server is shut down at the end.
//!
//! Who may use a skill: the booking skill (on the extended card, its requirement the `bearer`
//! scheme) refuses an anonymous message naming it with the spec's authentication error on every
//! binding (HTTP 401 with `WWW-Authenticate: Bearer`, -31401, `UNAUTHENTICATED`), and books for the
//! holder of the agent's bearer token; a booking asked for in words (no skill named) by an anonymous
//! caller is not made, the task waiting for authentication (the agent's own check).

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_example_agent::server::agent::TravelAgent;
use a2a_example_agent::server::{self, Config, EXTENDED_CARD_TOKEN, card};
use a2a_protocol::errors::ErrorKind;
use a2a_server::{A2aServer, BearerTokens, ServerConfig, WebhookPolicy};
use a2a_testkit::behaviour::{Delays, WithBehaviours};
use a2a_types::v1::{
    CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Part,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, SubscribeToTaskRequest,
    TaskPushNotificationConfig, TaskState,
};
use tokio::net::TcpListener;

const LIMIT: Duration = Duration::from_secs(20);

async fn bounded<T>(call: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(LIMIT, call)
        .await
        .expect("the call answered in time")
}

/// The A2A error kind of a refused call (panics on success or on a non-A2A failure).
fn kind<T: std::fmt::Debug>(outcome: Result<T, ClientError>, what: &str) -> ErrorKind {
    match outcome {
        Ok(value) => panic!("{what} succeeded: {value:?}"),
        Err(error) => error
            .a2a_kind()
            .unwrap_or_else(|| panic!("{what}: {error}")),
    }
}

async fn client(base: &str, binding: Binding, token: Option<&str>) -> A2aClient {
    let mut config = ClientConfig::default().only(binding);
    if let Some(token) = token {
        config = config.bearer_token(token);
    }
    bounded(A2aClient::connect(base, config))
        .await
        .expect("the client connects")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_invisible_to_other_callers_and_tenants_on_every_binding() {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = Config::default();
    let card = card::build(
        &config,
        http.local_addr().unwrap(),
        grpc.local_addr().unwrap(),
        false,
    );
    let delays = Delays {
        resubscribe: Duration::from_secs(30),
        long_running: Duration::from_secs(30),
    };
    let mut server_config = ServerConfig::default();
    server_config.webhook_policy = WebhookPolicy::local_development();
    let server = A2aServer::builder(card, WithBehaviours::new(TravelAgent, delays))
        .authenticator(
            BearerTokens::new()
                .token("alice-token", "alice")
                .token("bob-token", "bob"),
        )
        .config(server_config)
        .build();
    let serving = server.serve(http, grpc).await.unwrap();
    let base = serving.base_url();

    for binding in Binding::ALL {
        let alice = client(&base, binding, Some("alice-token")).await;
        let bob = client(&base, binding, Some("bob-token")).await;
        let anonymous = client(&base, binding, None).await;
        // Working for 30 s: every operation below applies to it.
        let send = SendMessageRequest {
            message: Message::user("test-resubscribe-message-id-visibility", [Part::text("hi")]),
            configuration: Some(SendMessageConfiguration {
                return_immediately: Some(true),
                ..Default::default()
            }),
            ..Default::default()
        };
        let SendMessageResponse::Task(task) = bounded(alice.send_message(send)).await.unwrap()
        else {
            panic!("{binding}: no task")
        };
        let id = task.id.clone();
        let get = |tenant: Option<&str>| GetTaskRequest {
            id: id.clone(),
            tenant: tenant.map(str::to_owned),
            ..Default::default()
        };
        assert_eq!(
            bounded(alice.get_task(get(None))).await.unwrap().id,
            id,
            "{binding}"
        );

        for (who, other, tenant) in [
            ("bob", &bob, None),
            ("anonymous", &anonymous, None),
            ("alice in tenant t-2", &alice, Some("t-2")),
        ] {
            let what = format!("{binding}, {who}");
            let tenant_of = || tenant.map(str::to_owned);
            assert_eq!(
                kind(bounded(other.get_task(get(tenant))).await, &what),
                ErrorKind::TaskNotFound,
                "{what}: get"
            );
            let listed = bounded(other.list_tasks(ListTasksRequest {
                tenant: tenant_of(),
                ..Default::default()
            }))
            .await
            .unwrap();
            assert!(
                listed.tasks.iter().all(|t| t.id != id),
                "{what}: list shows the task"
            );
            let cancel = CancelTaskRequest {
                id: id.clone(),
                tenant: tenant_of(),
                ..Default::default()
            };
            assert_eq!(
                kind(bounded(other.cancel_task(cancel)).await, &what),
                ErrorKind::TaskNotFound,
                "{what}: cancel"
            );
            // Spelled with `..Default::default()` so a field a later spec adds keeps this building.
            #[allow(clippy::needless_update)]
            let subscribe = SubscribeToTaskRequest {
                id: id.clone(),
                tenant: tenant_of(),
                ..Default::default()
            };
            let refused = match bounded(other.subscribe_to_task(subscribe)).await {
                Err(error) => error.a2a_kind(),
                Ok(mut stream) => match bounded(stream.next()).await {
                    Some(Err(error)) => error.a2a_kind(),
                    other => panic!("{what}: subscribed: {other:?}"),
                },
            };
            assert_eq!(refused, Some(ErrorKind::TaskNotFound), "{what}: subscribe");
            let config = TaskPushNotificationConfig {
                task_id: Some(id.clone()),
                tenant: tenant_of(),
                url: "https://example.com/webhook".into(),
                ..Default::default()
            };
            let created = bounded(other.create_task_push_notification_config(config)).await;
            assert_eq!(
                kind(created, &what),
                ErrorKind::TaskNotFound,
                "{what}: create push config"
            );
            let list_configs = ListTaskPushNotificationConfigsRequest {
                task_id: id.clone(),
                tenant: tenant_of(),
                ..Default::default()
            };
            let listed = bounded(other.list_task_push_notification_configs(list_configs)).await;
            assert_eq!(
                kind(listed, &what),
                ErrorKind::TaskNotFound,
                "{what}: list push configs"
            );
            #[allow(clippy::needless_update)]
            let get_config = GetTaskPushNotificationConfigRequest {
                task_id: id.clone(),
                id: "any".into(),
                tenant: tenant_of(),
                ..Default::default()
            };
            let got = bounded(other.get_task_push_notification_config(get_config)).await;
            assert_eq!(
                kind(got, &what),
                ErrorKind::TaskNotFound,
                "{what}: get push config"
            );
        }

        // An unknown token is refused before anything is read.
        let intruder = client(&base, binding, Some("forged-token")).await;
        let forged = bounded(intruder.get_task(get(None))).await;
        assert!(
            forged
                .as_ref()
                .is_err_and(|e| e.a2a_kind() != Some(ErrorKind::TaskNotFound)),
            "{binding}: {forged:?}"
        );

        // Alice still owns it, and cancels it.
        let cancel = CancelTaskRequest {
            id: id.clone(),
            ..Default::default()
        };
        let canceled = bounded(alice.cancel_task(cancel)).await.unwrap();
        assert_eq!(canceled.status.state, TaskState::Canceled, "{binding}");
        println!(
            "{binding}: the task of alice is invisible to bob, to anonymous callers and to tenant t-2"
        );
    }
    serving.shutdown().await;
}

/// A message for the booking skill, naming it.
fn booking(id: &str) -> SendMessageRequest {
    let mut message = Message::user(id, [Part::text("Book the Casa do Rio")]);
    message.metadata = serde_json::json!({ a2a_server::auth::SKILL_ID_METADATA: "book-room" })
        .as_object()
        .cloned();
    SendMessageRequest {
        message,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn naming_the_booking_skill_needs_the_bearer_token_on_every_binding() {
    let config = Config {
        store: a2a_testkit::stores::StoreChoice::Memory,
        ..Config::default()
    };
    let serving = server::start_on_free_ports(config)
        .await
        .expect("the agent starts");
    let base = serving.base_url();
    for binding in Binding::ALL {
        let anonymous = client(&base, binding, None).await;
        match bounded(anonymous.send_message(booking(&format!("anonymous-{binding}")))).await {
            Err(ClientError::Refused {
                forbidden: false,
                message,
                challenge,
                ..
            }) => {
                assert!(message.contains("book-room"), "{binding}: {message}");
                println!("anonymous {binding:<9} {message} [WWW-Authenticate: {challenge:?}]");
            }
            other => panic!("{binding}: an anonymous booking is unauthenticated, not {other:?}"),
        }
        // Searching needs nothing: the message names no skill.
        let search = SendMessageRequest {
            message: Message::user(
                format!("search-{binding}"),
                [Part::text("Find a hotel in Porto")],
            ),
            ..Default::default()
        };
        bounded(anonymous.send_message(search))
            .await
            .unwrap_or_else(|e| panic!("{binding}: an anonymous search: {e}"));
        // Asked for in words, the booking is not made: the agent checks the skill itself.
        let in_words = SendMessageRequest {
            message: Message::user(
                format!("words-{binding}"),
                [Part::text("Book the Casa do Rio")],
            ),
            ..Default::default()
        };
        match bounded(anonymous.send_message(in_words)).await {
            Ok(SendMessageResponse::Task(task)) => {
                assert_eq!(
                    task.status.state,
                    TaskState::AuthRequired,
                    "{binding}: {task:?}"
                )
            }
            other => panic!("{binding}: an anonymous booking in words: {other:?}"),
        }
        let holder = client(&base, binding, Some(EXTENDED_CARD_TOKEN)).await;
        bounded(holder.send_message(booking(&format!("holder-{binding}"))))
            .await
            .unwrap_or_else(|e| panic!("{binding}: the token's holder books: {e}"));
    }
    // On the wire, JSON-RPC and HTTP+JSON: 401 with the authenticator's challenge.
    let params = serde_json::json!({"message": {
        "messageId": "raw-anonymous", "role": "ROLE_USER", "parts": [{"text": "Book it"}],
        "metadata": {"skillId": "book-room"},
    }});
    // And a v0.3 client's message (no A2A-Version), which the server takes up to v1.
    let v0_3 = serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "message/send", "params": {
        "message": {"kind": "message", "messageId": "raw-v0-3", "role": "user",
                    "parts": [{"kind": "text", "text": "Book it"}], "metadata": {"skillId": "book-room"}},
    }});
    let http = reqwest::Client::new();
    for (url, body, version) in [
        (
            format!("{base}/jsonrpc"),
            serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "SendMessage", "params": params}),
            "1.0",
        ),
        (format!("{base}/rest/message:send"), params.clone(), "1.0"),
        (format!("{base}/jsonrpc"), v0_3, "0.3"),
    ] {
        let response = bounded(
            http.post(&url)
                .header("A2A-Version", version)
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .send(),
        )
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
        println!(
            "raw anonymous {url}: HTTP {status} [{challenge:?}] {}",
            json["error"]
        );
        assert_eq!(status, 401, "{url}");
        assert_eq!(challenge.as_deref(), Some("Bearer"), "{url}");
        assert!(
            json["error"]["code"] == -31401 || json["error"]["status"] == "UNAUTHENTICATED",
            "{url}: {json}"
        );
    }
    serving.shutdown().await;
}
