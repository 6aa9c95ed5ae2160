//! `a2a-example-agent --load-profile AGENT [CALLS]`: an agent binary's cost per request, in
//! instructions counted by callgrind (repeatable on a busy machine, where time is not):
//!
//! ```text
//! cargo build --release -p a2a-example-agent
//! target/release/a2a-example-agent --load-profile target/release/a2a-example-agent
//! ```
//!
//! Starts the given agent binary under `valgrind --tool=callgrind` (loopback, a port the OS picks),
//! warms every binding up, then for each binding zeroes the counters (`callgrind_control --zero`),
//! sends `CALLS` `SendMessage` requests (`tck-complete-task`, one at a time, 200 by default), dumps
//! the counters (`callgrind_control --dump`) and prints the server's instructions per request. The
//! dumps stay in the directory it prints (one `callgrind.out.PID.N` per binding, for
//! `callgrind_annotate`). The server is killed by its pid when done.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::client::{A2aClient, Binding, ClientConfig};
use crate::process::Server;
use a2a_types::v1::{Message, Part, SendMessageRequest, SendMessageResponse, TaskState};

/// Calls before the counters are zeroed, per binding (connections, lazily built state).
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

async fn send(client: &A2aClient, index: usize) {
    let request = SendMessageRequest {
        message: Message::user(
            format!("tck-complete-task-profile-{}-{index}", client.binding()),
            [Part::text("hello")],
        ),
        ..Default::default()
    };
    match client.send_message(request).await {
        Ok(SendMessageResponse::Task(task)) if task.status.state == TaskState::Completed => {}
        other => fail(format!("{}: unexpected answer {other:?}", client.binding())),
    }
}

/// Profiles `agent` over `calls` SendMessage requests per binding (200 when `None`) and prints the
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
        for index in 0..WARM_UP {
            send(&client, index).await;
        }
        clients.push(client);
    }
    println!("callgrind dumps in {}", dir.display());
    println!("| binding | SendMessage calls | server instructions per call |");
    println!("|---|---|---|");
    for client in &clients {
        control("--zero", server.pid());
        for index in 0..calls {
            send(client, WARM_UP + index).await;
        }
        control("--dump", server.pid());
        let (total, dump) = last_dump_instructions(&dir, server.pid())
            .unwrap_or_else(|| fail(format!("no callgrind dump in {}", dir.display())));
        println!(
            "| {} | {calls} | {} |  ({})",
            client.binding(),
            total / calls as u64,
            dump.display()
        );
    }
}
