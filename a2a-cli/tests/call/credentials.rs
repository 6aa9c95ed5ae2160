//! `--bearer` and `--header` reach the agent on each binding: the example agent shows a task only
//! to the caller that created it, and knows the caller by the bearer token of its extended card.

use std::time::Duration;

use crate::agent::{Agent, BINDINGS, a2a, on};

/// The token the example agent knows a caller by.
const TOKEN: &str = a2a_example_agent::server::EXTENDED_CARD_TOKEN;

#[test]
fn bearer_and_header_credentials_reach_the_agent_on_each_binding() {
    let agent = Agent::start(Duration::from_secs(1));
    let header = format!("Authorization: Bearer {TOKEN}");
    for binding in BINDINGS {
        let run = a2a(&on(
            binding,
            &[
                "send",
                &agent.url,
                "x",
                "--message-id",
                "tck-complete-task-b",
                "--bearer",
                TOKEN,
                "--json",
            ],
        ));
        run.ok();
        let id = run.json_lines()[0]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();

        // An anonymous caller does not see the task; the same caller does, by either option.
        let run = a2a(&on(binding, &["get", &agent.url, &id]));
        assert!(
            run.failed(3, "error").contains("TASK_NOT_FOUND"),
            "{binding}: {run:#?}"
        );
        a2a(&on(binding, &["get", &agent.url, &id, "--bearer", TOKEN])).ok();
        a2a(&on(binding, &["get", &agent.url, &id, "--header", &header])).ok();
    }
}
