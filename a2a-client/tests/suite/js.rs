//! The JS SDK's agent server the interop tests drive (`tests/interop/js-sdk/sdk_agent_server.mjs`):
//! finding `node` and the installed SDK, and running the server on loopback until the test ends
//! (killed by its pid on drop; it also stops when its standard input closes).
//!
//! Without `node` or the SDK a test prints one line and passes, except under `CI=true`, where it
//! fails.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/interop/js-sdk")
}

/// Whether `node` runs and the SDK is installed; `false` (after one line saying why) skips the test.
pub fn available(test: &str) -> bool {
    let runs = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|output| output.status.success());
    let why = if !runs {
        "`node` is not on PATH"
    } else if !package_dir().join("node_modules/@a2a-js/sdk").exists() {
        "the JS SDK is not installed (run `npm ci` in tests/interop/js-sdk)"
    } else {
        return true;
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: {why} (CI=true)"
    );
    eprintln!("skipping {test}: {why}");
    false
}

/// The JS SDK agent running on loopback.
pub struct JsServer {
    child: Child,
    /// The JSON line the server printed once it listened: `url`, `grpc`, `token`.
    pub ready: Value,
}

impl JsServer {
    /// Starts the agent with `args` and waits (at most a minute) for its ready line.
    pub fn start(args: &[&str]) -> JsServer {
        let mut child = Command::new("node")
            .arg(package_dir().join("sdk_agent_server.mjs"))
            .args(args)
            .current_dir(package_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting the JS SDK agent: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let mut server = JsServer {
            child,
            ready: Value::Null,
        };
        let line = receiver
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("the JS SDK agent did not get ready within a minute"));
        server.ready = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the JS SDK agent's ready line {line:?}: {e}"));
        server
    }

    pub fn url(&self) -> String {
        self.ready["url"].as_str().expect("url").to_owned()
    }

    pub fn token(&self) -> String {
        self.ready["token"].as_str().expect("token").to_owned()
    }
}

impl Drop for JsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
