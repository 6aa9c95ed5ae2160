//! `a2a serve --exec`: a small script that reads the message, prints three pieces with pauses
//! between them and exits with the status it is given. On every binding the stream carries each
//! piece as its own artifact chunk, as the script prints it (the pauses seen between the chunks'
//! arrivals), then the closing chunk and the completed state; a non-zero exit fails the task,
//! quoting the script's standard error; a cancel ends a command that would run on.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use a2a_types::v1::{
    CancelTaskRequest, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, TaskState,
};

use crate::serving::{BINDINGS, client, runtime, serve};

/// The pause of the script between the pieces it prints.
const PAUSE: Duration = Duration::from_millis(400);

/// The script, in a file of its own that is removed when dropped.
struct Script(PathBuf);

impl Script {
    /// Writes the script for the test `test` (tests run at once: each has its own file).
    fn write(test: &str) -> Script {
        let path =
            std::env::temp_dir().join(format!("a2a-serve-exec-{test}-{}.sh", std::process::id()));
        std::fs::write(
            &path,
            "read line\nprintf 'got: %s\\n' \"$line\"\nsleep 0.4\nprintf 'two\\n'\nsleep 0.4\n\
             printf 'three'\necho 'a warning' >&2\nexit \"${1:-0}\"\n",
        )
        .expect("the script is written");
        Script(path)
    }

    /// The `--exec` command running it with exit status `status`.
    fn command(&self, status: u8) -> String {
        format!("sh {} {status}", self.0.display())
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A message of `text`, its id unique (a message id seen before is answered with its first task).
fn request(text: &str) -> SendMessageRequest {
    static SENT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let sent = SENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    SendMessageRequest {
        message: Message::user(
            format!("exec-{}-{sent}", std::process::id()),
            [Part::text(text)],
        ),
        ..Default::default()
    }
}

#[test]
fn the_output_streams_chunk_by_chunk_as_printed_on_every_binding() {
    let script = Script::write("chunks");
    let server = serve(&["--exec", &script.command(0)]);
    runtime().block_on(async {
        for binding in BINDINGS {
            let client = client(&server.url, binding).await;
            let mut stream = client
                .send_streaming_message(request("hello"))
                .await
                .expect("a stream");
            let mut chunks = Vec::new();
            let mut last_state = None;
            while let Some(event) = stream.next().await {
                match event.expect("an event") {
                    StreamResponse::ArtifactUpdate(update) => chunks.push((
                        Instant::now(),
                        update.artifact.text(),
                        update.artifact.parts.len(),
                        update.append == Some(true),
                        update.last_chunk == Some(true),
                    )),
                    StreamResponse::StatusUpdate(update) => last_state = Some(update.status.state),
                    StreamResponse::Task(task) => last_state = Some(task.status.state),
                    _ => {}
                }
            }
            let seen: Vec<(&str, usize, bool, bool)> = chunks
                .iter()
                .map(|(_, text, parts, append, last)| (text.as_str(), *parts, *append, *last))
                .collect();
            assert_eq!(
                seen,
                [
                    ("got: hello\n", 1, false, false),
                    ("two\n", 1, true, false),
                    ("three", 1, true, false),
                    ("", 0, true, true),
                ],
                "{binding}"
            );
            // Each piece arrived when the script printed it, not all at the end.
            for pair in chunks[..3].windows(2) {
                let gap = pair[1].0 - pair[0].0;
                assert!(gap >= PAUSE / 2, "{binding}: chunks {gap:?} apart");
            }
            assert_eq!(last_state, Some(TaskState::Completed), "{binding}");
        }
    });
}

#[test]
fn a_failing_exit_status_fails_the_task_with_the_end_of_stderr() {
    let script = Script::write("failing");
    let server = serve(&["--exec", &script.command(3)]);
    let output = Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["send", &server.url, "hello", "--timeout", "20"])
        .output()
        .expect("a2a send runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(5), "{output:?}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].ends_with(": failed"), "{lines:?}");
    assert_eq!(
        lines[1], "  agent: the command exited with status 3: a warning",
        "{lines:?}"
    );
    assert_eq!(
        &lines[2..],
        [
            "  artifact output: got: hello\\n",
            "  artifact output: two\\n",
            "  artifact output: three"
        ],
        "{lines:?}"
    );
}

/// Whether a process runs whose command line is `words` (read from /proc; `false` elsewhere).
fn running(words: &[&str]) -> bool {
    let wanted: Vec<u8> = words
        .iter()
        .flat_map(|w| [w.as_bytes(), b"\0"].concat())
        .collect();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| std::fs::read(entry.path().join("cmdline")).is_ok_and(|line| line == wanted))
}

#[test]
fn a_cancel_ends_the_command_and_what_it_started() {
    // `sleep` runs as a child of the shell (the `;` keeps the shell from replacing itself with it).
    let seconds = format!("37.{}", std::process::id());
    let command = format!("sleep {seconds}; true");
    let server = serve(&["--exec", &command]);
    runtime().block_on(async {
        let client = client(&server.url, a2a_client::Binding::JsonRpc).await;
        let answer = client
            .send_message(SendMessageRequest {
                configuration: Some(SendMessageConfiguration {
                    return_immediately: Some(true),
                    ..Default::default()
                }),
                ..request("wait")
            })
            .await
            .expect("sent");
        let SendMessageResponse::Task(task) = answer else {
            panic!("expected a task: {answer:?}");
        };
        if cfg!(target_os = "linux") {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !running(&["sleep", &seconds]) {
                assert!(
                    Instant::now() < deadline,
                    "the command's sleep never started"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        let started = Instant::now();
        let canceled = client
            .cancel_task(CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            })
            .await
            .expect("canceled");
        assert_eq!(canceled.status.state, TaskState::Canceled);
        assert!(started.elapsed() < Duration::from_secs(10));
        if cfg!(target_os = "linux") {
            let deadline = Instant::now() + Duration::from_secs(5);
            while running(&["sleep", &seconds]) {
                assert!(
                    Instant::now() < deadline,
                    "the command's sleep outlived the cancel"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    });
}
