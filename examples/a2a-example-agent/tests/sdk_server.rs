//! The example client against the official Python SDK's own server classes
//! (`tests/interop/sdk_agent_server.py`: the SDK's request handler, task store, push-config store, and
//! its JSON-RPC, REST and gRPC apps), over each of the three bindings, on 127.0.0.1.
//!
//! The same conformance run (`client::conformance::run_conformance`) is made on every binding: card,
//! send (task and message results, artifacts of every kind), streams, get with historyLength, list
//! (context and status filters, paging), cancel, subscribe, push-config CRUD and a webhook delivery to
//! a loopback receiver (with the config's token and credentials), the extended card behind a bearer
//! token, and the A2A errors, checked by kind. The server refuses requests without the `A2A-Version`
//! service parameter, so a pass also proves the client sends it.
//!
//! Python is found through `A2A_INTEROP_PYTHON` (or the workspace's `.venv`); without it the test
//! says so and skips, except under `CI=true`, where it fails. The server is killed by its pid when
//! the test ends, passing or not, and every wait is bounded.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use a2a_example_agent::client::conformance::{ConformanceOptions, Report, run_conformance};
use a2a_example_agent::client::{A2aClient, Binding, ClientConfig};

/// The most a whole run over one binding may take.
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// Fewer checks than this means the run lost some.
const MIN_CHECKS: usize = 32;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1")
}

fn imports_sdk(python: &Path) -> bool {
    Command::new(python)
        .args(["-c", "import a2a.server.request_handlers, grpc, uvicorn"])
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The interpreter with the SDK's server extras, or `None` (after saying why) where the test skips.
fn python() -> Option<PathBuf> {
    if let Some(python) = std::env::var_os("A2A_INTEROP_PYTHON").filter(|p| !p.is_empty()) {
        let python = PathBuf::from(python);
        assert!(
            imports_sdk(&python),
            "A2A_INTEROP_PYTHON={} cannot import the SDK's server classes: install \
             tests/interop/requirements.txt into it",
            python.display()
        );
        return Some(python);
    }
    let venv = workspace_root().join(".venv/bin/python");
    if venv.exists() && imports_sdk(&venv) {
        return Some(venv);
    }
    let why = "A2A_INTEROP_PYTHON is not set and the workspace has no .venv with the SDK";
    assert!(
        !on_ci(),
        "CI is set, so the client-against-SDK-server test must run, but {why}"
    );
    eprintln!(
        "SKIPPED sdk_server: {why}; nothing was checked (create .venv from tests/interop/requirements.txt)"
    );
    None
}

/// The running SDK server; dropping it kills the process by its pid.
struct SdkServer {
    child: Child,
    url: String,
    token: String,
}

impl SdkServer {
    fn start(python: &Path) -> SdkServer {
        let script = workspace_root().join("tests/interop/sdk_agent_server.py");
        let mut child = Command::new(python)
            .arg(&script)
            .args(["--resubscribe-delay", "1.5"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", script.display()));
        let stdout = child.stdout.take().expect("stdout is piped");
        // Own the child before anything can fail, so it is killed whatever happens next.
        let mut server = SdkServer {
            child,
            url: String::new(),
            token: String::new(),
        };
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the SDK server did not say it was ready within 60 s");
        let ready: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the SDK server's ready line {line:?}: {e}"));
        server.url = ready["url"].as_str().expect("url").to_owned();
        server.token = ready["token"].as_str().expect("token").to_owned();
        assert!(
            server.url.starts_with("http://127.0.0.1:"),
            "{}",
            server.url
        );
        server
    }
}

impl Drop for SdkServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn run_on(server: &SdkServer, binding: Binding) -> Report {
    let client = A2aClient::connect(&server.url, ClientConfig::default().only(binding))
        .await
        .unwrap_or_else(|e| panic!("connecting over {binding}: {e}"));
    assert_eq!(client.binding(), binding);
    let options = ConformanceOptions {
        extended_card_token: Some(server.token.clone()),
        ..ConformanceOptions::default()
    };
    run_conformance(&client, &options).await
}

#[test]
fn example_client_drives_the_sdk_server_over_every_binding() {
    let Some(python) = python() else { return };
    let server = SdkServer::start(&python);
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
            let report = tokio::time::timeout(RUN_LIMIT, run_on(&server, binding))
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
