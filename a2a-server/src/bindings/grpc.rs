//! The gRPC binding: `lf.a2a.v1.A2AService` from a2a-proto's tonic stubs (and, with feature `v0_3`,
//! v0.3's `a2a.v1.A2AService` beside it: [`super::grpc_v0_3`]). Requests convert from the
//! protobuf types to `a2a_types` (a conversion failure is `InvalidParams` naming the field), the
//! server answers, results convert back, errors become `tonic::Status` with the A2A error details.
//! Metadata is read as HTTP headers: `a2a-version`, `a2a-extensions`, `authorization` (through the
//! authentication hook) and `traceparent`.

use std::sync::Arc;

use a2a_proto::grpc::Budgeted;
use a2a_proto::v1 as pb;
use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service::{
    A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, Extensions, ProtocolVersion,
};
use a2a_types::proto::ConversionError;
use tokio_stream::StreamExt;
use tonic::codegen::BoxStream;
use tonic::service::Routes;
use tonic::{Request, Response, Status};

use crate::auth::Presented;
use crate::bindings::http_common::header;
use crate::core::call::{authenticate, call, check_request};
use crate::core::context::{CallContext, Reply};
use crate::core::state::ServerState;
use crate::errors::denied_status;
use crate::errors::invalid;
use crate::executor::ServiceParams;

/// The gRPC service under the server's decode budget: tonic refuses a message over the size
/// before buffering it, and the stubs' codec counts its fields before prost decodes it (both
/// `OUT_OF_RANGE`).
pub(crate) fn routes(state: &Arc<ServerState>) -> Routes {
    let limits = state.config.limits;
    let service = A2aServiceServer::new(GrpcBinding {
        state: state.clone(),
    })
    .max_decoding_message_size(limits.max_bytes());
    let routes = Routes::new(Budgeted::new(service, limits));
    // v0.3's service (package `a2a.v1`) beside v1's on the same listener.
    #[cfg(feature = "v0_3")]
    let routes = routes.add_service(crate::bindings::grpc_v0_3::service(state));
    routes
}

struct GrpcBinding {
    state: Arc<ServerState>,
}

/// The version check, the caller and the service parameters, from the request's metadata.
async fn context_of<T>(state: &ServerState, request: &Request<T>) -> Result<CallContext, Status> {
    let metadata = request.metadata();
    // Every value given must be one this service speaks (a client may add one to its default).
    let versions: Vec<Option<&str>> = metadata
        .get_all(A2A_VERSION_HEADER.to_ascii_lowercase())
        .iter()
        .map(|v| v.to_str().ok())
        .collect();
    let serves = |version: Option<&str>| {
        ProtocolVersion::from_header(version)
            .is_ok_and(|v| v.is_compatible_with(ProtocolVersion::V1_0))
    };
    let unserved = if versions.is_empty() {
        Some(None)
    } else {
        versions.into_iter().find(|v| !serves(*v))
    };
    if let Some(version) = unserved {
        let error = Error::with_message(
            ErrorKind::VersionNotSupported,
            format!(
                "this gRPC service serves A2A 1.0 (a2a-version: 1.0), not {:?}",
                version.unwrap_or("0.3 (no metadata)")
            ),
        );
        return Err(Status::from(&error));
    }
    let headers = metadata.clone().into_headers();
    let caller = authenticate(state, &headers, None, &Presented::of(request.extensions()))
        .await
        .map_err(denied_status)?;
    let extensions = headers
        .get_all(A2A_EXTENSIONS_HEADER)
        .iter()
        .filter_map(|v| v.to_str().ok());
    let mut context = CallContext::new(caller, "GRPC");
    context.service_params = ServiceParams::new(
        Some(ProtocolVersion::V1_0),
        Extensions::parse_all(extensions),
    );
    context.traceparent = header(&headers, "traceparent").map(str::to_owned);
    Ok(context)
}

fn convert<P, T: TryFrom<P, Error = ConversionError>>(message: P) -> Result<T, Status> {
    T::try_from(message).map_err(|e| Status::from(&invalid(&e.path(), e.reason())))
}

fn unexpected() -> Status {
    Status::from(&Error::with_message(
        ErrorKind::Internal,
        "the server answered with the wrong kind of result",
    ))
}

impl GrpcBinding {
    async fn call(&self, params: MethodParams, context: &CallContext) -> Result<Reply, Status> {
        if let Err(refusal) = check_request(&self.state, &params, &context.caller) {
            return Err(denied_status(refusal));
        }
        call(&self.state, params, context)
            .await
            .map_err(|e| Status::from(&e))
    }

    async fn stream(
        &self,
        params: MethodParams,
        context: &CallContext,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        match self.call(params, context).await? {
            Reply::Stream(events) => {
                let stream = events.map(|item| Ok(pb::StreamResponse::from(item.event)));
                Ok(Response::new(Box::pin(stream)))
            }
            Reply::Unary(_) => Err(unexpected()),
        }
    }
}

/// One unary RPC: context, conversion in, the server, conversion out.
macro_rules! unary {
    ($self:ident, $request:ident, $variant:ident) => {{
        let context = context_of(&$self.state, &$request).await?;
        let params = MethodParams::$variant(convert($request.into_inner())?);
        match $self.call(params, &context).await? {
            Reply::Unary(MethodResult::$variant(result)) => Ok(Response::new(result.into())),
            _ => Err(unexpected()),
        }
    }};
}

#[tonic::async_trait]
impl A2aService for GrpcBinding {
    async fn send_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Result<Response<pb::SendMessageResponse>, Status> {
        unary!(self, request, SendMessage)
    }

    async fn send_streaming_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        let context = context_of(&self.state, &request).await?;
        let params = MethodParams::SendStreamingMessage(convert(request.into_inner())?);
        self.stream(params, &context).await
    }

    async fn get_task(
        &self,
        request: Request<pb::GetTaskRequest>,
    ) -> Result<Response<pb::Task>, Status> {
        unary!(self, request, GetTask)
    }

    async fn list_tasks(
        &self,
        request: Request<pb::ListTasksRequest>,
    ) -> Result<Response<pb::ListTasksResponse>, Status> {
        unary!(self, request, ListTasks)
    }

    async fn cancel_task(
        &self,
        request: Request<pb::CancelTaskRequest>,
    ) -> Result<Response<pb::Task>, Status> {
        unary!(self, request, CancelTask)
    }

    async fn subscribe_to_task(
        &self,
        request: Request<pb::SubscribeToTaskRequest>,
    ) -> Result<Response<BoxStream<pb::StreamResponse>>, Status> {
        let context = context_of(&self.state, &request).await?;
        let params = MethodParams::SubscribeToTask(convert(request.into_inner())?);
        self.stream(params, &context).await
    }

    async fn create_task_push_notification_config(
        &self,
        request: Request<pb::TaskPushNotificationConfig>,
    ) -> Result<Response<pb::TaskPushNotificationConfig>, Status> {
        unary!(self, request, CreateTaskPushNotificationConfig)
    }

    async fn get_task_push_notification_config(
        &self,
        request: Request<pb::GetTaskPushNotificationConfigRequest>,
    ) -> Result<Response<pb::TaskPushNotificationConfig>, Status> {
        unary!(self, request, GetTaskPushNotificationConfig)
    }

    async fn list_task_push_notification_configs(
        &self,
        request: Request<pb::ListTaskPushNotificationConfigsRequest>,
    ) -> Result<Response<pb::ListTaskPushNotificationConfigsResponse>, Status> {
        unary!(self, request, ListTaskPushNotificationConfigs)
    }

    async fn get_extended_agent_card(
        &self,
        request: Request<pb::GetExtendedAgentCardRequest>,
    ) -> Result<Response<pb::AgentCard>, Status> {
        unary!(self, request, GetExtendedAgentCard)
    }

    async fn delete_task_push_notification_config(
        &self,
        request: Request<pb::DeleteTaskPushNotificationConfigRequest>,
    ) -> Result<Response<a2a_proto::pbjson_types::Empty>, Status> {
        let context = context_of(&self.state, &request).await?;
        let params = MethodParams::DeleteTaskPushNotificationConfig(convert(request.into_inner())?);
        match self.call(params, &context).await? {
            Reply::Unary(MethodResult::DeleteTaskPushNotificationConfig(_)) => {
                Ok(Response::new(a2a_proto::pbjson_types::Empty {}))
            }
            _ => Err(unexpected()),
        }
    }
}
