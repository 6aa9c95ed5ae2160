//! Where [`A2aServer::router`](crate::A2aServer::router) mounts the HTTP bindings.

/// Where [`A2aServer::router`](crate::A2aServer::router) mounts the bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpPaths {
    /// The JSON-RPC endpoint (`/jsonrpc`; `/` serves it at the root).
    pub jsonrpc: String,
    /// The HTTP+JSON prefix (`/rest`; `""` mounts the routes at the root).
    pub rest: String,
}

impl Default for HttpPaths {
    fn default() -> Self {
        HttpPaths {
            jsonrpc: "/jsonrpc".into(),
            rest: "/rest".into(),
        }
    }
}

impl HttpPaths {
    /// JSON-RPC at `jsonrpc`, HTTP+JSON under `rest`.
    pub fn new(jsonrpc: impl Into<String>, rest: impl Into<String>) -> Self {
        HttpPaths {
            jsonrpc: jsonrpc.into(),
            rest: rest.into(),
        }
    }
}
