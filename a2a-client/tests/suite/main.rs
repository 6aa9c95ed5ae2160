//! The client crate's integration tests, one binary: loopback agents written in the test (axum) for
//! what a real agent rarely does on demand (caching headers, failures, hostile answers, dropped
//! streams), and the official Python SDK's servers (v1.3 and v0.3, each on all three bindings) for
//! the protocol itself.

mod agent;
mod auth;
mod client_v0_1;
mod habits;
mod hostile;
mod hostile_v0_3;
mod js;
mod oauth_tokens;
mod observe;
#[allow(dead_code)] // shared with the example agent's tests, which use the rest of it
#[path = "../../../tests/interop/oidc/provider.rs"]
mod oidc_provider;
mod python;
mod readme;
mod requests;
mod resume;
mod sdk_js;
mod sdk_js_departures;
mod sdk_oauth2;
mod sdk_v0_2;
mod sdk_v0_3;
mod sdk_v1;
#[cfg(feature = "signing")]
mod signed;
mod v0_1_agent;
