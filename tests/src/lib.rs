//! Shared helpers for the workspace's integration tests (the `suite` test binary, `tests/tests/suite/`):
//! where the spec, the reference files and the fixtures are, compiling protos with protox, and comparing
//! JSON documents with readable paths.

use std::path::{Path, PathBuf};

use prost_reflect::{DescriptorPool, DynamicMessage};
use serde_json::Value;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives one level below the workspace root")
        .to_path_buf()
}

/// `../shared/reference` beside the checkout, holding the upstream spec files; `None` (with a message
/// on stderr saying what is skipped) where it is absent.
pub fn reference_root(test: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/reference");
    if dir.join("a2a").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {test}: the upstream reference files are not at {} (they live beside the repository, \
             not in it); nothing was compared",
            dir.display()
        );
        None
    }
}

/// The file `relative` (`reference/a2a/v0.1.0/a2a.json`, `seeds/…`) of `../shared` beside the
/// checkout; `None` (with one line on stderr saying what `test` skips) where it is absent, and a
/// failure under `CI=true`, where a skipped comparison would pass unseen.
pub fn shared_file(test: &str, relative: &str) -> Option<PathBuf> {
    let path = workspace_root().join("../shared").join(relative);
    if path.is_file() {
        return Some(path);
    }
    let on_ci = std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1");
    assert!(
        !on_ci,
        "CI is set, so {test} must run, but {} is missing",
        path.display()
    );
    eprintln!(
        "SKIPPED {test}: {} is not there (it lives beside the repository, not in it); nothing was compared",
        path.display()
    );
    None
}

/// Compiles `file` (relative to one of `includes`) and everything it imports with protox, returning the
/// encoded `FileDescriptorSet` without source info (comments are not wire facts).
pub fn compile(includes: &[PathBuf], file: &str) -> Result<Vec<u8>, String> {
    let mut compiler = protox::Compiler::new(includes).map_err(|e| e.to_string())?;
    compiler
        .include_source_info(false)
        .include_imports(true)
        // descriptor.proto is loaded too, so `file_descriptor_json` can always decode the set's options.
        .open_files([file, "google/protobuf/descriptor.proto"])
        .map_err(|e| format!("{e:?}"))?;
    Ok(compiler.encode_file_descriptor_set())
}

/// The `FileDescriptorProto` of `file_name` inside an encoded `FileDescriptorSet`, as ProtoJSON, with
/// extension options (such as `[google.api.field_behavior]`) included and the file's own name removed.
pub fn file_descriptor_json(set: &[u8], file_name: &str) -> Value {
    let pool = DescriptorPool::decode(set).expect("a valid FileDescriptorSet");
    let file = pool
        .get_file_by_name(file_name)
        .unwrap_or_else(|| panic!("{file_name} is not in the descriptor set"));
    let proto_type = pool
        .get_message_by_name("google.protobuf.FileDescriptorProto")
        .expect("descriptor.proto is imported by the google.api annotations");
    let message = DynamicMessage::decode(proto_type, file.encode_to_vec().as_slice())
        .expect("a file descriptor decodes as FileDescriptorProto");
    let mut json = serde_json::to_value(&message).expect("descriptors serialize");
    let object = json.as_object_mut().expect("a message is an object");
    object.remove("name");
    object.remove("sourceCodeInfo");
    json
}

/// Lists every difference between two JSON documents, each as a path and the two values. Arrays whose
/// elements are objects with a `name` are compared by name, so paths read like
/// `messageType[Task].field[context_id].number` and declaration order does not matter.
pub fn json_differences(ours: &Value, reference: &Value) -> Vec<String> {
    let mut out = Vec::new();
    diff(ours, reference, "", &mut out);
    out
}

fn diff(ours: &Value, reference: &Value, path: &str, out: &mut Vec<String>) {
    match (ours, reference) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, b_value) in b {
                match a.get(key) {
                    Some(a_value) => diff(a_value, b_value, &format!("{path}.{key}"), out),
                    None => out.push(format!(
                        "{path}.{key}: missing in ours (reference: {b_value})"
                    )),
                }
            }
            for (key, a_value) in a {
                if !b.contains_key(key) {
                    out.push(format!("{path}.{key}: only in ours ({a_value})"));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if is_named_list(a) && is_named_list(b) => {
            let name = |v: &Value| v["name"].as_str().unwrap_or_default().to_owned();
            for b_item in b {
                let item_path = format!("{path}[{}]", name(b_item));
                match a.iter().find(|a_item| name(a_item) == name(b_item)) {
                    Some(a_item) => diff(a_item, b_item, &item_path, out),
                    None => out.push(format!("{item_path}: missing in ours")),
                }
            }
            for a_item in a {
                if !b.iter().any(|b_item| name(b_item) == name(a_item)) {
                    out.push(format!("{path}[{}]: only in ours", name(a_item)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (a_item, b_item)) in a.iter().zip(b).enumerate() {
                diff(a_item, b_item, &format!("{path}[{index}]"), out);
            }
        }
        _ if ours == reference => {}
        _ => out.push(format!("{path}: ours {ours}, reference {reference}")),
    }
}

fn is_named_list(items: &[Value]) -> bool {
    !items.is_empty()
        && items
            .iter()
            .all(|item| item.get("name").is_some_and(Value::is_string))
}

/// Whether two JSON documents are equal, comparing numbers by value (`42` equals `42.0`).
pub fn json_equivalent(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equivalent(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equivalent(v, w)))
        }
        _ => a == b,
    }
}

/// Reads a fixture file below `tests/fixtures/`, panicking with the file's path when it cannot.
pub fn fixture(relative: &str) -> String {
    let path = workspace_root().join("tests/fixtures").join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Reads a JSON fixture below `tests/fixtures/` as `T` (a [`Value`], or a test's table of cases),
/// panicking with the file's path, and where in it, when it is missing or does not read as `T`.
pub fn fixture_json<T: serde::de::DeserializeOwned>(relative: &str) -> T {
    let text = fixture(relative);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("reading tests/fixtures/{relative}: {e}"))
}

/// The property-test cases to run per type: `PROPTEST_CASES` when set to a number, else `default`
/// (each test picks its own, as its cost per case differs).
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

/// A property-test runner of [`proptest_cases`]`(default)` cases that writes no regression files (a
/// failure prints its minimal input; the suite keeps no state between runs).
pub fn proptest_runner(default: u32) -> proptest::test_runner::TestRunner {
    proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: proptest_cases(default),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })
}

/// Runs the check `check_for(name)` makes on every v0.3 schema type; the failures, one line each.
pub fn v0_3_type_failures<V>(check_for: impl Fn(&'static str) -> V) -> Vec<String>
where
    V: a2a_types::registry::SchemaTypeVisitor<Output = Result<(), String>>,
{
    a2a_compat::v0_3::SCHEMA_TYPES
        .iter()
        .filter_map(|name| {
            a2a_compat::v0_3::visit_schema_type(name, check_for(name))
                .expect("every schema type is visitable")
                .err()
        })
        .collect()
}

pub mod decimals;
pub mod interop;
pub mod jsonrpc_interop;
pub mod schema_values;

/// Runs a property over one message type: its serde type `M`, its protobuf type `P` and canonical
/// values of `M`. Implemented by tests; driven by [`strategies_v1::for_each_message`].
pub trait RoundTrip {
    /// Runs the property for one message type.
    fn run<M, P>(&mut self, strategy: proptest::strategy::BoxedStrategy<M>)
    where
        M: a2a_types::registry::A2aMessage
            + Into<P>
            + TryFrom<P, Error = a2a_types::proto::ConversionError>,
        P: a2a_proto::registry::ProtoMessage;
}

/// Generated proptest strategies for every `a2a_types::v1` message (`cargo xtask codegen`).
#[allow(clippy::all)]
pub mod strategies_v1 {
    include!("generated/strategies_v1.rs");
}

/// The leaf strategies the generated ones are built from: canonical scalars, open enums, timestamps in
/// the ProtoJSON range, and JSON whose numbers a `google.protobuf.Value` holds exactly.
pub mod strategy {
    use a2a_types::{JsonObject, ProtoEnum, Timestamp};
    use proptest::prelude::*;

    /// Any short string, unicode included.
    pub fn string() -> impl Strategy<Value = String> {
        "\\PC{0,8}"
    }

    /// Any short non-empty string.
    pub fn non_empty_string() -> impl Strategy<Value = String> {
        "\\PC{1,8}"
    }

    /// Any short byte string.
    pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(any::<u8>(), 0..12)
    }

    /// Every value the schema defines, and numbers it does not (a newer peer's values).
    pub fn open_enum<E: ProtoEnum + std::fmt::Debug>() -> BoxedStrategy<E> {
        let known: Vec<i32> = E::VALUES.iter().map(|(_, number)| *number).collect();
        prop_oneof![3 => proptest::sample::select(known), 1 => -50i32..0, 1 => 100i32..100_000]
            .prop_map(E::from_number)
            .boxed()
    }

    /// Like [`open_enum`], without the default (0).
    pub fn non_default_enum<E: ProtoEnum + std::fmt::Debug>() -> BoxedStrategy<E> {
        open_enum::<E>()
            .prop_filter("not the default", |e| e.number() != 0)
            .boxed()
    }

    /// Instants from 0001-01-01 to 9999-12-31 with any nanoseconds.
    pub fn timestamp() -> BoxedStrategy<Timestamp> {
        (-62_135_596_800i64..=253_402_300_799, 0u32..1_000_000_000)
            .prop_map(|(seconds, nanos)| {
                Timestamp::from_timestamp(seconds, nanos).expect("in range")
            })
            .boxed()
    }

    /// JSON values whose numbers survive a double: integers within 2^53, and non-integral doubles.
    pub fn json_value() -> BoxedStrategy<serde_json::Value> {
        const SAFE: i64 = 1 << 53;
        let number = prop_oneof![
            (-SAFE..=SAFE).prop_map(serde_json::Value::from),
            (-1e12f64..1e12)
                .prop_filter("non-integral", |f| f.fract() != 0.0)
                .prop_map(serde_json::Value::from),
            Just(serde_json::Value::from(-0.0)),
        ];
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            number,
            string().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map(string(), inner, 0..4)
                    .prop_map(|members| serde_json::Value::Object(members.into_iter().collect())),
            ]
        })
        .boxed()
    }

    /// JSON objects as [`json_value`] builds them.
    pub fn json_object() -> BoxedStrategy<JsonObject> {
        proptest::collection::btree_map(string(), json_value(), 0..4)
            .prop_map(|members| members.into_iter().collect())
            .boxed()
    }
}
