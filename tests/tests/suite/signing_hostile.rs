//! Signed agent cards under hostile input: every way a signature, a key set or a card can be wrong
//! gives its typed error (`a2a_types::signing`), never a panic, and never an accepted card.

use a2a_tests::{fixture, fixture_json, strategies_v1};
use a2a_types::signing::{
    CardSigner, CardVerifier, KeySetError, MAX_SIGNATURES, RejectReason, SignError,
    SigningAlgorithm, VerifyError,
};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn signer(algorithm: SigningAlgorithm, name: &str) -> CardSigner {
    let pem = fixture(&format!("signing/{name}.pem"));
    CardSigner::from_pem(pem.as_bytes(), algorithm, format!("{name}-test")).unwrap()
}

fn verifier() -> CardVerifier {
    CardVerifier::from_jwks(fixture("signing/jwks.json").as_bytes()).unwrap()
}

/// The fixture card without the signature it carries (by a key not in the test set).
fn card() -> AgentCard {
    let mut card: AgentCard =
        serde_json::from_value(fixture_json::<Value>("v1/AgentCard.json")).unwrap();
    card.signatures.clear();
    card
}

fn signed(algorithm: SigningAlgorithm, name: &str) -> AgentCard {
    let mut card = card();
    signer(algorithm, name).sign(&mut card).unwrap();
    card
}

fn encode(json: &Value) -> String {
    URL_SAFE_NO_PAD.encode(json.to_string())
}

/// The one reason the card's only signature was rejected for.
fn rejection(card: &AgentCard) -> RejectReason {
    rejection_by(&verifier(), card)
}

fn rejection_by(verifier: &CardVerifier, card: &AgentCard) -> RejectReason {
    match verifier.verify(card) {
        Err(VerifyError::NoValidSignature(rejections)) => {
            assert_eq!(rejections.len(), 1, "{rejections:?}");
            rejections[0].reason.clone()
        }
        other => panic!("expected one rejected signature, got {other:?}"),
    }
}

/// The card signed with ES256, then its signature's fields replaced.
fn with_signature(change: impl FnOnce(&mut AgentCardSignature)) -> AgentCard {
    let mut card = signed(SigningAlgorithm::Es256, "es256");
    change(&mut card.signatures[0]);
    card
}

#[test]
fn each_key_verifies_its_own_signature() {
    for (algorithm, name) in [
        (SigningAlgorithm::Es256, "es256"),
        (SigningAlgorithm::Rs256, "rs256"),
        (SigningAlgorithm::EdDsa, "eddsa"),
    ] {
        let verified = verifier().verify(&signed(algorithm, name)).unwrap();
        assert_eq!((verified.index, verified.algorithm), (0, algorithm));
        let header: Value = serde_json::from_slice(
            &URL_SAFE_NO_PAD
                .decode(&signed(algorithm, name).signatures[0].protected)
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            header,
            json!({"alg": algorithm.name(), "kid": format!("{name}-test"), "typ": "JOSE"})
        );
    }
}

#[test]
fn an_unsigned_card_has_no_signature() {
    assert_eq!(verifier().verify(&card()), Err(VerifyError::NoSignature));
}

/// A change to a signature.
type Change = Box<dyn FnOnce(&mut AgentCardSignature)>;

#[test]
fn malformed_signatures_are_named() {
    let cases: [(&str, Change, &str); 8] = [
        (
            "protected not base64url",
            Box::new(|s| s.protected = "eyJ!!!".into()),
            "`protected` is not unpadded base64url",
        ),
        (
            "protected padded",
            Box::new(|s| s.protected.push('=')),
            "`protected` is not unpadded base64url",
        ),
        (
            "signature not base64url",
            Box::new(|s| s.signature = "a+b/c".into()),
            "`signature` is not unpadded base64url",
        ),
        (
            "protected oversized",
            Box::new(|s| {
                s.protected =
                    encode(&json!({"alg": "ES256", "kid": "es256-test", "x": "a".repeat(5000)}))
            }),
            "`protected` is longer than 4096 bytes",
        ),
        (
            "signature oversized",
            Box::new(|s| s.signature = "A".repeat(3000)),
            "`signature` is longer than 2048 bytes",
        ),
        (
            "header not an object",
            Box::new(|s| s.protected = encode(&json!(["ES256"]))),
            "the protected header is not a JSON object",
        ),
        (
            "header without alg",
            Box::new(|s| s.protected = encode(&json!({"kid": "es256-test"}))),
            "the protected header has no `alg`",
        ),
        (
            "critical extension",
            Box::new(|s| {
                s.protected = encode(
                    &json!({"alg": "ES256", "kid": "es256-test", "crit": ["b64"], "b64": false}),
                )
            }),
            "the protected header has `crit` extensions",
        ),
    ];
    for (label, change, why) in cases {
        assert_eq!(
            rejection(&with_signature(change)),
            RejectReason::Malformed(why.to_owned()),
            "{label}"
        );
    }
    assert_eq!(
        rejection(&with_signature(|s| s.signature.clear())),
        RejectReason::Malformed("`signature` is empty".to_owned())
    );
}

#[test]
fn none_hmac_and_algorithms_off_the_list_are_refused() {
    for alg in ["none", "HS256", "RS1", "es256"] {
        let card =
            with_signature(|s| s.protected = encode(&json!({"alg": alg, "kid": "rs256-test"})));
        assert_eq!(
            rejection(&card),
            RejectReason::AlgorithmNotAllowed(alg.to_owned()),
            "{alg}"
        );
    }
    let only_es256 = verifier().with_algorithms([SigningAlgorithm::Es256]);
    assert_eq!(
        rejection_by(&only_es256, &signed(SigningAlgorithm::EdDsa, "eddsa")),
        RejectReason::AlgorithmNotAllowed("EdDSA".to_owned())
    );
    assert!(
        only_es256
            .verify(&signed(SigningAlgorithm::Es256, "es256"))
            .is_ok()
    );
}

#[test]
fn unknown_keys_and_keys_of_the_wrong_type_are_refused() {
    let header = |alg: &str, kid: Option<&str>| {
        let mut header = json!({"alg": alg});
        if let Some(kid) = kid {
            header["kid"] = json!(kid);
        }
        encode(&header)
    };
    let card = with_signature(|s| s.protected = header("ES256", Some("nobody")));
    assert_eq!(
        rejection(&card),
        RejectReason::UnknownKey(Some("nobody".to_owned()))
    );
    let card = with_signature(|s| s.protected = header("ES256", None));
    assert_eq!(rejection(&card), RejectReason::UnknownKey(None));
    for (alg, kid) in [
        ("ES256", "rs256-test"),
        ("RS256", "eddsa-test"),
        ("EdDSA", "es256-test"),
        ("ES384", "es256-test"),
        ("PS256", "rs256-test"), // an RSA key, but its JWK says `alg: RS256`
    ] {
        let card = with_signature(|s| s.protected = header(alg, Some(kid)));
        assert_eq!(
            rejection(&card),
            RejectReason::KeyDoesNotFitAlgorithm {
                kid: kid.to_owned(),
                algorithm: alg.to_owned()
            },
            "{alg} with {kid}"
        );
    }
}

#[test]
fn a_signature_over_another_card_does_not_verify() {
    let signature = signed(SigningAlgorithm::Rs256, "rs256").signatures[0].clone();
    let mut other = card();
    other.description.push_str(" Now with trains.");
    other.signatures.push(signature);
    assert_eq!(
        rejection(&other),
        RejectReason::SignatureMismatch {
            kid: "rs256-test".to_owned()
        }
    );
    // Bytes of a real signature, reversed, are still well-formed base64url but no signature.
    let mut card = signed(SigningAlgorithm::Es256, "es256");
    card.signatures[0].signature = card.signatures[0].signature.chars().rev().collect();
    assert!(matches!(
        rejection(&card),
        RejectReason::SignatureMismatch { .. } | RejectReason::Malformed(_)
    ));
}

#[test]
fn one_valid_signature_among_bad_ones_is_enough_within_the_limit() {
    let good = signed(SigningAlgorithm::EdDsa, "eddsa").signatures[0].clone();
    let bad = AgentCardSignature {
        protected: "bad".into(),
        signature: "bad".into(),
        ..Default::default()
    };
    let mut card = card();
    card.signatures = vec![bad.clone(); 5];
    card.signatures.push(good.clone());
    assert_eq!(verifier().verify(&card).unwrap().index, 5);

    card.signatures = vec![bad; MAX_SIGNATURES];
    card.signatures.push(good);
    let Err(VerifyError::NoValidSignature(rejections)) = verifier().verify(&card) else {
        panic!("a signature past the limit must not be checked");
    };
    assert_eq!(rejections.len(), MAX_SIGNATURES + 1);
    assert_eq!(
        rejections[MAX_SIGNATURES].reason,
        RejectReason::TooManySignatures
    );
}

#[test]
fn deep_params_are_not_canonicalizable_and_never_overflow() {
    let mut deep = json!(1);
    for _ in 0..10_000 {
        deep = Value::Array(vec![deep]);
    }
    let mut card = signed(SigningAlgorithm::Es256, "es256");
    card.capabilities = AgentCapabilities {
        extensions: vec![AgentExtension {
            params: Some(Map::from_iter([("x".to_owned(), deep)])),
            ..Default::default()
        }],
        ..Default::default()
    };
    assert!(matches!(
        verifier().verify(&card),
        Err(VerifyError::NotCanonicalizable(_))
    ));
    assert!(matches!(
        signer(SigningAlgorithm::Es256, "es256").sign(&mut card),
        Err(SignError::NotCanonicalizable(_))
    ));
    // serde_json drops a value this deep recursively; leak it rather than overflow the test's stack.
    std::mem::forget(card);

    // Read from JSON, the depth limit of the reader (30) refuses it first, naming the field.
    let text = format!(
        r#"{{"name": "n", "capabilities": {{"extensions": [{{"params": {{"x": {}1{}}}}}]}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let error = a2a_types::json::from_str::<AgentCard>(&text).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("capabilities.extensions[0].params"),
        "{error}"
    );
}

#[test]
fn signing_keys_must_fit_the_algorithm() {
    let rsa = fixture("signing/rs256.pem");
    let ec = fixture("signing/es256.pem");
    let ed = fixture("signing/eddsa.pem");
    for (pem, algorithm) in [
        (&rsa, SigningAlgorithm::Es256),
        (&ec, SigningAlgorithm::Rs256),
        (&ec, SigningAlgorithm::Es384),
        (&ed, SigningAlgorithm::Es256),
        (&rsa, SigningAlgorithm::EdDsa),
    ] {
        assert!(
            matches!(
                CardSigner::from_pem(pem.as_bytes(), algorithm, "k"),
                Err(SignError::BadKey { .. })
            ),
            "{algorithm}"
        );
    }
    assert!(matches!(
        CardSigner::from_pem(b"not a key", SigningAlgorithm::Es256, "k"),
        Err(SignError::BadKey { .. })
    ));
    for name in ["none", "HS256"] {
        assert_eq!(
            name.parse::<SigningAlgorithm>(),
            Err(SignError::UnknownAlgorithm(name.to_owned()))
        );
    }
}

#[test]
fn key_sets_are_checked() {
    let rsa = fixture_json::<Value>("signing/jwks.json")["keys"][1].clone();
    let short_rsa = json!({"kty": "RSA", "kid": "short", "n": URL_SAFE_NO_PAD.encode([0xc5; 128]), "e": "AQAB"});
    let cases = [
        (
            json!({"keys": [{"kty": "oct", "kid": "h", "k": "c2VjcmV0"}]}),
            "NoUsableKey",
        ),
        (json!({"keys": [short_rsa]}), "NoUsableKey"),
        (
            json!({"keys": [{"kty": "EC", "crv": "secp256k1", "kid": "k", "x": "AA", "y": "AA"}]}),
            "NoUsableKey",
        ),
        (json!({"keys": [rsa, rsa]}), "DuplicateKeyId"),
        (
            json!({"keys": [{"kty": "RSA", "n": rsa["n"], "e": "AQAB"}]}),
            "MissingKeyId",
        ),
        (json!({"keys": {}}), "NotAKeySet"),
        (json!([1, 2]), "NotAKeySet"),
    ];
    for (document, expected) in cases {
        let error = CardVerifier::from_jwks_value(&document).unwrap_err();
        let kind = match error {
            KeySetError::NoUsableKey { .. } => "NoUsableKey",
            KeySetError::DuplicateKeyId(_) => "DuplicateKeyId",
            KeySetError::MissingKeyId { .. } => "MissingKeyId",
            KeySetError::NotAKeySet(_) => "NotAKeySet",
            _ => "other",
        };
        assert_eq!(kind, expected, "{document}");
    }
    assert!(matches!(
        CardVerifier::from_jwks(b"{not json"),
        Err(KeySetError::NotAKeySet(_))
    ));
    // A single JWK is a key set of one; a symmetric key beside it is skipped, not trusted.
    let single = CardVerifier::from_jwks_value(&json!({"keys": [
        {"kty": "oct", "kid": "h", "k": "c2VjcmV0"}, rsa
    ]}))
    .unwrap();
    assert_eq!(single.key_ids().collect::<Vec<_>>(), ["rs256-test"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random signatures, and random protected headers naming a trusted key, never verify and never panic.
    #[test]
    fn random_signatures_are_refused(
        random in strategies_v1::agent_card_signature(),
        alg in proptest::sample::select(vec!["ES256", "RS256", "EdDSA", "none", "HS256", ""]),
        kid in proptest::sample::select(vec!["es256-test", "rs256-test", "eddsa-test", "x"]),
        signature in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut card = card();
        card.signatures.push(random);
        card.signatures.push(AgentCardSignature {
            protected: encode(&json!({"alg": alg, "kid": kid})),
            signature: URL_SAFE_NO_PAD.encode(signature),
            ..Default::default()
        });
        prop_assert!(
            matches!(verifier().verify(&card), Err(VerifyError::NoValidSignature(r)) if r.len() == 2)
        );
    }
}
