//! Watching the exchange with an agent as it crosses the wire: an [`Observer`] set in
//! [`ClientConfig::observer`](crate::ClientConfig::observer) is told of every request the client sends
//! to an interface and of everything it reads back, on every binding and protocol version.
//!
//! What it sees is what the transports send and read: for JSON-RPC and HTTP+JSON the request's method,
//! URL, the headers the client set and its body bytes, then the answer's status and headers, its body
//! (whole) or each chunk of an event stream as it arrives; for gRPC the target, the metadata and each
//! protobuf message (its encoded bytes and its ProtoJSON), then the answer's metadata and messages or
//! its failed status. Each request and what comes back for it share one [`Observed::exchange`]
//! number. The card fetch and token requests are not observed: they are not calls of the A2A API.
//!
//! Observing changes nothing the client sends or reads: without an observer nothing is recorded or
//! copied; with one, bodies are copied to it before being read as usual. The observer is called on
//! the task making the call, so it should record and return. Headers are passed as sent, credentials
//! included: an observer that shows or stores them should take care of them.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use a2a_client::ClientConfig;
//! use a2a_client::observe::Observed;
//!
//! let seen: Arc<Mutex<Vec<Observed>>> = Arc::default();
//! let log = seen.clone();
//! let config = ClientConfig::default()
//!     .observer(move |observed: Observed| log.lock().unwrap().push(observed));
//! # let _ = config;
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use a2a_protocol::operations::Operation;
use serde_json::Value;

use crate::binding::Binding;

/// Told of each request the client sends to an agent and of each part of the answer.
pub trait Observer: Send + Sync {
    /// Called once per thing seen, in the order it crossed the wire (within one exchange).
    fn observe(&self, observed: Observed);
}

impl<F: Fn(Observed) + Send + Sync> Observer for F {
    fn observe(&self, observed: Observed) {
        self(observed)
    }
}

/// One thing seen on the wire, and the call it belongs to.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Observed {
    /// The exchange: a request and everything read back for it share this number, unique within
    /// the process (a retry or a stream's resumption is a new exchange).
    pub exchange: u64,
    /// The binding that carried it.
    pub binding: Binding,
    /// The A2A operation called.
    pub operation: Operation,
    /// What was seen.
    pub wire: Wire,
}

/// What crossed the wire.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Wire {
    /// A request as sent. HTTP: the method, the URL (query included), the headers the client set
    /// (the HTTP stack adds `host`, `content-length` and the like) and the body. gRPC: method
    /// `gRPC`, the target's URL, the metadata and the request message.
    Request {
        method: String,
        url: String,
        headers: Vec<(String, String)>,
        body: Payload,
    },
    /// The head of an answer: `HTTP 200 OK` and the headers, or for gRPC `gRPC OK` and the
    /// response metadata.
    Response {
        status: String,
        headers: Vec<(String, String)>,
    },
    /// Part of an answer's body as read: a whole HTTP body, one chunk of an event stream, one gRPC
    /// message.
    Body(Payload),
    /// A gRPC call that ended with a status other than OK (its code and message).
    Status { code: String, message: String },
}

/// A body as it was on the wire.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Payload {
    /// Bytes as sent or read (JSON, event-stream text, or empty).
    Bytes(Vec<u8>),
    /// A protobuf message: its encoding (as gRPC frames it, without the 5-byte prefix) and its
    /// ProtoJSON form, for people to read.
    Protobuf { encoded: Vec<u8>, json: Value },
}

/// A protobuf message of a gRPC call, which an observer can be shown.
pub(crate) trait GrpcMessage: prost::Message + serde::Serialize + 'static {}

impl<M: prost::Message + serde::Serialize + 'static> GrpcMessage for M {}

impl Payload {
    /// The payload of a protobuf message (with its ProtoJSON form, `null` if it had none).
    pub(crate) fn protobuf<M: GrpcMessage>(message: &M) -> Self {
        Payload::Protobuf {
            encoded: message.encode_to_vec(),
            json: serde_json::to_value(message).unwrap_or(Value::Null),
        }
    }
}

/// The next exchange number.
static NEXT_EXCHANGE: AtomicU64 = AtomicU64::new(1);

/// One exchange being observed: the observer and what every record of the exchange carries.
#[derive(Clone)]
pub(crate) struct Observing {
    observer: Arc<dyn Observer>,
    exchange: u64,
    binding: Binding,
    operation: Operation,
}

impl Observing {
    /// A new exchange of `operation` on `binding`, told to `observer`.
    pub(crate) fn start(
        observer: Arc<dyn Observer>,
        binding: Binding,
        operation: Operation,
    ) -> Self {
        Observing {
            observer,
            exchange: NEXT_EXCHANGE.fetch_add(1, Ordering::Relaxed),
            binding,
            operation,
        }
    }

    /// Tells the observer of `wire`.
    pub(crate) fn tell(&self, wire: Wire) {
        self.observer.observe(Observed {
            exchange: self.exchange,
            binding: self.binding,
            operation: self.operation,
            wire,
        });
    }
}

impl fmt::Debug for Observing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Observing")
            .field("exchange", &self.exchange)
            .field("binding", &self.binding)
            .field("operation", &self.operation)
            .finish_non_exhaustive()
    }
}

/// The observer is told of a gRPC answer: its metadata and message, or its failed status.
pub(crate) fn observe_answer<P: GrpcMessage>(
    observing: Option<&Observing>,
    answer: &Result<tonic::Response<P>, tonic::Status>,
) {
    let Some(observing) = observing else { return };
    match answer {
        Ok(response) => {
            observing.tell(Wire::Response {
                status: "gRPC OK".to_owned(),
                headers: header_pairs(&response.metadata().clone().into_headers()),
            });
            observing.tell(Wire::Body(Payload::protobuf(response.get_ref())));
        }
        Err(status) => observe_status(observing, status),
    }
}

/// The observer is told of the head of a gRPC server stream (its metadata), or of its failed status.
pub(crate) fn observe_stream_head<S>(
    observing: Option<&Observing>,
    answer: &Result<tonic::Response<S>, tonic::Status>,
) {
    let Some(observing) = observing else { return };
    match answer {
        Ok(response) => observing.tell(Wire::Response {
            status: "gRPC OK".to_owned(),
            headers: header_pairs(&response.metadata().clone().into_headers()),
        }),
        Err(status) => observe_status(observing, status),
    }
}

/// The observer is told of a gRPC call's failed status.
pub(crate) fn observe_status(observing: &Observing, status: &tonic::Status) {
    observing.tell(Wire::Status {
        code: format!("{:?}", status.code()),
        message: status.message().to_owned(),
    });
}

/// HTTP headers or gRPC metadata as (name, value) pairs; a value that is not text is shown lossily.
pub(crate) fn header_pairs(headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}
