//! Developer tasks for this workspace, run as `cargo xtask <task>` (see `.cargo/config.toml`).
//!
//! `main` only parses the command line and dispatches; each task lives in its own module.

mod codegen;
mod rehearsal;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask codegen [--check] | cargo xtask bump-rehearsal

  codegen          regenerate every generated file from spec/
  codegen --check  regenerate in memory and fail if any checked-in file differs
  bump-rehearsal   grow a scratch copy's spec/v1/a2a.proto (new field, enum value, oneof member, message,
                   int64 fields, RPC), regenerate it and prove the workspace still builds and tests it";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(codegen::Mode::Write),
        ["codegen", "--check"] => codegen::run(codegen::Mode::Check),
        ["bump-rehearsal"] => rehearsal::run(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
