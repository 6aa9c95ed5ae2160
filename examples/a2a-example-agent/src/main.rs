//! `a2a-example-agent --listen 127.0.0.1:PORT [--grpc-listen 127.0.0.1:PORT] [--max-bytes N] [--max-elements N]
//! [--store S]`: serves the example agent until killed. HTTP (card, JSON-RPC, HTTP+JSON) on PORT, gRPC on
//! `--grpc-listen` or else the next free port; the card says which. (A fixed gRPC port lets an agent
//! restarted on the same store keep the card its clients already read.) The two options set the decode budget of every request body (`Config::limits`; by
//! default `a2a_protocol::limits::Limits::default()`, 16 MiB and 100,000 JSON values).
//! `--store` says where tasks are kept (`a2a_testkit::stores`): without it, the SQLite file
//! `a2a-example-agent/tasks.sqlite3` in the system's temporary directory. `--keep-ended SECONDS`
//! has a SQLite or PostgreSQL store remove tasks that are over that long after their last change,
//! instead of after 7 days.
//! `--oidc-issuer URL --oidc-audience AUD` protects every operation with OpenID Connect bearer
//! tokens of that provider for that audience, `--api-key KEY` with `X-API-Key: KEY` (either
//! suffices when both are given); the card declares them. `--rate-per-caller N` refuses a caller
//! (its principal, else its address) over N requests a second, `--streams-per-caller N` one with N
//! streams open (`a2a_server::limits`). `--tls-cert PEM --tls-key PEM` serves both listeners over
//! TLS; `--mtls-roots PEM` then requires client certificates issued under those roots, the
//! certificate naming the caller (the card declares the scheme `mtls`).
//!
//! `a2a-example-agent --help`: the usage and the stores, on standard output.
//!
//! `a2a-example-agent --demo`: the workspace's main job ([`a2a_example_agent::demo`]): the agent on
//! free loopback ports, driven by the workspace's client over each binding, the exchange printed;
//! exits non-zero when an answer is not the expected one.
//!
//! `a2a-example-agent --load [--record] [PYTHON]`: the load test (`a2a_testkit::load`)
//! against this agent and, with a Python that has the official SDK (`PYTHON` or
//! `A2A_INTEROP_PYTHON`), against the SDK's own server (and a2a-server-lf's when built); CI's short
//! scale, or with `--record` the scale of the figures of record (run it `--release`); exits non-zero
//! on an error, a lost task or memory over its bounds.
//!
//! `a2a-example-agent --load-profile AGENT [CALLS]`: the agent binary `AGENT` under callgrind, its
//! instructions per SendMessage on each binding (`a2a_testkit::load::profile`).

use std::net::SocketAddr;

use tokio::net::TcpListener;

use a2a_example_agent::server::{self, Config, OidcSettings, TlsSettings};
use a2a_testkit::stores::BadStore;

/// mimalloc instead of glibc's allocator: the server frees on one worker thread much of what it
/// allocated on another (a task evicted, a request's values), which glibc's per-thread arenas pay
/// for in locks; measured under load, a request costs about a fifth less CPU with a thread-caching
/// allocator (see the stores' figures in the workspace's `PERFORMANCE.md`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What `--help` prints after the usage line.
const STORES_HELP: &str = "\
--store memory            tasks in this process's memory, lost when it stops
--store sqlite:PATH       tasks in the SQLite file PATH (created when missing), kept across restarts
--store postgres://URL    tasks in PostgreSQL, shared by every replica given the same URL
(no --store)              the SQLite file a2a-example-agent/tasks.sqlite3 in the system's temporary
                          directory ($TMPDIR, else /tmp)
--keep-ended SECONDS      on SQLite and PostgreSQL, tasks that are over go SECONDS after their last
                          change instead of after 7 days (checked every 5 minutes; on SQLite also
                          after each write, as they come due)

--oidc-issuer URL --oidc-audience AUD
                          every operation needs `Authorization: Bearer <JWT>`, an access token of
                          the OpenID provider URL (found by discovery, keys from its JWKS) for the
                          audience AUD; the card declares the scheme `oidc`
--api-key KEY             every operation needs `X-API-Key: KEY` (or, with --oidc-issuer, either);
                          the card declares the scheme `apiKey`
(neither)                 anonymous callers are served; the extended card needs its bearer token

--rate-per-caller N       a caller (its principal, else its address) over N requests a second is
                          refused: HTTP 429 with Retry-After, gRPC RESOURCE_EXHAUSTED
--streams-per-caller N    a caller with N streams open is refused another, as above

--tls-cert PEM --tls-key PEM
                          HTTPS and gRPC over TLS with this certificate chain and private key (PEM
                          files); the card's URLs are https
--mtls-roots PEM          with --tls-cert: mutual TLS, every client must present a certificate
                          issued under these roots (a PEM file); the certificate's common name (or
                          first DNS/URI alternative name) names the caller, so callers with
                          different certificates never see each other's tasks; the card declares
                          the scheme `mtls`";

/// Binds `option`'s `address`: the example serves loopback addresses only.
async fn bind(option: &str, address: &str) -> TcpListener {
    let parsed: SocketAddr = address
        .parse()
        .unwrap_or_else(|e| fail(&format!("{option} {address}: {e}")));
    if !parsed.ip().is_loopback() {
        fail("the example agent listens on a loopback address only, such as 127.0.0.1:8000");
    }
    TcpListener::bind(parsed)
        .await
        .unwrap_or_else(|e| fail(&format!("binding {address}: {e}")))
}

/// The contents of the PEM file `path`, given to `option`.
fn read_pem(option: &str, path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{option} {path}: {e}")))
}

fn fail(message: &str) -> ! {
    eprintln!("a2a-example-agent: {message}");
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let usage = "usage: a2a-example-agent --listen 127.0.0.1:PORT [--grpc-listen 127.0.0.1:PORT] [--max-bytes N] [--max-elements N] [--store memory|sqlite:PATH|postgres://URL] [--keep-ended SECONDS] [--oidc-issuer URL --oidc-audience AUD] [--api-key KEY] [--rate-per-caller N] [--streams-per-caller N] [--tls-cert PEM --tls-key PEM [--mtls-roots PEM]] [--one-caller] [--no-loopback-webhooks] | --demo | --load [--record] [PYTHON] | --load-profile AGENT [CALLS] | --help";
    let mut config = Config::default();
    let mut grpc_address = None;
    let (mut oidc_issuer, mut oidc_audience) = (None, None);
    let (mut tls_cert, mut tls_key, mut mtls_roots) = (None, None, None);
    let address = match args[..] {
        ["--listen", address, ref options @ ..] => {
            let mut options = options.to_vec();
            if let Some(at) = options.iter().position(|o| *o == "--one-caller") {
                options.remove(at);
                config.per_caller_caps = false;
            }
            if let Some(at) = options.iter().position(|o| *o == "--no-loopback-webhooks") {
                options.remove(at);
                // As a deployment's guard: only the scheme stays relaxed (`http` accepted), so
                // the address checks are what a test of them meets.
                config.webhook_policy.allow_loopback = false;
            }
            if options.len() % 2 != 0 {
                fail(usage);
            }
            for pair in options.chunks(2) {
                if pair[0] == "--store" {
                    config.store = pair[1]
                        .parse()
                        .unwrap_or_else(|e: BadStore| fail(&e.to_string()));
                    continue;
                }
                match pair[0] {
                    "--grpc-listen" => grpc_address = Some(pair[1]),
                    "--oidc-issuer" => oidc_issuer = Some(pair[1].to_owned()),
                    "--oidc-audience" => oidc_audience = Some(pair[1].to_owned()),
                    "--api-key" => config.api_key = Some(pair[1].to_owned()),
                    "--tls-cert" => tls_cert = Some(read_pem(pair[0], pair[1])),
                    "--tls-key" => tls_key = Some(read_pem(pair[0], pair[1])),
                    "--mtls-roots" => mtls_roots = Some(read_pem(pair[0], pair[1])),
                    _ => {}
                }
                if matches!(
                    pair[0],
                    "--grpc-listen"
                        | "--oidc-issuer"
                        | "--oidc-audience"
                        | "--api-key"
                        | "--tls-cert"
                        | "--tls-key"
                        | "--mtls-roots"
                ) {
                    continue;
                }
                if pair[0] == "--rate-per-caller" {
                    let rate: std::num::NonZeroU32 = pair[1]
                        .parse()
                        .unwrap_or_else(|e| fail(&format!("{} {}: {e}", pair[0], pair[1])));
                    config.caller_limits = config
                        .caller_limits
                        .rate_per_caller(a2a_server::limits::Rate::per_second(rate));
                    continue;
                }
                let number: usize = pair[1]
                    .parse()
                    .unwrap_or_else(|e| fail(&format!("{} {}: {e}", pair[0], pair[1])));
                if pair[0] == "--keep-ended" {
                    let seconds = u64::try_from(number).unwrap_or(u64::MAX);
                    config.keep_ended = Some(std::time::Duration::from_secs(seconds));
                    continue;
                }
                if pair[0] == "--streams-per-caller" {
                    config.caller_limits = config.caller_limits.streams_per_caller(number);
                    continue;
                }
                config.limits = match pair[0] {
                    "--max-bytes" => config.limits.with_max_bytes(number),
                    "--max-elements" => config.limits.with_max_elements(number),
                    _ => fail(usage),
                };
            }
            config.oidc = match (oidc_issuer, oidc_audience) {
                (Some(issuer), Some(audience)) => Some(OidcSettings { issuer, audience }),
                (None, None) => None,
                _ => fail("--oidc-issuer and --oidc-audience go together"),
            };
            config.tls = match (tls_cert, tls_key) {
                (Some(certificate_chain), Some(private_key)) => Some(TlsSettings {
                    certificate_chain,
                    private_key,
                    client_roots: mtls_roots,
                }),
                (None, None) if mtls_roots.is_some() => {
                    fail("--mtls-roots needs --tls-cert and --tls-key")
                }
                (None, None) => None,
                _ => fail("--tls-cert and --tls-key go together"),
            };
            address
        }
        ["--demo"] => {
            let outcome = a2a_example_agent::demo::run(&mut std::io::stdout()).await;
            std::process::exit(if outcome.is_ok() { 0 } else { 1 })
        }
        ["--help"] => {
            println!("{usage}\n\n{STORES_HELP}");
            std::process::exit(0)
        }
        ["--load" | "--load-profile" | "--load-stores", ..] => {
            let agent = std::env::current_exe().unwrap_or_else(|e| fail(&e.to_string()));
            let code = a2a_testkit::load::command_line(&agent, &args).await;
            std::process::exit(code.unwrap_or_else(|| fail(usage)))
        }
        _ => fail(usage),
    };
    let http = bind("--listen", address).await;
    let grpc = match grpc_address {
        Some(grpc) => bind("--grpc-listen", grpc).await,
        // The next free port of the same address.
        None => {
            let ip = http
                .local_addr()
                .map_or_else(|e| fail(&e.to_string()), |a| a.ip());
            bind("--listen", &SocketAddr::new(ip, 0).to_string()).await
        }
    };
    let handle = server::start(config, http, grpc)
        .await
        .unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "listening on {} (card at {}{}, gRPC on {})",
        handle.base_url(),
        handle.base_url(),
        a2a_protocol::service::WELL_KNOWN_AGENT_CARD_PATH,
        handle.grpc_addr()
    );
    std::future::pending::<()>().await;
}
