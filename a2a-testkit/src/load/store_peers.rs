//! The peer rows of the store benchmark ([`super::stores`]), one process per store, each killed by
//! its pid when dropped:
//! - the official Python SDK's JSON-RPC server on its own stores
//!   (`tests/interop/sdk_store_agent_server.py`: `InMemoryTaskStore`, or its `DatabaseTaskStore` on
//!   SQLite or PostgreSQL). It needs a Python with `tests/interop/requirements.txt` installed
//!   (SQLAlchemy and the drivers included): `A2A_INTEROP_PYTHON`.
//! - a2a-protocol-server 0.15 (tomtom215/a2a-rust) on its `InMemoryTaskStore`, `SqliteTaskStore`
//!   and `PostgresTaskStore` (`benchmarks/protocol-server-agent`, in `benchmarks/`' own workspace,
//!   which CI does not build): `A2A_LOAD_PROTOCOL_SERVER_AGENT`, else
//!   `benchmarks/target/release/a2a-protocol-server-agent` when built
//!   (`cargo build --release --manifest-path benchmarks/Cargo.toml -p a2a-protocol-server-agent`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::targets::url_of_ready_line;
use crate::process::Server;

/// The Python that runs the SDK's server: `A2A_INTEROP_PYTHON`, when set.
pub fn python() -> Option<PathBuf> {
    std::env::var_os("A2A_INTEROP_PYTHON")
        .map(PathBuf::from)
        .filter(|p| !p.as_os_str().is_empty())
}

/// Starts the SDK's server on `store` (`memory`, `sqlite:PATH` or `postgres:URL`; with `schema`,
/// its PostgreSQL connections search that schema first); the server, with its URL set.
pub fn start_sdk(python: &Path, store: &str, schema: Option<&str>) -> Result<Server, String> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/interop/sdk_store_agent_server.py");
    let mut command = Command::new(python);
    command.arg(script).args(["--store", store]);
    if let Some(schema) = schema {
        command.args(["--schema", schema]);
    }
    let what = "the Python SDK's server";
    let (mut server, line) = Server::start(command, what)?;
    let ready: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|e| format!("{what}: ready line {:?}: {e}", line.trim_end()))?;
    server.url = ready["url"]
        .as_str()
        .ok_or_else(|| format!("{what}: no url in its ready line {:?}", line.trim_end()))?
        .to_owned();
    Ok(server)
}

/// The a2a-protocol-server agent's binary: `A2A_LOAD_PROTOCOL_SERVER_AGENT`, else the release build
/// of `benchmarks/protocol-server-agent` when it exists.
pub fn protocol_server_agent() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("A2A_LOAD_PROTOCOL_SERVER_AGENT").filter(|p| !p.is_empty())
    {
        return Some(PathBuf::from(path));
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benchmarks/target/release/a2a-protocol-server-agent");
    built.is_file().then_some(built)
}

/// Starts the a2a-protocol-server agent `binary` on `store` (`memory`, `sqlite:PATH` or
/// `postgres:URL`, the URL naming its schema as ours does); the server, with its URL set.
pub fn start_protocol_server(binary: &Path, store: &str) -> Result<Server, String> {
    let mut command = Command::new(binary);
    command.args(["--store", store]);
    let what = "a2a-protocol-server's agent";
    let (mut server, line) = Server::start(command, what)?;
    server.url = url_of_ready_line(&line, what)?;
    Ok(server)
}
