//! What a conformance run is given ([`ConformanceOptions`]) and what it gives back ([`Report`], one
//! [`Check`] per check, each with its level and section), and the run in progress that times each
//! check, leaves out those weaker than the run's level, and records as skipped those that use a
//! capability the card does not declare.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use a2a_types::v1::AgentCapabilities;

use super::requirements::{Level, capability_needed, requirement};

/// What a run needs besides the client.
#[derive(Clone, Debug)]
pub struct ConformanceOptions {
    /// The bearer token that unlocks the agent's extended card; `None` skips the extended-card checks.
    pub extended_card_token: Option<String>,
    /// Whether to check push-notification delivery: the run listens on a loopback port for the
    /// agent's webhook calls (the agent must be allowed to call 127.0.0.1).
    pub push_delivery: bool,
    /// The longest one check may take (a check makes a few calls).
    pub check_timeout: Duration,
    /// Whether to run the server rules (`conformance::server_rules`) too (the workspace's own agent follows
    /// them; the SDK's reference server does not follow all).
    pub server_rules: bool,
    /// Whether to run the raw-wire checks (`conformance::wire`: error details, SSE framing,
    /// ProtoJSON shape and `A2A-Version` handling as the bytes show them), which make requests of
    /// their own beside the client's.
    pub wire: bool,
    /// The weakest requirements to check: [`Level::Must`] makes only the MUST checks, [`Level::May`]
    /// (the default) every check.
    pub level: Level,
}

impl Default for ConformanceOptions {
    fn default() -> Self {
        ConformanceOptions {
            extended_card_token: None,
            push_delivery: true,
            check_timeout: Duration::from_secs(20),
            server_rules: false,
            wire: true,
            level: Level::May,
        }
    }
}

/// The outcome of one check.
#[derive(Clone, Debug)]
pub struct Check {
    /// What was checked, such as `stream.artifact-chunked`.
    pub name: &'static str,
    /// How strong the requirement is.
    pub level: Level,
    /// The section of the specification (or the conformance kit) the requirement comes from.
    pub section: &'static str,
    /// `Ok` with a short account of what was seen, or `Err` with what was wrong.
    pub outcome: Result<String, String>,
    /// Whether the check was not applicable and so not run: it uses a capability the card does not
    /// declare (the outcome is `Ok` and says which).
    pub skipped: bool,
    /// How long it took.
    pub elapsed: Duration,
}

/// Every check of one run, over one binding.
#[derive(Clone, Debug)]
pub struct Report {
    /// The binding the client used (`JSONRPC`, `HTTP+JSON`, `GRPC`).
    pub binding: String,
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl Report {
    /// How many checks passed (skipped ones left out).
    pub fn passed(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.outcome.is_ok() && !c.skipped)
            .count()
    }

    /// How many checks were skipped as not applicable to the card.
    pub fn skipped(&self) -> usize {
        self.checks.iter().filter(|c| c.skipped).count()
    }

    /// The checks that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.outcome.is_err())
    }

    /// Whether every check passed.
    pub fn all_passed(&self) -> bool {
        self.failures().next().is_none()
    }

    /// The failed checks of MUST requirements.
    pub fn must_failures(&self) -> impl Iterator<Item = &Check> {
        self.failures().filter(|c| c.level == Level::Must)
    }

    /// The report as JSON: the binding, the counts, and each check with its level, section,
    /// outcome (`pass`, `fail` or `skipped`), detail and time in milliseconds.
    pub fn to_json(&self) -> Value {
        let checks: Vec<Value> = self
            .checks
            .iter()
            .map(|check| {
                let (outcome, detail) = match &check.outcome {
                    Ok(detail) if check.skipped => ("skipped", detail),
                    Ok(detail) => ("pass", detail),
                    Err(problem) => ("fail", problem),
                };
                json!({
                    "name": check.name,
                    "level": check.level,
                    "section": check.section,
                    "outcome": outcome,
                    "detail": detail,
                    "elapsedMs": check.elapsed.as_millis() as u64,
                })
            })
            .collect();
        json!({
            "binding": self.binding,
            "passed": self.passed(),
            "failed": self.failures().count(),
            "skipped": self.skipped(),
            "mustFailed": self.must_failures().count(),
            "checks": checks,
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for check in &self.checks {
            let (mark, text) = match &check.outcome {
                Ok(detail) if check.skipped => ("skip", detail),
                Ok(detail) => ("pass", detail),
                Err(problem) => ("FAIL", problem),
            };
            writeln!(
                f,
                "  {mark} {:<10} {:<6} {:<36} {:>5} ms  {text}  [{}]",
                self.binding,
                check.level,
                check.name,
                check.elapsed.as_millis(),
                check.section
            )?;
        }
        write!(
            f,
            "{}: {}/{} checks passed, {} skipped",
            self.binding,
            self.passed(),
            self.checks.len() - self.skipped(),
            self.skipped()
        )
    }
}

/// What one check found: a short account of what was seen, or what was wrong.
pub(super) type CheckResult = Result<String, String>;

/// A run in progress: its options and the checks made so far.
pub(super) struct Run<'a> {
    pub(super) options: &'a ConformanceOptions,
    pub(super) report: Report,
    /// What the agent's card declares, which decides the checks that apply (section 3.3.4).
    pub(super) capabilities: AgentCapabilities,
}

impl Run<'_> {
    /// Runs one check under the run's time limit and records its outcome, with its level and
    /// section; a check weaker than the run's level is left out (not run), one that uses a
    /// capability the card does not declare is recorded as skipped (not run). The check's future is
    /// boxed: held inline, every check's state machine would sit in `run_conformance`'s future,
    /// which a debug build's test thread (2 MiB of stack) cannot hold.
    pub(super) fn check<'s>(
        &'s mut self,
        name: &'static str,
        check: impl Future<Output = CheckResult> + 's,
    ) -> Pin<Box<dyn Future<Output = ()> + 's>> {
        Box::pin(async move {
            let (level, section) = requirement(name);
            if level > self.options.level {
                return;
            }
            if let Some((_, field)) = capability_needed(name)
                .filter(|(capability, _)| !capability.is_declared(&self.capabilities))
            {
                self.report.checks.push(Check {
                    name,
                    level,
                    section,
                    outcome: Ok(format!("not applicable: the card does not declare {field}")),
                    skipped: true,
                    elapsed: Duration::ZERO,
                });
                return;
            }
            let started = Instant::now();
            let outcome = match tokio::time::timeout(self.options.check_timeout, check).await {
                Ok(outcome) => outcome,
                Err(_) => Err(format!(
                    "no answer within {} s",
                    self.options.check_timeout.as_secs_f32()
                )),
            };
            self.report.checks.push(Check {
                name,
                level,
                section,
                outcome,
                skipped: false,
                elapsed: started.elapsed(),
            });
        })
    }
}
