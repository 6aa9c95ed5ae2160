//! `a2a`: calls Agent2Agent (A2A) agents, transcodes A2A protocol messages between their JSON and
//! protobuf binary encodings, and converts documents between A2A v0.3 and v1.
//!
//! ```sh
//! a2a discover http://127.0.0.1:8080 [--jwks keys.json] [--json]   # the card, checked and summarised
//! a2a send http://127.0.0.1:8080 "Find a hotel in Lisbon" [--binding grpc] [--json]
//! a2a stream http://127.0.0.1:8080 "Find a hotel in Lisbon"        # each event as it arrives
//! a2a get|cancel|subscribe http://127.0.0.1:8080 TASK_ID
//! a2a list http://127.0.0.1:8080 --state completed --page-size 10
//! a2a push set|get|list|delete http://127.0.0.1:8080 TASK_ID ...
//! a2a inspect http://127.0.0.1:8080 [--listen 127.0.0.1:0] [--open] # the agent in the browser
//! a2a serve --echo | --proxy URL | --exec CMD [--listen 127.0.0.1:8080] [--store memory]
//! a2a conformance http://127.0.0.1:8080 [--level must|should|may] [--report report.json]
//! a2a load http://127.0.0.1:8080 [--rounds 3]                  # rps, p50/p99, errors, lost tasks
//! a2a transcode --type lf.a2a.v1.Task --from json --to binpb < task.json > task.binpb
//! a2a transcode --type lf.a2a.v1.Task --from binpb --to json --pretty < task.binpb
//! a2a transcode --type a2a.v1.SendMessageRequest --from json --to proto-json < message-send-params.json
//! a2a upgrade --type MessageSendParams < v0_3-params.json      # v0.3 JSON in, v1 JSON out
//! a2a downgrade --type lf.a2a.v1.AgentCard < card.json         # v1 JSON in, v0.3 JSON out
//! a2a list-types [--for transcode|upgrade|downgrade]
//! a2a describe --card card.json --format openapi|openrpc|html   # the agent's API documents
//! a2a card sign --key key.pem --kid key-1 --alg ES256 < card.json > signed.json
//! a2a card verify --jwks jwks.json < signed.json                # exit 0 when a signature verifies
//! a2a card canonicalize < card.json                             # the bytes a signature covers
//! a2a card jwks --key key.pem --kid key-1 --alg ES256           # the key's public JWK Set
//! ```
//!
//! `transcode` reads one message from stdin and writes it to stdout. For A2A v1 messages
//! (`lf.a2a.v1`), JSON input is parsed by the serde types of `a2a-types` and converted to the protobuf
//! type of `a2a-proto`; binary input is decoded by `a2a-proto`. Binary output is the protobuf encoding
//! of that value; JSON output is written by `a2a-types` from the protobuf value (converted back), so JSON
//! written from a JSON input and from the binary of the same message is the same text. For A2A v0.3's
//! protobuf messages (`a2a.v1`), `json` is the JSON-RPC form the official converter pairs with the
//! message. Details in the [`transcode`] module; `upgrade` and `downgrade` in [`bridge`].
//!
//! The verbs that call an agent are in [`call`]: they print as answers arrive (for people, or one
//! ProtoJSON object per line with `--json`), on the binding and version the card offers or
//! `--binding` and `--version` force. `inspect` serves a page on loopback that shows the agent's
//! card, chats with it, lists its tasks and shows the raw exchange ([`inspect`]).
//!
//! # Errors
//!
//! Every failure prints exactly one line to stderr, starting with `error: ` (`waiting: ` for a task
//! that waits for the caller). The offline verbs then leave stdout empty (their output is buffered
//! and written only on success); the agent verbs keep what they printed before. Exit status 1 means
//! the input was bad (the line names the JSON path, or the byte offset, at fault; or the agent's
//! card); 2 means the command line was (an unknown option or type name, for which a close match is
//! suggested, or a type the conversion has no counterpart for); 3 to 6 are the agent verbs' outcomes
//! (the agent answered an A2A error, could not be reached, the task ended without success, the
//! task waits for the caller), 7 an agent failing `a2a conformance` (a MUST check) or `a2a load`
//! (an error, a lost task), listed in [`failure::EXIT_STATUSES`].

mod bridge;
mod call;
mod card;
mod checks;
mod cli;
mod describe;
mod failure;
mod inspect;
mod names;
mod serve;
mod transcode;

use std::io::Write as _;
use std::process::ExitCode;

use cli::Command;
use failure::Failure;

fn main() -> ExitCode {
    let result = cli::parse().and_then(|cli| match cli.command {
        Command::Transcode(args) => transcode::run(&args, &mut std::io::stdin().lock()),
        Command::Upgrade(args) => converted(bridge::Direction::Upgrade, &args),
        Command::Downgrade(args) => converted(bridge::Direction::Downgrade, &args),
        Command::ListTypes(args) => Ok(names::list(args.command)),
        Command::Describe(args) => describe::run(&args, &mut std::io::stdin().lock()),
        Command::Card(command) => card::run(&command, &mut std::io::stdin().lock()),
        Command::Discover(args) => call::discover::run(&args),
        Command::Send(args) => call::message::send(&args),
        Command::Stream(args) => call::message::stream(&args),
        Command::Get(args) => call::tasks::get(&args),
        Command::List(args) => call::tasks::list(&args),
        Command::Cancel(args) => call::tasks::cancel(&args),
        Command::Subscribe(args) => call::tasks::subscribe(&args),
        Command::Push(command) => call::push::run(&command),
        Command::Inspect(args) => inspect::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Conformance(args) => checks::conformance::run(&args),
        Command::Load(args) => checks::load::run(&args),
    });
    match result.and_then(|output| write_stdout(&output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}: {}", failure.label(), failure.line());
            failure.exit_code()
        }
    }
}

/// Runs `upgrade` or `downgrade`, telling stderr which type the output is.
fn converted(direction: bridge::Direction, args: &cli::BridgeArgs) -> Result<Vec<u8>, Failure> {
    let (output, written_type) = bridge::run(direction, args, &mut std::io::stdin().lock())?;
    eprintln!("{written_type}");
    Ok(output)
}

/// Writes the whole output at once, after all the work has succeeded.
fn write_stdout(output: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(output)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::input(format!("cannot write stdout: {e}")))
}
