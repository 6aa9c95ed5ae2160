//! Listeners: the HTTP and gRPC servers [`A2aServer::serve`](crate::A2aServer::serve) starts on
//! the listeners it is given, and TLS for them and for webhook deliveries (feature `rustls`).

pub(crate) mod serve;
#[cfg(feature = "rustls")]
pub(crate) mod tls;
#[cfg(feature = "rustls")]
pub(crate) mod tls_listener;
