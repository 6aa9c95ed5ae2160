//! The agent card and what it holds: interfaces, capabilities, skills, security requirements and
//! schemes, OAuth flows.

use super::*;

/// One security requirement (`AgentCard.security[]`, `AgentSkill.security[]`): scheme name → scopes.
pub type SecurityRequirement = BTreeMap<String, Vec<String>>;

/// A security requirement as the proto's `Security` message.
pub fn security_to_proto(requirement: SecurityRequirement) -> pb::Security {
    pb::Security {
        schemes: requirement
            .into_iter()
            .map(|(name, scopes)| (name, pb::StringList { list: scopes }))
            .collect(),
    }
}

/// The security requirement of a proto `Security` message.
pub fn security_from_proto(security: pb::Security) -> SecurityRequirement {
    security
        .schemes
        .into_iter()
        .map(|(name, scopes)| (name, scopes.list))
        .collect()
}

/// A list of requirements, absent when empty (the SDK's `security`).
fn security_list_from_proto(list: Vec<pb::Security>) -> Option<Vec<SecurityRequirement>> {
    nonempty_list(list.into_iter().map(security_from_proto).collect())
}

impl From<AgentProvider> for pb::AgentProvider {
    fn from(provider: AgentProvider) -> Self {
        Self {
            url: provider.url,
            organization: provider.organization,
        }
    }
}

impl From<pb::AgentProvider> for AgentProvider {
    fn from(provider: pb::AgentProvider) -> Self {
        Self {
            organization: provider.organization,
            url: provider.url,
        }
    }
}

impl From<AgentInterface> for pb::AgentInterface {
    fn from(interface: AgentInterface) -> Self {
        Self {
            url: interface.url,
            transport: interface.transport,
        }
    }
}

impl From<pb::AgentInterface> for AgentInterface {
    fn from(interface: pb::AgentInterface) -> Self {
        Self {
            transport: interface.transport,
            url: interface.url,
        }
    }
}

impl From<AgentExtension> for pb::AgentExtension {
    /// Empty `params` are not carried.
    fn from(extension: AgentExtension) -> Self {
        Self {
            uri: extension.uri,
            description: extension.description.unwrap_or_default(),
            required: extension.required.unwrap_or(false),
            params: extension
                .params
                .filter(|params| !params.is_empty())
                .map(struct_to_proto),
        }
    }
}

impl TryFrom<pb::AgentExtension> for AgentExtension {
    type Error = ConversionError;

    /// `description`, `params` and `required` are always present (`""`, `{}`, `false`).
    fn try_from(extension: pb::AgentExtension) -> Result<Self, ConversionError> {
        Ok(Self {
            description: Some(extension.description),
            params: Some(metadata_from_proto(extension.params, "params")?),
            required: Some(extension.required),
            uri: extension.uri,
        })
    }
}

impl From<AgentCapabilities> for pb::AgentCapabilities {
    /// `stateTransitionHistory` is dropped (the proto has no such field).
    fn from(capabilities: AgentCapabilities) -> Self {
        Self {
            streaming: capabilities.streaming.unwrap_or(false),
            push_notifications: capabilities.push_notifications.unwrap_or(false),
            extensions: capabilities
                .extensions
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
        }
    }
}

impl TryFrom<pb::AgentCapabilities> for AgentCapabilities {
    type Error = ConversionError;

    /// `streaming`, `pushNotifications` and `extensions` are always present.
    fn try_from(capabilities: pb::AgentCapabilities) -> Result<Self, ConversionError> {
        Ok(Self {
            extensions: Some(try_list(
                capabilities.extensions,
                "extensions",
                AgentExtension::try_from,
            )?),
            push_notifications: Some(capabilities.push_notifications),
            state_transition_history: None,
            streaming: Some(capabilities.streaming),
        })
    }
}

impl From<AgentSkill> for pb::AgentSkill {
    fn from(skill: AgentSkill) -> Self {
        Self {
            id: skill.id,
            name: skill.name,
            description: skill.description,
            tags: skill.tags,
            examples: skill.examples.unwrap_or_default(),
            input_modes: skill.input_modes.unwrap_or_default(),
            output_modes: skill.output_modes.unwrap_or_default(),
            security: skill
                .security
                .unwrap_or_default()
                .into_iter()
                .map(security_to_proto)
                .collect(),
        }
    }
}

impl From<pb::AgentSkill> for AgentSkill {
    /// `examples`, `inputModes` and `outputModes` are always lists; empty `security` is absent.
    fn from(skill: pb::AgentSkill) -> Self {
        Self {
            description: skill.description,
            examples: Some(skill.examples),
            id: skill.id,
            input_modes: Some(skill.input_modes),
            name: skill.name,
            output_modes: Some(skill.output_modes),
            security: security_list_from_proto(skill.security),
            tags: skill.tags,
        }
    }
}

impl From<AgentCardSignature> for pb::AgentCardSignature {
    fn from(signature: AgentCardSignature) -> Self {
        Self {
            protected: signature.protected,
            signature: signature.signature,
            header: signature.header.map(struct_to_proto),
        }
    }
}

impl TryFrom<pb::AgentCardSignature> for AgentCardSignature {
    type Error = ConversionError;

    /// `header` is always an object.
    fn try_from(signature: pb::AgentCardSignature) -> Result<Self, ConversionError> {
        Ok(Self {
            header: Some(metadata_from_proto(signature.header, "header")?),
            protected: signature.protected,
            signature: signature.signature,
        })
    }
}

impl From<AuthorizationCodeOAuthFlow> for pb::AuthorizationCodeOAuthFlow {
    fn from(flow: AuthorizationCodeOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::AuthorizationCodeOAuthFlow> for AuthorizationCodeOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::AuthorizationCodeOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl From<ClientCredentialsOAuthFlow> for pb::ClientCredentialsOAuthFlow {
    fn from(flow: ClientCredentialsOAuthFlow) -> Self {
        Self {
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::ClientCredentialsOAuthFlow> for ClientCredentialsOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::ClientCredentialsOAuthFlow) -> Self {
        Self {
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl From<ImplicitOAuthFlow> for pb::ImplicitOAuthFlow {
    fn from(flow: ImplicitOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::ImplicitOAuthFlow> for ImplicitOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::ImplicitOAuthFlow) -> Self {
        Self {
            authorization_url: flow.authorization_url,
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
        }
    }
}

impl From<PasswordOAuthFlow> for pb::PasswordOAuthFlow {
    fn from(flow: PasswordOAuthFlow) -> Self {
        Self {
            token_url: flow.token_url,
            refresh_url: flow.refresh_url.unwrap_or_default(),
            scopes: flow.scopes,
        }
    }
}

impl From<pb::PasswordOAuthFlow> for PasswordOAuthFlow {
    /// `refreshUrl` is always a string.
    fn from(flow: pb::PasswordOAuthFlow) -> Self {
        Self {
            refresh_url: Some(flow.refresh_url),
            scopes: flow.scopes,
            token_url: flow.token_url,
        }
    }
}

impl TryFrom<OAuthFlows> for pb::OAuthFlows {
    type Error = ConversionError;

    /// Keeps the first flow of `authorizationCode`, `clientCredentials`, `implicit` and `password`
    /// (the proto holds one); fails when there is none.
    fn try_from(flows: OAuthFlows) -> Result<Self, ConversionError> {
        use pb::o_auth_flows::Flow;
        let flow = if let Some(flow) = flows.authorization_code {
            Flow::AuthorizationCode(flow.into())
        } else if let Some(flow) = flows.client_credentials {
            Flow::ClientCredentials(flow.into())
        } else if let Some(flow) = flows.implicit {
            Flow::Implicit(flow.into())
        } else if let Some(flow) = flows.password {
            Flow::Password(flow.into())
        } else {
            return Err(ConversionError::new(
                "no OAuth flow: one of `authorizationCode`, `clientCredentials`, `implicit` or \
                 `password` is needed",
            ));
        };
        Ok(Self { flow: Some(flow) })
    }
}

impl From<pb::OAuthFlows> for OAuthFlows {
    /// With no flow, the result is an empty `password` flow, as in the SDK.
    fn from(flows: pb::OAuthFlows) -> Self {
        use pb::o_auth_flows::Flow;
        let mut out = OAuthFlows::default();
        match flows.flow {
            Some(Flow::AuthorizationCode(flow)) => out.authorization_code = Some(flow.into()),
            Some(Flow::ClientCredentials(flow)) => out.client_credentials = Some(flow.into()),
            Some(Flow::Implicit(flow)) => out.implicit = Some(flow.into()),
            Some(Flow::Password(flow)) => out.password = Some(flow.into()),
            None => out.password = Some(pb::PasswordOAuthFlow::default().into()),
        }
        out
    }
}

impl From<ApiKeySecurityScheme> for pb::ApiKeySecurityScheme {
    /// `in` becomes `location`.
    fn from(scheme: ApiKeySecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            location: scheme.in_.to_string(),
            name: scheme.name,
        }
    }
}

impl TryFrom<pb::ApiKeySecurityScheme> for ApiKeySecurityScheme {
    type Error = ConversionError;

    /// `location` must be `cookie`, `header` or `query`; `description` is always a string.
    fn try_from(scheme: pb::ApiKeySecurityScheme) -> Result<Self, ConversionError> {
        let in_ = match scheme.location.as_str() {
            "cookie" => ApiKeySecuritySchemeIn::Cookie,
            "header" => ApiKeySecuritySchemeIn::Header,
            "query" => ApiKeySecuritySchemeIn::Query,
            other => {
                return Err(ConversionError::new(format!(
                    "{other:?} is not an API key location: expected `cookie`, `header` or `query`"
                ))
                .at("location"));
            }
        };
        Ok(Self {
            description: Some(scheme.description),
            in_,
            name: scheme.name,
            type_: ApiKeySecuritySchemeType,
        })
    }
}

impl From<HttpAuthSecurityScheme> for pb::HttpAuthSecurityScheme {
    fn from(scheme: HttpAuthSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            scheme: scheme.scheme,
            bearer_format: scheme.bearer_format.unwrap_or_default(),
        }
    }
}

impl From<pb::HttpAuthSecurityScheme> for HttpAuthSecurityScheme {
    /// `description` and `bearerFormat` are always strings.
    fn from(scheme: pb::HttpAuthSecurityScheme) -> Self {
        Self {
            bearer_format: Some(scheme.bearer_format),
            description: Some(scheme.description),
            scheme: scheme.scheme,
            type_: HttpAuthSecuritySchemeType,
        }
    }
}

impl TryFrom<OAuth2SecurityScheme> for pb::OAuth2SecurityScheme {
    type Error = ConversionError;

    /// Fails when `flows` has no flow (see [`OAuthFlows`]).
    fn try_from(scheme: OAuth2SecurityScheme) -> Result<Self, ConversionError> {
        Ok(Self {
            description: scheme.description.unwrap_or_default(),
            flows: Some(pb::OAuthFlows::try_from(scheme.flows).map_err(|e| e.at("flows"))?),
            oauth2_metadata_url: scheme.oauth2_metadata_url.unwrap_or_default(),
        })
    }
}

impl From<pb::OAuth2SecurityScheme> for OAuth2SecurityScheme {
    /// `description` is always a string; an empty `oauth2MetadataUrl` is absent.
    fn from(scheme: pb::OAuth2SecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            flows: scheme.flows.unwrap_or_default().into(),
            oauth2_metadata_url: nonempty_string(scheme.oauth2_metadata_url),
            type_: OAuth2SecuritySchemeType,
        }
    }
}

impl From<OpenIdConnectSecurityScheme> for pb::OpenIdConnectSecurityScheme {
    fn from(scheme: OpenIdConnectSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
            open_id_connect_url: scheme.open_id_connect_url,
        }
    }
}

impl From<pb::OpenIdConnectSecurityScheme> for OpenIdConnectSecurityScheme {
    /// `description` is always a string.
    fn from(scheme: pb::OpenIdConnectSecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            open_id_connect_url: scheme.open_id_connect_url,
            type_: OpenIdConnectSecuritySchemeType,
        }
    }
}

impl From<MutualTlsSecurityScheme> for pb::MutualTlsSecurityScheme {
    fn from(scheme: MutualTlsSecurityScheme) -> Self {
        Self {
            description: scheme.description.unwrap_or_default(),
        }
    }
}

impl From<pb::MutualTlsSecurityScheme> for MutualTlsSecurityScheme {
    /// `description` is always a string.
    fn from(scheme: pb::MutualTlsSecurityScheme) -> Self {
        Self {
            description: Some(scheme.description),
            type_: MutualTlsSecuritySchemeType,
        }
    }
}

impl TryFrom<SecurityScheme> for pb::SecurityScheme {
    type Error = ConversionError;

    /// Fails for an OAuth2 scheme without flows.
    fn try_from(scheme: SecurityScheme) -> Result<Self, ConversionError> {
        use pb::security_scheme::Scheme;
        Ok(Self {
            scheme: Some(match scheme {
                SecurityScheme::ApiKey(scheme) => Scheme::ApiKeySecurityScheme(scheme.into()),
                SecurityScheme::HttpAuth(scheme) => Scheme::HttpAuthSecurityScheme(scheme.into()),
                SecurityScheme::OAuth2(scheme) => Scheme::Oauth2SecurityScheme(scheme.try_into()?),
                SecurityScheme::OpenIdConnect(scheme) => {
                    Scheme::OpenIdConnectSecurityScheme(scheme.into())
                }
                SecurityScheme::MutualTls(scheme) => Scheme::MtlsSecurityScheme(scheme.into()),
            }),
        })
    }
}

impl TryFrom<pb::SecurityScheme> for SecurityScheme {
    type Error = ConversionError;

    /// With no member the result is an empty OpenID Connect scheme, as in the SDK; fails on an API
    /// key `location` the JSON-RPC form cannot hold.
    fn try_from(scheme: pb::SecurityScheme) -> Result<Self, ConversionError> {
        use pb::security_scheme::Scheme;
        Ok(match scheme.scheme {
            Some(Scheme::ApiKeySecurityScheme(scheme)) => Self::ApiKey(
                ApiKeySecurityScheme::try_from(scheme).map_err(|e| e.at("apiKeySecurityScheme"))?,
            ),
            Some(Scheme::HttpAuthSecurityScheme(scheme)) => Self::HttpAuth(scheme.into()),
            Some(Scheme::Oauth2SecurityScheme(scheme)) => Self::OAuth2(scheme.into()),
            Some(Scheme::MtlsSecurityScheme(scheme)) => Self::MutualTls(scheme.into()),
            Some(Scheme::OpenIdConnectSecurityScheme(scheme)) => Self::OpenIdConnect(scheme.into()),
            None => Self::OpenIdConnect(pb::OpenIdConnectSecurityScheme::default().into()),
        })
    }
}

impl TryFrom<AgentCard> for pb::AgentCard {
    type Error = ConversionError;

    /// Fails for an OAuth2 scheme without flows, naming it (`securitySchemes["corp"].flows`).
    fn try_from(card: AgentCard) -> Result<Self, ConversionError> {
        Ok(Self {
            protocol_version: card.protocol_version,
            name: card.name,
            description: card.description,
            url: card.url,
            preferred_transport: card.preferred_transport,
            additional_interfaces: card
                .additional_interfaces
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            provider: card.provider.map(Into::into),
            version: card.version,
            documentation_url: card.documentation_url.unwrap_or_default(),
            capabilities: Some(card.capabilities.into()),
            security_schemes: try_map(
                card.security_schemes.unwrap_or_default(),
                "securitySchemes",
                pb::SecurityScheme::try_from,
            )?,
            security: card
                .security
                .unwrap_or_default()
                .into_iter()
                .map(security_to_proto)
                .collect(),
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            skills: card.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card: card
                .supports_authenticated_extended_card
                .unwrap_or(false),
            signatures: card
                .signatures
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            icon_url: card.icon_url.unwrap_or_default(),
        })
    }
}

impl TryFrom<pb::AgentCard> for AgentCard {
    type Error = ConversionError;

    /// See the module docs for the members that come back present though the proto had them empty.
    fn try_from(card: pb::AgentCard) -> Result<Self, ConversionError> {
        Ok(Self {
            additional_interfaces: nonempty_list(
                card.additional_interfaces
                    .into_iter()
                    .map(Into::into)
                    .collect(),
            ),
            capabilities: AgentCapabilities::try_from(card.capabilities.unwrap_or_default())
                .map_err(|e| e.at("capabilities"))?,
            default_input_modes: card.default_input_modes,
            default_output_modes: card.default_output_modes,
            description: card.description,
            documentation_url: Some(card.documentation_url),
            icon_url: nonempty_string(card.icon_url),
            name: card.name,
            preferred_transport: card.preferred_transport,
            protocol_version: card.protocol_version,
            provider: card.provider.map(Into::into),
            security: security_list_from_proto(card.security),
            security_schemes: Some(try_map(
                card.security_schemes,
                "securitySchemes",
                SecurityScheme::try_from,
            )?),
            signatures: nonempty_list(try_list(
                card.signatures,
                "signatures",
                AgentCardSignature::try_from,
            )?),
            skills: card.skills.into_iter().map(Into::into).collect(),
            supports_authenticated_extended_card: Some(card.supports_authenticated_extended_card),
            url: card.url,
            version: card.version,
        })
    }
}
