//! Each method's params, both ways: v0.3's params types and v1's request messages, and whole v0.3
//! requests to the request message (the JSON-RPC id stays behind).

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use super::super::BridgeError;
use super::super::objects::history_length_to_v1;
use super::super::sdk_compat::nonempty_struct;
use a2a_types::v1;

use crate::v0_3;

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
