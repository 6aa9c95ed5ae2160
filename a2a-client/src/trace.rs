//! W3C Trace Context (`traceparent`, <https://www.w3.org/TR/trace-context/>): every request carries
//! one, so the agent's logs and traces join the caller's. A client continues the trace it was given
//! ([`TraceParent::parse`]) or starts a new one per call; each request gets its own parent id.

use std::fmt;

/// The `traceparent` header name (lower case, as HTTP/2 and gRPC metadata require).
pub const TRACEPARENT: &str = "traceparent";

/// One `traceparent` value: version 00, a trace id, a parent (span) id and the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceParent {
    trace_id: u128,
    parent_id: u64,
    flags: u8,
}

impl TraceParent {
    /// A new trace, sampled, with random ids (never zero, which the spec forbids).
    pub fn new_root() -> Self {
        TraceParent {
            trace_id: fastrand::u128(1..),
            parent_id: fastrand::u64(1..),
            flags: 1,
        }
    }

    /// The same trace with a new random parent id: what one outgoing request carries.
    pub fn child(&self) -> Self {
        TraceParent {
            parent_id: fastrand::u64(1..),
            ..*self
        }
    }

    /// The trace id as 32 lower-case hex digits.
    pub fn trace_id(&self) -> String {
        format!("{:032x}", self.trace_id)
    }

    /// Reads a `traceparent` value as the spec says a receiver does: version `00` exactly as
    /// specified; a higher version's first four fields; ids not all zero. `None` when invalid.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        let mut fields = value.split('-');
        let version = fields.next()?;
        let trace = fields.next()?;
        let parent = fields.next()?;
        let flags = fields.next()?;
        let hex = |s: &str, len: usize| {
            s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        if !hex(version, 2)
            || version == "ff"
            || !hex(trace, 32)
            || !hex(parent, 16)
            || !hex(flags, 2)
        {
            return None;
        }
        if version == "00" && fields.next().is_some() {
            return None;
        }
        let trace_id = u128::from_str_radix(trace, 16).ok().filter(|&id| id != 0)?;
        let parent_id = u64::from_str_radix(parent, 16).ok().filter(|&id| id != 0)?;
        let flags = u8::from_str_radix(flags, 16).ok()?;
        Some(TraceParent {
            trace_id,
            parent_id,
            flags,
        })
    }
}

impl fmt::Display for TraceParent {
    /// `00-<trace id>-<parent id>-<flags>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "00-{:032x}-{:016x}-{:02x}",
            self.trace_id, self.parent_id, self.flags
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_round_trips_and_children_keep_the_trace() {
        let given = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        let parent = TraceParent::parse(given).expect("valid");
        assert_eq!(parent.to_string(), given);
        let child = parent.child();
        assert_eq!(child.trace_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_ne!(child.to_string(), given);
        let root = TraceParent::new_root().to_string();
        assert_eq!(TraceParent::parse(&root).map(|t| t.to_string()), Some(root));
    }

    #[test]
    fn invalid_traceparents_are_refused() {
        for bad in [
            "",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        ] {
            assert_eq!(TraceParent::parse(bad), None, "{bad:?}");
        }
        // A later version may add fields after the flags.
        assert!(
            TraceParent::parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x")
                .is_some()
        );
    }
}
