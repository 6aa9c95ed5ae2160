//! Server-sent events (SSE), the framing A2A's streaming methods (`SendStreamingMessage`,
//! `SubscribeToTask`) use over HTTP, without any HTTP or async runtime: bytes in, events out, and back.
//!
//! - [`Event`] is one event; [`Event::encode`] writes it in the `text/event-stream` format.
//! - [`Decoder`] is incremental: feed it the body's chunks as they arrive, split anywhere, and it returns
//!   every event completed so far. It follows the parsing rules of the WHATWG HTML standard
//!   ("server-sent events"): lines end in CRLF, LF or CR (a CR at the end of one chunk and an LF at the
//!   start of the next are one line end); a leading byte order mark is dropped; lines starting with `:`
//!   are comments; `data:` lines accumulate, joined by LF; a line without a colon is a field with an
//!   empty value; unknown fields are ignored; `retry:` counts only when it is all ASCII digits; an `id:`
//!   holding NUL is ignored; an event is dispatched at a blank line, and only if it had a `data` line.
//!   Invalid UTF-8 reads as U+FFFD, as a browser reads it.
//! - [`JsonDecoder`] parses each event's data as JSON into any `T: DeserializeOwned`, and
//!   [`encode_json`] writes any `T: Serialize` as one event. [`HttpJsonDecoder`] and
//!   [`encode_stream_response`] are the HTTP+JSON binding's form, where each event is a
//!   [`StreamResponse`] in ProtoJSON. For the JSON-RPC binding each event is a whole JSON-RPC response
//!   whose `result` is a `StreamResponse`: use `JsonDecoder<R, R>` and `encode_json` with the response
//!   type (see [`JsonDecoder`]'s example).
//!
//! ```
//! use a2a_protocol::sse::{self, HttpJsonDecoder, StreamItem};
//! use a2a_types::v1::{StreamResponse, TaskState, TaskStatus, TaskStatusUpdateEvent};
//!
//! // Server side: one event per stream item.
//! let update = StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
//!     "task-7f3a",
//!     "ctx-lisbon-trip",
//!     TaskStatus { state: TaskState::Working, ..Default::default() },
//! ));
//! let body = sse::encode_stream_response(&update).unwrap();
//! assert!(body.starts_with("data: {\"statusUpdate\":"));
//!
//! // Client side: chunks in any size, events out.
//! let mut decoder = HttpJsonDecoder::new();
//! let (head, tail) = body.as_bytes().split_at(7);
//! assert!(decoder.feed(head).is_empty());
//! let items = decoder.feed(tail);
//! assert!(matches!(&items[..], [Ok(StreamItem::Data(item))] if *item == update));
//! decoder.finish().unwrap();
//! ```
//!
//! The code is split along that work: [`Event`] and its encoding (`event`), the incremental
//! [`Decoder`] (`decoder`), and the JSON layer on top of both (`typed`).
//!
//! # Errors inside a stream
//!
//! The A2A specification says what a stream carries but not how a server reports a failure once the
//! stream has begun. The official Python SDK (a2a-sdk 1.3.0, checked against its server in the
//! workspace's interop tests) does this, and this module follows it:
//!
//! - **Before the first event** (the request is invalid, the task does not exist, the handler fails at
//!   once) no stream starts: the server answers with an ordinary `application/json` response. For
//!   HTTP+JSON it has the error's HTTP status (404 for a missing task) and the binding's error body; for
//!   JSON-RPC it is HTTP 200 with a JSON-RPC error response. A client must look at the content type
//!   before handing the body to a decoder (fed one by mistake, a decoder reports it as truncated).
//! - **After the stream has begun**, the server sends one last event of type `error` (`event: error`)
//!   and ends the stream. For HTTP+JSON its data is the binding's error body, `{"error": {"code": 404,
//!   "status": "NOT_FOUND", "message": "...", "details": [{"@type":
//!   "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", ...}]}}`, where an
//!   unexpected failure is `500`, `INTERNAL`, `unknown exception`. For JSON-RPC it is a whole JSON-RPC
//!   error response with the request's id, `{"jsonrpc": "2.0", "id": ..., "error": {"code": -32001,
//!   "message": "...", "data": [...]}}`, where an unexpected failure is `-32603` with the exception's
//!   text as message.
//! - The SDK's clients turn an `error` event into the mapped error, skip events whose data is empty,
//!   and take every other event, whatever its type, as a stream item; the JSON-RPC client also checks
//!   each ordinary event's response for an `error` member.
//!
//! [`JsonDecoder`] does the same: an `error` event becomes [`StreamItem::Error`], parsed as the
//! decoder's error type `E` (by default any JSON, [`serde_json::Value`]); events with empty data are
//! skipped; [`encode_json_error`] writes such an event on the server side.
//!
//! # Limits
//!
//! A decoder holds at most [`DEFAULT_MAX_EVENT_SIZE`] bytes for one event (configurable with
//! [`Decoder::with_max_event_size`]): the values of its fields and the line being read. A bigger event
//! is reported once as [`DecodeError::EventTooLarge`], the rest of it is skipped without being stored,
//! and decoding carries on with the next event. A stream that ends inside an event is reported by
//! [`Decoder::finish`] as [`DecodeError::Truncated`]. Nothing in this module panics on any input.
//!
//! [`JsonDecoder`] also checks each event's JSON against a [`Limits`] budget before parsing it
//! (by default [`Limits::default`]: 100,000 values), so an event of many empty elements cannot make a
//! client hold hundreds of times its size; an event over it is [`StreamError::Limit`], and decoding
//! carries on. [`JsonDecoder::with_limits`] sets both numbers at once (its `max_bytes` becomes the
//! event size).
//!
//! [`StreamResponse`]: a2a_types::v1::StreamResponse
//! [`Limits`]: crate::limits::Limits
//! [`Limits::default`]: crate::limits::Limits::default

mod decoder;
mod event;
mod typed;

pub use decoder::{DEFAULT_MAX_EVENT_SIZE, DecodeError, Decoder};
pub use event::{DEFAULT_EVENT_TYPE, ERROR_EVENT_TYPE, EncodeError, Event, EventField, comment};
pub use typed::{
    HttpJsonDecoder, JsonDecoder, StreamError, StreamItem, encode_json, encode_json_error,
    encode_stream_response,
};
