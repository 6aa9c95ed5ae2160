//! `a2a serve …` as a child process on free loopback ports, its ready line read (bounded in time),
//! killed by its pid when dropped; and the workspace's client connected to it on one binding.

use std::process::Command;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_testkit::process::Server;

/// The three bindings.
pub const BINDINGS: [Binding; 3] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc];

/// Starts `a2a serve ARGS --listen 127.0.0.1:0`; its URL is read from the ready line.
pub fn serve(args: &[&str]) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a"));
    command
        .arg("serve")
        .args(args)
        .args(["--listen", "127.0.0.1:0"]);
    let (mut server, line) = Server::start(command, "a2a serve").unwrap_or_else(|e| panic!("{e}"));
    server.url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("a2a serve's ready line: {line:?}"))
        .to_owned();
    server
}

/// The workspace's client of `url` on `binding` only.
pub async fn client(url: &str, binding: Binding) -> A2aClient {
    let client = A2aClient::connect(url, ClientConfig::default().only(binding))
        .await
        .expect("the card resolves");
    assert_eq!(client.binding(), binding);
    client
}

/// A runtime for the calls of one test.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}
