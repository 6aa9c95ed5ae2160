//! What the conformance run against the official JS SDK 1.3.0's server is expected to see besides
//! passes: checks expected to fail with a given problem, each saying why, so the test fails both
//! when another check fails and when a departure's check fails otherwise (or, for the SDK's own
//! departures, passes: the SDK changed).
//!
//! Over v0.3 the SDK departs on HTTP+JSON and gRPC: a file part loses its name (its v0.3 protobuf
//! messages lack `FilePart.name`), and over gRPC a GetTask without `historyLength` answers no
//! history; ListTasks has no v0.3 method at all; and the webhook check is left out, since a
//! config registered over v0.3 is called with the v0.3 body, not the `StreamResponse` it reads.
//!
//! Over v1 the SDK departs from the specification in nothing the run checks: every check passes,
//! the webhook check included (it asks for `Authorization` with the config's credentials, all that
//! §4.3.3 names).

use std::process::{Command, Stdio};

use a2a_client::Binding;
use a2a_protocol::service::ProtocolVersion;
use a2a_testkit::conformance::Report;

/// A check expected to fail, what its failure must say, and why.
pub struct Departure {
    pub check: &'static str,
    pub problem: &'static str,
    pub why: Why,
}

/// Whose departure it is.
pub enum Why {
    /// The SDK departs from this section: the check must fail.
    Sdk(&'static str),
    /// The operation has no v0.3 counterpart, which the client says before sending anything.
    NotInV0_3,
}

/// The v0.3 `a2a.proto` gives `FilePart` a `name` (field 4); the SDK's v0.3 protobuf messages, and
/// so its v0.3 gRPC and HTTP+JSON, have no such field, and a file part loses its name.
const NO_FILE_NAME: &str = "v0.3 a2a.proto FilePart.name (field 4)";

/// The departures expected over `binding` in `version`.
pub fn expected(version: ProtocolVersion, binding: Binding) -> Vec<Departure> {
    let departure = |check, problem, why| Departure {
        check,
        problem,
        why,
    };
    if version == ProtocolVersion::V1_0 {
        return Vec::new();
    }
    let no_v0_3_list = "ListTasks has no A2A v0.3 counterpart";
    let mut departures = vec![
        departure("list.context-status-paging", no_v0_3_list, Why::NotInV0_3),
        departure(
            "error.list-negative-page-size",
            no_v0_3_list,
            Why::NotInV0_3,
        ),
        departure("list.newest-first", no_v0_3_list, Why::NotInV0_3),
        departure("list.artifacts-omitted", no_v0_3_list, Why::NotInV0_3),
    ];
    if binding != Binding::JsonRpc {
        departures.extend([
            // The bytes, "Generated file content", come back exactly; only the name is lost.
            departure(
                "send.artifact-file",
                "Raw([71, 101, 110, 101, 114, 97, 116, 101, 100, 32, 102, 105, 108, 101, 32, 99, \
                 111, 110, 116, 101, 110, 116])), metadata: None, filename: None",
                Why::Sdk(NO_FILE_NAME),
            ),
            departure(
                "send.artifact-file-url",
                "filename: None",
                Why::Sdk(NO_FILE_NAME),
            ),
            departure(
                "stream.artifact-file",
                "no file part output.txt",
                Why::Sdk(NO_FILE_NAME),
            ),
        ]);
    }
    if binding == Binding::Grpc {
        // The v0.3 proto's `GetTaskRequest.history_length` has no presence, so its 0 is also the
        // unset value, which the JSON-RPC form's optional `TaskQueryParams.historyLength` leaves
        // meaning "no limit"; the SDK applies it as "no messages" and answers an empty history.
        departures.push(departure(
            "get.history-length",
            "without historyLength: 0 history messages",
            Why::Sdk("v0.3 a2a.proto GetTaskRequest.history_length"),
        ));
    }
    departures
}

/// What is wrong with `report` given the `departures`: a check failing that is not a departure, a
/// departure passing or failing with another problem.
pub fn unexpected(report: &Report, departures: &[Departure]) -> Vec<String> {
    let mut wrong = Vec::new();
    for check in &report.checks {
        let departure = departures.iter().find(|d| d.check == check.name);
        match (&check.outcome, departure) {
            (Ok(_), None) => {}
            (Err(problem), None) => wrong.push(format!(
                "{} {}: failed: {problem}",
                report.binding, check.name
            )),
            (Err(problem), Some(d)) if problem.contains(d.problem) => {}
            (outcome, Some(d)) => {
                let why = match d.why {
                    Why::Sdk(section) => format!("the SDK departs from {section}"),
                    Why::NotInV0_3 => "no v0.3 counterpart".to_owned(),
                };
                wrong.push(format!(
                    "{} {}: expected to fail with {:?} ({why}), got {outcome:?}",
                    report.binding, check.name, d.problem
                ))
            }
        }
    }
    for departure in departures {
        if !report.checks.iter().any(|c| c.name == departure.check) {
            wrong.push(format!(
                "{}: the departure's check {} did not run",
                report.binding, departure.check
            ));
        }
    }
    wrong
}

/// Whether `node` runs and the JS SDK is installed; without them the test says so and skips,
/// except under `CI=true`, where it fails.
pub fn node_and_sdk_installed() -> bool {
    let runs = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|output| output.status.success());
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/interop/js-sdk/node_modules/@a2a-js/sdk");
    let why = if !runs {
        "`node` is not on PATH"
    } else if !package.exists() {
        "the JS SDK is not installed (run `npm ci` in tests/interop/js-sdk)"
    } else {
        return true;
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "the conformance run against the JS SDK server: {why} (CI=true)"
    );
    eprintln!("skipping the conformance run against the JS SDK server: {why}");
    false
}
