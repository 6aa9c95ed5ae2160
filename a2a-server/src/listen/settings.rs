//! How the listeners hold connections ([`ConnectionSettings`]): the timeouts that close a connection a
//! client keeps without using it, and the caps that keep one client from taking every connection.

use std::time::Duration;

/// Timeouts and caps of every connection the server accepts, on the HTTP listener (JSON-RPC,
/// HTTP+JSON, the card) and the gRPC listener alike, with or without TLS. The defaults suit an agent
/// reachable by clients it does not know; [`ServerConfig::connections`](crate::ServerConfig) holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConnectionSettings {
    /// The longest an HTTP/1 client may take to send a request's head (10 s), counted from the moment
    /// the server is ready for it: a new connection's first request, or the next one on a kept-alive
    /// connection. The connection is closed when it runs out.
    pub header_read_timeout: Duration,
    /// The longest a request's body may take to arrive in full (30 s), on every binding: the handler
    /// reading it gets an error, and the client an error answer.
    pub body_read_timeout: Duration,
    /// How long a connection may stay open with no request in progress (60 s), HTTP/1 and HTTP/2
    /// alike: it is then closed (HTTP/2 with a GOAWAY). A stream being answered is a request in
    /// progress, however quiet.
    pub idle_timeout: Duration,
    /// How often an HTTP/2 connection's peer is pinged while open (20 s); `None` never pings.
    pub http2_keep_alive_interval: Option<Duration>,
    /// How long an HTTP/2 ping may go unanswered before the connection is closed as dead (20 s); also
    /// how long a connection closed for idleness may take to end before it is dropped.
    pub http2_keep_alive_timeout: Duration,
    /// Connections open at once on each listener (4,096): more wait in the kernel's backlog until one
    /// closes. Keep it below the process's file-descriptor limit, which stores and webhooks share.
    pub max_connections: usize,
    /// Connections open at once from one IP address on each listener (256): one more is closed as
    /// soon as it is accepted, so one client cannot hold every slot. Behind a proxy every client has
    /// the proxy's address: raise it to `max_connections` there.
    pub max_connections_per_ip: usize,
}

impl Default for ConnectionSettings {
    fn default() -> Self {
        ConnectionSettings {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            http2_keep_alive_interval: Some(Duration::from_secs(20)),
            http2_keep_alive_timeout: Duration::from_secs(20),
            max_connections: 4096,
            max_connections_per_ip: 256,
        }
    }
}
