//! The bridge between A2A v0.3 ([`crate::v0_3`], JSON-RPC) and A2A v1 ([`a2a_types::v1`]).
//!
//! Every object, every method's params and result, method names and error codes convert both ways,
//! exactly as the official Python SDK (`a2a-sdk`, module `a2a.compat.v0_3`) converts them when a v1
//! server answers v0.3 clients or a v1 client talks to a v0.3 server. So a Rust peer and a Python peer
//! bridging the same data agree on the result, losses included.
//!
//! - Objects: `From`/`TryFrom` between each pair ([`v0_3::Task`] ⇄ [`v1::Task`](a2a_types::v1::Task), ...). `TryFrom` where
//!   the input can be invalid; the [`BridgeError`] names the field, such as
//!   `history[2].parts[0]: a v1 part with no content has no v0.3 form`.
//! - Methods: whole JSON-RPC requests and responses convert to and from the v1 surface's own types,
//!   the operation ([`Operation`](a2a_protocol::operations::Operation), whose
//!   [`from_any_jsonrpc_method`](a2a_protocol::operations::Operation::from_any_jsonrpc_method) maps the names
//!   of both versions) and its typed params and result ([`MethodParams`](a2a_protocol::operations::MethodParams),
//!   [`MethodResult`](a2a_protocol::operations::MethodResult)): [`upgrade_request`] / [`downgrade_request`],
//!   [`upgrade_response`] / [`downgrade_response`]; each params and success-response type also
//!   converts on its own.
//! - Errors: v0.3 error objects convert to and from the v1 error, [`Error`] (see
//!   [`a2a_protocol::errors`]); [`BridgeError::to_v1_error`] is the error a server answers a failed
//!   conversion with.
//! - Versions: [`request_version`] for a server serving both versions on one endpoint, by the one
//!   `A2A-Version` rule of [`ProtocolVersion::from_header`]; [`AnyAgentCard`] for a client reading a
//!   card of either version.
//! - By name on JSON, for tools: [`upgrade_json`] and [`downgrade_json`]; with features `v0_2` and
//!   `v0_1`, `upgrade_json_from` and `downgrade_json_to` chain the steps down to v0.2 and v0.1 (their
//!   module docs list what each step loses).
//!
//! ```
//! use a2a_compat::bridge::{downgrade_request, upgrade_request};
//! use a2a_protocol::operations::MethodParams;
//! use a2a_protocol::operations::Operation;
//! use a2a_compat::v0_3;
//! use a2a_types::v1;
//!
//! let request: v0_3::A2aRequest = serde_json::from_str(r#"{
//!     "jsonrpc": "2.0", "id": "req-1", "method": "message/send",
//!     "params": {"message": {"role": "user", "messageId": "m-1",
//!                            "parts": [{"kind": "text", "text": "Plan a trip to Lisbon"}]},
//!                "configuration": {"blocking": false, "historyLength": 5}}
//! }"#).unwrap();
//! let (id, params) = upgrade_request(request).unwrap();
//! assert_eq!(params.operation(), Operation::SendMessage);
//! let MethodParams::SendMessage(send) = &params else { unreachable!() };
//! assert_eq!(send.message.role, v1::Role::User);
//! assert_eq!(send.configuration.as_ref().unwrap().return_immediately, Some(true));
//!
//! // And back, for a v0.3 server.
//! let again = downgrade_request(id, params).unwrap();
//! assert!(matches!(again, v0_3::A2aRequest::SendMessage(_)));
//! ```
//!
//! # What does not survive
//!
//! What the SDK loses, the bridge loses the same way; each conversion's docs say it again. "v0.3 → v1"
//! is upgrading, "v1 → v0.3" downgrading; a round trip loses what either direction loses. Field by
//! field, [`V1_FIELDS_CARRIED`] and [`V1_FIELD_LOSSES`] list every field of the v1 messages converted
//! (a test holds them to the v1 descriptor, so a field a later spec adds must be placed in one).
//!
//! | where | v0.3 → v1 | v1 → v0.3 |
//! |---|---|---|
//! | empty values | An empty string, list or `metadata` object where the field is optional becomes absent (`contextId: ""`, `extensions: []`, `metadata: {}`; a `TextPart`'s or `FilePart`'s `metadata: {}` is kept) | Empty lists, strings and `metadata` on a `Message` become absent; a required v0.3 field v1 left unset becomes `""` (`Task.contextId`, `ImplicitOAuthFlow.authorizationUrl`, `PasswordOAuthFlow.tokenUrl`, `AgentExtension.uri`) |
//! | numbers in `metadata`, `data`, `params`, `header` | Integral doubles become integers (`5.0` → `5`), as ProtoJSON reads a `Struct`; otherwise kept exactly (the SDK's protobuf `Struct` turns every number into a double, so above 2^53 it rounds: the bridge does not) | kept |
//! | `Part` | `FilePart.file.bytes` is decoded like Python's lenient `b64decode` (non-alphabet characters skipped, so URL-safe `-`/`_` vanish); a `DataPart` whose metadata has a true `data_part_compat` is unwrapped (`data.value` becomes the v1 `data`); `data_part_compat` is always removed, and metadata left empty dropped | `text` and `data` parts lose `mediaType` and `filename`; `data` that is not an object (array, string, number, boolean, null) is wrapped as `{"value": ...}` with `data_part_compat: true` added to the metadata; `raw` is re-encoded as standard padded base64 |
//! | `Message.role` | lossless | `ROLE_UNSPECIFIED` and unrecognized numbers become `agent` |
//! | `TaskState` | `unknown` becomes `TASK_STATE_UNSPECIFIED` | `TASK_STATE_UNSPECIFIED` and unrecognized numbers become `unknown` |
//! | `TaskStatus.timestamp` | Converted to UTC: the offset is lost (`+02:00` becomes `Z`), trailing zero fraction digits go (`.500000` → `.500`); a timestamp without an offset, with a lower-case `t`, more than 9 fraction digits or outside years 0001-9999 is an error | written with `Z` and 0, 3, 6 or 9 fraction digits |
//! | `TaskStatusUpdateEvent.final` | lost (v1 ends a stream by closing it) | recomputed: `true` only for `completed`, `canceled`, `failed`, `rejected` (so `input-required` and `auth-required` give `false`) |
//! | `TaskArtifactUpdateEvent.append`, `lastChunk` | `false` and absent are the same in v1 | always written, `false` when unset |
//! | `MessageSendConfiguration` | `blocking` becomes `returnImmediately = !blocking`; `historyLength: 0` becomes absent (v0.3's "no limit"), so v1's "no history" does not survive a round trip | `blocking` is always written (`true` when `returnImmediately` is unset) |
//! | push notification config | `authentication.schemes` keeps only its first entry | `tenant` is lost; a config downgraded as a bare `PushNotificationConfig` (inside `MessageSendConfiguration`) loses `taskId` |
//! | params `metadata` | lost for `tasks/get`, `tasks/resubscribe` and every `tasks/pushNotificationConfig/*` method (v1's requests have no metadata); kept for `message/send`, `message/stream`, `tasks/cancel` | — |
//! | `tenant` (every v1 request, `AgentInterface`, push config) | — | lost |
//! | `ListTaskPushNotificationConfigsRequest` | — | `pageSize`, `pageToken` lost |
//! | `ListTaskPushNotificationConfigsResponse` | — | `nextPageToken` lost |
//! | `tasks/pushNotificationConfig/get` params | `GetTaskPushNotificationConfigParams` without `pushNotificationConfigId` comes back as `TaskIdParams` | — |
//! | JSON-RPC `id` | not part of any v1 message: kept by [`upgrade_request`], needed by [`downgrade_request`] | — |
//! | `AgentCard` interfaces | `url` + `preferredTransport` + `protocolVersion` become the first `supportedInterfaces` entry; `additionalInterfaces` follow with `protocolVersion: "0.3"` (their own version is not known) | only interfaces with an empty or 0.x (≥ 0.3) version are kept, the first as `url`/`preferredTransport`/`protocolVersion`; `1.0` interfaces and every `tenant` are lost, and later interfaces' versions become `"0.3"` on the way back; no such interface is an error |
//! | `AgentCard` flags | `supportsAuthenticatedExtendedCard` moves to `capabilities.extendedAgentCard`; `capabilities.stateTransitionHistory` is lost | `extendedAgentCard` moves back |
//! | `AgentExtension.required` | — | always written (`false` when unset) |
//! | OAuth flows | v1 holds one flow: with several, the last of `authorizationCode`, `clientCredentials`, `implicit`, `password` wins; no flow at all leaves `flows` unset | `deviceCode` is lost (no flow remains); `pkceRequired` is lost |
//! | `APIKeySecurityScheme` | lossless (`in` → `location`) | a `location` other than `cookie`, `header`, `query` is an error |
//! | errors | `data` is lost (the SDK's clients keep code and message only; see [`a2a_protocol::errors`]) | codes v0.3 lacks (-32008, -32009) become -32603 Internal error |
//! | `ListTasks` | — | no v0.3 method: an error |
//!
//! Where the bridge differs from the SDK, on purpose: it keeps numbers exactly (above); a v0.3 error
//! response given where a result is expected is an error ([`BridgeErrorKind::ErrorResponse`]) where the
//! SDK returns an empty `SendMessageResponse` or an empty list; v0.3 `OAuthFlows` with no flow is
//! [`BridgeErrorKind::EmptyOneof`] when converted alone as a typed value ([`upgrade_json`] writes `{}`,
//! as the SDK does), and inside `OAuth2SecurityScheme` leaves `flows` unset, where the SDK writes
//! `"flows": {}`; a downgraded result with no request id is written with `"id": null` (JSON-RPC requires
//! the member; the SDK leaves it out).
//!
//! # Types without a counterpart
//!
//! [`NO_V1_COUNTERPART`] and [`NO_V0_3_COUNTERPART`] list them with the reason: the JSON-RPC envelope
//! and error types (v1 has no messages for them; they convert to [`Error`]), abstract bases, `FileWithBytes` /
//! `FileWithUri` (only inside a part), `TransportProtocol` (a plain string in v1), the delete result
//! (`google.protobuf.Empty`); and from v1, `ListTasks`, the device code flow, `GetExtendedAgentCardRequest`
//! (v0.3's method takes no params) and the pieces v0.3 writes inline (`Role`, `SecurityRequirement`,
//! `StringList`, which convert as [`v0_3::MessageRole`] and `BTreeMap<String, Vec<String>>`).

use std::convert::Infallible;
use std::fmt;

use crate::v0_3;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::service::ProtocolVersion;

mod card;
mod fields;
mod json;
mod methods;
mod objects;
#[cfg(feature = "v0_2")]
mod older;
mod sdk_compat;
mod version;

pub use card::{ToV0_3Card, V0_3_PROTOCOL_VERSION, oauth_flows_to_v1, well_known_card_json};
pub use fields::{V1_FIELD_LOSSES, V1_FIELDS_CARRIED};
pub use json::{
    DOWNGRADES, NO_V0_3_COUNTERPART, NO_V1_COUNTERPART, UPGRADES, downgrade_json,
    downgrade_json_as, upgrade_json, upgrade_slice, upgrade_str,
};
pub use methods::{downgrade_request, downgrade_response, upgrade_request, upgrade_response};
pub use objects::{DATA_PART_COMPAT_KEY, is_final_state};
#[cfg(feature = "v0_2")]
pub use older::{
    OlderVersion, V0_1_MESSAGE_ID_PREFIX, downgrade_json_from_v0_3, downgrade_json_to,
    upgrade_json_from, upgrade_json_to_v0_3,
};
pub use version::{AnyAgentCard, LEGACY_A2A_EXTENSIONS_HEADER, is_v0_3_version, request_version};

/// Why a conversion failed, and where: [`BridgeError::path`] is the field inside the input (as the
/// input's JSON names it, such as `status.message.parts[0]`), empty for the input itself.
#[derive(Clone, Debug, PartialEq)]
pub struct BridgeError {
    path: String,
    kind: BridgeErrorKind,
}

/// What went wrong in a conversion.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BridgeErrorKind {
    /// A v1 `Part` with no `text`, `raw`, `url` or `data`.
    PartWithoutContent,
    /// A v0.3 `FileWithBytes.bytes` that Python's `b64decode` rejects.
    InvalidBase64 { reason: String },
    /// A v0.3 `DataPart` marked `data_part_compat` whose `data` has no `value`.
    MissingWrappedValue,
    /// A timestamp one side cannot carry: v0.3 text the SDK does not read, or a v1 time outside years
    /// 0001 to 9999.
    InvalidTimestamp { value: String, reason: String },
    /// A v0.3 integer (`historyLength`) beyond v1's 32 bits.
    IntegerOutOfRange { value: i64 },
    /// A v1 API key `location` other than `cookie`, `header` or `query`.
    InvalidApiKeyLocation { location: String },
    /// A v1 agent card with no interface a v0.3 client can use (the SDK's `VersionNotSupportedError`).
    NoCompatibleInterface,
    /// A v1 oneof message with no member set, which the Rust enum cannot express (`message` is its full
    /// name).
    EmptyOneof { message: &'static str },
    /// A v0.3 JSON-RPC error response where a result was expected.
    ErrorResponse { error: v0_3::JsonRpcError },
    /// A JSON-RPC error code A2A does not define.
    NotAnA2aError { code: i64 },
    /// A type, method or oneof member (one a later v1 adds) the other version has no counterpart for.
    NoCounterpart { name: String, reason: &'static str },
    /// A type name [`upgrade_json`] or [`downgrade_json`] does not know.
    UnknownType { name: String },
    /// A method name neither version defines.
    UnknownMethod { method: String },
    /// An `A2A-Version` that is no version, or asks for one served neither as 0.3 nor as 1.0.
    UnsupportedVersion { version: String },
    /// A request whose `A2A-Version` is not the version its method belongs to.
    VersionMismatch {
        method: String,
        version: String,
        expected: ProtocolVersion,
    },
    /// JSON that is not a valid value of the type (serde's message).
    InvalidJson { type_name: String, message: String },
}

impl BridgeError {
    /// An error at the input itself.
    pub fn new(kind: BridgeErrorKind) -> Self {
        let kind = match kind {
            // serde's message may quote the offending value whole.
            BridgeErrorKind::InvalidJson { type_name, message } => BridgeErrorKind::InvalidJson {
                type_name,
                message: a2a_types::json::bounded(&message),
            },
            other => other,
        };
        BridgeError {
            path: String::new(),
            kind,
        }
    }

    /// The same error one level down: `segment` is the field of the outer input that held the inner
    /// one (`"status"`, `"parts[0]"`).
    pub fn at(mut self, segment: &str) -> Self {
        self.path = if self.path.is_empty() {
            segment.to_owned()
        } else if self.path.starts_with('[') {
            format!("{segment}{}", self.path)
        } else {
            format!("{segment}.{}", self.path)
        };
        self
    }

    /// Where in the input: a dotted path with list indexes, empty for the input itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What went wrong.
    pub fn kind(&self) -> &BridgeErrorKind {
        &self.kind
    }

    /// The v1 error a server answers with, as the SDK does: version problems are
    /// `VersionNotSupported`, an unknown method `MethodNotFound`, a v1 card with nothing for v0.3
    /// `VersionNotSupported`, a v0.3 error response that error (its code and message, as
    /// `TryFrom<&v0_3::JsonRpcError> for Error` reads it); the rest are `InvalidParams`. The message is this error's text, naming the field at fault.
    pub fn to_v1_error(&self) -> Error {
        let kind = match &self.kind {
            BridgeErrorKind::UnknownMethod { .. } => ErrorKind::MethodNotFound,
            BridgeErrorKind::UnsupportedVersion { .. }
            | BridgeErrorKind::VersionMismatch { .. }
            | BridgeErrorKind::NoCompatibleInterface => ErrorKind::VersionNotSupported,
            BridgeErrorKind::ErrorResponse { error } => match Error::try_from(error) {
                Ok(error) => return error,
                Err(_) => ErrorKind::Internal,
            },
            _ => ErrorKind::InvalidParams,
        };
        Error::with_message(kind, self.to_string())
    }
}

/// [`BridgeError::to_v1_error`].
impl From<&BridgeError> for Error {
    fn from(error: &BridgeError) -> Self {
        error.to_v1_error()
    }
}

/// [`BridgeError::to_v1_error`].
impl From<BridgeError> for Error {
    fn from(error: BridgeError) -> Self {
        error.to_v1_error()
    }
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        match &self.kind {
            BridgeErrorKind::PartWithoutContent => {
                f.write_str("a v1 part with no content has no v0.3 form")
            }
            BridgeErrorKind::InvalidBase64 { reason } => write!(f, "invalid base64: {reason}"),
            BridgeErrorKind::MissingWrappedValue => f.write_str(
                "the part's metadata says `data_part_compat` but its data has no `value`",
            ),
            BridgeErrorKind::InvalidTimestamp { value, reason } => {
                write!(f, "timestamp {value:?} cannot be converted: {reason}")
            }
            BridgeErrorKind::IntegerOutOfRange { value } => {
                write!(f, "{value} does not fit v1's 32-bit integer")
            }
            BridgeErrorKind::InvalidApiKeyLocation { location } => write!(
                f,
                "API key location {location:?} is none of v0.3's `cookie`, `header`, `query`"
            ),
            BridgeErrorKind::NoCompatibleInterface => f.write_str(
                "the card has no interface with an A2A 0.x protocol version, so no v0.3 form",
            ),
            BridgeErrorKind::EmptyOneof { message } => {
                write!(f, "{message} needs exactly one member; none is given")
            }
            BridgeErrorKind::ErrorResponse { error } => write!(
                f,
                "the response is a JSON-RPC error ({}: {})",
                error.code, error.message
            ),
            BridgeErrorKind::NotAnA2aError { code } => {
                write!(f, "{code} is not an A2A error code")
            }
            BridgeErrorKind::NoCounterpart { name, reason } => {
                write!(
                    f,
                    "{name} has no counterpart in the other version: {reason}"
                )
            }
            BridgeErrorKind::UnknownType { name } => {
                write!(f, "unknown type {name:?}")
            }
            BridgeErrorKind::UnknownMethod { method } => {
                write!(f, "unknown method {method:?}")
            }
            BridgeErrorKind::UnsupportedVersion { version } => {
                write!(f, "A2A version {version:?} is not supported (0.3 or 1.0)")
            }
            BridgeErrorKind::VersionMismatch {
                method,
                version,
                expected,
            } => write!(
                f,
                "method {method:?} is A2A {expected}, but the request says A2A-Version {version:?}"
            ),
            BridgeErrorKind::InvalidJson { type_name, message } => {
                write!(f, "not a valid {type_name}: {message}")
            }
        }
    }
}

impl std::error::Error for BridgeError {}

impl From<Infallible> for BridgeError {
    fn from(never: Infallible) -> Self {
        match never {}
    }
}

/// Converts a list, naming the failing item `field[index]`.
fn convert_list<A, B>(items: Vec<A>, field: &str) -> Result<Vec<B>, BridgeError>
where
    B: TryFrom<A, Error = BridgeError>,
{
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| B::try_from(item).map_err(|e| e.at(&format!("{field}[{index}]"))))
        .collect()
}
