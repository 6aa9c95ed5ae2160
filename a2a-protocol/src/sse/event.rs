//! One server-sent event ([`Event`]) and how it is written in the `text/event-stream` format, with
//! the errors of what that format cannot carry.

use std::fmt;

/// The event type a `data`-only event has, and the one an `event:` line with an empty value means.
pub const DEFAULT_EVENT_TYPE: &str = "message";

/// The event type the official Python SDK gives an error it reports inside a stream.
pub const ERROR_EVENT_TYPE: &str = "error";

/// One server-sent event, as written by [`Event::encode`] or read by a [`Decoder`].
///
/// [`Decoder`]: super::Decoder
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
    ///
    /// [`Decoder::last_event_id`]: super::Decoder::last_event_id
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

pub(super) fn push_field(out: &mut String, name: &str, value: &str) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sse::decoder::tests::events;

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
