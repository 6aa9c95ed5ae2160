//! `a2a-example-agent --listen 127.0.0.1:PORT`: serves the example agent until killed. HTTP (card,
//! JSON-RPC, HTTP+JSON) on PORT, gRPC on the next free port; the card says which.

use std::net::SocketAddr;

use a2a_example_agent::server::{self, Config};

fn fail(message: &str) -> ! {
    eprintln!("a2a-example-agent: {message}");
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let address = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["--listen", address] => address.to_owned(),
        _ => fail("usage: a2a-example-agent --listen 127.0.0.1:PORT"),
    };
    let address: SocketAddr = address
        .parse()
        .unwrap_or_else(|e| fail(&format!("--listen {address}: {e}")));
    if !address.ip().is_loopback() {
        fail("the example agent listens on a loopback address only, such as 127.0.0.1:8000");
    }
    let http = tokio::net::TcpListener::bind(address)
        .await
        .unwrap_or_else(|e| fail(&format!("binding {address}: {e}")));
    let grpc = tokio::net::TcpListener::bind(SocketAddr::new(address.ip(), 0))
        .await
        .unwrap_or_else(|e| fail(&format!("binding a gRPC port on {}: {e}", address.ip())));
    let handle = server::start(Config::default(), http, grpc)
        .await
        .unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "listening on {} (card at {}{}, gRPC on {})",
        handle.base_url(),
        handle.base_url(),
        a2a_types::service::WELL_KNOWN_AGENT_CARD_PATH,
        handle.grpc_addr()
    );
    std::future::pending::<()>().await;
}
