//! The example agent's server side: one task store behind JSON-RPC, HTTP+JSON and gRPC.
