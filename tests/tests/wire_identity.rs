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
