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
//! use a2a_types::sse::{self, HttpJsonDecoder, StreamItem};
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

use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::limits::{LimitError, Limits};
use crate::v1::StreamResponse;

/// The largest event a [`Decoder`] accepts unless told otherwise: 16 MiB, room for an artifact update
/// that carries a file of about 12 MB inline (base64), while bounding what a faulty or hostile server
/// can make a client hold.
pub const DEFAULT_MAX_EVENT_SIZE: usize = 16 * 1024 * 1024;

/// The event type a `data`-only event has, and the one an `event:` line with an empty value means.
pub const DEFAULT_EVENT_TYPE: &str = "message";

/// The event type the official Python SDK gives an error it reports inside a stream.
pub const ERROR_EVENT_TYPE: &str = "error";

/// One server-sent event, as written by [`Event::encode`] or read by a [`Decoder`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The `event:` field, the event's type; `None` means [`DEFAULT_EVENT_TYPE`] (a decoder also reads an
    /// empty `event:` value as `None`).
    pub event: Option<String>,
    /// The `data:` lines, joined by LF.
    pub data: String,
    /// The `id:` field of this event, if it had one (`Some("")` resets the last event id). The id a
    /// client sends back on reconnecting is [`Decoder::last_event_id`], which carries over events
    /// without one.
    pub id: Option<String>,
    /// The `retry:` field of this event: the reconnection time, in milliseconds.
    pub retry: Option<u64>,
}

impl Event {
    /// An event of the default type carrying `data`.
    pub fn new(data: impl Into<String>) -> Self {
        Self {
            data: data.into(),
            ..Default::default()
        }
    }

    /// Sets the event type.
    pub fn event(mut self, event: impl Into<String>) -> Self {
        self.event = Some(event.into());
        self
    }

    /// Sets the event id.
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the reconnection time, in milliseconds.
    pub fn retry(mut self, milliseconds: u64) -> Self {
        self.retry = Some(milliseconds);
        self
    }

    /// The event type, [`DEFAULT_EVENT_TYPE`] when none was given.
    pub fn event_type(&self) -> &str {
        match self.event.as_deref() {
            None | Some("") => DEFAULT_EVENT_TYPE,
            Some(event) => event,
        }
    }

    /// The event in the `text/event-stream` format, ending with the blank line that dispatches it.
    ///
    /// Data is written one `data:` line per line of it; its line ends (CRLF, CR or LF) come back as LF.
    /// An event type or id with a line break, or an id with NUL, cannot be written and is an error.
    pub fn encode(&self) -> Result<String, EncodeError> {
        let mut out = String::with_capacity(self.data.len() + 16);
        self.encode_into(&mut out)?;
        Ok(out)
    }

    /// Appends [`Event::encode`]'s output to `out`; on error `out` is left unchanged.
    pub fn encode_into(&self, out: &mut String) -> Result<(), EncodeError> {
        if let Some(event) = &self.event {
            check_single_line(EventField::Event, event)?;
        }
        if let Some(id) = &self.id {
            check_single_line(EventField::Id, id)?;
            if id.contains('\0') {
                return Err(EncodeError::NulInId);
            }
        }
        if let Some(event) = self.event.as_deref().filter(|event| !event.is_empty()) {
            push_field(out, "event", event);
        }
        if let Some(id) = &self.id {
            push_field(out, "id", id);
        }
        if let Some(retry) = self.retry {
            push_field(out, "retry", &retry.to_string());
        }
        for line in lines(&self.data) {
            push_field(out, "data", line);
        }
        out.push('\n');
        Ok(())
    }
}

/// A comment, which clients ignore: servers send one now and then to keep idle connections open.
/// Each line of `text` becomes one comment line.
pub fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 3);
    for line in lines(text) {
        out.push(':');
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn push_field(out: &mut String, name: &str, value: &str) {
    out.push_str(name);
    out.push_str(": ");
    out.push_str(value);
    out.push('\n');
}

fn check_single_line(field: EventField, value: &str) -> Result<(), EncodeError> {
    if value.contains(['\r', '\n']) {
        Err(EncodeError::LineBreak(field))
    } else {
        Ok(())
    }
}

/// The lines of `text`, split at CRLF, CR or LF; always at least one (an empty text is one empty line,
/// and a trailing line end leaves an empty last line).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\r', '\n']) {
            None => {
                rest = None;
                Some(text)
            }
            Some(end) => {
                let skip = if text[end..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = Some(&text[end + skip..]);
                Some(&text[..end])
            }
        }
    })
}

/// The field of an [`Event`] that cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventField {
    Event,
    Id,
}

impl fmt::Display for EventField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EventField::Event => "event",
            EventField::Id => "id",
        })
    }
}

/// An [`Event`] that the `text/event-stream` format cannot express.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The event type or id holds a CR or LF, which would end its line.
    LineBreak(EventField),
    /// The id holds NUL, which makes clients ignore it.
    NulInId,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::LineBreak(field) => write!(
                f,
                "the SSE `{field}` field cannot hold a line break (CR or LF)"
            ),
            EncodeError::NulInId => f.write_str("the SSE `id` field cannot hold NUL"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// A stream a [`Decoder`] cannot read as events.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// An event needed more than `limit` bytes; it was skipped up to its end.
    EventTooLarge {
        /// The decoder's limit, in bytes.
        limit: usize,
    },
    /// The stream ended inside an event, before the blank line that completes it; the event is lost.
    Truncated,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::EventTooLarge { limit } => write!(
                f,
                "SSE event larger than the limit of {limit} bytes; it was skipped"
            ),
            DecodeError::Truncated => f.write_str(
                "SSE stream ended inside an event (no blank line after its last field); the event is lost",
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Reads server-sent events from a byte stream fed in chunks of any size; see the [module
/// docs](self) for the rules.
///
/// ```
/// use a2a_types::sse::{Decoder, Event};
///
/// let mut decoder = Decoder::new();
/// let mut events = decoder.feed(b": keep-alive\r\nevent: note\r\ndata: first\r");
/// events.extend(decoder.feed(b"\ndata: second\r\n\r"));
/// events.extend(decoder.feed(b"\n"));
/// assert_eq!(events, [Ok(Event::new("first\nsecond").event("note"))]);
/// decoder.finish().unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    max_event_size: usize,
    /// The line being read, without its line end.
    line: Vec<u8>,
    /// While skipping an oversized event the line is not stored; this says whether it has any bytes.
    skipped_line_has_bytes: bool,
    /// The last byte fed was a CR: an LF right after it is part of the same line end.
    after_cr: bool,
    /// No line has ended yet on this stream, so the current one may start with a byte order mark.
    at_stream_start: bool,
    /// The rest of an oversized event is being skipped, up to the blank line that ends it.
    skipping: bool,
    event: Event,
    /// At least one `data` line since the last dispatch (so an empty `data` still dispatches).
    has_data: bool,
    /// At least one field line since the last dispatch (for reporting a truncated stream).
    has_fields: bool,
    last_event_id: String,
    reconnection_time: Option<u64>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder accepting events up to [`DEFAULT_MAX_EVENT_SIZE`] bytes.
    pub fn new() -> Self {
        Self::with_max_event_size(DEFAULT_MAX_EVENT_SIZE)
    }

    /// A decoder accepting events up to `max_event_size` bytes: the values of an event's fields and
    /// the line being read (invalid UTF-8 counts as the three bytes of U+FFFD it becomes).
    pub fn with_max_event_size(max_event_size: usize) -> Self {
        Self {
            max_event_size,
            line: Vec::new(),
            skipped_line_has_bytes: false,
            after_cr: false,
            at_stream_start: true,
            skipping: false,
            event: Event::default(),
            has_data: false,
            has_fields: false,
            last_event_id: String::new(),
            reconnection_time: None,
        }
    }

    /// The limit this decoder applies to one event, in bytes.
    pub fn max_event_size(&self) -> usize {
        self.max_event_size
    }

    /// The last event id the stream set (by an `id:` field of a dispatched or empty event), to send as
    /// `Last-Event-ID` on reconnecting; empty when none was set.
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// The reconnection time the stream last asked for with `retry:`, in milliseconds.
    pub fn reconnection_time(&self) -> Option<u64> {
        self.reconnection_time
    }

    /// Reads one more chunk of the stream and returns the events it completes, in order, and any
    /// errors among them (an error does not stop the decoder).
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Event, DecodeError>> {
        let mut out = Vec::new();
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\r' || b == b'\n') {
            self.extend_line(&rest[..end], &mut out);
            let mut next = end + 1;
            if rest[end] == b'\r' {
                match rest.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            self.end_line(&mut out);
            rest = &rest[next..];
        }
        self.extend_line(rest, &mut out);
        out
    }

    /// Ends the stream: `Err(Truncated)` if it stopped inside an event (which is then dropped, as a
    /// browser drops it). The decoder is then ready for the next connection of the same stream: it
    /// keeps [`last_event_id`](Self::last_event_id) and [`reconnection_time`](Self::reconnection_time).
    pub fn finish(&mut self) -> Result<(), DecodeError> {
        let mut line: &[u8] = &self.line;
        if self.at_stream_start {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let unfinished_line = line.first().is_some_and(|&b| b != b':');
        let truncated = !self.skipping && (self.has_fields || unfinished_line);
        self.line.clear();
        self.skipped_line_has_bytes = false;
        self.after_cr = false;
        self.at_stream_start = true;
        self.skipping = false;
        self.reset_event();
        if truncated {
            Err(DecodeError::Truncated)
        } else {
            Ok(())
        }
    }

    fn extend_line(&mut self, bytes: &[u8], out: &mut Vec<Result<Event, DecodeError>>) {
        if bytes.is_empty() {
            return;
        }
        if self.skipping {
            self.skipped_line_has_bytes = true;
            return;
        }
        if self.held_bytes().saturating_add(bytes.len()) > self.max_event_size {
            self.start_skipping(out);
            self.skipped_line_has_bytes = true;
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn held_bytes(&self) -> usize {
        self.line.len()
            + self.event.data.len()
            + self.event.event.as_ref().map_or(0, String::len)
            + self.event.id.as_ref().map_or(0, String::len)
    }

    fn start_skipping(&mut self, out: &mut Vec<Result<Event, DecodeError>>) {
        out.push(Err(DecodeError::EventTooLarge {
            limit: self.max_event_size,
        }));
        self.skipping = true;
        self.line.clear();
        self.reset_event();
    }

    fn reset_event(&mut self) {
        self.event = Event::default();
        self.has_data = false;
        self.has_fields = false;
    }

    fn end_line(&mut self, out: &mut Vec<Result<Event, DecodeError>>) {
        let mut line = std::mem::take(&mut self.line);
        if self.at_stream_start {
            self.at_stream_start = false;
            if line.starts_with(BOM) {
                line.drain(..BOM.len());
            }
        }
        if self.skipping {
            if !self.skipped_line_has_bytes {
                self.skipping = false;
            }
            self.skipped_line_has_bytes = false;
        } else if line.is_empty() {
            if let Some(event) = self.dispatch() {
                out.push(Ok(event));
            }
        } else if line[0] != b':' {
            self.field(&line);
            if self.held_bytes() > self.max_event_size {
                self.start_skipping(out);
                // The line just read ended, so skipping ends at the next blank line.
                self.skipped_line_has_bytes = false;
            }
        }
        line.clear();
        self.line = line;
    }

    fn field(&mut self, line: &[u8]) {
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        self.has_fields = true;
        let value = String::from_utf8_lossy(value);
        match name {
            b"event" => self.event.event = Some(value.into_owned()),
            b"data" => {
                self.event.data.push_str(&value);
                self.event.data.push('\n');
                self.has_data = true;
            }
            b"id" if !value.contains('\0') => self.event.id = Some(value.into_owned()),
            b"retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Too many digits for a u64 is not a time anyone means: ignored, like any bad value.
                if let Ok(retry) = value.parse::<u64>() {
                    self.event.retry = Some(retry);
                    self.reconnection_time = Some(retry);
                }
            }
            _ => {}
        }
    }

    fn dispatch(&mut self) -> Option<Event> {
        let has_data = self.has_data;
        let mut event = std::mem::take(&mut self.event);
        self.reset_event();
        if let Some(id) = &event.id {
            self.last_event_id.clone_from(id);
        }
        if !has_data {
            return None;
        }
        event.data.pop();
        if event.event.as_deref() == Some("") {
            event.event = None;
        }
        Some(event)
    }
}

const BOM: &[u8] = "\u{feff}".as_bytes();

/// One item of a typed stream: a payload, or the error the server reported in an `error` event.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamItem<T, E> {
    Data(T),
    Error(E),
}

/// What went wrong reading a typed stream.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamError {
    /// The SSE framing (an oversized event, a truncated stream).
    Sse(DecodeError),
    /// An event whose data is over the decoder's [`Limits`]; it was not parsed.
    Limit {
        /// The event as it was received, without its data.
        event: Event,
        /// The limit, and the path of the first value over it.
        error: Box<LimitError>,
    },
    /// An event whose data is not the JSON expected; the error names the field path.
    Json {
        /// The event as it was received.
        event: Event,
        error: crate::json::JsonError,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Sse(error) => error.fmt(f),
            StreamError::Limit { event, error } => {
                write!(f, "SSE event of type `{}`: {error}", event.event_type())
            }
            StreamError::Json { event, error } => {
                write!(f, "SSE event of type `{}`", event.event_type())?;
                if let Some(id) = &event.id {
                    write!(f, " (id `{id}`)")?;
                }
                write!(f, " holds invalid JSON {error}")
            }
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Sse(error) => Some(error),
            StreamError::Limit { error, .. } => Some(error.as_ref()),
            StreamError::Json { error, .. } => Some(error),
        }
    }
}

impl From<DecodeError> for StreamError {
    fn from(error: DecodeError) -> Self {
        StreamError::Sse(error)
    }
}

/// Reads a stream whose events each carry one JSON document: a payload `T`, or in an `error` event an
/// error `E`; events with empty data are skipped (see the [module docs](self)). Each event's data is
/// checked against the decoder's [`Limits`] (by default [`Limits::default`]) before it is parsed.
///
/// For the HTTP+JSON binding `T` is [`StreamResponse`] ([`HttpJsonDecoder`]); for JSON-RPC it is the
/// JSON-RPC response type whose `result` is a `StreamResponse`, and `E` the same type:
///
/// ```
/// use a2a_types::serde::Deserialize;
/// use a2a_types::sse::{JsonDecoder, StreamItem};
/// use a2a_types::v1::StreamResponse;
///
/// #[derive(Debug, Deserialize)]
/// #[serde(crate = "a2a_types::serde")] // derive through the re-export, without depending on serde
/// struct RpcResponse {
///     id: a2a_types::serde_json::Value,
///     result: Option<StreamResponse>,
///     error: Option<a2a_types::serde_json::Value>,
/// }
///
/// let mut decoder = JsonDecoder::<RpcResponse, RpcResponse>::new();
/// let items = decoder.feed(
///     b"data: {\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {\"message\": {\"messageId\": \"m-2\", \
///       \"role\": \"ROLE_AGENT\", \"parts\": [{\"text\": \"Booked.\"}]}}}\r\n\r\n\
///       event: error\r\n\
///       data: {\"jsonrpc\": \"2.0\", \"id\": 7, \"error\": {\"code\": -32603, \"message\": \"lost\"}}\r\n\r\n",
/// );
/// let Ok(StreamItem::Data(first)) = &items[0] else { panic!() };
/// let Some(StreamResponse::Message(message)) = &first.result else { panic!() };
/// assert_eq!(message.text(), "Booked.");
/// let Ok(StreamItem::Error(last)) = &items[1] else { panic!() };
/// assert_eq!(last.error.as_ref().unwrap()["code"], -32603);
/// ```
#[derive(Debug)]
pub struct JsonDecoder<T, E = serde_json::Value> {
    sse: Decoder,
    limits: Limits,
    items: PhantomData<fn() -> (T, E)>,
}

/// The HTTP+JSON binding's stream: each event a [`StreamResponse`] in ProtoJSON, an `error` event the
/// binding's error body as JSON.
pub type HttpJsonDecoder = JsonDecoder<StreamResponse>;

impl<T: DeserializeOwned, E: DeserializeOwned> Default for JsonDecoder<T, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DeserializeOwned, E: DeserializeOwned> JsonDecoder<T, E> {
    /// A decoder accepting events up to [`DEFAULT_MAX_EVENT_SIZE`] bytes.
    pub fn new() -> Self {
        Self::from_decoder(Decoder::new())
    }

    /// A decoder accepting events up to `max_event_size` bytes.
    pub fn with_max_event_size(max_event_size: usize) -> Self {
        Self::from_decoder(Decoder::with_max_event_size(max_event_size))
    }

    /// A decoder reading each event under `limits`: events up to its
    /// [`max_bytes`](Limits::max_bytes) (the SSE decoder's event size), each event's JSON up to its
    /// [`max_elements`](Limits::max_elements) values.
    pub fn with_limits(limits: Limits) -> Self {
        Self::from_decoder(Decoder::with_max_event_size(limits.max_bytes())).limits(limits)
    }

    /// This decoder, reading each event's JSON under `limits` (the SSE decoder's own event size
    /// stays as it is).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads events with `decoder`, e.g. one that already holds the last event id of an earlier
    /// connection.
    pub fn from_decoder(decoder: Decoder) -> Self {
        Self {
            sse: decoder,
            limits: Limits::default(),
            items: PhantomData,
        }
    }

    /// The SSE decoder underneath, for [`Decoder::last_event_id`] and [`Decoder::reconnection_time`].
    pub fn sse(&self) -> &Decoder {
        &self.sse
    }

    /// Reads one more chunk and returns the items it completes, in order, with any errors among them.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<StreamItem<T, E>, StreamError>> {
        self.sse
            .feed(chunk)
            .into_iter()
            .filter_map(|event| match event {
                Ok(event) => self.parse(event),
                Err(error) => Some(Err(error.into())),
            })
            .collect()
    }

    /// Ends the stream; see [`Decoder::finish`].
    pub fn finish(&mut self) -> Result<(), StreamError> {
        Ok(self.sse.finish()?)
    }

    fn parse(&self, mut event: Event) -> Option<Result<StreamItem<T, E>, StreamError>> {
        if event.data.is_empty() {
            return None;
        }
        if let Err(error) = self.limits.check_json(event.data.as_bytes()) {
            event.data = String::new();
            return Some(Err(StreamError::Limit {
                event,
                error: Box::new(error),
            }));
        }
        let item = if event.event_type() == ERROR_EVENT_TYPE {
            crate::json::from_str(&event.data).map(StreamItem::Error)
        } else {
            crate::json::from_str(&event.data).map(StreamItem::Data)
        };
        Some(item.map_err(|error| StreamError::Json { event, error }))
    }
}

/// `value` as compact JSON in one event of the default type, ready to write to the stream.
pub fn encode_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    encode_json_event(value, None)
}

/// `error` as compact JSON in one `error` event: how a server reports a failure once the stream has
/// begun (see the [module docs](self)), followed by closing the stream.
pub fn encode_json_error<E: Serialize + ?Sized>(error: &E) -> Result<String, serde_json::Error> {
    encode_json_event(error, Some(ERROR_EVENT_TYPE))
}

fn encode_json_event<T: Serialize + ?Sized>(
    value: &T,
    event: Option<&str>,
) -> Result<String, serde_json::Error> {
    // Compact JSON has no raw line breaks (they are escaped inside strings), so it is one data line.
    let json = serde_json::to_string(value)?;
    let mut out = String::with_capacity(json.len() + 24);
    if let Some(event) = event {
        push_field(&mut out, "event", event);
    }
    push_field(&mut out, "data", &json);
    out.push('\n');
    Ok(out)
}

/// One item of an HTTP+JSON stream as an event: the [`StreamResponse`] in ProtoJSON. Fails only on
/// what ProtoJSON cannot express (a timestamp outside years 1-9999, a NaN in a JSON value).
pub fn encode_stream_response(response: &StreamResponse) -> Result<String, serde_json::Error> {
    encode_json(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_events_over_the_limits_are_reported_and_decoding_carries_on() {
        // `{"statusUpdate": {"taskId": "t", "status": {}}}` is 4 values.
        let event = "data: {\"statusUpdate\": {\"taskId\": \"t\", \"status\": {}}}\n\n";
        let over = "data: {\"statusUpdate\": {\"taskId\": \"t\", \"status\": {}, \"x\": 1}}\n\n";
        let limits = Limits::default().with_max_elements(4);
        let mut decoder = HttpJsonDecoder::with_limits(limits);
        assert_eq!(decoder.sse().max_event_size(), limits.max_bytes());
        let items = decoder.feed(format!("{event}{over}{event}").as_bytes());
        assert!(matches!(items[0], Ok(StreamItem::Data(_))));
        let Err(StreamError::Limit { event: seen, error }) = &items[1] else {
            panic!("{:?}", items[1])
        };
        assert_eq!((error.max, error.path.as_str()), (4, "statusUpdate.x"));
        assert!(seen.data.is_empty());
        assert_eq!(
            items[1].as_ref().unwrap_err().to_string(),
            "SSE event of type `message`: more than 4 JSON values (the max_elements limit) at `statusUpdate.x`"
        );
        assert!(matches!(items[2], Ok(StreamItem::Data(_))));
        // The plain decoder applies the default limits.
        let many = format!(
            "data: [{}0]\n\n",
            "0,".repeat(crate::limits::DEFAULT_MAX_ELEMENTS)
        );
        let items = JsonDecoder::<serde_json::Value>::new().feed(many.as_bytes());
        assert!(
            matches!(items[..], [Err(StreamError::Limit { .. })]),
            "{items:?}"
        );
    }

    fn decode_all(decoder: &mut Decoder, chunks: &[&[u8]]) -> Vec<Result<Event, DecodeError>> {
        chunks
            .iter()
            .flat_map(|chunk| decoder.feed(chunk))
            .collect()
    }

    fn events(text: &str) -> Vec<Event> {
        let mut decoder = Decoder::new();
        let events = decoder.feed(text.as_bytes());
        decoder.finish().expect("stream ends between events");
        events.into_iter().map(Result::unwrap).collect()
    }

    #[test]
    fn every_line_end_works_alone_and_mixed() {
        let expected = [Event::new("a\nb"), Event::new("c")];
        for stream in [
            "data: a\ndata: b\n\ndata: c\n\n",
            "data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n",
            "data: a\rdata: b\r\rdata: c\r\r",
            "data: a\r\ndata: b\r\rdata: c\n\r\n",
        ] {
            assert_eq!(events(stream), expected, "{stream:?}");
        }
    }

    #[test]
    fn a_crlf_split_across_chunks_is_one_line_end() {
        // Read as two line ends, each CR LF would be a blank line and split the event in three.
        let mut decoder = Decoder::new();
        let got = decode_all(
            &mut decoder,
            &[
                b"data: a\r",
                b"\n",
                b"data: b\r",
                b"",
                b"\ndata: c\r\n\r",
                b"\n",
            ],
        );
        assert_eq!(got, [Ok(Event::new("a\nb\nc"))]);
        decoder.finish().unwrap();
    }

    #[test]
    fn a_cr_then_a_lone_cr_is_two_line_ends() {
        // `data: a` CR, then CR: the second ends the (empty) next line and dispatches.
        let mut decoder = Decoder::new();
        assert_eq!(
            decode_all(&mut decoder, &[b"data: a\r", b"\r"]),
            [Ok(Event::new("a"))]
        );
    }

    #[test]
    fn fields_follow_the_whatwg_rules() {
        let stream = "\u{feff}: a comment\n\
                      event: status\n\
                      id: 17\n\
                      retry: 2500\n\
                      data:no space\n\
                      data:  two spaces\n\
                      data\n\
                      unknown: ignored\n\
                      \n";
        let [event] = &events(stream)[..] else {
            panic!("one event")
        };
        assert_eq!(event.event.as_deref(), Some("status"));
        assert_eq!(event.id.as_deref(), Some("17"));
        assert_eq!(event.retry, Some(2500));
        assert_eq!(event.data, "no space\n two spaces\n");
    }

    #[test]
    fn invalid_retry_and_nul_ids_are_ignored() {
        let stream = "retry: 10s\nretry: 99999999999999999999999\nid: a\0b\ndata: x\n\n";
        assert_eq!(events(stream), [Event::new("x")]);
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_but_sets_the_last_id() {
        let mut decoder = Decoder::new();
        let got = decoder.feed(b"id: 41\nevent: x\n\ndata: y\n\nid\ndata: z\n\n");
        assert_eq!(
            got,
            [Ok(Event::new("y")), Ok(Event::new("z").id(""))],
            "the second event has no id of its own; the third resets it"
        );
        assert_eq!(decoder.last_event_id(), "");
        decoder.feed(b"id: 42\n\n");
        assert_eq!(decoder.last_event_id(), "42");
    }

    #[test]
    fn an_empty_data_line_dispatches_an_empty_event() {
        assert_eq!(events("data:\n\n"), [Event::new("")]);
        assert_eq!(events("data\n\n"), [Event::new("")]);
        assert_eq!(events("event: \ndata\n\n"), [Event::new("")]);
    }

    #[test]
    fn only_a_leading_bom_is_dropped_even_when_split() {
        let mut decoder = Decoder::new();
        let got = decode_all(&mut decoder, &[&BOM[..1], &BOM[1..], b"data: a\n\n"]);
        assert_eq!(got, [Ok(Event::new("a"))]);
        // A second BOM is part of the field name, which is then unknown.
        let stream = [BOM, BOM, b"data: a\n\ndata: b\n\n"].concat();
        let mut decoder = Decoder::new();
        assert_eq!(decoder.feed(&stream), [Ok(Event::new("b"))]);
    }

    #[test]
    fn invalid_utf8_reads_as_replacement_characters() {
        let mut decoder = Decoder::new();
        let got = decoder.feed(b"data: caf\xc3\n\n");
        assert_eq!(got, [Ok(Event::new("caf\u{fffd}"))]);
    }

    #[test]
    fn a_truncated_stream_is_an_error_but_trailing_comments_are_not() {
        for truncated in [
            "data: a",
            "data: a\n",
            "data: a\r\n",
            "id: 1\n",
            "data: a\n\ndata",
        ] {
            let mut decoder = Decoder::new();
            decoder.feed(truncated.as_bytes());
            assert_eq!(
                decoder.finish(),
                Err(DecodeError::Truncated),
                "{truncated:?}"
            );
        }
        for complete in [
            "",
            "\u{feff}",
            "data: a\n\n",
            "data: a\n\n: ping\n",
            "data: a\n\n: pi",
        ] {
            let mut decoder = Decoder::new();
            decoder.feed(complete.as_bytes());
            assert_eq!(decoder.finish(), Ok(()), "{complete:?}");
        }
    }

    #[test]
    fn finish_readies_the_decoder_for_a_reconnection() {
        let mut decoder = Decoder::new();
        decoder.feed(b"id: 7\nretry: 300\ndata: a\n\ndata: half");
        assert_eq!(decoder.finish(), Err(DecodeError::Truncated));
        assert_eq!(decoder.last_event_id(), "7");
        assert_eq!(decoder.reconnection_time(), Some(300));
        let stream = [BOM, b"data: b\n\n"].concat();
        assert_eq!(decoder.feed(&stream), [Ok(Event::new("b"))]);
    }

    #[test]
    fn an_oversized_event_is_reported_once_and_skipped() {
        let mut decoder = Decoder::with_max_event_size(16);
        let mut got = decoder.feed(b"data: small\n\ndata: 0123456789");
        got.extend(decoder.feed(b"abcdef\ndata: more\n"));
        got.extend(decoder.feed(b"\ndata: after\n\n"));
        assert_eq!(
            got,
            [
                Ok(Event::new("small")),
                Err(DecodeError::EventTooLarge { limit: 16 }),
                Ok(Event::new("after")),
            ]
        );
        assert_eq!(decoder.finish(), Ok(()));
    }

    #[test]
    fn many_small_data_lines_count_towards_the_limit() {
        let mut decoder = Decoder::with_max_event_size(10);
        let got = decoder.feed(b"data: abc\ndata: abc\ndata: abc\ndata: abc\n\ndata: ok\n\n");
        assert_eq!(
            got,
            [
                Err(DecodeError::EventTooLarge { limit: 10 }),
                Ok(Event::new("ok"))
            ]
        );
    }

    #[test]
    fn an_endless_line_is_not_stored() {
        let mut decoder = Decoder::with_max_event_size(1024);
        let mut errors = 0;
        for _ in 0..1000 {
            errors += decoder.feed(&[b'x'; 4096]).len();
            assert!(decoder.line.capacity() <= 1024 * 2);
        }
        assert_eq!(errors, 1);
        assert_eq!(decoder.finish(), Ok(()));
    }

    #[test]
    fn encoding_writes_each_field_and_data_line() {
        let event = Event::new("line one\r\nline two\rline three\n")
            .event("status-update")
            .id("ev-9")
            .retry(1500);
        assert_eq!(
            event.encode().unwrap(),
            "event: status-update\nid: ev-9\nretry: 1500\n\
             data: line one\ndata: line two\ndata: line three\ndata: \n\n"
        );
        assert_eq!(Event::new("").encode().unwrap(), "data: \n\n");
        assert_eq!(
            events(&event.encode().unwrap()),
            [Event {
                data: "line one\nline two\nline three\n".into(),
                ..event
            }]
        );
    }

    #[test]
    fn encoding_refuses_what_the_format_cannot_carry() {
        assert_eq!(
            Event::new("x").event("a\nb").encode(),
            Err(EncodeError::LineBreak(EventField::Event))
        );
        assert_eq!(
            Event::new("x").id("a\rb").encode(),
            Err(EncodeError::LineBreak(EventField::Id))
        );
        assert_eq!(
            Event::new("x").id("a\0").encode(),
            Err(EncodeError::NulInId)
        );
        let mut out = String::from("kept");
        assert!(Event::new("x").id("\n").encode_into(&mut out).is_err());
        assert_eq!(out, "kept");
    }

    #[test]
    fn comments_are_ignored_by_the_decoder() {
        let text = comment("keep-alive\nsecond line") + &comment("") + "data: x\n\n";
        assert_eq!(comment(""), ":\n");
        assert_eq!(events(&text), [Event::new("x")]);
    }
}
