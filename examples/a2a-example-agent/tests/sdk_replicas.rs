//! Two replicas of the example agent (two processes, `--store postgres://…` on one database of
//! their own) driven by the official Python SDK's client (a2a-sdk 1.3.0, `interop/drive_replicas.py`)
//! over JSON-RPC, HTTP+JSON and gRPC: a task sent on replica A is read, listed and canceled on B; a
//! subscription on B follows a task A executes; and B is killed (`kill -9`, by its pid) mid-stream,
//! the client resubscribes on A and misses no event (the script counts and orders the artifact's
//! numbered chunks across both streams). After each kill, B is started again on the same ports for
//! the next binding.
//!
//! What `a2a-server-sql/tests/replicas.rs` proves in process (event ids in order across replicas,
//! `Last-Event-ID` replay, 2,000 tasks on both) is not repeated here: this is the same through real
//! processes, their bindings and the SDK's client, with a replica dying.
//!
//! Needs `A2A_INTEROP_PYTHON` (or the workspace's `.venv`) and `A2A_TEST_POSTGRES_URL`; without either
//! the test says it is skipped, and under `CI=true` it fails. Every process it starts is killed by
//! its pid when the test ends, and the script is killed after [`SCRIPT_LIMIT`].

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use a2a_testkit::process::Server;
use a2a_tests::interop::{Suite, python};

/// The longest the script may run.
const SCRIPT_LIMIT: Duration = Duration::from_secs(180);

/// Kills the script when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback port free now (replica B binds it right after, and again after each restart).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Starts a replica on `store`, HTTP on `http` and gRPC on `grpc` (0: any free port); returns the
/// process and its URL.
fn replica(store: &str, http: u16, grpc: u16) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"));
    command.args([
        "--listen",
        &format!("127.0.0.1:{http}"),
        "--grpc-listen",
        &format!("127.0.0.1:{grpc}"),
        "--store",
        store,
    ]);
    let (mut server, line) = Server::start(command, "a replica").expect("the replica starts");
    server.url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line is {line:?}"))
        .to_owned();
    server
}

#[test]
fn the_python_sdk_client_uses_two_replicas_and_survives_one_killed_mid_stream() {
    let test = "the_python_sdk_client_uses_two_replicas_and_survives_one_killed_mid_stream";
    let suite = Suite {
        name: "two replicas on PostgreSQL (SDK client)",
        package_args: &[],
        sdk_module: "a2a.client.transports.grpc",
    };
    let Some(python) = python(&suite) else { return };
    let Some(server) = common::postgres_url(test) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let store = runtime.block_on(common::new_database(&server));

    let replica_a = replica(&store, 0, 0);
    let (b_http, b_grpc) = (free_port(), free_port());
    let mut replica_b = Some(replica(&store, b_http, b_grpc));
    let url_b = replica_b.as_ref().map(|b| b.url.clone()).unwrap();
    assert_eq!(url_b, format!("http://127.0.0.1:{b_http}"));

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/drive_replicas.py");
    let child = Command::new(&python)
        .arg(&script)
        .arg(&replica_a.url)
        .arg(&url_b)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    let mut child = KillOnDrop(child);
    let mut answers = child.0.stdin.take().expect("the script's stdin");
    let stdout = child.0.stdout.take().expect("the script's stdout");
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });

    // Reads the script's lines as they come; kills and restarts B when it asks.
    let started = Instant::now();
    let mut output = Vec::new();
    let mut kills = 0;
    loop {
        let left = SCRIPT_LIMIT.saturating_sub(started.elapsed());
        let line = match received.recv_timeout(left) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("drive_replicas.py did not finish within {SCRIPT_LIMIT:?}")
            }
        };
        println!("{line}");
        if line == "KILL-B" {
            let b = replica_b.take().expect("B is running when the script asks");
            let pid = b.pid();
            drop(b); // SIGKILL by its pid, then waited for
            kills += 1;
            println!("  killed replica B (pid {pid})");
            writeln!(answers, "killed").expect("answering the script");
            let again = replica(&store, b_http, b_grpc);
            assert_eq!(again.url, url_b, "B is back on its ports");
            replica_b = Some(again);
            writeln!(answers, "restarted").expect("answering the script");
        }
        output.push(line);
    }
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("waiting for the script") {
            break status;
        }
        assert!(started.elapsed() < SCRIPT_LIMIT, "the script did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.success(),
        "the SDK client failed checks against the replicas (see FAIL lines above)"
    );
    for binding in ["JSONRPC", "HTTP+JSON", "GRPC"] {
        assert!(
            output
                .iter()
                .any(|l| l == &format!("{binding}: 5/5 passed")),
            "no 5/5 pass count for {binding}"
        );
    }
    assert_eq!(kills, 3, "B was killed once per binding");
}
