//! Issue 29's attacks on the example agent's stores (its own process, loopback only):
//!
//! | attack | store | bound asserted |
//! |---|---|---|
//! | an anonymous client creating 10,050 tasks (row 8) | memory | an authenticated caller's finished task is still there (its owner got 404 before: the store evicted by global count) |
//! | an anonymous client creating 2,000 tasks (row 8) | SQLite | the same (SQL stores evict nothing; retention removes only what is old) |
//! | 30 messages of 15 MiB (row 6) | memory | the agent's memory after them stays under 512 MiB (it held 1.6 GB before: the store was bounded by count only, and the default skill kept each text twice) |
//! | a context id, a task id and a ListTasks filter holding U+0000 | memory, SQLite, PostgreSQL | each refused as `InvalidParams` naming the field, on every store alike (PostgreSQL's text cannot store the character: the store failed, and the caller got an internal error carrying the database's message); the message's own texts may hold it |
//! | 10 messages of 15 MiB (row 10) | SQLite | the agent's resident memory stays under 512 MiB (the allocator keeps the high-water mark of the requests' transient copies; nothing is kept in memory) and the database (with its WAL) under 2.5 times the bytes sent (3.6 times before, kept for ever; retention now runs by default) |
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
    post(client, url, bearer, body.to_string()).await
}

/// POSTs the JSON-RPC request `body` (already text) and reads the answer, within [`LIMIT`].
async fn post(client: &reqwest::Client, url: &str, bearer: Option<&str>, body: String) -> Value {
    let mut request = client
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body);
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

/// Floods the agent at `url` with `tasks` anonymous tasks and checks an authenticated caller's
/// finished task is still its owner's.
async fn flood_keeps_a_members_task(url: &str, tasks: usize) {
    let url = url.to_owned();
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
            for i in 0..(tasks / 8 + 1) {
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
async fn an_anonymous_flood_never_evicts_an_authenticated_callers_task() {
    let (_server, url) = common::start("memory");
    flood_keeps_a_members_task(&url, 10_050).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_flood_never_evicts_an_authenticated_callers_task_on_sqlite() {
    let (path, _file) = common::sqlite_file("hostile_flood");
    let (_server, url) = common::start(&format!("sqlite:{path}"));
    flood_keeps_a_members_task(&url, 2_000).await;
}

/// Sends `count` anonymous messages of 15 MiB, each completed at once. The body is written as
/// text: its one big string needs no escaping, and a debug build's `serde_json` would spend seconds
/// a message escaping it byte by byte.
async fn send_big_messages(url: &str, count: usize) {
    let client = reqwest::Client::new();
    let text = "w".repeat(15 * MIB);
    for i in 0..count {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"messageId":"big-{i}","role":"ROLE_USER","parts":[{{"text":"{text}"}}]}}}}}}"#
        );
        let answer = post(&client, url, None, body).await;
        assert_eq!(
            answer["result"]["task"]["status"]["state"],
            "TASK_STATE_COMPLETED",
            "{:.300}",
            answer.to_string()
        );
    }
}

/// The bytes of a SQLite database on disk: the file and its write-ahead log.
fn database_bytes(path: &str) -> u64 {
    [path.to_owned(), format!("{path}-wal")]
        .iter()
        .filter_map(|file| std::fs::metadata(file).ok())
        .map(|meta| meta.len())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_messages_of_15_mib_on_sqlite_stay_within_a_bound_on_disk_and_in_memory() {
    let (path, _file) = common::sqlite_file("hostile_disk");
    let (server, url) = common::start(&format!("sqlite:{path}"));
    let pid = server.pid();
    send_big_messages(&url, 10).await;
    let (sent, on_disk, held) = (10 * 15 * MIB as u64, database_bytes(&path), rss(pid));
    eprintln!(
        "10 messages of 15 MiB on SQLite: {} MB on disk for {} MB sent; the agent holds {} MB",
        on_disk / 1_000_000,
        sent / 1_000_000,
        held / 1_000_000
    );
    assert!(
        on_disk * 2 < sent * 5,
        "{on_disk} bytes on disk for {sent} sent"
    );
    assert!(held < 512 * MIB, "the agent holds {held} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_messages_of_15_mib_keep_the_agent_under_512_mib() {
    let (server, url) = common::start("memory");
    let pid = server.pid();
    send_big_messages(&url, 30).await;
    let held = rss(pid);
    eprintln!("30 messages of 15 MiB: the agent holds {held} bytes");
    assert!(held < 512 * MIB, "the agent holds {held} bytes");
}

/// Keys holding U+0000 are refused alike by every store, naming the field; a message whose own
/// texts hold it is answered (JSON keeps the character escaped).
async fn nul_in_keys_is_invalid_params(store: common::TestStore) {
    let (_server, url) = common::start(&store.argument());
    let client = reqwest::Client::new();
    let mut in_context = send("nul-1", "hello");
    in_context["message"]["contextId"] = json!("ctx\u{0}x");
    let mut in_task = send("nul-2", "hello");
    in_task["message"]["taskId"] = json!("task\u{0}");
    let calls = [
        ("SendMessage", in_context, "message.context_id"),
        ("SendMessage", in_task, "message.task_id"),
        ("GetTask", json!({"id": "task\u{0}"}), "id"),
        ("ListTasks", json!({"contextId": "\u{0}"}), "context_id"),
    ];
    for (method, params, field) in calls {
        let answer = rpc(&client, &url, None, method, params).await;
        assert_eq!(
            answer["error"]["code"], -32602,
            "{} {method}: {answer:.400}",
            store.name
        );
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!("{field}:")),
            "{} {method} names {field}: {answer:.400}",
            store.name
        );
    }
    let answer = rpc(
        &client,
        &url,
        None,
        "SendMessage",
        send("nul\u{0}3", "a\u{0}b"),
    )
    .await;
    assert_eq!(
        answer["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{}: {answer:.400}",
        store.name
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nul_in_keys_is_invalid_params_on_every_store() {
    nul_in_keys_is_invalid_params(common::TestStore::memory()).await;
    nul_in_keys_is_invalid_params(common::TestStore::sqlite()).await;
    if let Some(store) =
        common::TestStore::postgres("nul_in_keys_is_invalid_params_on_every_store").await
    {
        nul_in_keys_is_invalid_params(store).await;
    }
}
