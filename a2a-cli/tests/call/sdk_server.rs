//! The verbs against a second agent: the official Python SDK's own server
//! (`tests/interop/sdk_agent_server.py`), on each binding: `send`, `stream` and `get`, their text and
//! their `--json` lines. Python is found through `A2A_INTEROP_PYTHON` (or the workspace's `.venv`);
//! without it the test says so in one line and skips, except under `CI=true`, where it fails. The
//! server is killed by its pid when the test ends.

use a2a_testkit::process::start_sdk_server;
use a2a_tests::interop::{Suite, python};
use a2a_types::v1::{StreamResponse, Task, TaskState};

use crate::agent::{BINDINGS, a2a, on, stream_events};

#[test]
fn send_stream_and_get_against_the_python_sdk_server_on_each_binding() {
    let suite = Suite {
        name: "a2a command (SDK server)",
        package_args: &[],
        sdk_module: "a2a.server.request_handlers, grpc, uvicorn",
    };
    let Some(python) = python(&suite) else { return };
    let (server, _) = start_sdk_server(&python, &[]).unwrap_or_else(|e| panic!("{e}"));
    let url = server.url.as_str();
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &["send", url, "x", "--message-id", "tck-artifact-text-s"],
        ));
        run.ok();
        let lines = run.lines();
        assert!(
            lines[0].starts_with("task ") && lines[0].ends_with(": completed"),
            "{binding}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.ends_with(": Generated text content") && l.contains("artifact")),
            "{binding}: {lines:?}"
        );
        let id = lines[0].split(' ').nth(1).unwrap().to_owned();

        let run = a2a(&on(binding, &["get", url, &id, "--json"]));
        run.ok();
        let task: Task = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(
            (task.id.as_str(), task.status.state),
            (id.as_str(), TaskState::Completed),
            "{binding}"
        );

        let run = a2a(&on(
            binding,
            &[
                "stream",
                url,
                "x",
                "--message-id",
                "tck-stream-artifact-chunked-s",
                "--json",
            ],
        ));
        run.ok();
        let events = stream_events(&run);
        let chunks: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                StreamResponse::ArtifactUpdate(update) => Some(update.artifact.text()),
                _ => None,
            })
            .collect();
        assert_eq!(chunks, ["chunk-1 ", "chunk-2"], "{binding}: {run:#?}");
        assert!(
            matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
            "{binding}: {run:#?}"
        );

        let run = a2a(&on(binding, &["get", url, "no-such-task"]));
        assert!(
            run.failed(3, "error").contains("TASK_NOT_FOUND"),
            "{binding}: {run:#?}"
        );
    }
    drop(server);
}
