//! What the agent verbs' tests share: the example agent served in-process on loopback ports (a
//! memory store, its own runtime, stopped when dropped), and the `a2a` binary run against it with
//! a deadline (killed by its pid when it passes).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use a2a_example_agent::server::{self, Config};
use a2a_server::Serving;
use a2a_testkit::stores::StoreChoice;
use a2a_types::v1::StreamResponse;
use serde_json::Value;

/// The three bindings, as `--binding` names them.
pub const BINDINGS: [&str; 3] = ["jsonrpc", "rest", "grpc"];

/// The longest one run of the binary may take.
const RUN_DEADLINE: Duration = Duration::from_secs(60);

/// The example agent, serving until dropped.
pub struct Agent {
    runtime: Option<tokio::runtime::Runtime>,
    serving: Option<Serving>,
    /// Its base URL (`http://127.0.0.1:PORT`), where its card is.
    pub url: String,
}

impl Agent {
    /// Starts the example agent on two free ports of 127.0.0.1, on a memory store;
    /// `tck-long-running` tasks work for `long_running` before they complete.
    pub fn start(long_running: Duration) -> Agent {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime for the agent");
        let config = Config {
            store: StoreChoice::Memory,
            long_running_delay: long_running,
            ..Config::default()
        };
        let serving = runtime
            .block_on(server::start_on_free_ports(config))
            .expect("the example agent starts");
        let url = serving.base_url();
        Agent {
            runtime: Some(runtime),
            serving: Some(serving),
            url,
        }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        if let (Some(runtime), Some(serving)) = (self.runtime.take(), self.serving.take()) {
            // The timer is made inside the runtime, which it needs.
            runtime.block_on(async {
                let _ = tokio::time::timeout(Duration::from_secs(5), serving.shutdown()).await;
            });
            runtime.shutdown_timeout(Duration::from_secs(2));
        }
    }
}

/// The URL of a loopback port nothing listens on (bound, then released).
pub fn nobody_listening() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// How one run of the binary ended.
#[derive(Debug)]
pub struct Run {
    /// The exit status.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout lines.
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// Each stdout line as JSON.
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?} is not JSON: {e}"))
            })
            .collect()
    }

    /// Asserts exit status 0 and an empty stderr.
    pub fn ok(&self) -> &Self {
        assert_eq!(self.code, 0, "{self:#?}");
        assert!(self.stderr.is_empty(), "{self:#?}");
        self
    }

    /// Asserts exit status `code` and one stderr line starting with `label: `; returns the line.
    pub fn failed(&self, code: i32, label: &str) -> &str {
        assert_eq!(self.code, code, "{self:#?}");
        let line = self.stderr.strip_suffix('\n').expect("stderr ends a line");
        assert!(!line.contains('\n'), "more than one line: {self:#?}");
        assert!(line.starts_with(&format!("{label}: ")), "{self:#?}");
        line
    }
}

/// Runs `a2a args…`, stdin closed; panics when it outlives [`RUN_DEADLINE`] (after killing it).
pub fn a2a(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the a2a binary starts");
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > RUN_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a2a {args:?} ran longer than {RUN_DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code().expect("an exit status, not a signal"),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// `args` with `--binding BINDING` added.
pub fn on<'a>(binding: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["--binding", binding]);
    all
}

/// Starts a task named by `message_id` at `url` on `binding` without waiting for it (`send
/// --return-immediately --json`); returns its id and context.
pub fn started(
    url: &str,
    binding: &str,
    message_id: &str,
    context: Option<&str>,
) -> (String, String) {
    let mut args = vec![
        "send",
        url,
        "x",
        "--message-id",
        message_id,
        "--return-immediately",
        "--json",
    ];
    if let Some(context) = context {
        args.extend(["--context", context]);
    }
    let run = a2a(&on(binding, &args));
    run.ok();
    let task = &run.json_lines()[0]["task"];
    (
        task["id"].as_str().unwrap().to_owned(),
        task["contextId"].as_str().unwrap().to_owned(),
    )
}

/// The `--json` lines of a `stream` or `subscribe` run, as stream events.
pub fn stream_events(run: &Run) -> Vec<StreamResponse> {
    run.json_lines()
        .into_iter()
        .map(|line| {
            serde_json::from_value(line.clone())
                .unwrap_or_else(|e| panic!("{line} is not a stream event: {e}"))
        })
        .collect()
}
