//! Which protocol version a peer speaks: the `A2A-Version` header with the method name, and agent
//! cards.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::{BridgeError, BridgeErrorKind};
use a2a_protocol::operations::Operation;
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1;

use crate::v0_3;

/// The name v0.3 peers use for [`A2A_EXTENSIONS_HEADER`](a2a_protocol::service::A2A_EXTENSIONS_HEADER); a
/// server accepting both versions reads both (and a client talking to v0.3 servers sends both), as the
/// SDK does.
pub const LEGACY_A2A_EXTENSIONS_HEADER: &str = "X-A2A-Extensions";

/// Which operation a JSON-RPC request calls and which version it speaks, for a server that accepts
/// both: the method name tells the version (v0.3 and v1 names are disjoint,
/// [`Operation::from_any_jsonrpc_method`]), and the
/// [`A2A_VERSION_HEADER`](a2a_protocol::service::A2A_VERSION_HEADER) (`None` when absent), read by the one
/// rule of [`ProtocolVersion::from_header`], must ask for that version. So a v1 method needs
/// `A2A-Version: 1.0`, and a v0.3 method is served without the header (or with `0.3`).
///
/// Fails with [`BridgeErrorKind::UnknownMethod`] (the SDK answers -32601 Method not found),
/// [`BridgeErrorKind::UnsupportedVersion`] (a value that is no version, or a version this endpoint
/// serves neither as 0.3 nor as 1.0) or [`BridgeErrorKind::VersionMismatch`] (the other served
/// version); both are -32009 Version not supported, which reaches a v0.3 client as -32603 (see
/// [`BridgeError::to_v1_error`]).
pub fn request_version(
    method: &str,
    version_header: Option<&str>,
) -> Result<(Operation, ProtocolVersion), BridgeError> {
    let (operation, spoken) = Operation::from_any_jsonrpc_method(method).ok_or_else(|| {
        BridgeError::new(BridgeErrorKind::UnknownMethod {
            method: method.to_owned(),
        })
    })?;
    let unsupported = || {
        BridgeError::new(BridgeErrorKind::UnsupportedVersion {
            version: version_header.unwrap_or_default().to_owned(),
        })
    };
    let asked = ProtocolVersion::from_header(version_header).map_err(|_| unsupported())?;
    if spoken.is_compatible_with(asked) {
        return Ok((operation, spoken));
    }
    let served = [ProtocolVersion::V0_3, ProtocolVersion::V1_0];
    if !served
        .iter()
        .any(|version| version.is_compatible_with(asked))
    {
        return Err(unsupported());
    }
    Err(BridgeError::new(BridgeErrorKind::VersionMismatch {
        method: method.to_owned(),
        version: version_header.unwrap_or_default().to_owned(),
        expected: spoken,
    }))
}

/// Whether a version string is one of v0.3's (at least 0.3, below 1.0, as PEP 440 compares them), as
/// the SDK decides which interfaces of a v1 card a v0.3 client may use.
pub fn is_v0_3_version(version: &str) -> bool {
    super::sdk_compat::is_legacy_version(version)
}

/// An agent card of either version, read from JSON without knowing which.
///
/// The version is told the way the SDK's card resolver tells it: a card with `supportedInterfaces` is
/// v1 (a v1 card may also carry v0.3's fields for old clients; they are ignored); otherwise a card with
/// `url` is v0.3; otherwise it is read as v1.
///
/// A v0.3 card converts to v1 as [`v1::AgentCard::from`] says (the SDK's `to_core_agent_card`). The
/// SDK's card resolver maps a fetched v0.3 card with rules of its own that differ in two details: it
/// gives every additional interface the card's `protocolVersion` (not `"0.3"`), and it moves
/// `supportsAuthenticatedExtendedCard` only when true.
///
/// ```
/// use a2a_compat::bridge::AnyAgentCard;
/// use a2a_protocol::service::ProtocolVersion;
///
/// let card: AnyAgentCard = serde_json::from_str(r#"{
///     "name": "Recipe Agent", "description": "Finds recipes", "version": "1.2.0",
///     "url": "https://recipes.example.com/a2a", "protocolVersion": "0.3.0",
///     "capabilities": {"streaming": true}, "defaultInputModes": ["text/plain"],
///     "defaultOutputModes": ["text/plain"], "skills": []
/// }"#).unwrap();
/// assert_eq!(card.version(), ProtocolVersion::V0_3);
/// let v1 = card.to_v1();
/// assert_eq!(v1.supported_interfaces[0].url, "https://recipes.example.com/a2a");
/// assert_eq!(v1.supported_interfaces[0].protocol_binding, "JSONRPC");
/// assert_eq!(v1.supported_interfaces[0].protocol_version, "0.3.0");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AnyAgentCard {
    V0_3(v0_3::AgentCard),
    V1(v1::AgentCard),
}

impl AnyAgentCard {
    /// The version a card's JSON is in; `None` when it is not a JSON object.
    pub fn detect(json: &Value) -> Option<ProtocolVersion> {
        let card = json.as_object()?;
        Some(
            if card.contains_key("supportedInterfaces") || card.contains_key("supported_interfaces")
            {
                ProtocolVersion::V1_0
            } else if card.contains_key("url") {
                ProtocolVersion::V0_3
            } else {
                ProtocolVersion::V1_0
            },
        )
    }

    /// Reads a card of either version. Fails when the JSON is not an object or not a card of the
    /// version it looks like.
    pub fn from_json(json: Value) -> Result<Self, BridgeError> {
        let invalid = |type_name: &str, message: String| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: type_name.to_owned(),
                message,
            })
        };
        match AnyAgentCard::detect(&json) {
            None => Err(invalid(
                "AgentCard",
                "an agent card is a JSON object".to_owned(),
            )),
            Some(ProtocolVersion::V0_3) => serde_json::from_value(json)
                .map(AnyAgentCard::V0_3)
                .map_err(|e| invalid("AgentCard", e.to_string())),
            // `detect` gives 0.3 or 1.0 only.
            Some(_) => serde_json::from_value(json)
                .map(AnyAgentCard::V1)
                .map_err(|e| invalid("lf.a2a.v1.AgentCard", e.to_string())),
        }
    }

    /// Reads a card of either version from JSON text.
    pub fn from_json_str(text: &str) -> Result<Self, BridgeError> {
        // A key twice is an error, as everywhere in this crate.
        let json = a2a_types::json::value_from_str(text).map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: "AgentCard".to_owned(),
                message: e.to_string(),
            })
        })?;
        AnyAgentCard::from_json(json)
    }

    /// The version the card was written in.
    pub fn version(&self) -> ProtocolVersion {
        match self {
            AnyAgentCard::V0_3(_) => ProtocolVersion::V0_3,
            AnyAgentCard::V1(_) => ProtocolVersion::V1_0,
        }
    }

    /// The card as v1 (converting a v0.3 card; see [`v1::AgentCard::from`]).
    pub fn to_v1(&self) -> v1::AgentCard {
        self.clone().into_v1()
    }

    /// The card as v1, consuming it.
    pub fn into_v1(self) -> v1::AgentCard {
        match self {
            AnyAgentCard::V0_3(card) => card.into(),
            AnyAgentCard::V1(card) => card,
        }
    }

    /// The card as v0.3 (converting a v1 card, which fails when it has no v0.3 interface; see
    /// [`v0_3::AgentCard::try_from`]).
    pub fn to_v0_3(&self) -> Result<v0_3::AgentCard, BridgeError> {
        self.clone().into_v0_3()
    }

    /// The card as v0.3, consuming it.
    pub fn into_v0_3(self) -> Result<v0_3::AgentCard, BridgeError> {
        match self {
            AnyAgentCard::V0_3(card) => Ok(card),
            AnyAgentCard::V1(card) => card.try_into(),
        }
    }
}

impl From<v0_3::AgentCard> for AnyAgentCard {
    fn from(card: v0_3::AgentCard) -> Self {
        AnyAgentCard::V0_3(card)
    }
}

impl From<v1::AgentCard> for AnyAgentCard {
    fn from(card: v1::AgentCard) -> Self {
        AnyAgentCard::V1(card)
    }
}

/// Writes the card in the version it holds.
impl Serialize for AnyAgentCard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyAgentCard::V0_3(card) => card.serialize(serializer),
            AnyAgentCard::V1(card) => card.serialize(serializer),
        }
    }
}

/// Reads a card of either version, as [`AnyAgentCard::from_json`].
impl<'de> Deserialize<'de> for AnyAgentCard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        AnyAgentCard::from_json(a2a_support::json::UniqueKeys::deserialize(deserializer)?.0)
            .map_err(serde::de::Error::custom)
    }
}
