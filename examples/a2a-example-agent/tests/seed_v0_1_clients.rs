//! Seed 004's A2A v0.1 exchanges (`../shared/seeds/004_9f419caf4310f08c.txt`) replayed against the
//! example agent's JSON-RPC endpoint, as a v0.1 client sends them (no `A2A-Version`): every request
//! is the seed's own, each section's task id made unique and its two departures from its own schema
//! repaired ([`repaired`]); every answer (each event of a stream too)
//! must be a document of its v0.1 response type that the v0.1 types read and write back unchanged
//! (nothing unknown, nothing lost), with the outcome the agent gives. The task the seed's first
//! send created is then read by a v1 client and a v0.3 client, and a task a v0.3 client created is
//! read with v0.1's shared method name and answered in v0.3's shapes (the routing rule of
//! `a2a_server`'s JSON-RPC binding). Skipped with one line where `../shared` is absent; a failure
//! under `CI=true`.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig};
use a2a_compat::v0_1;
use a2a_example_agent::server::{self, Config};
use a2a_protocol::service::ProtocolVersion;
use a2a_server::Serving;
use a2a_testkit::stores::StoreChoice;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use a2a_types::v1::{GetTaskRequest, TaskState};
use serde_json::{Value, json};

/// The most one exchange with the agent may take.
const EXCHANGE_LIMIT: Duration = Duration::from_secs(20);
/// The task id every request of the seed names.
const SEED_TASK_ID: &str = "de38c76d-d54c-436c-8b9f-4c2703648d64";
/// The seed's sections that start a task of their own; the others go on with the last one's.
const STARTING_SECTIONS: [&str; 5] = [
    "Send a Task",
    "Multi-turn Conversations",
    "Streaming Support",
    "Non-textual Media",
    "Structured Output",
];

/// One request of the seed, with the section it stands in.
struct SeedRequest {
    section: String,
    request: Value,
}

/// The requests of the seed (the JSON blocks with a `method`), in order.
fn seed_requests(text: &str) -> Vec<SeedRequest> {
    let mut requests = Vec::new();
    let mut section = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            section = heading.trim_start_matches('#').trim().to_owned();
        } else if trimmed == "```json" {
            // The seed indents with no-break spaces, which JSON does not take as whitespace.
            let block: String = lines
                .by_ref()
                .take_while(|l| l.trim() != "```")
                .map(|l| l.replace('\u{a0}', " ") + "\n")
                .collect();
            // Streams hold several documents: no request is among them.
            if let Ok(document) = serde_json::from_str::<Value>(&block)
                && document.get("method").is_some()
            {
                requests.push(SeedRequest {
                    section: section.clone(),
                    request: document,
                });
            }
        }
    }
    requests
}

/// The v0.1 response type of a v0.1 method.
fn response_type(method: &str) -> &'static str {
    match method {
        "tasks/send" => "SendTaskResponse",
        "tasks/sendSubscribe" | "tasks/resubscribe" => "SendTaskStreamingResponse",
        "tasks/get" => "GetTaskResponse",
        "tasks/cancel" => "CancelTaskResponse",
        "tasks/pushNotification/set" => "SetTaskPushNotificationResponse",
        "tasks/pushNotification/get" => "GetTaskPushNotificationResponse",
        other => panic!("the seed has no method {other}"),
    }
}

/// Reads JSON as a v0.1 type and writes it back.
struct RoundTrip(Value);

impl SchemaTypeVisitor for RoundTrip {
    type Output = Result<Value, String>;

    fn visit<T: SchemaType>(self) -> Result<Value, String> {
        let typed: T = serde_json::from_value(self.0).map_err(|e| e.to_string())?;
        serde_json::to_value(&typed).map_err(|e| e.to_string())
    }
}

/// Panics unless `answer` is a v0.1 `schema_type` the types read and write back unchanged.
fn assert_v0_1(schema_type: &str, answer: &Value, what: &str) {
    let back = v0_1::visit_schema_type(schema_type, RoundTrip(answer.clone()))
        .expect("a v0.1 type")
        .unwrap_or_else(|e| panic!("{what}: not a v0.1 {schema_type}: {e}\n{answer:#}"));
    assert_eq!(&back, answer, "{what}: the v0.1 {schema_type} lost members");
}

/// The seed's request with its task id replaced by `task_id`.
fn with_task_id(request: &Value, task_id: &str) -> Value {
    let text = request.to_string().replace(SEED_TASK_ID, task_id);
    serde_json::from_str(&text).expect("still JSON")
}

/// The seed's request with its departures from the v0.1 schema repaired, as `tests/tests/suite/
/// types_seed_v0_1.rs` lists them: the two streaming requests leave out `jsonrpc` and `id` (without an
/// id a request is a notification, which gets no answer; the seed's answers carry `1`), and its file
/// parts name their content `data` where v0.1 names it `bytes` (and hold a placeholder that is not
/// base64: it becomes a few real bytes).
fn repaired(mut request: Value) -> Value {
    request["jsonrpc"] = json!("2.0");
    if request.get("id").is_none() {
        request["id"] = json!(1);
    }
    if let Some(parts) = request["params"]["message"]["parts"].as_array_mut() {
        for file in parts.iter_mut().filter_map(|part| part.get_mut("file")) {
            if let Some(file) = file.as_object_mut()
                && file.remove("data").is_some()
            {
                // "a file of four bytes", base64.
                file.insert("bytes".into(), json!("YSBmaWxlIG9mIGZvdXIgYnl0ZXM="));
            }
        }
    }
    request
}

/// Posts `request` to the JSON-RPC endpoint without `A2A-Version`, as a v0.1 client does: the
/// answer, or each event of the stream it opens.
async fn post(agent: &Serving, request: &Value, headers: &[(&str, &str)]) -> Vec<Value> {
    let mut call = reqwest::Client::new()
        .post(format!("{}/jsonrpc", agent.base_url()))
        .header("Content-Type", "application/json")
        .body(request.to_string());
    for (name, value) in headers {
        call = call.header(*name, *value);
    }
    let exchange = async {
        let response = call.send().await.expect("the agent answers");
        let streamed = response.headers().get("content-type").is_some_and(|t| {
            t.to_str()
                .unwrap_or_default()
                .starts_with("text/event-stream")
        });
        let body = response.text().await.expect("the whole answer");
        if streamed {
            body.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| serde_json::from_str(data.trim()).expect("an event is JSON"))
                .collect()
        } else {
            vec![serde_json::from_str(&body).expect("the answer is JSON")]
        }
    };
    tokio::time::timeout(EXCHANGE_LIMIT, exchange)
        .await
        .expect("the exchange ends in time")
}

/// The outcome of one answer: `result`, or the error's code.
fn outcome(answer: &Value) -> String {
    match answer.get("error") {
        Some(error) => format!("error {}", error["code"]),
        None => "result".to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_004_exchanges_replayed_as_a_v0_1_client_then_read_by_v1_and_v0_3_clients() {
    let test = "seed_004_exchanges_replayed_as_a_v0_1_client";
    let Some(path) = a2a_tests::shared_file(test, "seeds/004_9f419caf4310f08c.txt") else {
        return;
    };
    let seed = std::fs::read_to_string(path).expect("the seed is text");
    let config = Config {
        store: StoreChoice::Memory,
        ..Config::default()
    };
    let agent = server::start_on_free_ports(config)
        .await
        .expect("the agent starts on free loopback ports");

    // The card a v0.1 client fetches (at its well-known path, no header) reads as a v0.1 card naming
    // the endpoint.
    let card = reqwest::get(format!("{}/.well-known/agent.json", agent.base_url()))
        .await
        .expect("the card at v0.1's well-known path")
        .text()
        .await
        .expect("the card's body");
    let card: Value = serde_json::from_str(&card).expect("the card is JSON");
    let v0_1_card: v0_1::AgentCard =
        serde_json::from_value(card.clone()).expect("a v0.1 client reads the card");
    assert_eq!(v0_1_card.url, format!("{}/jsonrpc", agent.base_url()));

    let run = std::process::id();
    let mut task_id = String::new();
    let mut section = "";
    let mut first_task = None;
    let mut outcomes = Vec::new();
    for (index, seed_request) in seed_requests(&seed).iter().enumerate() {
        if section != seed_request.section
            && STARTING_SECTIONS.contains(&seed_request.section.as_str())
        {
            task_id = format!("seed-{run}-{index}");
        }
        section = &seed_request.section;
        let method = seed_request.request["method"].as_str().expect("a method");
        let request = repaired(with_task_id(&seed_request.request, &task_id));
        let answers = post(&agent, &request, &[]).await;
        let what = format!("{} ({method})", seed_request.section);
        for (n, answer) in answers.iter().enumerate() {
            assert_v0_1(response_type(method), answer, &format!("{what} #{n}"));
            assert_eq!(answer["id"], request["id"], "{what}: the request's id");
        }
        let last = answers.last().expect("an answer");
        outcomes.push(format!(
            "{what}: {} answer(s), {}",
            answers.len(),
            outcome(last)
        ));
        if method == "tasks/sendSubscribe" {
            assert_eq!(last["result"]["final"], true, "{what}: {last:#}");
            assert_eq!(last["result"]["status"]["state"], "completed", "{what}");
        }
        if method == "tasks/pushNotification/get" {
            let url = &last["result"]["pushNotificationConfig"]["url"];
            assert_eq!(
                url, "https://example.com/callback",
                "{what}: the config set"
            );
        }
        if first_task.is_none() && method == "tasks/send" {
            first_task = Some(last["result"].clone());
        }
    }
    println!("{}", outcomes.join("\n"));
    assert_eq!(outcomes, EXPECTED_OUTCOMES, "each exchange's outcome");

    // The first task, as the v0.1 client saw it, read by a v1 client and a v0.3 client.
    let first_task = first_task.expect("the seed sends a task");
    assert_eq!(first_task["status"]["state"], "completed");
    let id = first_task["id"].as_str().expect("the task's id").to_owned();
    let session = first_task["sessionId"]
        .as_str()
        .expect("a session")
        .to_owned();
    for version in [ProtocolVersion::V1_0, ProtocolVersion::V0_3] {
        let config = ClientConfig::default()
            .only(Binding::JsonRpc)
            .only_version(version);
        let client = A2aClient::connect(&agent.base_url(), config)
            .await
            .unwrap_or_else(|e| panic!("connecting as {version}: {e}"));
        let task = client
            .get_task(GetTaskRequest {
                id: id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{version} reads the v0.1 task: {e}"));
        assert_eq!(task.status.state, TaskState::Completed, "{version}");
        assert_eq!(
            task.context_id.as_deref(),
            Some(session.as_str()),
            "{version}"
        );
        assert_eq!(task.history[0].text(), "tell me a joke", "{version}");
        assert_eq!(
            task.artifacts[0].text(),
            first_task["artifacts"][0]["parts"][0]["text"]
                .as_str()
                .unwrap_or_default(),
            "{version}"
        );
    }

    // A task a v0.3 client created, read with the name v0.1 shares and no header: v0.3's shapes.
    let send = json!({"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": format!("m-{run}"),
        "parts": [{"kind": "text", "text": "tell me a joke"}]}}});
    let sent = post(&agent, &send, &[]).await;
    let later_id = sent[0]["result"]["id"]
        .as_str()
        .expect("a v0.3 task")
        .to_owned();
    let get = json!({"jsonrpc": "2.0", "id": 8, "method": "tasks/get", "params": {"id": later_id}});
    let got = post(&agent, &get, &[]).await;
    assert_eq!(got[0]["result"]["kind"], "task", "{:#}", got[0]);
    assert_eq!(got[0]["result"]["history"][0]["parts"][0]["kind"], "text");
    // And the v0.1 task read the same way by a v0.3 client that says so.
    let get_first = json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"id": id}});
    let as_v0_3 = post(&agent, &get_first, &[("A2A-Version", "0.3")]).await;
    assert_eq!(as_v0_3[0]["result"]["contextId"], session.as_str());
    agent.shutdown().await;
}

/// What the agent answers each of the seed's requests, and how many answers each gets (a stream's
/// events). The agent is not the seed's: it completes each task at once, so the seed's cancel, its
/// second turn and its resubscribe find finished tasks (TaskNotCancelable -32002, UnsupportedOperation
/// -32004), each answered as a v0.1 error.
const EXPECTED_OUTCOMES: [&str; 12] = [
    "Send a Task (tasks/send): 1 answer(s), result",
    "Get a Task (tasks/get): 1 answer(s), result",
    "Cancel a Task (tasks/cancel): 1 answer(s), error -32002",
    "Set Task Push Notifications (tasks/pushNotification/set): 1 answer(s), result",
    "Get Task Push Notifications (tasks/pushNotification/get): 1 answer(s), result",
    "Multi-turn Conversations (tasks/send): 1 answer(s), result",
    "Multi-turn Conversations (tasks/send): 1 answer(s), error -32004",
    "Streaming Support (tasks/sendSubscribe): 4 answer(s), result",
    "Resubscribe to Task (tasks/resubscribe): 1 answer(s), error -32004",
    "Non-textual Media (tasks/send): 1 answer(s), result",
    "Non-textual Media (tasks/get): 1 answer(s), result",
    "Structured Output (tasks/send): 1 answer(s), result",
];
