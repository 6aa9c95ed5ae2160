//! The incremental [`Decoder`]: bytes fed in chunks of any size, events out, by the WHATWG rules
//! for server-sent events, with a bound on what one event may hold.

use std::fmt;

use super::event::Event;

/// The largest event a [`Decoder`] accepts unless told otherwise: 16 MiB, room for an artifact update
/// that carries a file of about 12 MB inline (base64), while bounding what a faulty or hostile server
/// can make a client hold.
pub const DEFAULT_MAX_EVENT_SIZE: usize = 16 * 1024 * 1024;

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
/// docs](super) for the rules.
///
/// ```
/// use a2a_protocol::sse::{Decoder, Event};
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn decode_all(decoder: &mut Decoder, chunks: &[&[u8]]) -> Vec<Result<Event, DecodeError>> {
        chunks
            .iter()
            .flat_map(|chunk| decoder.feed(chunk))
            .collect()
    }

    pub(in crate::sse) fn events(text: &str) -> Vec<Event> {
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
}
