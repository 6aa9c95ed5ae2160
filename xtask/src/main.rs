//! Developer tasks for this workspace, run as `cargo xtask <task>` (see `.cargo/config.toml`).
//!
//! `main` only parses the command line and dispatches; each task lives in its own module.

mod codegen;
mod rehearsal;
mod tidy;

use std::process::ExitCode;

use codegen::{Mode, TARGETS, Target};

fn usage() -> String {
    let mut text = "usage: cargo xtask codegen [--check] [TARGET...] | cargo xtask bump-rehearsal | cargo xtask tidy

  codegen          regenerate every generated file from spec/ (or only the TARGETs named)
  codegen --check  regenerate in memory and fail if any checked-in file differs
  bump-rehearsal   grow a scratch copy's spec/v1/a2a.proto (a field on Task, int64 and uint64 fields, an
                   enum value, a oneof member, a message, an RPC with an HTTP binding), regenerate it, and
                   prove the workspace still builds and its tests name what a maintainer must add
  tidy             check the layout: a `//!` doc opening every hand-written file, no import cycle
                   between the files of any crate

targets:
"
    .to_owned();
    for target in TARGETS {
        text.push_str(&format!("  {:<16} {}\n", target.name, target.about));
    }
    text.push_str(
        "
environment:
  A2A_XTASK_ROOT   the workspace to read spec/ from and write into (default: the one xtask was built in)",
    );
    text
}

/// The mode and targets of `codegen [--check] [TARGET...]`, or what is wrong with the arguments.
fn parse_codegen(args: &[&str]) -> Result<(Mode, Vec<&'static Target>), String> {
    let mut mode = Mode::Write;
    let mut targets = Vec::new();
    for arg in args {
        match *arg {
            "--check" if mode == Mode::Write => mode = Mode::Check,
            name => targets.push(
                Target::named(name).ok_or_else(|| format!("unknown codegen target `{name}`"))?,
            ),
        }
    }
    Ok((mode, targets))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.split_first() {
        Some((&"codegen", rest)) => match parse_codegen(rest) {
            Ok((mode, targets)) => codegen::run(mode, &targets),
            Err(problem) => {
                eprintln!("error: {problem}");
                return usage_error();
            }
        },
        Some((&"bump-rehearsal", [])) => rehearsal::run(),
        Some((&"tidy", [])) => tidy::run(),
        _ => return usage_error(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error() -> ExitCode {
    eprintln!("{}", usage());
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(targets: &[&Target]) -> Vec<&'static str> {
        targets.iter().map(|t| t.name).collect()
    }

    #[test]
    fn codegen_takes_check_and_targets_in_any_order() {
        let (mode, targets) = parse_codegen(&[]).unwrap();
        assert_eq!((mode, names(&targets)), (Mode::Write, vec![]));
        let (mode, targets) = parse_codegen(&["--check"]).unwrap();
        assert_eq!((mode, names(&targets)), (Mode::Check, vec![]));
        let (mode, targets) = parse_codegen(&["types-v1", "--check", "proto-v0_3"]).unwrap();
        assert_eq!(
            (mode, names(&targets)),
            (Mode::Check, vec!["types-v1", "proto-v0_3"])
        );
    }

    #[test]
    fn unknown_targets_and_repeated_flags_are_usage_errors() {
        assert_eq!(
            parse_codegen(&["types"]).err().unwrap(),
            "unknown codegen target `types`"
        );
        assert!(parse_codegen(&["--check", "--check"]).is_err());
        assert!(parse_codegen(&["--write"]).is_err());
        // The usage text lists every target.
        let usage = usage();
        assert!(TARGETS.iter().all(|t| usage.contains(t.name)));
    }
}
