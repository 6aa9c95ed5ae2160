//! The agent's cards, built with the card builder from the `#[a2a_skill]` functions: the public card
//! at the well-known path, and the extended card `GetExtendedAgentCard` returns to a caller with the
//! bearer token. The card declares the bearer scheme (`securitySchemes.bearer`, and a security requirement
//! naming it), which is what the server's authentication hook (`a2a_server::BearerTokens`) checks.

use std::net::SocketAddr;

use a2a_server::BearerTokens;
use a2a_server::auth::CardSecurity;
use a2a_types::v1::{AgentCard, AgentExtension, AgentSkill, SecurityRequirement};

use super::config::Config;
use super::skills;

/// The path of the JSON-RPC endpoint (v1 and v0.3).
pub const JSONRPC_PATH: &str = "/jsonrpc";
/// The path the HTTP+JSON routes hang under.
pub const REST_PATH: &str = "/rest";

/// The public card (`extended` false) or the extended one, for an agent serving HTTP on `http` and
/// gRPC on `grpc`.
pub fn build(config: &Config, http: SocketAddr, grpc: SocketAddr, extended: bool) -> AgentCard {
    build_declaring(config, http, grpc, extended, None)
}

/// The same card, declaring `security` (a protected agent's [`Security`](a2a_server::Security))
/// instead of the extended card's bearer token. Either way the skills' security requirements keep
/// only the alternatives that name declared schemes.
pub fn build_declaring(
    config: &Config,
    http: SocketAddr,
    grpc: SocketAddr,
    extended: bool,
    security: Option<&CardSecurity>,
) -> AgentCard {
    let scheme = if config.tls.is_some() {
        "https"
    } else {
        "http"
    };
    let jsonrpc = format!("{scheme}://{http}{JSONRPC_PATH}");
    let rest = format!("{scheme}://{http}{REST_PATH}");
    // gRPC over TLS is named by its URL; plain gRPC by `host:port`, which the SDKs' clients take.
    let grpc = if config.tls.is_some() {
        format!("https://{grpc}")
    } else {
        grpc.to_string()
    };
    let mut builder = AgentCard::builder(
        "Wayfarer (example agent)",
        "Plans trips and books hotels; also follows the conformance kits' messageId conventions.",
        "1.0.0",
    )
    .jsonrpc(&jsonrpc)
    .http_json(&rest)
    // gRPC takes its own port; the SDK's gRPC client takes `host:port` as its target.
    .grpc(&grpc)
    // A2A v0.3 clients on the same endpoints: JSON-RPC first (v0.3's preferred transport; no
    // A2A-Version header means 0.3), HTTP+JSON at the same prefix (v0.3's routes start with `/v1/`),
    // and gRPC on the same port (v0.3's service has a package of its own).
    .jsonrpc_v0_3(&jsonrpc)
    .http_json_v0_3(&rest)
    .grpc_v0_3(&grpc)
    .provider(
        "a2a-types examples",
        "https://github.com/a2a-rs-types/a2a-types",
    )
    .streaming(true)
    .push_notifications(config.push_notifications)
    // Declared even without a token configured: the method then answers
    // ExtendedAgentCardNotConfigured, which clients can only see when the capability is declared.
    .extended_agent_card(true)
    .default_input_modes(["text/plain"])
    .default_output_modes(["text/plain", "application/json"])
    .skills(
        if extended {
            skills::extended_skills()
        } else {
            skills::public_skills()
        }
        .into_iter()
        .map(|skill| declared_only(skill, &declared_schemes(config, security))),
    );
    if let Some(security) = security {
        for (name, scheme) in &security.schemes {
            builder = builder.security_scheme(name, scheme.clone());
        }
        for requirement in &security.requirements {
            builder = builder.security_requirement(
                requirement
                    .schemes
                    .iter()
                    .map(|(name, scopes)| (name.clone(), scopes.list.clone())),
            );
        }
    } else if config.extended_card_token.is_some() {
        builder = builder
            .security_scheme(
                "bearer",
                // The card says how to authenticate, never with what: the token is the operator's.
                BearerTokens::security_scheme(
                    "The extended card needs `Authorization: Bearer <token>`, with the token the agent \
                     was given. Other operations also serve anonymous callers.",
                ),
            )
            // Bearer, or nothing: the empty requirement says anonymous callers are served too.
            .security_requirement([("bearer", Vec::<String>::new())])
            .security_requirement(Vec::<(String, Vec<String>)>::new());
    }
    for uri in &config.required_extensions {
        builder = builder.extension(AgentExtension {
            uri: Some(uri.clone()),
            description: Some(
                "Every request must activate this extension (A2A-Extensions).".into(),
            ),
            required: Some(true),
            ..Default::default()
        });
    }
    if extended {
        builder = builder.documentation_url("https://a2a-protocol.org/");
    }
    builder
        .build()
        .unwrap_or_else(|violations| unreachable!("the example card breaks the spec: {violations}"))
}

/// The names of the security schemes the card declares: `security`'s, else the extended card's
/// bearer token when there is one.
fn declared_schemes(config: &Config, security: Option<&CardSecurity>) -> Vec<String> {
    match security {
        Some(security) => security
            .schemes
            .iter()
            .map(|(name, _)| name.clone())
            .collect(),
        None if config.extended_card_token.is_some() => vec!["bearer".to_owned()],
        None => Vec::new(),
    }
}

/// `skill` with only the security requirements that name schemes in `declared`: the card names no
/// scheme it does not declare. When none of them is declared, a caller of any declared scheme (an
/// authenticated caller, which is what the skill asks for); with no scheme declared at all, there
/// is no one to authenticate, and the skill keeps no requirement.
fn declared_only(mut skill: AgentSkill, declared: &[String]) -> AgentSkill {
    let mut kept: Vec<SecurityRequirement> = skill
        .security_requirements
        .iter()
        .filter(|requirement| {
            requirement
                .schemes
                .keys()
                .all(|scheme| declared.contains(scheme))
        })
        .cloned()
        .collect();
    if kept.is_empty() && !skill.security_requirements.is_empty() {
        kept = declared
            .iter()
            .map(|scheme| SecurityRequirement::new([(scheme.as_str(), Vec::<String>::new())]))
            .collect();
    }
    skill.security_requirements = kept;
    skill
}
