//! End-to-end tests of `a2a card`: signing, verifying, canonical bytes and JWK Sets, through the real
//! binary with the workspace's test keys (`tests/fixtures/signing`) and card fixtures.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

mod common;
use common::a2a;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn path(relative: &str) -> String {
    fixtures().join(relative).display().to_string()
}

/// The stdout of a run that must succeed with nothing on stderr.
fn ok(output: Output) -> Vec<u8> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(stderr.is_empty(), "{stderr}");
    output.stdout
}

/// The one stderr line of a run that must fail with `code`, stdout empty.
fn failure(output: Output, code: i32) -> String {
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert!(output.stdout.is_empty());
    let line = stderr.trim_end_matches('\n');
    assert!(!line.contains('\n'), "more than one line: {stderr:?}");
    line.to_owned()
}

/// The fixture card without the signature it carries.
fn unsigned_card() -> Vec<u8> {
    let mut card: Value =
        serde_json::from_str(&std::fs::read_to_string(path("v1/AgentCard.json")).unwrap()).unwrap();
    card.as_object_mut().unwrap().remove("signatures");
    card.to_string().into_bytes()
}

fn sign(name: &str, alg: &str, card: &[u8]) -> Vec<u8> {
    let key = path(&format!("signing/{name}.pem"));
    ok(a2a(
        &[
            "card",
            "sign",
            "--key",
            &key,
            "--kid",
            &format!("{name}-test"),
            "--alg",
            alg,
        ],
        card,
    ))
}

fn verify(card: &[u8]) -> Output {
    a2a(
        &["card", "verify", "--jwks", &path("signing/jwks.json")],
        card,
    )
}

#[test]
fn signed_cards_verify_and_changed_ones_do_not() {
    for (name, alg) in [("es256", "ES256"), ("rs256", "RS256"), ("eddsa", "EdDSA")] {
        let signed = sign(name, alg, &unsigned_card());
        let card: Value = serde_json::from_slice(&signed).unwrap();
        assert_eq!(card["signatures"].as_array().unwrap().len(), 1);
        assert_eq!(
            String::from_utf8(ok(verify(&signed))).unwrap(),
            format!("valid: signatures[0] verifies with key `{name}-test` ({alg})\n")
        );

        let mut changed = card.clone();
        changed["skills"][0]["name"] = "Book anything".into();
        assert_eq!(
            failure(verify(changed.to_string().as_bytes()), 1),
            format!(
                "error: no valid signature: signatures[0]: the signature does not match the card \
                 (key `{name}-test`)"
            )
        );
    }
}

#[test]
fn verify_says_why_not_in_one_line() {
    assert_eq!(
        failure(verify(&unsigned_card()), 1),
        "error: the card has no signatures"
    );
    // The fixture's own signature names a key the test set does not hold.
    let fixture = std::fs::read(path("v1/AgentCard.json")).unwrap();
    assert_eq!(
        failure(verify(&fixture), 1),
        "error: no valid signature: signatures[0]: unknown key `wayfarer-card-signing-2026-03`"
    );
    let signed = sign("eddsa", "EdDSA", &unsigned_card());
    let only_es256 = a2a(
        &[
            "card",
            "verify",
            "--jwks",
            &path("signing/jwks.json"),
            "--alg",
            "ES256",
        ],
        &signed,
    );
    assert_eq!(
        failure(only_es256, 1),
        "error: no valid signature: signatures[0]: algorithm `EdDSA` is not allowed"
    );
    let line = failure(verify(br#"{"name": 7}"#), 1);
    assert!(
        line.starts_with("error: invalid JSON for lf.a2a.v1.AgentCard at `name`"),
        "{line}"
    );
}

#[test]
fn bad_keys_and_algorithms_are_refused() {
    let rsa = path("signing/rs256.pem");
    let line = failure(
        a2a(
            &[
                "card", "sign", "--key", &rsa, "--kid", "k", "--alg", "ES256",
            ],
            &unsigned_card(),
        ),
        1,
    );
    assert!(
        line.contains("the key is not a private ES256 key"),
        "{line}"
    );
    let line = failure(
        a2a(
            &[
                "card", "sign", "--key", &rsa, "--kid", "k", "--alg", "HS256",
            ],
            &unsigned_card(),
        ),
        2,
    );
    assert!(
        line.starts_with("error: --alg: unknown signing algorithm `HS256`"),
        "{line}"
    );
    let line = failure(
        a2a(&["card", "verify", "--jwks", &rsa], &unsigned_card()),
        1,
    );
    assert!(line.contains("not a JWK Set"), "{line}");
}

#[test]
fn canonicalize_writes_the_signed_bytes() {
    let example = br#"{"name": "Example Agent", "description": "", "capabilities": {"streaming": false,
        "pushNotifications": false, "extensions": []}, "skills": [], "signatures": [{"protected": "e30", "signature": "AA"}]}"#;
    assert_eq!(
        ok(a2a(&["card", "canonicalize"], example)),
        br#"{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}"#
    );
    // A v0.3 card: the bytes of its v1 form, as the official SDK's card reader makes it.
    let v0_3 = std::fs::read(path("cases/v0_3/bridge/v0_3_card.json")).unwrap();
    let canonical = ok(a2a(&["card", "canonicalize", "--v0-3"], &v0_3));
    assert_eq!(
        canonical,
        ok(a2a(&["card", "canonicalize"], &sdk_v1_form(&v0_3)))
    );
    let canonical: Value = serde_json::from_slice(&canonical).unwrap();
    assert!(canonical.get("supportedInterfaces").is_some() && canonical.get("url").is_none());
}

/// The v1 form of a v0.3 card as the official SDK's card reader makes it: `a2a upgrade`'s, with every
/// interface at the card's `protocolVersion` (the fixture's is `0.3.0`).
fn sdk_v1_form(v0_3: &[u8]) -> Vec<u8> {
    let upgraded = a2a(&["upgrade", "--type", "AgentCard"], v0_3);
    assert!(upgraded.status.success());
    let mut v1_form: Value = serde_json::from_slice(&upgraded.stdout).unwrap();
    for interface in v1_form["supportedInterfaces"].as_array_mut().unwrap() {
        interface["protocolVersion"] = "0.3.0".into();
    }
    v1_form.to_string().into_bytes()
}

#[test]
fn a_v0_3_card_is_verified_in_its_v1_form() {
    let mut v0_3: Value = serde_json::from_str(
        &std::fs::read_to_string(path("cases/v0_3/bridge/v0_3_card.json")).unwrap(),
    )
    .unwrap();
    v0_3.as_object_mut().unwrap().remove("signatures");
    let v0_3 = v0_3.to_string().into_bytes();
    let signed_v1: Value =
        serde_json::from_slice(&sign("es256", "ES256", &sdk_v1_form(&v0_3))).unwrap();
    // The v0.3 card carrying the signature made over its v1 form verifies.
    let mut signed_v0_3: Value = serde_json::from_slice(&v0_3).unwrap();
    signed_v0_3["signatures"] = signed_v1["signatures"].clone();
    assert_eq!(
        String::from_utf8(ok(verify(signed_v0_3.to_string().as_bytes()))).unwrap(),
        "valid: signatures[0] verifies with key `es256-test` (ES256)\n"
    );
    signed_v0_3["url"] = "https://evil.example/a2a".into();
    let line = failure(verify(signed_v0_3.to_string().as_bytes()), 1);
    assert!(
        line.contains("the signature does not match the card"),
        "{line}"
    );
}

#[test]
fn a_keys_jwks_verifies_what_it_signed() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("card_jwks");
    std::fs::create_dir_all(&dir).unwrap();
    let key = path("signing/es256.pem");
    let jwks = ok(a2a(
        &[
            "card",
            "jwks",
            "--key",
            &key,
            "--kid",
            "agent-key",
            "--alg",
            "ES256",
        ],
        b"",
    ));
    let jwks_path = dir.join("jwks.json");
    std::fs::write(&jwks_path, &jwks).unwrap();
    let document: Value = serde_json::from_slice(&jwks).unwrap();
    assert_eq!(document["keys"][0]["kty"], "EC");
    assert_eq!(document["keys"][0]["kid"], "agent-key");
    assert!(
        document["keys"][0].get("d").is_none(),
        "the private part is never written"
    );

    let signed = ok(a2a(
        &[
            "card",
            "sign",
            "--key",
            &key,
            "--kid",
            "agent-key",
            "--alg",
            "ES256",
            "--jku",
            "https://agent.example/jwks.json",
        ],
        &unsigned_card(),
    ));
    let verified = ok(a2a(
        &["card", "verify", "--jwks", jwks_path.to_str().unwrap()],
        &signed,
    ));
    assert_eq!(
        String::from_utf8(verified).unwrap(),
        "valid: signatures[0] verifies with key `agent-key` (ES256)\n"
    );
}
