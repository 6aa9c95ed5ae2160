//! The exit statuses of the agent verbs, and their one stderr line: an A2A error the agent
//! answered, an agent that is down, tasks that end without success or wait for the caller, and bad
//! command lines (each naming the argument at fault).

use std::time::Duration;

use crate::agent::{Agent, BINDINGS, a2a, nobody_listening, on};

#[test]
fn an_unknown_task_is_the_agents_error_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        for verb in ["get", "cancel", "subscribe"] {
            let run = a2a(&on(binding, &[verb, &agent.url, "no-such-task"]));
            let line = run.failed(3, "error");
            assert!(line.contains("TASK_NOT_FOUND"), "{binding} {verb}: {line}");
            assert!(run.stdout.is_empty(), "{binding} {verb}: {run:#?}");
        }
        let run = a2a(&on(binding, &["push", "list", &agent.url, "no-such-task"]));
        assert!(
            run.failed(3, "error").contains("TASK_NOT_FOUND"),
            "{binding}: {run:#?}"
        );
    }
}

#[test]
fn an_agent_that_is_down_is_a_transport_failure() {
    let url = nobody_listening();
    for args in [
        vec!["send", &url, "hi"],
        vec!["stream", &url, "hi"],
        vec!["get", &url, "t"],
        vec!["discover", &url],
    ] {
        let run = a2a(&args);
        let line = run.failed(4, "error");
        assert!(line.contains("unreachable"), "{args:?}: {line}");
    }
}

#[test]
fn tasks_that_end_without_success_or_wait_have_their_own_statuses() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        for (id, code, label, state) in [
            ("tck-task-failure-e", 5, "error", "failed"),
            ("tck-reject-task-e", 5, "error", "rejected"),
            ("tck-auth-required-e", 6, "waiting", "auth-required"),
            ("tck-input-required-e", 6, "waiting", "input-required"),
        ] {
            for verb in ["send", "stream"] {
                let run = a2a(&on(binding, &[verb, &agent.url, "x", "--message-id", id]));
                let line = run.failed(code, label);
                assert!(
                    line.contains(&format!(" {state}")),
                    "{binding} {verb}: {line}"
                );
                assert!(
                    run.stdout.contains(&format!(": {state}\n")),
                    "{binding} {verb}: {run:#?}"
                );
            }
        }
    }
}

#[test]
fn bad_arguments_are_usage_errors_naming_them() {
    let agent = Agent::start(Duration::from_secs(1));
    let url = agent.url.as_str();
    for (args, names) in [
        (vec!["send", url], "TEXT"),
        (vec!["send", url, "x", "--data", "{nope"], "--data"),
        (vec!["send", url, "x", "--header", "no-colon"], "--header"),
        (vec!["send", url, "x", "--binding", "smoke"], "--binding"),
        (vec!["send", url, "x", "--version", "2.0"], "--version"),
        (vec!["send", "127.0.0.1:1", "x"], "URL"),
        (
            vec!["stream", url, "x", "--return-immediately"],
            "--return-immediately",
        ),
        (vec!["get", url, "t", "--history=-1"], "--history"),
        (vec!["list", url, "--state", "sleeping"], "--state"),
        (vec!["list", url, "--page-size", "0"], "--page-size"),
        (vec!["push", "set", url, "t", "not-a-url"], "WEBHOOK"),
        (vec!["list", url, "--version", "0.3"], "ListTasks"),
    ] {
        let run = a2a(&args);
        let line = run.failed(2, "error");
        assert!(line.contains(names), "{args:?}: {line}");
    }
    let run = a2a(&["send", url, "x", "--file", "/nonexistent/a2a-cli-file"]);
    assert!(
        run.failed(1, "error")
            .contains("--file /nonexistent/a2a-cli-file")
    );
}

#[test]
fn help_documents_the_exit_statuses() {
    let run = a2a(&["--help"]);
    run.ok();
    for line in [
        "Exit status:",
        "  3  the agent answered",
        "  4  transport",
        "  5  the task ended",
        "  6  the task waits",
    ] {
        assert!(run.stdout.contains(line), "{line}: {}", run.stdout);
    }
}
