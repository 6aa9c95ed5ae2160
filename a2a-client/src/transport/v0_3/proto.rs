//! The `a2a.v1` protobuf form of v0.3 requests and results, which the v0.3 HTTP+JSON binding writes as
//! ProtoJSON and the v0.3 gRPC binding as protobuf: a v0.3 JSON-RPC request (from [`Downgrader`])
//! to its request message ([`ProtoRequest`]), and an answer message ([`ProtoResult`], a stream's
//! `StreamResponse`) back to the v1 result, both through `a2a_types`' conversions (the SDK's own
//! rules, see `a2a_compat::v0_3::proto`).
//!
//! The request is converted back as well, and a field the protobuf message has no place for (the
//! `metadata` of `tasks/get` and `tasks/cancel`, a page size) is refused by name, as the bridge's own
//! losses are.

use a2a_compat::v0_3;
use a2a_proto::v0_3 as pb;
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_types::proto::ConversionError;
use a2a_types::v1;
use serde::Serialize;
use serde_json::Value;

use super::{Downgrader, not_convertible, refuse_losses};
use crate::{Binding, ClientError};

/// The request message of one v0.3 RPC.
#[derive(Clone, Debug)]
pub(crate) enum ProtoRequest {
    SendMessage(pb::SendMessageRequest),
    SendStreamingMessage(pb::SendMessageRequest),
    GetTask(pb::GetTaskRequest),
    CancelTask(pb::CancelTaskRequest),
    SubscribeToTask(pb::TaskSubscriptionRequest),
    CreatePushConfig(pb::CreateTaskPushNotificationConfigRequest),
    GetPushConfig(pb::GetTaskPushNotificationConfigRequest),
    ListPushConfigs(pb::ListTaskPushNotificationConfigRequest),
    DeletePushConfig(pb::DeleteTaskPushNotificationConfigRequest),
    GetCard(pb::GetAgentCardRequest),
}

/// The answer message of one unary v0.3 RPC.
#[derive(Clone, Debug)]
pub(crate) enum ProtoResult {
    SendMessage(pb::SendMessageResponse),
    Task(pb::Task),
    PushConfig(pb::TaskPushNotificationConfig),
    PushConfigs(pb::ListTaskPushNotificationConfigResponse),
    Empty,
    Card(pb::AgentCard),
}

impl Downgrader {
    /// The protobuf request for `params` on `binding`, or what would not survive the way there.
    pub(crate) fn downgrade_to_proto(
        &self,
        params: MethodParams,
        binding: Binding,
    ) -> Result<(Operation, ProtoRequest), ClientError> {
        let (operation, request) = self.downgrade(params)?;
        let original = serde_json::to_value(&request)
            .map(|mut json| json["params"].take())
            .map_err(|e| ClientError::InvalidRequest {
                message: format!("the v0.3 request: {e}"),
            })?;
        let (proto, back) = to_proto(request)?;
        refuse_losses(
            operation.jsonrpc_method(),
            &original,
            &back,
            &format!("an A2A v0.3 agent over {binding}"),
        )?;
        Ok((operation, proto))
    }
}

/// A failed conversion of the request to protobuf (or back): it cannot cross, named by its path.
fn refused(error: ConversionError) -> ClientError {
    ClientError::NotConvertible {
        message: format!("to the v0.3 protobuf request: {error}"),
    }
}

/// `params` as the message `P`, and the params read back from it (as JSON, for the loss check).
fn through<T, P>(
    params: T,
    wrap: fn(P) -> ProtoRequest,
) -> Result<(ProtoRequest, Value), ClientError>
where
    P: TryFrom<T, Error = ConversionError> + Clone,
    T: TryFrom<P, Error = ConversionError> + Serialize,
{
    let message = P::try_from(params).map_err(refused)?;
    let back = T::try_from(message.clone()).map_err(refused)?;
    let back = serde_json::to_value(&back).map_err(|e| ClientError::InvalidRequest {
        message: format!("the v0.3 request: {e}"),
    })?;
    Ok((wrap(message), back))
}

/// `params` saying `blocking: true` unless they say otherwise. In v0.3 JSON-RPC an absent
/// `blocking` means waiting for the task, as v1's unset `returnImmediately` does; protobuf's
/// `blocking` is a plain bool whose absence reads `false`, so it is written out.
fn waiting(mut params: v0_3::MessageSendParams) -> v0_3::MessageSendParams {
    let config = params.configuration.get_or_insert_with(Default::default);
    config.blocking.get_or_insert(true);
    params
}

fn to_proto(request: v0_3::A2aRequest) -> Result<(ProtoRequest, Value), ClientError> {
    use v0_3::A2aRequest as R;
    match request {
        R::SendMessage(r) => through(waiting(r.params), ProtoRequest::SendMessage),
        R::SendStreamingMessage(r) => {
            through(waiting(r.params), ProtoRequest::SendStreamingMessage)
        }
        R::GetTask(r) => through(r.params, ProtoRequest::GetTask),
        R::CancelTask(r) => through(r.params, ProtoRequest::CancelTask),
        R::TaskResubscription(r) => through(r.params, ProtoRequest::SubscribeToTask),
        R::SetTaskPushNotificationConfig(r) => through(r.params, ProtoRequest::CreatePushConfig),
        R::GetTaskPushNotificationConfig(r) => through(r.params, ProtoRequest::GetPushConfig),
        R::ListTaskPushNotificationConfig(r) => through(r.params, ProtoRequest::ListPushConfigs),
        R::DeleteTaskPushNotificationConfig(r) => through(r.params, ProtoRequest::DeletePushConfig),
        R::GetAuthenticatedExtendedCard(_) => Ok((
            ProtoRequest::GetCard(pb::GetAgentCardRequest::default()),
            Value::Null,
        )),
    }
}

/// An answer that does not convert: the agent's fault, named by the field.
fn unreadable(
    binding: Binding,
    operation: Operation,
    error: impl std::fmt::Display,
) -> ClientError {
    ClientError::invalid(
        Some(binding),
        format!("the v0.3 result of {}: {error}", operation.jsonrpc_method()),
    )
}

/// The v1 result of `operation` from its v0.3 answer message.
pub(crate) fn upgrade(
    binding: Binding,
    operation: Operation,
    result: ProtoResult,
) -> Result<MethodResult, ClientError> {
    let bad = |e: &dyn std::fmt::Display| unreadable(binding, operation, e);
    let task = |task: pb::Task| -> Result<v1::Task, ClientError> {
        let task = v0_3::Task::try_from(task).map_err(|e| bad(&e))?;
        v1::Task::try_from(task).map_err(|e| bad(&not_convertible(e)))
    };
    Ok(match (operation, result) {
        (Operation::SendMessage, ProtoResult::SendMessage(response)) => {
            let result = v0_3::SendMessageResult::try_from(response).map_err(|e| bad(&e))?;
            MethodResult::SendMessage(
                v1::SendMessageResponse::try_from(result).map_err(|e| bad(&not_convertible(e)))?,
            )
        }
        (Operation::GetTask, ProtoResult::Task(t)) => MethodResult::GetTask(task(t)?),
        (Operation::CancelTask, ProtoResult::Task(t)) => MethodResult::CancelTask(task(t)?),
        (Operation::CreateTaskPushNotificationConfig, ProtoResult::PushConfig(config)) => {
            MethodResult::CreateTaskPushNotificationConfig(
                push_config(config).map_err(|e| bad(&e))?,
            )
        }
        (Operation::GetTaskPushNotificationConfig, ProtoResult::PushConfig(config)) => {
            MethodResult::GetTaskPushNotificationConfig(push_config(config).map_err(|e| bad(&e))?)
        }
        (Operation::ListTaskPushNotificationConfigs, ProtoResult::PushConfigs(list)) => {
            let list = v0_3::ListTaskPushNotificationConfigSuccessResponse::try_from(list)
                .map_err(|e| bad(&e))?;
            MethodResult::ListTaskPushNotificationConfigs(list.into())
        }
        (Operation::DeleteTaskPushNotificationConfig, ProtoResult::Empty) => {
            MethodResult::DeleteTaskPushNotificationConfig(Empty)
        }
        (Operation::GetExtendedAgentCard, ProtoResult::Card(card)) => {
            let card = v0_3::AgentCard::try_from(card).map_err(|e| bad(&e))?;
            MethodResult::GetExtendedAgentCard(card.into())
        }
        (operation, other) => {
            return Err(ClientError::invalid(
                Some(binding),
                format!("{other:?} is no answer to {operation}"),
            ));
        }
    })
}

fn push_config(
    config: pb::TaskPushNotificationConfig,
) -> Result<v1::TaskPushNotificationConfig, ConversionError> {
    v0_3::TaskPushNotificationConfig::try_from(config).map(Into::into)
}

/// One event of a v0.3 stream as the v1 event.
pub(crate) fn upgrade_event(
    binding: Binding,
    event: pb::StreamResponse,
) -> Result<v1::StreamResponse, ClientError> {
    let operation = Operation::SendStreamingMessage;
    let event = v0_3::SendStreamingMessageResult::try_from(event)
        .map_err(|e| unreadable(binding, operation, e))?;
    v1::StreamResponse::try_from(event)
        .map_err(|e| unreadable(binding, operation, not_convertible(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{CancelTaskRequest, GetTaskRequest, Message, Part, SendMessageRequest};

    #[test]
    fn a_message_becomes_the_protobuf_send_request() {
        let request = SendMessageRequest {
            message: Message::user("m-1", [Part::text("Book a table")]),
            ..Default::default()
        };
        let (operation, proto) = Downgrader::new()
            .downgrade_to_proto(MethodParams::SendMessage(request), Binding::Grpc)
            .expect("convertible");
        assert_eq!(operation, Operation::SendMessage);
        let ProtoRequest::SendMessage(send) = proto else {
            panic!("{proto:?}")
        };
        assert!(send.configuration.expect("a configuration").blocking);
        let message = send.request.expect("the message");
        assert_eq!(message.message_id, "m-1");
        assert_eq!(message.role(), pb::Role::User);
    }

    #[test]
    fn what_the_protobuf_request_has_no_field_for_is_refused_by_name() {
        let mut metadata = serde_json::Map::new();
        metadata.insert("trace".into(), "abc".into());
        let cancel = MethodParams::CancelTask(CancelTaskRequest {
            id: "t-1".into(),
            metadata: Some(metadata),
            ..Default::default()
        });
        let error = Downgrader::new()
            .downgrade_to_proto(cancel, Binding::HttpJson)
            .unwrap_err();
        assert!(
            matches!(&error, ClientError::NotConvertible { message }
                if message.contains("`params.metadata`") && message.contains("HTTP+JSON")),
            "{error}"
        );
        let get = MethodParams::GetTask(GetTaskRequest {
            id: "t-1".into(),
            history_length: Some(3),
            ..Default::default()
        });
        let (_, proto) = Downgrader::new()
            .downgrade_to_proto(get, Binding::Grpc)
            .expect("convertible");
        assert!(
            matches!(&proto, ProtoRequest::GetTask(get) if get.name == "tasks/t-1" && get.history_length == 3),
            "{proto:?}"
        );
    }

    #[test]
    fn an_answer_of_the_wrong_kind_is_unreadable() {
        let error = upgrade(Binding::Grpc, Operation::GetTask, ProtoResult::Empty).unwrap_err();
        assert!(
            matches!(error, ClientError::InvalidResponse { .. }),
            "{error}"
        );
    }
}
