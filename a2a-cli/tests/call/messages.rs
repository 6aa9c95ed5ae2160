//! `a2a send` and `a2a stream` on each binding: the text for people and the ProtoJSON lines.

use std::time::Duration;

use a2a_types::v1::{SendMessageResponse, StreamResponse, TaskState};

use crate::agent::{Agent, BINDINGS, a2a, on};

#[test]
fn send_prints_the_task_and_its_artifacts_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &["send", &agent.url, "Find a hotel in Lisbon"],
        ));
        run.ok();
        let lines = run.lines();
        assert!(
            lines[0].starts_with("task task-") && lines[0].ends_with(": completed"),
            "{binding}: {lines:?}"
        );
        assert!(
            lines.contains(&"  artifact find_hotels: Understood: Find a hotel in Lisbon"),
            "{binding}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("  artifact find_hotels: data {\"city\":\"Lisbon\"")),
            "{binding}: {lines:?}"
        );
    }
}

#[test]
fn send_json_is_one_send_message_response_per_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "hi",
                "--message-id",
                &format!("tck-complete-task-{binding}"),
                "--json",
            ],
        ));
        run.ok();
        let lines = run.json_lines();
        assert_eq!(lines.len(), 1, "{binding}: {run:#?}");
        let answer: SendMessageResponse = serde_json::from_value(lines[0].clone()).unwrap();
        let SendMessageResponse::Task(task) = answer else {
            panic!("{binding}: not a task: {run:#?}")
        };
        assert_eq!(task.status.state, TaskState::Completed, "{binding}");
        assert_eq!(
            task.status.message.unwrap().text(),
            "Hello from TCK",
            "{binding}"
        );
    }
}

#[test]
fn send_with_file_data_and_a_direct_message_answer() {
    let agent = Agent::start(Duration::from_secs(1));
    let file = std::env::temp_dir().join(format!("a2a-cli-send-{}.txt", std::process::id()));
    std::fs::write(&file, b"some bytes").unwrap();
    let path = file.to_str().unwrap();
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "see attached",
                "--file",
                path,
                "--data",
                "{\"n\":1}",
                "--message-id",
                "tck-message-response-1",
            ],
        ));
        run.ok();
        assert_eq!(run.lines(), ["agent: Direct message response"], "{binding}");
    }
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn send_return_immediately_answers_while_the_task_works() {
    let agent = Agent::start(Duration::from_secs(3));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "x",
                "--message-id",
                "tck-long-running-1",
                "--return-immediately",
                "--json",
            ],
        ));
        run.ok();
        let state = run.json_lines()[0]["task"]["status"]["state"].clone();
        assert!(
            state == "TASK_STATE_WORKING" || state == "TASK_STATE_SUBMITTED",
            "{binding}: {run:#?}"
        );
    }
}

#[test]
fn stream_prints_each_event_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "stream",
                &agent.url,
                "x",
                "--message-id",
                "tck-stream-chunked-1",
            ],
        ));
        run.ok();
        let lines = run.lines();
        let task = lines[0].split(' ').nth(1).unwrap();
        assert!(lines[0].ends_with(": submitted"), "{binding}: {lines:?}");
        assert!(
            lines.contains(&format!("task {task}: working").as_str()),
            "{binding}: {lines:?}"
        );
        let first = lines
            .iter()
            .position(|l| l.ends_with(": chunk-1 "))
            .expect("chunk 1");
        let second = lines
            .iter()
            .position(|l| l.ends_with(": chunk-2"))
            .expect("chunk 2");
        assert!(first < second, "{binding}: {lines:?}");
        assert_eq!(
            lines.last().unwrap(),
            &format!("task {task}: completed"),
            "{binding}"
        );
    }
}

#[test]
fn stream_json_lines_are_stream_responses_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "stream",
                &agent.url,
                "x",
                "--message-id",
                "tck-stream-001-a",
                "--json",
            ],
        ));
        run.ok();
        let events: Vec<StreamResponse> = run
            .json_lines()
            .into_iter()
            .map(|line| serde_json::from_value(line).unwrap())
            .collect();
        assert!(events.len() >= 3, "{binding}: {run:#?}");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, StreamResponse::ArtifactUpdate(u)
                if u.artifact.text() == "Stream hello from TCK")),
            "{binding}: {run:#?}"
        );
        let Some(StreamResponse::StatusUpdate(last)) = events.last() else {
            panic!("{binding}: the last event is not a status update: {run:#?}")
        };
        assert_eq!(last.status.state, TaskState::Completed, "{binding}");
    }
}

#[test]
fn send_and_stream_over_a2a_v0_3_when_asked() {
    let agent = Agent::start(Duration::from_secs(1));
    let run = a2a(&["discover", &agent.url, "--version", "0.3"]);
    run.ok();
    assert!(
        run.lines()
            .iter()
            .any(|l| l.starts_with("calls go to: JSONRPC 0.3 at http")),
        "{run:#?}"
    );
    let run = a2a(&[
        "send",
        &agent.url,
        "hi",
        "--version",
        "0.3",
        "--message-id",
        "tck-complete-task-v03",
    ]);
    run.ok();
    assert!(run.lines()[0].ends_with(": completed"), "{run:#?}");
    assert_eq!(run.lines()[1], "  agent: Hello from TCK", "{run:#?}");
    let run = a2a(&[
        "stream",
        &agent.url,
        "x",
        "--version",
        "0.3",
        "--message-id",
        "tck-stream-001-v03",
        "--json",
    ]);
    run.ok();
    let events: Vec<StreamResponse> = run
        .json_lines()
        .into_iter()
        .map(|line| serde_json::from_value(line).unwrap())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, StreamResponse::ArtifactUpdate(u)
            if u.artifact.text() == "Stream hello from TCK")),
        "{run:#?}"
    );
}
