//! `a2a-example-agent --demo`, the workspace's main job, run as a process: it must exit 0 within its
//! bound, having printed each binding's exchange (a task, a stream, an error) with the answers the
//! agent's behaviour table promises. The process is killed by its pid if it outlives the bound.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The demo's own limit is 60 s; this leaves room for a slow machine to start the binary.
const LIMIT: Duration = Duration::from_secs(90);

/// Kills the demo by its pid when the test ends early.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}

#[test]
fn the_demo_drives_every_binding_and_exits_zero() {
    let child = Command::new(env!("CARGO_BIN_EXE_a2a-example-agent"))
        .arg("--demo")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting a2a-example-agent --demo");
    let mut guard = Guard(child);
    // Read while it runs, so a full pipe never blocks the demo.
    let stdout = reader(guard.0.stdout.take());
    let stderr = reader(guard.0.stderr.take());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = guard.0.try_wait().expect("waiting for the demo") {
            break status;
        }
        assert!(
            started.elapsed() < LIMIT,
            "the demo ran over {LIMIT:?}; killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = stdout.join().expect("the stdout reader");
    let stderr = stderr.join().expect("the stderr reader");
    println!("{stdout}");
    assert!(
        status.success(),
        "the demo exited with {status}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );

    assert!(
        stdout.starts_with("example agent serving on http://127.0.0.1:"),
        "{stdout}"
    );
    // One section per binding, in order, each with a task, a stream and an error.
    let mut rest = stdout.as_str();
    for binding in ["JSONRPC", "HTTP+JSON", "GRPC"] {
        let header = format!("── {binding} at ");
        let at = rest
            .find(&header)
            .unwrap_or_else(|| panic!("no {binding} section after the previous one:\n{stdout}"));
        rest = &rest[at + header.len()..];
        let section = rest.find("\n── ").map_or(rest, |next| &rest[..next]);
        for expected in [
            "→ SendMessage {\"message\":",
            "← SendMessage {\"task\":",
            "\"TASK_STATE_COMPLETED\"",
            "→ GetTask {\"id\":",
            "→ SendStreamingMessage {\"message\":",
            "\"TASK_STATE_WORKING\"",
            "Stream hello from TCK",
            "→ GetTask {\"id\":\"no-such-task\"}",
            "← error ",
            "TASK_NOT_FOUND",
        ] {
            assert!(
                section.contains(expected),
                "the {binding} section lacks {expected:?}:\n{section}"
            );
        }
    }
    assert!(
        stdout.contains("every binding answered as expected"),
        "{stdout}"
    );
}
