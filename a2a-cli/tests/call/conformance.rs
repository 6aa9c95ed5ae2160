//! `a2a conformance`: against the example agent at MUST level it passes on every binding its card
//! declares (the JSON report says so check by check, each with its level and section); against an
//! agent that breaks a rule (the server crate behind a layer that drops `nextPageToken` from
//! ListTasks answers, lists tasks oldest first, strips JSON-RPC errors of their `data`, puts v0.3's
//! `kind` in its tasks, or labels its streams `application/json`) it exits 7, naming the check and
//! its section, on each of its bindings. An agent whose card declares no optional capability passes
//! the checks of its refusals and has the checks of those capabilities skipped, on every binding;
//! one whose card says it does not stream while it does fails `capability.streaming-refused`, one
//! whose card denies push notifications while it takes push configs `capability.push-refused`.

use std::time::Duration;

use serde_json::Value;

use crate::agent::{Agent, a2a};
use crate::rule_breaker::{
    Rule, RuleBreaker, card_declaring_no_push, card_declaring_no_streaming, drop_next_page_token,
    list_oldest_first, strip_jsonrpc_error_data, task_with_v0_3_kind,
};
use crate::undeclared::{Demand, EXTENSION, TOKEN, Undeclared};

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

/// The names of the failed checks of each binding of a report, by binding.
fn failures(report: &Value) -> Vec<(String, Vec<String>)> {
    report["bindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|binding| {
            let failed = binding["checks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["outcome"] == "fail")
                .map(|c| c["name"].as_str().unwrap().to_owned())
                .collect();
            (binding["binding"].as_str().unwrap().to_owned(), failed)
        })
        .collect()
}

#[test]
fn an_agent_without_next_page_tokens_fails_naming_the_check() {
    let agent = RuleBreaker::start(Rule::Json(drop_next_page_token));
    let path = report_path("pager");
    let run = a2a(&[
        "conformance",
        &agent.url,
        "--report",
        path.to_str().unwrap(),
    ]);
    let line = run.failed(7, "error");
    // The raw `GET /tasks?pageSize=2` misses the token too.
    assert!(
        line.contains("3 MUST check(s) failed")
            && line.contains("JSONRPC list.context-status-paging (§3.1.4 List Tasks")
            && line.contains("HTTP+JSON list.context-status-paging (§3.1.4 List Tasks")
            && line.contains("HTTP+JSON wire.rest-query-params (§11.5"),
        "{line}"
    );
    assert_eq!(
        failures(&report(&path)),
        [
            ("JSONRPC".into(), vec!["list.context-status-paging".into()]),
            (
                "HTTP+JSON".into(),
                vec![
                    "list.context-status-paging".into(),
                    "wire.rest-query-params".into()
                ]
            ),
        ]
    );
    assert!(
        run.stdout
            .contains("FAIL  MUST    list.context-status-paging"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_agent_listing_oldest_first_fails_naming_the_check() {
    let agent = RuleBreaker::start(Rule::Json(list_oldest_first));
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

#[test]
fn the_example_agent_passes_every_raw_wire_check_of_its_binding() {
    let agent = Agent::start(Duration::from_millis(500));
    let run = a2a(&["conformance", &agent.url, "--level", "should", "--json"]);
    run.ok();
    let report = &run.json_lines()[0];
    let expected: [(&str, &[&str]); 3] = [
        (
            "JSONRPC",
            &[
                "wire.jsonrpc-error-details",
                "wire.jsonrpc-protocol-errors",
                "wire.jsonrpc-sse",
                "wire.protojson-shape",
                "wire.unknown-request-fields",
                "wire.version-unsupported",
                "wire.version-accepted",
            ],
        ),
        (
            "HTTP+JSON",
            &[
                "wire.rest-error-details",
                "wire.rest-sse",
                "wire.rest-query-params",
                "wire.protojson-shape",
                "wire.unknown-request-fields",
                "wire.version-unsupported",
                "wire.version-accepted",
            ],
        ),
        (
            "GRPC",
            &[
                "wire.grpc-error-details",
                "wire.version-unsupported",
                "wire.version-accepted",
            ],
        ),
    ];
    for (binding, (name, wire_checks)) in
        report["bindings"].as_array().unwrap().iter().zip(expected)
    {
        assert_eq!(binding["binding"], name);
        let passed: Vec<&str> = binding["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["name"].as_str().unwrap().starts_with("wire."))
            .inspect(|c| assert_eq!(c["outcome"], "pass", "{c}"))
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(passed, wire_checks, "{binding}");
    }
}

#[test]
fn an_agent_without_jsonrpc_error_data_fails_naming_the_checks() {
    let agent = RuleBreaker::start(Rule::Json(strip_jsonrpc_error_data));
    let run = a2a(&["conformance", &agent.url, "--json"]);
    let line = run.failed(7, "error");
    assert!(
        line.contains("JSONRPC wire.jsonrpc-error-details (§9.5 Error Handling")
            && line.contains("JSONRPC wire.version-unsupported (§3.6.2"),
        "{line}"
    );
    assert_eq!(
        failures(&run.json_lines()[0]),
        [
            (
                "JSONRPC".into(),
                vec![
                    "wire.jsonrpc-error-details".into(),
                    "wire.version-unsupported".into()
                ]
            ),
            ("HTTP+JSON".into(), vec![]),
        ]
    );
}

#[test]
fn an_agent_answering_with_v0_3_kinds_fails_the_protojson_shape() {
    let agent = RuleBreaker::start(Rule::Json(task_with_v0_3_kind));
    let run = a2a(&["conformance", &agent.url, "--json"]);
    run.failed(7, "error");
    let report = &run.json_lines()[0];
    assert_eq!(
        failures(report),
        [
            ("JSONRPC".into(), vec!["wire.protojson-shape".into()]),
            ("HTTP+JSON".into(), vec!["wire.protojson-shape".into()]),
        ]
    );
    let detail = report["bindings"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "wire.protojson-shape")
        .unwrap()["detail"]
        .to_string();
    assert!(
        detail.contains("kind: v0.3's `kind`, absent from v1"),
        "{detail}"
    );
}

#[test]
fn an_agent_streaming_as_application_json_fails_the_sse_checks() {
    let agent = RuleBreaker::start(Rule::SseAsJson);
    // A subscription to a task waiting for input never ends, and read as one JSON body it never
    // completes: that check fails by its time limit, cut to 5 s here (20 s by default).
    let run = a2a(&["conformance", &agent.url, "--json", "--check-timeout", "5"]);
    run.failed(7, "error");
    // The typed client refuses such streams too, so the stream checks fail beside the wire ones.
    for (binding, failed) in failures(&run.json_lines()[0]) {
        let sse = if binding == "JSONRPC" {
            "wire.jsonrpc-sse"
        } else {
            "wire.rest-sse"
        };
        assert!(failed.iter().any(|f| f == sse), "{binding}: {failed:?}");
        assert!(
            failed
                .iter()
                .all(|f| f == sse || f.starts_with("stream.") || f.contains("subscribe")),
            "{binding}: {failed:?}"
        );
    }
}

/// The checks of a binding's report with this outcome (`pass`, `fail`, `skipped`), by name.
fn with_outcome<'a>(binding: &'a Value, outcome: &str) -> Vec<&'a str> {
    binding["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] == outcome)
        .map(|c| c["name"].as_str().unwrap())
        .collect()
}

#[test]
fn an_agent_declaring_no_capabilities_refuses_them_and_skips_their_checks() {
    let agent = Undeclared::start();
    let run = a2a(&["conformance", &agent.url, "--level", "should", "--json"]);
    run.ok();
    let report = &run.json_lines()[0];
    let bindings = report["bindings"].as_array().unwrap();
    assert_eq!(bindings.len(), 3, "{report}");
    for (binding, name) in bindings.iter().zip(["JSONRPC", "HTTP+JSON", "GRPC"]) {
        assert_eq!(binding["binding"], name);
        assert_eq!(
            with_outcome(binding, "fail"),
            Vec::<&str>::new(),
            "{binding}"
        );
        let passed = with_outcome(binding, "pass");
        for refusal in [
            "capability.push-refused",
            "capability.streaming-refused",
            "capability.extended-card-refused",
        ] {
            assert!(passed.contains(&refusal), "{name}: {refusal} in {passed:?}");
        }
        let skipped = with_outcome(binding, "skipped");
        for positive in [
            "stream.001",
            "stream.message-response",
            "subscribe.running-task",
            "push-config.crud",
            "push-config.delete-idempotent",
            "error.push-config-unknown-task",
            "error.subscribe-completed-task",
        ] {
            assert!(
                skipped.contains(&positive),
                "{name}: {positive} in {skipped:?}"
            );
        }
        if name != "GRPC" {
            let sse = if name == "JSONRPC" {
                "wire.jsonrpc-sse"
            } else {
                "wire.rest-sse"
            };
            assert!(skipped.contains(&sse), "{name}: {skipped:?}");
        }
        assert_eq!(binding["skipped"], skipped.len(), "{binding}");
    }
}

#[test]
fn an_agent_streaming_though_its_card_says_not_fails_the_refusal_check() {
    let agent = RuleBreaker::start(Rule::Json(card_declaring_no_streaming));
    let run = a2a(&["conformance", &agent.url, "--json"]);
    let line = run.failed(7, "error");
    assert!(
        line.contains("JSONRPC capability.streaming-refused (§3.3.4 Capability Validation"),
        "{line}"
    );
    let report = &run.json_lines()[0];
    assert_eq!(
        failures(report),
        [
            (
                "JSONRPC".into(),
                vec!["capability.streaming-refused".into()]
            ),
            (
                "HTTP+JSON".into(),
                vec!["capability.streaming-refused".into()]
            ),
        ]
    );
    for binding in report["bindings"].as_array().unwrap() {
        assert!(
            with_outcome(binding, "skipped").contains(&"stream.001"),
            "{binding}"
        );
    }
}

#[test]
fn an_agent_taking_push_configs_though_its_card_says_not_fails_the_refusal_check() {
    let agent = RuleBreaker::start(Rule::Json(card_declaring_no_push));
    let run = a2a(&["conformance", &agent.url, "--json"]);
    let line = run.failed(7, "error");
    assert!(
        line.contains("HTTP+JSON capability.push-refused (§3.3.4 Capability Validation"),
        "{line}"
    );
    let report = &run.json_lines()[0];
    assert_eq!(
        failures(report),
        [
            ("JSONRPC".into(), vec!["capability.push-refused".into()]),
            ("HTTP+JSON".into(), vec!["capability.push-refused".into()]),
        ]
    );
    for binding in report["bindings"].as_array().unwrap() {
        assert!(
            with_outcome(binding, "skipped").contains(&"push-config.crud"),
            "{binding}"
        );
    }
}

#[test]
fn an_agent_requiring_credentials_refuses_calls_without_them_on_every_binding() {
    let agent = Undeclared::demanding(Demand::Enforced, Demand::None);
    let run = a2a(&["conformance", &agent.url, "--bearer", TOKEN, "--json"]);
    run.ok();
    let report = &run.json_lines()[0];
    let bindings = report["bindings"].as_array().unwrap();
    assert_eq!(bindings.len(), 3, "{report}");
    for binding in bindings {
        assert_eq!(
            with_outcome(binding, "fail"),
            Vec::<&str>::new(),
            "{binding}"
        );
        assert!(
            with_outcome(binding, "pass").contains(&"wire.credentials-required"),
            "{binding}"
        );
    }
}

#[test]
fn an_agent_serving_anyone_though_its_card_requires_credentials_fails_the_check() {
    let agent = Undeclared::demanding(Demand::DeclaredOnly, Demand::None);
    let run = a2a(&["conformance", &agent.url, "--bearer", TOKEN, "--json"]);
    let line = run.failed(7, "error");
    assert!(line.contains("wire.credentials-required (§3.3.2"), "{line}");
    let report = &run.json_lines()[0];
    for binding in report["bindings"].as_array().unwrap() {
        assert_eq!(
            with_outcome(binding, "fail"),
            vec!["wire.credentials-required"],
            "{binding}"
        );
    }
}

#[test]
fn an_agent_without_security_requirements_is_not_checked_for_them() {
    let agent = Undeclared::start();
    let run = a2a(&["conformance", &agent.url, "--json"]);
    run.ok();
    let report = &run.json_lines()[0];
    for binding in report["bindings"].as_array().unwrap() {
        let all: Vec<&str> = ["pass", "fail", "skipped"]
            .iter()
            .flat_map(|outcome| with_outcome(binding, outcome))
            .collect();
        assert!(!all.contains(&"wire.credentials-required"), "{binding}");
        assert!(!all.contains(&"wire.extension-required"), "{binding}");
    }
}

#[test]
fn an_agent_requiring_an_extension_refuses_calls_that_do_not_activate_it() {
    let agent = Undeclared::demanding(Demand::None, Demand::Enforced);
    let header = format!("A2A-Extensions: {EXTENSION}");
    let run = a2a(&["conformance", &agent.url, "--header", &header, "--json"]);
    run.ok();
    let report = &run.json_lines()[0];
    let bindings = report["bindings"].as_array().unwrap();
    assert_eq!(bindings.len(), 3, "{report}");
    for binding in bindings {
        assert_eq!(
            with_outcome(binding, "fail"),
            Vec::<&str>::new(),
            "{binding}"
        );
        assert!(
            with_outcome(binding, "pass").contains(&"wire.extension-required"),
            "{binding}"
        );
    }
}

#[test]
fn an_agent_ignoring_the_extension_its_card_requires_fails_the_check() {
    let agent = Undeclared::demanding(Demand::None, Demand::DeclaredOnly);
    let header = format!("A2A-Extensions: {EXTENSION}");
    let run = a2a(&["conformance", &agent.url, "--header", &header, "--json"]);
    let line = run.failed(7, "error");
    assert!(line.contains("wire.extension-required (§3.3.4"), "{line}");
    let report = &run.json_lines()[0];
    for binding in report["bindings"].as_array().unwrap() {
        assert_eq!(
            with_outcome(binding, "fail"),
            vec!["wire.extension-required"],
            "{binding}"
        );
    }
}
