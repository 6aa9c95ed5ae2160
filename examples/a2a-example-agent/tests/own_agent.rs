//! The workspace's client against the example agent, in process, over each of the three bindings:
//! the same conformance run (`a2a_testkit::conformance::run_conformance`) that
//! `a2a-testkit/tests/sdk_server.rs` makes against the official SDK's server, so the agent is proven
//! Rust ⇄ Rust too.
//!
//! The same run is made with the agent on each store (`tests/common`): in memory, on a SQLite file
//! of its own and on a PostgreSQL database of its own (skipped with one line without
//! `A2A_TEST_POSTGRES_URL`, failing under `CI=true`).
//!
//! The agent is started on free 127.0.0.1 ports with a short resubscribe delay, and shut down at the
//! end; every run is bounded in time, and a run with fewer checks than expected fails.

use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_example_agent::server::{self, Config, EXTENDED_CARD_TOKEN};
use a2a_testkit::conformance::{ConformanceOptions, run_conformance};
use a2a_types::v1::{Message, Part, SendMessageRequest, StreamResponse, TaskState};
use common::TestStore;

mod common;

/// The most a whole run over one binding may take.
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// Every check of the run, the push delivery, the extended card and the server rules included.
const MIN_CHECKS: usize = 39;

/// The conformance run over every binding against the agent on `store`.
async fn conformance_on(store: TestStore) {
    let config = Config {
        resubscribe_delay: Duration::from_millis(1500),
        store: store.choice.clone(),
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent starts on free loopback ports");
    let options = ConformanceOptions {
        extended_card_token: Some(EXTENDED_CARD_TOKEN.to_owned()),
        server_rules: true,
        ..ConformanceOptions::default()
    };

    let mut summary = Vec::new();
    let mut failed = Vec::new();
    for binding in Binding::ALL {
        let started = Instant::now();
        let client = A2aClient::connect(&agent.base_url(), ClientConfig::default().only(binding))
            .await
            .unwrap_or_else(|e| panic!("connecting over {binding}: {e}"));
        assert_eq!(client.binding(), binding);
        let report = tokio::time::timeout(RUN_LIMIT, run_conformance(&client, &options))
            .await
            .unwrap_or_else(|_| panic!("the {binding} run took over {RUN_LIMIT:?}"));
        println!("{report}");
        summary.push(format!(
            "{binding}: {}/{} in {:.1} s",
            report.passed(),
            report.checks.len(),
            started.elapsed().as_secs_f32()
        ));
        if !report.all_passed() || report.checks.len() < MIN_CHECKS {
            failed.push(binding);
        }
    }
    println!(
        "example client → example agent on {}: {}",
        store.name,
        summary.join("; ")
    );
    agent.shutdown().await;
    assert!(
        failed.is_empty(),
        "{}: checks failed over {failed:?} (or fewer than {MIN_CHECKS} ran); see the reports above",
        store.name
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_client_drives_the_example_agent_in_memory_over_every_binding() {
    conformance_on(TestStore::memory()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_client_drives_the_example_agent_on_sqlite_over_every_binding() {
    conformance_on(TestStore::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_client_drives_the_example_agent_on_postgres_over_every_binding() {
    let test = "example_client_drives_the_example_agent_on_postgres_over_every_binding";
    if let Some(store) = TestStore::postgres(test).await {
        conformance_on(store).await;
    }
}

/// A message that names no behaviour goes to the travel skills: working, the answer saying what was
/// understood, completed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_messages_go_to_the_travel_skills() {
    let config = Config {
        store: a2a_testkit::stores::StoreChoice::Memory,
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent starts on free loopback ports");
    let client = A2aClient::connect(&agent.base_url(), ClientConfig::default())
        .await
        .expect("the client connects");
    let request = SendMessageRequest {
        message: Message::user("m-1", [Part::text("Find a hotel in Porto")]),
        ..Default::default()
    };
    let mut events = client.send_streaming_message(request).await.unwrap();
    let (mut states, mut texts) = (Vec::new(), Vec::new());
    while let Some(event) = tokio::time::timeout(RUN_LIMIT, events.next())
        .await
        .unwrap()
    {
        match event.unwrap() {
            StreamResponse::StatusUpdate(update) => states.push(update.status.state),
            StreamResponse::ArtifactUpdate(update) => texts.push(update.artifact.text()),
            _ => {}
        }
    }
    agent.shutdown().await;
    assert_eq!(texts[0], "Understood: Find a hotel in Porto");
    assert_eq!(states, [TaskState::Working, TaskState::Completed]);
}
