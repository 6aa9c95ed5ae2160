//! `a2a conformance URL`: the conformance run of `a2a_testkit::conformance` (every operation, its
//! answers checked, each check with its level and specification section) on every binding the card
//! declares, at `--level must|should|may`. Prints a table per binding (a failed check with what was
//! wrong under it) and, with `--report FILE`, the whole report as JSON; `--json` prints that JSON
//! on stdout instead of the tables. Exit status 7 when a MUST check failed, naming it.

use std::time::Duration;

use a2a_protocol::service::ProtocolVersion;
use a2a_testkit::conformance::{ConformanceOptions, Level, Report, run_conformance};
use serde_json::json;

use super::args::{ConformanceArgs, LevelChoice};
use super::clients_per_binding;
use crate::call::connect::block_on;
use crate::failure::Failure;

/// Runs the checks on each binding and prints them; fails when a MUST check failed.
pub fn run(args: &ConformanceArgs) -> Result<Vec<u8>, Failure> {
    let level = match args.level {
        LevelChoice::Must => Level::Must,
        LevelChoice::Should => Level::Should,
        LevelChoice::May => Level::May,
    };
    if args.check_timeout == 0 {
        return Err(Failure::usage("--check-timeout: must be at least 1 second"));
    }
    let mut printer = crate::call::output::Printer::new(args.agent.json);
    let reports = block_on(async {
        let clients = clients_per_binding(&args.agent).await?;
        let mut reports = Vec::new();
        for client in &clients {
            let options = ConformanceOptions {
                extended_card_token: args.extended_card_token.clone(),
                // The webhook check reads a v1 `StreamResponse`; a v0.3 agent posts v0.3 bodies.
                push_delivery: !args.no_push_delivery
                    && client.protocol_version() == ProtocolVersion::V1_0,
                check_timeout: Duration::from_secs(args.check_timeout),
                server_rules: true,
                wire: true,
                level,
            };
            if !printer.json() {
                printer.line(&format!(
                    "{} {} at {} ({} checks and stronger)",
                    client.binding(),
                    client.protocol_version(),
                    client.interface().url,
                    level
                ))?;
            }
            let report = run_conformance(client, &options).await;
            if !printer.json() {
                printer.lines(&table(&report))?;
            }
            reports.push(report);
        }
        Ok(reports)
    })?;
    let whole = json!({
        "agent": args.agent.url,
        "level": level,
        "bindings": reports.iter().map(Report::to_json).collect::<Vec<_>>(),
    });
    if printer.json() {
        printer.json_line(&whole)?;
    }
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&whole)
            .map_err(|e| Failure::input(format!("--report: cannot write the report: {e}")))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| Failure::input(format!("--report {path}: cannot write it: {e}")))?;
    }
    let failed: Vec<String> = reports
        .iter()
        .flat_map(|report| {
            report
                .must_failures()
                .map(move |check| format!("{} {} ({})", report.binding, check.name, check.section))
        })
        .collect();
    if failed.is_empty() {
        Ok(Vec::new())
    } else {
        Err(Failure::nonconformant(format!(
            "{} MUST check(s) failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

/// One binding's table: a line per check (result, level, name, time, section), what was wrong
/// under a failed one, and the counts.
fn table(report: &Report) -> Vec<String> {
    let mut lines = vec![format!(
        "  {:<4}  {:<6}  {:<36}  {:>6}  {}",
        "", "level", "check", "ms", "section"
    )];
    for check in &report.checks {
        let mark = match &check.outcome {
            Ok(_) if check.skipped => "skip",
            Ok(_) => "pass",
            Err(_) => "FAIL",
        };
        lines.push(format!(
            "  {mark:<4}  {:<6}  {:<36}  {:>6}  {}",
            check.level.to_string(),
            check.name,
            check.elapsed.as_millis(),
            check.section
        ));
        if let Err(problem) = &check.outcome {
            lines.push(format!("        {problem}"));
        }
    }
    let failed = report.failures().count();
    let skipped = match report.skipped() {
        0 => String::new(),
        n => format!(", {n} skipped (not declared by the card)"),
    };
    lines.push(format!(
        "  {}: {}/{} passed, {failed} failed ({} MUST){skipped}",
        report.binding,
        report.passed(),
        report.checks.len() - report.skipped(),
        report.must_failures().count()
    ));
    lines
}
