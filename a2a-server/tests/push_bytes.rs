//! Webhook deliveries made in process (no outbox) are bounded per owner: the deliveries of one
//! event to a task's sixteen webhooks share one copy of it, an owner whose webhooks do not answer
//! holds at most its share of bytes (`PushSettings::max_pending_bytes_per_owner`, its events
//! beyond that dropped) and its attempts in flight (`concurrency_per_owner`), while another
//! owner's events are still delivered at once.
//!
//! The webhooks are a listener on loopback: `/hang` takes the request and never answers (the
//! deliveries stay pending until their attempt times out), `/ok` answers 200 and records the
//! body. Every wait is bounded.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, Caller, EventSink, Reply, RequestContext, ServerConfig,
    WebhookPolicy, async_trait,
};
use a2a_types::v1::{
    AgentCard, AgentSkill, Artifact, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, TaskPushNotificationConfig,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const LIMIT: Duration = Duration::from_secs(20);
const KIB: usize = 1024;

/// `ask` waits for input; `big N` answers with an artifact of N KiB and completes.
struct BigAgent;

#[async_trait]
impl AgentExecutor for BigAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        if let Some(kib) = text.strip_prefix("big ") {
            let kib: usize = kib.parse().unwrap();
            let artifact = Artifact {
                artifact_id: "big".into(),
                parts: vec![Part::text("b".repeat(kib * KIB))],
                ..Default::default()
            };
            events.artifact(artifact).await?;
            events.complete().await?;
        } else {
            events.ask_for_input("more?").await?;
        }
        Ok(())
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Pushing", "Sends big artifacts to webhooks.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .push_notifications(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "big".into(),
            name: "Big".into(),
            description: "Answers with a big artifact.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .unwrap()
}

/// What the webhook listener saw: requests to `/hang` (never answered) and the bodies to `/ok`.
#[derive(Default)]
struct Seen {
    hanging: usize,
    delivered: Vec<String>,
}

async fn webhooks() -> (u16, Arc<Mutex<Seen>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let record = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let record = record.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = vec![0u8; 64 * KIB];
                // Reads the head and a body of Content-Length bytes.
                let (head_end, length) = loop {
                    let Ok(n) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..n]);
                    if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&request[..end]).to_ascii_lowercase();
                        let length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (end + 4, length);
                    }
                };
                while request.len() < head_end + length {
                    let Ok(n) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..n]);
                }
                let head = String::from_utf8_lossy(&request[..head_end]).to_string();
                if head.starts_with("POST /hang") {
                    record.lock().unwrap().hanging += 1;
                    // Holds the connection without answering until the attempt times out.
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    return;
                }
                let body = String::from_utf8_lossy(&request[head_end..]).to_string();
                record.lock().unwrap().delivered.push(body);
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                    .await;
            });
        }
    });
    (port, seen)
}

fn server() -> A2aServer {
    let mut config = ServerConfig::default();
    config.webhook_policy = WebhookPolicy::local_development();
    config.push.attempts = 1;
    config.push.timeout = Duration::from_secs(15);
    config.push.max_pending_bytes_per_owner = 1024 * KIB;
    A2aServer::builder(card(), BigAgent).config(config).build()
}

async fn send(
    server: &A2aServer,
    caller: &Caller,
    text: &str,
    task_id: Option<&str>,
    webhook: Option<String>,
) -> String {
    let mut message = Message::user(format!("m-{text}-{task_id:?}"), [Part::text(text)]);
    message.task_id = task_id.map(str::to_owned);
    let request = SendMessageRequest {
        message,
        configuration: Some(SendMessageConfiguration {
            task_push_notification_config: webhook.map(|url| TaskPushNotificationConfig {
                url,
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let context = CallContext::new(caller.clone(), "test");
    let reply = tokio::time::timeout(
        LIMIT,
        server.call(MethodParams::SendMessage(request), &context),
    )
    .await
    .expect("in time")
    .expect("sent");
    match reply {
        Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task))) => task.id,
        other => panic!("a task, not {other:?}"),
    }
}

async fn until(what: &str, check: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + LIMIT;
    while !check() {
        assert!(tokio::time::Instant::now() < deadline, "waited for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn artifacts_of(seen: &Seen, task_id: &str) -> usize {
    seen.delivered
        .iter()
        .filter(|body| body.contains("artifactUpdate") && body.contains(task_id))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_whose_webhooks_hang_holds_one_share_and_another_is_still_delivered() {
    let (port, seen) = webhooks().await;
    let server = server();
    let (alice, bob) = (Caller::authenticated("alice"), Caller::authenticated("bob"));

    // Sixteen hanging webhooks on one of Alice's tasks, then an event of 700 KiB: one copy is
    // counted for all sixteen (sixteen copies would not fit her 1 MiB share: one delivery would
    // be admitted, not four), and four of them are attempted at once, her cap in flight.
    let waiting = send(&server, &alice, "ask", None, None).await;
    for n in 0..16 {
        let config = TaskPushNotificationConfig {
            task_id: Some(waiting.clone()),
            id: Some(format!("hook-{n}")),
            url: format!("http://127.0.0.1:{port}/hang"),
            ..Default::default()
        };
        let context = CallContext::new(alice.clone(), "test");
        server
            .call(
                MethodParams::CreateTaskPushNotificationConfig(config),
                &context,
            )
            .await
            .expect("a config");
    }
    send(&server, &alice, "big 700", Some(&waiting), None).await;
    until("four attempts of the shared event", || {
        seen.lock().unwrap().hanging >= 4
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        seen.lock().unwrap().hanging,
        4,
        "Alice's attempts in flight are capped"
    );

    // Her share is held until those attempts time out: her next big event to a webhook that
    // answers is dropped, while Bob's is delivered.
    let dropped = send(
        &server,
        &alice,
        "big 700",
        None,
        Some(format!("http://127.0.0.1:{port}/ok")),
    )
    .await;
    let delivered = send(
        &server,
        &bob,
        "big 700",
        None,
        Some(format!("http://127.0.0.1:{port}/ok")),
    )
    .await;
    until("Bob's artifact", || {
        artifacts_of(&seen.lock().unwrap(), &delivered) == 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        artifacts_of(&seen.lock().unwrap(), &dropped),
        0,
        "Alice's event over her share is not delivered"
    );
}
