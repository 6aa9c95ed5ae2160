//! The in-memory store's bounds as a client meets them through the server: a caller at its cap
//! is refused for now, naming the limit (a temporary refusal, as at the server's other caps: HTTP
//! 503, gRPC `UNAVAILABLE`, a `RetryInfo`), while another caller goes on, and a task whose output the store cannot hold ends failed, naming the limit,
//! instead of staying unfinished and holding its owner's room for ever. Every wait is bounded.

mod common;

use std::time::Duration;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, Caller, EventSink, InMemoryTaskStore, MemoryLimits,
    Reply, RequestContext, async_trait,
};
use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, Task, TaskState,
};

const LIMIT: Duration = Duration::from_secs(20);

/// `big N` answers an artifact of N bytes of text, then completes; `wait` works until canceled.
struct RoomAgent;

#[async_trait]
impl AgentExecutor for RoomAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        events.working().await?;
        if let Some(bytes) = text.strip_prefix("big ") {
            let bytes: usize = bytes.parse().unwrap();
            events
                .stream_artifact("a-1", [Part::text("x".repeat(bytes))])
                .await?;
        } else if text == "wait" {
            events.canceled().await;
            return Ok(());
        }
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn server(limits: MemoryLimits) -> A2aServer {
    let card = common::card(
        "Room",
        "Tests the store's bounds.",
        "Answers big artifacts or waits.",
        false,
    );
    A2aServer::builder(card, RoomAgent)
        .task_store(InMemoryTaskStore::with_limits(limits))
        .build()
}

/// Sends `text` as a new task, answered at once; the task as created, or the refusal.
async fn send(server: &A2aServer, caller: &Caller, text: &str) -> Result<Task, Error> {
    let request = SendMessageRequest {
        message: Message::user(format!("m-{text}-{}", rand_suffix()), [Part::text(text)]),
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    };
    let context = CallContext::new(caller.clone(), "test");
    let params = MethodParams::SendMessage(request);
    match tokio::time::timeout(LIMIT, server.call(params, &context))
        .await
        .expect("in time")?
    {
        Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task))) => Ok(task),
        other => panic!("not a task: {other:?}"),
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

async fn until_over(server: &A2aServer, caller: &Caller, id: &str) -> Task {
    let deadline = tokio::time::Instant::now() + LIMIT;
    let context = CallContext::new(caller.clone(), "test");
    loop {
        let get = GetTaskRequest {
            id: id.into(),
            ..Default::default()
        };
        let Ok(Reply::Unary(MethodResult::GetTask(task))) =
            server.call(MethodParams::GetTask(get), &context).await
        else {
            panic!("task {id} is gone");
        };
        if task.status.state.is_terminal() {
            return task;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{id} never ended: {:?}",
            task.status
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_caller_at_its_cap_is_refused_for_now_naming_the_limit_and_others_go_on() {
    let server = server(
        MemoryLimits::default()
            .with_max_tasks(10)
            .with_max_tasks_per_owner(2),
    );
    let anyone = Caller::anonymous();
    for _ in 0..2 {
        send(&server, &anyone, "wait").await.unwrap();
    }
    let refused = send(&server, &anyone, "wait").await.unwrap_err();
    // A temporary refusal naming the limit, as at the server's other caps: not a failure.
    assert_eq!(refused.kind, ErrorKind::Internal, "{refused:?}");
    assert_eq!(refused.metadata["limit"], "max_tasks_per_owner");
    assert!(
        refused.message.contains("max_tasks_per_owner"),
        "{}",
        refused.message
    );
    assert_eq!(refused.http_status(), 503);
    assert_eq!(refused.grpc_code().name(), "UNAVAILABLE");
    assert!(refused.retry_after().is_some());
    let alice = Caller::authenticated("alice");
    let hers = send(&server, &alice, "done").await.unwrap();
    until_over(&server, &alice, &hers.id).await;
}

#[tokio::test]
async fn a_task_whose_output_the_store_cannot_hold_ends_failed_naming_the_limit() {
    let server = server(MemoryLimits::default().with_max_task_bytes(64 << 10));
    let anyone = Caller::anonymous();
    let task = send(&server, &anyone, "big 100000").await.unwrap();
    let over = until_over(&server, &anyone, &task.id).await;
    assert_eq!(over.status.state, TaskState::Failed);
    let why = over.status.message.map(|m| m.text()).unwrap_or_default();
    assert!(why.contains("max_task_bytes"), "{why}");
    // A task within the bound completes.
    let small = send(&server, &anyone, "big 1000").await.unwrap();
    let done = until_over(&server, &anyone, &small.id).await;
    assert_eq!(done.status.state, TaskState::Completed);
}
