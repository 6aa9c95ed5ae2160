//! `a2a serve`: an agent on the server crate (`a2a_server`), on every binding (JSON-RPC at
//! `/jsonrpc`, HTTP+JSON under `/rest`, gRPC on a port of its own) and both protocol versions (A2A
//! v1 and v0.3), its tasks in the store `--store` names (`a2a_testkit::stores`). The agent is one
//! of three:
//!
//! - `--echo` ([`echo`]): each message answered with its own parts;
//! - `--proxy URL` ([`proxy`]): another agent fronted, whatever version and binding it speaks;
//! - `--exec CMD` ([`exec`]): a command run per message, its output streamed as artifact chunks.
//!
//! Once both listeners accept connections it prints one line on stdout, `listening on URL (gRPC
//! HOST:PORT)`, then serves until killed.

pub mod args;
mod card;
mod echo;
mod exec;
mod proxy;

use std::io::Write as _;
use std::net::SocketAddr;

use a2a_server::{A2aServer, AgentExecutor, ServerConfig, WebhookPolicy};
use a2a_types::v1::AgentCard;
use tokio::net::TcpListener;

use crate::failure::Failure;
use args::ServeArgs;

/// Serves the agent the options name until the process is killed.
pub fn run(args: &ServeArgs) -> Result<Vec<u8>, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::transport(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<Vec<u8>, Failure> {
    let http = bind("--listen", args.listen).await?;
    let http_addr = local_addr(&http)?;
    let grpc_wanted = args
        .grpc_listen
        .unwrap_or_else(|| SocketAddr::new(http_addr.ip(), 0));
    let grpc = bind("--grpc-listen", grpc_wanted).await?;
    let grpc_addr = local_addr(&grpc)?;
    let store = args
        .store
        .open()
        .await
        .map_err(|e| Failure::input(format!("--store {}: {e}", args.store)))?;
    let addresses = card::Addresses {
        http: http_addr,
        grpc: grpc_addr,
    };
    let server = if args.echo {
        let card = card::own(
            args.name.as_deref().unwrap_or("a2a serve --echo"),
            ECHO_ABOUT,
            &addresses,
        )?;
        build(card, echo::Echo, store, http_addr)
    } else if let Some(command) = &args.exec {
        let about = format!("Runs `{command}` for each message and streams what it prints.");
        let card = card::own(
            args.name.as_deref().unwrap_or("a2a serve --exec"),
            &about,
            &addresses,
        )?;
        build(card, exec::Exec::new(command), store, http_addr)
    } else if let Some(url) = &args.proxy {
        let upstream = proxy::connect(url, args).await?;
        let card = card::fronting(upstream.card(), args.name.as_deref(), &addresses)?;
        build(card, proxy::Proxy::new(upstream), store, http_addr)
    } else {
        return Err(Failure::usage(
            "a2a serve: one of --echo, --proxy URL or --exec CMD",
        ));
    };
    let serving = server
        .serve(http, grpc)
        .await
        .map_err(|e| Failure::transport(format!("cannot serve: {e}")))?;
    let ready = format!(
        "listening on {} (gRPC {})\n",
        serving.base_url(),
        serving.grpc_addr()
    );
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(ready.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::input(format!("cannot write stdout: {e}")))?;
    drop(stdout);
    serving.wait().await;
    Err(Failure::transport("the server stopped"))
}

/// What the echo agent's card says it does.
const ECHO_ABOUT: &str =
    "Answers each message with a completed task whose artifact holds the message's parts.";

/// The server of `executor` on `store`, serving `card`. Served on loopback (the default), it
/// accepts webhooks on loopback and plain `http` too, as a server for development does; otherwise
/// public `https` webhooks only.
fn build(
    card: AgentCard,
    executor: impl AgentExecutor,
    store: a2a_testkit::stores::OpenedStore,
    http: SocketAddr,
) -> A2aServer {
    let mut config = ServerConfig::default();
    if http.ip().is_loopback() {
        config.webhook_policy = WebhookPolicy::local_development();
    }
    store
        .install(A2aServer::builder(card, executor).config(config))
        .build()
}

async fn bind(option: &str, address: SocketAddr) -> Result<TcpListener, Failure> {
    TcpListener::bind(address)
        .await
        .map_err(|e| Failure::usage(format!("{option} {address}: cannot listen there: {e}")))
}

fn local_addr(listener: &TcpListener) -> Result<SocketAddr, Failure> {
    listener
        .local_addr()
        .map_err(|e| Failure::transport(format!("the listener's address: {e}")))
}
