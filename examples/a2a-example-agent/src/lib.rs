//! The example A2A agent and client: everything a Rust agent needs to speak A2A on all three bindings,
//! built from this workspace's crates and well-kept transport crates only.
//!
//! - [`server`]: the agent. [`server::start`] serves it on two loopback listeners (HTTP for the card,
//!   JSON-RPC and HTTP+JSON; gRPC) and returns a handle with the bound addresses and a shutdown;
//!   `a2a-example-agent --listen 127.0.0.1:PORT` does the same from the command line. What it does
//!   with a message follows the `messageId` prefix table of [`server::behaviour`]; its extended card
//!   is behind `Authorization: Bearer` [`server::EXTENDED_CARD_TOKEN`].
//! - [`client`]: the client.
//! - [`demo`]: `a2a-example-agent --demo`, the agent driven by the client over each binding.
//! - [`load`]: `a2a-example-agent --load`, concurrent streams and requests against the agent and
//!   the official SDK's server, with throughput, errors, lost tasks and memory.
//! - [`stores`]: `--store memory|sqlite:PATH|postgres://…`, where tasks are kept.
//! - [`process`]: the server processes the load test and the tests start, killed by pid on drop.
//!
//! `tests/sdk_client.rs` has the official Python SDK's client (and its v0.3 client) drive the agent
//! over every binding (`interop/drive_agent.py`; set `A2A_INTEROP_PYTHON` to a Python with
//! `tests/interop/requirements.txt` installed); `tests/sdk_replicas.rs` has it use two replicas on one
//! PostgreSQL (`interop/drive_replicas.py`), one of them killed mid-stream.

pub mod client;
pub mod demo;
pub mod load;
pub mod process;
pub mod server;
pub mod stores;
