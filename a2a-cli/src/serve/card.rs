//! The card `a2a serve` publishes: every binding at the addresses it listens on, for A2A v1 and
//! v0.3 (JSON-RPC at `/jsonrpc`, HTTP+JSON under `/rest`, gRPC at its own `host:port`), streaming
//! and push notifications declared (the server crate does both for any agent). A proxy's card keeps
//! what the fronted agent says of itself (name, description, version, skills, modes) and replaces
//! where it is reached.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use a2a_types::v1::builders::AgentCardBuilder;
use a2a_types::v1::{AgentCard, AgentSkill};

use crate::failure::Failure;

/// Where the server listens.
pub struct Addresses {
    pub http: SocketAddr,
    pub grpc: SocketAddr,
}

/// The card of an agent of this command (`--echo`, `--exec`): one skill, text in and out.
pub fn own(name: &str, about: &str, addresses: &Addresses) -> Result<AgentCard, Failure> {
    let skill = AgentSkill {
        id: "answer".into(),
        name: name.into(),
        description: about.into(),
        tags: vec!["a2a-cli".into()],
        ..Default::default()
    };
    let builder = AgentCard::builder(name, about, env!("CARGO_PKG_VERSION"))
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(skill);
    finish(with_interfaces(builder, addresses))
}

/// The card of a proxy: the fronted agent's own description, this server's interfaces.
pub fn fronting(
    upstream: &AgentCard,
    name: Option<&str>,
    addresses: &Addresses,
) -> Result<AgentCard, Failure> {
    let builder = AgentCard::builder(
        name.unwrap_or(&upstream.name),
        upstream.description.clone(),
        upstream.version.clone(),
    )
    .default_input_modes(upstream.default_input_modes.clone())
    .default_output_modes(upstream.default_output_modes.clone())
    .skills(upstream.skills.clone());
    finish(with_interfaces(builder, addresses))
}

fn with_interfaces(builder: AgentCardBuilder, addresses: &Addresses) -> AgentCardBuilder {
    let http = format!("http://{}", reachable(addresses.http));
    let grpc = reachable(addresses.grpc).to_string();
    let jsonrpc = format!("{http}/jsonrpc");
    let rest = format!("{http}/rest");
    builder
        .jsonrpc(&jsonrpc)
        .http_json(&rest)
        .grpc(&grpc)
        .jsonrpc_v0_3(&jsonrpc)
        .http_json_v0_3(&rest)
        .grpc_v0_3(&grpc)
        .streaming(true)
        .push_notifications(true)
}

fn finish(builder: AgentCardBuilder) -> Result<AgentCard, Failure> {
    builder.build().map_err(|violations| {
        let listed: Vec<String> = violations
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect();
        Failure::input(format!(
            "the card to serve is not valid: {}",
            listed.join("; ")
        ))
    })
}

/// The address clients are told to use: a listener on every address (`0.0.0.0`, `::`) is named by
/// the loopback address of its family, the one address sure to reach it from this machine.
fn reachable(address: SocketAddr) -> SocketAddr {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, address.port())
}
