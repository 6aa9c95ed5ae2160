//! `a2a upgrade` and `a2a downgrade`: one document from stdin converted between A2A v0.3 (or v0.2, v0.1)
//! and v1 by `a2a_compat::bridge`, which follows the official SDKs' conversions (and their losses,
//! listed in its docs, step by step for the older versions).
//!
//! Upgrade reads JSON of a type of the older version's JSON Schema (`--type MessageSendParams`,
//! `--from 0.1 --type TaskSendParams`; the version told from the document when `--from` is not given)
//! and writes the v1 message's ProtoJSON; downgrade reads v1 ProtoJSON (`--type lf.a2a.v1.Task`) and
//! writes v0.3 JSON, or v0.2's or v0.1's with `--from`. The name of the type written goes to stderr, so
//! stdout holds only the document.

use std::io::Read;

use a2a_compat::bridge::{BridgeError, BridgeErrorKind, OlderVersion};

use crate::cli::{BridgeArgs, TypesFor};
use crate::failure::Failure;
use crate::names;
use crate::transcode::{check_not_blank, parse_json_document};

/// Which way to convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Upgrade,
    Downgrade,
}

/// Runs `a2a upgrade` or `a2a downgrade`: returns the output document and the name of its type.
pub fn run(
    direction: Direction,
    args: &BridgeArgs,
    input: &mut impl Read,
) -> Result<(Vec<u8>, &'static str), Failure> {
    let command = match direction {
        Direction::Upgrade => TypesFor::Upgrade,
        Direction::Downgrade => TypesFor::Downgrade,
    };
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("cannot read stdin: {e}")))?;
    let older = match (direction, args.from) {
        (_, Some(version)) => version,
        (Direction::Downgrade, None) => OlderVersion::V0_3,
        // Told from the document; a type only v0.1 has (`TaskSendParams`) is v0.1's.
        (Direction::Upgrade, None) => serde_json::from_slice(&bytes)
            .ok()
            .and_then(|json| OlderVersion::detect(&args.type_name, &json))
            .unwrap_or(OlderVersion::V0_3),
    };
    match (direction, older) {
        (_, OlderVersion::V0_3) => {
            names::check(&args.type_name, command)?;
            convert(direction, &args.type_name, &bytes, args.pretty)
        }
        (Direction::Upgrade, older) => {
            if !older.schema_types().contains(&args.type_name.as_str()) {
                return Err(Failure::usage(format!(
                    "unknown v{} type `{}` for upgrade (a definition of its JSON Schema, such as AgentCard)",
                    older.as_str(),
                    args.type_name
                )));
            }
            convert_older(direction, older, &args.type_name, &bytes, args.pretty)
        }
        (Direction::Downgrade, older) => {
            names::check(&args.type_name, command)?;
            convert_older(direction, older, &args.type_name, &bytes, args.pretty)
        }
    }
}

/// [`convert`] for v0.2 and v0.1, through every version in between.
pub fn convert_older(
    direction: Direction,
    older: OlderVersion,
    type_name: &str,
    input: &[u8],
    pretty: bool,
) -> Result<(Vec<u8>, &'static str), Failure> {
    let json = parse_json_document(type_name, input)?;
    let converted = match direction {
        Direction::Upgrade => a2a_compat::bridge::upgrade_json_from(older, type_name, json),
        Direction::Downgrade => a2a_compat::bridge::downgrade_json_to(older, type_name, json),
    };
    let (written_type, output) = converted.map_err(|e| failure(type_name, direction, e))?;
    let text = if pretty {
        serde_json::to_string_pretty(&output)
    } else {
        serde_json::to_string(&output)
    }
    .expect("a JSON value is always text");
    Ok((format!("{text}\n").into_bytes(), written_type))
}

/// Converts `input`, JSON of `type_name`, returning the converted JSON (ending in a newline) and the
/// name of its type.
pub fn convert(
    direction: Direction,
    type_name: &str,
    input: &[u8],
    pretty: bool,
) -> Result<(Vec<u8>, &'static str), Failure> {
    let (written_type, text) = match direction {
        // Text to text through the typed values: no `Value` tree of either document, which would
        // take many times their size.
        Direction::Upgrade => {
            check_not_blank(type_name, input)?;
            a2a_compat::bridge::upgrade_slice(type_name, input, pretty)
                .map_err(|e| failure(type_name, direction, e))?
        }
        Direction::Downgrade => {
            let json = parse_json_document(type_name, input)?;
            let (written_type, output) = a2a_compat::bridge::downgrade_json(type_name, json)
                .map_err(|e| failure(type_name, direction, e))?;
            let text = if pretty {
                serde_json::to_string_pretty(&output)
            } else {
                serde_json::to_string(&output)
            }
            .expect("a JSON value is always text");
            (written_type, text)
        }
    };
    Ok((format!("{text}\n").into_bytes(), written_type))
}

/// One line naming the type, the path at fault and the reason.
fn failure(type_name: &str, direction: Direction, error: BridgeError) -> Failure {
    let at = match error.path() {
        // Text read straight into the type: an error in the document as a whole (its syntax).
        "" if direction == Direction::Upgrade => " at `.`".to_owned(),
        "" => String::new(),
        path => format!(" at `{path}`"),
    };
    let verb = match direction {
        Direction::Upgrade => "upgrade",
        Direction::Downgrade => "downgrade",
    };
    match error.kind() {
        BridgeErrorKind::NoCounterpart { .. } | BridgeErrorKind::UnknownType { .. } => {
            Failure::usage(format!("cannot {verb} {type_name}: {error}"))
        }
        BridgeErrorKind::InvalidJson { message, .. } => {
            Failure::input(format!("invalid JSON for {type_name}{at}: {message}"))
        }
        _ => Failure::input(format!("cannot {verb} {type_name}: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_str(direction: Direction, type_name: &str, json: &str) -> Result<String, String> {
        convert(direction, type_name, json.as_bytes(), false)
            .map(|(out, _)| String::from_utf8(out).unwrap())
            .map_err(|f| f.line())
    }

    #[test]
    fn upgrade_and_downgrade_a_part() {
        let v1 = run_str(
            Direction::Upgrade,
            "Part",
            r#"{"kind":"file","file":{"uri":"https://x.test/a.pdf","mimeType":"application/pdf"}}"#,
        )
        .unwrap();
        assert_eq!(
            v1,
            // The v1 message's own member order (written from the typed value, not a sorted tree).
            "{\"url\":\"https://x.test/a.pdf\",\"mediaType\":\"application/pdf\"}\n"
        );
        let v0_3 = run_str(Direction::Downgrade, "lf.a2a.v1.Part", &v1).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&v0_3).unwrap(),
            serde_json::json!({"kind": "file", "file": {"uri": "https://x.test/a.pdf", "mimeType": "application/pdf"}})
        );
    }

    #[test]
    fn a_v0_1_task_upgrades_and_downgrades_by_version() {
        let v0_1 = r#"{"id":"t-1","sessionId":"s-1","status":{"state":"input-required"},"history":[{"role":"user","parts":[{"type":"text","text":"a phone"}]}]}"#;
        // Told from the document: `sessionId` and a part with `type` are v0.1's.
        let (v1, name) = {
            let older = OlderVersion::detect("Task", &serde_json::from_str(v0_1).unwrap());
            assert_eq!(older, Some(OlderVersion::V0_1));
            convert_older(
                Direction::Upgrade,
                OlderVersion::V0_1,
                "Task",
                v0_1.as_bytes(),
                false,
            )
            .unwrap()
        };
        assert_eq!(name, "lf.a2a.v1.Task");
        let v1: serde_json::Value = serde_json::from_slice(&v1).unwrap();
        assert_eq!(v1["contextId"], "s-1");
        assert_eq!(v1["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
        let (back, name) = convert_older(
            Direction::Downgrade,
            OlderVersion::V0_1,
            "lf.a2a.v1.Task",
            v1.to_string().as_bytes(),
            false,
        )
        .unwrap();
        assert_eq!(name, "Task");
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&back).unwrap(),
            serde_json::from_str::<serde_json::Value>(v0_1).unwrap()
        );
        // A v0.2 message downgraded to v0.1 loses its id (v0.1 messages have none).
        let (back, _) = convert_older(
            Direction::Downgrade,
            OlderVersion::V0_2,
            "lf.a2a.v1.Message",
            br#"{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}"#,
            false,
        )
        .unwrap();
        assert!(
            String::from_utf8(back)
                .unwrap()
                .contains(r#""kind":"text""#)
        );
    }

    #[test]
    fn errors_name_the_path() {
        let error = run_str(
            Direction::Upgrade,
            "Task",
            r#"{"id":"t","contextId":"c","status":{"state":"paused"}}"#,
        )
        .unwrap_err();
        assert!(
            error.starts_with("invalid JSON for Task at `status.state`"),
            "{error}"
        );
        let error = run_str(Direction::Downgrade, "lf.a2a.v1.Part", "{}").unwrap_err();
        assert!(error.contains("no content"), "{error}");
    }
}
