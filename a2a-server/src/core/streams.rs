//! Streams of a task's events, to clients of SendStreamingMessage and SubscribeToTask: readers of
//! the task's event log, woken by the [`VersionBus`](crate::versions::VersionBus), which also hands
//! them the events written in this process (see [`EventStream`] for how they stay bounded).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_protocol::errors::Error;
use a2a_types::v1::StreamResponse;
use tokio::sync::mpsc;
use tokio_stream::Stream;

use crate::auth::Owner;
use crate::core::execution::events::ends_stream;
use crate::core::owner_quota::HeldBytes;
use crate::core::owner_slots::OwnerSlot;
use crate::core::state::ServerState;
use crate::store::EventPage;
use crate::store::memory::size;
use crate::versions::VersionWatch;

/// The most log events a stream reads at once (fewer when its client's queue has less room).
const LOG_PAGE: usize = 64;

/// One event of a stream, with its id when it comes from the task's log.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StreamEvent {
    /// The task version this event produced (the SSE `id`); `None` for a direct reply.
    pub id: Option<u64>,
    /// The event.
    pub event: StreamResponse,
}

/// The events of one streaming call.
///
/// A stream is a reader of the task's event log (see [`crate::store`]): it sends a first event (the
/// task as it stood), then every logged event after that version, in order, each with its id (the
/// SSE `id:`), and ends after an event that ends or pauses the task. It learns of new events from
/// the [`VersionBus`](crate::versions::VersionBus), and sends those this process wrote as the bus
/// hands them over; it reads the log for the others (see [`crate::versions`]).
///
/// Bounded, for any client: at most [`ServerConfig::max_streams`](crate::ServerConfig::max_streams)
/// streams are open at once (one more is refused); each holds at most
/// [`ServerConfig::stream_queue`](crate::ServerConfig::stream_queue) events for its client, and the
/// events all of an owner's streams hold (queued, or being written by the connection) stay within
/// [`ServerConfig::max_stream_bytes_per_owner`](crate::ServerConfig::max_stream_bytes_per_owner):
/// a stream at that bound waits for its owner's clients to read. A client
/// that stops reading stalls only its own stream: nothing more is read from the log for it, so the
/// server's memory does not grow. If it falls behind what the log keeps, its stream ends, and the
/// client resumes with `Last-Event-ID` (or SubscribeToTask) from what the log still has.
#[derive(Debug)]
pub struct EventStream {
    receiver: mpsc::Receiver<(StreamEvent, Option<HeldBytes>)>,
    /// The room of the event last handed out, held until the next is asked for: the connection
    /// asks once it has written that one, so an event counts until its client has taken it.
    handed_out: Option<HeldBytes>,
    /// The call's span, entered while the stream is polled and kept until it is dropped, so the
    /// span lasts the whole streaming call.
    span: Option<tracing::Span>,
}

impl EventStream {
    /// A stream of one event.
    pub(crate) fn once(event: StreamResponse) -> Self {
        let (sender, receiver) = mpsc::channel(1);
        let _ = sender.try_send((StreamEvent { id: None, event }, None));
        EventStream {
            receiver,
            handed_out: None,
            span: None,
        }
    }
}

impl EventStream {
    /// How many events wait for the client (at most the stream queue's capacity).
    pub fn buffered(&self) -> usize {
        self.receiver.len()
    }

    /// Makes `span` the stream's: entered at each poll, open for as long as the stream lives.
    pub(crate) fn keep_span(&mut self, span: tracing::Span) {
        self.span = Some(span);
    }
}

impl Stream for EventStream {
    type Item = StreamEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<StreamEvent>> {
        // Entered at every poll: an OpenTelemetry span ends at its last exit, so the call's span
        // ends with the poll that finds the stream over.
        let this = &mut *self;
        let _entered = this.span.as_ref().map(tracing::Span::enter);
        match this.receiver.poll_recv(cx) {
            Poll::Ready(Some((event, held))) => {
                this.handed_out = held;
                Poll::Ready(Some(event))
            }
            Poll::Ready(None) => {
                this.handed_out = None;
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A slot for one more stream of `owner`, or the error naming the cap reached.
pub(crate) fn stream_permit(state: &ServerState, owner: &Owner) -> Result<OwnerSlot, Error> {
    state.streams.take(owner)
}

/// A stream of the task's events after version `after`, preceded by `first` when given.
pub(crate) fn task_stream(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    first: Option<StreamResponse>,
    after: u64,
) -> Result<EventStream, Error> {
    let permit = stream_permit(state, owner)?;
    let first = first.map(|event| (after, event));
    task_stream_with(state, owner, task_id, first, after, permit, None)
}

/// [`task_stream`] in the slot `permit` holds; refused when the owner's streams already hold
/// their share of bytes and `first` does not fit beside them. `watched`: the task's watch when it
/// was taken before version `after` was written (every later version is announced to it, so the
/// stream need not read the log to learn what came before it waits); else the stream watches
/// from now, and reads the log first.
pub(crate) fn task_stream_with(
    state: &Arc<ServerState>,
    owner: &Owner,
    task_id: &str,
    first: Option<(u64, StreamResponse)>,
    after: u64,
    permit: OwnerSlot,
    watched: Option<VersionWatch>,
) -> Result<EventStream, Error> {
    let first = match first {
        Some((id, event)) => {
            let held = state.stream_bytes.try_hold(owner, size::event(&event))?;
            Some((id, event, held))
        }
        None => None,
    };
    let (sender, receiver) = mpsc::channel(state.config.stream_queue.max(1));
    // Watch before reading the log, so no event lands between the read and the wait.
    let from_start = watched.is_some();
    let mut versions = watched.unwrap_or_else(|| state.bus.subscribe(task_id));
    let mut shutdown = state.shutdown.subscribe();
    let state = state.clone();
    let owner = owner.clone();
    let task_id = task_id.to_owned();
    tokio::spawn(async move {
        let _permit = permit;
        if *shutdown.borrow() {
            return;
        }
        if let Some((id, event, held)) = first {
            // The snapshot ends the stream only when the task is over: a task waiting for input
            // is subscribed to for what comes after the input.
            let ends = match &event {
                StreamResponse::Task(task) => task.status.state.is_terminal(),
                other => ends_stream(other),
            };
            if sender
                .send((
                    StreamEvent {
                        id: Some(id),
                        event,
                    },
                    Some(held),
                ))
                .await
                .is_err()
                || ends
            {
                return;
            }
        }
        let mut last = after;
        let mut reread_over = false;
        // The versions up to which the log has been read (or need not be): past them, only the
        // bus can announce something new. Until the log is first read, nothing is known, unless
        // the watch was taken before `after` was written.
        let mut known = from_start.then_some(after);
        loop {
            // Reads no more than the client's queue has room for, so a stream whose client
            // stops reading holds at most the queue's capacity of events, never a page more.
            let room = tokio::select! {
                room = sender.reserve() => match room {
                    Ok(permit) => {
                        drop(permit);
                        sender.capacity().clamp(1, LOG_PAGE)
                    }
                    Err(_) => return,
                },
                _ = shutdown.changed() => return,
            };
            // A wake without a version (a replica bus that may have missed some) means the log
            // must be read again.
            if versions.woken() {
                known = None;
            }
            let announced = versions.latest();
            let page = match versions.events_after(last, room) {
                // What this process wrote, handed over by the bus: nothing to read.
                Some(events) => EventPage::new(events, true),
                None if known.is_some_and(|known| announced <= known.max(last)) => {
                    // Nothing announced past what was read or sent: wait for the bus.
                    tokio::select! {
                        alive = versions.changed() => if !alive { return },
                        _ = shutdown.changed() => return,
                        _ = sender.closed() => return,
                    }
                    continue;
                }
                None => match state.tasks.events_after(&owner, &task_id, last, room).await {
                    Ok(page) => page,
                    Err(_) => return,
                },
            };
            if !page.complete {
                tracing::warn!(
                    task_id,
                    last,
                    "stream ended: its reader fell behind the task's event log"
                );
                return;
            }
            if page.events.is_empty() {
                // A task that is over with nothing more logged has nothing more to send. Its
                // last events may have been committed between the read of the log and this
                // read of the task (a database store makes that window wide): the log is
                // read once more before the stream ends.
                match state.tasks.get(&owner, &task_id).await {
                    Ok(Some(stored)) if !stored.task.status.state.is_terminal() => {}
                    Ok(Some(_)) if !reread_over => {
                        reread_over = true;
                        continue;
                    }
                    _ => return,
                }
                // The log held everything announced before it was read.
                known = Some(known.unwrap_or(0).max(announced));
                tokio::select! {
                    alive = versions.changed() => if !alive { return },
                    _ = shutdown.changed() => return,
                    _ = sender.closed() => return,
                }
                continue;
            }
            for stored in page.events {
                last = stored.id;
                let ends = ends_stream(&stored.event);
                // Waits while the owner's streams hold their share of bytes: clients that stop
                // reading stall only their owner's streams.
                let held = tokio::select! {
                    held = state.stream_bytes.hold(&owner, size::event(&stored.event)) => held,
                    _ = shutdown.changed() => return,
                    _ = sender.closed() => return,
                };
                let event = StreamEvent {
                    id: Some(stored.id),
                    event: stored.event,
                };
                // Waits while the client's queue is full: a slow client stalls only this.
                tokio::select! {
                    sent = sender.send((event, Some(held))) => if sent.is_err() { return },
                    _ = shutdown.changed() => return,
                }
                if ends {
                    return;
                }
            }
        }
    });
    Ok(EventStream {
        receiver,
        handed_out: None,
        span: None,
    })
}
