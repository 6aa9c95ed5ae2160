//! Running `tests/interop/sdk_jsonrpc_vectors.py`, the official Python SDK's vectors for A2A v0.3's
//! JSON-RPC payloads (with their `a2a.v1` protobuf and `lf.a2a.v1` forms from the SDK's converters):
//! finding the interpreter, generating the manifest, and having the SDK judge our outputs.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::interop::{Suite, python, run_script};
use crate::{json_differences, json_equivalent};

/// The SDK module the vectors need.
pub const SUITE: Suite = Suite {
    name: "v0_3 JSON-RPC",
    package_args: &[],
    sdk_module: "a2a.compat.v0_3.conversions",
};

/// The interpreter with the SDK, or `None` (after printing why) where the test may skip.
pub fn interpreter() -> Option<PathBuf> {
    python(&SUITE)
}

fn script(python: &Path, args: &[&str], dir: &Path) -> (bool, String) {
    run_script(python, "sdk_jsonrpc_vectors.py", args, dir)
}

/// Has the SDK write its vectors into `dir` and returns the manifest's cases.
pub fn generate(python: &Path, dir: &Path) -> Vec<Value> {
    std::fs::create_dir_all(dir).expect("creating the vector directory");
    let (ok, stdout) = script(python, &["generate"], dir);
    assert!(ok, "sdk_jsonrpc_vectors.py generate failed:\n{stdout}");
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.join("manifest.json")).expect("reading the SDK's manifest"),
    )
    .expect("the manifest is JSON");
    manifest["cases"]
        .as_array()
        .expect("the manifest lists cases")
        .clone()
}

/// Writes `cases` (our outputs) to `dir/manifest.json` and has the SDK judge the given `parts`
/// (`json`, `proto`, `v1`); returns whether all passed and the script's output, whose last line is
/// `N passed, M failed`.
pub fn check(python: &Path, dir: &Path, parts: &str, cases: &[Value]) -> (bool, String) {
    std::fs::create_dir_all(dir).expect("creating the output directory");
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_vec_pretty(cases).expect("JSON"),
    )
    .expect("writing our manifest");
    script(python, &["check", "--parts", parts], dir)
}

/// How one of our outputs compares with the SDK's.
#[derive(Debug, PartialEq, Eq)]
pub enum Match {
    Exact,
    /// Equal when numbers compare by value (`12` for Python's `12.0`).
    NumbersByValue,
    /// Equal once the nulls JSON-RPC requires and the SDK's writer drops are left out (see
    /// [`without_required_nulls`]); numbers by value.
    RequiredNulls,
    /// Different: the paths where.
    Different(String),
}

/// Compares our JSON with the SDK's, saying how close they are.
pub fn compare(ours: &Value, sdk: &Value) -> Match {
    if ours == sdk {
        return Match::Exact;
    }
    if json_equivalent(ours, sdk) {
        return Match::NumbersByValue;
    }
    let (without, dropped) = without_required_nulls(ours.clone(), sdk);
    if dropped && json_equivalent(&without, sdk) {
        return Match::RequiredNulls;
    }
    Match::Different(json_differences(ours, sdk).join("; "))
}

/// Our output without the members JSON-RPC 2.0 requires and the SDK's `exclude_none` writer drops: a
/// null `id` (error responses) and a null `result` (delete responses), where the SDK's JSON has neither;
/// with whether any was there.
pub fn without_required_nulls(mut ours: Value, sdk: &Value) -> (Value, bool) {
    let mut dropped = false;
    for member in ["id", "result"] {
        if ours.get(member) == Some(&Value::Null) && sdk.get(member).is_none() {
            ours.as_object_mut()
                .expect("a member was found, so an object")
                .remove(member);
            dropped = true;
        }
    }
    (ours, dropped)
}
