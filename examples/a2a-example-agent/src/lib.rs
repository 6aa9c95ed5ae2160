//! The example A2A agent and client: everything a Rust agent needs to speak A2A on all three bindings,
//! built from this workspace's crates and well-kept transport crates only.

pub mod client;
pub mod server;
