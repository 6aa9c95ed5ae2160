//! Where a stream's events come from: one connection, an SSE body or a gRPC server stream, whose
//! events are decoded under the decode budget and read the way the transport that opened it says.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use a2a_protocol::limits::Limits;
use a2a_protocol::sse::{JsonDecoder, StreamError, StreamItem};
use a2a_types::v1::StreamResponse;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::binding::Binding;
use crate::error::ClientError;
use crate::observe::{GrpcMessage, Observing, Payload, Wire, observe_status};

/// Where the events come from: a connection, read the way the transport that opened it says.
#[derive(Debug)]
pub(super) enum Source {
    Sse {
        response: reqwest::Response,
        events: Box<dyn SseEvents>,
    },
    Grpc(Box<dyn GrpcEvents>),
    /// The connection is gone (a resumption replaces it).
    Closed,
}

impl Source {
    /// The events of an SSE body, decoded by `decoder`, each read by `read`.
    pub(super) fn sse<T: DeserializeOwned + Send + 'static>(
        response: reqwest::Response,
        decoder: JsonDecoder<T, Value>,
        read: ReadSseEvent<T>,
    ) -> Self {
        let events = Box::new(DecodedSse { decoder, read });
        Source::Sse { response, events }
    }

    /// The messages of a gRPC server stream, read under `limits` and converted by `read`; a failed
    /// status is the error `error` reads it as.
    pub(super) fn grpc<M: GrpcMessage>(
        stream: tonic::Streaming<M>,
        limits: Limits,
        read: fn(M) -> Result<StreamResponse, ClientError>,
        error: fn(&tonic::Status) -> ClientError,
        observing: Option<Observing>,
    ) -> Self {
        Source::Grpc(Box::new(DecodedGrpc {
            stream,
            limits,
            read,
            error,
            observing,
        }))
    }

    /// The `id` of the last server-sent event received; `None` when the source is no SSE body.
    pub(super) fn last_event_id(&self) -> Option<&str> {
        match self {
            Source::Sse { events, .. } => Some(events.last_event_id()),
            _ => None,
        }
    }

    /// Reads from the connection into `pending` (on `binding`): the items the next chunk or
    /// message completes. `true` once the source has ended.
    pub(super) async fn read(&mut self, binding: Binding, pending: &mut VecDeque<Item>) -> bool {
        match self {
            Source::Closed => return true,
            Source::Grpc(events) => match events.next().await {
                Some(item) => pending.push_back(item),
                None => return true,
            },
            Source::Sse { response, events } => match response.chunk().await {
                Ok(Some(chunk)) => {
                    if let Some(observing) = crate::http::observing_of(response) {
                        observing.tell(Wire::Body(Payload::Bytes(chunk.to_vec())));
                    }
                    let items = events.feed(binding, &chunk);
                    pending.extend(items);
                }
                Ok(None) => {
                    if let Err(e) = events.finish() {
                        // The connection closed inside an event: it broke, it did not end.
                        pending.push_back(Item::Failure {
                            error: sse_error(binding, e),
                            broken: true,
                        });
                    }
                    return true;
                }
                Err(e) => pending.push_back(Item::Failure {
                    error: ClientError::transport(
                        Some(binding),
                        format!("the stream broke: {}", crate::http::describe(&e)),
                    ),
                    broken: true,
                }),
            },
        }
        false
    }
}

/// Reads one SSE event's JSON (a data event's `T`, an `error` event's body) as the v1 event or the
/// error the binding says it carries.
pub(crate) type ReadSseEvent<T> =
    Box<dyn Fn(StreamItem<T, Value>) -> Result<StreamResponse, ClientError> + Send>;

/// The events of a server-sent event body, whatever JSON its binding writes them as.
pub(super) trait SseEvents: fmt::Debug + Send {
    /// The items a chunk of the body completes, a malformed event an unreadable one on `binding`.
    fn feed(&mut self, binding: Binding, chunk: &[u8]) -> Vec<Item>;
    /// At the end of the body: an error when it ended inside an event.
    fn finish(&mut self) -> Result<(), StreamError>;
    fn last_event_id(&self) -> &str;
}

/// An SSE body decoded under the decode budget, each event read by its binding.
struct DecodedSse<T> {
    decoder: JsonDecoder<T, Value>,
    read: ReadSseEvent<T>,
}

impl<T: DeserializeOwned + Send + 'static> SseEvents for DecodedSse<T> {
    fn feed(&mut self, binding: Binding, chunk: &[u8]) -> Vec<Item> {
        self.decoder
            .feed(chunk)
            .into_iter()
            .map(|item| {
                item.map_err(|e| sse_error(binding, e))
                    .and_then(|item| (self.read)(item))
                    .into()
            })
            .collect()
    }

    fn finish(&mut self) -> Result<(), StreamError> {
        self.decoder.finish()
    }

    fn last_event_id(&self) -> &str {
        self.decoder.sse().last_event_id()
    }
}

impl<T: DeserializeOwned> fmt::Debug for DecodedSse<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodedSse")
            .field("last_event_id", &self.decoder.sse().last_event_id())
            .finish_non_exhaustive()
    }
}

/// The messages of a gRPC server stream, whatever protobuf message its binding sends.
pub(super) trait GrpcEvents: fmt::Debug + Send {
    /// The next item, `None` at the end of the stream.
    fn next(&mut self) -> Pin<Box<dyn Future<Output = Option<Item>> + Send + '_>>;
}

/// A gRPC server stream of `M`, each message read under the decode budget and converted by its
/// binding, a failed status read as the binding's error.
struct DecodedGrpc<M> {
    stream: tonic::Streaming<M>,
    limits: Limits,
    read: fn(M) -> Result<StreamResponse, ClientError>,
    error: fn(&tonic::Status) -> ClientError,
    /// The observer's view of the call, told of each message and a failed status.
    observing: Option<Observing>,
}

impl<M: GrpcMessage> GrpcEvents for DecodedGrpc<M> {
    fn next(&mut self) -> Pin<Box<dyn Future<Output = Option<Item>> + Send + '_>> {
        Box::pin(async move {
            let limits: a2a_proto::limits::Limits = self.limits;
            match a2a_proto::grpc::with_limits(limits, self.stream.message()).await {
                Ok(Some(event)) => {
                    if let Some(observing) = &self.observing {
                        observing.tell(Wire::Body(Payload::protobuf(&event)));
                    }
                    Some((self.read)(event).into())
                }
                Ok(None) => None,
                Err(status) => {
                    if let Some(observing) = &self.observing {
                        observe_status(observing, &status);
                    }
                    let error = (self.error)(&status);
                    let broken = matches!(error, ClientError::Transport { .. });
                    Some(Item::Failure { error, broken })
                }
            }
        })
    }
}

impl<M> fmt::Debug for DecodedGrpc<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodedGrpc")
            .field("stream", &self.stream)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// One thing read from the source: an event, or a failure and whether the connection broke
/// (which a resumption may repair) rather than the agent reporting an error.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // events are the common case; boxing each costs an allocation
pub(super) enum Item {
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

/// An SSE body that could not be read as events.
pub(crate) fn sse_error(binding: Binding, error: StreamError) -> ClientError {
    ClientError::invalid(Some(binding), format!("the event stream: {error}"))
}
