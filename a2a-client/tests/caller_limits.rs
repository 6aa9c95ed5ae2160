//! The server's per-caller limits (`a2a_server::limits`) seen on the wire, on loopback:
//! - a caller over its request rate is refused on every binding (HTTP+JSON and JSON-RPC: HTTP 429
//!   with `Retry-After` and a `RetryInfo`; gRPC: `RESOURCE_EXHAUSTED` with a `RetryInfo`), while
//!   another caller is served at once, and a third caller of the first one's tenant is refused by
//!   the tenant's rate;
//! - a caller with its stream open is refused another on every binding, another caller opens one,
//!   and the slot comes back when the first stream's client goes away;
//! - with limits on, each request is authenticated once (by the limits layer, whose caller the
//!   binding then uses), on every binding.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a_proto::rpc;
use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_protocol::errors::Error;
use a2a_server::limits::{CallerLimits, Rate};
use a2a_server::{
    A2aServer, AgentExecutor, Authenticator, Caller, EventSink, RequestContext, ServerConfig,
    Serving, Unauthenticated, async_trait, auth::bearer_token,
};
use a2a_types::v1::{AgentCard, AgentSkill};
use axum::http::HeaderMap;
use serde_json::{Value, json};
use tonic::Code;

const LIMIT: Duration = Duration::from_secs(20);

/// Works until the task is canceled.
struct Waits;

#[async_trait]
impl AgentExecutor for Waits {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.working().await?;
        events.canceled().await;
        Ok(())
    }
}

/// The token is the principal; alice and carol are in tenant `acme`, bob in `globex`.
struct Tokens;

#[async_trait]
impl Authenticator for Tokens {
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        match bearer_token(headers) {
            Some(name @ ("alice" | "carol")) => Ok(Caller::authenticated(name).in_tenant("acme")),
            Some("bob") => Ok(Caller::authenticated("bob").in_tenant("globex")),
            _ => Err(Unauthenticated("no such token".into())),
        }
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Limited", "Works until canceled.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .http_json("http://127.0.0.1:1/rest")
        .grpc("127.0.0.1:1")
        .streaming(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "wait".into(),
            name: "Wait".into(),
            description: "Works until canceled.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .expect("a valid card")
}

async fn start(limits: CallerLimits) -> Serving {
    start_with(limits, Tokens).await
}

async fn start_with(limits: CallerLimits, authenticator: impl Authenticator) -> Serving {
    let mut config = ServerConfig::default();
    config.caller_limits = limits;
    let server = A2aServer::builder(card(), Waits)
        .config(config)
        .authenticator(authenticator)
        .build();
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    server.serve(http, grpc).await.expect("serving")
}

fn rate(per_second: u32, burst: u32) -> Rate {
    Rate::per_second(per_second.try_into().unwrap()).burst(burst.try_into().unwrap())
}

/// An HTTP answer: status, `Retry-After`, body.
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

async fn send(request: reqwest::RequestBuilder) -> Answer {
    let exchange = async {
        let response = request.send().await.expect("an answer");
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_owned());
        let text = response.text().await.expect("a body");
        Answer {
            status,
            retry_after,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
        }
    };
    tokio::time::timeout(LIMIT, exchange)
        .await
        .expect("in time")
}

fn jsonrpc(serving: &Serving, who: &str, method: &str, params: Value) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(format!("{}/jsonrpc", serving.base_url()))
        .header("A2A-Version", "1.0")
        .bearer_auth(who)
        .header("Content-Type", "application/json")
        .body(json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string())
}

fn rest_list(serving: &Serving, who: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .get(format!("{}/rest/tasks", serving.base_url()))
        .header("A2A-Version", "1.0")
        .bearer_auth(who)
}

fn rest_stream(serving: &Serving, who: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(format!("{}/rest/message:stream", serving.base_url()))
        .header("A2A-Version", "1.0")
        .bearer_auth(who)
        .header("Content-Type", "application/json")
        .body(message().to_string())
}

fn message() -> Value {
    json!({"message": {"messageId": uuid(), "role": "ROLE_USER", "parts": [{"text": "wait"}]}})
}

fn uuid() -> String {
    format!("m-{}", fastrand::u64(..))
}

async fn grpc_client(serving: &Serving) -> A2aServiceClient<tonic::transport::Channel> {
    let url = format!("http://{}", serving.grpc_addr());
    let channel = tonic::transport::Endpoint::from_shared(url)
        .expect("a URL")
        .connect()
        .await
        .expect("a gRPC channel");
    A2aServiceClient::new(channel)
}

fn grpc_request<T>(message: T, who: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    let metadata = request.metadata_mut();
    metadata.insert("a2a-version", "1.0".parse().unwrap());
    metadata.insert("authorization", format!("Bearer {who}").parse().unwrap());
    request
}

/// The `RetryInfo` delay of a gRPC status, from its `grpc-status-details-bin`.
fn grpc_retry_delay(status: &tonic::Status) -> Duration {
    let details = rpc::Status::from_bytes(status.details()).expect("a google.rpc.Status");
    let retry = details
        .details
        .iter()
        .find(|any| any.type_url == rpc::RETRY_INFO_TYPE_URL)
        .expect("a RetryInfo")
        .unpack::<rpc::RetryInfo>()
        .unwrap()
        .retry_delay
        .expect("a delay");
    Duration::new(retry.seconds as u64, retry.nanos as u32)
}

async fn grpc_list(
    client: &mut A2aServiceClient<tonic::transport::Channel>,
    who: &str,
) -> Result<(), tonic::Status> {
    let request = grpc_request(a2a_proto::v1::ListTasksRequest::default(), who);
    tokio::time::timeout(LIMIT, client.list_tasks(request))
        .await
        .expect("in time")
        .map(|_| ())
}

fn assert_http_refusal(answer: &Answer, what: &str) {
    assert_eq!(answer.status, 429, "{what}: {:?}", answer.body);
    assert_eq!(answer.retry_after.as_deref(), Some("1"), "{what}");
    let details = answer
        .body
        .pointer("/error/details")
        .or_else(|| answer.body.pointer("/error/data"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{what}: details in {}", answer.body));
    assert!(
        details.iter().any(|d| d["reason"] == "RATE_LIMIT_EXCEEDED"),
        "{what}: {details:?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d["@type"] == "type.googleapis.com/google.rpc.RetryInfo"),
        "{what}: {details:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_over_its_rate_is_refused_on_every_binding_and_another_is_served() {
    // Alice may make three requests at once, then one a second; her tenant four at once, so carol
    // is refused by the tenant's rate once alice and she made four together.
    let serving = start(
        CallerLimits::default()
            .rate_per_caller(rate(1, 3))
            .rate_per_tenant(rate(1, 4)),
    )
    .await;
    let mut grpc = grpc_client(&serving).await;

    // Her burst: one request on each binding.
    let started = Instant::now();
    assert_eq!(
        send(jsonrpc(&serving, "alice", "ListTasks", json!({})))
            .await
            .status,
        200
    );
    assert_eq!(send(rest_list(&serving, "alice")).await.status, 200);
    grpc_list(&mut grpc, "alice")
        .await
        .expect("within her burst");

    // Over it, on every binding.
    let refused = send(jsonrpc(&serving, "alice", "ListTasks", json!({}))).await;
    assert_http_refusal(&refused, "JSON-RPC");
    assert_eq!(refused.body["id"], 7, "the request's id");
    assert_eq!(refused.body["error"]["code"], -32603);
    assert_http_refusal(&send(rest_list(&serving, "alice")).await, "HTTP+JSON");
    let status = grpc_list(&mut grpc, "alice")
        .await
        .expect_err("over her rate");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let delay = grpc_retry_delay(&status);
    assert!(
        delay > Duration::ZERO && delay <= Duration::from_secs(1),
        "{delay:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "the refusals came within the second her budget refills in (a slow machine?)"
    );

    // Bob, in another tenant, meanwhile: served at once on every binding.
    let bob = Instant::now();
    assert_eq!(
        send(jsonrpc(&serving, "bob", "ListTasks", json!({})))
            .await
            .status,
        200
    );
    assert_eq!(send(rest_list(&serving, "bob")).await.status, 200);
    grpc_list(&mut grpc, "bob")
        .await
        .expect("bob is not limited by alice");
    assert!(bob.elapsed() < Duration::from_millis(500), "bob was slowed");

    // Carol shares alice's tenant, whose budget of four alice's three took one short of: one more
    // request, then the tenant's refusal.
    assert_eq!(send(rest_list(&serving, "carol")).await.status, 200);
    let tenant = send(rest_list(&serving, "carol")).await;
    assert_http_refusal(&tenant, "the tenant's rate");
    assert!(
        tenant.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tenant"),
        "{:?}",
        tenant.body
    );
    serving.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_with_its_stream_open_is_refused_another_on_every_binding() {
    let serving = start(CallerLimits::default().streams_per_caller(1)).await;
    let mut grpc = grpc_client(&serving).await;

    let open = tokio::time::timeout(LIMIT, rest_stream(&serving, "alice").send())
        .await
        .expect("in time")
        .expect("a stream");
    assert_eq!(open.status(), 200);

    assert_http_refusal(&send(rest_stream(&serving, "alice")).await, "HTTP+JSON");
    let refused = send(jsonrpc(
        &serving,
        "alice",
        "SendStreamingMessage",
        message(),
    ))
    .await;
    assert_http_refusal(&refused, "JSON-RPC");
    assert_eq!(refused.body["id"], 7);
    let request: a2a_proto::v1::SendMessageRequest =
        serde_json::from_value(message()).expect("a SendMessageRequest");
    let status = tokio::time::timeout(
        LIMIT,
        grpc.send_streaming_message(grpc_request(request, "alice")),
    )
    .await
    .expect("in time")
    .expect_err("her one stream is open");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(grpc_retry_delay(&status), Duration::from_secs(1));

    // Other calls of hers are not streams; bob opens his own.
    assert_eq!(send(rest_list(&serving, "alice")).await.status, 200);
    let bob = tokio::time::timeout(LIMIT, rest_stream(&serving, "bob").send())
        .await
        .expect("in time")
        .expect("a stream");
    assert_eq!(bob.status(), 200);

    // Her client goes away: the slot comes back.
    drop(open);
    let reopened = tokio::time::timeout(LIMIT, async {
        loop {
            let response = rest_stream(&serving, "alice")
                .send()
                .await
                .expect("an answer");
            if response.status() == 200 {
                return response;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("her slot came back when her stream's client went away");
    drop((reopened, bob));
    serving.shutdown().await;
}

/// [`Tokens`], counting its calls.
struct Counted(Arc<AtomicUsize>);

#[async_trait]
impl Authenticator for Counted {
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Tokens.authenticate(headers).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_limits_on_each_request_is_authenticated_once_on_every_binding() {
    let calls = Arc::new(AtomicUsize::new(0));
    let limits = CallerLimits::default().rate_per_caller(rate(1000, 1000));
    let serving = start_with(limits, Counted(calls.clone())).await;
    let mut client = grpc_client(&serving).await;
    let mut counts = Vec::new();
    for binding in ["JSON-RPC", "HTTP+JSON", "gRPC"] {
        let before = calls.load(Ordering::SeqCst);
        match binding {
            "JSON-RPC" => {
                let answer = send(jsonrpc(&serving, "alice", "ListTasks", json!({}))).await;
                assert_eq!(answer.status, 200, "{:?}", answer.body);
            }
            "HTTP+JSON" => assert_eq!(send(rest_list(&serving, "alice")).await.status, 200),
            _ => grpc_list(&mut client, "alice").await.expect("listed"),
        }
        counts.push((binding, calls.load(Ordering::SeqCst) - before));
    }
    // A refused caller too: the layer's refusal is the binding's answer, without a second try.
    let before = calls.load(Ordering::SeqCst);
    assert_eq!(send(rest_list(&serving, "mallory")).await.status, 401);
    counts.push(("HTTP+JSON, refused", calls.load(Ordering::SeqCst) - before));
    assert!(
        counts.iter().all(|(_, count)| *count == 1),
        "authenticator calls per request: {counts:?}"
    );
    serving.shutdown().await;
}
