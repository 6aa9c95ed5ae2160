//! Interoperability with the official A2A Python SDK (`a2a-sdk`, pinned in `tests/interop/requirements.txt`)
//! for A2A v0.3's JSON-RPC payloads, read and written by `a2a_compat::v0_3`.
//!
//! `tests/interop/sdk_jsonrpc_vectors.py generate` has the SDK's pydantic models write payloads of every
//! schema type: every method's request (string and integer ids), success and error responses, every
//! error code, every Part kind, event, task state, security scheme and OAuth flow, plus lenient input the
//! SDK accepts. For each, we read `json` as its schema type and write it back: the result must equal the
//! SDK's canonical JSON (`expected_json`). Then `check --parts json` has the SDK read every one of our
//! outputs strictly and compare it with the model it built.
//!
//! Two differences are by design and counted, not failed: we write `"id": null` in an error response and
//! `"result": null` in a delete response, which the SDK's `exclude_none` drops (JSON-RPC 2.0 requires
//! both members; the SDK cannot read its own delete response back). A few lenient inputs are declined
//! by design ([`DECLINED`]); each must still fail with an error, and each is listed.
//!
//! Skips with a message without the SDK's interpreter, except under `CI=true`, where it fails.

use a2a_compat::v0_3;
use a2a_tests::jsonrpc_interop;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use serde_json::{Value, json};

/// Lenient SDK inputs we reject on purpose: (schema type, case, why).
const DECLINED: &[(&str, &str, &str)] = &[
    (
        "TaskQueryParams",
        "lenient_history_length_string",
        "a string where the schema says integer: pydantic's lax mode converts it, the schema does not allow it",
    ),
    (
        "MessageSendConfiguration",
        "lenient_blocking_string",
        "\"true\" for a boolean and 5.0 for an integer: pydantic's lax mode converts them, the schema does not allow them",
    ),
    (
        "FilePart",
        "lenient_bytes_and_uri",
        "a file with both `bytes` and `uri`: the SDK keeps the bytes and silently drops the uri; we report the ambiguity",
    ),
    (
        "JSONRPCErrorResponse",
        "lenient_error_without_message",
        "an error object without `message`, which JSON-RPC 2.0 requires: the SDK reads it as a TaskNotFoundError with a default message",
    ),
];

/// Reads one case as its schema type and writes it back.
struct ReadWrite<'a> {
    json: &'a Value,
}

impl SchemaTypeVisitor for ReadWrite<'_> {
    type Output = Result<Value, String>;

    fn visit<T: SchemaType>(self) -> Result<Value, String> {
        let parsed: T = serde_path_to_error::deserialize(self.json)
            .map_err(|e| format!("at `{}`: {}", e.path(), e.inner()))?;
        serde_json::to_value(&parsed).map_err(|e| e.to_string())
    }
}

#[test]
fn every_jsonrpc_vector_of_the_python_sdk_reads_and_writes_back_and_the_sdk_reads_our_output() {
    let Some(python) = jsonrpc_interop::interpreter() else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("jsonrpc_interop_v0_3");
    let cases = jsonrpc_interop::generate(&python, &dir.join("sdk"));
    let mut failures = Vec::new();
    let mut declined = Vec::new();
    let mut required_nulls = Vec::new();
    let mut ours = Vec::new();
    let mut passed = 0;
    let mut types = std::collections::BTreeSet::new();
    for case in &cases {
        let schema_type = case["schema_type"].as_str().unwrap();
        let name = case["case"].as_str().unwrap();
        let label = format!("{schema_type} {name}");
        types.insert(schema_type.to_owned());
        let result = v0_3::visit_schema_type(
            schema_type,
            ReadWrite {
                json: &case["json"],
            },
        )
        .unwrap_or_else(|| Err(format!("no type for schema type {schema_type}")));
        let decline = DECLINED
            .iter()
            .find(|(t, c, _)| *t == schema_type && *c == name);
        match (result, decline) {
            (Err(error), Some((_, _, why))) => {
                declined.push(format!("{label}: {why} (our error: {error})"));
                ours.push(json!({"schema_type": schema_type, "case": name, "declined": why}));
            }
            (Ok(written), Some(_)) => failures.push(format!(
                "{label}: declined by design, yet accepted as {written}"
            )),
            (Err(error), None) => failures.push(format!("{label}: {error}")),
            (Ok(written), None) => {
                let (comparable, dropped) = jsonrpc_interop::without_required_nulls(
                    written.clone(),
                    &case["expected_json"],
                );
                if dropped {
                    required_nulls.push(label.clone());
                }
                if comparable == case["expected_json"] {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{label}: we wrote {comparable}, the SDK {}",
                        case["expected_json"]
                    ));
                }
                ours.push(json!({"schema_type": schema_type, "case": name, "json": written}));
            }
        }
    }
    let mut every_type: Vec<&str> = v0_3::SCHEMA_TYPES.to_vec();
    every_type.retain(|t| !types.contains(*t));
    assert!(
        every_type.is_empty(),
        "schema types without SDK vectors: {every_type:?}"
    );

    let (sdk_ok, sdk_output) = jsonrpc_interop::check(&python, &dir.join("ours"), "json", &ours);
    let sdk_summary = sdk_output.lines().last().unwrap_or_default().to_owned();
    eprintln!(
        "interop v0_3 JSON-RPC: {} SDK vectors over {} schema types; {passed} read and written back \
         exactly; {} declined by design; {} with a JSON-RPC-required null the SDK leaves out; {} failed; \
         the SDK read our output: {sdk_summary}",
        cases.len(),
        types.len(),
        declined.len(),
        required_nulls.len(),
        failures.len()
    );
    for line in &declined {
        eprintln!("  declined: {line}");
    }
    for line in &required_nulls {
        eprintln!("  required null written: {line}");
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(
        declined.len(),
        DECLINED.len(),
        "a declined case is missing from the SDK's vectors"
    );
    assert!(sdk_ok, "the SDK rejected our output:\n{sdk_output}");
}
