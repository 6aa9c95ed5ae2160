//! Server processes started by the load test and by tests (an agent binary, the official SDKs'
//! servers of the workspace's `tests/interop/sdk_agent_server.py`,
//! `tests/interop/sdk_v0_3_agent_server.py` and
//! `tests/interop/js-sdk/sdk_agent_server.mjs`): each is read until its ready line, bounded in
//! time, and killed by its pid when dropped, passing or failing.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The longest a server may take to say it is ready.
const START_LIMIT: Duration = Duration::from_secs(60);

/// A running server process; dropping it kills the process by its pid.
pub struct Server {
    child: Child,
    /// The base URL the server said it listens on.
    pub url: String,
    // Held open: the SDK server stops when its standard input closes.
    _stdin: Option<ChildStdin>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `command` and returns it with its first line of output (its ready line); the rest of
    /// its output is drained so it never blocks on a full pipe. `url` is left for the caller to read
    /// from that line.
    pub fn start(mut command: Command, what: &str) -> Result<(Server, String), String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting {what}: {e}"))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        // Owned before anything can fail, so the process is killed whatever happens next.
        let server = Server {
            child,
            url: String::new(),
            _stdin: stdin,
        };
        let stdout = stdout.ok_or_else(|| format!("{what}: no standard output"))?;
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = sender.send(line);
            let _ = std::io::copy(&mut reader, &mut std::io::sink());
        });
        let line = receiver
            .recv_timeout(START_LIMIT)
            .map_err(|_| format!("{what} did not say it was ready within {START_LIMIT:?}"))?;
        Ok((server, line))
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// Starts the official SDK's server (`tests/interop/sdk_agent_server.py ARGS`) with `python`, and
/// returns it with its ready line as JSON (`url`, `token`).
pub fn start_sdk_server(
    python: &Path,
    args: &[&str],
) -> Result<(Server, serde_json::Value), String> {
    let script = workspace_root().join("tests/interop/sdk_agent_server.py");
    let mut command = Command::new(python);
    command.arg(&script).args(args);
    start_with_ready_json(command, "the SDK server")
}

/// Starts the official Python SDK 0.3's server (`tests/interop/sdk_v0_3_agent_server.py ARGS`) with
/// `python` (the 0.3 SDK's interpreter), and returns it with its ready line as JSON (`url`, `rest`,
/// `grpc`).
pub fn start_sdk_v0_3_server(
    python: &Path,
    args: &[&str],
) -> Result<(Server, serde_json::Value), String> {
    let script = workspace_root().join("tests/interop/sdk_v0_3_agent_server.py");
    let mut command = Command::new(python);
    command.arg(&script).args(args);
    start_with_ready_json(command, "the SDK 0.3 server")
}

/// Starts the official JS SDK's server (`node tests/interop/js-sdk/sdk_agent_server.mjs ARGS`, its
/// packages installed there by `npm ci`), and returns it with its ready line as JSON (`url`, `grpc`,
/// `token`).
pub fn start_js_sdk_server(args: &[&str]) -> Result<(Server, serde_json::Value), String> {
    let package = workspace_root().join("tests/interop/js-sdk");
    let mut command = Command::new("node");
    command
        .arg(package.join("sdk_agent_server.mjs"))
        .args(args)
        .current_dir(&package);
    start_with_ready_json(command, "the JS SDK server")
}

/// Starts `command`, whose ready line is a JSON object with the `url` to use.
fn start_with_ready_json(
    command: Command,
    what: &str,
) -> Result<(Server, serde_json::Value), String> {
    let (mut server, line) = Server::start(command, what)?;
    let ready: serde_json::Value = serde_json::from_str(&line)
        .map_err(|e| format!("{what}'s ready line {:?}: {e}", line.trim_end()))?;
    server.url = ready["url"]
        .as_str()
        .ok_or_else(|| format!("{what}'s ready line has no url: {ready}"))?
        .to_owned();
    Ok((server, ready))
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
