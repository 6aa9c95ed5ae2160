//! The v0.3 types read a document the same whatever the order of its members: the same value, or an
//! error with the same text (up to serde_json's ` at line L column C`, which follows the input).
//!
//! The order decides which way the union reader goes (`a2a_compat::v0_3::union_reader`): a
//! discriminator (`kind`, `type`, `method`) that comes first hands the rest of the object straight to
//! the variant, one that comes later has the members before it kept as raw text and replayed, and a
//! union chosen by its members commits when one arrives. Every SDK writes its own order (a2a-sdk 0.3
//! writes members alphabetically, so `{"data": ..., "kind": "data"}`), so each document is read as
//! text in four orders (alphabetical, reversed, discriminators first, discriminators last), and
//! from a `serde_json::Value`, and every reading must agree:
//! - on every v0.3 fixture, and on every document made from a fixture by one change (a discriminator
//!   set to an unknown value, or any member's value replaced by one of another JSON type);
//! - on property-test documents of every v0.3 schema type, and on the same with a discriminator set
//!   to an unknown value.
//!
//! `PROPTEST_CASES` sets the cases per type (default 16).

use a2a_compat::v0_3;
use a2a_tests::schema_values::SchemaValues;
use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// The members that choose a union's variant.
const DISCRIMINATORS: &[&str] = &["kind", "type", "method"];

/// An order of an object's members.
#[derive(Clone, Copy, Debug)]
enum Order {
    Alphabetical,
    Reversed,
    DiscriminatorsFirst,
    DiscriminatorsLast,
}

const ORDERS: [Order; 4] = [
    Order::Alphabetical,
    Order::Reversed,
    Order::DiscriminatorsFirst,
    Order::DiscriminatorsLast,
];

/// JSON text of `value` with the members of every object in `order`.
fn text_in(value: &Value, order: Order) -> String {
    match value {
        Value::Object(members) => {
            // `serde_json::Map` keeps its keys sorted.
            let mut members: Vec<(&String, &Value)> = members.iter().collect();
            let is_discriminator = |key: &str| DISCRIMINATORS.contains(&key);
            match order {
                Order::Alphabetical => {}
                Order::Reversed => members.reverse(),
                Order::DiscriminatorsFirst => members.sort_by_key(|(k, _)| !is_discriminator(k)),
                Order::DiscriminatorsLast => members.sort_by_key(|(k, _)| is_discriminator(k)),
            }
            let members: Vec<String> = members
                .into_iter()
                .map(|(k, v)| {
                    let key = serde_json::to_string(k).expect("a key writes");
                    format!("{key}:{}", text_in(v, order))
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| text_in(item, order)).collect();
            format!("[{}]", items.join(","))
        }
        scalar => scalar.to_string(),
    }
}

/// An error's text without serde_json's position, which follows the input's layout.
///
/// A union chosen by its members that no variant reads says so, then why each variant failed, each
/// reason with the path where it failed (`as SendMessageSuccessResponse: at \`result\`: ...`). Those
/// paths follow the order too: a member kept before the discriminator fails at the union, one after
/// it at the member itself. Of such an error only the first clause is compared (which union, and
/// which members were looked for); the rest is left out.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    };
    match text.find("; ") {
        Some(reasons) if text.starts_with("cannot tell which ") => text[..reasons].to_owned(),
        _ => text,
    }
}

/// Reads `document` as `T` in every order as text, and from a `Value`; `Err` says how the readings
/// differ. The texts must agree exactly; the `Value` must give the same value, or an error too
/// (serde_json's words differ between its two deserializers: an enum read from a number is
/// "expected value" from text and "invalid type" from a `Value`).
fn readings_agree<T: SchemaType>(document: &Value) -> Result<Result<(), String>, String> {
    let from_value =
        serde_json::from_value::<T>(document.clone()).map_err(|e| without_position(&e));
    let first_text = text_in(document, ORDERS[0]);
    let first = serde_json::from_str::<T>(&first_text).map_err(|e| without_position(&e));
    let differ =
        |order: Order, text: &str, from_text: &Result<T, String>, other: &dyn std::fmt::Debug| {
            format!(
                "{}: {order:?} {text}\n read: {from_text:?}\n other: {other:?}",
                T::SCHEMA_NAME
            )
        };
    match (&first, &from_value) {
        (Ok(a), Ok(b)) if a == b => {}
        (Err(_), Err(_)) => {}
        _ => return Err(differ(ORDERS[0], &first_text, &first, &from_value)),
    }
    for order in &ORDERS[1..] {
        let text = text_in(document, *order);
        let from_text = serde_json::from_str::<T>(&text).map_err(|e| without_position(&e));
        if from_text != first {
            return Err(differ(*order, &text, &from_text, &first));
        }
    }
    Ok(first.map(|_| ()))
}

/// Every object of `value`, as the path of keys and indexes leading to it.
fn object_paths(value: &Value, path: &mut Vec<Step>, found: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(members) => {
            found.push(path.clone());
            for (key, member) in members {
                path.push(Step::Key(key.clone()));
                object_paths(member, path, found);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(Step::Index(index));
                object_paths(item, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn object_at<'v>(value: &'v mut Value, path: &[Step]) -> &'v mut serde_json::Map<String, Value> {
    let mut at = value;
    for step in path {
        at = match step {
            Step::Key(key) => &mut at[key.as_str()],
            Step::Index(index) => &mut at[*index],
        };
    }
    at.as_object_mut().expect("the path leads to an object")
}

/// A value of another JSON type than `value`.
fn of_another_type(value: &Value) -> Value {
    match value {
        Value::String(_) => Value::from(12345),
        Value::Number(_) | Value::Bool(_) | Value::Null => Value::from("not the right type"),
        Value::Object(_) => Value::Array(vec![Value::from(1)]),
        Value::Array(_) => serde_json::json!({"unexpected": true}),
    }
}

/// Documents made from `document` by one change each: every discriminator set to an unknown value
/// and, when `every_member` is set, every member's value replaced by one of another type.
fn changed(document: &Value, every_member: bool) -> Vec<Value> {
    let mut paths = Vec::new();
    object_paths(document, &mut Vec::new(), &mut paths);
    let mut changed = Vec::new();
    for path in &paths {
        let mut probe = document.clone();
        let keys: Vec<String> = object_at(&mut probe, path).keys().cloned().collect();
        for key in keys {
            let mut copy = document.clone();
            let object = object_at(&mut copy, path);
            if DISCRIMINATORS.contains(&key.as_str()) && object[&key].is_string() {
                object.insert(key.clone(), Value::from("no-such-variant"));
                changed.push(copy.clone());
            }
            if every_member {
                let mut copy = document.clone();
                let object = object_at(&mut copy, path);
                let replacement = of_another_type(&object[&key]);
                object.insert(key, replacement);
                changed.push(copy);
            }
        }
    }
    changed
}

/// Checks one fixture and every change of it; counts the documents read and the errors among them.
struct Fixture<'a> {
    document: &'a Value,
}

impl SchemaTypeVisitor for Fixture<'_> {
    type Output = Result<(usize, usize), String>;

    fn visit<T: SchemaType>(self) -> Self::Output {
        readings_agree::<T>(self.document)?
            .map_err(|e| format!("the fixture {} does not read: {e}", T::SCHEMA_NAME))?;
        let mut errors = 0;
        let changed = changed(self.document, true);
        for document in &changed {
            if readings_agree::<T>(document)?.is_err() {
                errors += 1;
            }
        }
        Ok((changed.len(), errors))
    }
}

#[test]
fn every_fixture_and_every_change_of_it_reads_the_same_in_every_order() {
    let dir = a2a_tests::workspace_root().join("tests/fixtures/v0_3");
    let mut fixtures = 0;
    let mut changed = 0;
    let mut errors = 0;
    for entry in std::fs::read_dir(dir).expect("the v0.3 fixtures") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        let document: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read"))
            .expect("a fixture is JSON");
        let (read, failed) = v0_3::visit_schema_type(
            name,
            Fixture {
                document: &document,
            },
        )
        .unwrap_or_else(|| panic!("{name}.json names no schema type"))
        .unwrap_or_else(|e| panic!("{e}"));
        fixtures += 1;
        changed += read;
        errors += failed;
    }
    assert!(fixtures >= 3, "fixtures: {fixtures}");
    // The changes must reach the readers' error paths, and not only them.
    assert!(changed > 100, "changed documents: {changed}");
    assert!(
        errors > changed / 4 && errors < changed,
        "{errors} errors among {changed} changed documents"
    );
}

/// Checks property-test documents of one schema type, each as generated and with each
/// discriminator set to an unknown value.
struct Generated<'a> {
    schema: &'a SchemaValues,
    name: &'a str,
}

impl SchemaTypeVisitor for Generated<'_> {
    type Output = Result<(), String>;

    fn visit<T: SchemaType>(self) -> Self::Output {
        a2a_tests::proptest_runner(16)
            .run(&self.schema.definition(self.name), |document| {
                let valid = readings_agree::<T>(&document).map_err(TestCaseError::fail)?;
                if let Err(e) = valid {
                    return Err(TestCaseError::fail(format!("a valid document fails: {e}")));
                }
                for changed in changed(&document, false) {
                    // Either outcome, as long as every reading has it.
                    let _either = readings_agree::<T>(&changed).map_err(TestCaseError::fail)?;
                }
                Ok(())
            })
            .map_err(|e| format!("{}: {e}", self.name))
    }
}

#[test]
fn generated_documents_of_every_type_read_the_same_in_every_order() {
    let schema = SchemaValues::v0_3();
    let failures = a2a_tests::v0_3_type_failures(|name| Generated {
        schema: &schema,
        name,
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
