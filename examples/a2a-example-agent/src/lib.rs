//! The example A2A agent: everything a Rust agent needs to speak A2A on all three bindings, built
//! from this workspace's crates and well-kept transport crates only.
//!
//! - [`server`]: the agent. [`server::start`] serves it on two loopback listeners (HTTP for the card,
//!   JSON-RPC and HTTP+JSON; gRPC) and returns a handle with the bound addresses and a shutdown;
//!   `a2a-example-agent --listen 127.0.0.1:PORT` does the same from the command line. Its travel
//!   skills answer messages; those naming a conformance-kit behaviour (`tck-complete-task`, …)
//!   follow `a2a_testkit::behaviour`. Its extended card is behind `Authorization: Bearer`
//!   [`server::EXTENDED_CARD_TOKEN`].
//! - [`demo`]: `a2a-example-agent --demo`, the agent driven by the workspace's client over each binding.
//!
//! The agent's command line also runs the load test (`--load`, `a2a_testkit::load`). `tests/sdk_client.rs`
//! has the official Python SDK's client (and its v0.3 client) drive the agent over every binding
//! (`interop/drive_agent.py`; set `A2A_INTEROP_PYTHON` to a Python with
//! `tests/interop/requirements.txt` installed); `tests/sdk_replicas.rs` has it use two replicas on one
//! PostgreSQL (`interop/drive_replicas.py`), one of them killed mid-stream.

pub mod demo;
pub mod server;
