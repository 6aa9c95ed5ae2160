//! `a2a card`: signed agent cards (`a2a_types::signing`): sign a card, verify its signatures against a
//! trusted JWK Set, print its canonical bytes, or print the public JWK Set of a signing key.

use std::io::Read;

use a2a_types::signing::{CardSigner, CardVerifier, SigningAlgorithm};
use a2a_types::v1::AgentCard;
use serde::de::DeserializeOwned;

use crate::cli::{CanonicalizeArgs, CardCommand, KeyArgs, SignArgs, VerifyArgs};
use crate::failure::Failure;

/// Runs one `a2a card` subcommand on the card read from `stdin`; returns what to write to stdout.
pub fn run(command: &CardCommand, stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    match command {
        CardCommand::Sign(args) => sign(args, stdin),
        CardCommand::Verify(args) => verify(args, stdin),
        CardCommand::Canonicalize(args) => canonicalize(args, stdin),
        CardCommand::Jwks(args) => jwks(args),
    }
}

fn sign(args: &SignArgs, stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    let signer = signer(&args.key)?;
    let signer = match &args.jku {
        Some(jku) => signer.with_jku(jku),
        None => signer,
    };
    let mut card: AgentCard = read_card(stdin, "lf.a2a.v1.AgentCard")?;
    signer
        .sign(&mut card)
        .map_err(|e| Failure::input(e.to_string()))?;
    let mut output = if args.pretty {
        serde_json::to_vec_pretty(&card)
    } else {
        serde_json::to_vec(&card)
    }
    .map_err(|e| Failure::input(format!("cannot write the card: {e}")))?;
    output.push(b'\n');
    Ok(output)
}

fn verify(args: &VerifyArgs, stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    let jwks = std::fs::read(&args.jwks)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.jwks)))?;
    let mut verifier = CardVerifier::from_jwks(&jwks)
        .map_err(|e| Failure::input(format!("{}: {e}", args.jwks)))?;
    if !args.alg.is_empty() {
        verifier = verifier.with_algorithms(algorithms(&args.alg)?);
    }
    let card = read_any_card(stdin)?;
    let verified = verifier
        .verify(&card)
        .map_err(|e| Failure::input(e.to_string()))?;
    Ok(format!(
        "valid: signatures[{}] verifies with key `{}` ({})\n",
        verified.index, verified.kid, verified.algorithm
    )
    .into_bytes())
}

fn canonicalize(args: &CanonicalizeArgs, stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    let canonical = if args.v0_3 {
        let card: a2a_compat::v0_3::AgentCard = read_card(stdin, "the v0.3 AgentCard")?;
        a2a_compat::v0_3::signing::canonicalize_v0_3(&card)
    } else {
        let card: AgentCard = read_card(stdin, "lf.a2a.v1.AgentCard")?;
        a2a_types::signing::canonicalize(&card)
    };
    // The exact bytes a signature covers: no newline is added.
    canonical.map_err(|e| Failure::input(format!("the card cannot be canonicalized: {e}")))
}

fn jwks(args: &KeyArgs) -> Result<Vec<u8>, Failure> {
    let jwk = signer(args)?
        .public_jwk()
        .map_err(|e| Failure::input(e.to_string()))?;
    let document = serde_json::json!({ "keys": [jwk] });
    let mut output = serde_json::to_vec_pretty(&document).expect("a JSON value always serializes");
    output.push(b'\n');
    Ok(output)
}

/// The signer of `--key`, `--kid` and `--alg`.
fn signer(args: &KeyArgs) -> Result<CardSigner, Failure> {
    let algorithm = algorithms(std::slice::from_ref(&args.alg))?[0];
    let pem = std::fs::read(&args.key)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.key)))?;
    CardSigner::from_pem(&pem, algorithm, &args.kid)
        .map_err(|e| Failure::input(format!("{}: {e}", args.key)))
}

/// `--alg` values as algorithms; an unknown name is a usage error.
fn algorithms(names: &[String]) -> Result<Vec<SigningAlgorithm>, Failure> {
    names
        .iter()
        .map(|name| {
            name.parse::<SigningAlgorithm>()
                .map_err(|e| Failure::usage(format!("--alg: {e}")))
        })
        .collect()
}

/// Reads a card of either version from stdin, a v0.3 card (one with `url` and no
/// `supportedInterfaces`) converted to v1, as the official SDK's client reads a fetched card: its
/// signatures cover that v1 form (`a2a_compat::v0_3::signing::canonicalize_v0_3`).
fn read_any_card(stdin: &mut impl Read) -> Result<AgentCard, Failure> {
    let mut text = Vec::new();
    stdin
        .read_to_end(&mut text)
        .map_err(|e| Failure::input(format!("cannot read stdin: {e}")))?;
    let json: serde_json::Value = a2a_types::json::from_slice(&text)
        .map_err(|e| Failure::input(format!("invalid JSON at `{}`: {}", e.path(), e.inner())))?;
    let version = a2a_compat::bridge::AnyAgentCard::detect(&json);
    if version == Some(a2a_protocol::service::ProtocolVersion::V0_3) {
        let card: a2a_compat::v0_3::AgentCard = parse(&text, "the v0.3 AgentCard")?;
        Ok(a2a_compat::v0_3::signing::v0_3_card_as_v1(&card))
    } else {
        parse(&text, "lf.a2a.v1.AgentCard")
    }
}

/// Reads one card from stdin, the error naming the JSON path at fault.
fn read_card<T: DeserializeOwned>(stdin: &mut impl Read, what: &str) -> Result<T, Failure> {
    let mut text = Vec::new();
    stdin
        .read_to_end(&mut text)
        .map_err(|e| Failure::input(format!("cannot read stdin: {e}")))?;
    parse(&text, what)
}

fn parse<T: DeserializeOwned>(text: &[u8], what: &str) -> Result<T, Failure> {
    a2a_types::json::from_slice(text).map_err(|e| {
        Failure::input(format!(
            "invalid JSON for {what} at `{}`: {}",
            e.path(),
            e.inner()
        ))
    })
}
