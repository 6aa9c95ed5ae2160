//! The client against an agent built with the official JS SDK 1.3.0's own server pieces
//! (`tests/interop/js-sdk/sdk_agent_server.mjs`: its request handler, in-memory task and push-config
//! stores, express JSON-RPC and REST handlers and gRPC services, with its v0.3 compatibility layer
//! on), over each binding in v1 and in v0.3: card discovery, send (task, message, input-required and
//! its second turn, failure), stream, get with `historyLength`, list, cancel, subscribe, push-config
//! CRUD, the extended card, file bytes read back exactly (and as the agent received them), and the
//! A2A errors by kind. Each check is
//! run and recorded, and the test fails naming every check that failed, with the count per binding
//! and version printed.
//!
//! Where the SDK departs from the specification, the check asserts what the SDK does and names the
//! section, so it fails if the SDK changes (see [`departures`](super::sdk_js_departures)).

use std::future::Future;
use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::ErrorKind;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest, Message,
    Part, PartContent, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskState,
};

use crate::js::{JsServer, available};
use crate::requests::get;
use crate::sdk_js_departures as departures;

/// What one check found wrong.
pub type Outcome = Result<(), String>;

/// Fails with `what` unless `holds`.
pub fn ensure(holds: bool, what: impl FnOnce() -> String) -> Outcome {
    if holds { Ok(()) } else { Err(what()) }
}

/// The checks of one run and their outcomes.
#[derive(Default)]
pub struct Checks {
    pub outcomes: Vec<(&'static str, Outcome)>,
}

impl Checks {
    /// Runs one check, bounded to twenty seconds, and records it.
    pub async fn run(&mut self, name: &'static str, check: impl Future<Output = Outcome>) {
        let outcome = tokio::time::timeout(Duration::from_secs(20), check)
            .await
            .unwrap_or_else(|_| Err("no answer within 20 s".to_owned()));
        self.outcomes.push((name, outcome));
    }
}

pub fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(
            format!("js-judge-{}", fastrand::u64(..)),
            [Part::text(text)],
        ),
        ..Default::default()
    }
}

fn in_background(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..send(text)
    }
}

pub async fn task_of(client: &A2aClient, request: SendMessageRequest) -> Result<Task, String> {
    match client.send_message(request).await {
        Ok(SendMessageResponse::Task(task)) => Ok(task),
        other => Err(format!("expected a task, got {other:?}")),
    }
}

pub fn expect_kind<T: std::fmt::Debug>(result: Result<T, ClientError>, kind: ErrorKind) -> Outcome {
    match result {
        Err(failure) if failure.a2a_kind() == Some(kind) => Ok(()),
        other => Err(format!("expected {kind:?}, got {other:?}")),
    }
}

fn state_of(task: &Task, state: TaskState) -> Outcome {
    ensure(task.status.state == state, || {
        format!("expected {state:?}, got {task:?}")
    })
}

/// The raw bytes of a task's first artifact's first part.
fn first_raw(task: &Task) -> Option<&[u8]> {
    match task.artifacts.first()?.parts.first()?.content.as_ref()? {
        PartContent::Raw(bytes) => Some(bytes),
        _ => None,
    }
}

async fn send_checks(client: &A2aClient, checks: &mut Checks) {
    checks
        .run("send.task", async {
            let task = task_of(client, send("hello")).await?;
            state_of(&task, TaskState::Completed)?;
            let text = task.artifacts.first().map(|a| a.text());
            ensure(text.as_deref() == Some("echo: hello"), || {
                format!("{task:?}")
            })
        })
        .await;
    checks
        .run("send.message", async {
            match client.send_message(send("message please")).await {
                Ok(SendMessageResponse::Message(message))
                    if message.text() == "direct JS answer" =>
                {
                    Ok(())
                }
                other => Err(format!("expected the direct answer, got {other:?}")),
            }
        })
        .await;
    checks
        .run("send.input-required-then-second-turn", async {
            let asked = task_of(client, send("input please")).await?;
            state_of(&asked, TaskState::InputRequired)?;
            let mut answer = send("tomorrow");
            answer.message.task_id = Some(asked.id.clone());
            answer.message.context_id = asked.context_id.clone();
            let done = task_of(client, answer).await?;
            state_of(&done, TaskState::Completed)?;
            ensure(done.id == asked.id, || format!("{done:?}"))?;
            let text = done.artifacts.first().map(|a| a.text());
            ensure(text.as_deref() == Some("got: tomorrow"), || {
                format!("{done:?}")
            })
        })
        .await;
    checks
        .run("send.failed", async {
            let task = task_of(client, send("fail please")).await?;
            state_of(&task, TaskState::Failed)?;
            let text = task.status.message.as_ref().map(|m| m.text());
            ensure(text.as_deref() == Some("failure on demand"), || {
                format!("{task:?}")
            })
        })
        .await;
    checks
        .run("file-bytes.exact", async {
            let task = task_of(client, send("file please")).await?;
            let part = task.artifacts.first().and_then(|a| a.parts.first());
            ensure(first_raw(&task) == Some(b"Generated file content"), || {
                format!("the file part came back as {part:?}")
            })?;
            departures::file_name(client, part.expect("a part"))
        })
        .await;
    checks
        .run("file-bytes.sent", async {
            let mut request = send("");
            request.message.parts = vec![Part::raw(b"Sent file content".to_vec(), "text/plain")];
            let task = task_of(client, request).await?;
            let text = task.artifacts.first().map(|a| a.text()).unwrap_or_default();
            departures::file_received(client, &text)
        })
        .await;
}

async fn stream_checks(client: &A2aClient, checks: &mut Checks) {
    checks
        .run("stream.chunks", async {
            let events = client
                .send_streaming_message(send("stream please"))
                .await
                .map_err(|e| e.to_string())?
                .collect()
                .await
                .map_err(|e| e.to_string())?;
            let chunks: Vec<(String, Option<bool>, Option<bool>)> = events
                .iter()
                .filter_map(|e| match e {
                    StreamResponse::ArtifactUpdate(a) => {
                        Some((a.artifact.text(), a.append, a.last_chunk))
                    }
                    _ => None,
                })
                .collect();
            departures::stream_chunks(client, &chunks)?;
            ensure(
                matches!(events.last(), Some(StreamResponse::StatusUpdate(u))
                    if u.status.state == TaskState::Completed),
                || format!("the stream does not end completed: {events:?}"),
            )
        })
        .await;
    checks
        .run("subscribe.running-task", async {
            let running = task_of(client, in_background("slow please")).await?;
            let events = client
                .subscribe_to_task(SubscribeToTaskRequest {
                    id: running.id.clone(),
                    ..Default::default()
                })
                .await
                .map_err(|e| e.to_string())?
                .collect()
                .await
                .map_err(|e| e.to_string())?;
            departures::subscribe_first_event(client, &events, &running.id)?;
            ensure(
                matches!(events.last(), Some(StreamResponse::StatusUpdate(u))
                    if u.status.state == TaskState::Completed),
                || format!("{events:?}"),
            )
        })
        .await;
    checks
        .run("cancel.running-task", async {
            let running = task_of(client, in_background("slow please")).await?;
            let canceled = client
                .cancel_task(CancelTaskRequest {
                    id: running.id.clone(),
                    ..Default::default()
                })
                .await
                .map_err(|e| e.to_string())?;
            state_of(&canceled, TaskState::Canceled)?;
            let fetched = client.get_task(get(&running.id)).await;
            let fetched = fetched.map_err(|e| e.to_string())?;
            state_of(&fetched, TaskState::Canceled)
        })
        .await;
}

async fn read_checks(client: &A2aClient, checks: &mut Checks) {
    checks
        .run("get.history-length", async {
            let asked = task_of(client, send("input please")).await?;
            let mut answer = send("tomorrow");
            answer.message.task_id = Some(asked.id.clone());
            task_of(client, answer).await?;
            let full = client.get_task(get(&asked.id)).await;
            let full = full.map_err(|e| e.to_string())?;
            let one = client
                .get_task(GetTaskRequest {
                    history_length: Some(1),
                    ..get(&asked.id)
                })
                .await
                .map_err(|e| e.to_string())?;
            departures::history(client, &full, &one)
        })
        .await;
    checks
        .run("list.context", async {
            let first = task_of(client, send("hello")).await?;
            let mut second = send("hello again");
            second.message.context_id = first.context_id.clone();
            task_of(client, second).await?;
            let listed = client
                .list_tasks(ListTasksRequest {
                    context_id: first.context_id.clone(),
                    ..Default::default()
                })
                .await;
            departures::list(client, listed, 2)
        })
        .await;
    checks
        .run("extended-card.with-token", async {
            let extended = client
                .get_extended_agent_card(GetExtendedAgentCardRequest::default())
                .await;
            departures::extended_card(client, extended)
        })
        .await;
}

async fn error_checks(client: &A2aClient, checks: &mut Checks) {
    checks
        .run("error.get-unknown-task", async {
            expect_kind(
                client.get_task(get("no-such-task")).await,
                ErrorKind::TaskNotFound,
            )
        })
        .await;
    checks
        .run("error.cancel-unknown-task", async {
            let request = CancelTaskRequest {
                id: "no-such-task".into(),
                ..Default::default()
            };
            expect_kind(client.cancel_task(request).await, ErrorKind::TaskNotFound)
        })
        .await;
    checks
        .run("error.cancel-completed-task", async {
            let task = task_of(client, send("hello")).await?;
            let request = CancelTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            };
            expect_kind(
                client.cancel_task(request).await,
                ErrorKind::TaskNotCancelable,
            )
        })
        .await;
    checks
        .run("error.subscribe-completed-task", async {
            let task = task_of(client, send("hello")).await?;
            let request = SubscribeToTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            };
            match client.subscribe_to_task(request).await {
                Ok(stream) => expect_kind(stream.collect().await, ErrorKind::UnsupportedOperation),
                Err(failure) => expect_kind::<()>(Err(failure), ErrorKind::UnsupportedOperation),
            }
        })
        .await;
    checks
        .run("error.continue-unknown-task", async {
            let mut request = send("hello");
            request.message.task_id = Some("no-such-task".into());
            expect_kind(client.send_message(request).await, ErrorKind::TaskNotFound)
        })
        .await;
}

/// Every check over `binding` in `version` against a fresh agent; returns the outcomes.
async fn judge(version: ProtocolVersion, binding: Binding) -> Option<Vec<(&'static str, Outcome)>> {
    if !available("the client against the JS SDK server") {
        return None;
    }
    let server = JsServer::start(&["--delay", "1.5"]);
    let config = ClientConfig::default()
        .only(binding)
        .only_version(version)
        .bearer_token(server.token());
    let client = A2aClient::connect(&server.url(), config)
        .await
        .unwrap_or_else(|e| panic!("connecting over {version} {binding}: {e}"));
    assert_eq!(
        (client.protocol_version(), client.binding()),
        (version, binding)
    );
    assert_eq!(client.card().name, "JS SDK agent");
    let mut checks = Checks::default();
    checks.outcomes.push(("card", Ok(())));
    let run = async {
        send_checks(&client, &mut checks).await;
        stream_checks(&client, &mut checks).await;
        read_checks(&client, &mut checks).await;
        departures::push_config_checks(&client, &mut checks).await;
        error_checks(&client, &mut checks).await;
    };
    tokio::time::timeout(Duration::from_secs(150), run)
        .await
        .expect("the run ends within 150 s");
    Some(checks.outcomes)
}

async fn run(version: ProtocolVersion, binding: Binding) {
    let Some(outcomes) = judge(version, binding).await else {
        return;
    };
    let failed: Vec<String> = outcomes
        .iter()
        .filter_map(|(name, outcome)| outcome.as_ref().err().map(|e| format!("{name}: {e}")))
        .collect();
    let names: Vec<&str> = outcomes.iter().map(|(name, _)| *name).collect();
    println!(
        "client → JS SDK server over v{version} {binding}: {}/{} checks passed: {}",
        outcomes.len() - failed.len(),
        outcomes.len(),
        names.join(", ")
    );
    assert!(failed.is_empty(), "failed:\n{}", failed.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v1_jsonrpc() {
    run(ProtocolVersion::V1_0, Binding::JsonRpc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v1_http_json() {
    run(ProtocolVersion::V1_0, Binding::HttpJson).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v1_grpc() {
    run(ProtocolVersion::V1_0, Binding::Grpc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v0_3_jsonrpc() {
    run(ProtocolVersion::V0_3, Binding::JsonRpc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v0_3_http_json() {
    run(ProtocolVersion::V0_3, Binding::HttpJson).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_drives_the_js_sdk_server_over_v0_3_grpc() {
    run(ProtocolVersion::V0_3, Binding::Grpc).await;
}
