//! Listeners: the HTTP and gRPC servers [`A2aServer::serve`](crate::A2aServer::serve) starts on
//! the listeners it is given, how their connections are held (timeouts and caps), and TLS for them and
//! for webhook deliveries (feature `rustls`).

pub(crate) mod activity;
pub(crate) mod client_slots;
pub(crate) mod connections;
pub(crate) mod peer;
pub(crate) mod serve;
pub(crate) mod settings;
#[cfg(feature = "rustls")]
pub(crate) mod tls;
#[cfg(feature = "rustls")]
pub(crate) mod tls_listener;
