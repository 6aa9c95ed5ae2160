//! Property-based round trips of A2A v0.3 documents through the protobuf form (`a2a_compat::v0_3::proto`)
//! and through the bridge to v1 (`a2a_compat::bridge`), on documents generated from the v0.3 JSON Schema
//! (`a2a_tests::schema_values`) and from the v1 strategies.
//!
//! The conversions lose what their docs list (as the official SDK's do), so the properties are the ones
//! that hold anyway: after one trip the form is stable, the second trip changes nothing on either side.
//! That catches every asymmetry between the two directions (a member written one way and read another,
//! a value that changes on each pass). On the protobuf side, stable means up to the presence of empty
//! messages (see [`without_empty_messages`]). Each type must also convert in most cases, so a conversion that
//! rejects everything cannot pass. Where the bridge is lossless ([`BRIDGE_LOSSLESS`], 32 types), v0.3
//! → v1 → v0.3 must give the document back. Each documented loss is tested exactly in `proto_v0_3.rs`
//! and `bridge_v0_3.rs`.
//!
//! `PROPTEST_CASES` sets the cases per type (default 64).

use a2a_compat::v0_3::proto::PROTO_PAIRS;
use a2a_proto::registry::{MessageVisitor, ProtoMessage};
use a2a_tests::schema_values::SchemaValues;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

fn cases() -> u32 {
    a2a_tests::proptest_cases(64)
}

fn runner() -> TestRunner {
    a2a_tests::proptest_runner(64)
}

/// Whether a case checked the property, or skipped it (the input has no counterpart on the other side,
/// such as an error response for the bridge), and why.
enum Case {
    Checked,
    Skipped(String),
}

/// Runs `property` on documents generated for the schema location `location`. Fails on a failing
/// case, and when fewer than `min_checked` cases were checked (so a conversion that rejects everything
/// cannot pass), naming a reason one was skipped.
fn run_property(
    schema: &SchemaValues,
    location: &str,
    min_checked: u32,
    property: impl Fn(Value) -> Result<Case, TestCaseError>,
) -> Result<(), String> {
    let checked = std::cell::Cell::new(0u32);
    let skipped = std::cell::RefCell::new(None);
    runner()
        .run(&schema.location(location), |document| {
            match property(document)? {
                Case::Checked => checked.set(checked.get() + 1),
                Case::Skipped(why) => {
                    skipped.borrow_mut().get_or_insert(why);
                }
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    if checked.get() < min_checked {
        return Err(format!(
            "only {} of {} documents were checked; one was skipped because: {}",
            checked.get(),
            cases(),
            skipped.borrow().as_deref().unwrap_or_default()
        ));
    }
    Ok(())
}

/// The v0.3 schema's documents, with members the conversions parse further generated valid: status
/// timestamps as RFC 3339 (any instant of years 1-9999, nanoseconds), history lengths within 32 bits,
/// and ids that fit a resource name segment (`tasks/{id}`: present, not empty, no `/`; the documented
/// losses for other ids are tested in `proto_v0_3.rs`).
fn schema() -> SchemaValues {
    let segment = || "[A-Za-z0-9._~-]{1,12}".prop_map(Value::from).boxed();
    SchemaValues::v0_3()
        .with_member("id", segment())
        .with_member("taskId", segment())
        .with_member("pushNotificationConfigId", segment())
        // A push config's id, and the one a request names, are part of its resource name.
        .always("id")
        .always("pushNotificationConfigId")
        .with_member(
            "timestamp",
            a2a_tests::strategy::timestamp()
                .prop_map(|t| {
                    Value::from(t.to_rfc3339_opts(a2a_types::chrono::SecondsFormat::AutoSi, true))
                })
                .boxed(),
        )
        // File content is base64 (the bridge decodes it, as the SDK does).
        .with_member(
            "bytes",
            a2a_tests::strategy::bytes()
                .prop_map(|b| {
                    use base64::Engine as _;
                    Value::from(base64::engine::general_purpose::STANDARD.encode(b))
                })
                .boxed(),
        )
        // A v0.3 card's version decides which interfaces v0.3 clients see (the SDK keeps 0.3 up to 1.0).
        .with_member(
            "protocolVersion",
            proptest::sample::select(vec!["0.3.0", "0.3", "0.3.1"])
                .prop_map(Value::from)
                .boxed(),
        )
        .with_member(
            "historyLength",
            (0i64..=i64::from(i32::MAX)).prop_map(Value::from).boxed(),
        )
}

/// Decodes an `a2a.v1` message and writes it as ProtoJSON, for comparing two encodings by content (map
/// entries may be encoded in any order).
struct ProtoJson<'a>(&'a [u8]);

impl MessageVisitor for ProtoJson<'_> {
    type Output = Value;
    fn visit<M: ProtoMessage>(self) -> Value {
        let message = M::decode(self.0).expect("our own encoding decodes");
        serde_json::to_value(&message).expect("ProtoJSON")
    }
}

fn proto_json(name: &str, bytes: &[u8]) -> Value {
    a2a_proto::v0_3::visit_message(name, ProtoJson(bytes)).expect("an a2a.v1 message")
}

/// ProtoJSON without members that are empty messages: the SDK's converters (and ours) write an absent
/// `metadata` as `{}` in the JSON-RPC form, which then converts to a present, empty `Struct`, so the
/// protobuf form is stable only up to that presence.
fn without_empty_messages(mut value: Value) -> Value {
    match &mut value {
        Value::Object(members) => {
            for member in members.values_mut() {
                *member = without_empty_messages(member.take());
            }
            members.retain(|_, v| v.as_object().is_none_or(|o| !o.is_empty()));
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_empty_messages(item.take());
            }
        }
        _ => {}
    }
    value
}

#[test]
fn every_proto_pair_is_stable_after_one_round_trip() {
    let schema = schema();
    let mut failures = Vec::new();
    for pair in PROTO_PAIRS {
        let result = run_property(&schema, pair.jsonrpc, cases() / 2, |document| {
            let first = match pair.to_proto(document) {
                Ok(bytes) => bytes,
                Err(error) => return Ok(Case::Skipped(error.to_string())),
            };
            let back = pair.from_proto(&first).map_err(|e| {
                TestCaseError::fail(format!("our own proto does not convert back: {e}"))
            })?;
            let second = pair.to_proto(back.clone()).map_err(|e| {
                TestCaseError::fail(format!("our own JSON-RPC output does not convert: {e}"))
            })?;
            prop_assert_eq!(
                without_empty_messages(proto_json(pair.proto, &second)),
                without_empty_messages(proto_json(pair.proto, &first))
            );
            let again = pair.from_proto(&second).expect("converted once already");
            prop_assert_eq!(again, back);
            Ok(Case::Checked)
        });
        if let Err(error) = result {
            failures.push(format!("{} ({}): {error}", pair.proto, pair.jsonrpc));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The v0.3 request type whose `method` is `method`.
fn request_type(schema: &SchemaValues, method: &str) -> &'static str {
    a2a_compat::v0_3::SCHEMA_TYPES
        .iter()
        .copied()
        .find(|t| schema.root()["definitions"][*t]["properties"]["method"]["const"] == method)
        .unwrap_or_else(|| panic!("no request type for method {method}"))
}

/// Where a document of `schema_type` goes back to from v1: its own type, except that an `A2ARequest`
/// goes back to the request type of its method; with the request id the document carries, if any.
fn back_target(
    schema: &SchemaValues,
    schema_type: &'static str,
    document: &Value,
) -> (&'static str, Option<a2a_compat::v0_3::JsonRpcId>) {
    let id = document
        .get("id")
        .and_then(|id| serde_json::from_value(id.clone()).ok());
    let target = match document.get("method").and_then(Value::as_str) {
        Some(method) if schema_type == "A2ARequest" => request_type(schema, method),
        _ => schema_type,
    };
    (target, id)
}

/// One trip through the bridge and back, then a second one: the second changes nothing on either
/// side. Types that only exist as part of a union in v1 (a `TextPart` becomes a v1 `Part`) come back
/// as the type the bridge names, and the second trip starts from there.
#[test]
fn every_bridge_pair_is_stable_after_one_round_trip() {
    use a2a_compat::bridge::{
        BridgeErrorKind, UPGRADES, downgrade_json, downgrade_json_as, upgrade_json,
    };
    let schema = schema();
    let mut failures = Vec::new();
    for (schema_type, _) in UPGRADES {
        let result = run_property(&schema, schema_type, cases() / 4, |document| {
            let (target, request_id) = back_target(&schema, schema_type, &document);
            let (v1_name, v1) = match upgrade_json(schema_type, document) {
                Ok(upgraded) => upgraded,
                Err(error) => return Ok(Case::Skipped(error.to_string())),
            };
            // Back to the type we started from where the bridge can (a v1 request becomes the v0.3
            // request envelope, with the request's id), else to the type it picks.
            let (v0_3_type, v0_3) =
                match downgrade_json_as(v1_name, v1.clone(), target, request_id.clone()) {
                    Ok(v0_3) => (target, v0_3),
                    Err(e) if matches!(e.kind(), BridgeErrorKind::NoCounterpart { .. }) => {
                        downgrade_json(v1_name, v1.clone()).map_err(|e| {
                            TestCaseError::fail(format!(
                                "our own {v1_name} does not downgrade: {e}: {v1}"
                            ))
                        })?
                    }
                    Err(e) => {
                        return Err(TestCaseError::fail(format!(
                            "our own {v1_name} does not downgrade to {target}: {e}: {v1}"
                        )));
                    }
                };
            let (v1_name_again, v1_again) = upgrade_json(v0_3_type, v0_3.clone()).map_err(|e| {
                TestCaseError::fail(format!("our own {v0_3_type} does not upgrade: {e}: {v0_3}"))
            })?;
            prop_assert_eq!(v1_name_again, v1_name);
            prop_assert_eq!(&v1_again, &v1);
            let v0_3_again =
                match downgrade_json_as(v1_name, v1_again.clone(), v0_3_type, request_id) {
                    Ok(again) => again,
                    Err(_) => {
                        downgrade_json(v1_name, v1_again)
                            .expect("downgraded once already")
                            .1
                    }
                };
            prop_assert_eq!(v0_3_again, v0_3);
            Ok(Case::Checked)
        });
        if let Err(error) = result {
            failures.push(format!("{schema_type}: {error}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The v0.3 types whose trip through v1 and back loses nothing but the difference between an absent
/// member and an empty one (`""`, `[]`, `{}`, `false`), on canonical input (file bytes in standard
/// base64, timestamps in UTC with `Z`). Every other type loses something the bridge's loss table lists:
/// `stateTransitionHistory`, the metadata of the task-id params, a `blocking` left out (read as true),
/// `final` (recomputed from the state), all but one OAuth flow, all but the first push-auth scheme (so
/// also `A2ARequest`, which may hold any request).
const BRIDGE_LOSSLESS: &[&str] = &[
    "APIKeySecurityScheme",
    "AgentCardSignature",
    "AgentExtension",
    "AgentInterface",
    "AgentProvider",
    "AgentSkill",
    "Artifact",
    "AuthorizationCodeOAuthFlow",
    "CancelTaskRequest",
    "CancelTaskResponse",
    "CancelTaskSuccessResponse",
    "ClientCredentialsOAuthFlow",
    "DataPart",
    "FilePart",
    "GetAuthenticatedExtendedCardRequest",
    "GetTaskResponse",
    "GetTaskSuccessResponse",
    "HTTPAuthSecurityScheme",
    "ImplicitOAuthFlow",
    "Message",
    "MutualTLSSecurityScheme",
    "OpenIdConnectSecurityScheme",
    "Part",
    "PasswordOAuthFlow",
    "SendMessageResponse",
    "SendMessageSuccessResponse",
    "Task",
    "TaskArtifactUpdateEvent",
    "TaskIdParams",
    "TaskState",
    "TaskStatus",
    "TextPart",
];

/// `value` without members that are empty strings, lists or objects, or `false`, inside out.
fn without_empty_members(mut value: Value) -> Value {
    match &mut value {
        Value::Object(members) => {
            for member in members.values_mut() {
                *member = without_empty_members(member.take());
            }
            members.retain(|_, v| {
                !(v.as_str() == Some("")
                    || v.as_array().is_some_and(Vec::is_empty)
                    || v.as_object().is_some_and(serde_json::Map::is_empty)
                    || v == &Value::Bool(false))
            });
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_empty_members(item.take());
            }
        }
        _ => {}
    }
    value
}

/// v0.3 → v1 → v0.3 gives the document back, for the types in [`BRIDGE_LOSSLESS`].
#[test]
fn lossless_types_come_back_from_v1_unchanged() {
    use a2a_compat::bridge::{UPGRADES, downgrade_json_as, upgrade_json};
    let schema = schema();
    let mut failures = Vec::new();
    for schema_type in BRIDGE_LOSSLESS {
        assert!(
            UPGRADES.iter().any(|(t, _)| t == schema_type),
            "{schema_type} is not upgraded"
        );
        let result = run_property(&schema, schema_type, cases() / 4, |document| {
            let (target, id) = back_target(&schema, schema_type, &document);
            // Error responses have no v1 form; they are not what this property is about.
            let (v1_name, v1) = match upgrade_json(schema_type, document.clone()) {
                Ok(upgraded) => upgraded,
                Err(error) => return Ok(Case::Skipped(error.to_string())),
            };
            let back = downgrade_json_as(v1_name, v1.clone(), target, id).map_err(|e| {
                TestCaseError::fail(format!(
                    "{v1_name} does not downgrade to {target}: {e}: {v1}"
                ))
            })?;
            prop_assert_eq!(without_empty_members(back), without_empty_members(document));
            Ok(Case::Checked)
        });
        if let Err(error) = result {
            failures.push(format!("{schema_type}: {error}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
