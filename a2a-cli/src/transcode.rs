//! `a2a transcode`: one message from stdin, in one encoding, to stdout in another.
//!
//! Every conversion goes through the protobuf type `P` of `a2a-proto`, paired with the serde type `M`
//! of `a2a-types` by [`a2a_types::v1::visit_proto_pair`]:
//!
//! | step | how | an error names |
//! |---|---|---|
//! | JSON in | parsed as `M` (`serde_path_to_error`), then `M` → `P` (infallible) | the JSON path, such as `status.timestamp` |
//! | binary in | `P::decode` | the byte offset (see [`crate::wire`]) and prost's message/field text |
//! | binary out | `P::encode_to_vec` | nothing can fail |
//! | JSON out | `P` → `M` (`TryFrom`), then `M` written by serde | the field path |
//!
//! JSON output is what `a2a-types` writes, never `a2a-proto`'s own ProtoJSON printer, and it is
//! written from the protobuf value whatever the input: `--from json --to json` gives the same text as
//! `--from json --to binpb` followed by `--from binpb --to json`. The two printers agree except where
//! the `a2a-types` docs say otherwise; one difference shows here: a message that is nothing but a
//! oneof (`lf.a2a.v1.StreamResponse`, …) with no member set, such as empty binary input, has no JSON
//! form in `a2a-types` and is an error.

use std::io::Read;

use a2a_proto::registry::ProtoMessage;
use a2a_types::proto::{ConversionError, ProtoPairVisitor};
use a2a_types::registry::A2aMessage;

use crate::cli::{Format, TranscodeArgs};
use crate::failure::Failure;
use crate::{names, wire};

/// Runs `a2a transcode`: checks the arguments, reads all of `input`, and returns the bytes for stdout.
pub fn run(args: &TranscodeArgs, input: &mut impl Read) -> Result<Vec<u8>, Failure> {
    names::check(&args.type_name)?;
    if args.pretty && args.to != Format::Json {
        return Err(Failure::usage(
            "--pretty applies only to --to json (`a2a --help` for usage)",
        ));
    }
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("cannot read stdin: {e}")))?;
    transcode(&args.type_name, &bytes, args.from, args.to, args.pretty)
}

/// Converts `input`, a message of the type named `type_name` in encoding `from`, to encoding `to`.
pub fn transcode(
    type_name: &str,
    input: &[u8],
    from: Format,
    to: Format,
    pretty: bool,
) -> Result<Vec<u8>, Failure> {
    let visitor = Transcode {
        type_name,
        input,
        from,
        to,
        pretty,
    };
    a2a_types::v1::visit_proto_pair(type_name, visitor).unwrap_or_else(|| {
        names::check(type_name)?;
        // Listed but not paired: the generated tables disagree, which their tests rule out.
        Err(Failure::usage(format!(
            "message type `{type_name}` has no protobuf counterpart in a2a-types"
        )))
    })
}

struct Transcode<'a> {
    type_name: &'a str,
    input: &'a [u8],
    from: Format,
    to: Format,
    pretty: bool,
}

impl ProtoPairVisitor for Transcode<'_> {
    type Output = Result<Vec<u8>, Failure>;

    fn visit<M, P>(self) -> Self::Output
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = ConversionError>,
        P: ProtoMessage,
    {
        let proto: P = match self.from {
            Format::Json => read_json::<M>(self.type_name, self.input)?.into(),
            Format::Binpb => read_binpb::<P>(self.type_name, self.input)?,
        };
        match self.to {
            Format::Binpb => Ok(proto.encode_to_vec()),
            Format::Json => write_json::<M, P>(self.type_name, proto, self.pretty),
        }
    }
}

/// Parses one JSON document as `M`; an error names the path of the field at fault.
fn read_json<M: A2aMessage>(type_name: &str, input: &[u8]) -> Result<M, Failure> {
    let invalid = |path: &str, reason: &dyn std::fmt::Display| {
        Failure::input(format!(
            "invalid JSON for {type_name} at `{path}`: {reason}"
        ))
    };
    if input.iter().all(u8::is_ascii_whitespace) {
        let got = if input.is_empty() {
            "empty input"
        } else {
            "only whitespace"
        };
        return Err(invalid(
            ".",
            &format!("expected a JSON document, got {got}"),
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(input);
    let message: M = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| invalid(&e.path().to_string(), e.inner()))?;
    // Anything after the document is an error of the document as a whole.
    deserializer.end().map_err(|e| invalid(".", &e))?;
    Ok(message)
}

/// Decodes `P` from the protobuf binary encoding; an error names the byte offset at fault.
fn read_binpb<P: ProtoMessage>(type_name: &str, input: &[u8]) -> Result<P, Failure> {
    P::decode(input).map_err(|error| {
        let error = error.to_string();
        let prost = error
            .strip_prefix("failed to decode Protobuf message: ")
            .unwrap_or(&error);
        Failure::input(
            match wire::locate(input, |prefix| P::decode(prefix).is_ok()) {
                Some(at) => format!(
                    "invalid binpb for {type_name} at byte offset {}: {} ({prost})",
                    at.offset, at.detail
                ),
                None => format!("invalid binpb for {type_name}: {prost}"),
            },
        )
    })
}

/// Converts `proto` to `M` and writes it as JSON, ending in a newline.
fn write_json<M, P>(type_name: &str, proto: P, pretty: bool) -> Result<Vec<u8>, Failure>
where
    M: A2aMessage + TryFrom<P, Error = ConversionError>,
{
    let cannot = |path: &str, reason: &dyn std::fmt::Display| {
        Failure::input(match path {
            "" | "." => format!("cannot write {type_name} as JSON: {reason}"),
            path => format!("cannot write {type_name} as JSON at `{path}`: {reason}"),
        })
    };
    let message = M::try_from(proto).map_err(|e| cannot(&e.path(), &e.reason()))?;
    let mut out = Vec::new();
    let written = if pretty {
        serde_path_to_error::serialize(&message, &mut serde_json::Serializer::pretty(&mut out))
    } else {
        serde_path_to_error::serialize(&message, &mut serde_json::Serializer::new(&mut out))
    };
    written.map_err(|e| cannot(&e.path().to_string(), e.inner()))?;
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_to_json(type_name: &str, json: &str) -> Result<String, String> {
        transcode(
            type_name,
            json.as_bytes(),
            Format::Json,
            Format::Json,
            false,
        )
        .map(|out| String::from_utf8(out).unwrap())
        .map_err(|failure| failure.line())
    }

    #[test]
    fn json_errors_name_the_path() {
        let error = json_to_json(
            "lf.a2a.v1.Task",
            r#"{"id":"t-1","status":{"state":"TASK_STATE_WORKING","timestamp":"yesterday"}}"#,
        )
        .unwrap_err();
        assert!(
            error.starts_with("invalid JSON for lf.a2a.v1.Task at `status.timestamp`: "),
            "{error}"
        );
    }

    #[test]
    fn empty_json_is_an_error_and_empty_binary_is_not() {
        assert_eq!(
            json_to_json("lf.a2a.v1.Task", " \n").unwrap_err(),
            "invalid JSON for lf.a2a.v1.Task at `.`: expected a JSON document, got only whitespace"
        );
        let out = transcode("lf.a2a.v1.Task", b"", Format::Binpb, Format::Json, false).unwrap();
        // REQUIRED message fields are always written, default scalars never.
        assert_eq!(out, b"{\"status\":{}}\n");
        let out = transcode("lf.a2a.v1.Task", b"", Format::Binpb, Format::Binpb, false).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn trailing_text_is_an_error_of_the_document() {
        let error = json_to_json("lf.a2a.v1.TaskStatus", "{} {}").unwrap_err();
        assert!(
            error.starts_with("invalid JSON for lf.a2a.v1.TaskStatus at `.`: trailing characters"),
            "{error}"
        );
    }

    #[test]
    fn oneof_only_message_without_member_has_no_json() {
        let error = transcode(
            "lf.a2a.v1.StreamResponse",
            b"",
            Format::Binpb,
            Format::Json,
            false,
        )
        .unwrap_err()
        .line();
        assert!(
            error.starts_with("cannot write lf.a2a.v1.StreamResponse as JSON"),
            "{error}"
        );
    }

    #[test]
    fn unknown_type_is_a_usage_error() {
        let failure = transcode("Task", b"{}", Format::Json, Format::Json, false).unwrap_err();
        assert_eq!(failure, Failure::usage(failure.line()));
    }
}
