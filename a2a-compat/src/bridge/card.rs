//! The agent card and what it holds: interfaces, capabilities, skills, security.

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use std::collections::BTreeMap;

use super::sdk_compat::{
    is_legacy_version, member_without_counterpart, nonempty, nonempty_list, nonempty_string,
    nonempty_struct,
};
use super::{BridgeError, BridgeErrorKind};
use a2a_types::v1;

use crate::v0_3;

/// The protocol version the SDK writes for v0.3 interfaces, and assumes where a card names none.
pub const V0_3_PROTOCOL_VERSION: &str = "0.3";

// ---------------------------------------------------------------------------------------------------
// Small pieces

/// Lossless.
impl From<v0_3::AgentProvider> for v1::AgentProvider {
    fn from(provider: v0_3::AgentProvider) -> Self {
        v1::AgentProvider {
            url: provider.url,
            organization: provider.organization,
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::AgentProvider> for v0_3::AgentProvider {
    fn from(provider: v1::AgentProvider) -> Self {
        v0_3::AgentProvider {
            organization: provider.organization,
            url: provider.url,
        }
    }
}

/// `transport` → `protocolBinding`; `protocolVersion` is set to `"0.3"`.
impl From<v0_3::AgentInterface> for v1::AgentInterface {
    fn from(interface: v0_3::AgentInterface) -> Self {
        v1::AgentInterface {
            url: interface.url,
            protocol_binding: interface.transport,
            tenant: None,
            protocol_version: V0_3_PROTOCOL_VERSION.to_owned(),
            ..Default::default()
        }
    }
}

/// `protocolBinding` → `transport`; `protocolVersion` and `tenant` are lost.
impl From<v1::AgentInterface> for v0_3::AgentInterface {
    fn from(interface: v1::AgentInterface) -> Self {
        v0_3::AgentInterface {
            transport: interface.protocol_binding,
            url: interface.url,
        }
    }
}

/// Every field carries over; empty `uri`, `description` and `params` are dropped.
impl From<v0_3::AgentExtension> for v1::AgentExtension {
    fn from(extension: v0_3::AgentExtension) -> Self {
        v1::AgentExtension {
            uri: nonempty_string(extension.uri),
            description: nonempty(extension.description),
            required: extension.required.filter(|r| *r),
            params: nonempty_struct(extension.params),
            ..Default::default()
        }
    }
}

/// Every field carries over; `required` is always written (`false` when unset).
impl From<v1::AgentExtension> for v0_3::AgentExtension {
    fn from(extension: v1::AgentExtension) -> Self {
        v0_3::AgentExtension {
            description: nonempty(extension.description),
            params: extension.params,
            required: Some(extension.required.unwrap_or(false)),
            uri: extension.uri.unwrap_or_default(),
        }
    }
}

/// `streaming`, `pushNotifications` and `extensions`; `stateTransitionHistory` is lost (v1 dropped it).
/// The card-level `supportsAuthenticatedExtendedCard` is moved here by the card conversion.
impl From<v0_3::AgentCapabilities> for v1::AgentCapabilities {
    fn from(capabilities: v0_3::AgentCapabilities) -> Self {
        v1::AgentCapabilities {
            streaming: capabilities.streaming,
            push_notifications: capabilities.push_notifications,
            extensions: capabilities
                .extensions
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            extended_agent_card: None,
            ..Default::default()
        }
    }
}

/// `streaming`, `pushNotifications` and `extensions`; `extendedAgentCard` moves to the card's
/// `supportsAuthenticatedExtendedCard` in the card conversion and is lost here.
impl From<v1::AgentCapabilities> for v0_3::AgentCapabilities {
    fn from(capabilities: v1::AgentCapabilities) -> Self {
        v0_3::AgentCapabilities {
            extensions: nonempty_list(
                capabilities
                    .extensions
                    .into_iter()
                    .map(Into::into)
                    .collect(),
            ),
            push_notifications: capabilities.push_notifications,
            state_transition_history: None,
            streaming: capabilities.streaming,
        }
    }
}

/// A v0.3 security requirement (scheme name → scopes) as v1's `SecurityRequirement`. Lossless.
fn requirement_to_v1(requirement: BTreeMap<String, Vec<String>>) -> v1::SecurityRequirement {
    v1::SecurityRequirement {
        schemes: requirement
            .into_iter()
            .map(|(name, list)| {
                (
                    name,
                    v1::StringList {
                        list,
                        ..Default::default()
                    },
                )
            })
            .collect(),
        ..Default::default()
    }
}

/// v1's `SecurityRequirement` as v0.3 writes it: scheme name → scopes. Lossless.
fn requirement_to_v0_3(requirement: v1::SecurityRequirement) -> BTreeMap<String, Vec<String>> {
    requirement
        .schemes
        .into_iter()
        .map(|(name, scopes)| (name, scopes.list))
        .collect()
}

fn requirements_to_v1(
    requirements: Option<Vec<BTreeMap<String, Vec<String>>>>,
) -> Vec<v1::SecurityRequirement> {
    requirements
        .unwrap_or_default()
        .into_iter()
        .map(requirement_to_v1)
        .collect()
}

fn requirements_to_v0_3(
    requirements: Vec<v1::SecurityRequirement>,
) -> Option<Vec<BTreeMap<String, Vec<String>>>> {
    nonempty_list(requirements.into_iter().map(requirement_to_v0_3).collect())
}

/// Every field carries over (`security` → `securityRequirements`); empty lists are dropped.
impl From<v0_3::AgentSkill> for v1::AgentSkill {
    fn from(skill: v0_3::AgentSkill) -> Self {
        v1::AgentSkill {
            id: skill.id,
            name: skill.name,
            description: skill.description,
            tags: skill.tags,
            examples: skill.examples.unwrap_or_default(),
            input_modes: skill.input_modes.unwrap_or_default(),
            output_modes: skill.output_modes.unwrap_or_default(),
            security_requirements: requirements_to_v1(skill.security),
            ..Default::default()
        }
    }
}

/// Every field carries over (`securityRequirements` → `security`); empty lists are left out.
impl From<v1::AgentSkill> for v0_3::AgentSkill {
    fn from(skill: v1::AgentSkill) -> Self {
        v0_3::AgentSkill {
            description: skill.description,
            examples: nonempty_list(skill.examples),
            id: skill.id,
            input_modes: nonempty_list(skill.input_modes),
            name: skill.name,
            output_modes: nonempty_list(skill.output_modes),
            security: requirements_to_v0_3(skill.security_requirements),
            tags: skill.tags,
        }
    }
}

/// Every field carries over; an empty `header` object is dropped.
impl From<v0_3::AgentCardSignature> for v1::AgentCardSignature {
    fn from(signature: v0_3::AgentCardSignature) -> Self {
        v1::AgentCardSignature {
            protected: signature.protected,
            signature: signature.signature,
            header: nonempty_struct(signature.header),
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::AgentCardSignature> for v0_3::AgentCardSignature {
    fn from(signature: v1::AgentCardSignature) -> Self {
        v0_3::AgentCardSignature {
            header: signature.header,
            protected: signature.protected,
            signature: signature.signature,
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// OAuth flows

/// Lossless.
impl From<v0_3::AuthorizationCodeOAuthFlow> for v1::AuthorizationCodeOAuthFlow {
    fn from(flow: v0_3::AuthorizationCodeOAuthFlow) -> Self {
        v1::AuthorizationCodeOAuthFlow {
            authorization_url: flow.authorization_url,
            token_url: flow.token_url,
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            pkce_required: None,
            ..Default::default()
        }
    }
}

/// `pkceRequired` is lost (v0.3 has no such field).
impl From<v1::AuthorizationCodeOAuthFlow> for v0_3::AuthorizationCodeOAuthFlow {
    fn from(flow: v1::AuthorizationCodeOAuthFlow) -> Self {
        v0_3::AuthorizationCodeOAuthFlow {
            authorization_url: flow.authorization_url,
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

/// Lossless.
impl From<v0_3::ClientCredentialsOAuthFlow> for v1::ClientCredentialsOAuthFlow {
    fn from(flow: v0_3::ClientCredentialsOAuthFlow) -> Self {
        v1::ClientCredentialsOAuthFlow {
            token_url: flow.token_url,
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::ClientCredentialsOAuthFlow> for v0_3::ClientCredentialsOAuthFlow {
    fn from(flow: v1::ClientCredentialsOAuthFlow) -> Self {
        v0_3::ClientCredentialsOAuthFlow {
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

/// Lossless.
impl From<v0_3::ImplicitOAuthFlow> for v1::ImplicitOAuthFlow {
    fn from(flow: v0_3::ImplicitOAuthFlow) -> Self {
        v1::ImplicitOAuthFlow {
            authorization_url: nonempty_string(flow.authorization_url),
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            ..Default::default()
        }
    }
}

/// An absent `authorizationUrl` becomes `""` (it is required in v0.3).
impl From<v1::ImplicitOAuthFlow> for v0_3::ImplicitOAuthFlow {
    fn from(flow: v1::ImplicitOAuthFlow) -> Self {
        v0_3::ImplicitOAuthFlow {
            authorization_url: flow.authorization_url.unwrap_or_default(),
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
        }
    }
}

/// Lossless.
impl From<v0_3::PasswordOAuthFlow> for v1::PasswordOAuthFlow {
    fn from(flow: v0_3::PasswordOAuthFlow) -> Self {
        v1::PasswordOAuthFlow {
            token_url: nonempty_string(flow.token_url),
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            ..Default::default()
        }
    }
}

/// An absent `tokenUrl` becomes `""` (it is required in v0.3).
impl From<v1::PasswordOAuthFlow> for v0_3::PasswordOAuthFlow {
    fn from(flow: v1::PasswordOAuthFlow) -> Self {
        v0_3::PasswordOAuthFlow {
            refresh_url: nonempty(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url.unwrap_or_default(),
        }
    }
}

/// v0.3's flows as v1's `OAuthFlows`, which holds exactly one flow: as in the SDK, when several are
/// given the last one in the order `authorizationCode`, `clientCredentials`, `implicit`, `password`
/// wins and the others are lost. `None` when no flow is given (the SDK writes `"flows": {}`).
pub fn oauth_flows_to_v1(flows: v0_3::OAuthFlows) -> Option<v1::OAuthFlows> {
    let v0_3::OAuthFlows {
        authorization_code,
        client_credentials,
        implicit,
        password,
    } = flows;
    password
        .map(|f| v1::OAuthFlows::Password(f.into()))
        .or_else(|| implicit.map(|f| v1::OAuthFlows::Implicit(f.into())))
        .or_else(|| client_credentials.map(|f| v1::OAuthFlows::ClientCredentials(f.into())))
        .or_else(|| authorization_code.map(|f| v1::OAuthFlows::AuthorizationCode(f.into())))
}

/// See [`oauth_flows_to_v1`]; fails when no flow is given, which v1's `OAuthFlows` cannot express.
impl TryFrom<v0_3::OAuthFlows> for v1::OAuthFlows {
    type Error = BridgeError;

    fn try_from(flows: v0_3::OAuthFlows) -> Result<Self, BridgeError> {
        oauth_flows_to_v1(flows).ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::EmptyOneof {
                message: "lf.a2a.v1.OAuthFlows",
            })
        })
    }
}

/// The one flow, under its name; a `deviceCode` flow (or a flow a later v1 adds) is lost (v0.3 has
/// none), leaving no flow.
impl From<v1::OAuthFlows> for v0_3::OAuthFlows {
    fn from(flows: v1::OAuthFlows) -> Self {
        let mut out = v0_3::OAuthFlows::default();
        match flows {
            v1::OAuthFlows::AuthorizationCode(f) => out.authorization_code = Some(f.into()),
            v1::OAuthFlows::ClientCredentials(f) => out.client_credentials = Some(f.into()),
            v1::OAuthFlows::Implicit(f) => out.implicit = Some(f.into()),
            v1::OAuthFlows::Password(f) => out.password = Some(f.into()),
            // `deviceCode`, and any flow a later v1 adds: v0.3 has no such flow.
            _ => {}
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------------
// Security schemes

/// `in` → `location`; the rest carries over.
impl From<v0_3::ApiKeySecurityScheme> for v1::ApiKeySecurityScheme {
    fn from(scheme: v0_3::ApiKeySecurityScheme) -> Self {
        v1::ApiKeySecurityScheme {
            description: nonempty(scheme.description),
            location: scheme.in_.to_string(),
            name: scheme.name,
            ..Default::default()
        }
    }
}

/// `location` → `in`. Fails (`location`) unless the location is `cookie`, `header` or `query`, exactly.
impl TryFrom<v1::ApiKeySecurityScheme> for v0_3::ApiKeySecurityScheme {
    type Error = BridgeError;

    fn try_from(scheme: v1::ApiKeySecurityScheme) -> Result<Self, BridgeError> {
        let in_ = match scheme.location.as_str() {
            "cookie" => v0_3::ApiKeySecuritySchemeIn::Cookie,
            "header" => v0_3::ApiKeySecuritySchemeIn::Header,
            "query" => v0_3::ApiKeySecuritySchemeIn::Query,
            _ => {
                return Err(BridgeError::new(BridgeErrorKind::InvalidApiKeyLocation {
                    location: scheme.location,
                })
                .at("location"));
            }
        };
        Ok(v0_3::ApiKeySecurityScheme {
            description: nonempty(scheme.description),
            in_,
            name: scheme.name,
            type_: Default::default(),
        })
    }
}

/// Lossless.
impl From<v0_3::HttpAuthSecurityScheme> for v1::HttpAuthSecurityScheme {
    fn from(scheme: v0_3::HttpAuthSecurityScheme) -> Self {
        v1::HttpAuthSecurityScheme {
            description: nonempty(scheme.description),
            scheme: scheme.scheme,
            bearer_format: nonempty(scheme.bearer_format),
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::HttpAuthSecurityScheme> for v0_3::HttpAuthSecurityScheme {
    fn from(scheme: v1::HttpAuthSecurityScheme) -> Self {
        v0_3::HttpAuthSecurityScheme {
            bearer_format: nonempty(scheme.bearer_format),
            description: nonempty(scheme.description),
            scheme: scheme.scheme,
            type_: Default::default(),
        }
    }
}

/// Flows as [`oauth_flows_to_v1`] converts them; the rest carries over.
impl From<v0_3::OAuth2SecurityScheme> for v1::OAuth2SecurityScheme {
    fn from(scheme: v0_3::OAuth2SecurityScheme) -> Self {
        v1::OAuth2SecurityScheme {
            description: nonempty(scheme.description),
            flows: oauth_flows_to_v1(scheme.flows),
            oauth2_metadata_url: nonempty(scheme.oauth2_metadata_url),
            ..Default::default()
        }
    }
}

/// Flows as [`v0_3::OAuthFlows::from`] converts them (no flows when absent); the rest carries over.
impl From<v1::OAuth2SecurityScheme> for v0_3::OAuth2SecurityScheme {
    fn from(scheme: v1::OAuth2SecurityScheme) -> Self {
        v0_3::OAuth2SecurityScheme {
            description: nonempty(scheme.description),
            flows: scheme.flows.map(Into::into).unwrap_or_default(),
            oauth2_metadata_url: nonempty(scheme.oauth2_metadata_url),
            type_: Default::default(),
        }
    }
}

/// Lossless.
impl From<v0_3::OpenIdConnectSecurityScheme> for v1::OpenIdConnectSecurityScheme {
    fn from(scheme: v0_3::OpenIdConnectSecurityScheme) -> Self {
        v1::OpenIdConnectSecurityScheme {
            description: nonempty(scheme.description),
            open_id_connect_url: scheme.open_id_connect_url,
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::OpenIdConnectSecurityScheme> for v0_3::OpenIdConnectSecurityScheme {
    fn from(scheme: v1::OpenIdConnectSecurityScheme) -> Self {
        v0_3::OpenIdConnectSecurityScheme {
            description: nonempty(scheme.description),
            open_id_connect_url: scheme.open_id_connect_url,
            type_: Default::default(),
        }
    }
}

/// Lossless.
impl From<v0_3::MutualTlsSecurityScheme> for v1::MutualTlsSecurityScheme {
    fn from(scheme: v0_3::MutualTlsSecurityScheme) -> Self {
        v1::MutualTlsSecurityScheme {
            description: nonempty(scheme.description),
            ..Default::default()
        }
    }
}

/// Lossless.
impl From<v1::MutualTlsSecurityScheme> for v0_3::MutualTlsSecurityScheme {
    fn from(scheme: v1::MutualTlsSecurityScheme) -> Self {
        v0_3::MutualTlsSecurityScheme {
            description: nonempty(scheme.description),
            type_: Default::default(),
        }
    }
}

/// v0.3's `type` picks v1's oneof member.
impl From<v0_3::SecurityScheme> for v1::SecurityScheme {
    fn from(scheme: v0_3::SecurityScheme) -> Self {
        match scheme {
            v0_3::SecurityScheme::ApiKey(s) => v1::SecurityScheme::ApiKeySecurityScheme(s.into()),
            v0_3::SecurityScheme::HttpAuth(s) => {
                v1::SecurityScheme::HttpAuthSecurityScheme(s.into())
            }
            v0_3::SecurityScheme::OAuth2(s) => v1::SecurityScheme::Oauth2SecurityScheme(s.into()),
            v0_3::SecurityScheme::OpenIdConnect(s) => {
                v1::SecurityScheme::OpenIdConnectSecurityScheme(s.into())
            }
            v0_3::SecurityScheme::MutualTls(s) => v1::SecurityScheme::MtlsSecurityScheme(s.into()),
        }
    }
}

/// v1's oneof member picks v0.3's `type`. Fails on an API key location v0.3 cannot name, and on a kind
/// of scheme v0.3 does not have.
impl TryFrom<v1::SecurityScheme> for v0_3::SecurityScheme {
    type Error = BridgeError;

    fn try_from(scheme: v1::SecurityScheme) -> Result<Self, BridgeError> {
        Ok(match scheme {
            v1::SecurityScheme::ApiKeySecurityScheme(s) => v0_3::SecurityScheme::ApiKey(
                s.try_into()
                    .map_err(|e: BridgeError| e.at("apiKeySecurityScheme"))?,
            ),
            v1::SecurityScheme::HttpAuthSecurityScheme(s) => {
                v0_3::SecurityScheme::HttpAuth(s.into())
            }
            v1::SecurityScheme::Oauth2SecurityScheme(s) => v0_3::SecurityScheme::OAuth2(s.into()),
            v1::SecurityScheme::OpenIdConnectSecurityScheme(s) => {
                v0_3::SecurityScheme::OpenIdConnect(s.into())
            }
            v1::SecurityScheme::MtlsSecurityScheme(s) => v0_3::SecurityScheme::MutualTls(s.into()),
            // A kind of scheme a later v1 adds.
            #[allow(unreachable_patterns)]
            other => {
                return Err(member_without_counterpart(
                    "lf.a2a.v1.SecurityScheme",
                    &other,
                ));
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// AgentCard

/// A v0.3 card as v1's, as the SDK converts it:
///
/// - `url` + `preferredTransport` (default `JSONRPC`) + `protocolVersion` (default `"0.3"` when empty)
///   become the first of `supportedInterfaces`; each of `additionalInterfaces` follows, with
///   `protocolVersion: "0.3"` (an additional interface repeating the main one is kept as a duplicate).
///   A `protocolVersion` outside v0.3's (see [`is_v0_3_version`](super::is_v0_3_version)) is kept on
///   the first interface, so downgrading the result drops that interface, as the SDK's does.
/// - `supportsAuthenticatedExtendedCard` → `capabilities.extendedAgentCard`.
/// - `security` → `securityRequirements`, schemes and skills as their own conversions say.
/// - `capabilities.stateTransitionHistory` is lost; empty `documentationUrl`/`iconUrl` are dropped.
impl From<v0_3::AgentCard> for v1::AgentCard {
    fn from(card: v0_3::AgentCard) -> Self {
        let mut supported_interfaces = vec![v1::AgentInterface {
            url: card.url,
            protocol_binding: if card.preferred_transport.is_empty() {
                "JSONRPC".to_owned()
            } else {
                card.preferred_transport
            },
            tenant: None,
            protocol_version: if card.protocol_version.is_empty() {
                V0_3_PROTOCOL_VERSION.to_owned()
            } else {
                card.protocol_version
            },
            ..Default::default()
        }];
        supported_interfaces.extend(
            card.additional_interfaces
                .unwrap_or_default()
                .into_iter()
                .map(v1::AgentInterface::from),
        );
        let mut capabilities = v1::AgentCapabilities::from(card.capabilities);
        capabilities.extended_agent_card = card.supports_authenticated_extended_card;
        v1::AgentCard {
            name: card.name,
            description: card.description,
            supported_interfaces,
            provider: card.provider.map(Into::into),
            version: card.version,
            documentation_url: nonempty(card.documentation_url),
            capabilities,
            security_schemes: card
                .security_schemes
                .unwrap_or_default()
                .into_iter()
                .map(|(name, scheme)| (name, scheme.into()))
                .collect(),
            security_requirements: requirements_to_v1(card.security),
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            skills: card.skills.into_iter().map(Into::into).collect(),
            signatures: card
                .signatures
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            icon_url: nonempty(card.icon_url),
            ..Default::default()
        }
    }
}

/// A v1 card as v0.3's, as the SDK converts it:
///
/// - Only interfaces whose `protocolVersion` is empty or a version from 0.3 up to (not including) 1.0
///   are kept; the first becomes `url` + `preferredTransport` + `protocolVersion` (`"0.3"` when empty),
///   the others `additionalInterfaces` (losing their versions and tenants). Fails
///   ([`BridgeErrorKind::NoCompatibleInterface`]) when there is none: a v1-only agent has no v0.3 card.
/// - `capabilities.extendedAgentCard` → `supportsAuthenticatedExtendedCard`.
/// - Fails where a security scheme fails (`securitySchemes.<name>`).
impl TryFrom<v1::AgentCard> for v0_3::AgentCard {
    type Error = BridgeError;

    fn try_from(card: v1::AgentCard) -> Result<Self, BridgeError> {
        let mut interfaces = card.supported_interfaces.into_iter().filter(|interface| {
            interface.protocol_version.is_empty() || is_legacy_version(&interface.protocol_version)
        });
        let primary = interfaces.next().ok_or_else(|| {
            BridgeError::new(BridgeErrorKind::NoCompatibleInterface).at("supportedInterfaces")
        })?;
        let additional: Vec<v0_3::AgentInterface> = interfaces.map(Into::into).collect();
        let supports_authenticated_extended_card = card.capabilities.extended_agent_card;
        let mut security_schemes = BTreeMap::new();
        for (name, scheme) in card.security_schemes {
            let scheme = v0_3::SecurityScheme::try_from(scheme)
                .map_err(|e| e.at(&format!("securitySchemes.{name}")))?;
            security_schemes.insert(name, scheme);
        }
        Ok(v0_3::AgentCard {
            additional_interfaces: nonempty_list(additional),
            capabilities: card.capabilities.into(),
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            description: card.description,
            documentation_url: card.documentation_url,
            icon_url: card.icon_url,
            name: card.name,
            preferred_transport: primary.protocol_binding,
            protocol_version: if primary.protocol_version.is_empty() {
                V0_3_PROTOCOL_VERSION.to_owned()
            } else {
                primary.protocol_version
            },
            provider: card.provider.map(Into::into),
            security: requirements_to_v0_3(card.security_requirements),
            security_schemes: (!security_schemes.is_empty()).then_some(security_schemes),
            signatures: nonempty_list(card.signatures.into_iter().map(Into::into).collect()),
            skills: card.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card,
            url: primary.url,
            version: card.version,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// The card a server publishes to both versions

/// The card as an A2A v0.3 client reads it (from `/.well-known/agent-card.json`), converted by the
/// bridge as the official SDKs convert it: the first interface whose protocol version is 0.x becomes
/// `url`, `preferredTransport` and `protocolVersion`, the other 0.x ones `additionalInterfaces`, and v1-only
/// interfaces are left out. Fails, naming the field, when the card has no v0.3 interface (see
/// [`AgentCardBuilder::jsonrpc_v0_3`](a2a_types::v1::builders::AgentCardBuilder::jsonrpc_v0_3)) or holds what v0.3 cannot express; the [`bridge`](crate::bridge) module lists
/// every difference.
///
/// ```
/// use a2a_compat::bridge::ToV0_3Card;
/// use a2a_types::v1::{AgentCard, AgentSkill};
///
/// let card = AgentCard::builder("Wayfarer", "Plans and books trips.", "1.4.0")
///     .jsonrpc("https://agents.example.com/a2a")
///     .jsonrpc_v0_3("https://agents.example.com/a2a/v0.3")
///     .default_input_modes(["text/plain"])
///     .default_output_modes(["text/plain"])
///     .skill(AgentSkill {
///         id: "book-hotel".into(),
///         name: "Book a hotel".into(),
///         description: "Finds and books rooms.".into(),
///         tags: vec!["travel".into()],
///         ..Default::default()
///     })
///     .build()
///     .unwrap();
/// let legacy = card.to_v0_3().unwrap();
/// assert_eq!(legacy.url, "https://agents.example.com/a2a/v0.3");
/// assert_eq!(legacy.preferred_transport, "JSONRPC");
/// ```
pub trait ToV0_3Card {
    /// The v0.3 form of the card, or what keeps it from having one.
    fn to_v0_3(&self) -> Result<v0_3::AgentCard, BridgeError>;
}

impl ToV0_3Card for v1::AgentCard {
    fn to_v0_3(&self) -> Result<v0_3::AgentCard, BridgeError> {
        v0_3::AgentCard::try_from(self.clone())
    }
}

/// The JSON a server serving both versions publishes at `/.well-known/agent-card.json`, as the SDK's
/// server writes it: the v1 card, with the fields of its v0.3 form ([`v1::AgentCard::to_v0_3`]) added
/// where the v1 JSON has no such member, so a v1 client reads `supportedInterfaces` and a v0.3 client
/// reads `url`, `preferredTransport`, `protocolVersion` and `additionalInterfaces` from the same
/// document. Objects are merged member by member and lists of objects item by item (the v1 member
/// wins where both have one); `supportsAuthenticatedExtendedCard` is added only when true. A card
/// with no interface a v0.3 client can use (no 0.x interface) is written as plain v1.
///
/// ```
/// use a2a_types::v1::{AgentCard, AgentSkill};
///
/// let echo = AgentSkill {
///     id: "echo".into(),
///     name: "Echo".into(),
///     description: "Answers with the text it was sent.".into(),
///     tags: vec!["demo".into()],
///     ..Default::default()
/// };
/// let card = AgentCard::builder("Echo", "Repeats what it is told.", "1.0.0")
///     .jsonrpc("http://127.0.0.1:8000/jsonrpc")
///     .jsonrpc_v0_3("http://127.0.0.1:8000/jsonrpc")
///     .default_input_modes(["text/plain"])
///     .default_output_modes(["text/plain"])
///     .skill(echo)
///     .build()
///     .unwrap();
/// let json = a2a_compat::bridge::well_known_card_json(&card);
/// assert_eq!(json["supportedInterfaces"][0]["protocolVersion"], "1.0");
/// assert_eq!(json["url"], "http://127.0.0.1:8000/jsonrpc");
/// assert_eq!(json["protocolVersion"], "0.3");
/// assert!(json.get("supportsAuthenticatedExtendedCard").is_none()); // only written when true
///
/// // Without a 0.x interface there is nothing for a v0.3 client: the plain v1 card.
/// let mut v1_only = card.clone();
/// v1_only.supported_interfaces.truncate(1);
/// assert_eq!(a2a_compat::bridge::well_known_card_json(&v1_only), serde_json::to_value(&v1_only).unwrap());
/// ```
pub fn well_known_card_json(card: &v1::AgentCard) -> serde_json::Value {
    let mut v1_json = serde_json::to_value(card).expect("a v1 card is always JSON");
    let Ok(legacy) = card.to_v0_3() else {
        return v1_json;
    };
    let mut legacy = serde_json::to_value(legacy).expect("a v0.3 card is always JSON");
    if let Some(object) = legacy.as_object_mut()
        && object.get("supportsAuthenticatedExtendedCard") != Some(&serde_json::Value::Bool(true))
    {
        object.remove("supportsAuthenticatedExtendedCard");
    }
    merge_missing(&mut v1_json, legacy);
    v1_json
}

/// Adds to `into` what `from` has and `into` lacks, recursively, as the SDK merges the two cards.
fn merge_missing(into: &mut serde_json::Value, from: serde_json::Value) {
    use serde_json::Value;
    match (into, from) {
        (Value::Object(into), Value::Object(from)) => {
            for (key, value) in from {
                match into.get_mut(&key) {
                    None => {
                        into.insert(key, value);
                    }
                    Some(existing) => merge_missing(existing, value),
                }
            }
        }
        (Value::Array(into), Value::Array(from)) => {
            for (existing, value) in into.iter_mut().zip(from) {
                if existing.is_object() && value.is_object() {
                    merge_missing(existing, value);
                }
            }
        }
        _ => {}
    }
}
