//! The official Python SDK's client (a2a-sdk 1.3.0) drives the example agent over JSON-RPC,
//! HTTP+JSON and gRPC, and the SDK's v0.3 compatibility client over JSON-RPC
//! (`interop/drive_agent.py`, which prints one PASS/FAIL line per check and the pass counts per
//! binding). Two agents run in this process on loopback ports: the default one (its resubscribe delay
//! shortened) and a minimal one (push notifications off, no extended card, a required extension)
//! for the errors the first never gives.
//!
//! The same run is made with both agents on each store (`tests/common`; each agent a store of its
//! own): in memory, on SQLite files and on PostgreSQL databases (skipped with one line without
//! `A2A_TEST_POSTGRES_URL`, failing under `CI=true`).
//!
//! Python comes from `A2A_INTEROP_PYTHON` (or the workspace's `.venv`); without it the test says it
//! is skipped, and fails when `CI=true`. The script is killed after 180 s.

use std::time::Duration;

use a2a_example_agent::server::{self, Config};
use a2a_tests::interop::{Suite, python};
use common::TestStore;

use common::driver::{DriverRun, run_driver};

mod common;

const SCRIPT_LIMIT: Duration = Duration::from_secs(180);
const REQUIRED_EXTENSION: &str = "https://example.com/extensions/required/v1";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// The Python SDK's client runs `drive_agent.py` against the agent and the minimal agent, each
/// on its store (`stores`, made in `runtime`, `None` when skipped).
fn drive_with_sdk(
    store: &str,
    runtime: &tokio::runtime::Runtime,
    stores: impl std::future::Future<Output = Option<(TestStore, TestStore)>>,
) {
    let suite = Suite {
        name: "example agent (SDK client)",
        package_args: &[],
        sdk_module: "a2a.client.transports.grpc",
    };
    let Some(python) = python(&suite) else { return };
    let Some((agent_store, minimal_store)) = runtime.block_on(stores) else {
        return;
    };
    let (agent, minimal) = runtime.block_on(async {
        let agent = server::start_on_free_ports(Config {
            resubscribe_delay: Duration::from_millis(2500),
            store: agent_store.choice.clone(),
            ..Config::default()
        })
        .await
        .expect("the agent starts");
        let minimal = server::start_on_free_ports(Config {
            push_notifications: false,
            extended_card_token: None,
            required_extensions: vec![REQUIRED_EXTENSION.to_owned()],
            store: minimal_store.choice.clone(),
            ..Config::default()
        })
        .await
        .expect("the minimal agent starts");
        (agent, minimal)
    });

    let DriverRun { status, stdout } = run_driver(
        &python,
        "drive_agent.py",
        &[&agent.base_url(), &minimal.base_url()],
        &[],
        SCRIPT_LIMIT,
        &format!("the SDK client against the agent on {store}"),
    );
    runtime.block_on(async {
        agent.shutdown().await;
        minimal.shutdown().await;
    });
    assert!(
        status.success(),
        "the SDK client failed checks against the agent on {store} (see FAIL lines above)"
    );
    for binding in ["JSONRPC", "HTTP+JSON", "GRPC", "JSONRPC v0.3"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("{binding}: "))),
            "no pass count for {binding} on {store}"
        );
    }
}

#[test]
fn the_python_sdk_client_drives_the_agent_in_memory_on_every_binding() {
    let stores = async { Some((TestStore::memory(), TestStore::memory())) };
    drive_with_sdk("memory", &runtime(), stores);
}

#[test]
fn the_python_sdk_client_drives_the_agent_on_sqlite_on_every_binding() {
    let stores = async { Some((TestStore::sqlite(), TestStore::sqlite())) };
    drive_with_sdk("SQLite", &runtime(), stores);
}

#[test]
fn the_python_sdk_client_drives_the_agent_on_postgres_on_every_binding() {
    let test = "the_python_sdk_client_drives_the_agent_on_postgres_on_every_binding";
    let stores = async {
        let agent = TestStore::postgres(test).await?;
        Some((agent, TestStore::postgres(test).await?))
    };
    drive_with_sdk("PostgreSQL", &runtime(), stores);
}
