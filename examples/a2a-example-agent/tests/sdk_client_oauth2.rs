//! The official Python SDK's client (a2a-sdk 1.3.0) with OAuth2 credentials against the example
//! agent protected by OpenID Connect (`--oidc-issuer --oidc-audience`, here `Config::oidc`), the
//! issue's "SDK client with OAuth2 credentials against our server" proof.
//!
//! A real OpenID provider runs on 127.0.0.1 (`common::oidc_provider`). `interop/drive_agent_oauth2.py`
//! gets a token of `alice` from it by the client-credentials grant (the token endpoint found through
//! the card's OpenID Connect scheme), stores it for that scheme in the SDK's
//! `InMemoryContextCredentialStore`, and with the SDK's `AuthInterceptor` in its client sends a
//! message and reads the task back on JSON-RPC, HTTP+JSON and gRPC; in a session without a credential
//! the same client is refused on each. What each binding answered is printed (`--nocapture`).
//!
//! Python comes from `A2A_INTEROP_PYTHON` (or the workspace's `.venv`), the provider from `npm ci` in
//! tests/interop/oidc; without either the test says it is skipped, and fails when `CI=true`. The
//! script is killed after 90 s.

use std::time::Duration;

use a2a_example_agent::server::{self, Config, OidcSettings};
use a2a_tests::interop::{Suite, python};
use common::driver::{DriverRun, run_driver};
use common::oidc_provider::{AUDIENCE, client_secret, start_provider};

mod common;

const SCRIPT_LIMIT: Duration = Duration::from_secs(90);
/// The SDK's names of the bindings the script drives.
const BINDINGS: [&str; 3] = ["JSONRPC", "HTTP+JSON", "GRPC"];
/// The provider's client whose token the SDK's client holds.
const CLIENT: &str = "alice";

/// The script's `ANSWER [binding] call: …` line for `call` over `binding`.
fn answer<'a>(stdout: &'a str, binding: &str, call: &str) -> &'a str {
    let prefix = format!("ANSWER [{binding}] {call}: ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no answer to {call} over {binding}"))
}

#[test]
fn the_python_sdk_client_with_oauth2_credentials_is_served_and_refused_without_on_every_binding() {
    let test = "the_python_sdk_client_with_oauth2_credentials_is_served_and_refused_without_on_every_binding";
    let suite = Suite {
        name: "example agent (SDK client with OAuth2 credentials)",
        package_args: &[],
        sdk_module: "a2a.client.auth",
    };
    let Some(python) = python(&suite) else { return };
    let Some(provider) = start_provider(test) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let agent = runtime
        .block_on(server::start_on_free_ports(Config {
            store: a2a_testkit::stores::StoreChoice::Memory,
            oidc: Some(OidcSettings {
                issuer: provider.issuer.clone(),
                audience: AUDIENCE.to_owned(),
            }),
            ..Config::default()
        }))
        .expect("the agent discovers the provider and starts");

    let DriverRun { status, stdout } = run_driver(
        &python,
        "drive_agent_oauth2.py",
        &[&agent.base_url(), CLIENT],
        &[("A2A_CLIENT_SECRET", client_secret(CLIENT))],
        SCRIPT_LIMIT,
        "the SDK client with OAuth2 credentials against the agent",
    );
    runtime.block_on(agent.shutdown());
    assert!(
        status.success(),
        "the SDK client failed checks against the agent (see FAIL lines above)"
    );
    assert!(
        stdout.contains("the card requires the scheme 'oidc'"),
        "the token is stored for the card's OpenID Connect scheme"
    );
    for binding in BINDINGS {
        assert!(
            stdout
                .lines()
                .any(|l| l == format!("{binding}: 2/2 passed")),
            "both checks pass over {binding}"
        );
        for call in ["SendMessage", "GetTask"] {
            let served = answer(&stdout, binding, &format!("{call} with the credential"));
            assert!(
                served.starts_with("task ") && served.ends_with(" TASK_STATE_COMPLETED"),
                "{call} over {binding} with the credential: {served}"
            );
            let refused = answer(&stdout, binding, &format!("{call} without a credential"));
            let unauthenticated = if binding == "GRPC" {
                "gRPC Error UNAUTHENTICATED"
            } else {
                "HTTP Error 401"
            };
            assert!(
                refused.contains(unauthenticated),
                "{call} over {binding} without a credential: {refused}"
            );
        }
    }
}
