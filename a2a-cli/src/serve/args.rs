//! The command line of `a2a serve`: which agent to serve (`--echo`, `--proxy URL`, `--exec CMD`),
//! where (`--listen`, `--grpc-listen`), on which store (`--store`), and how to reach the agent a
//! proxy fronts.

use std::net::SocketAddr;

use a2a_testkit::stores::StoreChoice;
use clap::{ArgGroup, Args};

use crate::call::args::{BindingChoice, VersionChoice};

/// Options of `a2a serve`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("agent").required(true).args(["echo", "proxy", "exec"])))]
pub struct ServeArgs {
    /// Answer each message with a completed task whose artifact holds the message's parts.
    #[arg(long)]
    pub echo: bool,
    /// Front the agent at URL (any version and binding its card offers): each message goes on to
    /// it, its answers come back as this agent's, on every binding and version this agent serves.
    #[arg(long, value_name = "URL")]
    pub proxy: Option<String>,
    /// Run CMD with `sh -c` for each message: the message's text on its standard input, its
    /// standard output streamed back as artifact chunks, its exit status the task's end (0
    /// completed, anything else failed, with the end of its standard error).
    #[arg(long, value_name = "CMD")]
    pub exec: Option<String>,
    /// The address of the card, JSON-RPC (`/jsonrpc`) and HTTP+JSON (`/rest`); loopback unless
    /// told otherwise.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The address of gRPC (by default a free port on the host of --listen).
    #[arg(long, value_name = "ADDRESS")]
    pub grpc_listen: Option<SocketAddr>,
    /// Where tasks are kept: memory, sqlite:PATH or postgres://user@host:port/database.
    #[arg(long, value_name = "STORE", default_value = "memory")]
    pub store: StoreChoice,
    /// The agent's name on its card (by default `a2a serve --echo`, `--exec`, or the fronted
    /// agent's own name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Reach the fronted agent over this binding only.
    #[arg(long, value_enum, value_name = "BINDING", requires = "proxy")]
    pub proxy_binding: Option<BindingChoice>,
    /// Reach the fronted agent in this protocol version only.
    #[arg(long, value_enum, value_name = "VERSION", requires = "proxy")]
    pub proxy_version: Option<VersionChoice>,
    /// A header sent with every call to the fronted agent, `NAME:VALUE`; repeatable.
    #[arg(long = "proxy-header", value_name = "NAME:VALUE", requires = "proxy")]
    pub proxy_headers: Vec<String>,
    /// Sent to the fronted agent as `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "TOKEN", requires = "proxy")]
    pub proxy_bearer: Option<String>,
    /// The longest the fronted agent may stay silent during a task, in seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 300,
        requires = "proxy"
    )]
    pub proxy_timeout: u64,
}
