//! Signed cards (feature `signing`): an agent given a `CardSigner` serves its well-known card and its
//! extended card signed; a client holding the signer's public JWK verifies the card fetched over
//! loopback, and refuses it once changed. A card that cannot be signed is a typed build error.

use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service::WELL_KNOWN_AGENT_CARD_PATH;
use a2a_server::{
    A2aServer, AgentExecutor, BuildError, CallContext, Caller, EventSink, Reply, RequestContext,
    async_trait,
};
use a2a_types::signing::{CardSigner, CardVerifier, SignError, SigningAlgorithm, VerifyError};
use a2a_types::v1::{AgentCard, AgentExtension, AgentSkill, GetExtendedAgentCardRequest};
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(20);

struct Done;

#[async_trait]
impl AgentExecutor for Done {
    async fn execute(&self, _context: RequestContext, events: EventSink) -> Result<(), Error> {
        events.complete_with_text("done").await?;
        Ok(())
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../tests/fixtures/signing/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn signer(algorithm: SigningAlgorithm, pem: &str, kid: &str) -> CardSigner {
    CardSigner::from_pem(&fixture(pem), algorithm, kid).expect("a test key")
}

/// A verifier trusting exactly the signer's public key.
fn verifier_of(signer: &CardSigner) -> CardVerifier {
    let jwks = json!({ "keys": [signer.public_jwk().expect("a public key")] });
    CardVerifier::from_jwks_value(&jwks).expect("a key set")
}

fn card(name: &str) -> AgentCard {
    AgentCard::builder(name, "Signs its card; naïve café ☕ 𝄞.", "1.0.0")
        .jsonrpc("http://127.0.0.1:1/jsonrpc")
        .extended_agent_card(true)
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(AgentSkill {
            id: "sign".into(),
            name: "Sign".into(),
            description: "Answers with a signed card.".into(),
            tags: vec!["signing".into()],
            ..Default::default()
        })
        .extension(AgentExtension {
            uri: Some("https://example.com/ext/limits".into()),
            params: json!({"max": 1e21, "ratio": 1.0, "tiny": 5e-324, "empty": ""})
                .as_object()
                .cloned(),
            ..Default::default()
        })
        .build()
        .expect("a valid card")
}

async fn loopback() -> (tokio::net::TcpListener, tokio::net::TcpListener) {
    (
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    )
}

#[tokio::test]
async fn the_served_well_known_card_verifies_and_a_changed_one_does_not() {
    for (algorithm, pem, kid) in [
        (SigningAlgorithm::Es256, "es256.pem", "es256-test"),
        (SigningAlgorithm::Rs256, "rs256.pem", "rs256-test"),
        (SigningAlgorithm::EdDsa, "eddsa.pem", "eddsa-test"),
    ] {
        let signer = signer(algorithm, pem, kid).with_jku("http://127.0.0.1/jwks.json");
        let server = A2aServer::builder(card("Signed"), Done)
            .sign_card_with(signer.clone())
            .try_build()
            .expect("the card signs");
        let (http, grpc) = loopback().await;
        let serving = server.serve(http, grpc).await.unwrap();
        let url = format!("{}{WELL_KNOWN_AGENT_CARD_PATH}", serving.base_url());
        let fetch = async {
            let response = reqwest::get(&url).await.expect("the card is served");
            assert!(response.status().is_success(), "{}", response.status());
            response.bytes().await.expect("a body")
        };
        let body = tokio::time::timeout(LIMIT, fetch).await.expect("in time");
        serving.shutdown().await;

        let mut fetched: AgentCard = serde_json::from_slice(&body).expect("a v1 card");
        assert_eq!(fetched.signatures.len(), 1, "{algorithm}: one signature");
        // The JSON as served carries the JWS parts, the header naming the key and algorithm.
        let raw: Value = serde_json::from_slice(&body).unwrap();
        assert!(raw["signatures"][0]["protected"].is_string());
        assert!(raw["signatures"][0]["signature"].is_string());

        let verifier = verifier_of(&signer);
        let verified = verifier.verify(&fetched).expect("the served card verifies");
        assert_eq!(verified.kid, kid);
        assert_eq!(verified.algorithm, algorithm);
        // The fixtures' JWK Set, as a client would hold it, trusts it too.
        let published = CardVerifier::from_jwks(&fixture("jwks.json")).unwrap();
        assert_eq!(published.verify(&fetched).unwrap().kid, kid);

        fetched.description.push('!');
        assert!(
            matches!(
                verifier.verify(&fetched),
                Err(VerifyError::NoValidSignature(_))
            ),
            "{algorithm}: a changed card must not verify"
        );
    }
}

#[tokio::test]
async fn the_extended_card_is_served_signed_too() {
    let signer = signer(SigningAlgorithm::Es256, "es256.pem", "es256-test");
    let server = A2aServer::builder(card("Public"), Done)
        .extended_card(card("Extended, for members"))
        .sign_card_with(signer.clone())
        .build();
    let context = CallContext::new(Caller::authenticated("member"), "test");
    let request = MethodParams::GetExtendedAgentCard(GetExtendedAgentCardRequest::default());
    let reply = tokio::time::timeout(LIMIT, server.call(request, &context))
        .await
        .expect("in time")
        .expect("the extended card");
    let Reply::Unary(MethodResult::GetExtendedAgentCard(mut extended)) = reply else {
        panic!("not the extended card");
    };
    assert_eq!(extended.name, "Extended, for members");
    let verifier = verifier_of(&signer);
    assert_eq!(verifier.verify(&extended).unwrap().kid, "es256-test");
    assert_eq!(verifier.verify(server.card()).unwrap().kid, "es256-test");
    extended.name = "Public".into();
    assert!(verifier.verify(&extended).is_err());
}

#[tokio::test]
async fn a_card_already_signed_keeps_its_signature_and_gets_one_more() {
    let first = signer(SigningAlgorithm::EdDsa, "eddsa.pem", "eddsa-test");
    let second = signer(SigningAlgorithm::Rs256, "rs256.pem", "rs256-test");
    let mut signed = card("Twice");
    first.sign(&mut signed).unwrap();
    let server = A2aServer::builder(signed, Done)
        .sign_card_with(second.clone())
        .build();
    assert_eq!(server.card().signatures.len(), 2);
    assert_eq!(verifier_of(&first).verify(server.card()).unwrap().index, 0);
    assert_eq!(verifier_of(&second).verify(server.card()).unwrap().index, 1);
}

#[tokio::test]
async fn a_card_that_cannot_be_signed_is_a_typed_build_error() {
    let mut params = json!("deep");
    for _ in 0..200 {
        params = json!({ "inner": params });
    }
    let mut deep = card("Deep");
    deep.capabilities.extensions[0].params = params.as_object().cloned();
    let signer = signer(SigningAlgorithm::Es256, "es256.pem", "es256-test");
    let error = A2aServer::builder(deep, Done)
        .sign_card_with(signer)
        .try_build()
        .expect_err("no canonical form");
    let BuildError::CardNotSigned { card, error } = &error else {
        panic!("another error: {error}");
    };
    assert_eq!(*card, "card");
    let SignError::NotCanonicalizable(reason) = error else {
        panic!("another sign error: {error}");
    };
    assert!(
        reason
            .path()
            .starts_with("capabilities.extensions[0].params"),
        "{}",
        reason.path()
    );
}
