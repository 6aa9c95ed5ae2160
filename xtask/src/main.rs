//! Developer tasks for this workspace, run as `cargo xtask <task>` (see `.cargo/config.toml`).
//!
//! `main` only parses the command line and dispatches; each task lives in its own module.

mod codegen;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask codegen [--check]

  codegen          regenerate every generated file from spec/
  codegen --check  regenerate in memory and fail if any checked-in file differs

environment:
  A2A_XTASK_ROOT   the workspace to read spec/ from and write into (default: the one xtask was built in)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(codegen::Mode::Write),
        ["codegen", "--check"] => codegen::run(codegen::Mode::Check),
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
