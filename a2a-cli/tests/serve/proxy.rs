//! `a2a serve --proxy` in front of the official Python SDK 0.3's server
//! (`tests/interop/sdk_v0_3_agent_server.py`, in `A2A_INTEROP_PYTHON_V0_3` or `.venv-v0_3`), reached
//! over each of its bindings in turn (`--proxy-binding`), driven by the Python SDK 1.3's v1 client
//! (`A2A_INTEROP_PYTHON` or `.venv`) on each of the proxy's three bindings (`drive_proxy.py`: send,
//! a direct message, file bytes, stream, get, cancel). Without either Python the test says so in
//! one line and skips, except under `CI=true`, where it fails. Every process is killed by its pid.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use a2a_testkit::process::start_sdk_v0_3_server;
use a2a_tests::interop::{Suite, python, python_v0_3};

use crate::serving::serve;

/// The longest one run of the driver may take.
const DRIVER_LIMIT: Duration = Duration::from_secs(120);

#[test]
fn the_sdk_v1_client_reaches_a_v0_3_agent_through_the_proxy_on_every_binding() {
    let Some(python_v1) = python(&Suite {
        name: "a2a serve --proxy (SDK v1 client)",
        package_args: &[],
        sdk_module: "a2a.client, grpc",
    }) else {
        return;
    };
    let Some(python_v0_3) = python_v0_3(&Suite {
        name: "a2a serve --proxy (SDK 0.3 server)",
        package_args: &[],
        sdk_module: "a2a.server.apps, a2a.server.request_handlers.grpc_handler, uvicorn",
    }) else {
        return;
    };
    let (agent, _) =
        start_sdk_v0_3_server(&python_v0_3, &["--delay", "3"]).unwrap_or_else(|e| panic!("{e}"));

    for upstream in ["jsonrpc", "rest", "grpc"] {
        let proxy = serve(&["--proxy", &agent.url, "--proxy-binding", upstream]);
        let (code, output) = drive(&python_v1, &proxy.url);
        assert_eq!(
            code,
            Some(0),
            "fronting the v0.3 agent over {upstream}:\n{output}"
        );
        for binding in ["JSONRPC", "HTTP+JSON", "GRPC"] {
            assert!(
                output.contains(&format!("{binding}: 6/6 passed")),
                "fronting over {upstream}, {binding}:\n{output}"
            );
        }
    }
}

/// Runs `drive_proxy.py URL`; its exit status and output (stdout, then stderr).
fn drive(python: &Path, url: &str) -> (Option<i32>, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/drive_proxy.py");
    let mut child = Command::new(python)
        .arg(script)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the driver starts");
    let started = Instant::now();
    while child.try_wait().expect("the driver's status").is_none() {
        if started.elapsed() > DRIVER_LIMIT {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("the driver's output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), text)
}
