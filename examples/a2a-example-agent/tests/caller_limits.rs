//! The example agent's `--rate-per-caller` and `--streams-per-caller` flags, on the built binary:
//! an anonymous caller (counted by its address) over one request a second is refused with HTTP 429
//! and `Retry-After` on HTTP+JSON and on JSON-RPC (one budget for both). The agent runs on free
//! 127.0.0.1 ports and is stopped when the test ends.

mod common;

use std::time::Duration;

use serde_json::json;

const LIMIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_caller_over_its_rate_is_refused_with_retry_after() {
    let (_agent, url, _) = common::start_with(&[
        "--listen",
        "127.0.0.1:0",
        "--store",
        "memory",
        "--rate-per-caller",
        "1",
        "--streams-per-caller",
        "4",
    ]);
    let http = reqwest::Client::new();
    let list = || {
        http.get(format!("{url}/rest/tasks"))
            .header("A2A-Version", "1.0")
            .send()
    };
    let first = tokio::time::timeout(LIMIT, list()).await.unwrap().unwrap();
    assert_eq!(first.status(), 200);
    let rest = tokio::time::timeout(LIMIT, list()).await.unwrap().unwrap();
    assert_eq!(rest.status(), 429);
    assert_eq!(rest.headers()["retry-after"], "1");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {}});
    let jsonrpc = http
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send();
    let jsonrpc = tokio::time::timeout(LIMIT, jsonrpc).await.unwrap().unwrap();
    assert_eq!(jsonrpc.status(), 429);
    assert_eq!(jsonrpc.headers()["retry-after"], "1");
    let answer: serde_json::Value =
        serde_json::from_str(&jsonrpc.text().await.unwrap()).expect("JSON");
    assert_eq!(
        answer["error"]["data"][0]["reason"], "RATE_LIMIT_EXCEEDED",
        "{answer}"
    );
}
