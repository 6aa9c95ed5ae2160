//! `a2a push set|get|list|delete` on each binding, for a task of the example agent; the round trip
//! itself is shared with the tests against the official SDKs' servers.

use std::time::Duration;

use a2a_types::v1::{ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig};

use crate::agent::{Agent, BINDINGS, a2a, on, started};

#[test]
fn push_configs_are_set_read_listed_and_deleted_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let (task, _) = started(&agent.url, binding, "tck-cancel-p", None);
        push_configs_round_trip(&agent.url, binding, &task);
        let run = a2a(&on(binding, &["cancel", &agent.url, &task]));
        run.ok();
    }
}

/// Sets config `cfg-1` on `task` at `url` over `binding`, reads it, lists it (text and `--json`),
/// deletes it and lists none, checking each verb's printed output.
pub fn push_configs_round_trip(url: &str, binding: &str, task: &str) {
    let webhook = "http://127.0.0.1:9/hook";
    let run = a2a(&on(
        binding,
        &[
            "push", "set", url, task, webhook, "--id", "cfg-1", "--token", "tok", "--json",
        ],
    ));
    run.ok();
    let created: TaskPushNotificationConfig =
        serde_json::from_value(run.json_lines()[0].clone()).unwrap();
    assert_eq!(created.url, webhook, "{binding}");
    assert_eq!(created.id.as_deref(), Some("cfg-1"), "{binding}");

    let run = a2a(&on(binding, &["push", "get", url, task, "cfg-1"]));
    run.ok();
    let described = format!("push config cfg-1 of task {task}: {webhook}");
    assert_eq!(run.lines(), [described.as_str()], "{binding}");

    let run = a2a(&on(binding, &["push", "list", url, task, "--json"]));
    run.ok();
    let page: ListTaskPushNotificationConfigsResponse =
        serde_json::from_value(run.json_lines()[0].clone()).unwrap();
    assert_eq!(page.configs.len(), 1, "{binding}");
    let run = a2a(&on(binding, &["push", "list", url, task]));
    run.ok();
    assert_eq!(
        run.lines(),
        [described, format!("1 push configs of task {task}")],
        "{binding}"
    );

    let run = a2a(&on(binding, &["push", "delete", url, task, "cfg-1"]));
    run.ok();
    assert_eq!(
        run.lines(),
        [format!("deleted push config cfg-1 of task {task}")],
        "{binding}"
    );

    let run = a2a(&on(binding, &["push", "list", url, task]));
    run.ok();
    assert_eq!(
        run.lines(),
        [format!("0 push configs of task {task}")],
        "{binding}"
    );
}
