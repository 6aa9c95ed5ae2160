//! Streams beside the writer: the events the server writes are handed to the task's streams in
//! the same process, which send them without reading them back from the store, under the very
//! ids the store's log gives them. A stream that finds a gap (a reader that fell behind what the
//! bus keeps, a version another writer made) reads the log instead, and loses nothing. Every wait
//! is bounded.

mod common;

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::MethodParams;
use a2a_server::auth::Owner;
use a2a_server::{
    A2aServer, AgentExecutor, CallContext, Caller, EventSink, EventStream, MemoryLimits, Reply,
    RequestContext, ServerConfig, StreamEvent, TaskStore, async_trait,
};
use a2a_types::v1::{AgentCard, Message, Part, SendMessageRequest, StreamResponse, TaskState};
use common::ObservedStore;
use tokio_stream::StreamExt;

const LIMIT: Duration = Duration::from_secs(20);

/// `paced N MS`: N artifact chunks MS milliseconds apart, then completed MS later. Apart by far
/// more than a write takes, each event is its own write, even on a busy machine.
struct PacedAgent;

#[async_trait]
impl AgentExecutor for PacedAgent {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let text = context.message.text();
        let mut words = text
            .split_whitespace()
            .skip(1)
            .map(|w| w.parse().unwrap_or(0));
        let chunks = words.next().unwrap_or(0);
        let gap = Duration::from_millis(words.next().unwrap_or(20));
        events.working().await?;
        for i in 0..chunks {
            tokio::time::sleep(gap).await;
            events
                .stream_artifact("a-1", [Part::text(format!("chunk {i} "))])
                .await?;
        }
        tokio::time::sleep(gap).await;
        events.complete().await?;
        Ok(())
    }
}

fn card() -> AgentCard {
    common::card(
        "Paced",
        "Streams chunks at a pace.",
        "Streams chunks at a pace.",
        true,
    )
}

fn server_on(store: &ObservedStore) -> A2aServer {
    server_with(store, ServerConfig::default())
}

fn server_with(store: &ObservedStore, config: ServerConfig) -> A2aServer {
    A2aServer::builder(card(), PacedAgent)
        .task_store(store.clone())
        .config(config)
        .build()
}

/// Starts `paced CHUNKS GAP_MS` as a stream.
async fn start(server: &A2aServer, chunks: u64, gap_ms: u64) -> EventStream {
    let request = SendMessageRequest {
        message: Message::user("m-1", [Part::text(format!("paced {chunks} {gap_ms}"))]),
        ..Default::default()
    };
    let context = CallContext::new(Caller::anonymous(), "JSONRPC");
    match server
        .call(MethodParams::SendStreamingMessage(request), &context)
        .await
    {
        Ok(Reply::Stream(stream)) => stream,
        _ => panic!("a stream was expected"),
    }
}

/// The stream's first event, then `meanwhile`, then the rest of the stream.
async fn first_then_rest(
    stream: &mut EventStream,
    meanwhile: impl std::future::Future<Output = ()>,
) -> Vec<StreamEvent> {
    let first = tokio::time::timeout(LIMIT, stream.next())
        .await
        .unwrap()
        .expect("a first event");
    meanwhile.await;
    let mut streamed = vec![first];
    streamed.extend(drain(stream).await);
    streamed
}

async fn drain(stream: &mut EventStream) -> Vec<StreamEvent> {
    let mut events = Vec::new();
    while let Some(event) = tokio::time::timeout(LIMIT, stream.next()).await.unwrap() {
        events.push(event);
    }
    events
}

/// Checks that `streamed` is the task snapshot, then exactly what the store's log holds after it
/// (ids and events), ending completed.
async fn same_as_the_log(store: &ObservedStore, streamed: &[StreamEvent], chunks: u64) {
    let Some(StreamEvent {
        id: Some(after),
        event: StreamResponse::Task(task),
        ..
    }) = streamed.first()
    else {
        panic!("the task first: {:?}", streamed.first())
    };
    let owner = Owner::of(&Caller::anonymous(), None);
    let logged = store
        .events_after(&owner, &task.id, *after, 10_000)
        .await
        .unwrap();
    assert!(logged.complete);
    let logged: Vec<_> = logged.events.iter().map(|e| (e.id, &e.event)).collect();
    let sent: Vec<_> = streamed[1..]
        .iter()
        .map(|e| (e.id.expect("an id"), &e.event))
        .collect();
    assert_eq!(sent, logged, "what the stream sent is the log");
    // working, the chunks, completed.
    assert_eq!(sent.len() as u64, chunks + 2);
    assert!(matches!(
        sent.last().map(|(_, e)| e),
        Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_beside_the_writer_reads_nothing_back_from_the_store() {
    let store = ObservedStore::new(MemoryLimits::default());
    let server = server_on(&store);
    let mut stream = start(&server, 20, 20).await;
    let streamed = drain(&mut stream).await;
    assert_eq!(
        store.events_read(),
        0,
        "every event after the snapshot was handed over"
    );
    same_as_the_log(&store, &streamed, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_behind_what_the_bus_keeps_reads_the_rest_from_the_log() {
    let store = ObservedStore::new(MemoryLimits::default().with_max_events_per_task(10_000));
    // A queue of 8 events for the client: the stream takes no more until its reader reads.
    let mut config = ServerConfig::default();
    config.stream_queue = 8;
    let server = server_with(&store, config);
    // 100 chunks, more than the 8 queued and the 64 events the bus keeps a task together; the
    // reader takes the snapshot, then nothing until the agent is done.
    let mut stream = start(&server, 100, 5).await;
    let streamed =
        first_then_rest(&mut stream, tokio::time::sleep(Duration::from_millis(1500))).await;
    assert!(
        store.events_read() > 0,
        "the events the bus no longer kept came from the log"
    );
    same_as_the_log(&store, &streamed, 100).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_another_writer_made_sends_the_stream_to_the_log() {
    let store = ObservedStore::new(MemoryLimits::default());
    let server = server_on(&store);
    let mut stream = start(&server, 20, 20).await;
    // Another writer changes the task (no event) before one of the agent's writes: the event
    // written next is a version past the one the stream expects, so it reads the log.
    let another_writer = async {
        tokio::time::sleep(Duration::from_millis(30)).await;
        store.interleave_next_update();
    };
    let streamed = first_then_rest(&mut stream, another_writer).await;
    assert!(
        store.events_read() > 0,
        "after the gap, the stream read the log"
    );
    same_as_the_log(&store, &streamed, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_bus_keeps_never_takes_the_room_a_stream_needs_to_send() {
    // Room for two events of the owner's streams: a channel keeping events in that room would
    // leave the stream none to send them, and it would wait for good.
    let mut config = ServerConfig::default();
    config.max_stream_bytes_per_owner = 2 * 1024;
    let store = ObservedStore::new(MemoryLimits::default());
    let server = server_with(&store, config);
    let mut stream = start(&server, 20, 20).await;
    let streamed = drain(&mut stream).await;
    assert_eq!(store.events_read(), 0, "every event was handed over");
    same_as_the_log(&store, &streamed, 20).await;
}
