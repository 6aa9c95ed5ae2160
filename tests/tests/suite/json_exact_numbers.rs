//! Every JSON number path is exact: a differential test of over 100,000 decimal texts (`a2a_tests::decimals`)
//! read by each crate's decoders into `data` and `metadata` values, converted between the crates and
//! through the v0.3 bridge, and written back, against Rust's correctly rounded `str::parse::<f64>`, bit for
//! bit. The CLI's path is tested the same way in `a2a-cli/tests/cli.rs`.
//!
//! Correct rounding comes from serde_json's `float_roundtrip` feature; its default parser can be one ulp
//! off (`9007199254740991.0` read as 9007199254740990). A feature is on for everyone once any crate in a
//! build enables it, so the last test checks that each published crate asks for it itself.

use std::process::Command;
use std::sync::OnceLock;

use a2a_tests::decimals::{self, MIN_CORPUS};
use a2a_tests::workspace_root;
use serde_json::Value;

/// Numbers per document: many documents of a realistic size rather than one huge one.
const PER_DOCUMENT: usize = 1_000;

/// The corpus, built once for all the tests of this module.
fn corpus() -> &'static [(String, f64)] {
    static CORPUS: OnceLock<Vec<(String, f64)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let started = std::time::Instant::now();
        let corpus = decimals::corpus();
        assert!(corpus.len() >= MIN_CORPUS, "{} texts", corpus.len());
        eprintln!(
            "{} decimal texts built in {:?}",
            corpus.len(),
            started.elapsed()
        );
        corpus
    })
}

/// `[n1,n2,…]` of the texts as written.
fn json_array(chunk: &[(String, f64)]) -> String {
    let texts: Vec<&str> = chunk.iter().map(|(text, _)| text.as_str()).collect();
    format!("[{}]", texts.join(","))
}

/// The double a serde_json number stands for (a2a-types keeps integers as integers; as a double they
/// are the nearest one).
fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

#[track_caller]
fn same_bits(what: &str, text: &str, ours: f64, expected: f64) {
    assert!(
        ours.to_bits() == expected.to_bits(),
        "{what}: {text} read as {ours:e} ({:#x}), correctly rounded it is {expected:e} ({:#x})",
        ours.to_bits(),
        expected.to_bits()
    );
}

/// The numbers of a written `{"data":[…]}` part, as texts: each reads back as the expected double, and
/// one with a fraction or an exponent is no longer than the shortest text of its double.
#[track_caller]
fn check_written_part(what: &str, written: &str, chunk: &[(String, f64)]) {
    let inner = written
        .strip_prefix(r#"{"data":["#)
        .and_then(|rest| rest.strip_suffix("]}"))
        .unwrap_or_else(|| {
            panic!(
                "{what}: unexpected shape {}",
                &written[..80.min(written.len())]
            )
        });
    let tokens: Vec<&str> = inner.split(',').collect();
    assert_eq!(tokens.len(), chunk.len(), "{what}");
    for (token, (text, expected)) in tokens.iter().zip(chunk) {
        let read: f64 = token.parse().unwrap();
        same_bits(
            &format!("{what}, written as {token}"),
            text,
            read,
            *expected,
        );
        if token.contains(['.', 'e', 'E']) {
            let shortest = format!("{expected:e}");
            let digits = |t: &str| {
                let mantissa = t.split(['e', 'E']).next().unwrap();
                mantissa
                    .trim_start_matches(['-', '0', '.'])
                    .replace('.', "")
                    .trim_end_matches('0')
                    .len()
            };
            assert!(
                digits(token) <= digits(&shortest),
                "{what}: {text} written as {token}, longer than the shortest {shortest}"
            );
        }
    }
}

#[test]
fn a2a_types_reads_and_writes_every_number_exactly() {
    let corpus = corpus();
    for chunk in corpus.chunks(PER_DOCUMENT) {
        // `data` of a part: a `google.protobuf.Value`.
        let part: a2a_types::v1::Part =
            a2a_types::json::from_str(&format!(r#"{{"data":{}}}"#, json_array(chunk))).unwrap();
        let Some(a2a_types::v1::PartContent::Data(Value::Array(values))) = &part.content else {
            panic!("{part:?}");
        };
        for (value, (text, expected)) in values.iter().zip(chunk) {
            same_bits("a2a-types Part.data", text, number(value), *expected);
        }
        let written = serde_json::to_string(&part).unwrap();
        check_written_part("a2a-types Part.data", &written, chunk);

        // `metadata` of a message: a `google.protobuf.Struct`, numbers as member values.
        let members: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, (text, _))| format!(r#""n{i}":{text}"#))
            .collect();
        let message: a2a_types::v1::Message = a2a_types::json::from_str(&format!(
            r#"{{"messageId":"m-1","role":"ROLE_AGENT","parts":[],"metadata":{{{}}}}}"#,
            members.join(",")
        ))
        .unwrap();
        let metadata = message.metadata.as_ref().unwrap();
        for (i, (text, expected)) in chunk.iter().enumerate() {
            same_bits(
                "a2a-types Message.metadata",
                text,
                number(&metadata[&format!("n{i}")]),
                *expected,
            );
        }
        let again: a2a_types::v1::Message =
            a2a_types::json::from_str(&serde_json::to_string(&message).unwrap()).unwrap();
        assert_eq!(again, message);
    }
}

#[test]
fn a2a_proto_reads_and_writes_every_number_exactly() {
    use a2a_proto::wkt::value::Kind;
    let corpus = corpus();
    for chunk in corpus.chunks(PER_DOCUMENT) {
        let part: a2a_proto::v1::Part =
            a2a_proto::json::from_str(&format!(r#"{{"data":{}}}"#, json_array(chunk))).unwrap();
        let Some(a2a_proto::v1::part::Content::Data(a2a_proto::wkt::Value {
            kind: Some(Kind::ListValue(list)),
        })) = &part.content
        else {
            panic!("{part:?}");
        };
        for (value, (text, expected)) in list.values.iter().zip(chunk) {
            let Some(Kind::NumberValue(ours)) = value.kind else {
                panic!("{value:?}");
            };
            same_bits("a2a-proto Part.data", text, ours, *expected);
        }
        let written = a2a_proto::json::to_string(&part).unwrap();
        check_written_part("a2a-proto Part.data", &written, chunk);
        let binary = prost::Message::encode_to_vec(&part);
        let decoded: a2a_proto::v1::Part = prost::Message::decode(binary.as_slice()).unwrap();
        assert_eq!(decoded, part, "binary round trip");
    }
}

#[test]
fn conversions_between_the_crates_keep_every_number() {
    let corpus = corpus();
    for chunk in corpus.chunks(PER_DOCUMENT) {
        let part: a2a_types::v1::Part =
            a2a_types::json::from_str(&format!(r#"{{"data":{}}}"#, json_array(chunk))).unwrap();
        let proto = a2a_proto::v1::Part::from(part);
        let back = a2a_types::v1::Part::try_from(proto).unwrap();
        let Some(a2a_types::v1::PartContent::Data(Value::Array(values))) = &back.content else {
            panic!("{back:?}");
        };
        for (value, (text, expected)) in values.iter().zip(chunk) {
            same_bits(
                "a2a-types → a2a-proto → a2a-types",
                text,
                number(value),
                *expected,
            );
        }
        check_written_part(
            "a2a-types from a2a-proto",
            &serde_json::to_string(&back).unwrap(),
            chunk,
        );
    }
}

#[test]
fn the_bridge_keeps_every_number() {
    let corpus = corpus();
    for chunk in corpus.chunks(PER_DOCUMENT) {
        let v0_3_text = format!(
            r#"{{"kind":"data","data":{{"values":{}}}}}"#,
            json_array(chunk)
        );
        let v0_3: a2a_compat::v0_3::Part = a2a_types::json::from_str(&v0_3_text).unwrap();
        let v1 = a2a_types::v1::Part::try_from(v0_3).unwrap();
        let Some(a2a_types::v1::PartContent::Data(data)) = &v1.content else {
            panic!("{v1:?}");
        };
        for (value, (text, expected)) in data["values"].as_array().unwrap().iter().zip(chunk) {
            same_bits("v0.3 → v1", text, number(value), *expected);
        }
        let down = a2a_compat::v0_3::Part::try_from(v1).unwrap();
        let written = serde_json::to_string(&down).unwrap();
        let again: a2a_compat::v0_3::Part = a2a_types::json::from_str(&written).unwrap();
        let a2a_compat::v0_3::Part::Data(again) = again else {
            panic!("{written}");
        };
        for (value, (text, expected)) in again.data["values"].as_array().unwrap().iter().zip(chunk)
        {
            same_bits("v0.3 → v1 → v0.3 JSON", text, number(value), *expected);
        }
        // The JSON entry point the CLI uses.
        let (_, upgraded) =
            a2a_compat::bridge::upgrade_json("Part", serde_json::from_str(&v0_3_text).unwrap())
                .unwrap();
        for (value, (text, expected)) in upgraded["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .zip(chunk)
        {
            same_bits("bridge::upgrade_json", text, number(value), *expected);
        }
    }
}

#[test]
fn numbers_beyond_the_largest_double_are_errors_not_infinities() {
    for text in decimals::overflowing() {
        assert!(text.parse::<f64>().unwrap().is_infinite(), "{text}");
        let document = format!(r#"{{"data":[{text}]}}"#);
        let types = a2a_types::json::from_str::<a2a_types::v1::Part>(&document).unwrap_err();
        assert!(types.to_string().contains("out of range"), "{types}");
        let proto = a2a_proto::json::from_str::<a2a_proto::v1::Part>(&document).unwrap_err();
        assert!(proto.to_string().contains("out of range"), "{proto}");
    }
}

/// The issue's own example, through every entry point.
#[test]
fn nine_quadrillion_with_a_fraction_part_is_not_one_ulp_off() {
    let document = r#"{"data": 9007199254740991.0}"#;
    let types: a2a_types::v1::Part = a2a_types::json::from_str(document).unwrap();
    assert_eq!(
        serde_json::to_string(&types).unwrap(),
        r#"{"data":9007199254740991}"#
    );
    let proto: a2a_proto::v1::Part = a2a_proto::json::from_str(document).unwrap();
    assert_eq!(
        a2a_proto::json::to_string(&proto).unwrap(),
        r#"{"data":9007199254740991}"#
    );
}

/// Each published crate enables `float_roundtrip` in its own dependency on serde_json: in this workspace
/// a test-only dependency (jsonschema) turns it on for everything, which would hide its absence.
#[test]
fn each_published_crate_asks_for_correctly_rounded_floats() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    for crate_name in [
        "a2a-spec-proto",
        "a2a-spec-types",
        "a2a-spec-protocol",
        "a2a-spec-compat",
        "a2a-spec-cli",
    ] {
        let package = metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == crate_name)
            .unwrap_or_else(|| panic!("{crate_name} is a workspace member"));
        let serde_json_dependency = package["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == "serde_json" && d["kind"].is_null())
            .unwrap_or_else(|| panic!("{crate_name} depends on serde_json"));
        let features = serde_json_dependency["features"].as_array().unwrap();
        assert!(
            features.iter().any(|f| f == "float_roundtrip"),
            "{crate_name}: serde_json without `float_roundtrip` ({features:?})"
        );
    }
}
