//! Production habits against loopback agents: the card cache, falling back to the next interface,
//! retries of idempotent calls only, timeouts, credentials by security scheme, service parameters and
//! trace context, paging.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a_client::auth::{BoxFuture, Credential, Credentials, TokenSource};
use a2a_client::{A2aClient, Binding, CardResolver, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::limits::Limits;
use a2a_types::v1::{ListTasksRequest, Message, Part, SendMessageRequest};
use serde_json::json;

use crate::agent::{
    card, json_response, rpc_result, serve, status_only, task, v1_card, with_header,
};
use crate::requests::get;

fn resolver() -> CardResolver {
    CardResolver::new(
        reqwest::Client::new(),
        Duration::from_secs(5),
        Limits::default(),
    )
}

#[tokio::test]
async fn a_card_is_cached_for_its_max_age_and_revalidated_with_its_etag() {
    // Fresh for a minute: the second resolution does not ask.
    let fresh = serve(|_, _, base| {
        let response = json_response(200, &card(base, &[("/rpc", "JSONRPC")]));
        with_header(response, "cache-control", "public, max-age=60")
    })
    .await;
    let resolver = resolver();
    assert!(
        !resolver
            .resolve(&fresh.base)
            .await
            .expect("card")
            .from_cache
    );
    assert!(
        resolver
            .resolve(&fresh.base)
            .await
            .expect("card")
            .from_cache
    );
    assert_eq!(fresh.requests().len(), 1);

    // no-cache with an ETag: every use asks again with If-None-Match, and 304 keeps the card.
    let revalidated = serve(|request, _, base| {
        if request.header("if-none-match") == Some("\"v7\"") {
            return with_header(status_only(304), "etag", "\"v7\"");
        }
        let response = json_response(200, &card(base, &[("/rpc", "JSONRPC")]));
        with_header(
            with_header(response, "etag", "\"v7\""),
            "cache-control",
            "no-cache",
        )
    })
    .await;
    let first = resolver.resolve(&revalidated.base).await.expect("card");
    let second = resolver.resolve(&revalidated.base).await.expect("card");
    assert!(!first.from_cache && second.from_cache);
    assert_eq!(first.card, second.card);
    let requests = revalidated.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].header("if-none-match"), None);
    assert_eq!(requests[1].header("if-none-match"), Some("\"v7\""));
    assert_eq!(requests[1].path, "/.well-known/agent-card.json");

    // no-store: never kept, never revalidated.
    let unstored = serve(|_, _, base| {
        let response = json_response(200, &card(base, &[("/rpc", "JSONRPC")]));
        with_header(
            with_header(response, "etag", "\"x\""),
            "cache-control",
            "no-store, max-age=60",
        )
    })
    .await;
    resolver.resolve(&unstored.base).await.expect("card");
    resolver.resolve(&unstored.base).await.expect("card");
    let requests = unstored.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].header("if-none-match"), None);
}

#[tokio::test]
async fn fetching_the_card_is_retried_after_transient_failures() {
    let agent = serve(|_, index, base| {
        if index < 2 {
            return status_only(502);
        }
        json_response(200, &card(base, &[("/rpc", "JSONRPC")]))
    })
    .await;
    let client = A2aClient::connect(&agent.base, ClientConfig::default())
        .await
        .expect("the third attempt answers");
    assert_eq!(client.card().name, "Test agent");
    assert_eq!(agent.requests().len(), 3);

    let down = serve(|_, _, _| status_only(502)).await;
    let config = ClientConfig {
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    let failure = A2aClient::connect(&down.base, config).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::Transport { message, .. } if message.contains("502")),
        "{failure}"
    );
    assert_eq!(down.requests().len(), 1, "no retry asked for, none made");
}

#[tokio::test]
async fn a_call_moves_to_the_next_interface_when_one_is_unreachable() {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let dead_url = format!("http://{}", dead.local_addr().expect("address"));
    drop(dead);
    let agent = serve(|request, _, _| {
        assert_eq!(request.path, "/rest/tasks/t-1");
        json_response(200, &task("t-1", "TASK_STATE_WORKING"))
    })
    .await;
    let mut card_json = card(&agent.base, &[("/rest", "HTTP+JSON")]);
    card_json["supportedInterfaces"]
        .as_array_mut()
        .expect("list")
        .insert(
            0,
            json!({"url": dead_url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}),
        );
    let card = serde_json::from_value(card_json).expect("card");
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("client");
    assert_eq!(client.binding(), Binding::JsonRpc);
    let task = client
        .get_task(get("t-1"))
        .await
        .expect("the second interface answers");
    assert_eq!(task.id, "t-1");
    assert_eq!(
        client.binding(),
        Binding::HttpJson,
        "the reachable interface stays chosen"
    );
    // A non-idempotent call may move too: nothing reached the unreachable interface.
    assert_eq!(client.interfaces().count(), 2);
}

#[tokio::test]
async fn idempotent_calls_are_retried_and_others_are_not() {
    let agent = serve(|request, index, _| {
        if index < 2 {
            return status_only(503);
        }
        rpc_result(request, task("t-1", "TASK_STATE_WORKING"))
    })
    .await;
    let card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    let config = ClientConfig {
        retry: RetryPolicy::attempts(3),
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(card, config).expect("client");
    let task = client
        .get_task(get("t-1"))
        .await
        .expect("the third attempt answers");
    assert_eq!(task.id, "t-1");
    assert_eq!(agent.calls().len(), 3);

    let agent = serve(|_, _, _| status_only(503)).await;
    let card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("client");
    let request = SendMessageRequest {
        message: Message::user("m-1", [Part::text("hi")]),
        ..Default::default()
    };
    let failure = client.send_message(request).await.unwrap_err();
    assert!(
        matches!(failure, ClientError::Transport { .. }),
        "{failure}"
    );
    assert_eq!(agent.calls().len(), 1, "SendMessage is never repeated");
}

// Two workers: the agent's handler blocks one of them while it "thinks", through `block_in_place`, so
// the worker hands its queue and the timer over first (a bare sleep there could hold the client's own
// timer and make the timeout late on a loaded machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_answer_is_a_timeout() {
    let agent = serve(|request, _, _| {
        tokio::task::block_in_place(|| std::thread::sleep(Duration::from_millis(1500)));
        rpc_result(request, task("t-1", "TASK_STATE_WORKING"))
    })
    .await;
    let card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    let config = ClientConfig {
        timeout: Duration::from_millis(200),
        retry: RetryPolicy::NONE,
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(card, config).expect("client");
    let started = Instant::now();
    let failure = client.get_task(get("t-1")).await.unwrap_err();
    assert!(
        matches!(&failure, ClientError::Timeout { what, after, .. } if what == "GetTask" && *after == Duration::from_millis(200)),
        "{failure}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
}

/// Hands out `tok-1`, `tok-2`, ...: a new token per request shows the client asks every time.
struct CountingSource(AtomicUsize);

impl TokenSource for CountingSource {
    fn token(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(async move { Ok(format!("tok-{}", self.0.fetch_add(1, Ordering::SeqCst) + 1)) })
    }
}

struct FailingSource;

impl TokenSource for FailingSource {
    fn token(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(async { Err("the token endpoint said no".to_owned()) })
    }
}

fn secured_card(base: &str) -> a2a_types::v1::AgentCard {
    let mut card = card(base, &[("/rpc", "JSONRPC")]);
    card["securitySchemes"] = json!({
        "header-key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
        "query-key": {"apiKeySecurityScheme": {"location": "query", "name": "api_key"}},
        "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {
            "tokenUrl": "https://auth.example/token", "scopes": {"tasks": "read tasks"}}}}},
        "mtls": {"mtlsSecurityScheme": {}}
    });
    card["securityRequirements"] = json!([{"schemes": {"oauth": {"list": ["tasks"]}}}]);
    serde_json::from_value(card).expect("card")
}

#[tokio::test]
async fn credentials_go_where_the_cards_security_schemes_say() {
    let agent = serve(|request, _, _| rpc_result(request, task("t-1", "TASK_STATE_WORKING"))).await;
    let credentials = Credentials::new()
        .with("header-key", Credential::value("k-header"))
        .with("query-key", Credential::value("k q&="))
        .with(
            "oauth",
            Credential::source(CountingSource(AtomicUsize::new(0))),
        );
    let config = ClientConfig {
        credentials,
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(secured_card(&agent.base), config).expect("client");
    client.get_task(get("t-1")).await.expect("answered");
    client.get_task(get("t-1")).await.expect("answered");
    let calls = agent.calls();
    assert_eq!(calls[0].header("x-api-key"), Some("k-header"));
    assert_eq!(calls[0].query, "api_key=k%20q%26%3D");
    assert_eq!(calls[0].header("authorization"), Some("Bearer tok-1"));
    assert_eq!(calls[1].header("authorization"), Some("Bearer tok-2"));

    // A scheme the card does not declare, one with no secret, a failing token source: typed errors.
    let card = secured_card(&agent.base);
    for (scheme, credential) in [
        ("nope", Credential::value("x")),
        ("mtls", Credential::value("x")),
    ] {
        let config = ClientConfig {
            credentials: Credentials::new().with(scheme, credential),
            ..ClientConfig::default()
        };
        let failure = A2aClient::from_card(card.clone(), config).unwrap_err();
        assert!(
            matches!(&failure, ClientError::Credentials { scheme: s, .. } if s == scheme),
            "{failure}"
        );
    }
    let config = ClientConfig {
        credentials: Credentials::new().with("oauth", Credential::Source(Arc::new(FailingSource))),
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(card, config).expect("client");
    let failure = client.get_task(get("t-1")).await.unwrap_err();
    assert!(
        failure.to_string().contains("the token endpoint said no"),
        "{failure}"
    );
}

#[tokio::test]
async fn service_parameters_and_the_trace_context_are_sent() {
    let agent = serve(|request, _, _| rpc_result(request, task("t-1", "TASK_STATE_WORKING"))).await;
    let card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    let config = ClientConfig::default()
        .extension("https://ext.example/a/v1")
        .extension("https://ext.example/b/v2");
    let client = A2aClient::from_card(card, config).expect("client");
    client.get_task(get("t-1")).await.expect("answered");
    let traced = client
        .with_trace_parent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        .expect("a valid traceparent");
    traced.get_task(get("t-1")).await.expect("answered");
    traced.get_task(get("t-1")).await.expect("answered");
    let calls = agent.calls();
    assert_eq!(calls[0].header("a2a-version"), Some("1.0"));
    assert_eq!(
        calls[0].header("a2a-extensions"),
        Some("https://ext.example/a/v1,https://ext.example/b/v2")
    );
    let fresh = calls[0].header("traceparent").expect("a traceparent");
    assert!(
        !fresh.contains("4bf92f3577b34da6a3ce929d0e0e4736"),
        "{fresh}"
    );
    let (first, second) = (
        calls[1].header("traceparent").expect("traceparent"),
        calls[2].header("traceparent").expect("traceparent"),
    );
    assert!(
        first.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"),
        "{first}"
    );
    assert!(
        second.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"),
        "{second}"
    );
    assert_ne!(first, second, "each request is its own span");
    assert!(
        !first.contains("00f067aa0ba902b7"),
        "the caller's span is the parent: {first}"
    );
    assert!(client.with_trace_parent("00-zz-00-01").is_err());
}

#[tokio::test]
async fn list_tasks_pages_follow_the_page_token() {
    let agent = serve(|request, _, _| {
        let token = request.body["params"]["pageToken"]
            .as_str()
            .unwrap_or_default();
        let (tasks, next) = match token {
            "" => (
                vec![
                    task("t-1", "TASK_STATE_WORKING"),
                    task("t-2", "TASK_STATE_WORKING"),
                ],
                "p2",
            ),
            "p2" => (vec![task("t-3", "TASK_STATE_WORKING")], ""),
            other => panic!("page token {other}"),
        };
        rpc_result(
            request,
            json!({"tasks": tasks, "nextPageToken": next, "pageSize": 2, "totalSize": 3}),
        )
    })
    .await;
    let card = v1_card(&agent.base, &[("/rpc", "JSONRPC")]);
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("client");
    let request = ListTasksRequest {
        page_size: Some(2),
        ..Default::default()
    };
    let tasks = client
        .list_task_pages(request.clone())
        .all_tasks(100)
        .await
        .expect("tasks");
    let ids: Vec<_> = tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["t-1", "t-2", "t-3"]);
    let failure = client
        .list_task_pages(request)
        .all_tasks(2)
        .await
        .unwrap_err();
    assert!(
        failure.to_string().contains("more than the 2 tasks"),
        "{failure}"
    );

    // An agent handing back the same token forever is caught, not followed.
    let looping = serve(|request, _, _| {
        rpc_result(request, json!({"tasks": [task("t-1", "TASK_STATE_WORKING")], "nextPageToken": "again", "pageSize": 1, "totalSize": 9}))
    })
    .await;
    let card = v1_card(&looping.base, &[("/rpc", "JSONRPC")]);
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("client");
    let failure = client
        .list_task_pages(ListTasksRequest::default())
        .all_tasks(100)
        .await
        .unwrap_err();
    assert!(failure.to_string().contains("\"again\" twice"), "{failure}");
    assert_eq!(looping.calls().len(), 2);
}

#[tokio::test]
async fn oauth_client_credentials_fetch_a_token_once_and_send_it() {
    let agent = serve(|request, _, _| {
        if request.path == "/token" {
            return json_response(
                200,
                &json!({"access_token": "tok-abc", "token_type": "Bearer", "expires_in": 3600}),
            );
        }
        rpc_result(request, task("t-1", "TASK_STATE_WORKING"))
    })
    .await;
    let mut card_json = card(&agent.base, &[("/rpc", "JSONRPC")]);
    card_json["securitySchemes"] = json!({"oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {
        "tokenUrl": format!("{}/token", agent.base), "scopes": {"tasks:read": "read", "tasks:write": "write"}}}}}});
    let card: a2a_types::v1::AgentCard = serde_json::from_value(card_json).expect("card");
    let source = a2a_client::auth::ClientCredentials::from_card(
        &card,
        "oauth",
        reqwest::Client::new(),
        "client 1",
        "s3cr&t",
    )
    .expect("a client-credentials flow");
    let config = ClientConfig {
        credentials: Credentials::new().with("oauth", Credential::source(source)),
        ..ClientConfig::default()
    };
    let client = A2aClient::from_card(card, config).expect("client");
    client.get_task(get("t-1")).await.expect("answered");
    client.get_task(get("t-1")).await.expect("answered");
    let requests = agent.requests();
    let token_requests: Vec<_> = requests.iter().filter(|r| r.path == "/token").collect();
    assert_eq!(
        token_requests.len(),
        1,
        "the token is kept until it expires"
    );
    let calls: Vec<_> = requests.iter().filter(|r| r.path == "/rpc").collect();
    assert!(
        calls
            .iter()
            .all(|c| c.header("authorization") == Some("Bearer tok-abc"))
    );
    assert_eq!(
        token_requests[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );

    // A refusal from the token endpoint is a credentials error naming the scheme.
    let refusing = serve(|_, _, _| json_response(401, &json!({"error": "invalid_client"}))).await;
    let source = a2a_client::auth::ClientCredentials::new(
        reqwest::Client::new(),
        format!("{}/token", refusing.base),
        "id",
        "bad",
    );
    let card = secured_card(&agent.base);
    let config = ClientConfig {
        credentials: Credentials::new().with("oauth", Credential::source(source)),
        ..ClientConfig::default()
    };
    let failure = A2aClient::from_card(card, config)
        .expect("client")
        .get_task(get("t-1"))
        .await
        .unwrap_err();
    assert!(
        matches!(&failure, ClientError::Credentials { scheme, message } if scheme == "oauth" && message.contains("invalid_client")),
        "{failure}"
    );
}

/// One span: its name and its fields as text.
type LoggedSpan = (String, Vec<(String, String)>);

/// A `tracing` subscriber that keeps every span's name and fields, as text.
#[derive(Clone, Default)]
struct SpanLog(Arc<std::sync::Mutex<Vec<LoggedSpan>>>);

struct FieldText<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for FieldText<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }

    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl tracing::Subscriber for SpanLog {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut spans = self.0.lock().expect("lock");
        let mut fields = Vec::new();
        span.record(&mut FieldText(&mut fields));
        spans.push((span.metadata().name().to_owned(), fields));
        tracing::span::Id::from_u64(spans.len() as u64)
    }

    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut spans = self.0.lock().expect("lock");
        let index = span.into_u64() as usize - 1;
        values.record(&mut FieldText(&mut spans[index].1));
    }

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, _: &tracing::Event<'_>) {}

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn every_call_has_a_span_with_its_operation_binding_and_trace_id() {
    let agent = serve(|request, _, _| rpc_result(request, task("t-1", "TASK_STATE_WORKING"))).await;
    let client = A2aClient::from_card(
        v1_card(&agent.base, &[("/rpc", "JSONRPC")]),
        ClientConfig::default(),
    )
    .expect("client");
    let log = SpanLog::default();
    let guard = tracing::subscriber::set_default(log.clone());
    client.get_task(get("t-1")).await.expect("answered");
    drop(guard);
    let spans = log.0.lock().expect("lock").clone();
    let (name, fields) = spans
        .iter()
        .find(|(name, _)| name == "a2a.call")
        .expect("an a2a.call span");
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{name} has no {key}: {fields:?}"))
    };
    assert_eq!(field("operation"), "GetTask");
    assert_eq!(field("binding"), "JSONRPC");
    assert_eq!(field("url"), format!("{}/rpc", agent.base));
    let sent = agent.calls()[0]
        .header("traceparent")
        .expect("traceparent")
        .to_owned();
    assert!(
        sent.contains(&field("trace_id")),
        "the span's trace id is the one sent: {sent}"
    );
}

/// An HTTP/1.1 agent that closes a kept-alive connection once it has been idle for `idle_close`,
/// the way uvicorn, Node and our own server do, but whose close crosses the client's next request:
/// a request that comes on a connection after that long idle is read and left unanswered, the
/// connection closed. Answers every other SendMessage with a completed task. Counts connections.
async fn agent_closing_idle_connections(
    idle_close: Duration,
) -> (String, Arc<AtomicUsize>, tokio::task::JoinHandle<()>) {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    let task = tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buffer = Vec::new();
                let mut answered_at: Option<Instant> = None;
                while let Some(body) = next_request_body(&mut stream, &mut buffer).await {
                    let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                    if answered_at.is_some_and(|at| at.elapsed() >= idle_close) {
                        // The server's idle close and this request crossed on the wire.
                        return;
                    }
                    let answer = json!({"jsonrpc": "2.0", "id": body["id"],
                        "result": {"task": task("t-1", "TASK_STATE_COMPLETED")}})
                    .to_string();
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
                        answer.len()
                    );
                    if stream.write_all(response.as_bytes()).await.is_err() {
                        return;
                    }
                    answered_at = Some(Instant::now());
                }
            });
        }
    });
    (base, connections, task)
}

/// The body of the next HTTP/1.1 request on `stream` (its head, then as many bytes as its
/// Content-Length says), read on from what `buffer` already holds; `None` once the client has gone.
async fn next_request_body(
    stream: &mut tokio::net::TcpStream,
    buffer: &mut Vec<u8>,
) -> Option<Vec<u8>> {
    use tokio::io::AsyncReadExt;
    // Where the head ends and how long the body is, once the whole head is in.
    let mut framing: Option<(usize, usize)> = None;
    loop {
        if framing.is_none() {
            framing = buffer.windows(4).position(|w| w == b"\r\n\r\n").map(|at| {
                let head = String::from_utf8_lossy(&buffer[..at]).to_lowercase();
                let length = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .and_then(|value| value.trim().parse().ok())
                    .unwrap_or(0);
                (at + 4, length)
            });
        }
        match framing {
            Some((head_end, length)) if buffer.len() >= head_end + length => {
                let body = buffer[head_end..head_end + length].to_vec();
                buffer.drain(..head_end + length);
                return Some(body);
            }
            _ => {
                let mut chunk = [0u8; 4096];
                match stream.read(&mut chunk).await {
                    Ok(0) | Err(_) => return None,
                    Ok(n) => buffer.extend_from_slice(&chunk[..n]),
                }
            }
        }
    }
}

#[tokio::test]
async fn a_connection_idle_longer_than_the_pool_allows_is_not_reused() {
    let idle_close = Duration::from_secs(2);
    let send = || SendMessageRequest {
        message: Message::user("m-1", [Part::text("hi")]),
        ..Default::default()
    };
    let client_with = |base: &str, pool_idle_timeout: Duration| {
        let card = v1_card(base, &[("/rpc", "JSONRPC")]);
        let config = ClientConfig {
            pool_idle_timeout,
            ..ClientConfig::default()
        }
        .only(Binding::JsonRpc);
        A2aClient::from_card(card, config).expect("client")
    };

    // The pool lets go of the connection before the agent would close it: the second call, after
    // the agent's idle time, opens a new connection and is answered.
    let (base, connections, server) = agent_closing_idle_connections(idle_close).await;
    let client = client_with(&base, idle_close / 2);
    client.send_message(send()).await.expect("the first call");
    client
        .send_message(send())
        .await
        .expect("a call right after it");
    assert_eq!(
        connections.load(Ordering::SeqCst),
        1,
        "back-to-back calls share a connection"
    );
    tokio::time::sleep(idle_close + Duration::from_millis(200)).await;
    client
        .send_message(send())
        .await
        .expect("a call after the agent's idle time goes on a new connection");
    assert_eq!(connections.load(Ordering::SeqCst), 2);
    server.abort();

    // The same agent with a pool that keeps connections longer than the agent does: the call is
    // sent on the connection being closed, and SendMessage, not idempotent, fails. (So the agent
    // above does model the race the default avoids.)
    let (base, connections, server) = agent_closing_idle_connections(idle_close).await;
    let client = client_with(&base, Duration::from_secs(90));
    client.send_message(send()).await.expect("the first call");
    tokio::time::sleep(idle_close + Duration::from_millis(200)).await;
    let failure = client.send_message(send()).await.unwrap_err();
    assert!(
        matches!(failure, ClientError::Transport { .. }),
        "{failure}"
    );
    assert_eq!(connections.load(Ordering::SeqCst), 1);
    server.abort();
}

#[test]
fn the_default_pool_lets_go_before_common_servers_close_idle_connections() {
    // uvicorn's and Node's HTTP servers close a connection idle for 5 s; ours when the next
    // request's head has not come within its header read timeout.
    let pool = ClientConfig::default().pool_idle_timeout;
    assert!(pool < Duration::from_secs(5), "{pool:?}");
    let ours = a2a_server::ConnectionSettings::default().header_read_timeout;
    assert!(pool < ours, "{pool:?} against {ours:?}");
}
