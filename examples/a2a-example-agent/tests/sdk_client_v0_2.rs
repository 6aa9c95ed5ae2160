//! The official Python SDK's last v0.2 release (a2a-sdk 0.2.16, which knows A2A v0.2 only) drives the
//! example agent over JSON-RPC (`interop/drive_agent_v0_2.py`): its card resolver reads the card at
//! v0.2's well-known path (`/.well-known/agent.json`), and its client sends v0.2 requests without
//! `A2A-Version`, which the server answers through the v0.3 path (every v0.2 method and shape is
//! v0.3's): send (task and message results), stream, get with history, cancel, resubscribe, and the
//! error TaskNotFound, and the authenticated extended card by v0.2's GET beside the JSON-RPC
//! endpoint (refused without the token). This test asserts every check passes.
//!
//! Python comes from `A2A_INTEROP_PYTHON_V0_2` (or the workspace's `.venv-v0_2`); without it the test
//! says it is skipped, and fails when `CI=true`. The script is killed after 90 s.

use std::time::Duration;

use a2a_example_agent::server::{self, Config};
use a2a_testkit::stores::StoreChoice;
use a2a_tests::interop::{Suite, python_v0_2};

use common::driver::{DriverRun, run_driver};

mod common;

const SCRIPT_LIMIT: Duration = Duration::from_secs(90);
/// The checks the script makes (see `main` in the script).
const CHECKS: usize = 10;

#[test]
fn the_python_sdk_0_2_client_drives_the_agent_over_json_rpc() {
    let suite = Suite {
        name: "example agent (SDK 0.2 client)",
        package_args: &[],
        sdk_module: "a2a.client.client",
    };
    let Some(python) = python_v0_2(&suite) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let agent = runtime.block_on(async {
        server::start_on_free_ports(Config {
            resubscribe_delay: Duration::from_millis(1500),
            store: StoreChoice::Memory,
            ..Config::default()
        })
        .await
        .expect("the agent starts")
    });

    let DriverRun { status, stdout } = run_driver(
        &python,
        "drive_agent_v0_2.py",
        &[&agent.base_url()],
        &[],
        SCRIPT_LIMIT,
        "the SDK 0.2 client against the agent",
    );
    runtime.block_on(agent.shutdown());
    assert!(
        status.success(),
        "the SDK 0.2 client failed checks against the agent (see FAIL lines above)"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l == format!("JSONRPC: {CHECKS}/{CHECKS} passed")),
        "not every check passed"
    );
}
