//! `a2a push set|get|list|delete` on each binding, for a task of the example agent.

use std::time::Duration;

use a2a_types::v1::{ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig};

use crate::agent::{Agent, BINDINGS, a2a, on};

#[test]
fn push_configs_are_set_read_listed_and_deleted_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "x",
                "--message-id",
                "tck-cancel-p",
                "--return-immediately",
                "--json",
            ],
        ));
        run.ok();
        let task = run.json_lines()[0]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let webhook = "http://127.0.0.1:9/hook";

        let run = a2a(&on(
            binding,
            &[
                "push", "set", &agent.url, &task, webhook, "--id", "cfg-1", "--token", "tok",
                "--json",
            ],
        ));
        run.ok();
        let created: TaskPushNotificationConfig =
            serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(created.url, webhook, "{binding}");
        assert_eq!(created.id.as_deref(), Some("cfg-1"), "{binding}");

        let run = a2a(&on(binding, &["push", "get", &agent.url, &task, "cfg-1"]));
        run.ok();
        assert_eq!(
            run.lines(),
            [format!("push config cfg-1 of task {task}: {webhook}")],
            "{binding}"
        );

        let run = a2a(&on(binding, &["push", "list", &agent.url, &task, "--json"]));
        run.ok();
        let page: ListTaskPushNotificationConfigsResponse =
            serde_json::from_value(run.json_lines()[0].clone()).unwrap();
        assert_eq!(page.configs.len(), 1, "{binding}");

        let run = a2a(&on(
            binding,
            &["push", "delete", &agent.url, &task, "cfg-1"],
        ));
        run.ok();
        assert_eq!(
            run.lines(),
            [format!("deleted push config cfg-1 of task {task}")],
            "{binding}"
        );

        let run = a2a(&on(binding, &["push", "list", &agent.url, &task]));
        run.ok();
        assert_eq!(
            run.lines(),
            [format!("0 push configs of task {task}")],
            "{binding}"
        );
        let run = a2a(&on(binding, &["cancel", &agent.url, &task]));
        run.ok();
    }
}
