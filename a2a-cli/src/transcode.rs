//! `a2a transcode`: one message from stdin, in one encoding, to stdout in another.
//!
//! Every conversion goes through the protobuf value of the message (`a2a-proto`).
//!
//! For an A2A v1 message (`lf.a2a.v1.X`), the protobuf type `P` is paired with the serde type `M` of
//! `a2a-types` by [`a2a_types::v1::visit_proto_pair`]:
//!
//! | step | how | an error names |
//! |---|---|---|
//! | `json` in | parsed as `M` (`serde_path_to_error`), then `M` → `P` (infallible) | the JSON path, such as `status.timestamp` |
//! | `proto-json` in | parsed as `P` by `a2a-proto` | the JSON path |
//! | `binpb` in | `P::decode` | the byte offset (see `a2a_proto::wire`) and prost's message/field text |
//! | `binpb` out | `P::encode_to_vec` | nothing can fail |
//! | `json` out | `P` → `M` (`TryFrom`), then `M` written by serde | the field path |
//! | `proto-json` out | `P` written by `a2a-proto` | nothing can fail |
//!
//! JSON output is written from the protobuf value whatever the input: `--from json --to json` gives the
//! same text as `--from json --to binpb` followed by `--from binpb --to json`. The two printers agree
//! except where the `a2a-types` docs say otherwise; one difference shows here: a message that is nothing
//! but a oneof (`lf.a2a.v1.StreamResponse`, …) with no member set, such as empty binary input, has no
//! JSON form in `a2a-types` and is an error.
//!
//! For an A2A v0.3 protobuf message (`a2a.v1.X`, the v0.3 gRPC binding), `json` is the JSON-RPC form
//! the official converter pairs with it (`MessageSendParams` for `a2a.v1.SendMessageRequest`), converted
//! by `a2a_compat::v0_3::proto` with exactly the losses its docs list; `proto-json` and `binpb` are the
//! protobuf message itself.

use std::io::Read;

use a2a_compat::v0_3::proto::TranscodeError;
use a2a_proto::registry::{MessageVisitor, ProtoMessage};
use a2a_proto::wire;
use a2a_types::proto::ConversionError;
use a2a_types::registry::{A2aMessage, ProtoPairVisitor};

use crate::cli::{Format, TranscodeArgs, TypesFor};
use crate::failure::Failure;
use crate::names;

/// Runs `a2a transcode`: checks the arguments, reads all of `input`, and returns the bytes for stdout.
pub fn run(args: &TranscodeArgs, input: &mut impl Read) -> Result<Vec<u8>, Failure> {
    names::check(&args.type_name, TypesFor::Transcode)?;
    if args.pretty && args.to == Format::Binpb {
        return Err(Failure::usage(
            "--pretty applies only to JSON output (`a2a --help` for usage)",
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
    names::check(type_name, TypesFor::Transcode)?;
    let job = Job {
        type_name,
        input,
        from,
        to,
        pretty,
    };
    let unpaired = || {
        // Listed but not paired: the generated tables disagree, which their tests rule out.
        Err(Failure::usage(format!(
            "message type `{type_name}` has no Rust type in this build"
        )))
    };
    if type_name.starts_with("lf.a2a.v1.") {
        a2a_types::v1::visit_proto_pair(type_name, V1(job)).unwrap_or_else(unpaired)
    } else {
        a2a_proto::v0_3::visit_message(type_name, V0_3(job)).unwrap_or_else(unpaired)
    }
}

/// What to transcode.
struct Job<'a> {
    type_name: &'a str,
    input: &'a [u8],
    from: Format,
    to: Format,
    pretty: bool,
}

impl Job<'_> {
    /// Reads the input as `P` from the encodings `a2a-proto` itself handles.
    fn read_proto<P: ProtoMessage>(&self) -> Result<P, Failure> {
        match self.from {
            Format::ProtoJson => read_proto_json::<P>(self.type_name, self.input),
            _ => read_binpb::<P>(self.type_name, self.input),
        }
    }

    /// Writes `proto` in the encodings `a2a-proto` itself handles.
    fn write_proto<P: ProtoMessage>(&self, proto: &P) -> Result<Vec<u8>, Failure> {
        match self.to {
            Format::ProtoJson => {
                let text = if self.pretty {
                    a2a_proto::json::to_string_pretty(proto)
                } else {
                    a2a_proto::json::to_string(proto)
                }
                .map_err(|e| {
                    Failure::input(format!("cannot write {} as ProtoJSON: {e}", self.type_name))
                })?;
                Ok(format!("{text}\n").into_bytes())
            }
            _ => Ok(proto.encode_to_vec()),
        }
    }
}

/// An A2A v1 message: `json` through `a2a-types`.
struct V1<'a>(Job<'a>);

impl ProtoPairVisitor for V1<'_> {
    type Output = Result<Vec<u8>, Failure>;

    fn visit<M, P>(self) -> Self::Output
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = ConversionError>,
        P: ProtoMessage,
    {
        let job = self.0;
        let proto: P = match job.from {
            Format::Json => read_json::<M>(job.type_name, job.input)?.into(),
            Format::ProtoJson | Format::Binpb => job.read_proto::<P>()?,
        };
        match job.to {
            Format::Json => write_json::<M, P>(job.type_name, proto, job.pretty),
            Format::ProtoJson | Format::Binpb => job.write_proto(&proto),
        }
    }
}

/// An A2A v0.3 protobuf message: `json` is its JSON-RPC form, through `a2a_compat::v0_3::proto`.
struct V0_3<'a>(Job<'a>);

impl MessageVisitor for V0_3<'_> {
    type Output = Result<Vec<u8>, Failure>;

    fn visit<P: ProtoMessage>(self) -> Self::Output {
        let job = self.0;
        let proto: P = match job.from {
            Format::Json => {
                let json = parse_json_document(job.type_name, job.input)?;
                let bytes = a2a_compat::v0_3::proto::jsonrpc_to_proto(job.type_name, json)
                    .map_err(|e| jsonrpc_failure(job.type_name, e))?;
                P::decode(bytes.as_slice()).map_err(|e| {
                    Failure::input(format!(
                        "{}: converted to invalid protobuf: {e}",
                        job.type_name
                    ))
                })?
            }
            Format::ProtoJson | Format::Binpb => job.read_proto::<P>()?,
        };
        match job.to {
            Format::Json => {
                let json = a2a_compat::v0_3::proto::proto_to_jsonrpc(
                    job.type_name,
                    &proto.encode_to_vec(),
                )
                .map_err(|e| jsonrpc_failure(job.type_name, e))?;
                let text = if job.pretty {
                    serde_json::to_string_pretty(&json)
                } else {
                    serde_json::to_string(&json)
                }
                .expect("a JSON value is always text");
                Ok(format!("{text}\n").into_bytes())
            }
            Format::ProtoJson | Format::Binpb => job.write_proto(&proto),
        }
    }
}

/// The one-line failure for an error of the v0.3 JSON-RPC conversion.
fn jsonrpc_failure(type_name: &str, error: TranscodeError) -> Failure {
    match error {
        TranscodeError::Json { path, message } => Failure::input(format!(
            "invalid JSON for {type_name} (its v0.3 JSON-RPC form) at `{path}`: {message}"
        )),
        TranscodeError::Conversion(error) => {
            let at = match error.path().as_str() {
                "" => String::new(),
                path => format!(" at `{path}`"),
            };
            Failure::input(format!(
                "cannot convert {type_name}{at}: {}",
                error.reason()
            ))
        }
        TranscodeError::Binary(message) => {
            Failure::input(format!("invalid binpb for {type_name}: {message}"))
        }
        no_form @ TranscodeError::NoCounterpart { .. } => Failure::usage(format!(
            "{no_form}; use --from/--to proto-json or binpb (`a2a --help` for usage)"
        )),
        unknown @ TranscodeError::UnknownType(_) => Failure::usage(unknown.to_string()),
    }
}

/// Parses one JSON document of any shape; an error is an error of the document as a whole.
pub fn parse_json_document(type_name: &str, input: &[u8]) -> Result<serde_json::Value, Failure> {
    check_not_blank(type_name, input)?;
    // A key twice in an object is an error naming it, as protobuf's JSON parsers have it.
    a2a_types::json::value_from_slice(input).map_err(|e| {
        Failure::input(format!(
            "invalid JSON for {type_name} at `{}`: {}",
            e.path(),
            e.inner()
        ))
    })
}

pub fn check_not_blank(type_name: &str, input: &[u8]) -> Result<(), Failure> {
    if input.iter().all(u8::is_ascii_whitespace) {
        let got = if input.is_empty() {
            "empty input"
        } else {
            "only whitespace"
        };
        return Err(Failure::input(format!(
            "invalid JSON for {type_name} at `.`: expected a JSON document, got {got}"
        )));
    }
    Ok(())
}

/// Parses ProtoJSON as `P` with `a2a-proto`; an error names the path of the field at fault.
fn read_proto_json<P: ProtoMessage>(type_name: &str, input: &[u8]) -> Result<P, Failure> {
    check_not_blank(type_name, input)?;
    a2a_proto::json::from_slice::<P>(input).map_err(|e| {
        let path = match e.path() {
            "" => ".",
            path => path,
        };
        Failure::input(format!(
            "invalid ProtoJSON for {type_name} at `{path}`: {}",
            e.inner()
        ))
    })
}

/// Parses one JSON document as `M`; an error names the path of the field at fault.
fn read_json<M: A2aMessage>(type_name: &str, input: &[u8]) -> Result<M, Failure> {
    let invalid = |path: &str, reason: &dyn std::fmt::Display| {
        Failure::input(format!(
            "invalid JSON for {type_name} at `{path}`: {reason}"
        ))
    };
    check_not_blank(type_name, input)?;
    let mut deserializer = serde_json::Deserializer::from_slice(input);
    let message: M = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| invalid(&e.path().to_string(), e.inner()))?;
    // Anything after the document is an error of the document as a whole.
    deserializer.end().map_err(|e| invalid(".", &e))?;
    // Unicode throughout, unknown fields included: the rule of both crates.
    a2a_types::json::check_unicode(input).map_err(|e| invalid(e.path(), e.inner()))?;
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
