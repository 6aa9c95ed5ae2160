//! The command lines of `a2a conformance` and `a2a load`.

use clap::{Args, ValueEnum};

use crate::call::args::AgentArgs;

/// Options of `a2a conformance`.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The weakest requirements to check: must, should (and must), or may (everything).
    #[arg(long, value_enum, value_name = "LEVEL", default_value = "must")]
    pub level: LevelChoice,
    /// Also write the whole report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// The bearer token that unlocks the agent's extended card (without it that check is left out).
    #[arg(long, value_name = "TOKEN")]
    pub extended_card_token: Option<String>,
    /// Leave out the push delivery check (it serves a webhook on 127.0.0.1, which only an agent on
    /// this machine can call).
    #[arg(long)]
    pub no_push_delivery: bool,
    /// The longest one check may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    pub check_timeout: u64,
}

/// `--level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelChoice {
    Must,
    Should,
    May,
}

/// Options of `a2a load`.
#[derive(Debug, Args)]
pub struct LoadArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Batches of each operation on each binding.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub rounds: usize,
    /// SendMessage calls per batch.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub send_calls: usize,
    /// Streamed tasks per batch.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub stream_calls: usize,
}
