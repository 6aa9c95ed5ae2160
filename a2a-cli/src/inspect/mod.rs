//! `a2a inspect [URL]`: a web page on a loopback port for looking at an agent in the browser: its
//! card (rendered, validated, signatures checked), a chat whose answers stream in, the task list with
//! each task's history and artifacts, and the raw exchange, each request and answer as it crossed the
//! wire, on the binding and version chosen in the page (JSON-RPC, HTTP+JSON or gRPC; A2A v1 or v0.3).
//!
//! The page ([`page`], embedded in the binary: plain HTML, CSS and JS modules, no build step, no CDN)
//! talks only to this command's own small HTTP API ([`api`]), which calls the agent with
//! `a2a_client` and records what the client's observer sees ([`record`]). Streamed answers reach the
//! page as server-sent events. The server listens on a loopback address only, and every request must
//! name this server by its loopback host (no DNS rebinding), come from its own origin, and the API's
//! carry the run's secret token, which only the printed page URL holds ([`guard`]): other sites the
//! browser visits cannot use the command as a proxy.

mod api;
mod guard;
mod page;
mod record;
mod state;

use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a_types::signing::CardVerifier;
use clap::Args;

use crate::call::args::AgentArgs;
use crate::call::connect::{block_on, check_url, config};
use crate::failure::Failure;
use state::Inspector;

/// Options of `a2a inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The agent's base URL, filled in on the page (another can be chosen there).
    #[arg(value_name = "URL")]
    pub url: Option<String>,
    /// Where the page is served: a loopback address and port (port 0: a free one).
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:0")]
    pub listen: String,
    /// Open the page in the system's web browser.
    #[arg(long)]
    pub open: bool,
    /// Verify the card's signatures with the keys of this JWK Set (`{"keys": [...]}` or one JWK).
    #[arg(long, value_name = "KEYS.json")]
    pub jwks: Option<String>,
    /// A header sent with every call (gRPC metadata on gRPC), `NAME:VALUE`; repeatable.
    #[arg(long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
    /// Sent as `Authorization: Bearer TOKEN` with every call.
    #[arg(long, value_name = "TOKEN")]
    pub bearer: Option<String>,
    /// The longest a call (or the wait for a stream's next event) may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
}

/// Serves the page until the process is stopped; prints its URL (with the run's token) first.
pub fn run(args: &InspectArgs) -> Result<Vec<u8>, Failure> {
    if let Some(url) = &args.url {
        check_url(url)?;
    }
    let listen: SocketAddr = args
        .listen
        .parse()
        .map_err(|e| Failure::usage(format!("--listen {}: {e}", args.listen)))?;
    if !listen.ip().is_loopback() {
        return Err(Failure::usage(format!(
            "--listen {listen}: the inspector serves a loopback address only (127.0.0.1, ::1)"
        )));
    }
    let verifier = args.jwks.as_deref().map(read_jwks).transpose()?;
    let agent = AgentArgs {
        url: args.url.clone().unwrap_or_default(),
        binding: None,
        protocol_version: None,
        headers: args.headers.clone(),
        bearer: args.bearer.clone(),
        json: false,
        timeout: args.timeout,
    };
    let client_config = config(&agent)?;
    block_on(async {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| Failure::transport(format!("--listen {listen}: cannot bind: {e}")))?;
        let address = listener
            .local_addr()
            .map_err(|e| Failure::transport(format!("--listen {listen}: {e}")))?;
        let inspector = Arc::new(Inspector::new(
            address,
            args.url.clone(),
            client_config,
            verifier,
        ));
        let page_url = inspector.page_url();
        // A closed stdout (a caller that read the address and went) does not stop the server.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "inspecting at {page_url}")
            .and_then(|()| writeln!(stdout, "(Ctrl-C stops it; the token is this run's only)"))
            .and_then(|()| stdout.flush());
        drop(stdout);
        if args.open {
            open_browser(&page_url);
        }
        axum::serve(listener, api::router(inspector))
            .await
            .map_err(|e| Failure::transport(format!("serving the page: {e}")))?;
        Ok(Vec::new())
    })
}

/// Asks the system to open `url` in its browser; a failure is reported and the server goes on.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("--open: cannot run {opener}: {e}; open the address above yourself");
    }
}

/// The JWK Set of `--jwks`.
fn read_jwks(path: &str) -> Result<CardVerifier, Failure> {
    let jwks = std::fs::read(path)
        .map_err(|e| Failure::input(format!("--jwks {path}: cannot read it: {e}")))?;
    CardVerifier::from_jwks(&jwks).map_err(|e| Failure::input(format!("--jwks {path}: {e}")))
}
