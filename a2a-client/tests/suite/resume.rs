//! Streams across dropped connections: resumed with `Last-Event-ID` where the agent gives event ids
//! (no event lost or repeated), resumed from the task's snapshot where it does not, ended cleanly on a
//! terminal state, and reported where resumption is impossible. The agent cuts the connection in the
//! middle of the response, as a proxy or a crash does.

use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{Message, Part, SendMessageRequest, StreamResponse, TaskState};
use axum::response::Response;
use serde_json::{Value, json};

use crate::agent::{Chunk, FakeAgent, Recorded, rpc_event, rpc_result, serve, sse, task, v1_card};

fn status(state: &str) -> Value {
    json!({"statusUpdate": {"taskId": "t-1", "contextId": "ctx-1", "status": {"state": state}}})
}

fn artifact(text: &str) -> Value {
    json!({"artifactUpdate": {"taskId": "t-1", "contextId": "ctx-1",
        "artifact": {"artifactId": "a-1", "parts": [{"text": text}]}}})
}

fn send_request(message_id: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(message_id, [Part::text("stream, please")]),
        ..Default::default()
    }
}

fn client_of(agent: &FakeAgent) -> A2aClient {
    let config = ClientConfig {
        stream_idle_timeout: Some(Duration::from_secs(5)),
        ..ClientConfig::default()
    };
    A2aClient::from_card(v1_card(&agent.base, &[("/rpc", "JSONRPC")]), config).expect("client")
}

/// Streams `m-1` and collects every event until the stream ends on its terminal state (within 10 s,
/// with no error).
async fn stream_to_the_end(client: &A2aClient) -> Vec<StreamResponse> {
    let stream = client
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    tokio::time::timeout(Duration::from_secs(10), stream.collect())
        .await
        .expect("ends on the terminal state")
        .expect("no error")
}

fn kinds(events: &[StreamResponse]) -> Vec<String> {
    events
        .iter()
        .map(|event| match event {
            StreamResponse::Task(task) => format!("task({:?})", task.status.state),
            StreamResponse::StatusUpdate(update) => format!("status({:?})", update.status.state),
            StreamResponse::ArtifactUpdate(update) => {
                format!("artifact({})", update.artifact.artifact_id)
            }
            StreamResponse::Message(_) => "message".to_owned(),
            _ => "other".to_owned(),
        })
        .collect()
}

#[tokio::test]
async fn a_cut_stream_resumes_after_the_last_event_id_without_loss_or_repetition() {
    let agent = serve(|request: &Recorded, index, _| -> Response {
        match (index, request.body["method"].as_str()) {
            (0, Some("SendStreamingMessage")) => sse(vec![
                rpc_event(
                    request,
                    Some("1"),
                    json!({"task": task("t-1", "TASK_STATE_SUBMITTED")}),
                ),
                rpc_event(request, Some("2"), status("TASK_STATE_WORKING")),
                Chunk::Text("id: 3\ndata: {\"jsonrpc\"".to_owned()),
                Chunk::Break,
            ]),
            (1, Some("SubscribeToTask")) => {
                assert_eq!(request.header("last-event-id"), Some("2"));
                assert_eq!(request.body["params"]["id"], "t-1");
                sse(vec![
                    rpc_event(request, Some("3"), artifact("a-1")),
                    rpc_event(request, Some("4"), status("TASK_STATE_COMPLETED")),
                    // The agent keeps the connection open: the client must end on the terminal state.
                    Chunk::Hang,
                ])
            }
            other => panic!("unexpected request {other:?}"),
        }
    })
    .await;
    let client = client_of(&agent);
    let events = stream_to_the_end(&client).await;
    assert_eq!(
        kinds(&events),
        [
            "task(Submitted)",
            "status(Working)",
            "artifact(a-1)",
            "status(Completed)"
        ]
    );
    assert_eq!(agent.calls().len(), 2);
}

#[tokio::test]
async fn without_event_ids_the_resubscription_starts_from_the_tasks_snapshot() {
    let agent = serve(|request: &Recorded, index, _| -> Response {
        match index {
            0 => sse(vec![
                rpc_event(
                    request,
                    None,
                    json!({"task": task("t-1", "TASK_STATE_SUBMITTED")}),
                ),
                rpc_event(request, None, status("TASK_STATE_WORKING")),
                Chunk::Break,
            ]),
            1 => {
                assert_eq!(request.header("last-event-id"), None);
                sse(vec![
                    rpc_event(
                        request,
                        None,
                        json!({"task": task("t-1", "TASK_STATE_WORKING")}),
                    ),
                    rpc_event(request, None, status("TASK_STATE_COMPLETED")),
                ])
            }
            _ => panic!("one resubscription is enough"),
        }
    })
    .await;
    let stream = client_of(&agent)
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let events = stream.collect().await.expect("no error");
    assert_eq!(
        kinds(&events),
        [
            "task(Submitted)",
            "status(Working)",
            "task(Working)",
            "status(Completed)"
        ]
    );
}

#[tokio::test]
async fn a_task_that_finished_meanwhile_ends_the_stream_with_its_final_state() {
    let agent = serve(|request: &Recorded, index, _| -> Response {
        match (index, request.body["method"].as_str()) {
            (0, _) => sse(vec![
                rpc_event(
                    request,
                    Some("1"),
                    json!({"task": task("t-1", "TASK_STATE_WORKING")}),
                ),
                Chunk::Break,
            ]),
            (1, Some("SubscribeToTask")) => crate::agent::json_response(
                200,
                &json!({"jsonrpc": "2.0", "id": request.body["id"],
                        "error": Error::new(ErrorKind::UnsupportedOperation).to_jsonrpc()}),
            ),
            (2, Some("GetTask")) => rpc_result(request, task("t-1", "TASK_STATE_COMPLETED")),
            other => panic!("unexpected request {other:?}"),
        }
    })
    .await;
    let stream = client_of(&agent)
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let events = stream.collect().await.expect("no error");
    assert_eq!(kinds(&events), ["task(Working)", "task(Completed)"]);
}

#[tokio::test]
async fn a_stream_cut_before_any_task_is_reported_as_not_resumable() {
    let agent = serve(|_, _, _| {
        sse(vec![
            Chunk::Text(": warming up\n\n".to_owned()),
            Chunk::Break,
        ])
    })
    .await;
    let client = client_of(&agent);
    let mut stream = client
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let failure = stream.next().await.expect("an item").unwrap_err();
    let ClientError::NotResumable {
        reason,
        cause,
        binding,
    } = &failure
    else {
        panic!("{failure}")
    };
    assert_eq!(*binding, Binding::JsonRpc);
    assert!(reason.contains("no event named a task"), "{failure}");
    assert!(
        matches!(**cause, ClientError::Transport { .. }),
        "{failure}"
    );
    assert!(stream.next().await.is_none());
    assert_eq!(agent.calls().len(), 1, "nothing to resubscribe to");
}

#[tokio::test]
async fn a_resubscribed_stream_that_stays_silent_is_reported_as_not_resumable() {
    // An agent restarted mid-task: it takes the resubscription but never continues the task.
    let agent = serve(|request: &Recorded, index, _| -> Response {
        match (index, request.body["method"].as_str()) {
            (0, Some("SendStreamingMessage")) => sse(vec![
                rpc_event(
                    request,
                    Some("1"),
                    json!({"task": task("t-1", "TASK_STATE_SUBMITTED")}),
                ),
                rpc_event(request, Some("2"), status("TASK_STATE_WORKING")),
                Chunk::Break,
            ]),
            (1, Some("SubscribeToTask")) => {
                assert_eq!(request.header("last-event-id"), Some("2"));
                sse(vec![
                    Chunk::Text(": still here\n\n".to_owned()),
                    Chunk::Hang,
                ])
            }
            other => panic!("unexpected request {other:?}"),
        }
    })
    .await;
    let config = ClientConfig {
        stream_idle_timeout: Some(Duration::from_millis(800)),
        ..ClientConfig::default()
    };
    let client =
        A2aClient::from_card(v1_card(&agent.base, &[("/rpc", "JSONRPC")]), config).expect("client");
    let mut stream = client
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let mut events = Vec::new();
    let failure = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.next().await.expect("an error ends the stream") {
                Ok(event) => events.push(event),
                Err(failure) => return failure,
            }
        }
    })
    .await
    .expect("within the stream timeouts");
    assert_eq!(kinds(&events), ["task(Submitted)", "status(Working)"]);
    let ClientError::NotResumable { reason, cause, .. } = &failure else {
        panic!("{failure}")
    };
    assert!(reason.contains("task t-1 did not go on"), "{failure}");
    assert!(reason.contains("800ms"), "{failure}");
    assert!(
        matches!(**cause, ClientError::Transport { .. }),
        "the cause is what broke the first connection: {failure}"
    );
    assert!(stream.next().await.is_none());
    assert_eq!(agent.calls().len(), 2, "one resubscription");
}

#[tokio::test]
async fn a_resubscribed_stream_that_goes_on_may_still_time_out_plainly() {
    // Once the resumed stream moved the task on, a later silence is an ordinary timeout.
    let agent = serve(|request: &Recorded, index, _| -> Response {
        match index {
            0 => sse(vec![
                rpc_event(
                    request,
                    Some("1"),
                    json!({"task": task("t-1", "TASK_STATE_WORKING")}),
                ),
                Chunk::Break,
            ]),
            1 => sse(vec![
                rpc_event(request, Some("2"), artifact("a-1")),
                Chunk::Hang,
            ]),
            other => panic!("unexpected request {other}"),
        }
    })
    .await;
    let config = ClientConfig {
        stream_idle_timeout: Some(Duration::from_millis(500)),
        ..ClientConfig::default()
    };
    let client =
        A2aClient::from_card(v1_card(&agent.base, &[("/rpc", "JSONRPC")]), config).expect("client");
    let stream = client
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let failure = tokio::time::timeout(Duration::from_secs(10), stream.collect())
        .await
        .expect("within the stream timeouts")
        .expect_err("a timeout");
    assert!(matches!(failure, ClientError::Timeout { .. }), "{failure}");
}

#[tokio::test]
async fn resumption_gives_up_after_the_configured_attempts() {
    let agent = serve(|request: &Recorded, index, _| -> Response {
        if index == 0 {
            return sse(vec![
                rpc_event(
                    request,
                    Some("1"),
                    json!({"task": task("t-1", "TASK_STATE_WORKING")}),
                ),
                Chunk::Break,
            ]);
        }
        crate::agent::status_only(503)
    })
    .await;
    let config = ClientConfig {
        stream_resume_attempts: 2,
        ..ClientConfig::default()
    };
    let client =
        A2aClient::from_card(v1_card(&agent.base, &[("/rpc", "JSONRPC")]), config).expect("client");
    let mut stream = client
        .send_streaming_message(send_request("m-1"))
        .await
        .expect("a stream");
    let first = stream.next().await.expect("an event").expect("the task");
    assert!(matches!(first, StreamResponse::Task(ref t) if t.status.state == TaskState::Working));
    let failure = stream.next().await.expect("an item").unwrap_err();
    assert!(
        matches!(&failure, ClientError::NotResumable { reason, .. } if reason.contains("2 resubscriptions to task t-1 failed")),
        "{failure}"
    );
    assert_eq!(agent.calls().len(), 3);
}

#[tokio::test]
async fn an_http_json_stream_resumes_the_same_way() {
    let event = |id: &str, value: Value| Chunk::Text(format!("id: {id}\ndata: {value}\n\n"));
    let agent = serve(move |request: &Recorded, index, _| -> Response {
        match (index, request.path.as_str()) {
            (0, "/rest/message:stream") => sse(vec![
                event("1", json!({"task": task("t-1", "TASK_STATE_SUBMITTED")})),
                event("2", status("TASK_STATE_WORKING")),
                Chunk::Break,
            ]),
            (1, "/rest/tasks/t-1:subscribe") => {
                assert_eq!(request.header("last-event-id"), Some("2"));
                sse(vec![
                    event("3", artifact("a-1")),
                    event("4", status("TASK_STATE_COMPLETED")),
                    Chunk::Hang,
                ])
            }
            other => panic!("unexpected request {other:?}"),
        }
    })
    .await;
    let client = A2aClient::from_card(
        v1_card(&agent.base, &[("/rest", "HTTP+JSON")]),
        ClientConfig::default(),
    )
    .expect("client");
    let events = stream_to_the_end(&client).await;
    assert_eq!(
        kinds(&events),
        [
            "task(Submitted)",
            "status(Working)",
            "artifact(a-1)",
            "status(Completed)"
        ]
    );
}

/// A gRPC agent whose stream fails after the working status with a bare `UNAVAILABLE` (what a proxy
/// resetting the HTTP/2 stream produces) and whose `SubscribeToTask` sends the rest.
mod grpc_agent {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
    use a2a_proto::v1::{
        SendMessageRequest, StreamResponse, SubscribeToTaskRequest, TaskState, TaskStatus,
        TaskStatusUpdateEvent, stream_response,
    };
    use tonic::codegen::BoxStream;
    use tonic::{Request, Response, Status};

    pub struct Flaky {
        pub subscriptions: Arc<AtomicUsize>,
    }

    fn status(state: TaskState) -> Result<StreamResponse, Status> {
        Ok(StreamResponse {
            payload: Some(stream_response::Payload::StatusUpdate(
                TaskStatusUpdateEvent {
                    task_id: "t-1".into(),
                    context_id: "ctx-1".into(),
                    status: Some(TaskStatus {
                        state: state.into(),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
            )),
        })
    }

    #[tonic::async_trait]
    impl A2aService for Flaky {
        async fn send_streaming_message(
            &self,
            _: Request<SendMessageRequest>,
        ) -> Result<Response<BoxStream<StreamResponse>>, Status> {
            let events = vec![
                status(TaskState::Working),
                Err(Status::unavailable("connection reset by the proxy")),
            ];
            Ok(Response::new(Box::pin(tokio_stream::iter(events))))
        }

        async fn subscribe_to_task(
            &self,
            request: Request<SubscribeToTaskRequest>,
        ) -> Result<Response<BoxStream<StreamResponse>>, Status> {
            assert_eq!(request.get_ref().id, "t-1");
            self.subscriptions.fetch_add(1, Ordering::SeqCst);
            let events = vec![status(TaskState::Completed)];
            Ok(Response::new(Box::pin(tokio_stream::iter(events))))
        }
    }

    /// Serves `agent` on 127.0.0.1; the task is aborted with the test.
    pub async fn serve(agent: Flaky) -> (String, tokio::task::JoinHandle<()>) {
        crate::agent::serve_grpc(A2aServiceServer::new(agent)).await
    }
}

#[tokio::test]
async fn a_grpc_stream_reset_midway_is_resubscribed() {
    let subscriptions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (address, server) = grpc_agent::serve(grpc_agent::Flaky {
        subscriptions: subscriptions.clone(),
    })
    .await;
    let card = v1_card("", &[]);
    let card = a2a_types::v1::AgentCard {
        supported_interfaces: vec![a2a_types::v1::AgentInterface::new(address, "GRPC", "1.0")],
        ..card
    };
    let client = A2aClient::from_card(card, ClientConfig::default()).expect("client");
    let mut request = send_request("m-1");
    request.message.task_id = Some("t-1".into());
    let stream = client
        .send_streaming_message(request)
        .await
        .expect("a stream");
    let events = tokio::time::timeout(Duration::from_secs(10), stream.collect())
        .await
        .expect("bounded")
        .expect("no error");
    assert_eq!(kinds(&events), ["status(Working)", "status(Completed)"]);
    assert_eq!(subscriptions.load(std::sync::atomic::Ordering::SeqCst), 1);
    server.abort();
}
