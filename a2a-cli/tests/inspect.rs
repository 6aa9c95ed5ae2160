//! `a2a inspect` in a real browser: Debian's Chromium, headless, driven through chromedriver by a
//! WebDriver client (fantoccini). The example agent is served in-process on loopback and the real
//! `a2a inspect` binary serves the page; the page loads the agent's card, then on each interface the
//! card lists (JSON-RPC, HTTP+JSON and gRPC, A2A v1 and v0.3) sends a message, shows the answer as
//! it streams in, and lists the task, while the raw exchange shows that binding's wire records.
//! A screenshot of each step is saved under `target/inspect-screenshots/` (CI keeps it).
//!
//! Without `chromium` and `chromedriver` on the PATH the browser test skips with one line, and fails
//! under `CI=true`. The processes it starts are killed by their pid when it ends, and it is bounded in
//! time. A second test, without a browser, checks that the local API refuses other hosts, other
//! origins and requests without the run's token, and that the command serves loopback only.

use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use a2a_example_agent::server::{self, Config};
use a2a_server::Serving;
use a2a_testkit::stores::StoreChoice;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// The whole test's bound.
const TEST_DEADLINE: Duration = Duration::from_secs(240);
/// The longest one step of the page may take (a card read, an answer, a task listed).
const STEP: Duration = Duration::from_secs(30);

/// The message sent on each interface, and what the example agent's answer then holds.
const MESSAGE: &str = "plan my route from Lisbon to Porto";
const ANSWERED: &str = "Leave Lisbon";

/// A child process killed (by its pid) and reaped when dropped.
struct Process {
    child: Child,
    name: &'static str,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `name` on the PATH, if it is there.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// A free port of 127.0.0.1 (bound, then released).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The example agent on free loopback ports, a memory store, on a runtime of its own.
fn start_agent() -> (tokio::runtime::Runtime, Serving) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime for the agent");
    let config = Config {
        store: StoreChoice::Memory,
        ..Config::default()
    };
    let serving = runtime
        .block_on(server::start_on_free_ports(config))
        .expect("the example agent starts");
    (runtime, serving)
}

/// `a2a inspect [URL]` on a free loopback port; the page's URL is the first line it prints.
fn start_inspector(agent_url: Option<&str>) -> (Process, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_a2a"))
        .arg("inspect")
        .args(agent_url)
        .args(["--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("a2a inspect starts");
    let stdout = child.stdout.take().unwrap();
    let process = Process {
        child,
        name: "a2a inspect",
    };
    let mut stdout = BufReader::new(stdout);
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    // The rest of its output is read (and dropped) as it comes, so it never writes into a full pipe.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let page = line
        .trim()
        .strip_prefix("inspecting at ")
        .unwrap_or_else(|| panic!("{}: printed {line:?}", process.name))
        .to_owned();
    assert!(page.starts_with("http://127.0.0.1:"), "{page}");
    (process, page)
}

/// chromedriver on a free loopback port, once it accepts connections.
fn start_chromedriver(chromedriver: &Path) -> (Process, u16) {
    let port = free_port();
    let child = Command::new(chromedriver)
        .args([
            format!("--port={port}"),
            "--allowed-ips=127.0.0.1".to_owned(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let process = Process {
        child,
        name: "chromedriver",
    };
    let deadline = Instant::now() + STEP;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{} never listened", process.name);
        std::thread::sleep(Duration::from_millis(50));
    }
    (process, port)
}

/// Where the screenshots go: `target/inspect-screenshots/` of the workspace.
fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/inspect-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Saves the browser's view as `name`.png.
async fn screenshot(browser: &Client, name: &str) {
    let png = browser.screenshot().await.expect("a screenshot");
    let path = screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

/// Waits until the JavaScript expression `condition` is truthy in the page; its last value.
async fn wait_for(browser: &Client, condition: &str, what: &str) -> Value {
    let deadline = Instant::now() + STEP;
    loop {
        let value = browser
            .execute(&format!("return {condition};"), vec![])
            .await
            .unwrap_or(Value::Null);
        if !matches!(value, Value::Null | Value::Bool(false)) && value != json!("") {
            return value;
        }
        if Instant::now() > deadline {
            let status = browser
                .execute(
                    "return document.getElementById('status')?.textContent;",
                    vec![],
                )
                .await
                .unwrap_or(Value::Null);
            panic!("the page never showed {what} (its status line: {status})");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Brings the element `id` into view.
async fn scroll_to(browser: &Client, id: &str) {
    browser
        .execute(
            "document.getElementById(arguments[0]).scrollIntoView();",
            vec![json!(id)],
        )
        .await
        .unwrap();
}

#[test]
fn the_inspector_page_shows_card_chat_tasks_and_exchange_on_every_binding() {
    let (Some(chromium), Some(chromedriver)) = (on_path("chromium"), on_path("chromedriver"))
    else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "chromium and chromedriver are needed under CI (apt-get install chromium chromium-driver)"
        );
        eprintln!(
            "skipped: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let (agent_runtime, serving) = start_agent();
    let agent_url = serving.base_url();
    let (_inspector, page) = start_inspector(Some(&agent_url));
    let (_chromedriver, port) = start_chromedriver(&chromedriver);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(TEST_DEADLINE, drive(&chromium, port, &page))
            .await
            .expect("the browser test ran past its deadline");
    });
    agent_runtime.block_on(async {
        let _ = tokio::time::timeout(Duration::from_secs(5), serving.shutdown()).await;
    });
    agent_runtime.shutdown_timeout(Duration::from_secs(2));
}

/// The steps in the browser.
async fn drive(chromium: &Path, chromedriver_port: u16, page: &str) {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium,
            // As root (CI) Chromium needs --no-sandbox; no GPU, no /dev/shm limits in containers.
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1400"],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let browser = ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{chromedriver_port}"))
        .await
        .expect("a WebDriver session with chromium");
    let outcome = steps(&browser, page).await;
    let _ = browser.close().await;
    outcome
}

async fn steps(browser: &Client, page: &str) {
    browser.goto(page).await.unwrap();
    let name = wait_for(
        browser,
        "document.getElementById('card-name')?.textContent",
        "the card's name",
    )
    .await;
    assert_eq!(name, json!("Wayfarer (example agent)"));
    let validity = browser.find(Locator::Id("card-validity")).await.unwrap();
    assert!(validity.text().await.unwrap().starts_with("Valid"));
    let signatures = browser.find(Locator::Id("card-signatures")).await.unwrap();
    assert!(signatures.text().await.unwrap().starts_with("unsigned"));
    screenshot(browser, "01-card").await;

    let interfaces = [
        ("JSONRPC", "1.0"),
        ("HTTP+JSON", "1.0"),
        ("GRPC", "1.0"),
        ("JSONRPC", "0.3"),
        ("HTTP+JSON", "0.3"),
        ("GRPC", "0.3"),
    ];
    for (step, (binding, version)) in interfaces.into_iter().enumerate() {
        let label = format!("{binding} {version}");
        let slug = format!(
            "{:02}-{}-{}",
            step + 2,
            binding.to_ascii_lowercase().replace('+', "-"),
            version.replace('.', "_")
        );
        let select = browser.find(Locator::Id("interface")).await.unwrap();
        select
            .select_by_value(&format!("{binding}|{version}"))
            .await
            .unwrap();
        let input = browser.find(Locator::Id("message-text")).await.unwrap();
        input.send_keys(MESSAGE).await.unwrap();
        browser
            .find(Locator::Id("send"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();

        // The answer: its bubble is done, the task completed, the route in it, and it came as
        // several events (the task, working, the artifact, completed) of the stream.
        let answer = format!("document.querySelectorAll('#chat li.answer')[{step}]");
        wait_for(
            browser,
            &format!("{answer}?.dataset.done === 'true'"),
            &format!("the answer over {label}"),
        )
        .await;
        let bubble: Value = browser
            .execute(
                &format!(
                    "const b = {answer}; return {{state: b.dataset.state, text: b.textContent, \
                     events: Number(b.dataset.events ?? 0), task: b.dataset.taskId ?? null, \
                     error: b.dataset.error ?? null}};"
                ),
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(bubble["error"], Value::Null, "{label}: {bubble}");
        assert_eq!(
            bubble["state"],
            json!("TASK_STATE_COMPLETED"),
            "{label}: {bubble}"
        );
        assert!(
            bubble["text"].as_str().unwrap().contains(ANSWERED),
            "{label}: {bubble}"
        );
        assert!(
            bubble["events"].as_u64().unwrap() >= 3,
            "{label}: the answer did not stream: {bubble}"
        );
        screenshot(browser, &format!("{slug}-answer")).await;

        // The task in the list, with the route among its artifacts.
        let task_id = bubble["task"].as_str().expect("the answer names its task");
        let task = format!("document.querySelector('#tasks [data-task-id=\"{task_id}\"]')");
        let listed = wait_for(
            browser,
            &format!("{task}?.textContent"),
            &format!("task {task_id} in the list over {label}"),
        )
        .await;
        assert!(
            listed.as_str().unwrap().contains(ANSWERED),
            "{label}: {listed}"
        );

        // The raw exchange: this binding's SendStreamingMessage, its request and streamed answer.
        let exchange = wait_for(
            browser,
            &format!(
                "[...document.querySelectorAll('#exchange .exchange[data-binding=\"{binding}\"]')]\
                 .find(e => e.querySelector('summary').textContent.endsWith('SendStreamingMessage') \
                 && e.textContent.includes('{task_id}'))?.textContent"
            ),
            &format!("the raw exchange over {label}"),
        )
        .await;
        let exchange = exchange.as_str().unwrap();
        assert!(exchange.contains(MESSAGE), "{label}: {exchange}");
        assert!(exchange.contains("Leave Lisbon"), "{label}: {exchange}");
        // Opened, for the screenshot: the request and each part of the streamed answer.
        browser
            .execute(
                "const groups = [...document.querySelectorAll('#exchange .exchange')];\
                 groups.forEach(g => g.open = false);\
                 groups.find(g => g.textContent.includes(arguments[0]) && g.querySelector('summary')\
                 .textContent.endsWith('SendStreamingMessage')).open = true;",
                vec![json!(task_id)],
            )
            .await
            .unwrap();
        scroll_to(browser, "tasks-panel").await;
        screenshot(browser, &format!("{slug}-tasks-and-exchange")).await;
        scroll_to(browser, "chat-panel").await;
    }
}

/// The status of one raw HTTP/1.1 request to the inspector at `port` (the connection then closes).
fn status_of(port: u16, request: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(STEP)).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer to {request:?}: {response:?}"))
}

#[test]
fn the_local_api_refuses_other_hosts_origins_and_missing_tokens() {
    let (_inspector, page) = start_inspector(None);
    let (address, token) = page
        .strip_prefix("http://")
        .and_then(|rest| rest.split_once("/?token="))
        .unwrap();
    let port: u16 = address.rsplit_once(':').unwrap().1.parse().unwrap();
    let request = |path: &str, host: &str, extra: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n")
    };
    let with_token = format!("x-a2a-inspect-token: {token}\r\n");
    let page_path = format!("/?token={token}");

    assert_eq!(status_of(port, &request(&page_path, address, "")), 200);
    assert_eq!(status_of(port, &request("/app.js", address, "")), 200);
    assert_eq!(
        status_of(port, &request("/api/config", address, &with_token)),
        200
    );
    // The page without the token, or with another.
    assert_eq!(status_of(port, &request("/", address, "")), 403);
    assert_eq!(status_of(port, &request("/?token=0123", address, "")), 403);
    // The API without the token, or with a wrong one.
    assert_eq!(status_of(port, &request("/api/config", address, "")), 403);
    let wrong = "x-a2a-inspect-token: 00000000000000000000000000000000\r\n";
    assert_eq!(
        status_of(port, &request("/api/exchange", address, wrong)),
        403
    );
    // Another site's page in the browser (its Origin), even holding the token.
    let evil_origin = format!("{with_token}Origin: http://evil.example\r\n");
    assert_eq!(
        status_of(port, &request("/api/config", address, &evil_origin)),
        403
    );
    // A name rebound to 127.0.0.1 (DNS rebinding): the Host is not the inspector's.
    let rebound = format!("evil.example:{port}");
    assert_eq!(status_of(port, &request(&page_path, &rebound, "")), 421);
    assert_eq!(
        status_of(port, &request("/api/config", &rebound, &with_token)),
        421
    );
    // A chat request from another origin sends nothing to any agent.
    let chat = format!(
        "POST /api/chat HTTP/1.1\r\nHost: {address}\r\n{evil_origin}Content-Type: application/json\r\n\
         Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    assert_eq!(status_of(port, &chat), 403);

    // Only a loopback address is served.
    let refused = Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["inspect", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("loopback"), "{stderr}");
}
