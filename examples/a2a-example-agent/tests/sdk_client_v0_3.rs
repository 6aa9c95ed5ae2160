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

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use a2a_example_agent::server::{self, Config};
use a2a_tests::interop::{Suite, python_v0_3};

const SCRIPT_LIMIT: Duration = Duration::from_secs(150);
/// The checks the script makes on each binding (see `drive` in the script).
const CHECKS_PER_BINDING: usize = 10;

/// Kills the script when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

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

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/drive_agent_v0_3.py");
    let child = Command::new(&python)
        .arg(&script)
        .arg(agent.base_url())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    let mut child = KillOnDrop(child);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("waiting for the script") {
            break status;
        }
        assert!(
            started.elapsed() < SCRIPT_LIMIT,
            "drive_agent_v0_3.py did not finish within {SCRIPT_LIMIT:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .0
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    child
        .0
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    println!("the SDK 0.3 client against the agent:\n{stdout}");
    if !stderr.trim().is_empty() {
        eprintln!("drive_agent_v0_3.py (stderr):\n{stderr}");
    }
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
