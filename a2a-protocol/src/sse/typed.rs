//! The JSON layer over the [`Decoder`]: each event's data read as one JSON document (a payload, or
//! the error of an `error` event) under a [`Limits`] budget, and JSON values written as events.

use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::decoder::{DecodeError, Decoder};
use super::event::{ERROR_EVENT_TYPE, Event, push_field};
use crate::limits::{LimitError, Limits};
use a2a_types::v1::StreamResponse;

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
        error: a2a_types::json::JsonError,
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
/// error `E`; events with empty data are skipped (see the [module docs](super)). Each event's data is
/// checked against the decoder's [`Limits`] (by default [`Limits::default`]) before it is parsed.
///
/// For the HTTP+JSON binding `T` is [`StreamResponse`] ([`HttpJsonDecoder`]); for JSON-RPC it is the
/// JSON-RPC response type whose `result` is a `StreamResponse`, and `E` the same type:
///
/// ```
/// use a2a_types::serde::Deserialize;
/// use a2a_protocol::sse::{JsonDecoder, StreamItem};
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
    ///
    /// [`DEFAULT_MAX_EVENT_SIZE`]: super::DEFAULT_MAX_EVENT_SIZE
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
            a2a_types::json::from_str(&event.data).map(StreamItem::Error)
        } else {
            a2a_types::json::from_str(&event.data).map(StreamItem::Data)
        };
        Some(item.map_err(|error| StreamError::Json { event, error }))
    }
}

/// `value` as compact JSON in one event of the default type, ready to write to the stream.
pub fn encode_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    encode_json_event(value, None)
}

/// `error` as compact JSON in one `error` event: how a server reports a failure once the stream has
/// begun (see the [module docs](super)), followed by closing the stream.
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
}
