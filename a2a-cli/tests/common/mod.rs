//! What the `a2a` binary's end-to-end test files share: running the real binary with stdin piped in.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs `a2a args…` with `stdin` piped in.
pub fn a2a(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the a2a binary starts");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Writing from another thread: the child may fail and stop reading before the input is in.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}
