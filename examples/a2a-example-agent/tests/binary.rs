//! `a2a-example-agent --listen`: prints `listening on http://…` once ready, serves the card there
//! (with every interface, gRPC on its own port), answers on JSON-RPC, keeps its tasks without
//! `--store` in the default SQLite file (found again by an agent started anew; the test points
//! `TMPDIR` at a directory of its own, so no other run shares the file), and refuses a non-loopback
//! address (for either listener, `--listen` or `--grpc-listen`). `--help` names the stores and the
//! default, and the protection options; `--api-key` protects every operation and the card declares
//! it; `--oidc-issuer` without `--oidc-audience` is refused. Each process is killed when the test
//! ends, however it ends.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Kills the agent when the test ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn agent(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"));
    command.args(args).stdin(Stdio::null());
    command
}

/// Starts `a2a-example-agent --listen 127.0.0.1:0` without `--store`, its temporary directory
/// `temp`; returns the process and its URL once it says it listens.
fn listen_on_default_store(temp: &Path) -> (KillOnDrop, String) {
    listen_with(&["--listen", "127.0.0.1:0"], temp)
}

/// Starts the agent with `args`, its temporary directory `temp`; the process and its URL.
fn listen_with(args: &[&str], temp: &Path) -> (KillOnDrop, String) {
    let child = agent(args)
        .env("TMPDIR", temp)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the agent starts");
    let mut child = KillOnDrop(child);
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the agent prints its address");
    let url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line is {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (child, url)
}

/// A JSON-RPC call with `A2A-Version: 1.0`; the answer's JSON.
async fn json_rpc(
    http: &reqwest::Client,
    url: &str,
    request: serde_json::Value,
) -> serde_json::Value {
    let body = http
        .post(format!("{url}/jsonrpc"))
        .header("A2A-Version", "1.0")
        .header("Content-Type", "application/json")
        .body(request.to_string())
        .send()
        .await
        .expect("JSON-RPC answers")
        .bytes()
        .await
        .unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn listen_serves_the_card_and_json_rpc_until_killed() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let temp = std::env::temp_dir().join(format!("a2a-binary-test-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&temp).unwrap();
    let (mut child, url) = listen_on_default_store(&temp);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .no_proxy()
            .build()
            .unwrap();
        let card: serde_json::Value = serde_json::from_slice(
            &http
                .get(format!("{url}/.well-known/agent-card.json"))
                .send()
                .await
                .expect("the card is served")
                .bytes()
                .await
                .unwrap(),
        )
        .expect("the card is JSON");
        let bindings: Vec<&str> = card["supportedInterfaces"]
            .as_array()
            .expect("supportedInterfaces")
            .iter()
            .map(|i| i["protocolBinding"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            bindings,
            ["JSONRPC", "HTTP+JSON", "GRPC", "JSONRPC", "HTTP+JSON", "GRPC"]
        );
        // The v0.3 fields of the card fetched without `A2A-Version`: JSON-RPC preferred, the other two
        // bindings as additional interfaces at the URLs they are served on.
        assert_eq!(card["preferredTransport"], "JSONRPC");
        let additional: Vec<(&str, &str)> = card["additionalInterfaces"]
            .as_array()
            .expect("additionalInterfaces")
            .iter()
            .map(|i| {
                (
                    i["transport"].as_str().unwrap_or_default(),
                    i["url"].as_str().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            additional,
            [
                ("HTTP+JSON", format!("{url}/rest").as_str()),
                ("GRPC", card["supportedInterfaces"][2]["url"].as_str().unwrap_or_default()),
            ]
        );
        assert_eq!(card["capabilities"]["streaming"], true);

        let request = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
            "message": {"messageId": "tck-complete-task-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}});
        let answer = json_rpc(&http, &url, request).await;
        let status = &answer["result"]["task"]["status"];
        assert_eq!(status["state"], "TASK_STATE_COMPLETED", "{answer}");
        assert_eq!(status["message"]["parts"][0]["text"], "Hello from TCK");
        assert!(
            child.0.try_wait().unwrap().is_none(),
            "the agent still serves"
        );

        // Without --store the task went to the default SQLite file: an agent started anew finds it.
        let default_file = temp.join("a2a-example-agent").join("tasks.sqlite3");
        assert!(default_file.is_file(), "{} exists", default_file.display());
        drop(child);
        let (_again, url) = listen_on_default_store(&temp);
        let task_id = answer["result"]["task"]["id"].clone();
        let request = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": task_id}});
        let found = json_rpc(&http, &url, request).await;
        assert_eq!(found["result"]["status"]["state"], "TASK_STATE_COMPLETED", "{found}");
    });
    let _ = std::fs::remove_dir_all(&temp);
}

#[test]
fn help_names_every_store_and_the_default() {
    let output = agent(&["--help"]).output().expect("the agent runs");
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "usage: a2a-example-agent --listen",
        "--store memory",
        "--store sqlite:PATH",
        "--store postgres://URL",
        "(no --store)              the SQLite file a2a-example-agent/tasks.sqlite3",
        "--oidc-issuer URL --oidc-audience AUD",
        "--api-key KEY",
        "--rate-per-caller N",
        "--streams-per-caller N",
        "--keep-ended SECONDS",
        "--tls-cert PEM --tls-key PEM",
        "--mtls-roots PEM",
    ] {
        assert!(
            help.contains(expected),
            "--help lacks {expected:?}:\n{help}"
        );
    }
}

#[test]
fn listen_refuses_addresses_beyond_loopback() {
    for args in [
        &["--listen", "0.0.0.0:0"][..],
        &["--listen", "127.0.0.1:0", "--grpc-listen", "0.0.0.0:0"],
    ] {
        let output = agent(args).output().expect("the agent runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("loopback"), "{args:?}: {stderr}");
    }
}

#[test]
fn api_key_protects_every_operation_and_the_card_declares_it() {
    let temp = std::env::temp_dir().join(format!("a2a-example-agent-key-{}", std::process::id()));
    std::fs::create_dir_all(&temp).unwrap();
    let (_agent, url) = listen_with(
        &[
            "--listen",
            "127.0.0.1:0",
            "--store",
            "memory",
            "--api-key",
            "k-1",
        ],
        &temp,
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let card: serde_json::Value = serde_json::from_slice(
            &http
                .get(format!("{url}/.well-known/agent-card.json"))
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["name"],
            "X-API-Key",
            "{card}"
        );
        assert_eq!(card["securityRequirements"], serde_json::json!([{"schemes": {"apiKey": {}}}]));
        let get = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t-none"}});
        let refused = json_rpc(&http, &url, get.clone()).await;
        assert_eq!(refused["error"]["code"], -31401, "{refused}");
        let answered = http
            .post(format!("{url}/jsonrpc"))
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .header("X-API-Key", "k-1")
            .body(get.to_string())
            .send()
            .await
            .unwrap();
        let answered: serde_json::Value =
            serde_json::from_slice(&answered.bytes().await.unwrap()).unwrap();
        assert_eq!(answered["error"]["code"], -32001, "{answered}");
    });
    let _ = std::fs::remove_dir_all(&temp);
}

#[test]
fn the_oidc_options_go_together() {
    let output = agent(&[
        "--listen",
        "127.0.0.1:0",
        "--oidc-issuer",
        "https://id.example.com",
    ])
    .output()
    .expect("the agent runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--oidc-audience"), "{stderr}");
}
