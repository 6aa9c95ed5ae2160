//! `a2a get`, `a2a list`, `a2a cancel`, `a2a subscribe` on each binding, on tasks the agent made
//! for the test (`--return-immediately` on the conformance kits' long-running and cancel
//! behaviours, so each is still working when the verb runs).

use std::time::Duration;

use a2a_types::v1::{ListTasksResponse, StreamResponse, Task, TaskState};

use crate::agent::{Agent, BINDINGS, a2a, on, started, stream_events};

#[test]
fn get_prints_the_task_with_its_history_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "hello",
                "--message-id",
                "tck-complete-task-g",
                "--json",
            ],
        ));
        run.ok();
        let id = run.json_lines()[0]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();

        let run = a2a(&on(binding, &["get", &agent.url, &id]));
        run.ok();
        assert_eq!(
            run.lines()[1..],
            [
                "  agent: Hello from TCK",
                "  history:",
                "    user: hello",
                "    agent: Hello from TCK"
            ],
            "{binding}: {run:#?}"
        );
        assert!(
            run.lines()[0].starts_with(&format!("task {id} (context ")),
            "{binding}"
        );

        let run = a2a(&on(
            binding,
            &["get", &agent.url, &id, "--history", "1", "--json"],
        ));
        run.ok();
        let task: Task = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(task.id, id);
        assert_eq!(task.history.len(), 1, "{binding}: {run:#?}");
    }
}

#[test]
fn list_filters_by_context_and_state_and_pages_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let context = format!("ctx-list-{binding}");
        let mut ids = Vec::new();
        for n in 0..3 {
            let run = a2a(&on(
                binding,
                &[
                    "send",
                    &agent.url,
                    "x",
                    "--message-id",
                    &format!("tck-complete-task-{n}"),
                    "--context",
                    &context,
                    "--json",
                ],
            ));
            run.ok();
            ids.push(
                run.json_lines()[0]["task"]["id"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
        }
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "x",
                "--message-id",
                "tck-task-failure-l",
                "--context",
                &context,
            ],
        ));
        assert_eq!(run.code, 5);

        let run = a2a(&on(
            binding,
            &[
                "list",
                &agent.url,
                "--context",
                &context,
                "--state",
                "completed",
                "--json",
            ],
        ));
        run.ok();
        let page: ListTasksResponse = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        let mut listed: Vec<String> = page.tasks.iter().map(|t| t.id.clone()).collect();
        listed.sort();
        ids.sort();
        assert_eq!(listed, ids, "{binding}: {run:#?}");

        let run = a2a(&on(
            binding,
            &[
                "list",
                &agent.url,
                "--context",
                &context,
                "--page-size",
                "2",
            ],
        ));
        run.ok();
        let lines = run.lines();
        assert_eq!(lines.len(), 4, "{binding}: {lines:?}");
        assert_eq!(lines[2], "2 of 4 tasks", "{binding}: {lines:?}");
        let token = lines[3]
            .strip_prefix("next page: --page-token ")
            .expect("a next page line");
        let run = a2a(&on(
            binding,
            &[
                "list",
                &agent.url,
                "--context",
                &context,
                "--page-size",
                "2",
                "--page-token",
                token,
            ],
        ));
        run.ok();
        assert_eq!(run.lines().len(), 3, "{binding}: {run:#?}");
        assert_eq!(run.lines()[2], "2 of 4 tasks", "{binding}");
    }
}

#[test]
fn cancel_cancels_a_working_task_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let (id, _) = started(&agent.url, binding, "tck-cancel-c", None);
        let run = a2a(&on(binding, &["cancel", &agent.url, &id]));
        run.ok();
        assert!(
            run.lines()[0].ends_with(": canceled"),
            "{binding}: {run:#?}"
        );

        let run = a2a(&on(binding, &["get", &agent.url, &id, "--json"]));
        assert_eq!(run.code, 5, "{binding}: {run:#?}");
        let task: Task = serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(task.status.state, TaskState::Canceled);
    }
}

#[test]
fn subscribe_follows_a_working_task_to_its_end_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(2));
    for binding in BINDINGS {
        let (id, _) = started(&agent.url, binding, "tck-long-running-s", None);
        let run = a2a(&on(binding, &["subscribe", &agent.url, &id, "--json"]));
        run.ok();
        let events = stream_events(&run);
        assert!(
            matches!(&events[0], StreamResponse::Task(task) if task.id == id),
            "{binding}: {run:#?}"
        );
        let Some(StreamResponse::StatusUpdate(last)) = events.last() else {
            panic!("{binding}: {run:#?}")
        };
        assert_eq!(last.status.state, TaskState::Completed, "{binding}");

        let (id, _) = started(&agent.url, binding, "tck-long-running-t", None);
        let run = a2a(&on(binding, &["subscribe", &agent.url, &id]));
        run.ok();
        assert!(
            run.lines()[0].starts_with(&format!("task {id} (context ")),
            "{binding}: {run:#?}"
        );
        assert!(
            run.lines()
                .contains(&"artifact long-running-output: Long-running work done")
                || run.stdout.contains("Long-running work done"),
            "{binding}: {run:#?}"
        );
        assert_eq!(
            run.lines().last().unwrap(),
            &format!("task {id}: completed"),
            "{binding}"
        );
    }
}

#[test]
fn an_input_required_task_is_answered_with_task() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "x",
                "--message-id",
                "tck-input-required-i",
                "--json",
            ],
        ));
        let line = run.failed(6, "waiting");
        let id = run.json_lines()[0]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(line.contains(&format!("--task {id}")), "{line}");
        let run = a2a(&on(
            binding,
            &["send", &agent.url, "here it is", "--task", &id],
        ));
        run.ok();
        assert_eq!(run.lines()[0].split(' ').nth(1), Some(id.as_str()));
        assert!(
            run.lines()[0].ends_with(": completed"),
            "{binding}: {run:#?}"
        );
    }
}
