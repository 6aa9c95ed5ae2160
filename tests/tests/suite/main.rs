//! The workspace's integration tests, linked into one test binary (`--test suite`) instead of one per
//! file, so a change to a library is linked once. Each module is one former test file and keeps its
//! own helpers; the shared ones live in the `a2a_tests` library (`tests/src/`).
//!
//! Run one module with a filter on its path, e.g.
//! `cargo test -p a2a-tests --all-features --test suite -- bridge_v0_3::`.

mod bounded_errors;
mod bridge_v0_3;
mod build_cost;
mod builders_v1;
mod decode_budget;
mod describe_v1;
mod edge_cases_v1;
mod errors_interop_v1;
mod exact_numbers;
mod interop_jsonrpc_v0_3;
mod interop_v0_3;
mod interop_v1;
mod json_schema_v1;
mod jsonrpc_glue_v1;
mod jsonrpc_interop_v1;
mod jsonrpc_v1;
mod limits_depth;
mod one_rule;
mod operations_v1;
mod proptest_v0_3;
mod proptest_v1;
mod proto_v0_3;
mod protojson_v1;
mod rest_v1;
mod signing_hostile;
mod signing_js;
mod signing_v1;
mod sse_interop_v1;
mod sse_properties;
mod types_v0_3;
mod types_v1;
mod v1_round_trip;
mod validate_interop_v1;
mod validate_v1;
mod wire_identity;
