//! Servers of the server crate on the SQL stores, driven in process through
//! [`A2aServer::call`] as every binding drives them: two replicas on one PostgreSQL (a stream on
//! B follows a task A executes, in order and without duplicates; `Last-Event-ID` replays on the
//! other replica; get, list and cancel on B of A's task; 2,000 tasks sent to both at once, none
//! lost), and the throughput of memory, SQLite, one and two PostgreSQL replicas, as ratios to
//! memory, the configurations taking turns in five rounds (the figures of record come from
//! `cargo test --release -p a2a-spec-server-sql --all-features --test replicas -- two_thousand
//! --nocapture`; the lowest and highest ratio of one round are printed with the total's).

mod common;

use std::time::{Duration, Instant};

use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::auth::Caller;
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, EventSink, InMemoryTaskStore, MemoryLimits, Reply,
    RequestContext, StreamEvent, async_trait,
};
use a2a_server_sql::{PostgresStore, PostgresVersionBus, SqliteStore};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message, Part,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, TaskState,
};
use common::{postgres_url, unique};
use tokio_stream::StreamExt;

/// Steps a `steps:N` message through N working updates, 2 ms apart; `wait` asks for input;
/// anything else completes at once.
struct Stepper;

#[async_trait]
impl AgentExecutor for Stepper {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        if let Some(steps) = text.strip_prefix("steps:") {
            let steps: usize = steps.parse().unwrap_or(1);
            for _ in 0..steps {
                events.working().await?;
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            events.complete_with_text("stepped").await?;
        } else if text == "wait" {
            events.ask_for_input("what next?").await?;
        } else {
            events.complete_with_text("done").await?;
        }
        Ok(())
    }
}

fn card() -> AgentCard {
    common::card("Stepper", "Steps through updates.", true)
}

/// A replica on the PostgreSQL schema `options` names: its own pool and listener.
async fn postgres_replica(options: &sqlx::postgres::PgConnectOptions) -> A2aServer {
    let store: PostgresStore = common::postgres_store(options).await;
    let bus = PostgresVersionBus::start(&store).await.expect("LISTEN");
    A2aServer::builder(card(), Stepper)
        .task_store(store.clone())
        .push_config_store(store)
        .version_bus(bus)
        .build()
}

async fn sqlite_server() -> (A2aServer, std::path::PathBuf) {
    let (store, path) = common::sqlite_store().await;
    let server = A2aServer::builder(card(), Stepper)
        .task_store(store.clone())
        .push_config_store(store)
        .build();
    (server, path)
}

fn context(principal: &str) -> CallContext {
    CallContext::new(Caller::authenticated(principal), "JSONRPC")
}

fn send_request(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(unique("m"), [Part::text(text)]),
        ..Default::default()
    }
}

async fn unary(server: &A2aServer, params: MethodParams, context: &CallContext) -> MethodResult {
    match server.call(params, context).await {
        Ok(Reply::Unary(result)) => result,
        Ok(Reply::Stream(_)) => panic!("a stream where one result was expected"),
        Err(error) => panic!("the call failed: {error:?}"),
    }
}

async fn stream(
    server: &A2aServer,
    params: MethodParams,
    context: &CallContext,
) -> a2a_server::EventStream {
    match server.call(params, context).await {
        Ok(Reply::Stream(stream)) => stream,
        other => panic!("a stream was expected: {other:?}"),
    }
}

/// Sends a message and returns the id of the task it made (completed).
async fn send(server: &A2aServer, text: &str, context: &CallContext) -> String {
    match unary(
        server,
        MethodParams::SendMessage(send_request(text)),
        context,
    )
    .await
    {
        MethodResult::SendMessage(SendMessageResponse::Task(task)) => task.id,
        other => panic!("a task was expected: {other:?}"),
    }
}

fn task_id_of(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => task.id.clone(),
        StreamResponse::StatusUpdate(update) => update.task_id.clone(),
        StreamResponse::ArtifactUpdate(update) => update.task_id.clone(),
        other => panic!("a task event was expected: {other:?}"),
    }
}

/// The ids of a stream's events, all of them, within `limit`.
async fn drain(mut events: a2a_server::EventStream, limit: Duration) -> Vec<StreamEvent> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + limit;
    while let Ok(Some(event)) = tokio::time::timeout_at(deadline, events.next()).await {
        seen.push(event);
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_on_one_postgres_share_tasks_and_streams() {
    let Some(url) = postgres_url("two_replicas_on_one_postgres_share_tasks_and_streams") else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let a = postgres_replica(&options).await;
    let b = postgres_replica(&options).await;
    let alice = context("alice");

    // A executes a task and streams it; B subscribes and follows it to the end.
    let mut on_a = stream(
        &a,
        MethodParams::SendStreamingMessage(send_request("steps:40")),
        &alice,
    )
    .await;
    let first = on_a.next().await.expect("a first event");
    let task_id = task_id_of(&first.event);
    let on_b = stream(
        &b,
        MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        }),
        &alice,
    )
    .await;
    let (rest_a, seen_b) = tokio::join!(
        drain(on_a, Duration::from_secs(30)),
        drain(on_b, Duration::from_secs(30))
    );
    let ids_a: Vec<u64> = std::iter::once(&first)
        .chain(&rest_a)
        .filter_map(|e| e.id)
        .collect();
    let ids_b: Vec<u64> = seen_b.iter().filter_map(|e| e.id).collect();
    assert!(ids_b.len() > 2, "B saw the task move on: {ids_b:?}");
    assert!(
        ids_b.windows(2).all(|w| w[0] < w[1]),
        "in order, no duplicate: {ids_b:?}"
    );
    let final_id = *ids_a.last().unwrap();
    assert_eq!(ids_b.last(), Some(&final_id), "B saw the end A wrote");
    let tail_a: Vec<u64> = ids_a.iter().copied().filter(|id| *id > ids_b[0]).collect();
    assert_eq!(
        ids_b[1..],
        tail_a[..],
        "B missed nothing after its first event"
    );
    assert!(matches!(
        &seen_b.last().unwrap().event,
        StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed
    ));

    // Last-Event-ID: resuming on B after an id A sent replays the rest from the table.
    let resume_after = ids_a[ids_a.len() / 2];
    let mut resumed_context = context("alice");
    resumed_context.last_event_id = Some(resume_after);
    let resumed = stream(
        &b,
        MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id: task_id.clone(),
            ..Default::default()
        }),
        &resumed_context,
    )
    .await;
    let replayed: Vec<u64> = drain(resumed, Duration::from_secs(10))
        .await
        .iter()
        .filter_map(|e| e.id)
        .collect();
    let expected: Vec<u64> = ids_a
        .iter()
        .copied()
        .filter(|id| *id > resume_after)
        .collect();
    assert_eq!(replayed, expected);

    // Get, list and cancel on B a task A made; another owner sees none of it.
    let waiting = match unary(&a, MethodParams::SendMessage(send_request("wait")), &alice).await {
        MethodResult::SendMessage(SendMessageResponse::Task(task)) => task,
        other => panic!("a task was expected: {other:?}"),
    };
    assert_eq!(waiting.status.state, TaskState::InputRequired);
    let got = unary(
        &b,
        MethodParams::GetTask(GetTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }),
        &alice,
    )
    .await;
    assert!(matches!(got, MethodResult::GetTask(t) if t.id == waiting.id));
    let listed = unary(
        &b,
        MethodParams::ListTasks(ListTasksRequest::default()),
        &alice,
    )
    .await;
    let MethodResult::ListTasks(listed) = listed else {
        panic!("a list")
    };
    assert_eq!(listed.total_size, 2);
    let canceled = unary(
        &b,
        MethodParams::CancelTask(CancelTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }),
        &alice,
    )
    .await;
    assert!(
        matches!(canceled, MethodResult::CancelTask(t) if t.status.state == TaskState::Canceled)
    );
    let after_cancel = unary(
        &a,
        MethodParams::GetTask(GetTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }),
        &alice,
    )
    .await;
    assert!(
        matches!(after_cancel, MethodResult::GetTask(t) if t.status.state == TaskState::Canceled)
    );
    let bob = context("bob");
    let bobs = b
        .call(
            MethodParams::GetTask(GetTaskRequest {
                id: waiting.id.clone(),
                ..Default::default()
            }),
            &bob,
        )
        .await;
    assert!(bobs.is_err(), "another owner's task does not exist");
}

/// Sends `count` messages, `concurrency` at a time, round robin over `servers`; returns the
/// task ids and the time it took.
async fn send_many(
    servers: &[A2aServer],
    count: usize,
    concurrency: usize,
    context: &CallContext,
) -> (Vec<String>, Duration) {
    let started = Instant::now();
    let mut ids = Vec::with_capacity(count);
    let mut pending = tokio::task::JoinSet::new();
    for i in 0..count {
        if pending.len() >= concurrency {
            ids.push(pending.join_next().await.unwrap().unwrap());
        }
        let server = servers[i % servers.len()].clone();
        let context = context.clone();
        pending.spawn(async move { send(&server, "quick", &context).await });
    }
    while let Some(id) = pending.join_next().await {
        ids.push(id.unwrap());
    }
    (ids, started.elapsed())
}

/// Opens `streams` streaming sends of `steps` updates each on the first server, each followed
/// by a subscription on the last one; returns how many events the last one delivered, and the
/// time it took.
async fn stream_many(
    servers: &[A2aServer],
    streams: usize,
    steps: usize,
    context: &CallContext,
) -> (usize, Duration) {
    let started = Instant::now();
    let mut followers = tokio::task::JoinSet::new();
    for _ in 0..streams {
        let first = servers[0].clone();
        let last = servers[servers.len() - 1].clone();
        let context = context.clone();
        followers.spawn(async move {
            let mut sending = stream(
                &first,
                MethodParams::SendStreamingMessage(send_request(&format!("steps:{steps}"))),
                &context,
            )
            .await;
            let head = sending.next().await.expect("a first event");
            let subscribed = last
                .call(
                    MethodParams::SubscribeToTask(SubscribeToTaskRequest {
                        id: task_id_of(&head.event),
                        ..Default::default()
                    }),
                    &context,
                )
                .await;
            let following = match subscribed {
                Ok(Reply::Stream(following)) => following,
                // The task's steps all ran before the subscription came (a busy machine): a
                // follower too late, counted; the task itself is checked with the rest.
                Err(error) if error.message.contains("nothing left to subscribe to") => {
                    drain(sending, Duration::from_secs(60)).await;
                    return None;
                }
                other => panic!("a stream was expected: {other:?}"),
            };
            let (_, seen) = tokio::join!(
                drain(sending, Duration::from_secs(60)),
                drain(following, Duration::from_secs(60))
            );
            Some(seen.len())
        });
    }
    let (mut events, mut late) = (0, 0);
    while let Some(seen) = followers.join_next().await {
        match seen.unwrap() {
            Some(seen) => events += seen,
            None => late += 1,
        }
    }
    assert!(
        late * 4 < streams,
        "{late} of {streams} subscriptions came after their task had ended"
    );
    (events, started.elapsed())
}

/// What one configuration did over every round: the tasks it made, and per round the messages
/// per second and the stream events per second.
#[derive(Default)]
struct Measured {
    ids: Vec<String>,
    sends_per_second: Vec<f64>,
    events_per_second: Vec<f64>,
}

/// The ratio of the totals (`mine` over `baseline`, each summed in time over the rounds) and the
/// lowest and highest ratio of one round.
fn ratio(mine: &[f64], baseline: &[f64]) -> (f64, f64, f64) {
    let per_round: Vec<f64> = mine.iter().zip(baseline).map(|(m, b)| m / b).collect();
    let harmonic = |rates: &[f64]| rates.len() as f64 / rates.iter().map(|r| 1.0 / r).sum::<f64>();
    let low = per_round.iter().copied().fold(f64::INFINITY, f64::min);
    let high = per_round.iter().copied().fold(0.0, f64::max);
    (harmonic(mine) / harmonic(baseline), low, high)
}

/// Counts what one configuration kept of `sent` tasks, through ListTasks on every server.
async fn listed(servers: &[A2aServer], context: &CallContext) -> Vec<i32> {
    let mut totals = Vec::new();
    for server in servers {
        let request = ListTasksRequest {
            page_size: Some(1),
            ..Default::default()
        };
        match unary(server, MethodParams::ListTasks(request), context).await {
            MethodResult::ListTasks(page) => totals.push(page.total_size),
            other => panic!("a list was expected: {other:?}"),
        }
    }
    totals
}

/// The configurations take turns in short rounds (memory, SQLite, one replica, two replicas, then
/// again), so a machine busier in one moment than another weighs on all of them alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_tasks_on_every_store_lose_nothing_and_throughput_is_measured() {
    const TASKS: usize = 2_000;
    const ROUNDS: usize = 5;
    const STREAMS_PER_ROUND: usize = 20;
    const STEPS: usize = 25;
    // One sender makes every task, so the memory store keeps them all only with room for as many
    // per owner (it keeps 1,000 of one owner's finished tasks by default).
    let memory =
        InMemoryTaskStore::with_limits(MemoryLimits::default().with_max_tasks_per_owner(TASKS));
    let mut configurations: Vec<(&str, Vec<A2aServer>)> = vec![(
        "memory",
        vec![
            A2aServer::builder(card(), Stepper)
                .task_store(memory)
                .build(),
        ],
    )];
    let (sqlite, path) = sqlite_server().await;
    configurations.push(("SQLite", vec![sqlite]));
    if let Some(url) =
        postgres_url("two_thousand_tasks_on_every_store_lose_nothing (PostgreSQL part)")
    {
        let one = common::fresh_schema(&url).await;
        configurations.push(("PostgreSQL, 1 replica", vec![postgres_replica(&one).await]));
        let two = common::fresh_schema(&url).await;
        configurations.push((
            "PostgreSQL, 2 replicas",
            vec![postgres_replica(&two).await, postgres_replica(&two).await],
        ));
    }
    let senders: Vec<CallContext> = configurations
        .iter()
        .map(|_| context(&unique("sender")))
        .collect();
    let streamer = context(&unique("streamer"));
    let mut measured: Vec<Measured> = configurations.iter().map(|_| Measured::default()).collect();
    for _ in 0..ROUNDS {
        for ((_, servers), (sender, figures)) in configurations
            .iter()
            .zip(senders.iter().zip(measured.iter_mut()))
        {
            let (ids, took) = send_many(servers, TASKS / ROUNDS, 32, sender).await;
            figures.ids.extend(ids);
            figures
                .sends_per_second
                .push((TASKS / ROUNDS) as f64 / took.as_secs_f64());
            let (events, took) = stream_many(servers, STREAMS_PER_ROUND, STEPS, &streamer).await;
            figures
                .events_per_second
                .push(events as f64 / took.as_secs_f64());
        }
    }
    for (((name, servers), sender), figures) in configurations.iter().zip(&senders).zip(&measured) {
        let mut unique_ids = figures.ids.clone();
        unique_ids.sort();
        unique_ids.dedup();
        assert_eq!(unique_ids.len(), TASKS, "{name}: one task per message");
        assert_eq!(
            listed(servers, sender).await,
            vec![TASKS as i32; servers.len()],
            "{name}: every replica lists every task"
        );
    }
    let memory = &measured[0];
    for ((name, _), figures) in configurations.iter().zip(&measured) {
        let (sends, sends_low, sends_high) =
            ratio(&figures.sends_per_second, &memory.sends_per_second);
        let (events, events_low, events_high) =
            ratio(&figures.events_per_second, &memory.events_per_second);
        eprintln!(
            "{name:<24} SendMessage {:>8.0}/s ({sends:.2} of memory, rounds {sends_low:.2}-{sends_high:.2})   stream events {:>7.0}/s ({events:.2} of memory, rounds {events_low:.2}-{events_high:.2})",
            ROUNDS as f64
                / figures
                    .sends_per_second
                    .iter()
                    .map(|r| 1.0 / r)
                    .sum::<f64>(),
            ROUNDS as f64
                / figures
                    .events_per_second
                    .iter()
                    .map(|r| 1.0 / r)
                    .sum::<f64>(),
        );
    }
    common::remove_sqlite(&path);
}

/// The SQLite server keeps tasks across a restart of the process's server and store.
#[tokio::test]
async fn a_sqlite_server_restarted_on_its_file_finds_its_tasks() {
    let (server, path) = sqlite_server().await;
    let alice = context("alice");
    let id = send(&server, "steps:3", &alice).await;
    drop(server);
    let reopened = SqliteStore::open(&path).await.unwrap();
    let again = A2aServer::builder(card(), Stepper)
        .task_store(reopened.clone())
        .push_config_store(reopened)
        .build();
    let got = unary(
        &again,
        MethodParams::GetTask(GetTaskRequest {
            id: id.clone(),
            ..Default::default()
        }),
        &alice,
    )
    .await;
    assert!(matches!(got, MethodResult::GetTask(t) if t.status.state == TaskState::Completed));
    let mut resumed = context("alice");
    resumed.last_event_id = Some(1);
    let events = stream(
        &again,
        MethodParams::SubscribeToTask(SubscribeToTaskRequest {
            id,
            ..Default::default()
        }),
        &resumed,
    )
    .await;
    let ids: Vec<u64> = drain(events, Duration::from_secs(10))
        .await
        .iter()
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(ids.first(), Some(&2), "the log starts after the creation");
    assert!(ids.windows(2).all(|w| w[1] == w[0] + 1), "no gap: {ids:?}");
    common::remove_sqlite(&path);
}
