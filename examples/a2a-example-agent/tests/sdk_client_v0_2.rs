//! The official Python SDK's last v0.2 release (a2a-sdk 0.2.16, which knows A2A v0.2 only) drives the
//! example agent over JSON-RPC (`interop/drive_agent_v0_2.py`): its card resolver reads the card at
//! v0.2's well-known path (`/.well-known/agent.json`), and its client sends v0.2 requests without
//! `A2A-Version`, which the server answers through the v0.3 path (every v0.2 method and shape is
//! v0.3's): send (task and message results), stream, get with history, cancel, resubscribe, and the
//! error TaskNotFound. This test asserts every check passes.
//!
//! Python comes from `A2A_INTEROP_PYTHON_V0_2` (or the workspace's `.venv-v0_2`); without it the test
//! says it is skipped, and fails when `CI=true`. The script is killed after 90 s.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use a2a_example_agent::server::{self, Config};
use a2a_testkit::stores::StoreChoice;
use a2a_tests::interop::{Suite, python_v0_2};

const SCRIPT_LIMIT: Duration = Duration::from_secs(90);
/// The checks the script makes (see `main` in the script).
const CHECKS: usize = 8;

/// Kills the script when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

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

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/drive_agent_v0_2.py");
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
            "drive_agent_v0_2.py did not finish within {SCRIPT_LIMIT:?}"
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
    println!("the SDK 0.2 client against the agent:\n{stdout}");
    if !stderr.trim().is_empty() {
        eprintln!("drive_agent_v0_2.py (stderr):\n{stderr}");
    }
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
