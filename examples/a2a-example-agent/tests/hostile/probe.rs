//! What the suite measures of the agent's process and how it reaches its sockets: peak and
//! current resident memory (`/proc/PID/status`), the addresses in the agent's first line, and
//! raw connections from a chosen loopback source address.

use std::net::SocketAddr;

use tokio::net::{TcpSocket, TcpStream};

pub const MIB: usize = 1 << 20;

fn status_kib(pid: u32, field: &str) -> usize {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// The agent's peak resident memory since the last [`reset_peak`], in bytes.
pub fn peak_rss(pid: u32) -> usize {
    status_kib(pid, "VmHWM:") * 1024
}

/// Resets the agent's peak resident memory to what it holds now.
pub fn reset_peak(pid: u32) {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("clear_refs");
}

/// The agent's HTTP address, from its URL.
pub fn socket_addr(url: &str) -> SocketAddr {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .and_then(|host| host.parse().ok())
        .expect("an address")
}

/// The agent's gRPC address, from its first line (`... gRPC on http://127.0.0.1:PORT)`).
pub fn grpc_addr(first_line: &str) -> SocketAddr {
    let (_, rest) = first_line.split_once("gRPC on ").expect("the gRPC address");
    socket_addr(rest.trim().trim_end_matches(')'))
}

/// A connection to `to` from the loopback address `source` (each 127.0.0.0/8 address is a client
/// of its own for the per-address caps).
pub async fn connect_from(source: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{source}:0").parse().expect("an address"))?;
    socket.connect(to).await
}
