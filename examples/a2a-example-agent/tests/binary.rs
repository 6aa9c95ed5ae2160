//! `a2a-example-agent --listen`: prints `listening on http://…` once ready, serves the card there
//! (with every interface, gRPC on its own port), answers on JSON-RPC, and refuses a non-loopback
//! address (for either listener, `--listen` or `--grpc-listen`). The process is killed when the test ends, however it ends.

use std::io::{BufRead, BufReader};
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

#[test]
fn listen_serves_the_card_and_json_rpc_until_killed() {
    let child = agent(&["--listen", "127.0.0.1:0"])
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
        assert_eq!(bindings, ["JSONRPC", "HTTP+JSON", "GRPC", "JSONRPC"]);
        assert_eq!(card["capabilities"]["streaming"], true);

        let request = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
            "message": {"messageId": "tck-complete-task-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}});
        let answer: serde_json::Value = serde_json::from_slice(
            &http
                .post(format!("{url}/jsonrpc"))
                .header("A2A-Version", "1.0")
                .header("Content-Type", "application/json")
                .body(request.to_string())
                .send()
                .await
                .expect("JSON-RPC answers")
                .bytes()
                .await
                .unwrap(),
        )
        .unwrap();
        let status = &answer["result"]["task"]["status"];
        assert_eq!(status["state"], "TASK_STATE_COMPLETED", "{answer}");
        assert_eq!(status["message"]["parts"][0]["text"], "Hello from TCK");
    });
    assert!(
        child.0.try_wait().unwrap().is_none(),
        "the agent still serves"
    );
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
