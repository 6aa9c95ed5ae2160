//! Proves that our own spec files carry exactly the upstream protocol's wire facts, and that the upstream
//! files compile against our `google.api` protos (the rehearsal for a spec bump).
//!
//! Comments are not compared (they are ours by design); everything else in the compiled descriptors is:
//! names, numbers, types, labels, proto3 `optional`, oneofs, JSON names, every option including the
//! `google.api` extensions, services, methods and HTTP bindings.

use std::path::PathBuf;

use a2a_tests::{compile, file_descriptor_json, json_differences, reference_root, workspace_root};
use serde_json::Value;

fn our_spec() -> PathBuf {
    workspace_root().join("spec")
}

fn assert_identical(ours: &Value, reference: &Value, what: &str) {
    let differences = json_differences(ours, reference);
    assert!(
        differences.is_empty(),
        "{what} differs from the reference in {} place(s):\n  {}",
        differences.len(),
        differences.join("\n  ")
    );
}

#[test]
fn v1_proto_is_wire_identical_to_reference() {
    let Some(reference) = reference_root("v1_proto_is_wire_identical_to_reference") else {
        return;
    };
    let ours = compile(&[our_spec()], "v1/a2a.proto").unwrap();
    let upstream = compile(
        &[reference.join("a2a/v1.0.1"), reference.clone()],
        "a2a.proto",
    )
    .unwrap();
    let ours = file_descriptor_json(&ours, "v1/a2a.proto");
    let upstream = file_descriptor_json(&upstream, "a2a.proto");

    // Guard against a comparison that passes because it saw nothing.
    assert_eq!(ours["package"], "lf.a2a.v1");
    assert!(ours["messageType"].as_array().unwrap().len() >= 40);
    let card = &ours["messageType"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "AgentCard")
        .unwrap();
    let name_field = card["field"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "name")
        .unwrap();
    assert_eq!(
        name_field["options"]["[google.api.field_behavior]"],
        serde_json::json!(["REQUIRED"])
    );

    assert_identical(&ours, &upstream, "spec/v1/a2a.proto");
}

#[test]
fn upstream_v1_proto_compiles_against_our_google_api() {
    let Some(reference) = reference_root("upstream_v1_proto_compiles_against_our_google_api")
    else {
        return;
    };
    let upstream_dir = reference.join("a2a/v1.0.1");
    let with_ours = compile(&[upstream_dir.clone(), our_spec()], "a2a.proto")
        .expect("the upstream a2a.proto must compile unchanged against spec/google/api");
    let with_theirs = compile(&[upstream_dir, reference.clone()], "a2a.proto").unwrap();
    assert_identical(
        &file_descriptor_json(&with_ours, "a2a.proto"),
        &file_descriptor_json(&with_theirs, "a2a.proto"),
        "upstream a2a.proto compiled against our google/api",
    );
}

/// Our `google.api` files are a subset of googleapis: what they define must be defined identically.
#[test]
fn our_google_api_protos_match_googleapis() {
    let Some(reference) = reference_root("our_google_api_protos_match_googleapis") else {
        return;
    };
    for file in ["annotations", "client", "field_behavior", "http"] {
        let name = format!("google/api/{file}.proto");
        let ours = file_descriptor_json(&compile(&[our_spec()], &name).unwrap(), &name);
        let theirs = file_descriptor_json(
            &compile(std::slice::from_ref(&reference), &name).unwrap(),
            &name,
        );
        assert_eq!(ours["package"], theirs["package"], "{name}: package");
        let mut compared = 0;
        for list in ["messageType", "enumType", "extension"] {
            for definition in ours[list].as_array().into_iter().flatten() {
                let theirs = theirs[list]
                    .as_array()
                    .and_then(|all| all.iter().find(|d| d["name"] == definition["name"]))
                    .unwrap_or_else(|| {
                        panic!("{name}: {list} {} is not in googleapis", definition["name"])
                    });
                assert_identical(
                    definition,
                    theirs,
                    &format!("{name} {list} {}", definition["name"]),
                );
                compared += 1;
            }
        }
        assert!(compared > 0, "{name} defines nothing");
    }
}

/// The descriptor set embedded in `a2a-proto` is the one our spec compiles to.
#[test]
fn embedded_descriptor_set_is_our_spec() {
    let compiled = compile(&[our_spec()], "v1/a2a.proto").unwrap();
    assert_identical(
        &file_descriptor_json(a2a_proto::v1::FILE_DESCRIPTOR_SET, "v1/a2a.proto"),
        &file_descriptor_json(&compiled, "v1/a2a.proto"),
        "a2a_proto::v1::FILE_DESCRIPTOR_SET",
    );
}

/// A2A v0.3 (package `a2a.v1`): our `spec/v0_3/a2a.proto` against the revision the SDKs ship.
#[test]
fn v0_3_proto_is_wire_identical_to_reference() {
    let Some(reference) = reference_root("v0_3_proto_is_wire_identical_to_reference") else {
        return;
    };
    let ours = compile(&[our_spec()], "v0_3/a2a.proto").unwrap();
    let upstream = compile(
        &[reference.join("a2a/v0.3"), reference.clone()],
        "a2a.proto",
    )
    .unwrap();
    let ours = file_descriptor_json(&ours, "v0_3/a2a.proto");
    assert_eq!(ours["package"], "a2a.v1");
    assert_identical(
        &ours,
        &file_descriptor_json(&upstream, "a2a.proto"),
        "spec/v0_3/a2a.proto",
    );
    // And the upstream v0.3 file compiles unchanged against our google/api protos.
    let with_ours = compile(&[reference.join("a2a/v0.3"), our_spec()], "a2a.proto")
        .expect("the upstream v0.3 a2a.proto must compile against spec/google/api");
    assert_identical(
        &file_descriptor_json(&with_ours, "a2a.proto"),
        &file_descriptor_json(&upstream, "a2a.proto"),
        "upstream v0.3 a2a.proto compiled against our google/api",
    );
}

/// `spec/v0_3/a2a.json` has the reference JSON Schema's structure exactly: every definition, property,
/// type, required list, const, enum, union and default, and as many examples; only `description`
/// texts and the examples' contents (ours) differ.
#[test]
fn v0_3_json_schema_has_the_reference_structure() {
    let Some(reference) = reference_root("v0_3_json_schema_has_the_reference_structure") else {
        return;
    };
    let read = |path: PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let mut ours = read(our_spec().join("v0_3/a2a.json"));
    let mut theirs = read(reference.join("a2a/v0.3/a2a.json"));
    let (ours_described, theirs_described) = (
        blank_descriptions(&mut ours),
        blank_descriptions(&mut theirs),
    );
    assert_eq!(
        ours_described, theirs_described,
        "every description of the reference has one of ours"
    );
    assert!(ours["definitions"].as_object().unwrap().len() > 90);
    assert_identical(&ours, &theirs, "spec/v0_3/a2a.json");
}

/// `spec/v0_N/a2a.json` has the structure of the upstream JSON Schema `reference` (under `../shared`):
/// everything but `description` texts, which are ours; `definitions` is where its definitions are.
fn assert_json_schema_structure(test: &str, ours: &str, reference: &str, definitions: &str) {
    let Some(reference) = a2a_tests::shared_file(test, reference) else {
        return;
    };
    let read = |path: PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let mut ours_schema = read(our_spec().join(ours));
    let mut theirs = read(reference);
    let (ours_described, theirs_described) = (
        blank_descriptions(&mut ours_schema),
        blank_descriptions(&mut theirs),
    );
    assert_eq!(
        ours_described, theirs_described,
        "every description of the reference has one of ours"
    );
    assert!(ours_schema[definitions].as_object().unwrap().len() > 40);
    assert_identical(&ours_schema, &theirs, &format!("spec/{ours}"));
}

/// `spec/v0_2/a2a.json` has the structure of upstream's v0.2.6 JSON Schema, descriptions aside.
#[test]
fn v0_2_json_schema_has_the_reference_structure() {
    assert_json_schema_structure(
        "v0_2_json_schema_has_the_reference_structure",
        "v0_2/a2a.json",
        "reference/a2a/v0.2.6/a2a.json",
        "definitions",
    );
}

/// `spec/v0_1/a2a.json` has the structure of upstream's v0.1.0 JSON Schema (`$defs`, `title`s and
/// `examples` included), descriptions aside.
#[test]
fn v0_1_json_schema_has_the_reference_structure() {
    assert_json_schema_structure(
        "v0_1_json_schema_has_the_reference_structure",
        "v0_1/a2a.json",
        "reference/a2a/v0.1.0/a2a.json",
        "$defs",
    );
}

/// Replaces every schema `description` keyword (not a property that happens to be named so) with a
/// marker, returning how many there were, and every `examples` list with how many it holds
/// (examples illustrate, as descriptions do: ours are our own).
fn blank_descriptions(schema: &mut Value) -> usize {
    let mut count = 0;
    if let Value::Object(object) = schema {
        for (key, value) in object.iter_mut() {
            if key == "description" && value.is_string() {
                *value = Value::from("(ours)");
                count += 1;
            } else if key == "examples" {
                *value = Value::from(value.as_array().map_or(0, Vec::len));
            } else if key == "properties" || key == "definitions" || key == "$defs" {
                // Keys here are names, so descend into each named schema.
                for named in value
                    .as_object_mut()
                    .into_iter()
                    .flat_map(|o| o.values_mut())
                {
                    count += blank_descriptions(named);
                }
            } else if key != "examples" && key != "default" && key != "const" && key != "enum" {
                count += blank_descriptions(value);
            }
        }
    } else if let Value::Array(items) = schema {
        count += items.iter_mut().map(blank_descriptions).sum::<usize>();
    }
    count
}

/// The descriptor set embedded for v0.3 (feature `v0_3`) is the one our v0.3 spec compiles to, and the
/// generated registry knows every message of it.
#[test]
fn embedded_v0_3_descriptor_set_is_our_spec() {
    let compiled = compile(&[our_spec()], "v0_3/a2a.proto").unwrap();
    assert_identical(
        &file_descriptor_json(a2a_proto::v0_3::FILE_DESCRIPTOR_SET, "v0_3/a2a.proto"),
        &file_descriptor_json(&compiled, "v0_3/a2a.proto"),
        "a2a_proto::v0_3::FILE_DESCRIPTOR_SET",
    );
    let pool = prost_reflect::DescriptorPool::decode(a2a_proto::v0_3::FILE_DESCRIPTOR_SET).unwrap();
    let in_descriptor: std::collections::BTreeSet<String> = pool
        .all_messages()
        .filter(|m| m.package_name() == "a2a.v1" && !m.is_map_entry())
        .map(|m| m.full_name().to_owned())
        .collect();
    let registered: std::collections::BTreeSet<String> = a2a_proto::v0_3::MESSAGE_NAMES
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(registered, in_descriptor);
    assert!(registered.contains("a2a.v1.SendMessageRequest") && registered.len() > 40);
}
