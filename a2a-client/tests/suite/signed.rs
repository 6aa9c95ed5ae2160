//! A client with a trust root (feature `signing`): cards served by the server crate with a signer
//! are accepted; an unsigned card, a card signed by a key not trusted, a key that does not fit the
//! signature's algorithm, and a card changed after signing (served by a loopback axum agent) are
//! refused with `ClientError::UntrustedCard` naming why. The extended card is held to the same rule.

use std::sync::Arc;
use std::time::Duration;

use a2a_client::{A2aClient, Binding, CardResolver, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::errors::Error;
use a2a_server::{A2aServer, AgentExecutor, BearerTokens, EventSink, RequestContext, Serving};
use a2a_types::signing::{CardSigner, CardVerifier, RejectReason, SigningAlgorithm, VerifyError};
use a2a_types::v1::{AgentCard, AgentSkill, GetExtendedAgentCardRequest};
use tokio::net::TcpListener;

use crate::agent::{json_response, rpc_result, serve, v1_card};

const LIMIT: Duration = Duration::from_secs(20);

struct Done;

#[a2a_server::async_trait]
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

/// The trust root: the fixtures' JWK Set (keys `es256-test`, `rs256-test`, `eddsa-test`), or only
/// some of its keys.
fn trusting(kids: &[&str]) -> ClientConfig {
    let jwks: serde_json::Value = serde_json::from_slice(&fixture("jwks.json")).unwrap();
    let keys: Vec<_> = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|key| kids.contains(&key["kid"].as_str().unwrap()))
        .cloned()
        .collect();
    let verifier = CardVerifier::from_jwks_value(&serde_json::json!({ "keys": keys })).unwrap();
    ClientConfig {
        retry: RetryPolicy::NONE,
        timeout: LIMIT,
        ..ClientConfig::default()
    }
    .only(Binding::JsonRpc)
    .trust_cards_signed_by(verifier)
}

/// The server crate's agent on loopback, its cards signed by `signer` (unsigned when `None`), its
/// extended card given to bearer `member-token`.
async fn signed_agent(signer: Option<CardSigner>) -> Serving {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", http.local_addr().unwrap());
    let grpc_url = format!("http://{}", grpc.local_addr().unwrap());
    let card = |name: &str| {
        AgentCard::builder(name, "Signs its cards.", "1.0.0")
            .jsonrpc(format!("{base}/jsonrpc"))
            .http_json(format!("{base}/rest"))
            .grpc(grpc_url.clone())
            .extended_agent_card(true)
            .security_scheme("bearer", BearerTokens::security_scheme("A member token"))
            .security_requirement([("bearer", Vec::<String>::new())])
            .default_input_modes(["text/plain"])
            .default_output_modes(["text/plain"])
            .skill(AgentSkill {
                id: "done".into(),
                name: "Done".into(),
                description: "Completes at once.".into(),
                tags: vec!["test".into()],
                ..Default::default()
            })
            .build()
            .expect("a valid card")
    };
    let mut builder = A2aServer::builder(card("Signed agent"), Done)
        .extended_card(card("Signed agent, for members"))
        .authenticator(BearerTokens::new().token("member-token", "member"));
    if let Some(signer) = signer {
        builder = builder.sign_card_with(signer);
    }
    builder.build().serve(http, grpc).await.unwrap()
}

/// The reason of an `UntrustedCard` error (any other outcome fails the test).
fn untrusted(result: Result<A2aClient, ClientError>) -> (String, VerifyError) {
    match result {
        Err(ClientError::UntrustedCard { card, reason }) => (card, reason),
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("an untrusted card was accepted"),
    }
}

fn only_rejection(reason: &VerifyError) -> &RejectReason {
    match reason {
        VerifyError::NoValidSignature(rejections) if rejections.len() == 1 => &rejections[0].reason,
        other => panic!("not one rejected signature: {other}"),
    }
}

#[tokio::test]
async fn cards_signed_by_a_trusted_key_are_accepted_well_known_and_extended() {
    // The extended card crosses each binding's wire form (gRPC: protobuf) with its signature intact.
    for (algorithm, pem, kid, binding) in [
        (
            SigningAlgorithm::Es256,
            "es256.pem",
            "es256-test",
            Binding::JsonRpc,
        ),
        (
            SigningAlgorithm::Rs256,
            "rs256.pem",
            "rs256-test",
            Binding::HttpJson,
        ),
        (
            SigningAlgorithm::EdDsa,
            "eddsa.pem",
            "eddsa-test",
            Binding::Grpc,
        ),
    ] {
        let agent = signed_agent(Some(signer(algorithm, pem, kid))).await;
        let config = trusting(&[kid]).only(binding).bearer_token("member-token");
        let run = async {
            let client = A2aClient::connect(&agent.base_url(), config).await?;
            let extended = client
                .get_extended_agent_card(GetExtendedAgentCardRequest::default())
                .await?;
            Ok::<_, ClientError>((client, extended))
        };
        let (client, extended) = tokio::time::timeout(LIMIT, run)
            .await
            .expect("in time")
            .unwrap_or_else(|e| panic!("{algorithm}: {e}"));
        assert_eq!(client.card().name, "Signed agent");
        assert_eq!(client.binding(), binding);
        assert_eq!(extended.name, "Signed agent, for members");
        agent.shutdown().await;
    }
}

#[tokio::test]
async fn an_unsigned_card_is_refused() {
    let agent = signed_agent(None).await;
    let base = agent.base_url();
    let connect = A2aClient::connect(&base, trusting(&["es256-test"]));
    let (card, reason) = untrusted(tokio::time::timeout(LIMIT, connect).await.unwrap());
    assert!(card.contains("/.well-known/agent-card.json"), "{card}");
    assert_eq!(reason, VerifyError::NoSignature);
    // The same card without a trust root is fine: the refusal is the trust root's.
    let plain = ClientConfig::default().only(Binding::JsonRpc);
    let base = agent.base_url();
    let connect = A2aClient::connect(&base, plain);
    assert!(tokio::time::timeout(LIMIT, connect).await.unwrap().is_ok());
    agent.shutdown().await;
}

#[tokio::test]
async fn a_card_signed_by_a_key_not_trusted_is_refused() {
    // Signed with the RSA key; only the EC and Ed25519 keys are trusted.
    let agent = signed_agent(Some(signer(
        SigningAlgorithm::Rs256,
        "rs256.pem",
        "rs256-test",
    )))
    .await;
    let base = agent.base_url();
    let connect = A2aClient::connect(&base, trusting(&["es256-test", "eddsa-test"]));
    let (_, reason) = untrusted(tokio::time::timeout(LIMIT, connect).await.unwrap());
    assert_eq!(
        only_rejection(&reason),
        &RejectReason::UnknownKey(Some("rs256-test".into()))
    );
    assert!(
        reason.to_string().contains("unknown key `rs256-test`"),
        "{reason}"
    );
    agent.shutdown().await;

    // Signed with the P-256 key under the `kid` of the trusted Ed25519 key: that key cannot verify
    // ES256, so the signature is refused without trying it.
    let impostor = signer(SigningAlgorithm::Es256, "es256.pem", "eddsa-test");
    let agent = signed_agent(Some(impostor)).await;
    let base = agent.base_url();
    let connect = A2aClient::connect(&base, trusting(&["eddsa-test"]));
    let (_, reason) = untrusted(tokio::time::timeout(LIMIT, connect).await.unwrap());
    assert!(
        matches!(only_rejection(&reason), RejectReason::KeyDoesNotFitAlgorithm { kid, .. } if kid == "eddsa-test"),
        "{reason}"
    );
    agent.shutdown().await;
}

#[tokio::test]
async fn a_card_changed_after_signing_is_refused_well_known_and_extended() {
    let card_signer = signer(SigningAlgorithm::EdDsa, "eddsa.pem", "eddsa-test");
    // A loopback axum agent: its well-known card is signed, then its description changed (as a
    // proxy or cache might); its extended card is signed, then renamed.
    let tamper = card_signer.clone();
    let agent = serve(move |request, _, base| {
        let mut card = v1_card(base, &[("/jsonrpc", "JSONRPC")]);
        tamper.sign(&mut card).expect("signs");
        if request.path.starts_with("/.well-known/") {
            card.description = "Answers what the test says, and more".into();
            json_response(200, &serde_json::to_value(&card).unwrap())
        } else {
            card.name = "Renamed agent".into();
            rpc_result(request, serde_json::to_value(&card).unwrap())
        }
    })
    .await;
    let connect = A2aClient::connect(&agent.base, trusting(&["eddsa-test"]));
    let (_, reason) = untrusted(tokio::time::timeout(LIMIT, connect).await.unwrap());
    assert_eq!(
        only_rejection(&reason),
        &RejectReason::SignatureMismatch {
            kid: "eddsa-test".into()
        }
    );

    // A client made from the card as signed (it verifies) still refuses the changed extended card.
    let mut genuine = v1_card(&agent.base, &[("/jsonrpc", "JSONRPC")]);
    card_signer.sign(&mut genuine).unwrap();
    let client = A2aClient::from_card(genuine, trusting(&["eddsa-test"])).expect("a trusted card");
    let extended = client.get_extended_agent_card(GetExtendedAgentCardRequest::default());
    match tokio::time::timeout(LIMIT, extended).await.unwrap() {
        Err(ClientError::UntrustedCard { card, reason }) => {
            assert_eq!(card, "of GetExtendedAgentCard");
            assert!(matches!(
                only_rejection(&reason),
                RejectReason::SignatureMismatch { .. }
            ));
        }
        other => panic!("the changed extended card was not refused: {other:?}"),
    }
    // One card request and one GetExtendedAgentCard: nothing was retried or called besides.
    assert_eq!(agent.requests().len(), 2);
}

#[tokio::test]
async fn a_card_given_to_from_card_is_checked_and_a_cached_card_too() {
    let unsigned = v1_card("http://127.0.0.1:1", &[("/jsonrpc", "JSONRPC")]);
    let (card, reason) = untrusted(A2aClient::from_card(unsigned, trusting(&["es256-test"])));
    assert_eq!(card, "given to A2aClient::from_card");
    assert_eq!(reason, VerifyError::NoSignature);

    // A resolver's cached card is checked on every use: the trust root decides, not the cache.
    let agent = signed_agent(Some(signer(
        SigningAlgorithm::Es256,
        "es256.pem",
        "es256-test",
    )))
    .await;
    let plain = CardResolver::from_config(&ClientConfig::default()).unwrap();
    let first = plain.resolve(&agent.base_url()).await.unwrap();
    assert!(!first.from_cache);
    let verifier = Arc::new(CardVerifier::from_jwks(&fixture("jwks.json")).unwrap());
    assert_eq!(first.verify(&verifier).unwrap().kid, "es256-test");
    // The server's card is fresh for five minutes: the second client is made from the cache, and
    // one trusting another key refuses that cached card.
    let config = trusting(&["eddsa-test"]);
    let result = A2aClient::connect_with(&plain, &agent.base_url(), config).await;
    let (_, reason) = untrusted(result);
    assert!(matches!(
        only_rejection(&reason),
        RejectReason::UnknownKey(Some(kid)) if kid == "es256-test"
    ));
    let trusting_resolver = CardResolver::from_config(&ClientConfig::default())
        .unwrap()
        .with_verifier(verifier);
    let resolved = trusting_resolver.resolve(&agent.base_url()).await.unwrap();
    assert_eq!(resolved.card.name, "Signed agent");
    agent.shutdown().await;
}

/// A v0.3 card under `base`: JSON-RPC at `/jsonrpc`, also listed among `additionalInterfaces`.
fn v0_3_card(base: &str) -> serde_json::Value {
    serde_json::json!({
        "protocolVersion": "0.3.0",
        "name": "A v0.3 agent",
        "description": "Speaks A2A v0.3",
        "version": "1.0.0",
        "url": format!("{base}/jsonrpc"),
        "preferredTransport": "JSONRPC",
        "additionalInterfaces": [
            {"url": format!("{base}/jsonrpc"), "transport": "JSONRPC"},
            {"url": format!("{base}/v1"), "transport": "HTTP+JSON"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"]}]
    })
}

#[tokio::test]
async fn a_v0_3_card_is_checked_in_the_v1_form_its_signature_covers() {
    let card_signer = signer(SigningAlgorithm::Es256, "es256.pem", "es256-test");
    let signing = card_signer.clone();
    let agent = serve(move |request, _, base| {
        let mut card = v0_3_card(base);
        // Signed as the official SDK 1.3.0 signs a v0.3 card: over its card reader's v1 form.
        let typed: a2a_compat::v0_3::AgentCard = serde_json::from_value(card.clone()).unwrap();
        let signed_form = a2a_compat::v0_3::signing::v0_3_card_as_v1(&typed);
        let signature = signing.signature(&signed_form).expect("signs");
        card["signatures"] = serde_json::json!([signature]);
        if request.path.starts_with("/tampered/") {
            card["description"] = "Speaks A2A v0.3, changed".into();
        }
        json_response(200, &card)
    })
    .await;
    let resolver = CardResolver::from_config(&ClientConfig::default()).unwrap();
    let resolved = resolver.resolve(&agent.base).await.unwrap();
    let verifier = CardVerifier::from_jwks(&fixture("jwks.json")).unwrap();
    assert_eq!(resolved.verify(&verifier).unwrap().kid, "es256-test");
    // The bridge's form (additional interfaces at `0.3`, not the card's `0.3.0`) is not what was
    // signed: checking it would refuse a genuine card.
    assert!(verifier.verify(&resolved.card).is_err());

    let client = A2aClient::connect(&agent.base, trusting(&["es256-test"]))
        .await
        .expect("the signed v0.3 card is trusted");
    assert_eq!(client.card().name, "A v0.3 agent");

    let tampered = format!("{}/tampered", agent.base);
    let connect = A2aClient::connect(&tampered, trusting(&["es256-test"]));
    let (_, reason) = untrusted(tokio::time::timeout(LIMIT, connect).await.unwrap());
    assert!(matches!(
        only_rejection(&reason),
        RejectReason::SignatureMismatch { .. }
    ));
}
