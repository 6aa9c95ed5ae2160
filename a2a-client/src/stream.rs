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
use std::time::{Duration, Instant};

use a2a_protocol::limits::Limits;
use a2a_protocol::operations::MethodResult;
use a2a_protocol::operations::Operation;
use a2a_protocol::sse::{HttpJsonDecoder, JsonDecoder, StreamError, StreamItem};
use a2a_types::v1::StreamResponse;
use serde_json::Value;

use crate::http::{read_jsonrpc_response, rest_error};
use crate::resume::Resume;
use crate::{Binding, ClientError};

/// How the events of an SSE body are read.
#[derive(Debug)]
pub(crate) enum SseKind {
    /// Each event a whole JSON-RPC response to the request for this operation.
    JsonRpc(JsonDecoder<Value, Value>, Operation),
    /// Each event a `StreamResponse`; an `error` event the binding's error body.
    Rest(HttpJsonDecoder),
    /// Each event a v0.3 JSON-RPC response, upgraded through the bridge.
    JsonRpcV0_3(JsonDecoder<Value, Value>),
    /// Each event a v0.3 `StreamResponse` in ProtoJSON, upgraded through the bridge.
    RestV0_3(JsonDecoder<a2a_proto::v0_3::StreamResponse, Value>),
}

impl SseKind {
    fn feed(&mut self, chunk: &[u8]) -> Vec<Item> {
        match self {
            SseKind::JsonRpc(decoder, operation) => decoder
                .feed(chunk)
                .into_iter()
                .map(|item| jsonrpc_event(item, *operation).into())
                .collect(),
            SseKind::Rest(decoder) => decoder
                .feed(chunk)
                .into_iter()
                .map(|item| rest_event(item).into())
                .collect(),
            SseKind::JsonRpcV0_3(decoder) => decoder
                .feed(chunk)
                .into_iter()
                .map(|item| {
                    item.map_err(|e| sse_error(Binding::JsonRpc, e))
                        .and_then(|item| {
                            let (StreamItem::Data(json) | StreamItem::Error(json)) = item;
                            crate::v0_3::jsonrpc::stream_event(&json)
                        })
                        .into()
                })
                .collect(),
            SseKind::RestV0_3(decoder) => decoder
                .feed(chunk)
                .into_iter()
                .map(|item| rest_v0_3_event(item).into())
                .collect(),
        }
    }

    fn finish(&mut self) -> Result<(), StreamError> {
        match self {
            SseKind::JsonRpc(decoder, _) | SseKind::JsonRpcV0_3(decoder) => decoder.finish(),
            SseKind::Rest(decoder) => decoder.finish(),
            SseKind::RestV0_3(decoder) => decoder.finish(),
        }
    }

    pub(crate) fn last_event_id(&self) -> &str {
        match self {
            SseKind::JsonRpc(decoder, _) | SseKind::JsonRpcV0_3(decoder) => {
                decoder.sse().last_event_id()
            }
            SseKind::Rest(decoder) => decoder.sse().last_event_id(),
            SseKind::RestV0_3(decoder) => decoder.sse().last_event_id(),
        }
    }
}

#[derive(Debug)]
enum Source {
    Sse {
        response: reqwest::Response,
        kind: SseKind,
    },
    Grpc(tonic::Streaming<a2a_proto::v1::StreamResponse>, Limits),
    /// A v0.3 agent's gRPC stream, each event upgraded through the bridge.
    GrpcV0_3(tonic::Streaming<a2a_proto::v0_3::StreamResponse>, Limits),
    /// The connection is gone (a resumption replaces it).
    Closed,
}

/// One thing read from the source: an event, or a failure and whether the connection broke
/// (which a resumption may repair) rather than the agent reporting an error.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // events are the common case; boxing each costs an allocation
pub(crate) enum Item {
    Event(StreamResponse),
    Failure { error: ClientError, broken: bool },
}

impl From<Result<StreamResponse, ClientError>> for Item {
    fn from(result: Result<StreamResponse, ClientError>) -> Self {
        match result {
            Ok(event) => Item::Event(event),
            Err(error) => Item::Failure {
                error,
                broken: false,
            },
        }
    }
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
    pub(crate) resume: Option<Resume>,
}

impl EventStream {
    pub(crate) fn sse(binding: Binding, response: reqwest::Response, kind: SseKind) -> Self {
        Self::new(binding, Source::Sse { response, kind })
    }

    pub(crate) fn grpc(
        stream: tonic::Streaming<a2a_proto::v1::StreamResponse>,
        limits: Limits,
    ) -> Self {
        Self::new(Binding::Grpc, Source::Grpc(stream, limits))
    }

    pub(crate) fn grpc_v0_3(
        stream: tonic::Streaming<a2a_proto::v0_3::StreamResponse>,
        limits: Limits,
    ) -> Self {
        Self::new(Binding::Grpc, Source::GrpcV0_3(stream, limits))
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
        match &self.source {
            Source::Sse { kind, .. } => kind.last_event_id(),
            _ => self
                .resume
                .as_ref()
                .map(|r| r.last_event_id.as_str())
                .unwrap_or_default(),
        }
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
                            Ok(crate::resume::Reconnected::Stream(next)) => {
                                self.adopt(*next);
                                continue;
                            }
                            Ok(crate::resume::Reconnected::Final(task)) => {
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
        if let Some(resume) = &mut self.resume {
            resume.last_event_id = next.last_event_id().to_owned();
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
        let binding = self.binding;
        match &mut self.source {
            Source::Closed => self.finished = true,
            Source::Grpc(stream, limits) => {
                let limits: a2a_proto::limits::Limits = *limits;
                match a2a_proto::grpc::with_limits(limits, stream.message()).await {
                    Ok(Some(event)) => self.pending.push_back(
                        StreamResponse::try_from(event)
                            .map_err(|e| {
                                ClientError::invalid(Some(binding), format!("an event: {e}"))
                            })
                            .into(),
                    ),
                    Ok(None) => self.finished = true,
                    Err(status) => {
                        let error = crate::grpc::status_error(&status);
                        let broken = matches!(error, ClientError::Transport { .. });
                        self.pending.push_back(Item::Failure { error, broken });
                    }
                }
            }
            Source::GrpcV0_3(stream, limits) => {
                let limits: a2a_proto::limits::Limits = *limits;
                match a2a_proto::grpc::with_limits(limits, stream.message()).await {
                    Ok(Some(event)) => self
                        .pending
                        .push_back(crate::v0_3::proto::upgrade_event(binding, event).into()),
                    Ok(None) => self.finished = true,
                    Err(status) => {
                        let error = crate::v0_3::status_error(&status);
                        let broken = matches!(error, ClientError::Transport { .. });
                        self.pending.push_back(Item::Failure { error, broken });
                    }
                }
            }
            Source::Sse { response, kind } => match response.chunk().await {
                Ok(Some(chunk)) => {
                    let items = kind.feed(&chunk);
                    self.pending.extend(items);
                }
                Ok(None) => {
                    self.finished = true;
                    if let Err(e) = kind.finish() {
                        // The connection closed inside an event: it broke, it did not end.
                        self.pending.push_back(Item::Failure {
                            error: sse_error(binding, e),
                            broken: true,
                        });
                    }
                }
                Err(e) => self.pending.push_back(Item::Failure {
                    error: ClientError::transport(
                        Some(binding),
                        format!("the stream broke: {}", crate::http::describe(&e)),
                    ),
                    broken: true,
                }),
            },
        }
    }
}

fn sse_error(binding: Binding, error: StreamError) -> ClientError {
    ClientError::invalid(Some(binding), format!("the event stream: {error}"))
}

fn jsonrpc_event(
    item: Result<StreamItem<Value, Value>, StreamError>,
    operation: Operation,
) -> Result<StreamResponse, ClientError> {
    let (StreamItem::Data(response) | StreamItem::Error(response)) =
        item.map_err(|e| sse_error(Binding::JsonRpc, e))?;
    match read_jsonrpc_response(&response, operation, 200)? {
        MethodResult::SendStreamingMessage(event) | MethodResult::SubscribeToTask(event) => {
            Ok(event)
        }
        other => Err(ClientError::invalid(
            Some(Binding::JsonRpc),
            format!("an event of {} in a stream", other.operation()),
        )),
    }
}

fn rest_event(
    item: Result<StreamItem<StreamResponse, Value>, StreamError>,
) -> Result<StreamResponse, ClientError> {
    match item.map_err(|e| sse_error(Binding::HttpJson, e))? {
        StreamItem::Data(event) => Ok(event),
        StreamItem::Error(body) => {
            let status = body["error"]["code"].as_u64().unwrap_or(500) as u16;
            Err(rest_error(status, &body))
        }
    }
}

/// One event of a v0.3 HTTP+JSON stream; an `error` event's body read as a v0.3 error answer.
fn rest_v0_3_event(
    item: Result<StreamItem<a2a_proto::v0_3::StreamResponse, Value>, StreamError>,
) -> Result<StreamResponse, ClientError> {
    match item.map_err(|e| sse_error(Binding::HttpJson, e))? {
        StreamItem::Data(event) => crate::v0_3::proto::upgrade_event(Binding::HttpJson, event),
        StreamItem::Error(body) => Err(crate::v0_3::rest_error(
            Operation::SendStreamingMessage,
            500,
            &body,
        )),
    }
}
