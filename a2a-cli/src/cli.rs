//! The command line: subcommands and options (clap), and clap's errors reduced to one line.

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::call::args::{DiscoverArgs, GetArgs, ListArgs, PushCommand, SendArgs, TaskArgs};
use crate::checks::args::{ConformanceArgs, LoadArgs};
use crate::failure::{EXIT_STATUSES, Failure};
use crate::serve::args::ServeArgs;

/// Call Agent2Agent (A2A) agents on any binding and version, transcode A2A messages between their
/// encodings, convert between A2A v0.3 and v1, describe and sign agent cards.
#[derive(Debug, Parser)]
#[command(name = "a2a", version, arg_required_else_help = false, after_help = EXIT_STATUSES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read an agent's card from URL/.well-known/agent-card.json, check it by the card rules (every
    /// violation listed), verify its signatures (--jwks) and summarise it (--json: the card).
    Discover(DiscoverArgs),
    /// Send a message (SendMessage) and print the agent's answer: the task (state, text,
    /// artifacts) or its message.
    Send(SendArgs),
    /// Send a message (SendStreamingMessage) and print each event as it arrives.
    Stream(SendArgs),
    /// Print a task (GetTask).
    Get(GetArgs),
    /// List tasks, one page (ListTasks).
    List(ListArgs),
    /// Cancel a task (CancelTask) and print it.
    Cancel(TaskArgs),
    /// Print each event of a task as it arrives (SubscribeToTask).
    Subscribe(TaskArgs),
    /// A task's push-notification configs: set, get, list, delete.
    #[command(subcommand)]
    Push(PushCommand),
    /// Serve a web page on a loopback port for inspecting an agent in the browser: its card (checked,
    /// signatures verified with --jwks), a chat streaming its answers, its tasks, and the raw
    /// exchange on each binding; prints the page's address (with this run's token).
    Inspect(crate::inspect::InspectArgs),
    /// Serve an agent on every binding and version: an echo (--echo), another agent fronted
    /// (--proxy URL) or a command run per message (--exec CMD).
    Serve(ServeArgs),
    /// Check an agent against the specification on every binding its card declares: a table per
    /// binding, each check with its level and section (--report FILE: JSON); exit 7 when a MUST
    /// check fails.
    Conformance(ConformanceArgs),
    /// Load an agent on every binding its card declares: requests per second, p50/p99 latency,
    /// errors and lost tasks; exit 7 on an error or a lost task.
    Load(LoadArgs),
    /// Read one message from stdin in one encoding and write it to stdout in another.
    ///
    /// Exit status 1 when the input is not a valid message of the type (the one-line error names the
    /// JSON path or the byte offset at fault), 2 for a usage error; stdout stays empty on any error.
    Transcode(TranscodeArgs),
    /// Read A2A v0.3, v0.2 or v0.1 JSON (a type of that version's JSON Schema) from stdin and write its
    /// A2A v1 form.
    ///
    /// The conversion is the official SDKs' (`a2a_compat::bridge`), through each version in between;
    /// stderr names the v1 message written.
    Upgrade(BridgeArgs),
    /// Read A2A v1 JSON (ProtoJSON of an lf.a2a.v1 message) from stdin and write its A2A v0.3 form (or
    /// v0.2's, v0.1's with `--from`).
    ///
    /// The conversion is the official SDKs' (`a2a_compat::bridge`); stderr names the type written.
    Downgrade(BridgeArgs),
    /// Print every type name a command's `--type` accepts, one per line.
    ListTypes(ListTypesArgs),
    /// Describe an agent from its card (A2A v1 JSON): its OpenAPI 3.1 document (HTTP+JSON), its
    /// OpenRPC 1.3 document (JSON-RPC), or a self-contained HTML page of the OpenAPI document.
    ///
    /// Exit status 1 when the card is not valid JSON of an AgentCard or breaks the card rules (every
    /// violation is named, with its field path).
    Describe(DescribeArgs),
    /// Signed agent cards (A2A §8.4): sign a card, verify its signatures against trusted keys, print
    /// its canonical bytes (the JWS payload), or print a signing key's public JWK Set.
    #[command(subcommand)]
    Card(CardCommand),
}

/// The subcommands of `a2a card`; each reads a card (JSON) from stdin.
#[derive(Debug, Subcommand)]
pub enum CardCommand {
    /// Sign the A2A v1 card on stdin and write it, its new signature appended to `signatures`.
    Sign(SignArgs),
    /// Verify the card on stdin: exit 0 (and one line on stdout) when one of its signatures verifies
    /// with a key of the JWK Set, exit 1 with one line saying why not. A v0.3 card is verified in its
    /// v1 form, as the official SDK's client does.
    Verify(VerifyArgs),
    /// Write the canonical bytes of the card on stdin: RFC 8785 JSON without `signatures` and without
    /// empty values, exactly what a signature covers (no newline added).
    Canonicalize(CanonicalizeArgs),
    /// Write the public JWK Set of a signing key, for clients to verify with (`a2a card verify --jwks`).
    Jwks(KeyArgs),
}

/// A signing key: the PEM file, its key id and algorithm.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// The private key, PEM (PKCS#8; for RSA also PKCS#1).
    #[arg(long, value_name = "KEY.pem")]
    pub key: String,
    /// The key id signatures name (`kid`), under which clients' JWK Sets hold the public key.
    #[arg(long, value_name = "ID")]
    pub kid: String,
    /// The JWS algorithm: ES256, ES384, RS256, RS384, RS512, PS256, PS384, PS512 or EdDSA.
    #[arg(long, value_name = "ALG")]
    pub alg: String,
}

/// Options of `a2a card sign`.
#[derive(Debug, Args)]
pub struct SignArgs {
    #[command(flatten)]
    pub key: KeyArgs,
    /// The URL of the JWK Set holding the public key (`jku` in the protected header).
    #[arg(long, value_name = "URL")]
    pub jku: Option<String>,
    /// Indent the JSON output.
    #[arg(long)]
    pub pretty: bool,
}

/// Options of `a2a card verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The JWK Set of the keys to trust (a file holding `{"keys": [...]}` or one JWK).
    #[arg(long, value_name = "KEYS.json")]
    pub jwks: String,
    /// Allow only this algorithm (repeatable); every asymmetric JWS algorithm by default.
    #[arg(long, value_name = "ALG")]
    pub alg: Vec<String>,
}

/// Options of `a2a card canonicalize`.
#[derive(Debug, Args)]
pub struct CanonicalizeArgs {
    /// The card on stdin is an A2A v0.3 card: write the canonical bytes of its v1 form, which is what
    /// the official SDK 1.3.0 signs and verifies for it.
    #[arg(long = "v0-3")]
    pub v0_3: bool,
}

/// Options of `a2a describe`.
#[derive(Debug, Args)]
pub struct DescribeArgs {
    /// The agent card, A2A v1 JSON (`-` for stdin).
    #[arg(long, value_name = "PATH")]
    pub card: String,
    /// What to write.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "openapi")]
    pub format: DescribeFormat,
}

/// What `a2a describe` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DescribeFormat {
    /// OpenAPI 3.1 JSON for the agent's HTTP+JSON interfaces.
    Openapi,
    /// OpenRPC 1.3 JSON for the agent's JSON-RPC interfaces.
    Openrpc,
    /// One HTML page, no network access needed to view it.
    Html,
}

/// Options of `a2a transcode`.
#[derive(Debug, Args)]
pub struct TranscodeArgs {
    /// Full protobuf name of the message type: lf.a2a.v1.Task (A2A v1) or a2a.v1.Task (A2A v0.3's
    /// protobuf); `a2a list-types` prints all.
    #[arg(long = "type", value_name = "NAME")]
    pub type_name: String,
    /// Encoding of stdin.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: Format,
    /// Encoding of stdout.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Format,
    /// Indent JSON output (only with `--to json` or `--to proto-json`).
    #[arg(long)]
    pub pretty: bool,
}

/// Options of `a2a upgrade` and `a2a downgrade`.
#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The input's type: a v0.3 JSON Schema type such as MessageSendParams (upgrade), or a full v1 name
    /// such as lf.a2a.v1.Task (downgrade); `a2a list-types --for upgrade|downgrade` prints all.
    #[arg(long = "type", value_name = "NAME")]
    pub type_name: String,
    /// The older version: upgrade reads it (told from the document when not given: v0.1's methods,
    /// `sessionId` and parts with `type`, else v0.3), downgrade writes it (0.3 when not given). With
    /// 0.1 or 0.2, `--type` names a type of that version's JSON Schema (`SendTaskRequest`, `AgentCard`).
    #[arg(long = "from", visible_alias = "to", value_name = "0.1|0.2|0.3", value_parser = parse_older_version)]
    pub from: Option<a2a_compat::bridge::OlderVersion>,
    /// Indent the JSON output.
    #[arg(long)]
    pub pretty: bool,
}

fn parse_older_version(text: &str) -> Result<a2a_compat::bridge::OlderVersion, String> {
    a2a_compat::bridge::OlderVersion::parse(text)
        .ok_or_else(|| format!("`{text}` is not 0.1, 0.2 or 0.3"))
}

/// Options of `a2a list-types`.
#[derive(Debug, Args)]
pub struct ListTypesArgs {
    /// The command whose `--type` names to print.
    #[arg(
        long = "for",
        value_enum,
        value_name = "COMMAND",
        default_value = "transcode"
    )]
    pub command: TypesFor,
}

/// The commands that take `--type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TypesFor {
    Transcode,
    Upgrade,
    Downgrade,
}

/// An encoding of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The message's JSON form: for lf.a2a.v1 messages ProtoJSON, written by `a2a-types`; for a2a.v1
    /// (A2A v0.3) messages the JSON-RPC form the official converter pairs with the message (such as
    /// MessageSendParams for a2a.v1.SendMessageRequest). Compact and ending in a newline, or indented
    /// with `--pretty`.
    Json,
    /// ProtoJSON of the protobuf message, written by `a2a-proto` (for lf.a2a.v1 the same JSON as `json`).
    ProtoJson,
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
