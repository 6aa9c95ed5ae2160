//! Conversions chosen by name at run time, on JSON: for a command-line tool or a proxy.
//!
//! Each direction is one table, written once in `by_name!`: a row names the type on one side, what it
//! becomes on the other, and the conversion. The public list ([`UPGRADES`], [`DOWNGRADES`]) and the
//! dispatch of [`upgrade_json`] / [`downgrade_json`] both come from it, so they cannot disagree.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::methods::upgrade_request;
use super::{BridgeError, BridgeErrorKind};
use a2a_types::v1;

use crate::v0_3;

mod downgrade_as;

pub use downgrade_as::downgrade_json_as;

/// Builds a public table of `(from, to)` names and the function that converts by it. Each row is
/// `from => to, conversion;`, the conversion being a function of the `from` name, the `to` name and
/// the JSON (most rows use [`convert`]).
macro_rules! by_name {
    ($(#[$doc:meta])* $table:ident, $dispatch:ident: $($from:literal => $to:literal, $convert:expr;)*) => {
        $(#[$doc])*
        pub const $table: &[(&str, &str)] = &[$(($from, $to)),*];

        /// Converts `json` of the type named `name` by its row of the table; `None` when it has none.
        fn $dispatch(name: &str, json: Json<'_>) -> Option<Result<(&'static str, Written), BridgeError>> {
            match name {
                $($from => Some($convert($from, $to, json)),)*
                _ => None,
            }
        }
    };
}

by_name! {
    /// Every v0.3 schema type [`upgrade_json`] converts, with the full name of the v1 message (or enum) it
    /// becomes. Several v0.3 types become the same v1 message: the parts and their kinds, a request and its
    /// params, a success response and its per-method union.
    UPGRADES, upgrade_by_table:
    "A2ARequest" => "lf.a2a.v1.<the request message of its method>", upgrade_any_request;
    "APIKeySecurityScheme" => "lf.a2a.v1.APIKeySecurityScheme", convert::<v0_3::ApiKeySecurityScheme, v1::ApiKeySecurityScheme>;
    "AgentCapabilities" => "lf.a2a.v1.AgentCapabilities", convert::<v0_3::AgentCapabilities, v1::AgentCapabilities>;
    "AgentCard" => "lf.a2a.v1.AgentCard", convert::<v0_3::AgentCard, v1::AgentCard>;
    "AgentCardSignature" => "lf.a2a.v1.AgentCardSignature", convert::<v0_3::AgentCardSignature, v1::AgentCardSignature>;
    "AgentExtension" => "lf.a2a.v1.AgentExtension", convert::<v0_3::AgentExtension, v1::AgentExtension>;
    "AgentInterface" => "lf.a2a.v1.AgentInterface", convert::<v0_3::AgentInterface, v1::AgentInterface>;
    "AgentProvider" => "lf.a2a.v1.AgentProvider", convert::<v0_3::AgentProvider, v1::AgentProvider>;
    "AgentSkill" => "lf.a2a.v1.AgentSkill", convert::<v0_3::AgentSkill, v1::AgentSkill>;
    "Artifact" => "lf.a2a.v1.Artifact", convert::<v0_3::Artifact, v1::Artifact>;
    "AuthorizationCodeOAuthFlow" => "lf.a2a.v1.AuthorizationCodeOAuthFlow", convert::<v0_3::AuthorizationCodeOAuthFlow, v1::AuthorizationCodeOAuthFlow>;
    "CancelTaskRequest" => "lf.a2a.v1.CancelTaskRequest", convert::<v0_3::CancelTaskRequest, v1::CancelTaskRequest>;
    "CancelTaskResponse" => "lf.a2a.v1.Task", convert::<v0_3::CancelTaskResponse, v1::Task>;
    "CancelTaskSuccessResponse" => "lf.a2a.v1.Task", convert::<v0_3::CancelTaskSuccessResponse, v1::Task>;
    "ClientCredentialsOAuthFlow" => "lf.a2a.v1.ClientCredentialsOAuthFlow", convert::<v0_3::ClientCredentialsOAuthFlow, v1::ClientCredentialsOAuthFlow>;
    "DataPart" => "lf.a2a.v1.Part", part_member::<v0_3::DataPart>;
    "DeleteTaskPushNotificationConfigParams" => "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest", convert::<v0_3::DeleteTaskPushNotificationConfigParams, v1::DeleteTaskPushNotificationConfigRequest>;
    "DeleteTaskPushNotificationConfigRequest" => "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest", convert::<v0_3::DeleteTaskPushNotificationConfigRequest, v1::DeleteTaskPushNotificationConfigRequest>;
    "FilePart" => "lf.a2a.v1.Part", part_member::<v0_3::FilePart>;
    "GetAuthenticatedExtendedCardRequest" => "lf.a2a.v1.GetExtendedAgentCardRequest", convert::<v0_3::GetAuthenticatedExtendedCardRequest, v1::GetExtendedAgentCardRequest>;
    "GetAuthenticatedExtendedCardResponse" => "lf.a2a.v1.AgentCard", convert::<v0_3::GetAuthenticatedExtendedCardResponse, v1::AgentCard>;
    "GetAuthenticatedExtendedCardSuccessResponse" => "lf.a2a.v1.AgentCard", convert::<v0_3::GetAuthenticatedExtendedCardSuccessResponse, v1::AgentCard>;
    "GetTaskPushNotificationConfigParams" => "lf.a2a.v1.GetTaskPushNotificationConfigRequest", convert::<v0_3::GetTaskPushNotificationConfigParams, v1::GetTaskPushNotificationConfigRequest>;
    "GetTaskPushNotificationConfigRequest" => "lf.a2a.v1.GetTaskPushNotificationConfigRequest", convert::<v0_3::GetTaskPushNotificationConfigRequest, v1::GetTaskPushNotificationConfigRequest>;
    "GetTaskPushNotificationConfigResponse" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::GetTaskPushNotificationConfigResponse, v1::TaskPushNotificationConfig>;
    "GetTaskPushNotificationConfigSuccessResponse" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::GetTaskPushNotificationConfigSuccessResponse, v1::TaskPushNotificationConfig>;
    "GetTaskRequest" => "lf.a2a.v1.GetTaskRequest", convert::<v0_3::GetTaskRequest, v1::GetTaskRequest>;
    "GetTaskResponse" => "lf.a2a.v1.Task", convert::<v0_3::GetTaskResponse, v1::Task>;
    "GetTaskSuccessResponse" => "lf.a2a.v1.Task", convert::<v0_3::GetTaskSuccessResponse, v1::Task>;
    "HTTPAuthSecurityScheme" => "lf.a2a.v1.HTTPAuthSecurityScheme", convert::<v0_3::HttpAuthSecurityScheme, v1::HttpAuthSecurityScheme>;
    "ImplicitOAuthFlow" => "lf.a2a.v1.ImplicitOAuthFlow", convert::<v0_3::ImplicitOAuthFlow, v1::ImplicitOAuthFlow>;
    "ListTaskPushNotificationConfigParams" => "lf.a2a.v1.ListTaskPushNotificationConfigsRequest", convert::<v0_3::ListTaskPushNotificationConfigParams, v1::ListTaskPushNotificationConfigsRequest>;
    "ListTaskPushNotificationConfigRequest" => "lf.a2a.v1.ListTaskPushNotificationConfigsRequest", convert::<v0_3::ListTaskPushNotificationConfigRequest, v1::ListTaskPushNotificationConfigsRequest>;
    "ListTaskPushNotificationConfigResponse" => "lf.a2a.v1.ListTaskPushNotificationConfigsResponse", convert::<v0_3::ListTaskPushNotificationConfigResponse, v1::ListTaskPushNotificationConfigsResponse>;
    "ListTaskPushNotificationConfigSuccessResponse" => "lf.a2a.v1.ListTaskPushNotificationConfigsResponse", convert::<v0_3::ListTaskPushNotificationConfigSuccessResponse, v1::ListTaskPushNotificationConfigsResponse>;
    "Message" => "lf.a2a.v1.Message", convert::<v0_3::Message, v1::Message>;
    "MessageSendConfiguration" => "lf.a2a.v1.SendMessageConfiguration", convert::<v0_3::MessageSendConfiguration, v1::SendMessageConfiguration>;
    "MessageSendParams" => "lf.a2a.v1.SendMessageRequest", convert::<v0_3::MessageSendParams, v1::SendMessageRequest>;
    "MutualTLSSecurityScheme" => "lf.a2a.v1.MutualTlsSecurityScheme", convert::<v0_3::MutualTlsSecurityScheme, v1::MutualTlsSecurityScheme>;
    "OAuth2SecurityScheme" => "lf.a2a.v1.OAuth2SecurityScheme", convert::<v0_3::OAuth2SecurityScheme, v1::OAuth2SecurityScheme>;
    "OAuthFlows" => "lf.a2a.v1.OAuthFlows", upgrade_oauth_flows;
    "OpenIdConnectSecurityScheme" => "lf.a2a.v1.OpenIdConnectSecurityScheme", convert::<v0_3::OpenIdConnectSecurityScheme, v1::OpenIdConnectSecurityScheme>;
    "Part" => "lf.a2a.v1.Part", convert::<v0_3::Part, v1::Part>;
    "PasswordOAuthFlow" => "lf.a2a.v1.PasswordOAuthFlow", convert::<v0_3::PasswordOAuthFlow, v1::PasswordOAuthFlow>;
    "PushNotificationAuthenticationInfo" => "lf.a2a.v1.AuthenticationInfo", convert::<v0_3::PushNotificationAuthenticationInfo, v1::AuthenticationInfo>;
    "PushNotificationConfig" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::PushNotificationConfig, v1::TaskPushNotificationConfig>;
    "SecurityScheme" => "lf.a2a.v1.SecurityScheme", convert::<v0_3::SecurityScheme, v1::SecurityScheme>;
    "SendMessageRequest" => "lf.a2a.v1.SendMessageRequest", convert::<v0_3::SendMessageRequest, v1::SendMessageRequest>;
    "SendMessageResponse" => "lf.a2a.v1.SendMessageResponse", convert::<v0_3::SendMessageResponse, v1::SendMessageResponse>;
    "SendMessageSuccessResponse" => "lf.a2a.v1.SendMessageResponse", convert::<v0_3::SendMessageSuccessResponse, v1::SendMessageResponse>;
    "SendStreamingMessageRequest" => "lf.a2a.v1.SendMessageRequest", convert::<v0_3::SendStreamingMessageRequest, v1::SendMessageRequest>;
    "SendStreamingMessageResponse" => "lf.a2a.v1.StreamResponse", convert::<v0_3::SendStreamingMessageResponse, v1::StreamResponse>;
    "SendStreamingMessageSuccessResponse" => "lf.a2a.v1.StreamResponse", convert::<v0_3::SendStreamingMessageSuccessResponse, v1::StreamResponse>;
    "SetTaskPushNotificationConfigRequest" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::SetTaskPushNotificationConfigRequest, v1::TaskPushNotificationConfig>;
    "SetTaskPushNotificationConfigResponse" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::SetTaskPushNotificationConfigResponse, v1::TaskPushNotificationConfig>;
    "SetTaskPushNotificationConfigSuccessResponse" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::SetTaskPushNotificationConfigSuccessResponse, v1::TaskPushNotificationConfig>;
    "Task" => "lf.a2a.v1.Task", convert::<v0_3::Task, v1::Task>;
    "TaskArtifactUpdateEvent" => "lf.a2a.v1.TaskArtifactUpdateEvent", convert::<v0_3::TaskArtifactUpdateEvent, v1::TaskArtifactUpdateEvent>;
    "TaskIdParams" => "lf.a2a.v1.CancelTaskRequest", convert::<v0_3::TaskIdParams, v1::CancelTaskRequest>;
    "TaskPushNotificationConfig" => "lf.a2a.v1.TaskPushNotificationConfig", convert::<v0_3::TaskPushNotificationConfig, v1::TaskPushNotificationConfig>;
    "TaskQueryParams" => "lf.a2a.v1.GetTaskRequest", convert::<v0_3::TaskQueryParams, v1::GetTaskRequest>;
    "TaskResubscriptionRequest" => "lf.a2a.v1.SubscribeToTaskRequest", convert::<v0_3::TaskResubscriptionRequest, v1::SubscribeToTaskRequest>;
    "TaskState" => "lf.a2a.v1.TaskState", convert::<v0_3::TaskState, v1::TaskState>;
    "TaskStatus" => "lf.a2a.v1.TaskStatus", convert::<v0_3::TaskStatus, v1::TaskStatus>;
    "TaskStatusUpdateEvent" => "lf.a2a.v1.TaskStatusUpdateEvent", convert::<v0_3::TaskStatusUpdateEvent, v1::TaskStatusUpdateEvent>;
    "TextPart" => "lf.a2a.v1.Part", part_member::<v0_3::TextPart>;
}

by_name! {
    /// Every v1 message (or enum) [`downgrade_json`] converts, with the v0.3 schema type it becomes.
    DOWNGRADES, downgrade_by_table:
    "lf.a2a.v1.APIKeySecurityScheme" => "APIKeySecurityScheme", convert::<v1::ApiKeySecurityScheme, v0_3::ApiKeySecurityScheme>;
    "lf.a2a.v1.AgentCapabilities" => "AgentCapabilities", convert::<v1::AgentCapabilities, v0_3::AgentCapabilities>;
    "lf.a2a.v1.AgentCard" => "AgentCard", convert::<v1::AgentCard, v0_3::AgentCard>;
    "lf.a2a.v1.AgentCardSignature" => "AgentCardSignature", convert::<v1::AgentCardSignature, v0_3::AgentCardSignature>;
    "lf.a2a.v1.AgentExtension" => "AgentExtension", convert::<v1::AgentExtension, v0_3::AgentExtension>;
    "lf.a2a.v1.AgentInterface" => "AgentInterface", convert::<v1::AgentInterface, v0_3::AgentInterface>;
    "lf.a2a.v1.AgentProvider" => "AgentProvider", convert::<v1::AgentProvider, v0_3::AgentProvider>;
    "lf.a2a.v1.AgentSkill" => "AgentSkill", convert::<v1::AgentSkill, v0_3::AgentSkill>;
    "lf.a2a.v1.Artifact" => "Artifact", convert::<v1::Artifact, v0_3::Artifact>;
    "lf.a2a.v1.AuthenticationInfo" => "PushNotificationAuthenticationInfo", convert::<v1::AuthenticationInfo, v0_3::PushNotificationAuthenticationInfo>;
    "lf.a2a.v1.AuthorizationCodeOAuthFlow" => "AuthorizationCodeOAuthFlow", convert::<v1::AuthorizationCodeOAuthFlow, v0_3::AuthorizationCodeOAuthFlow>;
    "lf.a2a.v1.CancelTaskRequest" => "TaskIdParams", convert::<v1::CancelTaskRequest, v0_3::TaskIdParams>;
    "lf.a2a.v1.ClientCredentialsOAuthFlow" => "ClientCredentialsOAuthFlow", convert::<v1::ClientCredentialsOAuthFlow, v0_3::ClientCredentialsOAuthFlow>;
    "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest" => "DeleteTaskPushNotificationConfigParams", convert::<v1::DeleteTaskPushNotificationConfigRequest, v0_3::DeleteTaskPushNotificationConfigParams>;
    "lf.a2a.v1.GetTaskPushNotificationConfigRequest" => "GetTaskPushNotificationConfigParams (TaskIdParams when `id` is empty)", downgrade_get_push_config_request;
    "lf.a2a.v1.GetTaskRequest" => "TaskQueryParams", convert::<v1::GetTaskRequest, v0_3::TaskQueryParams>;
    "lf.a2a.v1.HTTPAuthSecurityScheme" => "HTTPAuthSecurityScheme", convert::<v1::HttpAuthSecurityScheme, v0_3::HttpAuthSecurityScheme>;
    "lf.a2a.v1.ImplicitOAuthFlow" => "ImplicitOAuthFlow", convert::<v1::ImplicitOAuthFlow, v0_3::ImplicitOAuthFlow>;
    "lf.a2a.v1.ListTaskPushNotificationConfigsRequest" => "ListTaskPushNotificationConfigParams", convert::<v1::ListTaskPushNotificationConfigsRequest, v0_3::ListTaskPushNotificationConfigParams>;
    "lf.a2a.v1.ListTaskPushNotificationConfigsResponse" => "ListTaskPushNotificationConfigSuccessResponse", convert::<v1::ListTaskPushNotificationConfigsResponse, v0_3::ListTaskPushNotificationConfigSuccessResponse>;
    "lf.a2a.v1.Message" => "Message", convert::<v1::Message, v0_3::Message>;
    "lf.a2a.v1.MutualTlsSecurityScheme" => "MutualTLSSecurityScheme", convert::<v1::MutualTlsSecurityScheme, v0_3::MutualTlsSecurityScheme>;
    "lf.a2a.v1.OAuth2SecurityScheme" => "OAuth2SecurityScheme", convert::<v1::OAuth2SecurityScheme, v0_3::OAuth2SecurityScheme>;
    "lf.a2a.v1.OAuthFlows" => "OAuthFlows", downgrade_oauth_flows;
    "lf.a2a.v1.OpenIdConnectSecurityScheme" => "OpenIdConnectSecurityScheme", convert::<v1::OpenIdConnectSecurityScheme, v0_3::OpenIdConnectSecurityScheme>;
    "lf.a2a.v1.Part" => "Part", convert::<v1::Part, v0_3::Part>;
    "lf.a2a.v1.PasswordOAuthFlow" => "PasswordOAuthFlow", convert::<v1::PasswordOAuthFlow, v0_3::PasswordOAuthFlow>;
    "lf.a2a.v1.SecurityScheme" => "SecurityScheme", convert::<v1::SecurityScheme, v0_3::SecurityScheme>;
    "lf.a2a.v1.SendMessageConfiguration" => "MessageSendConfiguration", convert::<v1::SendMessageConfiguration, v0_3::MessageSendConfiguration>;
    "lf.a2a.v1.SendMessageRequest" => "MessageSendParams", convert::<v1::SendMessageRequest, v0_3::MessageSendParams>;
    "lf.a2a.v1.SendMessageResponse" => "SendMessageSuccessResponse", convert::<v1::SendMessageResponse, v0_3::SendMessageSuccessResponse>;
    "lf.a2a.v1.StreamResponse" => "SendStreamingMessageSuccessResponse", convert::<v1::StreamResponse, v0_3::SendStreamingMessageSuccessResponse>;
    "lf.a2a.v1.SubscribeToTaskRequest" => "TaskIdParams", convert::<v1::SubscribeToTaskRequest, v0_3::TaskIdParams>;
    "lf.a2a.v1.Task" => "Task", convert::<v1::Task, v0_3::Task>;
    "lf.a2a.v1.TaskArtifactUpdateEvent" => "TaskArtifactUpdateEvent", convert::<v1::TaskArtifactUpdateEvent, v0_3::TaskArtifactUpdateEvent>;
    "lf.a2a.v1.TaskPushNotificationConfig" => "TaskPushNotificationConfig", convert::<v1::TaskPushNotificationConfig, v0_3::TaskPushNotificationConfig>;
    "lf.a2a.v1.TaskState" => "TaskState", convert::<v1::TaskState, v0_3::TaskState>;
    "lf.a2a.v1.TaskStatus" => "TaskStatus", convert::<v1::TaskStatus, v0_3::TaskStatus>;
    "lf.a2a.v1.TaskStatusUpdateEvent" => "TaskStatusUpdateEvent", convert::<v1::TaskStatusUpdateEvent, v0_3::TaskStatusUpdateEvent>;
}

/// The v0.3 schema types [`upgrade_json`] does not convert, and why.
pub const NO_V1_COUNTERPART: &[(&str, &str)] = &[
    (
        "A2AError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "AuthenticatedExtendedCardNotConfiguredError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "ContentTypeNotSupportedError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "InternalError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "InvalidAgentResponseError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "InvalidParamsError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "InvalidRequestError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "JSONParseError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "JSONRPCError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "MethodNotFoundError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "PushNotificationNotSupportedError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "TaskNotCancelableError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "TaskNotFoundError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "UnsupportedOperationError",
        "v1 has no message for errors: use `errors::Error`",
    ),
    (
        "JSONRPCErrorResponse",
        "an error answer carries no v1 message: use `errors::Error`",
    ),
    (
        "JSONRPCMessage",
        "the JSON-RPC envelope itself is not an A2A message",
    ),
    (
        "JSONRPCRequest",
        "a request of unknown method: use `A2ARequest`",
    ),
    (
        "JSONRPCResponse",
        "a response does not say which method it answers: use the method's response type",
    ),
    (
        "JSONRPCSuccessResponse",
        "a response does not say which method it answers: use the method's response type",
    ),
    (
        "DeleteTaskPushNotificationConfigResponse",
        "v1 answers with google.protobuf.Empty, not a message of lf.a2a.v1",
    ),
    (
        "DeleteTaskPushNotificationConfigSuccessResponse",
        "v1 answers with google.protobuf.Empty, not a message of lf.a2a.v1",
    ),
    (
        "FileBase",
        "an abstract base of FileWithBytes and FileWithUri",
    ),
    (
        "FileWithBytes",
        "v1 has no file object: the file is the content of a Part (convert the FilePart)",
    ),
    (
        "FileWithUri",
        "v1 has no file object: the file is the content of a Part (convert the FilePart)",
    ),
    ("PartBase", "an abstract base of the parts"),
    (
        "SecuritySchemeBase",
        "an abstract base of the security schemes",
    ),
    (
        "TransportProtocol",
        "v1 names transports with a free-form string (AgentInterface.protocolBinding)",
    ),
];

/// The v1 messages (and enums) [`downgrade_json`] does not convert, and why.
pub const NO_V0_3_COUNTERPART: &[(&str, &str)] = &[
    (
        "lf.a2a.v1.DeviceCodeOAuthFlow",
        "v0.3 has no device code flow",
    ),
    (
        "lf.a2a.v1.GetExtendedAgentCardRequest",
        "v0.3's agent/getAuthenticatedExtendedCard takes no params (use `bridge::downgrade_request`)",
    ),
    (
        "lf.a2a.v1.ListTasksRequest",
        "v0.3 has no method to list tasks",
    ),
    (
        "lf.a2a.v1.ListTasksResponse",
        "v0.3 has no method to list tasks",
    ),
    (
        "lf.a2a.v1.Role",
        "v0.3's role is an inline enum of Message, not a schema type",
    ),
    (
        "lf.a2a.v1.SecurityRequirement",
        "v0.3 writes a requirement as a plain map inside `security`, not a schema type",
    ),
    (
        "lf.a2a.v1.StringList",
        "v0.3 writes scopes as a plain list inside `security`, not a schema type",
    ),
];

/// The JSON a conversion reads: a parsed [`Value`], or text read straight into the typed value (no
/// tree of the whole input is built).
enum Json<'a> {
    Value(Value),
    Text(&'a [u8]),
}

impl From<Value> for Json<'_> {
    fn from(value: Value) -> Self {
        Json::Value(value)
    }
}

/// A converted value, written as the caller asks: a [`Value`] or JSON text (without a tree).
trait Output {
    fn into_value(self: Box<Self>, type_name: &str) -> Result<Value, BridgeError>;
    fn into_text(self: Box<Self>, type_name: &str, pretty: bool) -> Result<String, BridgeError>;
}

impl<T: Serialize> Output for T {
    fn into_value(self: Box<Self>, type_name: &str) -> Result<Value, BridgeError> {
        write(type_name, &*self)
    }

    fn into_text(self: Box<Self>, type_name: &str, pretty: bool) -> Result<String, BridgeError> {
        if pretty {
            serde_json::to_string_pretty(&*self)
        } else {
            serde_json::to_string(&*self)
        }
        .map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: type_name.to_owned(),
                message: e.to_string(),
            })
        })
    }
}

/// What a conversion returns: the converted value, not yet written.
type Written = Box<dyn Output>;

/// Reads `json` as `T`; an error names the member at fault (`status.state`).
fn read<T: DeserializeOwned>(type_name: &str, json: Json<'_>) -> Result<T, BridgeError> {
    let (path, message) = match json {
        Json::Value(json) => match serde_path_to_error::deserialize(&json) {
            Ok(value) => return Ok(value),
            Err(e) => (e.path().to_string(), e.into_inner().to_string()),
        },
        Json::Text(text) => match a2a_types::json::from_slice(text) {
            Ok(value) => return Ok(value),
            Err(e) => (e.path().to_owned(), e.inner().to_string()),
        },
    };
    let error = BridgeError::new(BridgeErrorKind::InvalidJson {
        type_name: type_name.to_owned(),
        message,
    });
    Err(if path == "." { error } else { error.at(&path) })
}

fn write<T: Serialize + ?Sized>(type_name: &str, value: &T) -> Result<Value, BridgeError> {
    serde_json::to_value(value).map_err(|e| {
        BridgeError::new(BridgeErrorKind::InvalidJson {
            type_name: type_name.to_owned(),
            message: e.to_string(),
        })
    })
}

fn convert<A, B>(
    from: &str,
    to: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError>
where
    A: DeserializeOwned,
    B: Serialize + TryFrom<A> + 'static,
    BridgeError: From<<B as TryFrom<A>>::Error>,
{
    let input: A = read(from, json)?;
    let output = B::try_from(input).map_err(BridgeError::from)?;
    Ok((to, Box::new(output)))
}

fn no_counterpart(name: &str, table: &[(&str, &'static str)]) -> Option<BridgeError> {
    table.iter().find(|(n, _)| *n == name).map(|(_, reason)| {
        BridgeError::new(BridgeErrorKind::NoCounterpart {
            name: name.to_owned(),
            reason,
        })
    })
}

/// Converts v0.3 JSON of the schema type `schema_type` (a definition name of the v0.3 JSON Schema, such
/// as `"Task"` or `"MessageSendParams"`) to v1 ProtoJSON, returning the v1 message's full name with it.
///
/// [`UPGRADES`] lists every pair; [`NO_V1_COUNTERPART`] the types that fail with
/// [`BridgeErrorKind::NoCounterpart`]. Other names fail with [`BridgeErrorKind::UnknownType`], JSON that
/// is not of the type with [`BridgeErrorKind::InvalidJson`], and invalid content as the typed conversion
/// does. `A2ARequest` converts to the request message of its method (`TaskIdParams` alone is taken as
/// `tasks/cancel` params; use `TaskResubscriptionRequest` for the other use).
///
/// ```
/// use a2a_compat::bridge::upgrade_json;
/// use serde_json::json;
///
/// let (name, v1) = upgrade_json("Part", json!({"kind": "file",
///     "file": {"bytes": "aGVsbG8=", "mimeType": "text/plain", "name": "hello.txt"}})).unwrap();
/// assert_eq!(name, "lf.a2a.v1.Part");
/// assert_eq!(v1, json!({"raw": "aGVsbG8=", "mediaType": "text/plain", "filename": "hello.txt"}));
/// ```
pub fn upgrade_json(
    schema_type: &str,
    v0_3_json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    let (name, v1) = upgrade(schema_type, v0_3_json.into())?;
    Ok((name, v1.into_value(name)?))
}

/// [`upgrade_json`] from JSON text to JSON text: the text is read straight into the typed v0.3 value
/// and the v1 value written straight out, so neither side is ever a [`Value`] tree (which takes many
/// times the text's size). The text must be UTF-8 throughout; duplicate members and nesting follow
/// [`a2a_types::json::from_slice`]. `pretty` indents the output.
///
/// ```
/// use a2a_compat::bridge::upgrade_slice;
///
/// let (name, v1) = upgrade_slice("Part", br#"{"kind": "text", "text": "hi"}"#, false).unwrap();
/// assert_eq!(name, "lf.a2a.v1.Part");
/// assert_eq!(v1, r#"{"text":"hi"}"#);
/// ```
pub fn upgrade_slice(
    schema_type: &str,
    v0_3_json: &[u8],
    pretty: bool,
) -> Result<(&'static str, String), BridgeError> {
    let (name, v1) = upgrade(schema_type, Json::Text(v0_3_json))?;
    Ok((name, v1.into_text(name, pretty)?))
}

/// [`upgrade_slice`] of a string.
pub fn upgrade_str(
    schema_type: &str,
    v0_3_json: &str,
    pretty: bool,
) -> Result<(&'static str, String), BridgeError> {
    upgrade_slice(schema_type, v0_3_json.as_bytes(), pretty)
}

fn upgrade(schema_type: &str, v0_3_json: Json<'_>) -> Result<(&'static str, Written), BridgeError> {
    upgrade_by_table(schema_type, v0_3_json).unwrap_or_else(|| {
        Err(
            no_counterpart(schema_type, NO_V1_COUNTERPART).unwrap_or_else(|| {
                BridgeError::new(BridgeErrorKind::UnknownType {
                    name: schema_type.to_owned(),
                })
            }),
        )
    })
}

/// `A2ARequest`: the request message of the request's method.
fn upgrade_any_request(
    t: &str,
    _: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError> {
    let request: v0_3::A2aRequest = read(t, json)?;
    let (_, params) = upgrade_request(request)?;
    let name = params.operation().info().request_type;
    Ok((name, Box::new(params.to_json())))
}

/// A member of v0.3's `Part` union given as its own type (`TextPart`, ...): a v1 `Part`.
fn part_member<M>(
    t: &str,
    to: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError>
where
    M: DeserializeOwned + Into<v0_3::Part>,
{
    let part: M = read(t, json)?;
    convert_value::<v0_3::Part, v1::Part>(part.into(), to)
}

fn upgrade_oauth_flows(
    t: &str,
    to: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError> {
    let flows: v0_3::OAuthFlows = read(t, json)?;
    match super::oauth_flows_to_v1(flows) {
        Some(flows) => Ok((to, Box::new(flows))),
        // ProtoJSON of OAuthFlows with no member, as the SDK writes it; the Rust enum cannot hold it.
        None => Ok((to, Box::new(Value::Object(Default::default())))),
    }
}

fn convert_value<A, B>(input: A, to: &'static str) -> Result<(&'static str, Written), BridgeError>
where
    B: Serialize + TryFrom<A> + 'static,
    BridgeError: From<<B as TryFrom<A>>::Error>,
{
    let output = B::try_from(input).map_err(BridgeError::from)?;
    Ok((to, Box::new(output)))
}

/// Converts v1 ProtoJSON of the message (or enum) `v1_full_name` (such as `"lf.a2a.v1.Task"`) to v0.3
/// JSON, returning the v0.3 schema type's name with it.
///
/// [`DOWNGRADES`] lists every pair; [`NO_V0_3_COUNTERPART`] the names that fail with
/// [`BridgeErrorKind::NoCounterpart`]. Request messages become their method's params (the JSON-RPC
/// envelope needs an id: see [`super::downgrade_request`] and [`downgrade_json_as`]); results become
/// success responses with a null id (the SDK, which has none either, leaves `id` out).
///
/// ```
/// use a2a_compat::bridge::downgrade_json;
/// use serde_json::json;
///
/// let (name, v0_3) = downgrade_json("lf.a2a.v1.TaskStatus",
///     json!({"state": "TASK_STATE_COMPLETED", "timestamp": "2026-04-01T09:30:00Z"})).unwrap();
/// assert_eq!(name, "TaskStatus");
/// assert_eq!(v0_3, json!({"state": "completed", "timestamp": "2026-04-01T09:30:00Z"}));
/// ```
pub fn downgrade_json(
    v1_full_name: &str,
    v1_json: Value,
) -> Result<(&'static str, Value), BridgeError> {
    let (name, v0_3) = downgrade_by_table(v1_full_name, v1_json.into()).unwrap_or_else(|| {
        Err(
            no_counterpart(v1_full_name, NO_V0_3_COUNTERPART).unwrap_or_else(|| {
                BridgeError::new(BridgeErrorKind::UnknownType {
                    name: v1_full_name.to_owned(),
                })
            }),
        )
    })?;
    Ok((name, v0_3.into_value(name)?))
}

/// With a config `id`, `GetTaskPushNotificationConfigParams`; without, `TaskIdParams`.
fn downgrade_get_push_config_request(
    t: &str,
    _: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError> {
    let request: v1::GetTaskPushNotificationConfigRequest = read(t, json)?;
    match v0_3::GetTaskPushNotificationConfigRequestParams::from(request) {
        v0_3::GetTaskPushNotificationConfigRequestParams::TaskId(params) => {
            Ok(("TaskIdParams", Box::new(params)))
        }
        v0_3::GetTaskPushNotificationConfigRequestParams::GetTaskPushNotificationConfig(params) => {
            Ok(("GetTaskPushNotificationConfigParams", Box::new(params)))
        }
    }
}

fn downgrade_oauth_flows(
    t: &str,
    to: &'static str,
    json: Json<'_>,
) -> Result<(&'static str, Written), BridgeError> {
    if let Json::Value(value) = &json
        && value.as_object().is_some_and(|members| members.is_empty())
    {
        // No flow: v0.3's OAuthFlows with none either, as the SDK converts it.
        return Ok((to, Box::new(v0_3::OAuthFlows::default())));
    }
    convert::<v1::OAuthFlows, v0_3::OAuthFlows>(t, to, json)
}
