//! Every verb that calls an agent against the official Python SDKs' own servers, on each binding
//! they serve: the SDK 1.3 server (`tests/interop/sdk_agent_server.py`, `A2A_INTEROP_PYTHON` or
//! `.venv`) and the SDK 0.3 server (`tests/interop/sdk_v0_3_agent_server.py`,
//! `A2A_INTEROP_PYTHON_V0_3` or `.venv-v0_3`): `discover`, `send`, `stream`, `get`, `list`,
//! `cancel`, `subscribe` and `push set|get|list|delete`, their printed lines and their `--json`
//! lines. Where the server lacks an operation the command's refusal is checked instead: A2A v0.3
//! has no ListTasks (refused before anything is sent, exit 2), and the SDK 0.3 leaves push configs
//! half done off JSON-RPC (gRPC: no list or delete; HTTP+JSON: no list, no delete route, and a
//! create body it parses as the whole request rather than the `config` field its proto names).
//! Without a Python the test says so in one line and skips, except under `CI=true`, where it
//! fails. Each server is killed by its pid when its test ends.

use a2a_testkit::process::{start_sdk_server, start_sdk_v0_3_server};
use a2a_tests::interop::{Suite, python, python_v0_3};
use a2a_types::v1::{AgentCard, ListTasksResponse, StreamResponse, Task, TaskState};

use crate::agent::{BINDINGS, Run, a2a, on, started, stream_events};
use crate::push::push_configs_round_trip;

#[test]
fn every_verb_against_the_python_sdk_1_3_server_on_each_binding() {
    let Some(python) = python(&Suite {
        name: "a2a command, every verb (SDK 1.3 server)",
        package_args: &[],
        sdk_module: "a2a.server.request_handlers, grpc, uvicorn",
    }) else {
        return;
    };
    let (server, _) = start_sdk_server(&python, &[]).unwrap_or_else(|e| panic!("{e}"));
    let url = server.url.as_str();
    let card = discovered(url, "SDK reference agent (version 1.0.0)");
    assert_eq!(card.supported_interfaces.len(), 3, "{card:?}");

    for binding in BINDINGS {
        let context = format!("ctx-sdk-{binding}");
        let run = a2a(&on(binding, &["send", url, "hi", "--context", &context]));
        let id = completed_with_artifact(&run, binding, "artifact echo: understood: hi");
        let run = a2a(&on(binding, &["get", url, &id, "--json"]));
        run.ok();
        let task: Task = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(
            (task.id.as_str(), task.context_id.as_deref()),
            (id.as_str(), Some(context.as_str())),
            "{binding}"
        );

        let run = a2a(&on(
            binding,
            &["list", url, "--context", &context, "--json"],
        ));
        run.ok();
        let page: ListTasksResponse = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        let listed: Vec<&str> = page.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(listed, [id.as_str()], "{binding}: {run:#?}");
        let run = a2a(&on(binding, &["list", url, "--context", &context]));
        run.ok();
        assert_eq!(
            run.lines(),
            [
                format!("{id}  completed  context {context}"),
                "1 of 1 tasks".to_owned()
            ],
            "{binding}"
        );

        let run = a2a(&on(
            binding,
            &["stream", url, "x", "--message-id", "tck-stream-001-v"],
        ));
        run.ok();
        assert!(
            run.lines().last().unwrap().ends_with(": completed"),
            "{binding}: {run:#?}"
        );

        let (id, _) = started(url, binding, "test-resubscribe-message-id-s", None);
        subscribed_to_the_end(url, binding, &id, true);

        let (id, _) = started(url, binding, "test-resubscribe-message-id-c", None);
        push_configs_round_trip(url, binding, &id);
        canceled(url, binding, &id);
    }
    drop(server);
}

#[test]
fn every_verb_against_the_python_sdk_0_3_server_on_each_binding() {
    let Some(python) = python_v0_3(&Suite {
        name: "a2a command, every verb (SDK 0.3 server)",
        package_args: &[],
        sdk_module: "a2a.server.apps, a2a.server.request_handlers.grpc_handler, uvicorn",
    }) else {
        return;
    };
    let (server, _) = start_sdk_v0_3_server(&python, &[]).unwrap_or_else(|e| panic!("{e}"));
    let url = server.url.as_str();
    let card = discovered(url, "SDK v0.3 agent (version 0.3.0)");
    assert!(card.supported_interfaces.len() >= 3, "{card:?}");

    for binding in BINDINGS {
        let run = a2a(&on(binding, &["send", url, "hi"]));
        let id = completed_with_artifact(&run, binding, "artifact echo: echo: hi");
        let run = a2a(&on(binding, &["get", url, &id, "--json"]));
        run.ok();
        let task: Task = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(
            (task.id.as_str(), task.status.state),
            (id.as_str(), TaskState::Completed),
            "{binding}"
        );

        let run = a2a(&on(binding, &["list", url]));
        assert_eq!(
            run.failed(2, "error"),
            "error: not convertible to the agent's protocol version: ListTasks has no A2A v0.3 counterpart",
            "{binding}"
        );

        let run = a2a(&on(
            binding,
            &["stream", url, "x", "--message-id", "v03-stream", "--json"],
        ));
        run.ok();
        let events = stream_events(&run);
        assert!(
            events.iter().any(|e| matches!(e, StreamResponse::ArtifactUpdate(u) if u.artifact.text() == "streamed v0.3 text")),
            "{binding}: {run:#?}"
        );
        let run = a2a(&on(
            binding,
            &["stream", url, "x", "--message-id", "v03-stream"],
        ));
        run.ok();
        assert!(
            run.lines().contains(&"artifact stream: streamed v0.3 text"),
            "{binding}: {run:#?}"
        );

        let (id, _) = started(url, binding, "v03-slow-s", None);
        // The SDK 0.3 resubscription sends no task first: only the events after it.
        subscribed_to_the_end(url, binding, &id, false);

        let (id, _) = started(url, binding, "v03-slow-c", None);
        match binding {
            "jsonrpc" => push_configs_round_trip(url, binding, &id),
            "grpc" => push_configs_refused(url, binding, &id, &[("list", 4), ("delete", 4)]),
            _ => push_configs_refused(url, binding, &id, &[("set", 3), ("list", 3), ("delete", 4)]),
        }
        canceled(url, binding, &id);
    }
    drop(server);
}

/// `a2a discover URL`: its first line `title`, its verdict lines, and `--json`'s card.
fn discovered(url: &str, title: &str) -> AgentCard {
    let run = a2a(&["discover", url]);
    run.ok();
    let lines = run.lines();
    assert_eq!(lines[0], title, "{lines:?}");
    assert!(
        lines.contains(&"valid: the card follows the card rules"),
        "{lines:?}"
    );
    let run = a2a(&["discover", url, "--json"]);
    run.ok();
    assert_eq!(run.lines().len(), 1, "{run:#?}");
    serde_json::from_value(run.json_lines()[0].clone()).unwrap()
}

/// Asserts a `send` that completed with the artifact line `artifact`; returns the task's id.
fn completed_with_artifact(run: &Run, binding: &str, artifact: &str) -> String {
    run.ok();
    let lines = run.lines();
    assert!(
        lines[0].starts_with("task ") && lines[0].ends_with(": completed"),
        "{binding}: {lines:?}"
    );
    assert_eq!(
        lines[1..],
        [format!("  {artifact}")],
        "{binding}: {lines:?}"
    );
    lines[0].split(' ').nth(1).unwrap().to_owned()
}

/// `a2a subscribe` to working task `id`, followed to its completion (`--json`, then text); the
/// first event is the task itself when `task_first`.
fn subscribed_to_the_end(url: &str, binding: &str, id: &str, task_first: bool) {
    let run = a2a(&on(binding, &["subscribe", url, id, "--json"]));
    run.ok();
    let events = stream_events(&run);
    if task_first {
        assert!(
            matches!(&events[0], StreamResponse::Task(task) if task.id == id),
            "{binding}: {run:#?}"
        );
    }
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{binding}: {run:#?}"
    );
}

/// `a2a cancel` of working task `id`: printed as canceled.
fn canceled(url: &str, binding: &str, id: &str) {
    let run = a2a(&on(binding, &["cancel", url, id]));
    run.ok();
    assert!(
        run.lines()[0].starts_with(&format!("task {id} "))
            && run.lines()[0].ends_with(": canceled"),
        "{binding}: {run:#?}"
    );
}

/// Each `a2a push VERB` of `refused` fails with its exit status and one `error:` line naming the
/// binding (the set that is not refused is made first, so get, list and delete have a config).
fn push_configs_refused(url: &str, binding: &str, task: &str, refused: &[(&str, i32)]) {
    let interface = match binding {
        "grpc" => "GRPC",
        _ => "HTTP+JSON",
    };
    for verb in ["set", "get", "list", "delete"] {
        let args: Vec<&str> = match verb {
            "set" => vec![
                "push",
                "set",
                url,
                task,
                "http://127.0.0.1:9/hook",
                "--id",
                "cfg-1",
            ],
            "list" => vec!["push", "list", url, task],
            _ => vec!["push", verb, url, task, "cfg-1"],
        };
        let run = a2a(&on(binding, &args));
        match refused.iter().find(|(v, _)| *v == verb) {
            Some((_, code)) => {
                let line = run.failed(*code, "error");
                assert!(
                    line.starts_with(&format!("error: {interface}: ")),
                    "{verb} on {binding}: {line}"
                );
            }
            None if verb == "get" && refused.iter().any(|(v, _)| *v == "set") => {
                assert_eq!(run.code, 3, "{verb} on {binding}: {run:#?}");
            }
            None => {
                run.ok();
                assert!(
                    run.stdout.contains("cfg-1"),
                    "{verb} on {binding}: {run:#?}"
                );
            }
        }
    }
}
