//! A measured memory bound under hostile agents: the client's peak heap, counted by this binary's
//! global allocator, while it faces the hostile fakes (a 500 error body sent without a length and
//! one announced by `Content-Length`, an endless event stream, an event over the size limit, a card
//! that is not JSON; the first and the fourth also from a v0.3 agent over HTTP+JSON), each at two
//! sizes ten times apart (5 MiB and 50 MiB; the endless stream for 0.25 s and 2.5 s). Each answer
//! must end in its typed error, every peak must stay under [`BOUND`], which depends on the decode
//! budget ([`MAX_BYTES`]) and not on the size of what the agent sends, and the peak at the large
//! size must equal the one at the small size within [`MARGIN`].
//!
//! The agents run in a child process (this binary again, see [`hostile_agent`]), so the count is the
//! client's alone. Sizes alternate in short batches (small then large, then large then small, five
//! rounds) and the table printed gives each size's median, lowest and highest peak, the spread.
//!
//! The allocator is a small counting wrapper of the system allocator ([`counting`]).
//!
//! Its own test binary (`harness = false`): the allocator is global, so nothing else may run in
//! the process while it counts.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use counting::peak_of;
use scenarios::{MAX_BYTES, SCENARIOS};

#[allow(dead_code)] // the memory test uses a few of the suite's fakes
#[path = "../suite/agent.rs"]
mod agent;
mod counting;
mod hostile_agent;
mod scenarios;

/// hyper's largest HTTP/1 read buffer (8 KiB + 100 × 4 KiB, rounded up): it grows while the agent
/// sends faster than the client reads, whatever the size of what it sends.
const TRANSPORT_BUFFER: usize = 512 * 1024;
/// The stated bound on the peak above the client's resting heap: two budgets (a body or event being
/// read and its decoding), the transport's read buffer, and 256 KiB for the connection and the
/// runtime, whatever the agent sends.
const BOUND: usize = 2 * MAX_BYTES + TRANSPORT_BUFFER + 256 * 1024;
/// How far the median peak at the large size may be above the one at the small size: whether the
/// transport's read buffer has grown to its largest depends on timing (a longer stream gives it more
/// chances), so it is allowed, plus 64 KiB; a peak that followed the size would be 45 MiB higher.
const MARGIN: usize = TRANSPORT_BUFFER + 64 * 1024;

/// The child process serving the hostile agents, killed by its pid when dropped.
struct Agents {
    child: Child,
    base: String,
}

impl Agents {
    fn start() -> Agents {
        let mut child = Command::new(std::env::current_exe().expect("this binary"))
            .arg(hostile_agent::SERVE_FLAG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the hostile agents start");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the ready line");
        let ready: serde_json::Value = serde_json::from_str(&line).expect("a JSON ready line");
        let base = ready["base"].as_str().expect("base").to_owned();
        Agents { child, base }
    }
}

impl Drop for Agents {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const ROUNDS: usize = 5;

fn kib(bytes: usize) -> String {
    format!("{:.0} KiB", bytes as f64 / 1024.0)
}

fn median(values: &mut [usize]) -> usize {
    values.sort_unstable();
    values[values.len() / 2]
}

async fn measure_all(base: &str) -> Vec<String> {
    let mut failures = Vec::new();
    // The counter sees what is allocated: 1 MiB held is a peak of at least 1 MiB.
    let (held, peak) = peak_of(async { vec![1u8; 1024 * 1024] }).await;
    assert!(peak >= held.len(), "the allocator counted {peak} bytes");
    drop(held);
    println!(
        "client peak heap under hostile agents (decode budget {}, bound {}, margin {}):",
        kib(MAX_BYTES),
        kib(BOUND),
        kib(MARGIN)
    );
    for scenario in &SCENARIOS {
        // Warm up once, so lazily built state (the connection pool, the runtime's buffers) is
        // counted in neither size.
        (scenario.run)(base.to_owned(), scenario.sizes[0]).await;
        let mut peaks = [Vec::new(), Vec::new()];
        for round in 0..ROUNDS {
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for index in order {
                let run = (scenario.run)(base.to_owned(), scenario.sizes[index]);
                let limited = tokio::time::timeout(Duration::from_secs(30), run);
                let (outcome, peak) = peak_of(limited).await;
                outcome.unwrap_or_else(|_| panic!("{} did not end in 30 s", scenario.name));
                peaks[index].push(peak);
            }
        }
        let [small, large] = &mut peaks;
        let (small_median, large_median) = (median(small), median(large));
        println!(
            "  {:<31} {:>2} {:<8} median {:>8} ({:>8} .. {:>8})   {:>2} {:<8} median {:>8} ({:>8} .. {:>8})",
            scenario.name,
            scenario.sizes[0],
            scenario.unit,
            kib(small_median),
            kib(small[0]),
            kib(small[ROUNDS - 1]),
            scenario.sizes[1],
            scenario.unit,
            kib(large_median),
            kib(large[0]),
            kib(large[ROUNDS - 1]),
        );
        let highest = small[ROUNDS - 1].max(large[ROUNDS - 1]);
        if highest > BOUND {
            failures.push(format!(
                "{}: peak {} over the bound {}",
                scenario.name,
                kib(highest),
                kib(BOUND)
            ));
        }
        if large_median > small_median + MARGIN {
            failures.push(format!(
                "{}: the peak grows with the size ({} at {} {}, {} at {} {})",
                scenario.name,
                kib(small_median),
                scenario.sizes[0],
                scenario.unit,
                kib(large_median),
                scenario.sizes[1],
                scenario.unit
            ));
        }
    }
    failures
}

fn main() {
    if std::env::args().any(|arg| arg == hostile_agent::SERVE_FLAG) {
        hostile_agent::run();
        return;
    }
    let agents = Agents::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let failures = runtime.block_on(measure_all(&agents.base));
    drop(agents);
    if !failures.is_empty() {
        eprintln!("memory bound not held:\n  {}", failures.join("\n  "));
        std::process::exit(1);
    }
}
