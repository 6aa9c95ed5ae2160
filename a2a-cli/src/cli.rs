//! The command line: subcommands and options (clap), and clap's errors reduced to one line.

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::failure::Failure;

/// Transcode Agent2Agent (A2A) protocol v1.0 messages between ProtoJSON and protobuf binary.
#[derive(Debug, Parser)]
#[command(name = "a2a", version, arg_required_else_help = false)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read one message from stdin in one encoding and write it to stdout in another.
    ///
    /// Exit status 1 when the input is not a valid message of the type (the one-line error names the
    /// JSON path or the byte offset at fault), 2 for a usage error; stdout stays empty on any error.
    Transcode(TranscodeArgs),
    /// Print the full name of every message type `--type` accepts, one per line.
    ListTypes,
}

/// Options of `a2a transcode`.
#[derive(Debug, Args)]
pub struct TranscodeArgs {
    /// Full protobuf name of the message type, such as lf.a2a.v1.Task (`a2a list-types` prints all).
    #[arg(long = "type", value_name = "NAME")]
    pub type_name: String,
    /// Encoding of stdin.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: Format,
    /// Encoding of stdout.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Format,
    /// Indent JSON output (only with `--to json`).
    #[arg(long)]
    pub pretty: bool,
}

/// An encoding of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// ProtoJSON text (UTF-8); written compact and ending in a newline, or indented with `--pretty`.
    Json,
    /// The protobuf binary encoding, as gRPC carries it (no length prefix).
    Binpb,
}

/// Parses the process arguments. `--help` and `--version` print and exit here; any other clap error
/// becomes a one-line usage [`Failure`].
pub fn parse() -> Result<Cli, Failure> {
    Cli::try_parse().map_err(|error| match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => error.exit(),
        _ => Failure::usage(one_line(&error.render().to_string())),
    })
}

/// clap's error text without the usage block and tips that follow it: the first paragraph (the
/// error and, for example, the possible values), on one line, without clap's own `error: ` prefix.
fn one_line(rendered: &str) -> String {
    let first_paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let text = first_paragraph.join(" ");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    format!("{text} (`a2a --help` for usage)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory as _;
        Cli::command().debug_assert();
    }

    #[test]
    fn usage_errors_become_one_line() {
        let error = Cli::try_parse_from([
            "a2a",
            "transcode",
            "--type",
            "lf.a2a.v1.Task",
            "--from",
            "xml",
            "--to",
            "json",
        ])
        .unwrap_err();
        let line = one_line(&error.render().to_string());
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.starts_with("invalid value 'xml' for '--from <FORMAT>'"),
            "{line}"
        );
        assert!(line.contains("json"), "{line}");
        assert!(line.contains("binpb"), "{line}");
    }
}
