//! The official Python SDK 0.3.x's client (a2a-sdk 0.3.26, which knows nothing of A2A v1) finds the
//! example agent from its card alone and drives it (`interop/drive_agent_v0_3.py`): its card resolver
//! reads the well-known card fetched without `A2A-Version`, its client factory connects from the URL
//! alone, and on each binding the card offers for v0.3 it sends (task and message results), streams,
//! gets, cancels and resubscribes, and reads the errors TaskNotFound, TaskNotCancelable,
//! UnsupportedOperation and ContentTypeNotSupported as each binding carries them (JSON-RPC codes, the
//! SDK's HTTP statuses, gRPC statuses naming the v0.3 error). The agent's card offers v0.3 on all three
//! bindings (JSON-RPC preferred), and this test asserts every check passes on each.
//!
//! Python comes from `A2A_INTEROP_PYTHON_V0_3` (or the workspace's `.venv-v0_3`); without it the test
//! says it is skipped, and fails when `CI=true`. The script is killed after 150 s.

use std::time::Duration;

use a2a_example_agent::server::{self, Config};
use a2a_tests::interop::{Suite, python_v0_3};

use common::driver::{DriverRun, run_driver};

mod common;

const SCRIPT_LIMIT: Duration = Duration::from_secs(150);
/// The checks the script makes on each binding (see `drive` in the script).
const CHECKS_PER_BINDING: usize = 10;

#[test]
fn the_python_sdk_0_3_client_finds_and_drives_the_agent_from_its_card() {
    let suite = Suite {
        name: "example agent (SDK 0.3 client)",
        package_args: &[],
        sdk_module: "a2a.client.transports.grpc",
    };
    let Some(python) = python_v0_3(&suite) else {
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
            ..Config::default()
        })
        .await
        .expect("the agent starts")
    });

    let DriverRun { status, stdout } = run_driver(
        &python,
        "drive_agent_v0_3.py",
        &[&agent.base_url()],
        &[],
        SCRIPT_LIMIT,
        "the SDK 0.3 client against the agent",
    );
    runtime.block_on(agent.shutdown());
    assert!(
        status.success(),
        "the SDK 0.3 client failed checks against the agent (see FAIL lines above)"
    );
    let count = |prefix: &str| stdout.lines().any(|l| l == prefix);
    assert!(
        count("card: 2/2 passed"),
        "the card checks did not all pass"
    );
    for binding in ["JSONRPC", "HTTP+JSON", "GRPC"] {
        assert!(
            count(&format!(
                "{binding}: {CHECKS_PER_BINDING}/{CHECKS_PER_BINDING} passed"
            )),
            "not every {binding} check passed"
        );
    }
}
