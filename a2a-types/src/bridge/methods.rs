//! Methods: their names, their params and results, whole requests and responses.

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use std::fmt;

use super::objects::history_length_to_v1;
use super::sdk_compat::{member_without_counterpart, nonempty_struct};
use super::{BridgeError, BridgeErrorKind, ProtocolVersion};
use crate::v0_3::JsonRpcId;
use crate::{v0_3, v1};

// ---------------------------------------------------------------------------------------------------
// Method names

/// An A2A method, named by its v1 name; [`Method::v0_3_name`] gives its v0.3 JSON-RPC name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// `SendMessage` / `message/send`.
    SendMessage,
    /// `SendStreamingMessage` / `message/stream`.
    SendStreamingMessage,
    /// `GetTask` / `tasks/get`.
    GetTask,
    /// `ListTasks`; v0.3 has no such method.
    ListTasks,
    /// `CancelTask` / `tasks/cancel`.
    CancelTask,
    /// `CreateTaskPushNotificationConfig` / `tasks/pushNotificationConfig/set`.
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig` / `tasks/pushNotificationConfig/get`.
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs` / `tasks/pushNotificationConfig/list`.
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig` / `tasks/pushNotificationConfig/delete`.
    DeleteTaskPushNotificationConfig,
    /// `SubscribeToTask` / `tasks/resubscribe`.
    SubscribeToTask,
    /// `GetExtendedAgentCard` / `agent/getAuthenticatedExtendedCard`.
    GetExtendedAgentCard,
}

impl Method {
    /// Every method, in the order of the v1 service.
    pub const ALL: [Method; 11] = [
        Method::SendMessage,
        Method::SendStreamingMessage,
        Method::GetTask,
        Method::ListTasks,
        Method::CancelTask,
        Method::CreateTaskPushNotificationConfig,
        Method::GetTaskPushNotificationConfig,
        Method::ListTaskPushNotificationConfigs,
        Method::DeleteTaskPushNotificationConfig,
        Method::SubscribeToTask,
        Method::GetExtendedAgentCard,
    ];

    /// The v1 name (the gRPC method, also the v1 JSON-RPC `method`), e.g. `SendMessage`.
    pub const fn v1_name(self) -> &'static str {
        match self {
            Method::SendMessage => "SendMessage",
            Method::SendStreamingMessage => "SendStreamingMessage",
            Method::GetTask => "GetTask",
            Method::ListTasks => "ListTasks",
            Method::CancelTask => "CancelTask",
            Method::CreateTaskPushNotificationConfig => "CreateTaskPushNotificationConfig",
            Method::GetTaskPushNotificationConfig => "GetTaskPushNotificationConfig",
            Method::ListTaskPushNotificationConfigs => "ListTaskPushNotificationConfigs",
            Method::DeleteTaskPushNotificationConfig => "DeleteTaskPushNotificationConfig",
            Method::SubscribeToTask => "SubscribeToTask",
            Method::GetExtendedAgentCard => "GetExtendedAgentCard",
        }
    }

    /// The v0.3 JSON-RPC `method`, e.g. `message/send`; `None` for `ListTasks`, new in v1.
    pub const fn v0_3_name(self) -> Option<&'static str> {
        Some(match self {
            Method::SendMessage => "message/send",
            Method::SendStreamingMessage => "message/stream",
            Method::GetTask => "tasks/get",
            Method::ListTasks => return None,
            Method::CancelTask => "tasks/cancel",
            Method::CreateTaskPushNotificationConfig => "tasks/pushNotificationConfig/set",
            Method::GetTaskPushNotificationConfig => "tasks/pushNotificationConfig/get",
            Method::ListTaskPushNotificationConfigs => "tasks/pushNotificationConfig/list",
            Method::DeleteTaskPushNotificationConfig => "tasks/pushNotificationConfig/delete",
            Method::SubscribeToTask => "tasks/resubscribe",
            Method::GetExtendedAgentCard => "agent/getAuthenticatedExtendedCard",
        })
    }

    /// The method with this v1 name (case-sensitive).
    pub fn from_v1_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.v1_name() == name)
    }

    /// The method with this v0.3 name (case-sensitive).
    pub fn from_v0_3_name(name: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.v0_3_name() == Some(name))
    }

    /// The method a JSON-RPC `method` names, in whichever version: the two sets of names are
    /// disjoint, so the name also tells the version the caller speaks (as the SDK routes requests).
    pub fn from_name(name: &str) -> Option<(Method, ProtocolVersion)> {
        Method::from_v1_name(name)
            .map(|m| (m, ProtocolVersion::V1_0))
            .or_else(|| Method::from_v0_3_name(name).map(|m| (m, ProtocolVersion::V0_3)))
    }

    /// Whether the answer is a stream of events (server-sent events over JSON-RPC).
    pub const fn is_streaming(self) -> bool {
        matches!(self, Method::SendStreamingMessage | Method::SubscribeToTask)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.v1_name())
    }
}

// ---------------------------------------------------------------------------------------------------
// Params

/// `message`, `configuration` and `metadata` (an empty one is dropped).
impl TryFrom<v0_3::MessageSendParams> for v1::SendMessageRequest {
    type Error = BridgeError;

    fn try_from(params: v0_3::MessageSendParams) -> Result<Self, BridgeError> {
        Ok(v1::SendMessageRequest {
            tenant: None,
            message: params
                .message
                .try_into()
                .map_err(|e: BridgeError| e.at("message"))?,
            configuration: params
                .configuration
                .map(v1::SendMessageConfiguration::try_from)
                .transpose()
                .map_err(|e| e.at("configuration"))?,
            metadata: nonempty_struct(params.metadata),
            ..Default::default()
        })
    }
}

/// `message`, `configuration` and `metadata`; `tenant` is lost.
impl TryFrom<v1::SendMessageRequest> for v0_3::MessageSendParams {
    type Error = BridgeError;

    fn try_from(request: v1::SendMessageRequest) -> Result<Self, BridgeError> {
        Ok(v0_3::MessageSendParams {
            configuration: request.configuration.map(Into::into),
            message: request
                .message
                .try_into()
                .map_err(|e: BridgeError| e.at("message"))?,
            metadata: request.metadata,
        })
    }
}

/// `id` and `historyLength` (`0` becomes absent); `metadata` is lost (v1's `GetTaskRequest` has none).
/// Fails on a `historyLength` beyond 32 bits.
impl TryFrom<v0_3::TaskQueryParams> for v1::GetTaskRequest {
    type Error = BridgeError;

    fn try_from(params: v0_3::TaskQueryParams) -> Result<Self, BridgeError> {
        Ok(v1::GetTaskRequest {
            tenant: None,
            id: params.id,
            history_length: history_length_to_v1(params.history_length)?,
            ..Default::default()
        })
    }
}

/// `id` and `historyLength`; `tenant` is lost.
impl From<v1::GetTaskRequest> for v0_3::TaskQueryParams {
    fn from(request: v1::GetTaskRequest) -> Self {
        v0_3::TaskQueryParams {
            history_length: request.history_length.map(i64::from),
            id: request.id,
            metadata: None,
        }
    }
}

/// `tasks/cancel` params: `id` and `metadata` (an empty one is dropped).
impl From<v0_3::TaskIdParams> for v1::CancelTaskRequest {
    fn from(params: v0_3::TaskIdParams) -> Self {
        v1::CancelTaskRequest {
            tenant: None,
            id: params.id,
            metadata: nonempty_struct(params.metadata),
            ..Default::default()
        }
    }
}

/// `id` and `metadata`; `tenant` is lost.
impl From<v1::CancelTaskRequest> for v0_3::TaskIdParams {
    fn from(request: v1::CancelTaskRequest) -> Self {
        v0_3::TaskIdParams {
            id: request.id,
            metadata: request.metadata,
        }
    }
}

/// `tasks/resubscribe` params: `id`; `metadata` is lost.
impl From<v0_3::TaskIdParams> for v1::SubscribeToTaskRequest {
    fn from(params: v0_3::TaskIdParams) -> Self {
        v1::SubscribeToTaskRequest {
            tenant: None,
            id: params.id,
            ..Default::default()
        }
    }
}

/// `id`; `tenant` is lost.
impl From<v1::SubscribeToTaskRequest> for v0_3::TaskIdParams {
    fn from(request: v1::SubscribeToTaskRequest) -> Self {
        v0_3::TaskIdParams {
            id: request.id,
            metadata: None,
        }
    }
}

/// `id` → `taskId`, `pushNotificationConfigId` → `id`; `metadata` is lost.
impl From<v0_3::GetTaskPushNotificationConfigParams> for v1::GetTaskPushNotificationConfigRequest {
    fn from(params: v0_3::GetTaskPushNotificationConfigParams) -> Self {
        v1::GetTaskPushNotificationConfigRequest {
            tenant: None,
            task_id: params.id,
            id: params.push_notification_config_id.unwrap_or_default(),
            ..Default::default()
        }
    }
}

/// Either form of `tasks/pushNotificationConfig/get` params: a bare `TaskIdParams` asks for the task's
/// config with no id. `metadata` is lost.
impl From<v0_3::GetTaskPushNotificationConfigRequestParams>
    for v1::GetTaskPushNotificationConfigRequest
{
    fn from(params: v0_3::GetTaskPushNotificationConfigRequestParams) -> Self {
        match params {
            v0_3::GetTaskPushNotificationConfigRequestParams::TaskId(params) => {
                v1::GetTaskPushNotificationConfigRequest {
                    tenant: None,
                    task_id: params.id,
                    id: String::new(),
                    ..Default::default()
                }
            }
            v0_3::GetTaskPushNotificationConfigRequestParams::GetTaskPushNotificationConfig(
                params,
            ) => params.into(),
        }
    }
}

/// With a config `id`: `GetTaskPushNotificationConfigParams`; without: `TaskIdParams` (as the SDK
/// chooses). `tenant` is lost.
impl From<v1::GetTaskPushNotificationConfigRequest>
    for v0_3::GetTaskPushNotificationConfigRequestParams
{
    fn from(request: v1::GetTaskPushNotificationConfigRequest) -> Self {
        if request.id.is_empty() {
            v0_3::GetTaskPushNotificationConfigRequestParams::TaskId(v0_3::TaskIdParams {
                id: request.task_id,
                metadata: None,
            })
        } else {
            v0_3::GetTaskPushNotificationConfigRequestParams::GetTaskPushNotificationConfig(
                v0_3::GetTaskPushNotificationConfigParams {
                    id: request.task_id,
                    metadata: None,
                    push_notification_config_id: Some(request.id),
                },
            )
        }
    }
}

/// `id` → `taskId`, `pushNotificationConfigId` → `id`; `metadata` is lost.
impl From<v0_3::DeleteTaskPushNotificationConfigParams>
    for v1::DeleteTaskPushNotificationConfigRequest
{
    fn from(params: v0_3::DeleteTaskPushNotificationConfigParams) -> Self {
        v1::DeleteTaskPushNotificationConfigRequest {
            tenant: None,
            task_id: params.id,
            id: params.push_notification_config_id,
            ..Default::default()
        }
    }
}

/// `taskId` → `id`, `id` → `pushNotificationConfigId`; `tenant` is lost.
impl From<v1::DeleteTaskPushNotificationConfigRequest>
    for v0_3::DeleteTaskPushNotificationConfigParams
{
    fn from(request: v1::DeleteTaskPushNotificationConfigRequest) -> Self {
        v0_3::DeleteTaskPushNotificationConfigParams {
            id: request.task_id,
            metadata: None,
            push_notification_config_id: request.id,
        }
    }
}

/// `id` → `taskId`; `metadata` is lost.
impl From<v0_3::ListTaskPushNotificationConfigParams>
    for v1::ListTaskPushNotificationConfigsRequest
{
    fn from(params: v0_3::ListTaskPushNotificationConfigParams) -> Self {
        v1::ListTaskPushNotificationConfigsRequest {
            tenant: None,
            task_id: params.id,
            page_size: None,
            page_token: None,
            ..Default::default()
        }
    }
}

/// `taskId` → `id`; `pageSize`, `pageToken` and `tenant` are lost (v0.3 lists everything at once).
impl From<v1::ListTaskPushNotificationConfigsRequest>
    for v0_3::ListTaskPushNotificationConfigParams
{
    fn from(request: v1::ListTaskPushNotificationConfigsRequest) -> Self {
        v0_3::ListTaskPushNotificationConfigParams {
            id: request.task_id,
            metadata: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Whole v0.3 requests → v1 request messages (the JSON-RPC id stays behind)

macro_rules! request_to_v1 {
    ($($(#[$doc:meta])* $from:ident => $to:ident, $conv:ident;)*) => {$(
        $(#[$doc])*
        impl $conv<v0_3::$from> for v1::$to {
            request_to_v1!(@body $conv $from);
        }
    )*};
    (@body TryFrom $from:ident) => {
        type Error = BridgeError;
        fn try_from(request: v0_3::$from) -> Result<Self, BridgeError> {
            request.params.try_into().map_err(|e: BridgeError| e.at("params"))
        }
    };
    (@body From $from:ident) => {
        fn from(request: v0_3::$from) -> Self {
            request.params.into()
        }
    };
}

request_to_v1! {
    /// The params, as [`v0_3::MessageSendParams`] converts; the JSON-RPC id is not carried.
    SendMessageRequest => SendMessageRequest, TryFrom;
    /// The params, as [`v0_3::MessageSendParams`] converts; the JSON-RPC id is not carried.
    SendStreamingMessageRequest => SendMessageRequest, TryFrom;
    /// The params, as [`v0_3::TaskQueryParams`] converts; the JSON-RPC id is not carried.
    GetTaskRequest => GetTaskRequest, TryFrom;
    /// The params, as [`v0_3::TaskIdParams`] converts; the JSON-RPC id is not carried.
    CancelTaskRequest => CancelTaskRequest, From;
    /// The params, as [`v0_3::TaskPushNotificationConfig`] converts; the JSON-RPC id is not carried.
    SetTaskPushNotificationConfigRequest => TaskPushNotificationConfig, From;
    /// The params, as [`v0_3::GetTaskPushNotificationConfigRequestParams`] converts; the JSON-RPC id is
    /// not carried.
    GetTaskPushNotificationConfigRequest => GetTaskPushNotificationConfigRequest, From;
    /// The params, as [`v0_3::TaskIdParams`] converts; the JSON-RPC id is not carried.
    TaskResubscriptionRequest => SubscribeToTaskRequest, From;
    /// The params, as [`v0_3::ListTaskPushNotificationConfigParams`] converts; the JSON-RPC id is not
    /// carried.
    ListTaskPushNotificationConfigRequest => ListTaskPushNotificationConfigsRequest, From;
    /// The params, as [`v0_3::DeleteTaskPushNotificationConfigParams`] converts; the JSON-RPC id is not
    /// carried.
    DeleteTaskPushNotificationConfigRequest => DeleteTaskPushNotificationConfigRequest, From;
}

/// An empty request; the JSON-RPC id is not carried.
impl From<v0_3::GetAuthenticatedExtendedCardRequest> for v1::GetExtendedAgentCardRequest {
    fn from(_: v0_3::GetAuthenticatedExtendedCardRequest) -> Self {
        v1::GetExtendedAgentCardRequest {
            tenant: None,
            ..Default::default()
        }
    }
}

/// The input of a v1 method: the request message, tagged with the method (two methods share
/// `SendMessageRequest`, and the v0.3 names differ for the same message).
#[derive(Clone, Debug, PartialEq)]
pub enum V1Request {
    SendMessage(v1::SendMessageRequest),
    SendStreamingMessage(v1::SendMessageRequest),
    GetTask(v1::GetTaskRequest),
    ListTasks(v1::ListTasksRequest),
    CancelTask(v1::CancelTaskRequest),
    CreateTaskPushNotificationConfig(v1::TaskPushNotificationConfig),
    GetTaskPushNotificationConfig(v1::GetTaskPushNotificationConfigRequest),
    ListTaskPushNotificationConfigs(v1::ListTaskPushNotificationConfigsRequest),
    DeleteTaskPushNotificationConfig(v1::DeleteTaskPushNotificationConfigRequest),
    SubscribeToTask(v1::SubscribeToTaskRequest),
    GetExtendedAgentCard(v1::GetExtendedAgentCardRequest),
}

impl V1Request {
    /// The method this request is for.
    pub fn method(&self) -> Method {
        match self {
            V1Request::SendMessage(_) => Method::SendMessage,
            V1Request::SendStreamingMessage(_) => Method::SendStreamingMessage,
            V1Request::GetTask(_) => Method::GetTask,
            V1Request::ListTasks(_) => Method::ListTasks,
            V1Request::CancelTask(_) => Method::CancelTask,
            V1Request::CreateTaskPushNotificationConfig(_) => {
                Method::CreateTaskPushNotificationConfig
            }
            V1Request::GetTaskPushNotificationConfig(_) => Method::GetTaskPushNotificationConfig,
            V1Request::ListTaskPushNotificationConfigs(_) => {
                Method::ListTaskPushNotificationConfigs
            }
            V1Request::DeleteTaskPushNotificationConfig(_) => {
                Method::DeleteTaskPushNotificationConfig
            }
            V1Request::SubscribeToTask(_) => Method::SubscribeToTask,
            V1Request::GetExtendedAgentCard(_) => Method::GetExtendedAgentCard,
        }
    }

    /// Reads the v1 JSON-RPC `params` of `method` (ProtoJSON of its request message).
    pub fn from_params_json(
        method: Method,
        params: serde_json::Value,
    ) -> Result<V1Request, BridgeError> {
        fn read<T: serde::de::DeserializeOwned>(
            name: &str,
            params: serde_json::Value,
        ) -> Result<T, BridgeError> {
            serde_json::from_value(params).map_err(|e| {
                BridgeError::new(BridgeErrorKind::InvalidJson {
                    type_name: name.to_owned(),
                    message: e.to_string(),
                })
                .at("params")
            })
        }
        Ok(match method {
            Method::SendMessage => {
                V1Request::SendMessage(read("lf.a2a.v1.SendMessageRequest", params)?)
            }
            Method::SendStreamingMessage => {
                V1Request::SendStreamingMessage(read("lf.a2a.v1.SendMessageRequest", params)?)
            }
            Method::GetTask => V1Request::GetTask(read("lf.a2a.v1.GetTaskRequest", params)?),
            Method::ListTasks => V1Request::ListTasks(read("lf.a2a.v1.ListTasksRequest", params)?),
            Method::CancelTask => {
                V1Request::CancelTask(read("lf.a2a.v1.CancelTaskRequest", params)?)
            }
            Method::CreateTaskPushNotificationConfig => {
                V1Request::CreateTaskPushNotificationConfig(read(
                    "lf.a2a.v1.TaskPushNotificationConfig",
                    params,
                )?)
            }
            Method::GetTaskPushNotificationConfig => V1Request::GetTaskPushNotificationConfig(
                read("lf.a2a.v1.GetTaskPushNotificationConfigRequest", params)?,
            ),
            Method::ListTaskPushNotificationConfigs => V1Request::ListTaskPushNotificationConfigs(
                read("lf.a2a.v1.ListTaskPushNotificationConfigsRequest", params)?,
            ),
            Method::DeleteTaskPushNotificationConfig => {
                V1Request::DeleteTaskPushNotificationConfig(read(
                    "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest",
                    params,
                )?)
            }
            Method::SubscribeToTask => {
                V1Request::SubscribeToTask(read("lf.a2a.v1.SubscribeToTaskRequest", params)?)
            }
            Method::GetExtendedAgentCard => V1Request::GetExtendedAgentCard(read(
                "lf.a2a.v1.GetExtendedAgentCardRequest",
                params,
            )?),
        })
    }

    /// The request message as ProtoJSON (the v1 JSON-RPC `params`).
    pub fn params_json(&self) -> serde_json::Value {
        let value = match self {
            V1Request::SendMessage(r) | V1Request::SendStreamingMessage(r) => {
                serde_json::to_value(r)
            }
            V1Request::GetTask(r) => serde_json::to_value(r),
            V1Request::ListTasks(r) => serde_json::to_value(r),
            V1Request::CancelTask(r) => serde_json::to_value(r),
            V1Request::CreateTaskPushNotificationConfig(r) => serde_json::to_value(r),
            V1Request::GetTaskPushNotificationConfig(r) => serde_json::to_value(r),
            V1Request::ListTaskPushNotificationConfigs(r) => serde_json::to_value(r),
            V1Request::DeleteTaskPushNotificationConfig(r) => serde_json::to_value(r),
            V1Request::SubscribeToTask(r) => serde_json::to_value(r),
            V1Request::GetExtendedAgentCard(r) => serde_json::to_value(r),
        };
        value.expect("v1 messages are always JSON")
    }
}

/// A v0.3 JSON-RPC request as the v1 method and request it stands for, with its JSON-RPC id. Fails where
/// the params fail (`params...`).
pub fn upgrade_request(request: v0_3::A2aRequest) -> Result<(JsonRpcId, V1Request), BridgeError> {
    use v0_3::A2aRequest as R;
    Ok(match request {
        R::SendMessage(r) => (r.id.clone(), V1Request::SendMessage(r.try_into()?)),
        R::SendStreamingMessage(r) => {
            (r.id.clone(), V1Request::SendStreamingMessage(r.try_into()?))
        }
        R::GetTask(r) => (r.id.clone(), V1Request::GetTask(r.try_into()?)),
        R::CancelTask(r) => (r.id.clone(), V1Request::CancelTask(r.into())),
        R::SetTaskPushNotificationConfig(r) => (
            r.id.clone(),
            V1Request::CreateTaskPushNotificationConfig(r.into()),
        ),
        R::GetTaskPushNotificationConfig(r) => (
            r.id.clone(),
            V1Request::GetTaskPushNotificationConfig(r.into()),
        ),
        R::TaskResubscription(r) => (r.id.clone(), V1Request::SubscribeToTask(r.into())),
        R::ListTaskPushNotificationConfig(r) => (
            r.id.clone(),
            V1Request::ListTaskPushNotificationConfigs(r.into()),
        ),
        R::DeleteTaskPushNotificationConfig(r) => (
            r.id.clone(),
            V1Request::DeleteTaskPushNotificationConfig(r.into()),
        ),
        R::GetAuthenticatedExtendedCard(r) => {
            (r.id.clone(), V1Request::GetExtendedAgentCard(r.into()))
        }
    })
}

/// A v1 request as the v0.3 JSON-RPC request with this id. Fails for `ListTasks`, which v0.3 does not
/// have, and where the params fail.
pub fn downgrade_request(
    id: JsonRpcId,
    request: V1Request,
) -> Result<v0_3::A2aRequest, BridgeError> {
    let jsonrpc = v0_3::JsonRpcVersion;
    let params = |e: BridgeError| e.at("params");
    Ok(match request {
        V1Request::SendMessage(r) => v0_3::SendMessageRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.try_into().map_err(params)?,
        }
        .into(),
        V1Request::SendStreamingMessage(r) => v0_3::SendStreamingMessageRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.try_into().map_err(params)?,
        }
        .into(),
        V1Request::GetTask(r) => v0_3::GetTaskRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        V1Request::ListTasks(_) => {
            return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: Method::ListTasks.v1_name().to_owned(),
                reason: "v0.3 has no method to list tasks",
            }));
        }
        V1Request::CancelTask(r) => v0_3::CancelTaskRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        V1Request::CreateTaskPushNotificationConfig(r) => {
            v0_3::SetTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        V1Request::GetTaskPushNotificationConfig(r) => v0_3::GetTaskPushNotificationConfigRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        V1Request::ListTaskPushNotificationConfigs(r) => {
            v0_3::ListTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        V1Request::DeleteTaskPushNotificationConfig(r) => {
            v0_3::DeleteTaskPushNotificationConfigRequest {
                id,
                jsonrpc,
                method: Default::default(),
                params: r.into(),
            }
            .into()
        }
        V1Request::SubscribeToTask(r) => v0_3::TaskResubscriptionRequest {
            id,
            jsonrpc,
            method: Default::default(),
            params: r.into(),
        }
        .into(),
        V1Request::GetExtendedAgentCard(_) => v0_3::GetAuthenticatedExtendedCardRequest {
            id,
            jsonrpc,
            method: Default::default(),
        }
        .into(),
    })
}

// ---------------------------------------------------------------------------------------------------
// Results

/// A task or a message, as the result of `message/send`.
impl TryFrom<v0_3::SendMessageResult> for v1::SendMessageResponse {
    type Error = BridgeError;

    fn try_from(result: v0_3::SendMessageResult) -> Result<Self, BridgeError> {
        Ok(match result {
            v0_3::SendMessageResult::Task(task) => v1::SendMessageResponse::Task(task.try_into()?),
            v0_3::SendMessageResult::Message(message) => {
                v1::SendMessageResponse::Message(message.try_into()?)
            }
        })
    }
}

/// A task or a message; any other kind of result (one a later v1 adds) fails.
impl TryFrom<v1::SendMessageResponse> for v0_3::SendMessageResult {
    type Error = BridgeError;

    fn try_from(response: v1::SendMessageResponse) -> Result<Self, BridgeError> {
        Ok(match response {
            v1::SendMessageResponse::Task(task) => v0_3::SendMessageResult::Task(
                task.try_into().map_err(|e: BridgeError| e.at("task"))?,
            ),
            v1::SendMessageResponse::Message(message) => v0_3::SendMessageResult::Message(
                message
                    .try_into()
                    .map_err(|e: BridgeError| e.at("message"))?,
            ),
            // A kind of result a later v1 adds.
            #[allow(unreachable_patterns)]
            other => {
                return Err(member_without_counterpart(
                    "lf.a2a.v1.SendMessageResponse",
                    &other,
                ));
            }
        })
    }
}

/// One stream event: task, message, status update or artifact update.
impl TryFrom<v0_3::SendStreamingMessageResult> for v1::StreamResponse {
    type Error = BridgeError;

    fn try_from(result: v0_3::SendStreamingMessageResult) -> Result<Self, BridgeError> {
        use v0_3::SendStreamingMessageResult as R;
        Ok(match result {
            R::Task(task) => v1::StreamResponse::Task(task.try_into()?),
            R::Message(message) => v1::StreamResponse::Message(message.try_into()?),
            R::TaskStatusUpdateEvent(event) => v1::StreamResponse::StatusUpdate(event.try_into()?),
            R::TaskArtifactUpdateEvent(event) => {
                v1::StreamResponse::ArtifactUpdate(event.try_into()?)
            }
        })
    }
}

/// One stream event; a status update gets its `final` flag from [`super::is_final_state`]. Any other
/// kind of event (one a later v1 adds) fails.
impl TryFrom<v1::StreamResponse> for v0_3::SendStreamingMessageResult {
    type Error = BridgeError;

    fn try_from(response: v1::StreamResponse) -> Result<Self, BridgeError> {
        use v0_3::SendStreamingMessageResult as R;
        Ok(match response {
            v1::StreamResponse::Task(task) => {
                R::Task(task.try_into().map_err(|e: BridgeError| e.at("task"))?)
            }
            v1::StreamResponse::Message(message) => R::Message(
                message
                    .try_into()
                    .map_err(|e: BridgeError| e.at("message"))?,
            ),
            v1::StreamResponse::StatusUpdate(event) => R::TaskStatusUpdateEvent(
                event
                    .try_into()
                    .map_err(|e: BridgeError| e.at("statusUpdate"))?,
            ),
            v1::StreamResponse::ArtifactUpdate(event) => R::TaskArtifactUpdateEvent(
                event
                    .try_into()
                    .map_err(|e: BridgeError| e.at("artifactUpdate"))?,
            ),
            // A kind of event a later v1 adds.
            #[allow(unreachable_patterns)]
            other => {
                return Err(member_without_counterpart(
                    "lf.a2a.v1.StreamResponse",
                    &other,
                ));
            }
        })
    }
}

/// The configs; v1's `nextPageToken` is left unset (v0.3 lists everything at once).
impl From<Vec<v0_3::TaskPushNotificationConfig>> for v1::ListTaskPushNotificationConfigsResponse {
    fn from(configs: Vec<v0_3::TaskPushNotificationConfig>) -> Self {
        v1::ListTaskPushNotificationConfigsResponse {
            configs: configs.into_iter().map(Into::into).collect(),
            next_page_token: None,
            ..Default::default()
        }
    }
}

/// The configs; `nextPageToken` is lost.
impl From<v1::ListTaskPushNotificationConfigsResponse> for Vec<v0_3::TaskPushNotificationConfig> {
    fn from(response: v1::ListTaskPushNotificationConfigsResponse) -> Self {
        response.configs.into_iter().map(Into::into).collect()
    }
}

// Success responses: the result, without the JSON-RPC id; v1 results become success responses with
// no id (written as `"id": null`; set `id` to answer a request).

macro_rules! success_response {
    ($($(#[$doc:meta])* $resp:ident, $union:ident <=> $v1:ty, $up:ident, $down:ident;)*) => {$(
        $(#[$doc])*
        impl $up<v0_3::$resp> for $v1 {
            success_response!(@up_body $up $resp);
        }

        /// A success response with no JSON-RPC id (written as `"id": null`; set `id` to answer a request).
        impl $down<$v1> for v0_3::$resp {
            success_response!(@down_body $down $resp $v1);
        }

        /// The success's result; an error response fails with [`BridgeErrorKind::ErrorResponse`].
        impl TryFrom<v0_3::$union> for $v1 {
            type Error = BridgeError;
            fn try_from(response: v0_3::$union) -> Result<Self, BridgeError> {
                match response {
                    v0_3::$union::Success(success) => Ok(success.try_into()?),
                    v0_3::$union::Error(error) => Err(BridgeError::new(
                        BridgeErrorKind::ErrorResponse { error: error.error },
                    )),
                }
            }
        }
    )*};
    (@up_body TryFrom $resp:ident) => {
        type Error = BridgeError;
        fn try_from(response: v0_3::$resp) -> Result<Self, BridgeError> {
            response.result.try_into().map_err(|e: BridgeError| e.at("result"))
        }
    };
    (@up_body From $resp:ident) => {
        fn from(response: v0_3::$resp) -> Self {
            response.result.into()
        }
    };
    (@down_body TryFrom $resp:ident $v1:ty) => {
        type Error = BridgeError;
        fn try_from(result: $v1) -> Result<Self, BridgeError> {
            Ok(v0_3::$resp {
                id: None,
                jsonrpc: Default::default(),
                result: result.try_into()?,
            })
        }
    };
    (@down_body From $resp:ident $v1:ty) => {
        fn from(result: $v1) -> Self {
            v0_3::$resp {
                id: None,
                jsonrpc: Default::default(),
                result: result.into(),
            }
        }
    };
}

success_response! {
    /// The result of `message/send`.
    SendMessageSuccessResponse, SendMessageResponse <=> v1::SendMessageResponse, TryFrom, TryFrom;
    /// One event of `message/stream` or `tasks/resubscribe`.
    SendStreamingMessageSuccessResponse, SendStreamingMessageResponse <=> v1::StreamResponse, TryFrom, TryFrom;
    /// The task `tasks/get` returns.
    GetTaskSuccessResponse, GetTaskResponse <=> v1::Task, TryFrom, TryFrom;
    /// The task `tasks/cancel` returns.
    CancelTaskSuccessResponse, CancelTaskResponse <=> v1::Task, TryFrom, TryFrom;
    /// The config `tasks/pushNotificationConfig/set` returns.
    SetTaskPushNotificationConfigSuccessResponse, SetTaskPushNotificationConfigResponse <=> v1::TaskPushNotificationConfig, From, From;
    /// The config `tasks/pushNotificationConfig/get` returns.
    GetTaskPushNotificationConfigSuccessResponse, GetTaskPushNotificationConfigResponse <=> v1::TaskPushNotificationConfig, From, From;
    /// The configs `tasks/pushNotificationConfig/list` returns.
    ListTaskPushNotificationConfigSuccessResponse, ListTaskPushNotificationConfigResponse <=> v1::ListTaskPushNotificationConfigsResponse, From, From;
    /// The card `agent/getAuthenticatedExtendedCard` returns.
    GetAuthenticatedExtendedCardSuccessResponse, GetAuthenticatedExtendedCardResponse <=> v1::AgentCard, From, TryFrom;
}

/// The result of a v1 method (for streaming methods, one event), tagged with the method.
#[derive(Clone, Debug, PartialEq)]
pub enum V1Response {
    SendMessage(v1::SendMessageResponse),
    SendStreamingMessage(v1::StreamResponse),
    GetTask(v1::Task),
    ListTasks(v1::ListTasksResponse),
    CancelTask(v1::Task),
    CreateTaskPushNotificationConfig(v1::TaskPushNotificationConfig),
    GetTaskPushNotificationConfig(v1::TaskPushNotificationConfig),
    ListTaskPushNotificationConfigs(v1::ListTaskPushNotificationConfigsResponse),
    /// `google.protobuf.Empty`; v0.3 answers `null`.
    DeleteTaskPushNotificationConfig,
    SubscribeToTask(v1::StreamResponse),
    GetExtendedAgentCard(v1::AgentCard),
}

impl V1Response {
    /// The method this is the result of.
    pub fn method(&self) -> Method {
        match self {
            V1Response::SendMessage(_) => Method::SendMessage,
            V1Response::SendStreamingMessage(_) => Method::SendStreamingMessage,
            V1Response::GetTask(_) => Method::GetTask,
            V1Response::ListTasks(_) => Method::ListTasks,
            V1Response::CancelTask(_) => Method::CancelTask,
            V1Response::CreateTaskPushNotificationConfig(_) => {
                Method::CreateTaskPushNotificationConfig
            }
            V1Response::GetTaskPushNotificationConfig(_) => Method::GetTaskPushNotificationConfig,
            V1Response::ListTaskPushNotificationConfigs(_) => {
                Method::ListTaskPushNotificationConfigs
            }
            V1Response::DeleteTaskPushNotificationConfig => {
                Method::DeleteTaskPushNotificationConfig
            }
            V1Response::SubscribeToTask(_) => Method::SubscribeToTask,
            V1Response::GetExtendedAgentCard(_) => Method::GetExtendedAgentCard,
        }
    }
}

/// The result of a v0.3 JSON-RPC response to `method` (a v0.3 response does not say which method it
/// answers, so the caller does). An error response fails with [`BridgeErrorKind::ErrorResponse`]; a
/// result of the wrong shape with [`BridgeErrorKind::InvalidJson`].
pub fn upgrade_response(
    method: Method,
    response: v0_3::JsonRpcResponse,
) -> Result<V1Response, BridgeError> {
    if let v0_3::JsonRpcResponse::Error(error) = response {
        return Err(BridgeError::new(BridgeErrorKind::ErrorResponse {
            error: error.error,
        }));
    }
    // The variant serde picked may belong to another method with the same result shape (a task answers
    // `tasks/get` and `tasks/cancel` alike), so read the response again as the method's own type.
    let json = serde_json::to_value(&response).expect("a v0.3 response is always JSON");
    fn read<T: serde::de::DeserializeOwned>(
        type_name: &str,
        json: serde_json::Value,
    ) -> Result<T, BridgeError> {
        serde_json::from_value(json).map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: type_name.to_owned(),
                message: e.to_string(),
            })
        })
    }
    Ok(match method {
        Method::SendMessage => V1Response::SendMessage(
            read::<v0_3::SendMessageSuccessResponse>("SendMessageSuccessResponse", json)?
                .try_into()?,
        ),
        Method::SendStreamingMessage | Method::SubscribeToTask => {
            let event: v1::StreamResponse = read::<v0_3::SendStreamingMessageSuccessResponse>(
                "SendStreamingMessageSuccessResponse",
                json,
            )?
            .try_into()?;
            if method == Method::SubscribeToTask {
                V1Response::SubscribeToTask(event)
            } else {
                V1Response::SendStreamingMessage(event)
            }
        }
        Method::GetTask => V1Response::GetTask(
            read::<v0_3::GetTaskSuccessResponse>("GetTaskSuccessResponse", json)?.try_into()?,
        ),
        Method::CancelTask => V1Response::CancelTask(
            read::<v0_3::CancelTaskSuccessResponse>("CancelTaskSuccessResponse", json)?
                .try_into()?,
        ),
        Method::CreateTaskPushNotificationConfig => V1Response::CreateTaskPushNotificationConfig(
            read::<v0_3::SetTaskPushNotificationConfigSuccessResponse>(
                "SetTaskPushNotificationConfigSuccessResponse",
                json,
            )?
            .into(),
        ),
        Method::GetTaskPushNotificationConfig => V1Response::GetTaskPushNotificationConfig(
            read::<v0_3::GetTaskPushNotificationConfigSuccessResponse>(
                "GetTaskPushNotificationConfigSuccessResponse",
                json,
            )?
            .into(),
        ),
        Method::ListTaskPushNotificationConfigs => V1Response::ListTaskPushNotificationConfigs(
            read::<v0_3::ListTaskPushNotificationConfigSuccessResponse>(
                "ListTaskPushNotificationConfigSuccessResponse",
                json,
            )?
            .into(),
        ),
        Method::DeleteTaskPushNotificationConfig => {
            read::<v0_3::DeleteTaskPushNotificationConfigSuccessResponse>(
                "DeleteTaskPushNotificationConfigSuccessResponse",
                json,
            )?;
            V1Response::DeleteTaskPushNotificationConfig
        }
        Method::GetExtendedAgentCard => V1Response::GetExtendedAgentCard(
            read::<v0_3::GetAuthenticatedExtendedCardSuccessResponse>(
                "GetAuthenticatedExtendedCardSuccessResponse",
                json,
            )?
            .into(),
        ),
        Method::ListTasks => {
            return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: Method::ListTasks.v1_name().to_owned(),
                reason: "v0.3 has no method to list tasks",
            }));
        }
    })
}

/// A v1 result as the v0.3 JSON-RPC success response with this id. Fails for `ListTasks`, which v0.3
/// does not have, and where the result fails.
pub fn downgrade_response(
    id: Option<JsonRpcId>,
    response: V1Response,
) -> Result<v0_3::JsonRpcResponse, BridgeError> {
    use v0_3::JsonRpcResponse as R;
    let result = |e: BridgeError| e.at("result");
    let mut out = match response {
        V1Response::SendMessage(r) => R::SendMessage(r.try_into().map_err(result)?),
        V1Response::SendStreamingMessage(r) | V1Response::SubscribeToTask(r) => {
            R::SendStreamingMessage(r.try_into().map_err(result)?)
        }
        V1Response::GetTask(r) => R::GetTask(r.try_into().map_err(result)?),
        V1Response::CancelTask(r) => R::CancelTask(r.try_into().map_err(result)?),
        V1Response::CreateTaskPushNotificationConfig(r) => {
            R::SetTaskPushNotificationConfig(r.into())
        }
        V1Response::GetTaskPushNotificationConfig(r) => R::GetTaskPushNotificationConfig(r.into()),
        V1Response::ListTaskPushNotificationConfigs(r) => {
            R::ListTaskPushNotificationConfig(r.into())
        }
        V1Response::DeleteTaskPushNotificationConfig => R::DeleteTaskPushNotificationConfig(
            v0_3::DeleteTaskPushNotificationConfigSuccessResponse {
                id: None,
                jsonrpc: Default::default(),
                result: (),
            },
        ),
        V1Response::GetExtendedAgentCard(r) => {
            R::GetAuthenticatedExtendedCard(r.try_into().map_err(result)?)
        }
        V1Response::ListTasks(_) => {
            return Err(BridgeError::new(BridgeErrorKind::NoCounterpart {
                name: Method::ListTasks.v1_name().to_owned(),
                reason: "v0.3 has no method to list tasks",
            }));
        }
    };
    match &mut out {
        R::Error(r) => r.id = id,
        R::SendMessage(r) => r.id = id,
        R::SendStreamingMessage(r) => r.id = id,
        R::GetTask(r) => r.id = id,
        R::CancelTask(r) => r.id = id,
        R::SetTaskPushNotificationConfig(r) => r.id = id,
        R::GetTaskPushNotificationConfig(r) => r.id = id,
        R::ListTaskPushNotificationConfig(r) => r.id = id,
        R::DeleteTaskPushNotificationConfig(r) => r.id = id,
        R::GetAuthenticatedExtendedCard(r) => r.id = id,
    }
    Ok(out)
}
