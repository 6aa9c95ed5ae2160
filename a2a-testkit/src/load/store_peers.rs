//! The peer rows of the store benchmark ([`super::stores`]): the official Python SDK's JSON-RPC
//! server on its own stores (`tests/interop/sdk_store_agent_server.py`: `InMemoryTaskStore`, or its
//! `DatabaseTaskStore` on SQLite or PostgreSQL), one process per store, killed by its pid when
//! dropped. It needs a Python with `tests/interop/requirements.txt` installed (SQLAlchemy and the
//! drivers included): `A2A_INTEROP_PYTHON`.

use std::path::{Path, PathBuf};
use std::process::Command;

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
