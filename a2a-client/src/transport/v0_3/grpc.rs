//! v0.3 over gRPC: the v0.3 service `a2a.v1.A2AService` (a2a-proto's `v0_3` stub) on the same lazily
//! connected channel, timeouts, metadata and decode budget as the v1 binding ([`GrpcTransport`]),
//! each request the protobuf message of [`ProtoRequest`], each answer upgraded by [`proto::upgrade`],
//! errors read by [`errors::status_error`](super::errors::status_error).

use a2a_proto::v0_3::a2a_service_client::A2aServiceClient;
use a2a_protocol::operations::{MethodParams, MethodResult};
use tonic::transport::Channel;

use super::Downgrader;
use super::errors::status_error;
use super::proto::{self, ProtoRequest, ProtoResult};
use crate::binding::Binding;
use crate::config::ClientConfig;
use crate::error::ClientError;
use crate::observe::{GrpcMessage, observe_answer, observe_stream_head};
use crate::stream::EventStream;
use crate::transport::contract::CallMeta;
use crate::transport::grpc::GrpcTransport;

const GRPC: Binding = Binding::Grpc;

/// `answer`, after telling the call's observer (if any) of it.
fn observed<P: GrpcMessage>(
    meta: &CallMeta,
    answer: Result<tonic::Response<P>, tonic::Status>,
) -> Result<tonic::Response<P>, tonic::Status> {
    observe_answer(meta.observing.as_ref(), &answer);
    answer
}

/// A tonic channel to one v0.3 agent.
#[derive(Clone, Debug)]
pub(crate) struct GrpcV0_3Transport {
    /// The v1 transport of the same target: its channel, metadata and budget.
    base: GrpcTransport,
    client: A2aServiceClient<Channel>,
    downgrader: Downgrader,
}

impl GrpcV0_3Transport {
    pub(crate) fn new(url: &str, config: &ClientConfig) -> Result<Self, ClientError> {
        let base = GrpcTransport::new(url, config)?;
        let client = A2aServiceClient::new(base.channel())
            .max_decoding_message_size(config.limits.max_bytes());
        Ok(GrpcV0_3Transport {
            base,
            client,
            downgrader: Downgrader::new(),
        })
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        let (operation, request) = self.downgrader.downgrade_to_proto(params, GRPC)?;
        let result = self.base.budgeted(self.unary(request, meta)).await?;
        proto::upgrade(GRPC, operation, result)
    }

    async fn unary(
        &self,
        request: ProtoRequest,
        meta: &CallMeta,
    ) -> Result<ProtoResult, ClientError> {
        let mut client = self.client.clone();
        let base = &self.base;
        let answer = match request {
            ProtoRequest::SendMessage(r) => {
                observed(meta, client.send_message(base.request(r, meta)?).await)
                    .map(|a| ProtoResult::SendMessage(a.into_inner()))
            }
            ProtoRequest::GetTask(r) => {
                observed(meta, client.get_task(base.request(r, meta)?).await)
                    .map(|a| ProtoResult::Task(a.into_inner()))
            }
            ProtoRequest::CancelTask(r) => {
                observed(meta, client.cancel_task(base.request(r, meta)?).await)
                    .map(|a| ProtoResult::Task(a.into_inner()))
            }
            ProtoRequest::CreatePushConfig(r) => observed(
                meta,
                client
                    .create_task_push_notification_config(base.request(r, meta)?)
                    .await,
            )
            .map(|a| ProtoResult::PushConfig(a.into_inner())),
            ProtoRequest::GetPushConfig(r) => observed(
                meta,
                client
                    .get_task_push_notification_config(base.request(r, meta)?)
                    .await,
            )
            .map(|a| ProtoResult::PushConfig(a.into_inner())),
            ProtoRequest::ListPushConfigs(r) => observed(
                meta,
                client
                    .list_task_push_notification_config(base.request(r, meta)?)
                    .await,
            )
            .map(|a| ProtoResult::PushConfigs(a.into_inner())),
            ProtoRequest::DeletePushConfig(r) => observed(
                meta,
                client
                    .delete_task_push_notification_config(base.request(r, meta)?)
                    .await,
            )
            .map(|_| ProtoResult::Empty),
            ProtoRequest::GetCard(r) => {
                observed(meta, client.get_agent_card(base.request(r, meta)?).await)
                    .map(|a| ProtoResult::Card(a.into_inner()))
            }
            ProtoRequest::SendStreamingMessage(_) | ProtoRequest::SubscribeToTask(_) => {
                return Err(ClientError::InvalidRequest {
                    message: "a streaming call is not a unary call".to_owned(),
                });
            }
        };
        answer.map_err(|status| status_error(&status))
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let (_, request) = self.downgrader.downgrade_to_proto(params, GRPC)?;
        self.base.budgeted(self.open_stream(request, meta)).await
    }

    async fn open_stream(
        &self,
        request: ProtoRequest,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let mut client = self.client.clone();
        let response = match request {
            ProtoRequest::SendStreamingMessage(r) => {
                client
                    .send_streaming_message(self.base.request(r, meta)?)
                    .await
            }
            ProtoRequest::SubscribeToTask(r) => {
                client.task_subscription(self.base.request(r, meta)?).await
            }
            _ => {
                return Err(ClientError::InvalidRequest {
                    message: "a unary call is not a streaming call".to_owned(),
                });
            }
        };
        observe_stream_head(meta.observing.as_ref(), &response);
        let stream = response.map_err(|status| status_error(&status))?;
        Ok(EventStream::grpc(
            stream.into_inner(),
            self.base.limits(),
            |event| proto::upgrade_event(GRPC, event),
            status_error,
            meta.observing.clone(),
        ))
    }
}
