//! The workspace's integration tests, linked into one test binary (`--test suite`) instead of one per
//! file, so a change to a library is linked once. Each module is one former test file and keeps its
//! own helpers; the shared ones live in the `a2a_tests` library (`tests/src/`).
//!
//! Modules are named `<area>[_<aspect>][_<version>]`, so one area's modules sort together:
//! - `<area>` is what is under test: `bridge`, `build`, `describe`, `errors`, `input`, `json`, `jsonrpc`,
//!   `limits`, `operations`, `proto`, `protojson`, `rest`, `round_trip`, `spec`, `sse`, `types`,
//!   `validate`;
//! - `<aspect>` narrows it: `interop` (against the official Python SDK), `proptest` (property-based),
//!   `glue`, `builders`, `edge_cases`, ...;
//! - `<version>` (`v1`, `v0_3`, `v0_2`, `v0_1`) is the protocol version whose types the module exercises, absent when
//!   it covers both (`limits_depth`, `json_exact_numbers`) or none (`build_cost`).
//!
//! Run one module with a filter on its path, e.g.
//! `cargo test -p a2a-tests --all-features --test suite -- bridge_v0_3::`.

mod bridge_seed_v0_1;
mod bridge_v0_3;
mod build_cost;
mod decode_in_place_v1;
mod decode_key_order_v0_3;
mod describe_v1;
mod errors_interop_v1;
mod input_rules;
mod json_bounded_errors;
mod json_exact_numbers;
mod jsonrpc_glue_v1;
mod jsonrpc_interop_v0_3;
mod jsonrpc_interop_v1;
mod jsonrpc_v1;
mod limits_budget_v1;
mod limits_depth;
mod operations_v1;
mod proto_interop_v0_3;
mod proto_interop_v1;
mod proto_v0_3;
mod protojson_edge_cases_v1;
mod protojson_v1;
mod rest_v1;
mod round_trip_proptest_v0_1;
mod round_trip_proptest_v0_3;
mod round_trip_proptest_v1;
mod round_trip_v1;
mod signing_hostile;
mod signing_js;
mod signing_v1;
mod spec_json_schema_v1;
mod spec_wire_identity;
mod sse_interop_v1;
mod sse_properties_v1;
mod types_builders_v1;
pub(crate) mod types_seed_v0_1;
mod types_v0_1;
mod types_v0_2;
mod types_v0_3;
mod types_v1;
mod validate_interop_v1;
mod validate_v1;
