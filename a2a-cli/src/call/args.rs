//! The command line of the verbs that call an agent: the options every one shares ([`AgentArgs`]:
//! the agent, its binding and version, credentials, output) and each verb's own.

use clap::{Args, Subcommand, ValueEnum};

/// How to reach the agent and how to print what it answers; every agent verb takes these.
#[derive(Debug, Args)]
pub struct AgentArgs {
    /// The agent's base URL; its card is read from URL/.well-known/agent-card.json.
    #[arg(value_name = "URL")]
    pub url: String,
    /// Use only this binding (by default the card's interfaces are tried in the order JSON-RPC,
    /// HTTP+JSON, gRPC).
    #[arg(long, value_enum, value_name = "BINDING")]
    pub binding: Option<BindingChoice>,
    /// Use only this protocol version (by default A2A v1, else v0.3 through the bridge).
    #[arg(long = "version", value_enum, value_name = "VERSION")]
    pub protocol_version: Option<VersionChoice>,
    /// A header sent with every call (gRPC metadata on gRPC), `NAME:VALUE`; repeatable.
    #[arg(long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
    /// Sent as `Authorization: Bearer TOKEN` with every call.
    #[arg(long, value_name = "TOKEN")]
    pub bearer: Option<String>,
    /// Print each answer as one ProtoJSON object per line (the A2A v1 types' JSON) instead of text
    /// for people.
    #[arg(long)]
    pub json: bool,
    /// The longest a call (or the wait for a stream's next event) may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
}

/// `--binding`: the binding to insist on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BindingChoice {
    /// JSON-RPC 2.0 over HTTP.
    #[value(alias = "json-rpc")]
    Jsonrpc,
    /// HTTP+JSON (REST).
    #[value(alias = "http+json")]
    Rest,
    /// gRPC.
    Grpc,
}

/// `--version`: the protocol version to insist on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VersionChoice {
    /// A2A v1.0.
    #[value(name = "1.0", alias = "1")]
    V1_0,
    /// A2A v0.3, through the bridge.
    #[value(name = "0.3")]
    V0_3,
}

/// Options of `a2a discover`.
#[derive(Debug, Args)]
pub struct DiscoverArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Verify the card's signatures with the keys of this JWK Set (`{"keys": [...]}` or one JWK);
    /// exit 1 when none verifies.
    #[arg(long, value_name = "KEYS.json")]
    pub jwks: Option<String>,
}

/// Options of `a2a send` and `a2a stream`.
#[derive(Debug, Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The message's text (its first part).
    #[arg(value_name = "TEXT")]
    pub text: Option<String>,
    /// Attach a file's bytes as a part (its media type guessed from its extension); repeatable.
    #[arg(long = "file", value_name = "PATH")]
    pub files: Vec<String>,
    /// Attach a JSON value as a data part; repeatable.
    #[arg(long = "data", value_name = "JSON")]
    pub data: Vec<String>,
    /// Continue this task (answering its input-required or auth-required).
    #[arg(long = "task", value_name = "ID")]
    pub task_id: Option<String>,
    /// Send within this context.
    #[arg(long = "context", value_name = "ID")]
    pub context_id: Option<String>,
    /// The message's id (a fresh one by default).
    #[arg(long = "message-id", value_name = "ID")]
    pub message_id: Option<String>,
    /// Answer at once with the task as it is, without waiting for it to finish (send only).
    #[arg(long)]
    pub return_immediately: bool,
}

/// Options of `a2a get`.
#[derive(Debug, Args)]
pub struct GetArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The task's id.
    #[arg(value_name = "TASK")]
    pub task_id: String,
    /// At most this many of the latest messages of the task's history.
    #[arg(long = "history", value_name = "N")]
    pub history_length: Option<u32>,
}

/// Options of `a2a list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Only the tasks of this context.
    #[arg(long = "context", value_name = "ID")]
    pub context_id: Option<String>,
    /// Only the tasks in this state.
    #[arg(long, value_enum, value_name = "STATE")]
    pub state: Option<StateChoice>,
    /// At most this many tasks per page.
    #[arg(long, value_name = "N")]
    pub page_size: Option<u32>,
    /// The page to read: the `next page` token a previous listing printed.
    #[arg(long, value_name = "TOKEN")]
    pub page_token: Option<String>,
}

/// `--state`: a task state, by its short name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StateChoice {
    Submitted,
    Working,
    Completed,
    Failed,
    Canceled,
    InputRequired,
    Rejected,
    AuthRequired,
}

/// Options of `a2a cancel` and `a2a subscribe`.
#[derive(Debug, Args)]
pub struct TaskArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The task's id.
    #[arg(value_name = "TASK")]
    pub task_id: String,
}

/// The subcommands of `a2a push`: a task's push-notification configs.
#[derive(Debug, Subcommand)]
pub enum PushCommand {
    /// Create a push-notification config for a task: the agent will POST its updates to WEBHOOK.
    Set(PushSetArgs),
    /// Print one push-notification config of a task.
    Get(PushConfigArgs),
    /// Print every push-notification config of a task.
    List(TaskArgs),
    /// Delete one push-notification config of a task.
    Delete(PushConfigArgs),
}

/// Options of `a2a push set`.
#[derive(Debug, Args)]
pub struct PushSetArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The task's id.
    #[arg(value_name = "TASK")]
    pub task_id: String,
    /// The URL the agent posts the task's updates to.
    #[arg(value_name = "WEBHOOK")]
    pub webhook: String,
    /// The config's id (the agent chooses one by default).
    #[arg(long = "id", value_name = "ID")]
    pub config_id: Option<String>,
    /// A token the agent sends with each notification, for the webhook to check.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// The authentication scheme the agent uses towards the webhook (such as Bearer).
    #[arg(long, value_name = "SCHEME")]
    pub auth_scheme: Option<String>,
    /// The credentials the agent sends with that scheme (needs --auth-scheme).
    #[arg(long, value_name = "CREDENTIALS", requires = "auth_scheme")]
    pub auth_credentials: Option<String>,
}

/// Options of `a2a push get` and `a2a push delete`.
#[derive(Debug, Args)]
pub struct PushConfigArgs {
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The task's id.
    #[arg(value_name = "TASK")]
    pub task_id: String,
    /// The config's id.
    #[arg(value_name = "CONFIG")]
    pub config_id: String,
}
