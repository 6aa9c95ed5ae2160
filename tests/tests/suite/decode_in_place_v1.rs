//! The generated in-place readers of the v1 messages (`Deserialize`, through
//! `a2a_support::protojson::ReadInPlace`) read exactly what serde's derive reads (kept as
//! `a2a_types::json::from_str_by_reference`): the same value, or an error with the same path and text,
//! on every fixture, on every malformed variant of every fixture, and on property-test values of every
//! message.
//!
//! Each message's in-place reader is compared with its derive at the top level, nested messages read
//! by their own in-place readers on both sides; since every message type is compared, the readers
//! agree with the derive all the way down.

use a2a_tests::{RoundTrip, fixture};
use a2a_types::proto::ConversionError;
use a2a_types::registry::{A2aMessage, MessageVisitor};
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

/// Reads `text` both ways; `Err` describes how they differ.
fn compare<M: A2aMessage>(text: &str) -> Result<(), String> {
    let in_place = a2a_types::json::from_str::<M>(text).map_err(|e| e.to_string());
    let derived = a2a_types::json::from_str_by_reference::<M>(text).map_err(|e| e.to_string());
    if in_place == derived {
        Ok(())
    } else {
        Err(format!(
            "{}: {text}\n in place: {in_place:?}\n derive:   {derived:?}",
            M::FULL_NAME
        ))
    }
}

/// A member of an object as text: its quoted name and its value.
type Member = (String, String);

/// JSON text of `value` with the members of the object at `path` (keys and array indexes from the
/// top) replaced: `edit` gets the object's members as text and gives back the new ones.
fn edited(value: &Value, path: &[PathStep], edit: &dyn Fn(&[Member]) -> Vec<Member>) -> String {
    match (value, path.split_first()) {
        (Value::Object(members), None) => {
            let texts: Vec<Member> = members
                .iter()
                .map(|(k, v)| (serde_json::to_string(k).unwrap(), v.to_string()))
                .collect();
            let members: Vec<String> = edit(&texts)
                .into_iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        (Value::Object(members), Some((PathStep::Key(key), rest))) => {
            let members: Vec<String> = members
                .iter()
                .map(|(k, v)| {
                    let v = if k == key {
                        edited(v, rest, edit)
                    } else {
                        v.to_string()
                    };
                    format!("{}:{v}", serde_json::to_string(k).unwrap())
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }
        (Value::Array(items), Some((PathStep::Index(index), rest))) => {
            let items: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if i == *index {
                        edited(v, rest, edit)
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("[{}]", items.join(","))
        }
        _ => unreachable!("paths come from the value itself"),
    }
}

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

/// The paths of every object inside `value`, itself included.
fn object_paths(value: &Value, here: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    match value {
        Value::Object(members) => {
            out.push(here.clone());
            for (key, member) in members {
                here.push(PathStep::Key(key.clone()));
                object_paths(member, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                here.push(PathStep::Index(index));
                object_paths(item, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

/// Values put in place of each member: every JSON kind, and the edge cases of the field rules.
const REPLACEMENTS: &[&str] = &[
    "null",
    "true",
    "0",
    "7",
    "-1.5",
    "\"\"",
    "\"x\"",
    "[]",
    "{}",
    "[{}]",
    "[null]",
    "[\"x\"]",
    "{\"x\":1}",
    "\"9223372036854775808\"",
];

/// Every malformed variant of a fixture: each member of each object replaced by each of
/// [`REPLACEMENTS`], given twice (right after itself and at the end), given under an unknown
/// name, and the object emptied; and the document as each JSON kind other than an object.
fn variants(text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).unwrap();
    let mut paths = Vec::new();
    object_paths(&value, &mut Vec::new(), &mut paths);
    let mut out: Vec<String> = REPLACEMENTS.iter().map(|r| r.to_string()).collect();
    for path in &paths {
        out.push(edited(&value, path, &|_| Vec::new()));
        let count = object_at(&value, path).map_or(0, |object| object.len());
        for at in 0..count {
            for replacement in REPLACEMENTS {
                out.push(edited(&value, path, &|members| {
                    let mut replaced = members.to_vec();
                    replaced[at].1 = replacement.to_string();
                    replaced
                }));
            }
            out.push(edited(&value, path, &|members| {
                let mut twice = members.to_vec();
                twice.insert(at + 1, members[at].clone());
                twice
            }));
            out.push(edited(&value, path, &|members| {
                let mut twice = members.to_vec();
                twice.push(members[at].clone());
                twice
            }));
            out.push(edited(&value, path, &|members| {
                let mut renamed = members.to_vec();
                renamed[at].0 = format!("\"unknown{at}\"");
                renamed
            }));
        }
    }
    out
}

/// The object at `path` inside `value`.
fn object_at<'v>(
    value: &'v Value,
    path: &[PathStep],
) -> Option<&'v serde_json::Map<String, Value>> {
    match path.split_first() {
        None => value.as_object(),
        Some((PathStep::Key(key), rest)) => object_at(value.get(key)?, rest),
        Some((PathStep::Index(index), rest)) => object_at(value.get(index)?, rest),
    }
}

struct FixtureAndVariants;

impl MessageVisitor for FixtureAndVariants {
    type Output = Result<usize, Vec<String>>;

    fn visit<M: A2aMessage>(self) -> Self::Output {
        let text = fixture(&format!(
            "v1/{}.json",
            M::FULL_NAME.trim_start_matches("lf.a2a.v1.")
        ));
        let mut failures = Vec::new();
        let mut compared = 0;
        for variant in std::iter::once(text.clone()).chain(variants(&text)) {
            compared += 1;
            if let Err(failure) = compare::<M>(&variant) {
                failures.push(failure);
            }
        }
        if failures.is_empty() {
            Ok(compared)
        } else {
            Err(failures)
        }
    }
}

#[test]
fn in_place_readers_agree_with_the_derive_on_fixtures_and_their_malformed_variants() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in a2a_types::v1::MESSAGE_NAMES {
        match a2a_types::v1::visit_message(name, FixtureAndVariants).unwrap() {
            Ok(count) => compared += count,
            Err(mut more) => failures.append(&mut more),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} inputs read differently:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Every message has a fixture with members, so each yields many variants.
    assert!(
        compared > 20 * a2a_types::v1::MESSAGE_NAMES.len(),
        "{compared}"
    );
}

#[derive(Default)]
struct PropertyCheck {
    messages: usize,
    failures: Vec<String>,
}

impl RoundTrip for PropertyCheck {
    fn run<M, P>(&mut self, strategy: BoxedStrategy<M>)
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = ConversionError>,
        P: a2a_proto::registry::ProtoMessage,
    {
        self.messages += 1;
        let mut runner = TestRunner::new(Config::default());
        let result = runner.run(&strategy, |value| {
            let text = serde_json::to_string(&value).unwrap();
            compare::<M>(&text).map_err(TestCaseError::fail)?;
            let read: M = serde_json::from_str(&text).unwrap();
            if read != value {
                return Err(TestCaseError::fail(format!(
                    "{}: {text} read back differently",
                    M::FULL_NAME
                )));
            }
            Ok(())
        });
        if let Err(error) = result {
            self.failures.push(format!("{}: {error}", M::FULL_NAME));
        }
    }
}

#[test]
fn in_place_readers_agree_with_the_derive_on_property_test_values() {
    let mut check = PropertyCheck::default();
    a2a_tests::strategies_v1::for_each_message(&mut check);
    assert!(check.failures.is_empty(), "{}", check.failures.join("\n"));
    assert_eq!(check.messages, a2a_types::v1::MESSAGE_NAMES.len());
}
