//! Signed agent cards against the official JS SDK (`@a2a-js/sdk` 1.3.0 from npm, its
//! `canonicalizeAgentCard`, `generateAgentCardSignature` and `verifyAgentCardSignature` with `jose`;
//! driven by `tests/interop/js-sdk/sdk_signing.mjs`), the same cards as `signing_v1`:
//!
//! - canonical bytes equal ours for every card but those with nothing left after empty values are
//!   dropped, which the JS SDK writes `{}` and the Python SDK and we write `null` (we follow Python);
//! - for ES256, RS256 and EdDSA, cards signed here verify in the JS SDK and cards it signs verify
//!   here; a changed card is refused by both.
//!
//! Needs `node` and `npm ci` in `tests/interop/js-sdk`: skips with one line without them, fails
//! under `CI=true`.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use a2a_tests::interop::truncate;
use a2a_tests::{fixture_json, workspace_root};
use a2a_types::signing::{CardSigner, CardVerifier, VerifyError, canonicalize};
use a2a_types::v1::AgentCard;
use serde_json::{Value, json};

use super::signing_v1::{
    GENERATED, awkward_cards, changed, fixture_cards, generated_cards, oracle, test_keys,
};

/// `node` and the installed script, or `None` (after saying why) where the test is skipped.
fn node() -> Option<(PathBuf, PathBuf)> {
    let dir = workspace_root().join("tests/interop/js-sdk");
    let node = PathBuf::from("node");
    let runs = Command::new(&node)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|output| output.status.success());
    let why = if !runs {
        "`node` is not on PATH"
    } else if !dir.join("node_modules/@a2a-js/sdk").exists() {
        "the JS SDK is not installed (run `npm ci` in tests/interop/js-sdk)"
    } else {
        return Some((node, dir.join("sdk_signing.mjs")));
    };
    let on_ci = std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1");
    assert!(
        !on_ci,
        "CI is set, so the JS SDK signing test must run, but {why} (.ci/run runs `npm ci` there)"
    );
    eprintln!("SKIPPED signing with the JS SDK: {why}; nothing was compared");
    None
}

#[test]
fn canonical_bytes_equal_the_js_sdks_but_for_empty_cards() {
    let Some((node, script)) = node() else {
        return;
    };
    let mut cards = fixture_cards();
    cards.extend(awkward_cards());
    for (index, card) in generated_cards(GENERATED).into_iter().enumerate() {
        cards.push((
            format!("generated card {index}"),
            serde_json::to_value(card).unwrap(),
        ));
    }
    let inputs: Vec<&Value> = cards.iter().map(|(_, card)| card).collect();
    let answers = oracle(&node, &script, "canonicalize", &json!({ "cards": inputs }));
    let answers = answers.as_array().unwrap();
    assert_eq!(answers.len(), cards.len());
    let (mut equal, mut empty_cards, mut failures) = (0, 0, Vec::new());
    for ((label, input), answer) in cards.iter().zip(answers) {
        let card: AgentCard = serde_json::from_value(input.clone()).unwrap();
        let ours = String::from_utf8(canonicalize(&card).unwrap()).unwrap();
        match answer.get("canonical").and_then(Value::as_str) {
            Some(js) if js == ours => equal += 1,
            Some("{}") if ours == "null" => empty_cards += 1,
            _ => failures.push(format!(
                "{label}: ours {} / the JS SDK's {}",
                truncate(&ours, 600),
                truncate(&answer.to_string(), 600)
            )),
        }
    }
    println!(
        "signing (JS SDK): canonical bytes of {equal} of {} cards equal; {empty_cards} empty cards are \
         `{{}}` there and `null` here and in the Python SDK",
        cards.len()
    );
    assert!(
        failures.is_empty(),
        "{} cards differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn signatures_verify_across_the_js_sdk_both_ways() {
    let Some((node, script)) = node() else {
        return;
    };
    let jwks: Value = fixture_json("signing/jwks.json");
    let verifier = CardVerifier::from_jwks_value(&jwks).unwrap();
    let mut cards: Vec<AgentCard> = fixture_cards()
        .into_iter()
        .chain(awkward_cards())
        .map(|(_, card)| serde_json::from_value(card).unwrap())
        .collect();
    cards.extend(generated_cards(40));
    // Cards with a `null` canonical form are signed over different bytes by the JS SDK (`{}`).
    cards.retain(|card| canonicalize(card).unwrap() != b"null");
    let keys = test_keys();
    let js_verify = |cards: &[AgentCard]| -> Vec<Value> {
        let request =
            json!({"jwks": jwks, "algorithms": ["ES256", "RS256", "EdDSA"], "cards": cards});
        oracle(&node, &script, "verify", &request)
            .as_array()
            .unwrap()
            .clone()
    };
    let js_signed = oracle(
        &node,
        &script,
        "sign",
        &json!({
            "keys": keys.iter().map(|(algorithm, name, pem)| json!({
                "alg": algorithm.name(), "kid": format!("{name}-test"), "pem": pem
            })).collect::<Vec<_>>(),
            "cards": cards,
        }),
    );
    let mut failures = Vec::new();
    for (position, (algorithm, name, pem)) in keys.iter().enumerate() {
        let kid = format!("{name}-test");
        let signer = CardSigner::from_pem(pem.as_bytes(), *algorithm, kid.clone()).unwrap();
        let ours: Vec<AgentCard> = cards
            .iter()
            .map(|card| {
                let mut card = card.clone();
                signer.sign(&mut card).unwrap();
                card
            })
            .collect();
        let accepted = js_verify(&ours);
        let refused = js_verify(&ours.iter().cloned().map(changed).collect::<Vec<_>>());
        let accepted_there = accepted.iter().filter(|a| a["ok"] == true).count();
        let refused_there = refused.iter().filter(|a| a.get("error").is_some()).count();
        for (index, answer) in accepted.iter().enumerate() {
            if answer["ok"] != true {
                failures.push(format!(
                    "{algorithm} ours #{index}: the JS SDK refused it: {answer}"
                ));
            }
        }
        let theirs: Vec<AgentCard> = serde_json::from_value(js_signed[position].clone()).unwrap();
        let (mut accepted_here, mut refused_here) = (0, 0);
        for (index, card) in theirs.into_iter().enumerate() {
            match verifier.verify(&card) {
                Ok(verified) if verified.kid == kid => accepted_here += 1,
                other => failures.push(format!("{algorithm} the JS SDK's #{index}: {other:?}")),
            }
            if let Err(VerifyError::NoValidSignature(_)) = verifier.verify(&changed(card)) {
                refused_here += 1;
            }
        }
        let n = cards.len();
        if refused_there != n || refused_here != n {
            failures.push(format!(
                "{algorithm}: changed cards refused by the JS SDK {refused_there}/{n}, here {refused_here}/{n}"
            ));
        }
        println!(
            "signing {algorithm} (JS SDK): ours verified there {accepted_there}/{n}, changed refused there \
             {refused_there}/{n}; the JS SDK's verified here {accepted_here}/{n}, changed refused here \
             {refused_here}/{n}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
