//! A2A v0.3 gRPC clients (feature `v0_3`): the service `a2a.v1.A2AService` of a2a-proto's `v0_3`
//! stubs, beside v1's `lf.a2a.v1.A2AService` on the same listener (the package names differ, so the
//! routes do too). Each RPC's message is translated by [`super::v0_3_proto`] and answered by the same
//! server; errors are statuses as the SDK 0.3's gRPC server writes them (`TaskNotFoundError: ...`).
//! Metadata is read as HTTP headers, as on v1 (`authorization` through the authentication hook,
//! `a2a-extensions` or v0.3's `x-a2a-extensions`, `traceparent`); v0.3 clients send no
//! `a2a-version`, so none is asked for.

use std::sync::Arc;

use a2a_proto::grpc::Budgeted;
use a2a_proto::v0_3 as pb;
use a2a_proto::v0_3::a2a_service_server::{A2aService, A2aServiceServer};
use a2a_protocol::errors::{Error, ErrorKind};
use tokio_stream::StreamExt;
use tonic::codegen::BoxStream;
use tonic::{Request, Response, Status};

use crate::auth::Presented;
use crate::bindings::http_common::call_context;
use crate::bindings::v0_3_proto::{
    ProtoRequest, ProtoResult, downgrade, downgrade_event, grpc_status, upgrade,
};
use crate::core::call::{call, check_request};
use crate::core::context::Reply;
use crate::core::state::ServerState;
use crate::errors::denied_status;

/// The v0.3 service under the server's decode budget (as v1's is).
pub(crate) fn service(state: &Arc<ServerState>) -> Budgeted<A2aServiceServer<GrpcV0_3Binding>> {
    let limits = state.config.limits;
    let service = A2aServiceServer::new(GrpcV0_3Binding {
        state: state.clone(),
    })
    .max_decoding_message_size(limits.max_bytes());
    Budgeted::new(service, limits)
}

pub(crate) struct GrpcV0_3Binding {
    state: Arc<ServerState>,
}

fn unexpected() -> Status {
    grpc_status(&Error::with_message(
        ErrorKind::Internal,
        "the server answered with the wrong kind of result",
    ))
}

impl GrpcV0_3Binding {
    /// Context, translation in, the server.
    async fn call<T>(
        &self,
        request: Request<T>,
        wrap: fn(T) -> ProtoRequest,
    ) -> Result<Reply, Status> {
        let headers = request.metadata().clone().into_headers();
        let presented = Presented::of(request.extensions());
        let params = upgrade(wrap(request.into_inner())).map_err(|e| grpc_status(&e))?;
        let context = call_context(&self.state, &headers, None, &presented, "GRPC v0.3")
            .await
            .map_err(denied_status)?;
        if let Err(refusal) = check_request(&self.state, &params, &context.caller) {
            return Err(denied_status(refusal));
        }
        call(&self.state, params, &context)
            .await
            .map_err(|e| grpc_status(&e))
    }

    async fn unary<T>(
        &self,
        request: Request<T>,
        wrap: fn(T) -> ProtoRequest,
    ) -> Result<ProtoResult, Status> {
        match self.call(request, wrap).await? {
            Reply::Unary(result) => downgrade(result).map_err(|e| grpc_status(&e)),
            Reply::Stream(_) => Err(unexpected()),
        }
    }

    async fn stream<T>(
        &self,
        request: Request<T>,
        wrap: fn(T) -> ProtoRequest,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        match self.call(request, wrap).await? {
            Reply::Stream(events) => {
                let stream =
                    events.map(|item| downgrade_event(item.event).map_err(|e| grpc_status(&e)));
                Ok(Response::new(Box::pin(stream)))
            }
            Reply::Unary(_) => Err(unexpected()),
        }
    }
}

/// The answer of one unary RPC, when it is of this kind.
macro_rules! answer {
    ($result:expr, $variant:ident) => {
        match $result {
            ProtoResult::$variant(message) => Ok(Response::new(message)),
            _ => Err(unexpected()),
        }
    };
}

#[tonic::async_trait]
impl A2aService for GrpcV0_3Binding {
    async fn send_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Result<Response<pb::SendMessageResponse>, Status> {
        answer!(
            self.unary(request, ProtoRequest::SendMessage).await?,
            SendMessage
        )
    }

    async fn send_streaming_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        self.stream(request, ProtoRequest::SendStreamingMessage)
            .await
    }

    async fn get_task(
        &self,
        request: Request<pb::GetTaskRequest>,
    ) -> Result<Response<pb::Task>, Status> {
        answer!(self.unary(request, ProtoRequest::GetTask).await?, Task)
    }

    async fn cancel_task(
        &self,
        request: Request<pb::CancelTaskRequest>,
    ) -> Result<Response<pb::Task>, Status> {
        answer!(self.unary(request, ProtoRequest::CancelTask).await?, Task)
    }

    async fn task_subscription(
        &self,
        request: Request<pb::TaskSubscriptionRequest>,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        self.stream(request, ProtoRequest::SubscribeToTask).await
    }

    async fn create_task_push_notification_config(
        &self,
        request: Request<pb::CreateTaskPushNotificationConfigRequest>,
    ) -> Result<Response<pb::TaskPushNotificationConfig>, Status> {
        answer!(
            self.unary(request, ProtoRequest::CreatePushConfig).await?,
            PushConfig
        )
    }

    async fn get_task_push_notification_config(
        &self,
        request: Request<pb::GetTaskPushNotificationConfigRequest>,
    ) -> Result<Response<pb::TaskPushNotificationConfig>, Status> {
        answer!(
            self.unary(request, ProtoRequest::GetPushConfig).await?,
            PushConfig
        )
    }

    async fn list_task_push_notification_config(
        &self,
        request: Request<pb::ListTaskPushNotificationConfigRequest>,
    ) -> Result<Response<pb::ListTaskPushNotificationConfigResponse>, Status> {
        answer!(
            self.unary(request, ProtoRequest::ListPushConfigs).await?,
            PushConfigs
        )
    }

    async fn get_agent_card(
        &self,
        request: Request<pb::GetAgentCardRequest>,
    ) -> Result<Response<pb::AgentCard>, Status> {
        answer!(self.unary(request, |_| ProtoRequest::GetCard).await?, Card)
    }

    async fn delete_task_push_notification_config(
        &self,
        request: Request<pb::DeleteTaskPushNotificationConfigRequest>,
    ) -> Result<Response<a2a_proto::pbjson_types::Empty>, Status> {
        match self.unary(request, ProtoRequest::DeletePushConfig).await? {
            ProtoResult::Empty => Ok(Response::new(a2a_proto::pbjson_types::Empty {})),
            _ => Err(unexpected()),
        }
    }
}
