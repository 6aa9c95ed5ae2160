//! One table of awkward-but-real inputs (`tests/fixtures/cases/v1/edge_cases.json`), run through both
//! implementations: `a2a-proto` (prost + pbjson) and `a2a-types` (typify). Each must produce the same
//! canonical ProtoJSON, or reject the input at the same field. This is how the two crates are held to the
//! same ProtoJSON rules.

use a2a_proto::registry::{MessageVisitor as ProtoVisitor, ProtoMessage};
use a2a_tests::fixture_json;
use a2a_types::registry::{A2aMessage, MessageVisitor as TypesVisitor};
use serde::Deserialize;
use serde_json::{Value, json};

/// One row of the table: a titled input of a message type and what it must turn into.
#[derive(Deserialize)]
struct Case {
    title: String,
    #[serde(rename = "type")]
    type_name: String,
    input: Value,
    #[serde(flatten)]
    expect: Expect,
}

/// What an input must turn into.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Expect {
    /// Canonical ProtoJSON output.
    Output(Value),
    /// An error whose field path starts with `path`, and whose message contains `contains`.
    Error { path: String, contains: String },
}

/// Parses with path-aware errors, writes canonical JSON.
fn run<M: serde::Serialize + serde::de::DeserializeOwned>(
    input: &str,
) -> Result<Value, (String, String)> {
    let mut deserializer = serde_json::Deserializer::from_str(input);
    let message: M = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))?;
    serde_json::to_value(&message).map_err(|e| (".".to_owned(), e.to_string()))
}

struct ViaProto<'a>(&'a str);
impl ProtoVisitor for ViaProto<'_> {
    type Output = Result<Value, (String, String)>;
    fn visit<M: ProtoMessage>(self) -> Self::Output {
        run::<M>(self.0)
    }
}

struct ViaTypes<'a>(&'a str);
impl TypesVisitor for ViaTypes<'_> {
    type Output = Result<Value, (String, String)>;
    fn visit<M: A2aMessage>(self) -> Self::Output {
        run::<M>(self.0)
    }
}

fn cases() -> Vec<Case> {
    fixture_json("cases/v1/edge_cases.json")
}

#[test]
fn both_crates_follow_the_same_protojson_rules() {
    let mut failures = Vec::new();
    let cases = cases();
    for Case {
        title,
        type_name,
        input,
        expect,
    } in &cases
    {
        let full_name = format!("lf.a2a.v1.{type_name}");
        let text = input.to_string();
        let results = [
            (
                "a2a-proto",
                a2a_proto::v1::visit_message(&full_name, ViaProto(&text)).unwrap(),
            ),
            (
                "a2a-types",
                a2a_types::v1::visit_message(&full_name, ViaTypes(&text)).unwrap(),
            ),
        ];
        for (implementation, result) in results {
            let ok = match (expect, &result) {
                (Expect::Output(want), Ok(got)) => got == want,
                // A path prefix: pbjson reports a bad value at the member, the flattened oneof at its object.
                (Expect::Error { path, contains }, Err((got_path, message))) => {
                    got_path.starts_with(path.as_str()) && message.contains(contains.as_str())
                }
                _ => false,
            };
            if !ok {
                let want = match expect {
                    Expect::Output(v) => v.to_string(),
                    Expect::Error { path, contains } => {
                        format!("error at `{path}` mentioning {contains:?}")
                    }
                };
                failures.push(format!(
                    "{title} ({type_name}, {implementation}):\n   got  {result:?}\n   want {want}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} checks failed:\n{}",
        failures.len(),
        cases.len() * 2,
        failures.join("\n")
    );
}

/// Where the crates differ by design: `a2a-types` keeps JSON numbers exactly (serde_json), while
/// protobuf's `google.protobuf.Value` holds doubles, so `a2a-proto` rounds beyond 2^53.
#[test]
fn big_integers_in_data_survive_exactly_in_a2a_types() {
    let text = r#"{"messageId":"m-5","metadata":{"max_safe":9007199254740991,"beyond":9007199254740993,"u64_max":18446744073709551615}}"#;
    let types: a2a_types::v1::Message = serde_json::from_str(text).unwrap();
    let written = serde_json::to_string(&types).unwrap();
    for exact in [
        "9007199254740991",
        "9007199254740993",
        "18446744073709551615",
    ] {
        assert!(written.contains(exact), "{exact} not in {written}");
    }
    assert_eq!(
        serde_json::from_str::<Value>(&written).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    let proto: a2a_proto::v1::Message = serde_json::from_str(text).unwrap();
    let written = serde_json::to_value(&proto).unwrap();
    assert_eq!(written["metadata"]["max_safe"], json!(9007199254740991_u64));
    assert_eq!(written["metadata"]["beyond"], json!(9007199254740992_u64));
}

/// And a REQUIRED message field absent from the input: protobuf keeps the absence, `a2a-types` has a
/// plain field and writes its default (for valid messages the two agree, and the output stays valid).
#[test]
fn an_absent_required_message_is_written_as_its_default_by_a2a_types() {
    let text = r#"{"name":"Wayfarer"}"#;
    let proto: a2a_proto::v1::AgentCard = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&proto).unwrap(), text);
    let types: a2a_types::v1::AgentCard = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_string(&types).unwrap(),
        r#"{"name":"Wayfarer","capabilities":{}}"#
    );
}

/// The other deliberate difference: a oneof-only message with no member.
#[test]
fn an_empty_oneof_message_is_rejected_by_a2a_types_only() {
    let proto: a2a_proto::v1::StreamResponse = serde_json::from_str("{}").unwrap();
    assert_eq!(proto.payload, None);
    let err = serde_json::from_str::<a2a_types::v1::StreamResponse>(r#"{"kind": "status-update"}"#)
        .unwrap_err();
    assert!(err.to_string().contains("expected exactly one of"), "{err}");
}
