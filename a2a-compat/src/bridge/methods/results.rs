//! Each method's result, both ways: v0.3's result types and success responses, and v1's response
//! messages.

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use super::super::sdk_compat::member_without_counterpart;
use super::super::{BridgeError, BridgeErrorKind};
use a2a_types::v1;

use crate::v0_3;

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

/// One stream event; a status update gets its `final` flag from [`crate::bridge::is_final_state`].
/// Any other kind of event (one a later v1 adds) fails.
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
fn configs_to_v1(
    configs: Vec<v0_3::TaskPushNotificationConfig>,
) -> v1::ListTaskPushNotificationConfigsResponse {
    v1::ListTaskPushNotificationConfigsResponse {
        configs: configs.into_iter().map(Into::into).collect(),
        next_page_token: None,
        ..Default::default()
    }
}

/// The configs; `nextPageToken` is lost.
fn configs_to_v0_3(
    response: v1::ListTaskPushNotificationConfigsResponse,
) -> Vec<v0_3::TaskPushNotificationConfig> {
    response.configs.into_iter().map(Into::into).collect()
}

/// The configs `tasks/pushNotificationConfig/list` returns; v1's `nextPageToken` is left unset.
impl From<v0_3::ListTaskPushNotificationConfigSuccessResponse>
    for v1::ListTaskPushNotificationConfigsResponse
{
    fn from(response: v0_3::ListTaskPushNotificationConfigSuccessResponse) -> Self {
        configs_to_v1(response.result)
    }
}

/// A success response with no JSON-RPC id (written as `"id": null`; set `id` to answer a request).
impl From<v1::ListTaskPushNotificationConfigsResponse>
    for v0_3::ListTaskPushNotificationConfigSuccessResponse
{
    fn from(result: v1::ListTaskPushNotificationConfigsResponse) -> Self {
        v0_3::ListTaskPushNotificationConfigSuccessResponse {
            id: None,
            jsonrpc: Default::default(),
            result: configs_to_v0_3(result),
        }
    }
}

/// The success's result; an error response fails with [`BridgeErrorKind::ErrorResponse`].
impl TryFrom<v0_3::ListTaskPushNotificationConfigResponse>
    for v1::ListTaskPushNotificationConfigsResponse
{
    type Error = BridgeError;
    fn try_from(
        response: v0_3::ListTaskPushNotificationConfigResponse,
    ) -> Result<Self, BridgeError> {
        match response {
            v0_3::ListTaskPushNotificationConfigResponse::Success(success) => Ok(success.into()),
            v0_3::ListTaskPushNotificationConfigResponse::Error(error) => {
                Err(BridgeError::new(BridgeErrorKind::ErrorResponse {
                    error: error.error,
                }))
            }
        }
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
    /// The card `agent/getAuthenticatedExtendedCard` returns.
    GetAuthenticatedExtendedCardSuccessResponse, GetAuthenticatedExtendedCardResponse <=> v1::AgentCard, From, TryFrom;
}
