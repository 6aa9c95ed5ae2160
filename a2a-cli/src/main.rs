//! `a2a`: transcodes Agent2Agent (A2A) protocol v1.0 messages between ProtoJSON and the protobuf binary
//! encoding.
//!
//! ```sh
//! a2a transcode --type lf.a2a.v1.Task --from json --to binpb < task.json > task.binpb
//! a2a transcode --type lf.a2a.v1.Task --from binpb --to json --pretty < task.binpb
//! a2a list-types
//! ```
//!
//! `transcode` reads one message from stdin and writes it to stdout. JSON input is parsed by the serde
//! types of `a2a-types` and converted to the protobuf type of `a2a-proto`; binary input is decoded by
//! `a2a-proto`. Binary output is the protobuf encoding of that value; JSON output is written by
//! `a2a-types` from the protobuf value (converted back), so JSON written from a JSON input and from
//! the binary of the same message is the same text. Details in the [`transcode`] module.
//!
//! # Errors
//!
//! Every failure prints exactly one line to stderr, starting with `error: `, and nothing to stdout
//! (output is buffered and written only on success). Exit status 1 means the input was bad (the line
//! names the JSON path, or the byte offset, at fault); 2 means the command line was (an unknown
//! option or message type; a close match is suggested).

mod cli;
mod failure;
mod names;
mod transcode;
mod wire;

use std::io::Write as _;
use std::process::ExitCode;

use cli::Command;
use failure::Failure;

fn main() -> ExitCode {
    let result = cli::parse().and_then(|cli| match cli.command {
        Command::Transcode(args) => transcode::run(&args, &mut std::io::stdin().lock()),
        Command::ListTypes => Ok(names::list()),
    });
    match result.and_then(|output| write_stdout(&output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.line());
            failure.exit_code()
        }
    }
}

/// Writes the whole output at once, after all the work has succeeded.
fn write_stdout(output: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(output)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::input(format!("cannot write stdout: {e}")))
}
