//! [`EventStream`]: the events of a streaming call, one [`StreamResponse`] at a time, whichever binding
//! carries them (server-sent events for the HTTP bindings, a gRPC server stream).

use std::collections::VecDeque;

use a2a_types::jsonrpc::MethodResult;
use a2a_types::operations::Operation;
use a2a_types::sse::{HttpJsonDecoder, JsonDecoder, StreamError, StreamItem};
use a2a_types::v1::StreamResponse;
use serde_json::Value;

use super::http::{read_jsonrpc_response, rest_error};
use super::{Binding, ClientError};

/// How the events of an SSE body are read.
#[derive(Debug)]
pub(crate) enum SseKind {
    /// Each event a whole JSON-RPC response to the request for this operation.
    JsonRpc(JsonDecoder<Value, Value>, Operation),
    /// Each event a `StreamResponse`; an `error` event the binding's error body.
    Rest(HttpJsonDecoder),
}

#[derive(Debug)]
enum Source {
    Sse {
        response: reqwest::Response,
        kind: SseKind,
    },
    Grpc(tonic::Streaming<a2a_proto::v1::StreamResponse>),
}

/// The events of `SendStreamingMessage` or `SubscribeToTask`, in the order the agent sent them.
///
/// [`next`](EventStream::next) returns `None` once the stream has ended; an error (an A2A error the
/// agent reported inside the stream, a broken connection, an unreadable event) is returned once and
/// ends the stream.
#[derive(Debug)]
pub struct EventStream {
    binding: Binding,
    source: Source,
    pending: VecDeque<Result<StreamResponse, ClientError>>,
    finished: bool,
}

impl EventStream {
    pub(crate) fn sse(binding: Binding, response: reqwest::Response, kind: SseKind) -> Self {
        Self::new(binding, Source::Sse { response, kind })
    }

    pub(crate) fn grpc(stream: tonic::Streaming<a2a_proto::v1::StreamResponse>) -> Self {
        Self::new(Binding::Grpc, Source::Grpc(stream))
    }

    fn new(binding: Binding, source: Source) -> Self {
        EventStream {
            binding,
            source,
            pending: VecDeque::new(),
            finished: false,
        }
    }

    /// The binding the events come over.
    pub fn binding(&self) -> Binding {
        self.binding
    }

    /// The next event, `None` at the end of the stream.
    pub async fn next(&mut self) -> Option<Result<StreamResponse, ClientError>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                if item.is_err() {
                    self.finished = true;
                    self.pending.clear();
                }
                return Some(item);
            }
            if self.finished {
                return None;
            }
            self.fill().await;
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

    /// Reads from the source until at least one item is pending or the stream has finished.
    async fn fill(&mut self) {
        let binding = self.binding;
        match &mut self.source {
            Source::Grpc(stream) => match stream.message().await {
                Ok(Some(event)) => self
                    .pending
                    .push_back(StreamResponse::try_from(event).map_err(|e| {
                        ClientError::invalid(Some(binding), format!("an event: {e}"))
                    })),
                Ok(None) => self.finished = true,
                Err(status) => self
                    .pending
                    .push_back(Err(super::grpc::status_error(&status))),
            },
            Source::Sse { response, kind } => match response.chunk().await {
                Ok(Some(chunk)) => {
                    let items = match kind {
                        SseKind::JsonRpc(decoder, operation) => decoder
                            .feed(&chunk)
                            .into_iter()
                            .map(|item| jsonrpc_event(item, *operation))
                            .collect::<Vec<_>>(),
                        SseKind::Rest(decoder) => {
                            decoder.feed(&chunk).into_iter().map(rest_event).collect()
                        }
                    };
                    self.pending.extend(items);
                }
                Ok(None) => {
                    self.finished = true;
                    let end = match kind {
                        SseKind::JsonRpc(decoder, _) => decoder.finish(),
                        SseKind::Rest(decoder) => decoder.finish(),
                    };
                    if let Err(e) = end {
                        self.pending.push_back(Err(sse_error(binding, e)));
                    }
                }
                Err(e) => self.pending.push_back(Err(ClientError::transport(
                    Some(binding),
                    format!("the stream broke: {e}"),
                ))),
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
