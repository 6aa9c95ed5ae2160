//! `a2a-example-agent --load-profile AGENT [CALLS]`: an agent binary's cost per request, in
//! instructions counted by callgrind (repeatable on a busy machine, where time is not):
//!
//! ```text
//! cargo build --release -p a2a-example-agent
//! target/release/a2a-example-agent --load-profile target/release/a2a-example-agent
//! ```
//!
//! Starts the given agent binary under `valgrind --tool=callgrind` (loopback, a port the OS picks),
//! warms every binding up, then for each binding and operation zeroes the counters
//! (`callgrind_control --zero`), makes `CALLS` calls one at a time (200 by default): `SendMessage`
//! (`tck-complete-task`, answered with a completed task) and a streamed task (`SendStreamingMessage`
//! with `tck-stream-001`, read to its last event, as the load test makes them), dumps the counters
//! (`callgrind_control --dump`) and prints the server's instructions per call. The dumps stay in the
//! directory it prints (one `callgrind.out.PID.N` per binding and operation, for
//! `callgrind_annotate`). The server is killed by its pid when done.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use super::batches::{self, Op};
use crate::process::Server;
use a2a_client::{A2aClient, Binding, ClientConfig};

/// Calls before the counters are zeroed, per binding and operation (connections, lazily built
/// state).
const WARM_UP: usize = 30;

fn fail(problem: String) -> ! {
    eprintln!("--load-profile: {problem}");
    std::process::exit(1)
}

/// `callgrind_control ACTION PID`, which must succeed.
fn control(action: &str, pid: u32) {
    let status = Command::new("callgrind_control")
        .args([action, &pid.to_string()])
        // Its "sending command ..." lines say nothing the table does not.
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| fail(format!("callgrind_control: {e}")));
    if !status.success() {
        fail(format!("callgrind_control {action} {pid}: {status}"));
    }
}

/// The instructions (`Ir`) of the dump with the highest part number in `dir`.
fn last_dump_instructions(dir: &std::path::Path, pid: u32) -> Option<(u64, PathBuf)> {
    let prefix = format!("callgrind.out.{pid}.");
    let (_, path) = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let part: u32 = path
                .file_name()?
                .to_str()?
                .strip_prefix(&prefix)?
                .parse()
                .ok()?;
            Some((part, path))
        })
        .max_by_key(|(part, _)| *part)?;
    let text = std::fs::read_to_string(&path).ok()?;
    let total = text
        .lines()
        .find_map(|line| {
            line.strip_prefix("summary:")
                .or_else(|| line.strip_prefix("totals:"))
        })?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some((total, path))
}

/// One call of `op`, which must succeed; `sequence` keeps its message id unique.
async fn call(client: &A2aClient, op: Op, sequence: usize) {
    if let Err(problem) = batches::one_call(client, op, sequence).await {
        fail(problem);
    }
}

/// Profiles `agent` over `calls` calls per binding and operation (200 when `None`) and prints the
/// table; exits the process on a failure.
pub async fn main(agent: &str, calls: Option<&str>) {
    let calls: usize = match calls {
        None => 200,
        Some(calls) => calls
            .parse()
            .unwrap_or_else(|e| fail(format!("CALLS {calls}: {e}"))),
    };
    let dir = std::env::temp_dir().join(format!("a2a-server-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    let mut command = Command::new("valgrind");
    command
        .current_dir(&dir)
        .args(["--tool=callgrind", "--quiet"])
        .arg(agent)
        .args(["--listen", "127.0.0.1:0", "--store", "memory"]);
    let (mut server, line) =
        Server::start(command, "the agent under callgrind").unwrap_or_else(|e| fail(e));
    server.url = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| fail(format!("unexpected ready line {line:?}")))
        .to_owned();
    let config = ClientConfig::default().timeout(Duration::from_secs(60));
    let mut clients = Vec::new();
    for binding in Binding::ALL {
        let client = A2aClient::connect(&server.url, config.clone().only(binding))
            .await
            .unwrap_or_else(|e| fail(format!("connecting over {binding}: {e}")));
        for op in Op::ALL {
            for sequence in 0..WARM_UP {
                call(&client, op, sequence).await;
            }
        }
        clients.push(client);
    }
    println!("callgrind dumps in {}", dir.display());
    println!("| operation | binding | calls | server instructions per call |");
    println!("|---|---|---|---|");
    for op in Op::ALL {
        for client in &clients {
            control("--zero", server.pid());
            for index in 0..calls {
                call(client, op, WARM_UP + index).await;
            }
            control("--dump", server.pid());
            let (total, dump) = last_dump_instructions(&dir, server.pid())
                .unwrap_or_else(|| fail(format!("no callgrind dump in {}", dir.display())));
            println!(
                "| {} | {} | {calls} | {} |  ({})",
                op.label(),
                client.binding(),
                total / calls as u64,
                dump.display()
            );
        }
    }
}
