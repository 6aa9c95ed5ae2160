//! [`Binding`]: the three A2A protocol bindings, named as agent cards name them.

use std::fmt;
use std::str::FromStr;

use a2a_types::v1::builders::binding;

/// One of the three A2A protocol bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec section 9).
    JsonRpc,
    /// HTTP+JSON, the REST binding (spec section 11).
    HttpJson,
    /// gRPC (spec section 10).
    Grpc,
}

impl Binding {
    /// Every binding, in the default order of preference.
    pub const ALL: [Binding; 3] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc];

    /// The `protocolBinding` an agent card names it with.
    pub const fn protocol_binding(self) -> &'static str {
        match self {
            Binding::JsonRpc => binding::JSONRPC,
            Binding::HttpJson => binding::HTTP_JSON,
            Binding::Grpc => binding::GRPC,
        }
    }

    /// The binding a card's `protocolBinding` names (case-insensitive), if it is one of the three.
    pub fn from_protocol_binding(name: &str) -> Option<Binding> {
        Binding::ALL
            .into_iter()
            .find(|b| b.protocol_binding().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.protocol_binding())
    }
}

impl FromStr for Binding {
    type Err = String;

    /// `jsonrpc`, `http+json` (or `rest`), `grpc`, in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "jsonrpc" | "json-rpc" => Ok(Binding::JsonRpc),
            "http+json" | "http-json" | "rest" => Ok(Binding::HttpJson),
            "grpc" => Ok(Binding::Grpc),
            _ => Err(format!(
                "{text:?} is not a binding (jsonrpc, http+json, grpc)"
            )),
        }
    }
}
