//! `a2a discover`: the agent's card from its well-known path, checked by the card rules (every
//! violation listed with its field path), its signatures verified with `--jwks`, and summarised for
//! people (or printed whole with `--json`). The interface the other verbs would call, with the
//! same `--binding` and `--version`, is named too.

use a2a_client::CardResolver;
use a2a_client::card::candidates;
use a2a_types::signing::CardVerifier;
use a2a_types::v1::AgentCard;

use super::args::DiscoverArgs;
use super::connect::{block_on, check_url, config, failure};
use super::output::Printer;
use crate::failure::Failure;

/// Prints the card and its checks; exit status 1 when it breaks a rule or no signature verifies.
pub fn run(args: &DiscoverArgs) -> Result<Vec<u8>, Failure> {
    check_url(&args.agent.url)?;
    let config = config(&args.agent)?;
    let verifier = args.jwks.as_deref().map(read_jwks).transpose()?;
    block_on(async {
        let resolver = CardResolver::from_config(&config).map_err(failure)?;
        let resolved = resolver.resolve(&args.agent.url).await.map_err(failure)?;
        let card = &resolved.card;
        let violations: Vec<String> = match card.check() {
            Ok(()) => Vec::new(),
            Err(violations) => violations
                .iter()
                .map(|v| format!("{}: {}", v.field, v.description))
                .collect(),
        };
        let verified = verifier.as_ref().map(|verifier| resolved.verify(verifier));
        let mut printer = Printer::new(args.agent.json);
        if printer.json() {
            printer.json_line(card)?;
        } else {
            let mut lines = summary(card, resolved.document_version.to_string());
            let chosen = candidates(card, &config.preference, &config.versions);
            lines.push(match chosen.first() {
                Some(c) => format!("calls go to: {} {} at {}", c.binding, c.version, c.interface.url),
                None => "calls go to: no interface this command speaks (with these --binding and --version)".to_owned(),
            });
            if violations.is_empty() {
                lines.push("valid: the card follows the card rules".to_owned());
            } else {
                lines.push(format!("not valid: {} violations", violations.len()));
                lines.extend(violations.iter().map(|v| format!("  {v}")));
            }
            lines.push(match &verified {
                None => format!(
                    "signatures: {} (not verified: no --jwks)",
                    card.signatures.len()
                ),
                Some(Ok(signature)) => format!(
                    "signatures: signatures[{}] verifies with key `{}` ({})",
                    signature.index, signature.kid, signature.algorithm
                ),
                Some(Err(reason)) => format!("signatures: none verifies: {reason}"),
            });
            printer.lines(&lines)?;
        }
        if !violations.is_empty() {
            return Err(Failure::input(format!(
                "the card is not valid: {}",
                violations.join("; ")
            )));
        }
        if let Some(Err(reason)) = verified {
            return Err(Failure::input(format!(
                "no signature of the card verifies with {}: {reason}",
                args.jwks.as_deref().unwrap_or_default()
            )));
        }
        Ok(Vec::new())
    })
}

/// The card for people: name, version, provider, interfaces, capabilities, security and skills.
fn summary(card: &AgentCard, document_version: String) -> Vec<String> {
    let mut lines = vec![format!("{} (version {})", card.name, card.version)];
    if !card.description.is_empty() {
        lines.push(format!("  {}", card.description.replace('\n', " ")));
    }
    lines.push(format!("card: A2A {document_version} document"));
    if let Some(provider) = &card.provider {
        lines.push(format!(
            "provider: {} ({})",
            provider.organization, provider.url
        ));
    }
    lines.push("interfaces:".to_owned());
    for interface in &card.supported_interfaces {
        lines.push(format!(
            "  {} {} at {}",
            interface.protocol_binding, interface.protocol_version, interface.url
        ));
    }
    let capabilities = &card.capabilities;
    let mut offered = Vec::new();
    if capabilities.streaming == Some(true) {
        offered.push("streaming");
    }
    if capabilities.push_notifications == Some(true) {
        offered.push("push notifications");
    }
    if capabilities.extended_agent_card == Some(true) {
        offered.push("extended card");
    }
    lines.push(format!(
        "capabilities: {}",
        if offered.is_empty() {
            "none".to_owned()
        } else {
            offered.join(", ")
        }
    ));
    if !card.security_schemes.is_empty() {
        let names: Vec<&str> = card.security_schemes.keys().map(String::as_str).collect();
        lines.push(format!("security schemes: {}", names.join(", ")));
    }
    lines.push(format!("skills: {}", card.skills.len()));
    for skill in &card.skills {
        lines.push(format!("  {}: {}", skill.id, skill.name));
    }
    lines
}

/// The JWK Set of `--jwks`.
fn read_jwks(path: &str) -> Result<CardVerifier, Failure> {
    let jwks = std::fs::read(path)
        .map_err(|e| Failure::input(format!("--jwks {path}: cannot read it: {e}")))?;
    CardVerifier::from_jwks(&jwks).map_err(|e| Failure::input(format!("--jwks {path}: {e}")))
}
