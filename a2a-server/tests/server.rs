//! The server crate without a transport: `A2aServer::call` with typed requests, for what the
//! bindings share: the state machine, cancellation, bounded streams (a reader that stops reading
//! does not grow the server's memory nor hold the agent back), the stream cap, resuming after a
//! `Last-Event-ID`, the webhook SSRF guard, and owners. Every wait is bounded.

mod common;

use std::time::Duration;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, Caller, EventSink, InMemoryTaskStore, MemoryLimits,
    Reply, RequestContext, ServerConfig, async_trait,
};
use a2a_types::v1::{
    AgentCard, AgentSkill, CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message, Part,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use common::ObservedStore;
use tokio_stream::StreamExt;

const LIMIT: Duration = Duration::from_secs(20);

/// `chunks N` streams N artifact chunks then completes; `wait` works until canceled; anything else
/// completes at once.
struct TestAgent;

#[async_trait]
impl AgentExecutor for TestAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        events.working().await?;
        if let Some(n) = text.strip_prefix("chunks ") {
            let n: usize = n.parse().unwrap();
            events
                .stream_artifact("a-1", (0..n).map(|i| Part::text(format!("chunk {i} "))))
                .await?;
        } else if text == "wait" {
            events.canceled().await;
            return Ok(());
        }
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn card() -> AgentCard {
    AgentCard::builder("Test", "A test agent.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .streaming(true)
        .push_notifications(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "test".into(),
            name: "Test".into(),
            description: "Follows the test's script.".into(),
            tags: vec!["test".into()],
            ..Default::default()
        })
        .build()
        .unwrap()
}

fn server(config: ServerConfig, limits: MemoryLimits) -> A2aServer {
    A2aServer::builder(card(), TestAgent)
        .task_store(InMemoryTaskStore::with_limits(limits))
        .config(config)
        .build()
}

fn send(text: &str, return_immediately: bool) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(format!("m-{text}"), [Part::text(text)]),
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(return_immediately),
            ..Default::default()
        }),
        ..Default::default()
    }
}

async fn call(server: &A2aServer, caller: &Caller, params: MethodParams) -> Result<Reply, Error> {
    let context = CallContext::new(caller.clone(), "test");
    tokio::time::timeout(LIMIT, server.call(params, &context))
        .await
        .expect("in time")
}

async fn unary(
    server: &A2aServer,
    caller: &Caller,
    params: MethodParams,
) -> Result<MethodResult, Error> {
    match call(server, caller, params).await? {
        Reply::Unary(result) => Ok(result),
        Reply::Stream(_) => panic!("a stream for a unary call"),
    }
}

async fn task(server: &A2aServer, caller: &Caller, id: &str) -> Result<Task, Error> {
    let get = GetTaskRequest {
        id: id.into(),
        ..Default::default()
    };
    match unary(server, caller, MethodParams::GetTask(get)).await? {
        MethodResult::GetTask(task) => Ok(task),
        other => panic!("{other:?}"),
    }
}

async fn until_state(server: &A2aServer, caller: &Caller, id: &str, state: TaskState) -> Task {
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        let task = task(server, caller, id).await.unwrap();
        if task.status.state == state {
            return task;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{id} never reached {state:?}: {task:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Starts `chunks 3000` as a stream, reads its first event, stops reading until the task is done;
/// returns the stream and how many events it buffered meanwhile.
async fn stalled_stream(server: &A2aServer) -> (a2a_server::EventStream, usize) {
    let anyone = Caller::anonymous();
    let params = MethodParams::SendStreamingMessage(send("chunks 3000", false));
    let Reply::Stream(mut stream) = call(server, &anyone, params).await.unwrap() else {
        panic!("not a stream")
    };
    let first = tokio::time::timeout(LIMIT, stream.next())
        .await
        .unwrap()
        .unwrap();
    let StreamResponse::Task(created) = first.event else {
        panic!("{first:?}")
    };
    let done = until_state(server, &anyone, &created.id, TaskState::Completed).await;
    assert_eq!(
        done.artifacts[0].parts.len(),
        3000,
        "the agent finished, unhindered"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let buffered = stream.buffered();
    (stream, buffered)
}

async fn drain(mut stream: a2a_server::EventStream) -> usize {
    let mut count = 0;
    while tokio::time::timeout(LIMIT, stream.next())
        .await
        .unwrap()
        .is_some()
    {
        count += 1;
    }
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_that_stops_reading_holds_neither_memory_nor_the_agent() {
    let mut config = ServerConfig::default();
    config.stream_queue = 8;
    // A log that keeps every event: the stalled stream keeps its place and catches up in order.
    let server_ = server(
        config.clone(),
        MemoryLimits::default().with_max_events_per_task(10_000),
    );
    let (stream, buffered) = stalled_stream(&server_).await;
    assert!(
        buffered <= 8,
        "{buffered} events buffered for a reader that reads nothing"
    );
    assert_eq!(server_.open_streams(), 1);
    drop(stream);

    // Nor does the stream read ahead of its queue: everything it took from the log is in the
    // queue (the first event, the task, is not from the log).
    let store = ObservedStore::new(MemoryLimits::default().with_max_events_per_task(10_000));
    let server_ = A2aServer::builder(card(), TestAgent)
        .task_store(store.clone())
        .config(config.clone())
        .build();
    let (stream, buffered) = stalled_stream(&server_).await;
    let taken = store.events_read();
    assert!(
        taken <= 8 && taken == buffered,
        "the stalled stream took {taken} events from the log, {buffered} of them queued"
    );
    // working, 3,000 chunks, completed.
    assert_eq!(drain(stream).await, 3002);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        server_.open_streams(),
        0,
        "the ended stream gave back its slot"
    );

    // A log of 64 events: the stalled reader falls behind it, and its stream ends early rather
    // than keep what the log let go.
    let server_ = server(config, MemoryLimits::default().with_max_events_per_task(64));
    let (stream, buffered) = stalled_stream(&server_).await;
    assert!(buffered <= 8, "{buffered}");
    let read = drain(stream).await;
    assert!(read < 3002, "{read} events");
}

/// A task of `caller`'s that works until canceled.
async fn waiting_task(server: &A2aServer, caller: &Caller) -> Task {
    let Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) = call(
        server,
        caller,
        MethodParams::SendMessage(send("wait", true)),
    )
    .await
    else {
        panic!("no task")
    };
    until_state(server, caller, &task.id, TaskState::Working).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_at_its_stream_cap_is_refused_alone_and_another_still_subscribes() {
    let mut config = ServerConfig::default();
    config.max_streams = 8;
    config.max_streams_per_owner = 2;
    let server = server(config, MemoryLimits::default());
    let (anyone, member) = (Caller::anonymous(), Caller::authenticated("member"));
    let subscribe = |task: &Task| {
        MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        })
    };
    let anonymous_task = waiting_task(&server, &anyone).await;
    let held: Vec<_> = futures_ok([
        call(&server, &anyone, subscribe(&anonymous_task)).await,
        call(&server, &anyone, subscribe(&anonymous_task)).await,
    ]);
    // Anonymous callers (one owner) have their two open: a third is theirs to lose...
    let refused = call(&server, &anyone, subscribe(&anonymous_task))
        .await
        .unwrap_err();
    assert!(
        refused
            .message
            .contains("this caller has its 2 streams open"),
        "{}",
        refused.message
    );
    // ...and no one else's: the member subscribes to its own task, and streams it too.
    let members_task = waiting_task(&server, &member).await;
    let members = call(&server, &member, subscribe(&members_task)).await;
    assert!(members.is_ok(), "{:?}", members.err());
    assert_eq!(server.open_streams(), 3);
    drop(held);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        call(&server, &anyone, subscribe(&anonymous_task))
            .await
            .is_ok(),
        "the slots came back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_at_its_execution_cap_is_refused_alone_before_anything_runs() {
    let mut config = ServerConfig::default();
    config.max_executions = 8;
    config.max_executions_per_owner = 2;
    let server = server(config, MemoryLimits::default());
    let (anyone, member) = (Caller::anonymous(), Caller::authenticated("member"));
    let first = waiting_task(&server, &anyone).await;
    let _second = waiting_task(&server, &anyone).await;
    // Both of the anonymous owner's runs go on: a third message is refused, and makes no task.
    let refused = call(
        &server,
        &anyone,
        MethodParams::SendMessage(send("wait", true)),
    )
    .await
    .unwrap_err();
    assert!(
        refused
            .message
            .contains("this caller has its 2 executions open"),
        "{}",
        refused.message
    );
    let Ok(MethodResult::ListTasks(listed)) = unary(
        &server,
        &anyone,
        MethodParams::ListTasks(ListTasksRequest::default()),
    )
    .await
    else {
        panic!()
    };
    assert_eq!(listed.tasks.len(), 2, "the refused message made no task");
    // Another owner runs its agent meanwhile.
    let members = waiting_task(&server, &member).await;
    assert_eq!(members.status.state, TaskState::Working);
    // A run that ends gives its slot back.
    let cancel = CancelTaskRequest {
        id: first.id.clone(),
        ..Default::default()
    };
    unary(&server, &anyone, MethodParams::CancelTask(cancel))
        .await
        .expect("canceled");
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        match call(
            &server,
            &anyone,
            MethodParams::SendMessage(send("hello", true)),
        )
        .await
        {
            Ok(_) => break,
            Err(error) => {
                assert!(tokio::time::Instant::now() < deadline, "{}", error.message);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// The replies, each of which must be one.
fn futures_ok<const N: usize>(replies: [Result<Reply, Error>; N]) -> Vec<Reply> {
    replies
        .into_iter()
        .map(|reply| reply.expect("a stream"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_config_over_the_size_bound_is_refused_naming_its_largest_part() {
    let server = server(ServerConfig::default(), MemoryLimits::default());
    let alice = Caller::authenticated("alice");
    let task = waiting_task(&server, &alice).await;
    let megabyte = "t".repeat(1 << 20);
    let error = unary(
        &server,
        &alice,
        MethodParams::CreateTaskPushNotificationConfig(TaskPushNotificationConfig {
            task_id: Some(task.id.clone()),
            url: "https://example.com/hook".into(),
            token: Some(megabyte.clone()),
            ..Default::default()
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        (error.kind, error.field_violations[0].field.as_str()),
        (ErrorKind::InvalidParams, "token"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("over this agent's 16384"),
        "{}",
        error.message
    );
    // The same with a message: the path names the config in the request.
    let mut request = send("hello", true);
    request
        .configuration
        .get_or_insert_with(Default::default)
        .task_push_notification_config = Some(TaskPushNotificationConfig {
        url: "https://example.com/hook".into(),
        authentication: Some(a2a_types::v1::AuthenticationInfo {
            scheme: "Bearer".into(),
            credentials: Some(megabyte),
        }),
        ..Default::default()
    });
    let error = unary(&server, &alice, MethodParams::SendMessage(request))
        .await
        .unwrap_err();
    assert_eq!(
        error.field_violations[0].field,
        "configuration.taskPushNotificationConfig.authentication"
    );
    // A config of ordinary size is taken.
    assert!(
        unary(
            &server,
            &alice,
            MethodParams::CreateTaskPushNotificationConfig(TaskPushNotificationConfig {
                task_id: Some(task.id.clone()),
                url: "https://example.com/hook".into(),
                token: Some("t".repeat(1024)),
                ..Default::default()
            }),
        )
        .await
        .is_ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_are_capped_and_resume_after_a_last_event_id() {
    let mut config = ServerConfig::default();
    config.max_streams = 2;
    let server = server(config, MemoryLimits::default());
    let anyone = Caller::anonymous();
    let Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(waiting)))) = call(
        &server,
        &anyone,
        MethodParams::SendMessage(send("wait", true)),
    )
    .await
    else {
        panic!("no task")
    };
    until_state(&server, &anyone, &waiting.id, TaskState::Working).await;
    let subscribe = || {
        MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        })
    };
    let one = call(&server, &anyone, subscribe()).await.unwrap();
    let two = call(&server, &anyone, subscribe()).await.unwrap();
    let refused = call(&server, &anyone, subscribe()).await.unwrap_err();
    assert!(refused.message.contains("2 streams"), "{}", refused.message);
    drop((one, two));
    tokio::time::sleep(Duration::from_millis(50)).await;

    // Cancel; a client that saw event 1 (the task's creation) gets every later event, the
    // cancellation last, and the stream ends.
    let cancel = CancelTaskRequest {
        id: waiting.id.clone(),
        ..Default::default()
    };
    let Ok(MethodResult::CancelTask(canceled)) =
        unary(&server, &anyone, MethodParams::CancelTask(cancel.clone())).await
    else {
        panic!()
    };
    assert_eq!(canceled.status.state, TaskState::Canceled);
    let again = unary(&server, &anyone, MethodParams::CancelTask(cancel))
        .await
        .unwrap_err();
    assert_eq!(again.kind, ErrorKind::TaskNotCancelable);
    let mut context = CallContext::new(anyone.clone(), "test");
    context.last_event_id = Some(1);
    let Ok(Reply::Stream(replay)) = server.call(subscribe(), &context).await else {
        panic!()
    };
    let events: Vec<_> = tokio::time::timeout(LIMIT, replay.collect::<Vec<_>>())
        .await
        .unwrap();
    let ids: Vec<u64> = events.iter().filter_map(|e| e.id).collect();
    assert_eq!(ids, [2, 3], "working, then canceled: {events:?}");
    let StreamResponse::StatusUpdate(last) = &events[1].event else {
        panic!()
    };
    assert_eq!(last.status.state, TaskState::Canceled);
    // Without Last-Event-ID a finished task has nothing to subscribe to.
    let over = call(&server, &anyone, subscribe()).await.unwrap_err();
    assert_eq!(over.kind, ErrorKind::UnsupportedOperation);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_to_internal_addresses_are_refused_and_tasks_are_their_owners() {
    let server = server(ServerConfig::default(), MemoryLimits::default());
    let alice = Caller::authenticated("alice");
    let bob = Caller::authenticated("bob");
    let Ok(MethodResult::SendMessage(SendMessageResponse::Task(done))) = unary(
        &server,
        &alice,
        MethodParams::SendMessage(send("hello", false)),
    )
    .await
    else {
        panic!()
    };
    assert_eq!(done.status.state, TaskState::Completed);
    let config = |url: &str| {
        MethodParams::CreateTaskPushNotificationConfig(TaskPushNotificationConfig {
            task_id: Some(done.id.clone()),
            url: url.into(),
            ..Default::default()
        })
    };
    for internal in [
        "https://10.0.0.1/hook",
        "https://169.254.169.254/latest",
        "https://127.0.0.1:8080/hook",
        "http://example.com/hook",
    ] {
        let error = unary(&server, &alice, config(internal)).await.unwrap_err();
        assert_eq!(
            (error.kind, error.field_violations[0].field.as_str()),
            (ErrorKind::InvalidParams, "url"),
            "{internal}"
        );
    }
    assert!(
        unary(
            &server,
            &alice,
            config("https://example.com/tck-push-webhook")
        )
        .await
        .is_ok()
    );

    // Bob sees none of it: not the task, not its configs, not in lists; he cannot cancel it.
    assert_eq!(
        task(&server, &bob, &done.id).await.unwrap_err().kind,
        ErrorKind::TaskNotFound
    );
    assert_eq!(
        unary(&server, &bob, config("https://example.com/x"))
            .await
            .unwrap_err()
            .kind,
        ErrorKind::TaskNotFound
    );
    let Ok(MethodResult::ListTasks(listed)) = unary(
        &server,
        &bob,
        MethodParams::ListTasks(ListTasksRequest::default()),
    )
    .await
    else {
        panic!()
    };
    assert_eq!(listed.total_size, 0);
    let Ok(MethodResult::ListTasks(own)) = unary(
        &server,
        &alice,
        MethodParams::ListTasks(ListTasksRequest::default()),
    )
    .await
    else {
        panic!()
    };
    assert_eq!((own.total_size, own.next_page_token.as_str()), (1, ""));
    // Nor does Alice in another tenant.
    let get = GetTaskRequest {
        id: done.id.clone(),
        tenant: Some("other".into()),
        ..Default::default()
    };
    assert_eq!(
        unary(&server, &alice, MethodParams::GetTask(get))
            .await
            .unwrap_err()
            .kind,
        ErrorKind::TaskNotFound
    );
}

/// A task's statuses never go back in time: the submitted status a stream opens with is no later
/// than the agent's first status, though the task is only created once that first event shows
/// there is a task (it was stamped after the agent's own status, a few microseconds later).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_timestamps_of_a_task_never_decrease() {
    let server = server(ServerConfig::default(), MemoryLimits::default());
    let anyone = Caller::anonymous();
    for text in ["chunks 3", "done"] {
        let params = MethodParams::SendStreamingMessage(send(text, false));
        let Reply::Stream(stream) = call(&server, &anyone, params).await.unwrap() else {
            panic!("not a stream")
        };
        let events: Vec<_> = tokio::time::timeout(LIMIT, stream.collect::<Vec<_>>())
            .await
            .unwrap();
        let stamps: Vec<_> = events
            .iter()
            .filter_map(|event| match &event.event {
                StreamResponse::Task(task) => Some((task.status.state, task.status.timestamp)),
                StreamResponse::StatusUpdate(update) => {
                    Some((update.status.state, update.status.timestamp))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            stamps.iter().map(|(state, _)| *state).collect::<Vec<_>>(),
            [
                TaskState::Submitted,
                TaskState::Working,
                TaskState::Completed
            ],
            "{events:?}"
        );
        let times: Vec<_> = stamps.iter().map(|(_, time)| time.unwrap()).collect();
        assert!(
            times.windows(2).all(|pair| pair[0] <= pair[1]),
            "{text}: {times:?}"
        );
    }
}
