//! `a2a conformance`: against the example agent at MUST level it passes on every binding its card
//! declares (the JSON report says so check by check, each with its level and section); against an
//! agent that breaks a rule (the server crate behind a layer that drops `nextPageToken` from
//! ListTasks answers, or one that lists tasks oldest first) it exits 7, naming the check and its
//! section, on each of its bindings.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Response, header};
use serde_json::Value;

use a2a_server::{A2aServer, HttpPaths, ServerConfig, WebhookPolicy};
use a2a_testkit::behaviour::{Delays, WithBehaviours};
use a2a_types::v1::{AgentCard, AgentSkill};

use crate::agent::{Agent, a2a};

/// Reads the `--report` file `path` and removes it.
fn report(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).expect("the report is written");
    let _ = std::fs::remove_file(path);
    serde_json::from_str(&text).expect("the report is JSON")
}

fn report_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "a2a-conformance-{name}-{}.json",
        std::process::id()
    ))
}

#[test]
fn the_example_agent_passes_at_must_level_on_every_binding() {
    let agent = Agent::start(Duration::from_millis(500));
    let path = report_path("example");
    let run = a2a(&[
        "conformance",
        &agent.url,
        "--level",
        "must",
        "--report",
        path.to_str().unwrap(),
    ]);
    run.ok();
    let report = report(&path);
    let bindings: Vec<&str> = report["bindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["binding"].as_str().unwrap())
        .collect();
    assert_eq!(bindings, ["JSONRPC", "HTTP+JSON", "GRPC"]);
    for binding in report["bindings"].as_array().unwrap() {
        let checks = binding["checks"].as_array().unwrap();
        assert!(checks.len() >= 30, "{binding}");
        assert_eq!(binding["mustFailed"], 0, "{binding}");
        for check in checks {
            assert_eq!(check["outcome"], "pass", "{check}");
            assert_eq!(check["level"], "MUST", "{check}");
            assert!(
                check["section"].as_str().unwrap().starts_with('§'),
                "{check}"
            );
        }
        // The table printed the same checks.
        let name = binding["binding"].as_str().unwrap();
        assert!(
            run.stdout.contains(&format!(
                "  {name}: {}/{} passed, 0 failed (0 MUST)",
                checks.len(),
                checks.len()
            )),
            "{}",
            run.stdout
        );
    }
}

/// A ListTasks answer's fields: at the top (HTTP+JSON) or under `result` (JSON-RPC).
fn list_answer(value: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let object = value.as_object_mut()?;
    if object.contains_key("result") {
        object.get_mut("result")?.as_object_mut()
    } else {
        Some(object)
    }
}

/// Breaks §3.1.4: the final page's `nextPageToken` goes missing.
fn drop_next_page_token(value: &mut Value) {
    if let Some(answer) = list_answer(value) {
        answer.remove("nextPageToken");
    }
}

/// Breaks §3.1.4's ordering: the tasks come oldest first.
fn list_oldest_first(value: &mut Value) {
    if let Some(Value::Array(tasks)) = list_answer(value).and_then(|a| a.get_mut("tasks")) {
        tasks.reverse();
    }
}

/// The layer's work: a JSON answer is rewritten by `rewrite`. Other answers (streams included)
/// pass untouched.
async fn rewrite_json(response: Response<Body>, rewrite: fn(&mut Value)) -> Response<Body> {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 16 << 20).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let mut value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(_) => return Response::from_parts(parts, Body::from(bytes)),
    };
    rewrite(&mut value);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(value.to_string()))
}

/// An agent that follows the conformance behaviours, on JSON-RPC and HTTP+JSON, whose JSON answers
/// pass through a rewrite that breaks a rule; serving until dropped (the server is a task of its
/// runtime).
struct RuleBreaker {
    _runtime: tokio::runtime::Runtime,
    url: String,
}

impl RuleBreaker {
    fn start(rewrite: fn(&mut Value)) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let url = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            let card = AgentCard::builder("Rule breaker", "Rewrites its answers.", "1.0.0")
                .jsonrpc(format!("http://{address}/jsonrpc"))
                .http_json(format!("http://{address}/rest"))
                .streaming(true)
                .push_notifications(true)
                .default_input_modes(["text/plain"])
                .default_output_modes(["text/plain"])
                .skill(AgentSkill {
                    id: "pages".into(),
                    name: "Pages".into(),
                    description: "Lists tasks, without the token of the next page.".into(),
                    tags: vec!["conformance".into()],
                    ..Default::default()
                })
                .build()
                .expect("a valid card");
            let mut config = ServerConfig::default();
            config.webhook_policy = WebhookPolicy::local_development();
            let delays = Delays {
                resubscribe: Duration::from_millis(500),
                long_running: Duration::from_millis(500),
            };
            let agent = WithBehaviours::new(Plain, delays);
            let server = A2aServer::builder(card, agent).config(config).build();
            let router =
                server
                    .router(&HttpPaths::default())
                    .layer(axum::middleware::map_response(
                        move |response: Response<Body>| rewrite_json(response, rewrite),
                    ));
            tokio::spawn(async move {
                let _ = axum::serve(listener, router).await;
            });
            format!("http://{address}")
        });
        RuleBreaker {
            _runtime: runtime,
            url,
        }
    }
}

/// The agent's answer to any message the behaviours do not name: completed.
struct Plain;

#[a2a_server::async_trait]
impl a2a_server::AgentExecutor for Plain {
    async fn execute(
        &self,
        _context: a2a_server::RequestContext,
        events: a2a_server::EventSink,
    ) -> Result<(), a2a_protocol::errors::Error> {
        Ok(events.complete_with_text("done").await?)
    }
}

#[test]
fn an_agent_without_next_page_tokens_fails_naming_the_check() {
    let agent = RuleBreaker::start(drop_next_page_token);
    let path = report_path("pager");
    let run = a2a(&[
        "conformance",
        &agent.url,
        "--report",
        path.to_str().unwrap(),
    ]);
    let line = run.failed(7, "error");
    assert!(
        line.contains("2 MUST check(s) failed")
            && line.contains("JSONRPC list.context-status-paging (§3.1.4 List Tasks")
            && line.contains("HTTP+JSON list.context-status-paging (§3.1.4 List Tasks"),
        "{line}"
    );
    let report = report(&path);
    for binding in report["bindings"].as_array().unwrap() {
        let failed: Vec<&str> = binding["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["outcome"] == "fail")
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(failed, ["list.context-status-paging"], "{binding}");
    }
    assert!(
        run.stdout
            .contains("FAIL  MUST    list.context-status-paging"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_agent_listing_oldest_first_fails_naming_the_check() {
    let agent = RuleBreaker::start(list_oldest_first);
    let path = report_path("oldest-first");
    let run = a2a(&[
        "conformance",
        &agent.url,
        "--report",
        path.to_str().unwrap(),
    ]);
    let line = run.failed(7, "error");
    assert!(
        line.contains("2 MUST check(s) failed")
            && line.contains("JSONRPC list.newest-first (§3.1.4 List Tasks"),
        "{line}"
    );
    let report = report(&path);
    for binding in report["bindings"].as_array().unwrap() {
        let failed: Vec<&str> = binding["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["outcome"] == "fail")
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(failed, ["list.newest-first"], "{binding}");
    }
}
