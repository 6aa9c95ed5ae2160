//! `a2a load` against the example agent at a small scale, on every binding its card declares: the
//! JSON line (a cell per binding and operation, each with its calls, no error, requests per second
//! and p50 ≤ p99; every task made read back, none lost) and the table for people.

use std::time::Duration;

use crate::agent::{Agent, a2a};

const SCALE: [&str; 6] = [
    "--rounds",
    "2",
    "--send-calls",
    "20",
    "--stream-calls",
    "10",
];

#[test]
fn a_small_load_on_every_binding_loses_nothing() {
    let agent = Agent::start(Duration::from_millis(500));
    let mut args = vec!["load", agent.url.as_str(), "--json"];
    args.extend(SCALE);
    let run = a2a(&args);
    run.ok();
    let report = &run.json_lines()[0];
    let cells = report["cells"].as_array().unwrap();
    let seen: Vec<(&str, &str)> = cells
        .iter()
        .map(|c| {
            (
                c["binding"].as_str().unwrap(),
                c["operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("JSONRPC", "SendMessage"),
            ("JSONRPC", "streamed task"),
            ("HTTP+JSON", "SendMessage"),
            ("HTTP+JSON", "streamed task"),
            ("GRPC", "SendMessage"),
            ("GRPC", "streamed task"),
        ]
    );
    for cell in cells {
        let calls = if cell["operation"] == "SendMessage" {
            40
        } else {
            20
        };
        assert_eq!(
            (cell["calls"].as_u64(), cell["errors"].as_u64()),
            (Some(calls), Some(0)),
            "{cell}"
        );
        assert!(cell["rps"]["median"].as_f64().unwrap() > 0.0, "{cell}");
        assert!(
            cell["p50Ms"].as_f64().unwrap() <= cell["p99Ms"].as_f64().unwrap(),
            "{cell}"
        );
    }
    // Warm-up batches of 8 per binding and operation, then the rounds.
    assert_eq!(report["tasks"], 3 * 2 * 8 + 3 * (40 + 20));
    assert_eq!(
        (report["lost"].as_u64(), report["errors"].as_u64()),
        (Some(0), Some(0))
    );

    let mut args = vec!["load", agent.url.as_str()];
    args.extend(SCALE);
    let run = a2a(&args);
    run.ok();
    let lines = run.lines();
    assert!(
        lines[1].starts_with("| binding | operation | calls | errors | rps"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 1 + 2 + 6 + 1, "{lines:?}");
    assert!(
        lines[3].starts_with("| JSONRPC | SendMessage | 40 | 0 | "),
        "{lines:?}"
    );
    assert!(
        lines[9].ends_with(" lost (read back over another binding), 0 errors"),
        "{lines:?}"
    );
}
