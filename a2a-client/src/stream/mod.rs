//! [`EventStream`]: the events of a streaming call, one [`StreamResponse`] at a time, whichever binding
//! carries them (server-sent events for the HTTP bindings, a gRPC server stream).
//!
//! Events are read as they are asked for ([`EventStream::next`]): nothing reads ahead, so at most one
//! network chunk's events are held and a slow reader slows the agent down through TCP instead of
//! filling memory. Each event is read under the decode budget.
//!
//! A stream made by an [`A2aClient`](crate::A2aClient) ends cleanly after a terminal state (the
//! task completed, failed, was canceled or rejected, or the answer was a message), and survives a
//! dropped connection: see [`crate::resume`].

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use a2a_protocol::limits::Limits;
use a2a_protocol::sse::JsonDecoder;
use a2a_types::v1::{StreamResponse, Task};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::binding::Binding;
use crate::error::ClientError;
use crate::observe::{GrpcMessage, Observing};

mod source;

use self::source::{Item, ReadSseEvent, Source};

/// What a stream does about the task its events are about, and about a broken connection: made by
/// the client that opened the stream, which it subscribes again with.
pub(crate) trait Resumption: fmt::Debug + Send {
    /// Notes the task an event is about; `true` when the event is the last the stream will carry (a
    /// message, or a terminal state).
    fn observe(&mut self, event: &StreamResponse) -> bool;
    /// `error`, a stream timeout, as the error the stream ends with (a resumed stream's timeout
    /// may say more than the timeout); any other error as it is.
    fn explain_timeout(&mut self, error: ClientError) -> ClientError;
    /// Subscribes to the task again after `cause` broke the stream.
    fn reconnect<'a>(
        &'a mut self,
        cause: ClientError,
        last_event_id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Reconnected, ClientError>> + Send + 'a>>;
}

/// The outcome of a successful reconnection.
pub(crate) enum Reconnected {
    /// A new connection to the task's events.
    Stream(Box<EventStream>),
    /// The task finished while the stream was away: its final state.
    Final(Box<Task>),
}

/// The events of `SendStreamingMessage` or `SubscribeToTask`, in the order the agent sent them.
///
/// [`next`](EventStream::next) returns `None` once the stream has ended; an error (an A2A error the
/// agent reported inside the stream, a broken connection that could not be resumed, an unreadable
/// event, a timeout) is returned once and ends the stream.
#[derive(Debug)]
pub struct EventStream {
    binding: Binding,
    source: Source,
    pending: VecDeque<Item>,
    finished: bool,
    idle_timeout: Option<Duration>,
    /// When the last event came (or the stream opened): the idle timeout counts from here, so
    /// keep-alive comments alone do not keep a stream open forever.
    last_event_at: Instant,
    deadline: Option<(Instant, Duration)>,
    pub(crate) resume: Option<Box<dyn Resumption>>,
    /// The `Last-Event-ID` of the connection a resumption adopted, once its source is gone.
    adopted_last_event_id: String,
}

impl EventStream {
    /// The events of an SSE body on `binding`, decoded by `decoder`, each read by `read`.
    pub(crate) fn sse<T: DeserializeOwned + Send + 'static>(
        binding: Binding,
        response: reqwest::Response,
        decoder: JsonDecoder<T, Value>,
        read: ReadSseEvent<T>,
    ) -> Self {
        Self::new(binding, Source::sse(response, decoder, read))
    }

    /// The messages of a gRPC server stream, read under `limits` and converted by `read`; a failed
    /// status is the error `error` reads it as.
    /// When `observing`, each message and a failed status are told to the observer.
    pub(crate) fn grpc<M: GrpcMessage>(
        stream: tonic::Streaming<M>,
        limits: Limits,
        read: fn(M) -> Result<StreamResponse, ClientError>,
        error: fn(&tonic::Status) -> ClientError,
        observing: Option<Observing>,
    ) -> Self {
        let source = Source::grpc(stream, limits, read, error, observing);
        Self::new(Binding::Grpc, source)
    }

    fn new(binding: Binding, source: Source) -> Self {
        EventStream {
            binding,
            source,
            pending: VecDeque::new(),
            finished: false,
            idle_timeout: None,
            last_event_at: Instant::now(),
            deadline: None,
            resume: None,
            adopted_last_event_id: String::new(),
        }
    }

    /// This stream, giving up when no event comes for `idle` or the whole stream lasts `total`.
    pub(crate) fn with_timeouts(mut self, idle: Option<Duration>, total: Option<Duration>) -> Self {
        self.idle_timeout = idle;
        self.last_event_at = Instant::now();
        self.deadline = total.map(|total| (Instant::now() + total, total));
        self
    }

    /// The binding the events come over.
    pub fn binding(&self) -> Binding {
        self.binding
    }

    /// The `id` of the last server-sent event received (for `Last-Event-ID`); empty when the agent
    /// gives its events no ids, or over gRPC.
    pub fn last_event_id(&self) -> &str {
        self.source
            .last_event_id()
            .unwrap_or(&self.adopted_last_event_id)
    }

    /// The next event, `None` at the end of the stream.
    pub async fn next(&mut self) -> Option<Result<StreamResponse, ClientError>> {
        loop {
            match self.pending.pop_front() {
                Some(Item::Event(event)) => {
                    self.last_event_at = Instant::now();
                    if let Some(resume) = &mut self.resume
                        && resume.observe(&event)
                    {
                        // A terminal state: the stream has said all it will.
                        self.finish();
                    }
                    return Some(Ok(event));
                }
                Some(Item::Failure { error, broken }) => {
                    self.pending.clear();
                    if broken && self.resume.is_some() {
                        let last_event_id = self.last_event_id().to_owned();
                        self.source = Source::Closed;
                        let resume = self.resume.as_mut()?;
                        match resume.reconnect(error, &last_event_id).await {
                            Ok(Reconnected::Stream(next)) => {
                                self.adopt(*next);
                                continue;
                            }
                            Ok(Reconnected::Final(task)) => {
                                self.finish();
                                return Some(Ok(StreamResponse::Task(*task)));
                            }
                            Err(error) => {
                                self.finish();
                                return Some(Err(error));
                            }
                        }
                    }
                    let error = match &mut self.resume {
                        Some(resume) => resume.explain_timeout(error),
                        None => error,
                    };
                    self.finish();
                    return Some(Err(error));
                }
                None if self.finished => return None,
                None => self.fill().await,
            }
        }
    }

    /// Every remaining event, or the first error.
    pub async fn collect(mut self) -> Result<Vec<StreamResponse>, ClientError> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event?);
        }
        Ok(events)
    }

    fn finish(&mut self) {
        self.finished = true;
        self.pending.clear();
        // Dropping the response closes the connection: the agent stops sending.
        self.source = Source::Closed;
    }

    /// Continues with the connection of `next`, a resubscription's stream.
    fn adopt(&mut self, mut next: EventStream) {
        if self.resume.is_some() {
            self.adopted_last_event_id = next.last_event_id().to_owned();
        }
        self.source = std::mem::replace(&mut next.source, Source::Closed);
        self.pending = std::mem::take(&mut next.pending);
        self.finished = next.finished;
        self.last_event_at = Instant::now();
    }

    /// Reads from the source until at least one item is pending or the stream has finished, within
    /// the idle timeout and the stream's deadline.
    async fn fill(&mut self) {
        let now = Instant::now();
        // Checked before reading, not only by a timer: an agent that always has the next chunk
        // ready would never let a timer fire (a timeout polls the read first).
        // The nearer of the two bounds: the idle one from the last event, the stream's own.
        let idle = self.idle_timeout.map(|idle| {
            let until = self.last_event_at + idle;
            (until, idle, "the next event")
        });
        let whole = self
            .deadline
            .map(|(until, total)| (until, total, "the end of the stream"));
        let bound = match (idle, whole) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        if let Some((until, reported, what)) = bound
            && now >= until
        {
            self.pending.push_back(Item::Failure {
                error: ClientError::timeout(Some(self.binding), what, reported),
                broken: false,
            });
            return;
        }
        let wait = bound.map(|(until, reported, what)| (until - now, reported, what));
        let binding = self.binding;
        match wait {
            None => self.read().await,
            Some((wait, reported, what)) => {
                if tokio::time::timeout(wait, self.read()).await.is_err() {
                    self.pending.push_back(Item::Failure {
                        error: ClientError::timeout(Some(binding), what, reported),
                        broken: false,
                    });
                }
            }
        }
    }

    async fn read(&mut self) {
        if self.source.read(self.binding, &mut self.pending).await {
            self.finished = true;
        }
    }
}
