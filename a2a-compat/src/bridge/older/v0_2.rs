//! The step between A2A v0.2 (0.2.6) and v0.3: the same JSON-RPC binding, one release apart, so every
//! v0.2 type is the v0.3 type of the same name and its JSON carries over as it is; only what v0.3
//! added has no v0.2 form (see the table in [`super`]).

use serde_json::Value;

use super::typed;
use crate::bridge::{BridgeError, BridgeErrorKind};

/// v0.3 definitions v0.2 does not have, and why.
pub(super) const NO_V0_2_COUNTERPART: &[(&str, &str)] = &[
    ("AgentCardSignature", "card signatures came with v0.3"),
    (
        "AuthenticatedExtendedCardNotConfiguredError",
        "the extended card method came with v0.3",
    ),
    (
        "GetAuthenticatedExtendedCardRequest",
        "the extended card method came with v0.3",
    ),
    (
        "GetAuthenticatedExtendedCardResponse",
        "the extended card method came with v0.3",
    ),
    (
        "GetAuthenticatedExtendedCardSuccessResponse",
        "the extended card method came with v0.3",
    ),
    (
        "MutualTLSSecurityScheme",
        "the mutual TLS scheme came with v0.3",
    ),
    (
        "TransportProtocol",
        "v0.2 writes a transport as a plain string",
    ),
];

/// v0.2 JSON of the schema type `name` as v0.3 JSON of the same type. Nothing is lost: v0.3 has every
/// member v0.2 has.
pub(super) fn upgrade(name: &str, json: Value) -> Result<(&'static str, Value), BridgeError> {
    let name = static_name(crate::v0_2::SCHEMA_TYPES, name)?;
    let v0_2 = typed::v0_2(name, json)?;
    Ok((name, typed::v0_3(name, v0_2)?))
}

/// v0.3 JSON of the schema type `name` as v0.2 JSON of the same type. What v0.3 added is dropped
/// (`signatures`, `AgentSkill.security`, `oauth2MetadataUrl`); a union member v0.2 does not have
/// (a mutual TLS scheme, the extended card method or error) is an error naming where it is.
pub(super) fn downgrade(name: &str, json: Value) -> Result<(&'static str, Value), BridgeError> {
    if let Some((_, reason)) = NO_V0_2_COUNTERPART.iter().find(|(n, _)| *n == name) {
        return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: name.to_owned(),
            reason,
        }));
    }
    let name = static_name(crate::v0_3::SCHEMA_TYPES, name)?;
    let v0_3 = typed::v0_3(name, json)?;
    Ok((name, typed::v0_2(name, v0_3)?))
}

/// `name` as it stands in `names`, so it can be returned for as long as the program runs.
pub(super) fn static_name(names: &[&'static str], name: &str) -> Result<&'static str, BridgeError> {
    names.iter().copied().find(|n| *n == name).ok_or_else(|| {
        BridgeError::new(BridgeErrorKind::UnknownType {
            name: name.to_owned(),
        })
    })
}
