//! What each operation costs the database, counted and kept: statements, reads, commits, rows
//! written and round trips per `SendMessage` (a message the agent completes at once; one that
//! continues a task waiting for input, which the agent then completes), per event
//! of a streamed task (a task streaming 50 artifact chunks) and per `GetTask`, on SQLite and on
//! PostgreSQL (one replica), through a server of the server crate set up as the example agent sets
//! it up (tasks, push configs, the push outbox and the execution queue in the store). Each count is
//! asserted, so a change that adds a statement, a commit or a round trip fails here; a change that
//! saves some lowers the bound. The counts come from sqlx's statement events, the statements
//! SQLite's writer thread runs itself, and the stores' transaction events (see
//! `common::counting`).

mod common;

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_server::auth::Caller;
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, EventSink, Reply, RequestContext, ServerConfig,
    async_trait,
};
use a2a_server_sql::{PostgresStore, PostgresVersionBus};
use a2a_types::v1::{
    AgentCard, GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, TaskState,
};
use common::counting::{Cost, cost_of, recorder};
use common::{postgres_url, unique};
use tokio_stream::StreamExt;

/// Artifact chunks of the streamed task.
const CHUNKS: usize = 50;

/// `chunks:N` streams one artifact in N chunks, then completes; `ask` asks for input; anything
/// else completes at once with a text.
struct Chunker;

#[async_trait]
impl AgentExecutor for Chunker {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        if let Some(chunks) = text.strip_prefix("chunks:") {
            let chunks: usize = chunks.parse().unwrap_or(1);
            events
                .stream_artifact(
                    "answer",
                    (0..chunks).map(|i| Part::text(format!("chunk {i} "))),
                )
                .await?;
            events.complete().await?;
        } else if text == "ask" {
            events.ask_for_input("more?").await?;
        } else {
            events.complete_with_text("done").await?;
        }
        Ok(())
    }
}

fn card() -> AgentCard {
    common::card("Chunker", "Completes, or streams chunks.", true)
}

/// The server's settings: the outbox and the execution resumer poll the store only when woken
/// during a count (their timed polls would land in it at random).
fn config() -> ServerConfig {
    let mut config = ServerConfig::default();
    config.push.poll_interval = Duration::from_secs(3600);
    config.executions.poll_interval = Duration::from_secs(3600);
    config
}

/// A server of the Chunker on `store`, set up as the example agent sets it up: tasks, push
/// configs, the push outbox and the execution queue in the store.
fn builder_on<S>(store: S) -> a2a_server::A2aServerBuilder
where
    S: a2a_server::TaskStore
        + a2a_server::PushConfigStore
        + a2a_server::PushOutbox
        + a2a_server::ExecutionQueue
        + Clone
        + 'static,
{
    A2aServer::builder(card(), Chunker)
        .config(config())
        .task_store(store.clone())
        .push_config_store(store.clone())
        .push_outbox(store.clone())
        .execution_queue(store)
}

fn context() -> CallContext {
    CallContext::new(Caller::authenticated("alice"), "JSONRPC")
}

fn request(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user(unique("m"), [Part::text(text)]),
        ..Default::default()
    }
}

async fn send(server: &A2aServer) -> String {
    match server
        .call(MethodParams::SendMessage(request("complete")), &context())
        .await
    {
        Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) => {
            assert_eq!(task.status.state, TaskState::Completed);
            task.id
        }
        other => panic!("a completed task was expected: {other:?}"),
    }
}

/// A task that asks for input; its id.
async fn ask(server: &A2aServer) -> String {
    match server
        .call(MethodParams::SendMessage(request("ask")), &context())
        .await
    {
        Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) => {
            assert_eq!(task.status.state, TaskState::InputRequired);
            task.id
        }
        other => panic!("a task asking for input was expected: {other:?}"),
    }
}

/// A message continuing task `id`, which the agent completes at once.
async fn answer(server: &A2aServer, id: &str) {
    let mut continuing = request("complete");
    continuing.message.task_id = Some(id.to_owned());
    match server
        .call(MethodParams::SendMessage(continuing), &context())
        .await
    {
        Ok(Reply::Unary(MethodResult::SendMessage(SendMessageResponse::Task(task)))) => {
            assert_eq!(task.status.state, TaskState::Completed);
            assert_eq!(task.id, id);
        }
        other => panic!("the continued task completed was expected: {other:?}"),
    }
}

async fn get(server: &A2aServer, id: &str) {
    let got = server
        .call(
            MethodParams::GetTask(GetTaskRequest {
                id: id.to_owned(),
                ..Default::default()
            }),
            &context(),
        )
        .await;
    assert!(matches!(got, Ok(Reply::Unary(MethodResult::GetTask(t))) if t.id == id));
}

/// Streams a task of `chunks` artifact chunks to its end; the events the client got.
async fn stream(server: &A2aServer, chunks: usize) -> usize {
    let reply = server
        .call(
            MethodParams::SendStreamingMessage(request(&format!("chunks:{chunks}"))),
            &context(),
        )
        .await;
    let Ok(Reply::Stream(mut events)) = reply else {
        panic!("a stream was expected")
    };
    let mut seen = 0;
    while let Ok(Some(_)) = tokio::time::timeout(Duration::from_secs(30), events.next()).await {
        seen += 1;
    }
    seen
}

/// What the last operations cost, once the database has been idle for a while (the outbox
/// worker's claim after each event comes just after it).
/// With `A2A_COST_TRACE` set, every statement is printed as counted.
async fn taken() -> Cost {
    let recorded = recorder()
        .take_when_quiet(Duration::from_millis(300), Duration::from_secs(10))
        .await;
    if std::env::var_os("A2A_COST_TRACE").is_some() {
        for entry in &recorded {
            eprintln!("  {entry:?}");
        }
        eprintln!("  --");
    }
    cost_of(&recorded)
}

/// The costs per operation on one server.
#[derive(Debug)]
struct Costs {
    send_message: Cost,
    /// A SendMessage continuing a task that asked for input, which the agent then completes.
    continuing_message: Cost,
    streamed_event: Cost,
    get_task: Cost,
}

const REPEATS: usize = 4;

async fn measure(server: &A2aServer) -> Costs {
    // Warm: connections open, statements prepared, workers started.
    for _ in 0..3 {
        send(server).await;
        stream(server, 2).await;
    }
    taken().await;

    let mut ids = Vec::new();
    for _ in 0..REPEATS {
        ids.push(send(server).await);
    }
    let send_message = taken().await.per(REPEATS as f64);

    for id in &ids {
        get(server, id).await;
    }
    let get_task = taken().await.per(REPEATS as f64);

    let mut asking = Vec::new();
    for _ in 0..REPEATS {
        asking.push(ask(server).await);
    }
    taken().await;
    for id in &asking {
        answer(server, id).await;
        // The execution's end is written just after the reply: waited for, so that it does not
        // share a commit with the next answer's first write (on SQLite, where writes that meet are
        // grouped, that made one commit fewer now and then).
        recorder()
            .wait_quiet(Duration::from_millis(50), Duration::from_secs(5))
            .await;
    }
    let continuing_message = taken().await.per(REPEATS as f64);

    // A streamed event: a task of CHUNKS chunks less one that completes at once, per chunk.
    let mut long = Cost::default();
    let mut short = Cost::default();
    for _ in 0..2 {
        assert!(stream(server, CHUNKS).await > CHUNKS);
        long = long.plus(taken().await);
        stream(server, 0).await;
        short = short.plus(taken().await);
    }
    let streamed_event = long.minus(short).per((2 * CHUNKS) as f64);
    Costs {
        send_message,
        continuing_message,
        streamed_event,
        get_task,
    }
}

fn report(store: &str, costs: &Costs) {
    eprintln!("{store}: SendMessage: {}", costs.send_message);
    eprintln!(
        "{store}: SendMessage continuing a task: {}",
        costs.continuing_message
    );
    eprintln!("{store}: streamed event: {}", costs.streamed_event);
    eprintln!("{store}: GetTask: {}", costs.get_task);
}

/// Exact counts for the operations whose work is fixed.
fn exactly(statements: f64, reads: f64, commits: f64, rows: f64, round_trips: f64) -> Cost {
    Cost {
        statements,
        reads,
        commits,
        rows_written: rows,
        round_trips,
    }
}

/// The outbox is claimed from the database at most every half second when nothing was queued:
/// the first SendMessage after a pause (one of [`REPEATS`]) may claim once, and a claim made in
/// the background may fall in the window of a measured call.
const TIMED_CLAIM: f64 = 1.0 / REPEATS as f64;

/// The continuing messages' window lasts longer (it waits after each answer for the write that
/// follows the reply), long enough for two timed claims.
const TIMED_CLAIMS_CONTINUING: f64 = 2.0 / REPEATS as f64;

/// The counts expected of each operation.
struct Expected {
    send: Cost,
    continuing: Cost,
    event: Cost,
    get: Cost,
}

fn assert_costs(store: &str, costs: &Costs, expected: Expected) {
    let Expected {
        send,
        continuing,
        event,
        get,
    } = expected;
    report(store, costs);
    for (what, counted, expected, claims) in [
        ("SendMessage", costs.send_message, send, TIMED_CLAIM),
        (
            "SendMessage continuing a task",
            costs.continuing_message,
            continuing,
            TIMED_CLAIMS_CONTINUING,
        ),
    ] {
        let bound = Cost {
            statements: expected.statements + claims,
            reads: expected.reads + claims,
            round_trips: expected.round_trips + claims,
            ..expected
        };
        assert!(
            counted.within(bound) && expected.within(counted),
            "{store}: {what} costs changed from {expected}: {counted}"
        );
    }
    // The outbox's timed claim (a background statement) may land in GetTask's window too.
    let get_bound = Cost {
        statements: get.statements + TIMED_CLAIM,
        reads: get.reads + TIMED_CLAIM,
        round_trips: get.round_trips + TIMED_CLAIM,
        ..get
    };
    assert!(
        costs.get_task.within(get_bound) && get.within(costs.get_task),
        "{store}: GetTask costs changed from {get}: {}",
        costs.get_task
    );
    // How often a stream's reader wakes, and so reads, and how many events each group commit
    // takes depend on timing: a bound above what was counted, not an exact count.
    // The background claim may land in a streamed event's window as in the others'.
    let event = Cost {
        statements: event.statements + TIMED_CLAIM,
        reads: event.reads + TIMED_CLAIM,
        round_trips: event.round_trips + TIMED_CLAIM,
        ..event
    };
    assert!(
        costs.streamed_event.within(event),
        "{store}: a streamed event costs more than {event}: {}",
        costs.streamed_event
    );
}

/// SendMessages answered side by side in one burst.
const SIDE_BY_SIDE: usize = 64;

/// Many SendMessages at once on PostgreSQL: the tasks the agent ended at once are written in
/// groups, each group one statement and one commit, so the burst costs a fraction of a statement
/// per message (one each when every task was its own), and each task is still its one row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_messages_answered_side_by_side_share_statements() {
    let Some(url) = postgres_url("postgres_messages_answered_side_by_side_share_statements") else {
        return;
    };
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let options = common::fresh_schema(&url).await;
    let store: PostgresStore = common::postgres_store(&options).await;
    let server = builder_on(store).build();
    for _ in 0..3 {
        send(&server).await;
    }
    taken().await;
    let ids = futures_util::future::join_all((0..SIDE_BY_SIDE).map(|_| send(&server))).await;
    let burst = taken().await.per(SIDE_BY_SIDE as f64);
    eprintln!("PostgreSQL: {SIDE_BY_SIDE} SendMessages side by side, each: {burst}");
    let distinct: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), SIDE_BY_SIDE, "every message has its task");
    assert!(
        (burst.rows_written - 1.0).abs() < f64::EPSILON,
        "each task is one row: {burst}"
    );
    // Half: groups of two on average at the least (about six where it was measured).
    let bound = exactly(0.5, TIMED_CLAIM, 0.5, 1.0, 0.5);
    assert!(
        burst.within(bound),
        "{SIDE_BY_SIDE} messages side by side cost more than {bound} each: {burst}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_costs_per_operation_are_kept() {
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let (store, path) = common::sqlite_store().await;
    let server = builder_on(store.clone()).build();
    let costs = measure(&server).await;
    drop(server);
    drop(store);
    common::remove_sqlite(&path);
    assert_costs(
        "SQLite",
        &costs,
        Expected {
            // The agent completed the task before it was first written: the task alone, as the
            // event left it (its log pruned), in one statement, no execution recorded, the answer
            // the task as written (7 statements, 3 commits and 4 round trips when the task and
            // its record, the event, the record's end and a read of the task were each their
            // own). The writer thread runs it on its own connection: no round trip (one when it
            // went to sqlx's worker thread).
            send: exactly(1.0, 0.0, 1.0, 1.0, 0.0),
            // The task read before the agent runs (the one round trip); the message and the
            // execution's record in one write (4 commits when they were two); the completion;
            // the record's end; the answer the task as the completion left it (a read when it
            // was read again). The writes are the writer thread's own (4 round trips when they
            // went to sqlx's worker thread).
            continuing: exactly(9.0, 1.0, 3.0, 5.0, 1.0),
            // A burst of chunks is written in few transactions (those that queued while the last
            // committed go together; one per event would fail), streams woken once per commit;
            // the round trips are the streams' reads, the writes are the writer thread's own.
            event: exactly(0.5, 0.5, 0.2, 1.0, 0.5),
            get: exactly(1.0, 1.0, 0.0, 0.0, 1.0),
        },
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_costs_per_operation_are_kept() {
    let Some(url) = postgres_url("postgres_costs_per_operation_are_kept") else {
        return;
    };
    let recorder = recorder();
    let _alone = recorder.exclusive().await;
    let options = common::fresh_schema(&url).await;
    let store: PostgresStore = common::postgres_store(&options).await;
    let bus = PostgresVersionBus::start(&store).await.expect("LISTEN");
    let server = builder_on(store).version_bus(bus).build();
    let costs = measure(&server).await;
    assert_costs(
        "PostgreSQL",
        &costs,
        Expected {
            // The agent completed the task before it was first written: the task alone, as the
            // event left it (its log pruned), in one statement, no execution recorded, the answer
            // the task as written (4 statements and 2 commits when the task with its record, the
            // completion, the record's end and a read of the task were each their own).
            send: exactly(1.0, 0.0, 1.0, 1.0, 1.0),
            // The task read before the agent runs; the message and the execution's record in one
            // statement (3 commits when they were two); the completion, which ends the record
            // (the executor's end of it is then not sent: a fourth statement, finding nothing,
            // when it was); the answer the task as the completion left it.
            continuing: exactly(3.0, 1.0, 2.0, 5.0, 3.0),
            // A burst of chunks is written in few statements (those that queued while the last
            // committed go together; one statement per event would fail), streams woken once per
            // commit.
            event: exactly(0.5, 0.5, 0.2, 2.0, 0.5),
            get: exactly(1.0, 1.0, 0.0, 0.0, 1.0),
        },
    );
}
