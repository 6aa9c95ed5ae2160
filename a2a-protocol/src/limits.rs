//! A decode budget: how many bytes, and how many JSON values, one document may have before anything
//! is parsed, so a server bounds the memory one request can make it hold.
//!
//! A decoded value can hold many times its input: an empty element costs a whole Rust struct (a
//! 3-byte `{}` task in a list is a `Task` of several hundred bytes). Bounding the bytes alone bounds
//! memory only up to that ratio; bounding the count of elements as well bounds it directly:
//!
//! > bytes held by a decoded value ≤ [`JSON_BYTES_PER_ELEMENT`] × elements + [`JSON_BYTES_PER_BYTE`] × input bytes
//!
//! [`Limits`] holds both numbers; [`Limits::check_json`] applies them with a counting pre-scan
//! that allocates nothing and stops at the first value over the budget, before the real parse commits
//! any memory. Every entry point of this crate that reads bytes applies [`Limits::default`] unless
//! given others: [`rest::route`](crate::rest::route) (and `route_with_limits`),
//! [`jsonrpc::JsonRpcRequest::from_slice`](crate::jsonrpc::JsonRpcRequest::from_slice) and the
//! response readers beside it, and [`sse::JsonDecoder`](crate::sse::JsonDecoder) per event.
//! [`from_slice`] reads any type under a budget.
//!
//! The code lives in `a2a_support::limits`: [`Limits`] is the same type as `a2a_proto::limits::Limits`,
//! which applies it to protobuf binary (an element there is a field), so one budget serves a server's
//! every binding.
//!
//! ```
//! use a2a_protocol::limits::{Limit, Limits};
//! use a2a_types::v1::Message;
//!
//! let limits = Limits::default().with_max_elements(8);
//! let ok = br#"{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}"#;
//! assert_eq!(limits.check_json(ok), Ok(6));
//! let message: Message = a2a_protocol::limits::from_slice(ok, &limits)?;
//! assert_eq!(message.text(), "hi");
//!
//! let hostile = br#"{"messageId": "m-1", "parts": [{}, {}, {}, {}, {}, {}, {}, {}]}"#;
//! let error = limits.check_json(hostile).unwrap_err();
//! assert_eq!((error.limit, error.max, error.path.as_str()), (Limit::Elements, 8, "parts[5]"));
//! assert_eq!(error.to_string(), "more than 8 JSON values (the max_elements limit) at `parts[5]`");
//! # Ok::<(), a2a_protocol::limits::ReadError>(())
//! ```
//!
//! # What counts
//!
//! One element is one JSON value: the document itself, each array item and each member's value (a
//! member's name is not counted apart from its value). `{"a": [1, 2]}` is 4 elements. The count is
//! exact for valid JSON; on invalid JSON it never undercounts what a parser would read before the
//! first syntax error, which the parse then reports.
//!
//! # Defaults, and what they bound
//!
//! | limit | default | why |
//! |---|---|---|
//! | [`max_bytes`](Limits::max_bytes) | [`DEFAULT_MAX_BYTES`] (16 MiB) | as [`sse::DEFAULT_MAX_EVENT_SIZE`](crate::sse::DEFAULT_MAX_EVENT_SIZE): a file part of about 12 MB inline (base64) fits |
//! | [`max_elements`](Limits::max_elements) | [`DEFAULT_MAX_ELEMENTS`] (100,000) | 50 times the values of the benchmark's 51 KB task (1,851) and 10 times a task of 1,000 messages of a few parts each; at most ~100 MB of structs |
//!
//! With the defaults a document holds at most ~100 MB of structs plus about twice its text whatever
//! its shape ([`Limits::max_held_bytes`]: 136 MB), and real documents far less (the measured worst
//! shape, empty tasks, holds 440 bytes per value). Servers with other needs set their own numbers; [`Limits::unlimited`] turns the budget
//! off. The measured ratios per shape are in the README of `a2a-spec-types` ("Memory").
//!
//! # Cost
//!
//! The pre-scan reads the bytes once without allocating (strings are skipped with `memchr`), a fraction
//! of a typed decode of the same document (the workspace's `budget` benchmark measures it; the README of
//! `a2a-spec-types` has the figures), and nothing when the byte limit alone refuses the input.
//! [`Limits::unlimited`] skips it.

pub use a2a_support::limits::{
    BYTES_PER_BYTE as JSON_BYTES_PER_BYTE, BYTES_PER_ELEMENT as JSON_BYTES_PER_ELEMENT, Counted,
    DEFAULT_MAX_BYTES, DEFAULT_MAX_ELEMENTS, Limit, LimitError, Limits, ReadError, from_slice,
};

impl From<LimitError> for crate::errors::Error {
    /// `InvalidRequest` naming the limit: what the official Python SDK answers a JSON-RPC body over
    /// its size limit with (`-32600`, "Payload too large"). Over HTTP+JSON, answer with status 413.
    fn from(error: LimitError) -> Self {
        crate::errors::Error::with_message(
            crate::errors::ErrorKind::InvalidRequest,
            format!("payload too large: {error}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body over the budget answers as the official SDK does: `-32600`, naming the limit.
    #[test]
    fn a_limit_error_is_an_invalid_request_naming_the_limit() {
        let error = Limits::default()
            .with_max_elements(1)
            .check_json(br#"{"id": "t-1"}"#)
            .unwrap_err();
        let error = crate::errors::Error::from(error);
        assert_eq!(error.kind, crate::errors::ErrorKind::InvalidRequest);
        assert_eq!(
            error.message,
            "payload too large: more than 1 JSON values (the max_elements limit) at `id`"
        );
    }
}
