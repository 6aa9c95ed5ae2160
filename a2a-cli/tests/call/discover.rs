//! `a2a discover`: the example agent's card summarised and printed whole, and cards served by a
//! tiny loopback HTTP server of the test: one that breaks the card rules (every violation listed,
//! exit 1), one signed by a test key (verified with `--jwks`, refused with another key set).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use a2a_types::signing::{CardSigner, SigningAlgorithm};
use a2a_types::v1::AgentCard;

use crate::agent::{Agent, a2a, on};

/// Serves one card at every path of a loopback port until dropped.
struct CardServer {
    url: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl CardServer {
    fn serve(card: &AgentCard) -> CardServer {
        let body = serde_json::to_vec(card).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut request = Vec::new();
                let mut buffer = [0; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        CardServer {
            url,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for CardServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The example agent's card, as `a2a discover --json` prints it.
fn example_card(agent: &Agent) -> AgentCard {
    let run = a2a(&["discover", &agent.url, "--json"]);
    run.ok();
    assert_eq!(run.lines().len(), 1, "{run:#?}");
    serde_json::from_value(run.json_lines()[0].clone()).unwrap()
}

fn signing_key(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../tests/fixtures/signing/{name}.pem",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).unwrap()
}

#[test]
fn discover_summarises_the_card_and_names_the_interface_chosen() {
    let agent = Agent::start(Duration::from_secs(1));
    let run = a2a(&["discover", &agent.url]);
    run.ok();
    let lines = run.lines();
    assert_eq!(
        lines[0], "Wayfarer (example agent) (version 1.0.0)",
        "{lines:?}"
    );
    for expected in [
        "card: A2A 1.0 document",
        "capabilities: streaming, push notifications, extended card",
        "valid: the card follows the card rules",
        "signatures: 0 (not verified: no --jwks)",
    ] {
        assert!(lines.contains(&expected), "{expected}: {lines:?}");
    }
    for (binding, shown) in [
        ("jsonrpc", "JSONRPC 1.0 at http"),
        ("rest", "HTTP+JSON 1.0 at http"),
        ("grpc", "GRPC 1.0 at 127.0.0.1:"),
    ] {
        let run = a2a(&on(binding, &["discover", &agent.url]));
        run.ok();
        assert!(
            run.lines()
                .iter()
                .any(|l| l.starts_with(&format!("calls go to: {shown}"))),
            "{binding}: {run:#?}"
        );
    }
    let card = example_card(&agent);
    // JSON-RPC, HTTP+JSON and gRPC, each at 1.0 and 0.3.
    assert_eq!(card.supported_interfaces.len(), 6);
}

#[test]
fn discover_lists_every_violation_of_a_bad_card() {
    let agent = Agent::start(Duration::from_secs(1));
    let mut card = example_card(&agent);
    card.name.clear();
    card.version.clear();
    let server = CardServer::serve(&card);
    let run = a2a(&["discover", &server.url]);
    let line = run.failed(1, "error").to_owned();
    assert!(line.starts_with("error: the card is not valid: "), "{line}");
    let lines = run.lines();
    let listed = lines
        .iter()
        .position(|l| l.starts_with("not valid: "))
        .expect("the violations");
    let violations = &lines[listed + 1..lines.len() - 1];
    assert!(violations.len() >= 2, "{lines:?}");
    for field in ["name", "version"] {
        assert!(
            violations
                .iter()
                .any(|v| v.trim_start().starts_with(&format!("{field}: "))),
            "{field}: {lines:?}"
        );
        assert!(line.contains(&format!("{field}: ")), "{field}: {line}");
    }
}

#[test]
fn discover_verifies_signatures_with_jwks() {
    let agent = Agent::start(Duration::from_secs(1));
    let mut card = example_card(&agent);
    let signer =
        CardSigner::from_pem(&signing_key("es256"), SigningAlgorithm::Es256, "test-key").unwrap();
    signer.sign(&mut card).unwrap();
    let jwks = std::env::temp_dir().join(format!("a2a-cli-discover-{}.json", std::process::id()));
    std::fs::write(
        &jwks,
        serde_json::json!({ "keys": [signer.public_jwk().unwrap()] }).to_string(),
    )
    .unwrap();
    let jwks = jwks.to_str().unwrap().to_owned();
    let server = CardServer::serve(&card);

    let run = a2a(&["discover", &server.url, "--jwks", &jwks]);
    run.ok();
    assert!(
        run.lines()
            .contains(&"signatures: signatures[0] verifies with key `test-key` (ES256)"),
        "{run:#?}"
    );

    // The unsigned example card, and a card whose content changed after signing, do not verify.
    let run = a2a(&["discover", &agent.url, "--jwks", &jwks]);
    assert!(
        run.failed(1, "error")
            .contains("no signature of the card verifies"),
        "{run:#?}"
    );
    card.description.push_str(" (changed)");
    let changed = CardServer::serve(&card);
    let run = a2a(&["discover", &changed.url, "--jwks", &jwks]);
    run.failed(1, "error");
    assert!(
        run.lines()
            .iter()
            .any(|l| l.starts_with("signatures: none verifies: ")),
        "{run:#?}"
    );

    let run = a2a(&["discover", &server.url, "--jwks", "/nonexistent/jwks.json"]);
    assert!(
        run.failed(1, "error")
            .contains("--jwks /nonexistent/jwks.json")
    );
    std::fs::remove_file(&jwks).unwrap();
}
