//! Signed agent cards against the official Python SDK 1.3.0 (`a2a-sdk[signing]`, driven by
//! `tests/interop/sdk_signing.py`, one process per batch):
//!
//! - the canonical bytes (`a2a_types::signing::canonicalize`) equal the SDK's for every card fixture,
//!   hand-made awkward cards (non-ASCII and astral-plane text and keys, `1e21`, `1.0`, `-0`, `5e-324`,
//!   integers beyond 2^53, empty values at every depth) and 1,200 generated cards (the generated
//!   `agent_card` strategy, plus an extension whose `params` hold those awkward values);
//! - the nesting limit is the SDK's: 128 containers canonicalize in both, 129 in neither;
//! - for ES256, RS256 and EdDSA, cards signed here verify in the SDK and cards the SDK signs verify
//!   here; a card changed after signing is refused by both.
//!
//! Skips with one line without an interpreter that has the SDK's signing extra; fails under `CI=true`.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use a2a_tests::interop::{Suite, python, truncate};
use a2a_tests::{fixture_json, strategies_v1, strategy, workspace_root};
use a2a_types::signing::{CardSigner, CardVerifier, SigningAlgorithm, VerifyError, canonicalize};
use a2a_types::v1::{AgentCard, AgentExtension};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};

const SUITE: Suite = Suite {
    name: "signing",
    package_args: &[],
    sdk_module: "a2a.utils.signing",
};

/// How many generated cards are compared.
pub(crate) const GENERATED: usize = 1_200;

/// Runs `sdk_signing.py COMMAND` with `request` on its standard input, returning its JSON answer.
pub(crate) fn sdk(python: &Path, command: &str, request: &Value) -> Value {
    oracle(
        python,
        &workspace_root().join("tests/interop/sdk_signing.py"),
        command,
        request,
    )
}

/// Runs `PROGRAM SCRIPT COMMAND` with `request` on its standard input, returning its JSON answer.
pub(crate) fn oracle(program: &Path, script: &Path, command: &str, request: &Value) -> Value {
    let mut child = Command::new(program)
        .arg(script)
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {} {}: {e}", program.display(), script.display()));
    let input = request.to_string();
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the oracle runs");
    writer
        .join()
        .unwrap()
        .expect("the oracle reads its request");
    assert!(
        output.status.success(),
        "{} {command} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the oracle writes JSON")
}

/// Values that canonicalization writers get wrong: number text, escapes, key order, empties.
fn awkward_value() -> BoxedStrategy<Value> {
    let doubles = proptest::sample::select(vec![
        1e21,
        1e20,
        1.0,
        -0.0,
        5e-324,
        1e-7,
        1e-6,
        0.1,
        4.35,
        -2.5e-8,
        1e16,
        1.5e300,
        1.7976931348623157e308,
        123456789012345680000.0,
        333333333.3333333,
    ])
    .prop_map(Value::from);
    let integers = proptest::sample::select(vec![9_007_199_254_740_993_u64, u64::MAX, 1 << 60, 0])
        .prop_map(Value::from);
    let texts = proptest::sample::select(vec![
        "",
        "😀",
        "\u{10FFFF}",
        "é",
        "\u{7f}",
        "\u{1}\u{1f}",
        "\"\\/",
        "\u{FB01}",
        "\u{2028}",
        "ß",
    ])
    .prop_map(Value::from);
    let empties = proptest::sample::select(vec![
        Value::Null,
        json!([]),
        json!({}),
        json!([null, "", {}, []]),
        json!({"a": {"b": [], "c": ""}}),
        json!([0, false, ""]),
    ]);
    prop_oneof![doubles, integers, texts, empties, strategy::json_value()].boxed()
}

/// An extension whose `params` hold [`awkward_value`]s under awkward names.
fn awkward_extension() -> BoxedStrategy<AgentExtension> {
    let name = prop_oneof![
        strategy::string(),
        proptest::sample::select(vec!["😀", "\u{FB01}", "\u{20ac}", "\r", "A", "a", "é", ""])
            .prop_map(str::to_owned),
    ];
    proptest::collection::btree_map(name, awkward_value(), 0..6)
        .prop_map(|params| AgentExtension {
            uri: Some("urn:example:awkward".to_owned()),
            params: Some(params.into_iter().collect()),
            ..Default::default()
        })
        .boxed()
}

/// `count` generated cards, the same on every run.
pub(crate) fn generated_cards(count: usize) -> Vec<AgentCard> {
    let strategy =
        (strategies_v1::agent_card(), awkward_extension()).prop_map(|(mut card, extension)| {
            card.capabilities.extensions.push(extension);
            card
        });
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).expect("a card").current())
        .collect()
}

/// Hand-made cards: the spec's example, every empty value, awkward numbers and text.
pub(crate) fn awkward_cards() -> Vec<(String, Value)> {
    let cases = [
        (
            "A2A §8.4.1's example",
            json!({"name": "Example Agent", "description": "", "capabilities": {"streaming": false, "pushNotifications": false, "extensions": []}, "skills": []}),
        ),
        ("an empty card", json!({})),
        (
            "only empty values",
            json!({"name": "", "skills": [], "provider": {"url": "", "organization": ""}, "capabilities": {"extensions": [{"params": {"a": {}, "b": [null]}}]}}),
        ),
        (
            "numbers at the edges of ECMAScript's number text",
            json!({"name": "n", "capabilities": {"extensions": [{"uri": "urn:n", "params": {
                "big": 1e21, "below": 1e20, "one": 1.0, "negzero": -0.0, "tiny": 5e-324, "small": 1e-7,
                "max": 1.7976931348623157e308, "beyond": 9_007_199_254_740_993_u64, "neg": -1.5e-9,
                "list": [1e21, 1.0, -0.0, 5e-324, 0.30000000000000004, 100, -100]
            }}]}}),
        ),
        (
            "non-ASCII and astral text and keys",
            json!({"name": "Voyageur ✈ 旅行 😀", "description": "\u{10FFFF}\u{7f}\u{1}\t\"\\/\u{2028}",
            "skills": [{"id": "s", "name": "ß", "description": "ﬁ", "tags": ["😀", "\u{FB01}", "ᚠ"]}],
            "capabilities": {"extensions": [{"uri": "urn:k", "params": {
                "\u{1F600}": 1, "\u{FB01}": 2, "\u{20ac}": 3, "\r": 4, "1": 5, "\u{80}": 6, "ö": 7, "": 8
            }}]}}),
        ),
        (
            "optional fields set to their defaults",
            json!({"name": "o", "capabilities": {"streaming": false, "pushNotifications": false, "extendedAgentCard": false,
                "extensions": [{"uri": "urn:o", "required": false, "params": {"f": false, "z": 0}}]}}),
        ),
    ];
    cases
        .into_iter()
        .map(|(label, card)| (label.to_owned(), card))
        .collect()
}

/// The card fixtures, as their JSON input.
pub(crate) fn fixture_cards() -> Vec<(String, Value)> {
    let mut cards = vec![
        (
            "tests/fixtures/v1/AgentCard.json".to_owned(),
            fixture_json::<Value>("v1/AgentCard.json"),
        ),
        (
            "tests/fixtures/cases/v0_3/bridge/v1_card.json".to_owned(),
            fixture_json::<Value>("cases/v0_3/bridge/v1_card.json"),
        ),
    ];
    let edge_cases: Vec<Value> = fixture_json("cases/v1/edge_cases.json");
    for case in edge_cases {
        if case["type"] == "AgentCard" && case.get("input").is_some() && case.get("error").is_none()
        {
            cards.push((
                format!("edge case {}", case["title"]),
                case["input"].clone(),
            ));
        }
    }
    cards
}

/// Compares our canonical bytes with the SDK's for cards given as JSON; returns the failures.
fn compare_canonical(python: &Path, cards: &[(String, Value)]) -> Vec<String> {
    let inputs: Vec<&Value> = cards.iter().map(|(_, card)| card).collect();
    let answers = sdk(python, "canonicalize", &json!({ "cards": inputs }));
    let answers = answers.as_array().expect("one answer per card");
    assert_eq!(answers.len(), cards.len());
    let mut failures = Vec::new();
    for ((label, input), answer) in cards.iter().zip(answers) {
        let ours = serde_json::from_value::<AgentCard>(input.clone())
            .map_err(|e| format!("read: {e}"))
            .and_then(|card| canonicalize(&card).map_err(|e| e.to_string()))
            .map(|bytes| String::from_utf8(bytes).expect("canonical bytes are UTF-8"));
        match (ours, answer.get("canonical").and_then(Value::as_str)) {
            (Ok(ours), Some(sdk)) if ours == sdk => {}
            (ours, _) => failures.push(format!(
                "{label}: ours {} / the SDK's {}\n  card: {}",
                truncate(&format!("{ours:?}"), 600),
                truncate(&answer.to_string(), 600),
                truncate(&input.to_string(), 600)
            )),
        }
    }
    failures
}

#[test]
fn canonical_bytes_equal_the_python_sdks() {
    let Some(python) = python(&SUITE) else {
        return;
    };
    let mut cards = fixture_cards();
    let fixtures = cards.len();
    cards.extend(awkward_cards());
    let hand_made = cards.len() - fixtures;
    for (index, card) in generated_cards(GENERATED).into_iter().enumerate() {
        cards.push((
            format!("generated card {index}"),
            serde_json::to_value(card).unwrap(),
        ));
    }
    let failures = compare_canonical(&python, &cards);
    println!(
        "signing: canonical bytes of {} of {} cards equal the Python SDK's ({fixtures} fixtures, \
         {hand_made} hand-made, {GENERATED} generated)",
        cards.len() - failures.len(),
        cards.len()
    );
    assert!(
        failures.is_empty(),
        "{} cards differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `params` whose deepest container is at depth `depth` of the card (params itself is at 5).
fn nested_params(depth: usize) -> Map<String, Value> {
    let mut value = json!([1]);
    for _ in 0..depth - 6 {
        value = Value::Array(vec![value]);
    }
    Map::from_iter([("deep".to_owned(), value)])
}

#[test]
fn the_nesting_limit_is_the_sdks() {
    let Some(python) = python(&SUITE) else {
        return;
    };
    let cards: Vec<AgentCard> = [128, 129]
        .into_iter()
        .map(|depth| AgentCard {
            name: format!("depth {depth}"),
            capabilities: a2a_types::v1::AgentCapabilities {
                extensions: vec![AgentExtension {
                    params: Some(nested_params(depth)),
                    ..Default::default()
                }],
                ..Default::default()
            },
            ..Default::default()
        })
        .collect();
    // Written by hand: serde_json's writer is fine at this depth, but a2a-types' reader stops at 30
    // (crate::MAX_NESTING_DEPTH), so these cards are built in code, as a program would.
    let inputs: Vec<Value> = cards
        .iter()
        .map(|card| serde_json::to_value(card).unwrap())
        .collect();
    let answers = sdk(&python, "canonicalize", &json!({ "cards": inputs }));
    assert!(
        answers[0].get("canonical").is_some(),
        "the SDK: {}",
        answers[0]
    );
    assert!(
        answers[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("maximum depth of 128")),
        "the SDK: {}",
        answers[1]
    );
    assert_eq!(
        String::from_utf8(canonicalize(&cards[0]).unwrap()).unwrap(),
        answers[0]["canonical"].as_str().unwrap()
    );
    let error = canonicalize(&cards[1]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "at `capabilities.extensions[0].params.deep`: nesting exceeds the maximum depth of 128"
    );
}

/// The test keys of `tests/fixtures/signing`.
pub(crate) fn test_keys() -> Vec<(SigningAlgorithm, &'static str, String)> {
    [
        (SigningAlgorithm::Es256, "es256"),
        (SigningAlgorithm::Rs256, "rs256"),
        (SigningAlgorithm::EdDsa, "eddsa"),
    ]
    .into_iter()
    .map(|(algorithm, name)| {
        let pem = a2a_tests::fixture(&format!("signing/{name}.pem"));
        (algorithm, name, pem)
    })
    .collect()
}

/// The card changed after signing: one character of its name.
pub(crate) fn changed(mut card: AgentCard) -> AgentCard {
    card.name.push('!');
    card
}

#[test]
fn signatures_verify_across_the_python_sdk_both_ways() {
    let Some(python) = python(&SUITE) else {
        return;
    };
    let jwks: Value = fixture_json("signing/jwks.json");
    let verifier = CardVerifier::from_jwks_value(&jwks)
        .unwrap()
        .with_algorithms([
            SigningAlgorithm::Es256,
            SigningAlgorithm::Rs256,
            SigningAlgorithm::EdDsa,
        ]);
    let mut cards: Vec<AgentCard> = fixture_cards()
        .into_iter()
        .chain(awkward_cards())
        .map(|(_, card)| serde_json::from_value(card).unwrap())
        .collect();
    // Generated cards carry signatures of random text: the one that verifies is found among them.
    cards.extend(generated_cards(40));
    let algorithms = ["ES256", "RS256", "EdDSA"];
    let sdk_verify = |cards: &[AgentCard]| -> Vec<Value> {
        let answers = sdk(
            &python,
            "verify",
            &json!({"jwks": jwks, "algorithms": algorithms, "cards": cards}),
        );
        answers.as_array().unwrap().clone()
    };

    let keys = test_keys();
    let sdk_signed = sdk(
        &python,
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
        let signer = CardSigner::from_pem(pem.as_bytes(), *algorithm, kid.clone())
            .unwrap()
            .with_jku("https://agent.example/.well-known/jwks.json");

        // Ours, checked by the SDK, unchanged and changed.
        let ours: Vec<AgentCard> = cards
            .iter()
            .map(|card| {
                let mut card = card.clone();
                signer.sign(&mut card).unwrap();
                card
            })
            .collect();
        let ours_changed: Vec<AgentCard> = ours.iter().cloned().map(changed).collect();
        let accepted = sdk_verify(&ours);
        let refused = sdk_verify(&ours_changed);
        let ours_accepted_there = accepted.iter().filter(|a| a["ok"] == true).count();
        let changed_refused_there = refused.iter().filter(|a| a.get("error").is_some()).count();
        let mut null_payloads = 0;
        for (index, answer) in accepted.iter().enumerate() {
            // The SDK's verifier hands the payload to PyJWT's JWT decoder, which wants a JSON object:
            // a card of nothing but empty values (canonical form `null`) is signed by the SDK and
            // verified here, but never verified by the SDK.
            let payload_is_null = canonicalize(&cards[index]).unwrap() == b"null";
            if payload_is_null && answer.get("error").is_some() {
                null_payloads += 1;
            } else if answer["ok"] != true {
                failures.push(format!(
                    "{algorithm} ours #{index}: the SDK refused it: {answer}"
                ));
            }
        }
        for (index, answer) in refused.iter().enumerate() {
            if answer.get("error").is_none() {
                failures.push(format!(
                    "{algorithm} ours #{index} changed: the SDK accepted it"
                ));
            }
        }

        // The SDK's, checked here, unchanged and changed.
        let theirs: Vec<AgentCard> = serde_json::from_value(sdk_signed[position].clone()).unwrap();
        let mut theirs_accepted_here = 0;
        let mut changed_refused_here = 0;
        for (index, card) in theirs.into_iter().enumerate() {
            match verifier.verify(&card) {
                Ok(verified) if verified.kid == kid && verified.algorithm == *algorithm => {
                    theirs_accepted_here += 1;
                }
                other => failures.push(format!("{algorithm} the SDK's #{index}: {other:?}")),
            }
            match verifier.verify(&changed(card)) {
                Err(VerifyError::NoValidSignature(_)) => changed_refused_here += 1,
                other => {
                    failures.push(format!("{algorithm} the SDK's #{index} changed: {other:?}"))
                }
            }
        }
        println!(
            "signing {algorithm}: ours verified by the SDK {ours_accepted_there}/{n} (+{null_payloads} \
             with a `null` payload, which the SDK never verifies), changed refused by the SDK \
             {changed_refused_there}/{n}; the SDK's verified here {theirs_accepted_here}/{n}, changed \
             refused here {changed_refused_here}/{n}",
            n = cards.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn v0_3_cards_canonicalize_as_the_sdk_reads_them() {
    let Some(python) = python(&SUITE) else {
        return;
    };
    // The SDK's client reads a fetched v0.3 card into v1 (`parse_agent_card`) before verifying it;
    // `canonicalize_v0_3` must give the bytes of that same v1 card.
    let cards: Vec<(String, Value)> = [
        "v0_3/AgentCard.json",
        "cases/v0_3/bridge/v0_3_card.json",
        "cases/v0_3/proto/full_card.json",
    ]
    .into_iter()
    .map(|path| {
        (
            format!("tests/fixtures/{path}"),
            fixture_json::<Value>(path),
        )
    })
    .collect();
    let inputs: Vec<&Value> = cards.iter().map(|(_, card)| card).collect();
    let answers = sdk(
        &python,
        "canonicalize-as-fetched",
        &json!({ "cards": inputs }),
    );
    let mut failures = Vec::new();
    for ((label, input), answer) in cards.iter().zip(answers.as_array().unwrap()) {
        let card: a2a_compat::v0_3::AgentCard = serde_json::from_value(input.clone()).unwrap();
        let ours = String::from_utf8(a2a_compat::v0_3::signing::canonicalize_v0_3(&card).unwrap())
            .unwrap();
        if answer["canonical"].as_str() != Some(ours.as_str()) {
            failures.push(format!("{label}:\n ours    {ours}\n the SDK {answer}"));
        }
    }
    println!(
        "signing: canonical bytes of {} of {} v0.3 card fixtures equal the Python SDK's for the card as fetched",
        cards.len() - failures.len(),
        cards.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
