//! The conformance run against the official Python SDK's own server classes
//! (`tests/interop/sdk_agent_server.py`: the SDK's request handler, task store, push-config store, and
//! its JSON-RPC, REST and gRPC apps), and against the official JS SDK's server pieces
//! (`tests/interop/js-sdk/sdk_agent_server.mjs`, see `js_departures` for where it departs from the
//! specification), over each of the three bindings, on 127.0.0.1.
//!
//! The same conformance run (`a2a_testkit::conformance::run_conformance`) is made on every binding: card,
//! send (task and message results, artifacts of every kind), streams, get with historyLength, list
//! (context and status filters, paging), cancel, subscribe, push-config CRUD and a webhook delivery to
//! a loopback receiver (with the config's token and credentials), the extended card behind a bearer
//! token, and the A2A errors, checked by kind. The server refuses requests without the `A2A-Version`
//! service parameter, so a pass also proves the client sends it.
//!
//! Python is found through `A2A_INTEROP_PYTHON` (or the workspace's `.venv`); without it the test
//! says so and skips, except under `CI=true`, where it fails. The server is killed by its pid when
//! the test ends, passing or not, and every wait is bounded.

use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_protocol::service::ProtocolVersion;
use a2a_testkit::conformance::{ConformanceOptions, Report, run_conformance};
use a2a_testkit::process::{start_js_sdk_server, start_sdk_server};
use a2a_tests::interop::{Suite, python};

#[path = "sdk_server/js_departures.rs"]
mod js_departures;

/// The most a whole run over one binding may take.
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// Fewer checks than this means the run lost some.
const MIN_CHECKS: usize = 32;

async fn run_on(url: &str, token: &str, binding: Binding) -> Report {
    run_in(ProtocolVersion::V1_0, url, token, binding).await
}

async fn run_in(version: ProtocolVersion, url: &str, token: &str, binding: Binding) -> Report {
    let config = ClientConfig::default().only(binding).only_version(version);
    let client = A2aClient::connect(url, config)
        .await
        .unwrap_or_else(|e| panic!("connecting over {version} {binding}: {e}"));
    assert_eq!(
        (client.protocol_version(), client.binding()),
        (version, binding)
    );
    let options = ConformanceOptions {
        extended_card_token: Some(token.to_owned()),
        // The webhook check reads a v1 `StreamResponse`; a v0.3 config gets the v0.3 body.
        push_delivery: version == ProtocolVersion::V1_0,
        // This run proves the client against the SDKs' servers; the raw-wire checks judge the
        // servers' own bytes, where the SDKs (and the reference server's version gate) depart
        // from the specification: refusing `A2A-Version: 1.0.1`, `-32602` for a request without
        // `jsonrpc`, version errors without details.
        wire: false,
        ..ConformanceOptions::default()
    };
    run_conformance(&client, &options).await
}

#[test]
fn example_client_drives_the_sdk_server_over_every_binding() {
    let suite = Suite {
        name: "example client (SDK server)",
        package_args: &[],
        sdk_module: "a2a.server.request_handlers, grpc, uvicorn",
    };
    let Some(python) = python(&suite) else { return };
    let (server, ready) = start_sdk_server(&python, &["--resubscribe-delay", "1.5"])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let token = ready["token"].as_str().expect("token").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        // The default preference takes JSON-RPC; a stated one is followed.
        let default = A2aClient::connect(&server.url, ClientConfig::default())
            .await
            .expect("connecting with the default preference");
        assert_eq!(default.binding(), Binding::JsonRpc);
        let config = ClientConfig {
            preference: vec![Binding::Grpc, Binding::JsonRpc],
            ..ClientConfig::default()
        };
        let preferred = A2aClient::connect(&server.url, config)
            .await
            .expect("connecting");
        assert_eq!(preferred.binding(), Binding::Grpc);

        let mut summary = Vec::new();
        let mut failed = Vec::new();
        for binding in Binding::ALL {
            let started = Instant::now();
            let report = tokio::time::timeout(RUN_LIMIT, run_on(&server.url, &token, binding))
                .await
                .unwrap_or_else(|_| panic!("the {binding} run took over {RUN_LIMIT:?}"));
            println!("{report}");
            summary.push(format!(
                "{binding}: {}/{} in {:.1} s",
                report.passed(),
                report.checks.len(),
                started.elapsed().as_secs_f32()
            ));
            if !report.all_passed() || report.checks.len() < MIN_CHECKS {
                failed.push(binding);
            }
        }
        println!("example client → SDK server: {}", summary.join("; "));
        assert!(
            failed.is_empty(),
            "checks failed over {failed:?} (or fewer than {MIN_CHECKS} ran); see the reports above"
        );
    });
}

#[test]
fn example_client_drives_the_js_sdk_server_over_every_binding() {
    if !js_departures::node_and_sdk_installed() {
        return;
    }
    let (server, ready) =
        start_js_sdk_server(&["--delay", "1.5"]).unwrap_or_else(|e| panic!("{e}"));
    let token = ready["token"].as_str().expect("token").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let mut summary = Vec::new();
        let mut wrong = Vec::new();
        for (version, binding) in [ProtocolVersion::V1_0, ProtocolVersion::V0_3]
            .into_iter()
            .flat_map(|version| Binding::ALL.map(|binding| (version, binding)))
        {
            let run = run_in(version, &server.url, &token, binding);
            let report = tokio::time::timeout(RUN_LIMIT, run)
                .await
                .unwrap_or_else(|_| panic!("the {version} {binding} run took over {RUN_LIMIT:?}"));
            println!("{report}");
            let departures = js_departures::expected(version, binding);
            wrong.extend(js_departures::unexpected(&report, &departures));
            summary.push(format!(
                "v{version} {binding}: {}/{} passed",
                report.passed(),
                report.checks.len(),
            ));
            // Over v0.3 the webhook delivery check is left out.
            let least = MIN_CHECKS - usize::from(version == ProtocolVersion::V0_3);
            if report.checks.len() < least {
                wrong.push(format!(
                    "v{version} {binding}: only {} checks ran",
                    report.checks.len()
                ));
            }
        }
        println!("example client → JS SDK server: {}", summary.join("; "));
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}
