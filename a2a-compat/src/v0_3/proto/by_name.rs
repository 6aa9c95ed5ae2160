//! Conversion chosen by name at run time, for tools: [`PROTO_PAIRS`](super::PROTO_PAIRS),
//! [`jsonrpc_to_proto`](super::jsonrpc_to_proto), [`proto_to_jsonrpc`](super::proto_to_jsonrpc).

use super::*;

/// One `a2a.v1` message and its JSON-RPC form, as [`PROTO_PAIRS`] lists them.
#[derive(Clone, Copy)]
pub struct ProtoPair {
    /// Full protobuf name, such as `a2a.v1.SendMessageRequest`.
    pub proto: &'static str,
    /// The JSON-RPC form: a definition of the v0.3 JSON Schema (`MessageSendParams`), or a member of
    /// one for forms the schema does not name (`SendMessageSuccessResponse.result`).
    pub jsonrpc: &'static str,
    to_proto: fn(serde_json::Value) -> Result<Vec<u8>, TranscodeError>,
    from_proto: fn(&[u8]) -> Result<serde_json::Value, TranscodeError>,
}

impl ProtoPair {
    /// Reads `json` as the JSON-RPC form and returns the message's protobuf binary encoding.
    pub fn to_proto(&self, json: serde_json::Value) -> Result<Vec<u8>, TranscodeError> {
        (self.to_proto)(json)
    }

    /// Decodes the message's protobuf binary encoding and returns its JSON-RPC form.
    pub fn from_proto(&self, binpb: &[u8]) -> Result<serde_json::Value, TranscodeError> {
        (self.from_proto)(binpb)
    }
}

impl fmt::Debug for ProtoPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProtoPair")
            .field("proto", &self.proto)
            .field("jsonrpc", &self.jsonrpc)
            .finish_non_exhaustive()
    }
}

/// Why [`jsonrpc_to_proto`] or [`proto_to_jsonrpc`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscodeError {
    /// No message of package `a2a.v1` has this name.
    UnknownType(String),
    /// The message has no JSON-RPC form (see [`NO_JSONRPC_COUNTERPART`]).
    NoCounterpart {
        proto: &'static str,
        reason: &'static str,
    },
    /// The JSON does not have the shape of the JSON-RPC form.
    Json { path: String, message: String },
    /// The bytes are not a protobuf encoding of the message.
    Binary(String),
    /// The value has no counterpart on the other side (see [`ConversionError`]).
    Conversion(ConversionError),
}

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownType(name) => write!(f, "`{name}` is not a message of package a2a.v1"),
            Self::NoCounterpart { proto, reason } => {
                write!(f, "`{proto}` has no v0.3 JSON-RPC form: {reason}")
            }
            Self::Json { path, message } => write!(f, "invalid JSON at `{path}`: {message}"),
            Self::Binary(message) => write!(f, "invalid protobuf binary: {message}"),
            Self::Conversion(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for TranscodeError {}

impl From<ConversionError> for TranscodeError {
    fn from(error: ConversionError) -> Self {
        Self::Conversion(error)
    }
}

/// A JSON-RPC form and one protobuf message, both ways; implemented for every pair of the table.
trait Pairing<P>: Sized {
    fn into_proto(self) -> Result<P, ConversionError>;
    fn from_proto(proto: P) -> Result<Self, ConversionError>;
}

fn encode<J, P>(json: serde_json::Value) -> Result<Vec<u8>, TranscodeError>
where
    J: DeserializeOwned + Pairing<P>,
    P: ProtoMessage,
{
    let text = serde_json::to_vec(&json).expect("a JSON value is always JSON text");
    let value: J = a2a_proto::json::from_slice(&text).map_err(|e| TranscodeError::Json {
        path: e.path().to_owned(),
        message: e.inner().to_string(),
    })?;
    Ok(value.into_proto()?.encode_to_vec())
}

fn decode<J, P>(bytes: &[u8]) -> Result<serde_json::Value, TranscodeError>
where
    J: Serialize + Pairing<P>,
    P: ProtoMessage,
{
    let proto = P::decode(bytes).map_err(|e| TranscodeError::Binary(e.to_string()))?;
    let value = J::from_proto(proto)?;
    Ok(serde_json::to_value(&value).expect("the JSON-RPC types are always JSON"))
}

macro_rules! pairing {
    // `From` both ways.
    ($json:ty, $proto:ty, from, from) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                Ok(self.into())
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                Ok(proto.into())
            }
        }
    };
    ($json:ty, $proto:ty, from, try) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                Ok(self.into())
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                proto.try_into()
            }
        }
    };
    ($json:ty, $proto:ty, try, from) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                self.try_into()
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                Ok(proto.into())
            }
        }
    };
    ($json:ty, $proto:ty, try, try) => {
        impl Pairing<$proto> for $json {
            fn into_proto(self) -> Result<$proto, ConversionError> {
                self.try_into()
            }
            fn from_proto(proto: $proto) -> Result<Self, ConversionError> {
                proto.try_into()
            }
        }
    };
}

pairing!(
    MessageSendConfiguration,
    pb::SendMessageConfiguration,
    try,
    from
);
pairing!(Task, pb::Task, try, try);
pairing!(TaskStatus, pb::TaskStatus, try, try);
pairing!(Part, pb::Part, from, try);
pairing!(FileContent, pb::FilePart, from, try);
pairing!(Message, pb::Message, from, try);
pairing!(Artifact, pb::Artifact, from, try);
pairing!(TaskStatusUpdateEvent, pb::TaskStatusUpdateEvent, try, try);
pairing!(
    TaskArtifactUpdateEvent,
    pb::TaskArtifactUpdateEvent,
    from,
    try
);
pairing!(
    PushNotificationConfig,
    pb::PushNotificationConfig,
    from,
    from
);
pairing!(
    PushNotificationAuthenticationInfo,
    pb::AuthenticationInfo,
    from,
    from
);
pairing!(AgentInterface, pb::AgentInterface, from, from);
pairing!(AgentCard, pb::AgentCard, try, try);
pairing!(AgentProvider, pb::AgentProvider, from, from);
pairing!(AgentCapabilities, pb::AgentCapabilities, from, try);
pairing!(AgentExtension, pb::AgentExtension, from, try);
pairing!(AgentSkill, pb::AgentSkill, from, from);
pairing!(AgentCardSignature, pb::AgentCardSignature, from, try);
pairing!(
    TaskPushNotificationConfig,
    pb::TaskPushNotificationConfig,
    try,
    try
);
pairing!(SecurityScheme, pb::SecurityScheme, try, try);
pairing!(ApiKeySecurityScheme, pb::ApiKeySecurityScheme, from, try);
pairing!(
    HttpAuthSecurityScheme,
    pb::HttpAuthSecurityScheme,
    from,
    from
);
pairing!(OAuth2SecurityScheme, pb::OAuth2SecurityScheme, try, from);
pairing!(
    OpenIdConnectSecurityScheme,
    pb::OpenIdConnectSecurityScheme,
    from,
    from
);
pairing!(
    MutualTlsSecurityScheme,
    pb::MutualTlsSecurityScheme,
    from,
    from
);
pairing!(OAuthFlows, pb::OAuthFlows, try, from);
pairing!(
    AuthorizationCodeOAuthFlow,
    pb::AuthorizationCodeOAuthFlow,
    from,
    from
);
pairing!(
    ClientCredentialsOAuthFlow,
    pb::ClientCredentialsOAuthFlow,
    from,
    from
);
pairing!(ImplicitOAuthFlow, pb::ImplicitOAuthFlow, from, from);
pairing!(PasswordOAuthFlow, pb::PasswordOAuthFlow, from, from);
pairing!(MessageSendParams, pb::SendMessageRequest, try, try);
pairing!(TaskQueryParams, pb::GetTaskRequest, try, try);
pairing!(TaskIdParams, pb::CancelTaskRequest, try, try);
pairing!(TaskIdParams, pb::TaskSubscriptionRequest, try, try);
pairing!(
    GetTaskPushNotificationConfigParams,
    pb::GetTaskPushNotificationConfigRequest,
    try,
    try
);
pairing!(
    DeleteTaskPushNotificationConfigParams,
    pb::DeleteTaskPushNotificationConfigRequest,
    try,
    try
);
pairing!(
    ListTaskPushNotificationConfigParams,
    pb::ListTaskPushNotificationConfigRequest,
    try,
    try
);
pairing!(
    TaskPushNotificationConfig,
    pb::CreateTaskPushNotificationConfigRequest,
    try,
    try
);
pairing!(SendMessageResult, pb::SendMessageResponse, try, try);
pairing!(SendStreamingMessageResult, pb::StreamResponse, try, try);
pairing!(
    ListTaskPushNotificationConfigSuccessResponse,
    pb::ListTaskPushNotificationConfigResponse,
    try,
    try
);

impl Pairing<pb::DataPart> for JsonObject {
    fn into_proto(self) -> Result<pb::DataPart, ConversionError> {
        Ok(data_to_proto(self))
    }
    fn from_proto(proto: pb::DataPart) -> Result<Self, ConversionError> {
        data_from_proto(proto)
    }
}

impl Pairing<pb::Security> for SecurityRequirement {
    fn into_proto(self) -> Result<pb::Security, ConversionError> {
        Ok(security_to_proto(self))
    }
    fn from_proto(proto: pb::Security) -> Result<Self, ConversionError> {
        Ok(security_from_proto(proto))
    }
}

impl Pairing<pb::StringList> for Vec<String> {
    fn into_proto(self) -> Result<pb::StringList, ConversionError> {
        Ok(pb::StringList { list: self })
    }
    fn from_proto(proto: pb::StringList) -> Result<Self, ConversionError> {
        Ok(proto.list)
    }
}

macro_rules! pairs {
    ($($proto:literal => $jsonrpc:literal : $json:ty, $pb:ty;)*) => {
        /// Every `a2a.v1` message with a JSON-RPC form, in the proto's declaration order.
        pub const PROTO_PAIRS: &[ProtoPair] = &[$(ProtoPair {
            proto: $proto,
            jsonrpc: $jsonrpc,
            to_proto: encode::<$json, $pb>,
            from_proto: decode::<$json, $pb>,
        }),*];
    };
}

pairs! {
    "a2a.v1.SendMessageConfiguration" => "MessageSendConfiguration": MessageSendConfiguration, pb::SendMessageConfiguration;
    "a2a.v1.Task" => "Task": Task, pb::Task;
    "a2a.v1.TaskStatus" => "TaskStatus": TaskStatus, pb::TaskStatus;
    "a2a.v1.Part" => "Part": Part, pb::Part;
    "a2a.v1.FilePart" => "FilePart.file": FileContent, pb::FilePart;
    "a2a.v1.DataPart" => "DataPart.data": JsonObject, pb::DataPart;
    "a2a.v1.Message" => "Message": Message, pb::Message;
    "a2a.v1.Artifact" => "Artifact": Artifact, pb::Artifact;
    "a2a.v1.TaskStatusUpdateEvent" => "TaskStatusUpdateEvent": TaskStatusUpdateEvent, pb::TaskStatusUpdateEvent;
    "a2a.v1.TaskArtifactUpdateEvent" => "TaskArtifactUpdateEvent": TaskArtifactUpdateEvent, pb::TaskArtifactUpdateEvent;
    "a2a.v1.PushNotificationConfig" => "PushNotificationConfig": PushNotificationConfig, pb::PushNotificationConfig;
    "a2a.v1.AuthenticationInfo" => "PushNotificationAuthenticationInfo": PushNotificationAuthenticationInfo, pb::AuthenticationInfo;
    "a2a.v1.AgentInterface" => "AgentInterface": AgentInterface, pb::AgentInterface;
    "a2a.v1.AgentCard" => "AgentCard": AgentCard, pb::AgentCard;
    "a2a.v1.AgentProvider" => "AgentProvider": AgentProvider, pb::AgentProvider;
    "a2a.v1.AgentCapabilities" => "AgentCapabilities": AgentCapabilities, pb::AgentCapabilities;
    "a2a.v1.AgentExtension" => "AgentExtension": AgentExtension, pb::AgentExtension;
    "a2a.v1.AgentSkill" => "AgentSkill": AgentSkill, pb::AgentSkill;
    "a2a.v1.AgentCardSignature" => "AgentCardSignature": AgentCardSignature, pb::AgentCardSignature;
    "a2a.v1.TaskPushNotificationConfig" => "TaskPushNotificationConfig": TaskPushNotificationConfig, pb::TaskPushNotificationConfig;
    "a2a.v1.StringList" => "AgentCard.security[].*": Vec<String>, pb::StringList;
    "a2a.v1.Security" => "AgentCard.security[]": SecurityRequirement, pb::Security;
    "a2a.v1.SecurityScheme" => "SecurityScheme": SecurityScheme, pb::SecurityScheme;
    "a2a.v1.APIKeySecurityScheme" => "APIKeySecurityScheme": ApiKeySecurityScheme, pb::ApiKeySecurityScheme;
    "a2a.v1.HTTPAuthSecurityScheme" => "HTTPAuthSecurityScheme": HttpAuthSecurityScheme, pb::HttpAuthSecurityScheme;
    "a2a.v1.OAuth2SecurityScheme" => "OAuth2SecurityScheme": OAuth2SecurityScheme, pb::OAuth2SecurityScheme;
    "a2a.v1.OpenIdConnectSecurityScheme" => "OpenIdConnectSecurityScheme": OpenIdConnectSecurityScheme, pb::OpenIdConnectSecurityScheme;
    "a2a.v1.MutualTlsSecurityScheme" => "MutualTLSSecurityScheme": MutualTlsSecurityScheme, pb::MutualTlsSecurityScheme;
    "a2a.v1.OAuthFlows" => "OAuthFlows": OAuthFlows, pb::OAuthFlows;
    "a2a.v1.AuthorizationCodeOAuthFlow" => "AuthorizationCodeOAuthFlow": AuthorizationCodeOAuthFlow, pb::AuthorizationCodeOAuthFlow;
    "a2a.v1.ClientCredentialsOAuthFlow" => "ClientCredentialsOAuthFlow": ClientCredentialsOAuthFlow, pb::ClientCredentialsOAuthFlow;
    "a2a.v1.ImplicitOAuthFlow" => "ImplicitOAuthFlow": ImplicitOAuthFlow, pb::ImplicitOAuthFlow;
    "a2a.v1.PasswordOAuthFlow" => "PasswordOAuthFlow": PasswordOAuthFlow, pb::PasswordOAuthFlow;
    "a2a.v1.SendMessageRequest" => "MessageSendParams": MessageSendParams, pb::SendMessageRequest;
    "a2a.v1.GetTaskRequest" => "TaskQueryParams": TaskQueryParams, pb::GetTaskRequest;
    "a2a.v1.CancelTaskRequest" => "TaskIdParams": TaskIdParams, pb::CancelTaskRequest;
    "a2a.v1.GetTaskPushNotificationConfigRequest" => "GetTaskPushNotificationConfigParams": GetTaskPushNotificationConfigParams, pb::GetTaskPushNotificationConfigRequest;
    "a2a.v1.DeleteTaskPushNotificationConfigRequest" => "DeleteTaskPushNotificationConfigParams": DeleteTaskPushNotificationConfigParams, pb::DeleteTaskPushNotificationConfigRequest;
    "a2a.v1.CreateTaskPushNotificationConfigRequest" => "TaskPushNotificationConfig": TaskPushNotificationConfig, pb::CreateTaskPushNotificationConfigRequest;
    "a2a.v1.TaskSubscriptionRequest" => "TaskIdParams": TaskIdParams, pb::TaskSubscriptionRequest;
    "a2a.v1.ListTaskPushNotificationConfigRequest" => "ListTaskPushNotificationConfigParams": ListTaskPushNotificationConfigParams, pb::ListTaskPushNotificationConfigRequest;
    "a2a.v1.SendMessageResponse" => "SendMessageSuccessResponse.result": SendMessageResult, pb::SendMessageResponse;
    "a2a.v1.StreamResponse" => "SendStreamingMessageSuccessResponse.result": SendStreamingMessageResult, pb::StreamResponse;
    "a2a.v1.ListTaskPushNotificationConfigResponse" => "ListTaskPushNotificationConfigSuccessResponse": ListTaskPushNotificationConfigSuccessResponse, pb::ListTaskPushNotificationConfigResponse;
}

/// The `a2a.v1` messages without a JSON-RPC form, each with the reason.
pub const NO_JSONRPC_COUNTERPART: &[(&str, &str)] = &[(
    "a2a.v1.GetAgentCardRequest",
    "`agent/getAuthenticatedExtendedCard` takes no params, and the message is empty",
)];

fn pair(proto_full_name: &str) -> Result<&'static ProtoPair, TranscodeError> {
    if let Some(pair) = PROTO_PAIRS.iter().find(|p| p.proto == proto_full_name) {
        return Ok(pair);
    }
    match NO_JSONRPC_COUNTERPART
        .iter()
        .find(|(name, _)| *name == proto_full_name)
    {
        Some((proto, reason)) => Err(TranscodeError::NoCounterpart { proto, reason }),
        None => Err(TranscodeError::UnknownType(proto_full_name.to_owned())),
    }
}

/// The JSON-RPC form of the `a2a.v1` message `proto_full_name`, as [`ProtoPair::jsonrpc`] names it;
/// `None` for a message without one or a name that is no `a2a.v1` message.
///
/// ```
/// use a2a_compat::v0_3::proto::jsonrpc_schema_type;
///
/// assert_eq!(jsonrpc_schema_type("a2a.v1.SendMessageRequest"), Some("MessageSendParams"));
/// assert_eq!(jsonrpc_schema_type("a2a.v1.GetAgentCardRequest"), None);
/// ```
pub fn jsonrpc_schema_type(proto_full_name: &str) -> Option<&'static str> {
    pair(proto_full_name).ok().map(|pair| pair.jsonrpc)
}

/// Reads `json` as the JSON-RPC form of `proto_full_name` and returns the message in the protobuf
/// binary encoding, as the SDK converts it.
///
/// ```
/// use a2a_proto::registry::ProtoMessage;
/// use a2a_proto::v0_3 as pb;
/// use a2a_compat::v0_3::proto::jsonrpc_to_proto;
///
/// fn decode<M: ProtoMessage>(bytes: &[u8]) -> M {
///     M::decode(bytes).unwrap()
/// }
///
/// let params = serde_json::json!({"id": "task-7f3a", "historyLength": 5});
/// let bytes = jsonrpc_to_proto("a2a.v1.GetTaskRequest", params).unwrap();
/// let request: pb::GetTaskRequest = decode(&bytes);
/// assert_eq!((request.name.as_str(), request.history_length), ("tasks/task-7f3a", 5));
/// ```
pub fn jsonrpc_to_proto(
    proto_full_name: &str,
    json: serde_json::Value,
) -> Result<Vec<u8>, TranscodeError> {
    pair(proto_full_name)?.to_proto(json)
}

/// Decodes `binpb` as the message `proto_full_name` and returns its JSON-RPC form, as the SDK
/// converts it.
///
/// ```
/// use a2a_compat::v0_3::proto::{jsonrpc_to_proto, proto_to_jsonrpc};
///
/// let bytes = jsonrpc_to_proto("a2a.v1.CancelTaskRequest", serde_json::json!({"id": "t-1"})).unwrap();
/// let params = proto_to_jsonrpc("a2a.v1.CancelTaskRequest", &bytes).unwrap();
/// assert_eq!(params, serde_json::json!({"id": "t-1"}));
///
/// let bad = proto_to_jsonrpc("a2a.v1.CancelTaskRequest", b"\x0a\x04t-1/").unwrap_err();
/// assert!(bad.to_string().contains("at `name`"), "{bad}");
/// ```
pub fn proto_to_jsonrpc(
    proto_full_name: &str,
    binpb: &[u8],
) -> Result<serde_json::Value, TranscodeError> {
    pair(proto_full_name)?.from_proto(binpb)
}
