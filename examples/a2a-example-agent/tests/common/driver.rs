//! Runs one of the example agent's Python driver scripts (`interop/*.py`) against agents a test
//! started: its standard output and error collected and printed for the test's log, the script
//! killed by its process id when it outlives its limit or the test ends first.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What a driver script did.
pub struct DriverRun {
    pub status: ExitStatus,
    pub stdout: String,
}

/// Kills the script when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `python interop/<script> args…` with the variables `envs`, panicking when it outlives
/// `limit`; prints its standard output under `label` (and its standard error, if any).
pub fn run_driver(
    python: &Path,
    script: &str,
    args: &[&str],
    envs: &[(&str, String)],
    limit: Duration,
    label: &str,
) -> DriverRun {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("interop")
        .join(script);
    let child = Command::new(python)
        .arg(&path)
        .args(args)
        .envs(envs.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    let mut child = KillOnDrop(child);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("waiting for the script") {
            break status;
        }
        assert!(
            started.elapsed() < limit,
            "{script} did not finish within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .0
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    child
        .0
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    println!("{label}:\n{stdout}");
    if !stderr.trim().is_empty() {
        eprintln!("{script} (stderr):\n{stderr}");
    }
    DriverRun { status, stdout }
}
