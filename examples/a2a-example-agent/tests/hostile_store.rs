//! Issue 29's attacks on the example agent's in-memory store (its own process, loopback only):
//!
//! | attack | bound asserted |
//! |---|---|
//! | an anonymous client creating 10,050 tasks (row 8) | an authenticated caller's finished task is still there (its owner got 404 before: the store evicted by global count) |
//! | 30 messages of 15 MiB (row 6) | the agent's memory after them stays under 512 MiB (it held 1.6 GB before: the store was bounded by count only, and the default skill keeps each text twice) |
//!
//! Every call is bounded in time; the agent is killed when the test ends.

mod common;

use std::time::Duration;

use a2a_example_agent::server::EXTENDED_CARD_TOKEN;
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(60);
const MIB: usize = 1 << 20;

/// The agent's resident memory now, in bytes.
fn rss(pid: u32) -> usize {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let kib: usize = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kib * 1024
}

async fn rpc(
    client: &reqwest::Client,
    url: &str,
    bearer: Option<&str>,
    method: &str,
    params: Value,
) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut request = client
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

fn send(id: &str, text: &str) -> Value {
    json!({"message": {"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_flood_never_evicts_an_authenticated_callers_task() {
    let (_server, url) = common::start("memory");
    let client = reqwest::Client::new();
    let answer = rpc(
        &client,
        &url,
        Some(EXTENDED_CARD_TOKEN),
        "SendMessage",
        send("mine", "hello"),
    )
    .await;
    let task_id = answer["result"]["task"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {answer}"))
        .to_owned();
    let mut senders = tokio::task::JoinSet::new();
    for sender in 0..8 {
        let (client, url) = (client.clone(), url.clone());
        senders.spawn(async move {
            for i in 0..(10_050 / 8 + 1) {
                let answer = rpc(
                    &client,
                    &url,
                    None,
                    "SendMessage",
                    send(&format!("flood-{sender}-{i}"), "hello"),
                )
                .await;
                assert!(answer["result"]["task"].is_object(), "{answer}");
            }
        });
    }
    while let Some(done) = senders.join_next().await {
        done.expect("the flood's sender");
    }
    let mine = rpc(
        &client,
        &url,
        Some(EXTENDED_CARD_TOKEN),
        "GetTask",
        json!({"id": task_id}),
    )
    .await;
    assert_eq!(
        mine["result"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{mine:.300}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_messages_of_15_mib_keep_the_agent_under_512_mib() {
    let (server, url) = common::start("memory");
    let pid = server.pid();
    let client = reqwest::Client::new();
    let text = "y".repeat(15 * MIB);
    for i in 0..30 {
        let answer = rpc(
            &client,
            &url,
            None,
            "SendMessage",
            send(&format!("big-{i}"), &text),
        )
        .await;
        assert_eq!(
            answer["result"]["task"]["status"]["state"],
            "TASK_STATE_COMPLETED",
            "{:.300}",
            answer.to_string()
        );
    }
    let held = rss(pid);
    eprintln!("30 messages of 15 MiB: the agent holds {held} bytes");
    assert!(held < 512 * MIB, "the agent holds {held} bytes");
}
