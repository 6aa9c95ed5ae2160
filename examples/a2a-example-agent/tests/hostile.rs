//! One hostile client against the example agent (its own process, memory store, loopback only),
//! each attack of issue 29 that the server now bounds, asserting what the server held and what
//! another caller saw:
//!
//! | attack | bound asserted |
//! |---|---|
//! | SendMessage with an inline push config whose token is 4 MiB, three times | each refused naming `token`; the server's peak memory grows by less than 10 times the bytes sent (it held 100 times them, for good, before the configs were bounded) |
//! | 20 turns of 1 MiB on one task | GetTask's answer fits the 16 MiB answer budget and ends with the newest turn |
//! | 100 SubscribeToTask streams on a 14 MiB task, never read | the server's peak memory grows by less than 300 MB (1.3 GB before: each stream held its own copy of the task); those over the owner's 64 MiB of unread events are refused as a temporary refusal; an authenticated caller still streams |
//! | 70 anonymous streams held open, never read | the anonymous owner is refused at its cap (HTTP 200, JSON-RPC `-32603` with a `RetryInfo`); an authenticated caller still streams |
//! | 300 idle connections from one address | those over the per-address cap are closed at once; another address gets the card within 2 s |
//!
//! Peak memory is the process's `VmHWM`, reset (`/proc/PID/clear_refs`) before each attack. Every
//! wait is bounded; the agent is killed when the test ends.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const LIMIT: Duration = Duration::from_secs(60);
const MIB: usize = 1 << 20;

/// The agent's peak resident memory since the last reset, in bytes.
fn peak_rss(pid: u32) -> usize {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let kib: usize = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib * 1024
}

/// Resets the agent's peak resident memory to what it holds now.
fn reset_peak(pid: u32) {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("clear_refs");
}

async fn rpc(url: &str, bearer: Option<&str>, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut request = reqwest::Client::new()
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body.to_string());
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let call = async {
        let response = request.send().await.expect("an answer");
        serde_json::from_str::<Value>(&response.text().await.expect("a body")).expect("JSON")
    };
    tokio::time::timeout(LIMIT, call).await.expect("in time")
}

fn message(id: &str, text: &str) -> Value {
    json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_configs_with_huge_tokens_are_refused_and_held_by_no_one() {
    let (server, url) = common::start("memory");
    let pid = server.pid();
    reset_peak(pid);
    let before = peak_rss(pid);
    let token = "t".repeat(4 * MIB);
    for turn in 0..3 {
        let answer = rpc(
            &url,
            None,
            "SendMessage",
            json!({
                "message": message(&format!("m-{turn}"), "hello"),
                "configuration": {"taskPushNotificationConfig": {
                    "url": "https://example.com/hook", "token": token}},
            }),
        )
        .await;
        assert_eq!(
            answer["error"]["code"],
            -32602,
            "{:.300}",
            answer.to_string()
        );
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("configuration.taskPushNotificationConfig.token"),
            "{:.300}",
            answer.to_string()
        );
    }
    let sent = 3 * 4 * MIB;
    let grown = peak_rss(pid).saturating_sub(before);
    eprintln!("push tokens: sent {sent} bytes, peak grew by {grown} bytes");
    assert!(
        grown < 10 * sent,
        "the peak grew by {grown} bytes for {sent} sent"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_of_many_big_turns_is_answered_within_the_budget() {
    let (server, url) = common::start("memory");
    let _ = server.pid();
    let turn_text = "x".repeat(MIB);
    let first = rpc(
        &url,
        None,
        "SendMessage",
        json!({"message": message("tck-multi-turn-1", "tck-multi-turn")}),
    )
    .await;
    let task_id = first["result"]["task"]["id"]
        .as_str()
        .expect("a task")
        .to_owned();
    for turn in 0..20 {
        let mut next = message(&format!("turn-{turn}"), &turn_text);
        next["taskId"] = json!(task_id);
        let answer = rpc(&url, None, "SendMessage", json!({"message": next})).await;
        assert!(
            answer.get("result").is_some(),
            "turn {turn}: {:.300}",
            answer.to_string()
        );
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task_id}});
    let response = reqwest::Client::new()
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("an answer")
        .text()
        .await
        .expect("a body");
    eprintln!(
        "20 turns of 1 MiB: GetTask answered {} bytes",
        response.len()
    );
    assert!(response.len() <= 16 * MIB, "{} bytes", response.len());
    let task: Value = serde_json::from_str(&response).expect("JSON");
    let history = task["result"]["history"].as_array().expect("a history");
    assert!(history.len() < 41, "trimmed: {} messages", history.len());
    let newest_user = history
        .iter()
        .rev()
        .find(|m| m["role"] == "ROLE_USER")
        .expect("a user message");
    assert_eq!(newest_user["messageId"], "turn-19", "the newest turn stays");
}

/// Opens a SubscribeToTask stream on `task` over raw HTTP/1 and never reads it.
async fn unread_subscription(addr: SocketAddr, task: &str) -> TcpStream {
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "SubscribeToTask", "params": {"id": task}})
            .to_string();
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    let request = format!(
        "POST /jsonrpc HTTP/1.1\r\nHost: x\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("sent");
    stream
}

fn socket_addr(url: &str) -> SocketAddr {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .and_then(|host| host.parse().ok())
        .expect("an address")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_anonymous_streams_never_lock_out_an_authenticated_caller() {
    let (server, url) = common::start("memory");
    let _ = server.pid();
    let waiting = rpc(
        &url,
        None,
        "SendMessage",
        json!({"message": message("m-wait", "tck-multi-turn")}),
    )
    .await;
    let task = waiting["result"]["task"]["id"]
        .as_str()
        .expect("a task")
        .to_owned();
    let addr = socket_addr(&url);
    let mut held = Vec::new();
    for _ in 0..70 {
        held.push(unread_subscription(addr, &task).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The anonymous owner is at its cap: refused, as a temporary refusal.
    let refused = rpc(&url, None, "SubscribeToTask", json!({"id": task})).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert!(
        refused["error"]["data"]
            .as_array()
            .is_some_and(|details| details
                .iter()
                .any(|d| d["@type"] == "type.googleapis.com/google.rpc.RetryInfo")),
        "{refused}"
    );
    // An authenticated caller streams its own task.
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "SendStreamingMessage",
                      "params": {"message": message("m-member", "tck-multi-turn")}});
    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .bearer_auth(a2a_example_agent::server::EXTENDED_CARD_TOKEN)
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), 200);
    let mut response = response;
    let first = tokio::time::timeout(LIMIT, response.chunk())
        .await
        .expect("in time")
        .expect("a chunk")
        .expect("an event");
    let first = String::from_utf8_lossy(&first);
    assert!(first.contains("\"task\""), "{first}");
    eprintln!(
        "70 unread anonymous streams: a member's stream began in {:?}",
        started.elapsed()
    );
    drop(held);
}

async fn connect_from(source: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{source}:0").parse().expect("an address"))?;
    socket.connect(to).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_from_one_address_do_not_stop_another() {
    let (server, url) = common::start("memory");
    let _ = server.pid();
    let addr = socket_addr(&url);
    let mut held = Vec::new();
    for _ in 0..300 {
        if let Ok(stream) = connect_from("127.0.0.1", addr).await {
            held.push(stream);
        }
    }
    // Those over the per-address cap (256) are closed by the server at once.
    let mut closed = 0;
    for stream in held.iter_mut().rev().take(60) {
        let mut byte = [0u8; 1];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_secs(2), stream.read(&mut byte)).await
        {
            closed += 1;
        }
    }
    assert!(
        closed >= 40,
        "{closed} of the last 60 connections were closed"
    );
    let started = Instant::now();
    let mut other = connect_from("127.0.0.2", addr)
        .await
        .expect("another address connects");
    other
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await
        .expect("sent");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(2), other.read_to_end(&mut answer))
        .await
        .expect("the card within 2 s")
        .expect("read");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    eprintln!(
        "300 idle connections from one address: another got the card in {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_streams_of_a_big_task_hold_a_bounded_share() {
    let (server, url) = common::start("memory");
    let pid = server.pid();
    let waiting = rpc(
        &url,
        None,
        "SendMessage",
        json!({"message": message("m-big", "tck-multi-turn")}),
    )
    .await;
    let task = waiting["result"]["task"]["id"]
        .as_str()
        .expect("a task")
        .to_owned();
    let turn_text = "z".repeat(MIB);
    for turn in 0..14 {
        let mut next = message(&format!("big-turn-{turn}"), &turn_text);
        next["taskId"] = json!(task);
        let answer = rpc(&url, None, "SendMessage", json!({"message": next})).await;
        assert!(
            answer.get("result").is_some(),
            "{:.300}",
            answer.to_string()
        );
    }
    let addr = socket_addr(&url);
    tokio::time::sleep(Duration::from_millis(200)).await;
    reset_peak(pid);
    let before = peak_rss(pid);
    let mut held = Vec::new();
    for _ in 0..100 {
        held.push(unread_subscription(addr, &task).await);
    }
    // Every one answered (a stream's first bytes, or its refusal), none of it read: each request
    // reads the 14 MiB task, which is the attacker's cost in time; what is measured after is
    // what the server holds, and how soon it serves someone else.
    for stream in &held {
        tokio::time::timeout(LIMIT, stream.readable())
            .await
            .expect("answered in time")
            .expect("readable");
    }
    let refused = rpc(&url, None, "SubscribeToTask", json!({"id": task})).await;
    assert_eq!(
        refused["error"]["code"],
        -32603,
        "{:.300}",
        refused.to_string()
    );
    let grown = peak_rss(pid).saturating_sub(before);
    eprintln!(
        "100 unread streams of a 14 MiB task: peak memory grew by {} MB",
        grown / 1_000_000
    );
    assert!(grown < 300_000_000, "peak memory grew by {grown} bytes");
    // An authenticated caller streams its own task at once.
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "SendStreamingMessage",
                      "params": {"message": message("m-member-big", "tck-multi-turn")}});
    let started = Instant::now();
    let mut response = reqwest::Client::new()
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .bearer_auth(a2a_example_agent::server::EXTENDED_CARD_TOKEN)
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    let first = tokio::time::timeout(LIMIT, response.chunk())
        .await
        .expect("in time")
        .expect("a chunk")
        .expect("an event");
    assert!(String::from_utf8_lossy(&first).contains("\"task\""));
    eprintln!("a member's stream began in {:?}", started.elapsed());
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    drop(held);
}
