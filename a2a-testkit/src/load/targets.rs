//! The servers the load test measures, each a child process of its own (so its memory is its own
//! and read from `/proc/PID/status`): this example agent, the official Python SDK's server
//! (`tests/interop/sdk_agent_server.py`) and, when built, the official Rust SDK's server
//! (`benchmarks/lf-agent`, on `a2a-server-lf`). Each is killed by its pid when dropped.

use std::path::{Path, PathBuf};
use std::process::Command;

use a2a_client::{A2aClient, Binding, ClientConfig};

use crate::process::{Server, start_sdk_server};

/// Which server a figure belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The agent binary under test (the workspace's example agent, on the server crate).
    Ours,
    /// The official Python SDK (a2a-sdk) server.
    PythonSdk,
    /// The official Rust SDK's server (`a2a-server-lf`).
    RustSdk,
}

impl Kind {
    /// The column name of the tables.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::PythonSdk => "Python SDK",
            Kind::RustSdk => "a2a-server-lf",
        }
    }
}

/// A running server with one client per binding it serves.
pub struct Target {
    pub kind: Kind,
    pub server: Server,
    /// One client per binding, in [`Binding::ALL`] order, for the bindings the server serves.
    pub clients: Vec<A2aClient>,
}

impl Target {
    /// The client of `binding`, when the server serves it.
    pub fn client(&self, binding: Binding) -> Option<&A2aClient> {
        self.clients.iter().find(|c| c.binding() == binding)
    }

    /// A memory figure of the server's `/proc/PID/status` (`VmRSS`, `VmHWM`), in KiB.
    pub fn memory_kib(&self, field: &str) -> Option<u64> {
        proc_status_kib(self.server.pid(), field)
    }
}

/// A memory figure of `/proc/PID/status` (`VmRSS`, `VmHWM`), in KiB; `None` off Linux.
pub fn proc_status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

/// The URL of a ready line `listening on URL ...`.
pub(crate) fn url_of_ready_line(line: &str, what: &str) -> Result<String, String> {
    line.strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .ok_or_else(|| format!("{what}: unexpected ready line {:?}", line.trim_end()))
}

/// Starts a server of `kind` (`program` is the agent binary for ours, the Python for the SDK, the
/// binary for a2a-server-lf) and connects a client over each binding it serves.
pub async fn start(kind: Kind, program: Option<&Path>) -> Result<Target, String> {
    let server = match (kind, program) {
        (Kind::Ours, Some(agent)) => {
            let mut command = Command::new(agent);
            // In memory, as the SDK's server keeps its tasks: the figures compare the servers, not
            // stores (and no run shares the default SQLite file with another agent).
            // One caller from one address generates the load: held to one caller's share, it would
            // be refused by design (`--one-caller` lifts the per-caller caps, not the caps in all).
            command.args([
                "--listen",
                "127.0.0.1:0",
                "--store",
                "memory",
                "--one-caller",
            ]);
            let (mut server, line) = Server::start(command, "the example agent")?;
            server.url = url_of_ready_line(&line, "the example agent")?;
            server
        }
        (Kind::PythonSdk, Some(python)) => start_sdk_server(python, &[])?.0,
        (Kind::RustSdk, Some(binary)) => {
            let (mut server, line) = Server::start(Command::new(binary), "a2a-server-lf's agent")?;
            server.url = url_of_ready_line(&line, "a2a-server-lf's agent")?;
            server
        }
        (_, None) => return Err(format!("{}: no program to start", kind.label())),
    };
    // a2a-server-lf publishes no gRPC transport: its card declares JSON-RPC and HTTP+JSON only.
    let bindings: &[Binding] = match kind {
        Kind::RustSdk => &[Binding::JsonRpc, Binding::HttpJson],
        _ => &Binding::ALL,
    };
    let mut clients = Vec::new();
    for &binding in bindings {
        let client = A2aClient::connect(&server.url, ClientConfig::default().only(binding))
            .await
            .map_err(|e| format!("{}: connecting over {binding}: {e}", kind.label()))?;
        clients.push(client);
    }
    Ok(Target {
        kind,
        server,
        clients,
    })
}

/// The a2a-server-lf agent's binary: `A2A_LOAD_LF_AGENT`, else the release build of
/// `benchmarks/lf-agent` when it exists.
pub fn lf_agent_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("A2A_LOAD_LF_AGENT").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let built =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/target/release/a2a-lf-agent");
    built.is_file().then_some(built)
}

/// A KiB figure in MiB, for the tables.
pub fn mib(kib: Option<u64>) -> String {
    kib.map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
        .unwrap_or_else(|| "unknown".into())
}
