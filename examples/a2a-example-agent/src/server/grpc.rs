//! The gRPC binding: `lf.a2a.v1.A2AService` from a2a-proto's tonic stubs. Requests convert from the
//! protobuf types to `a2a_types` (a conversion failure is `InvalidParams` naming the field), the agent
//! answers, results convert back, errors become `tonic::Status` with the A2A error details.

use std::sync::Arc;

use a2a_proto::grpc::Budgeted;
use a2a_proto::v1 as pb;
use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
use a2a_types::errors::{A2aError, Error};
use a2a_types::jsonrpc::{MethodParams, MethodResult};
use a2a_types::proto::ConversionError;
use a2a_types::service::{A2A_EXTENSIONS, A2A_VERSION, Extensions, ProtocolVersion};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::codegen::BoxStream;
use tonic::service::Routes;
use tonic::{Request, Response, Status};

use super::Agent;
use super::service::{CallContext, Reply};
use super::store::invalid;

pub(super) fn routes(agent: Arc<Agent>) -> Routes {
    // tonic refuses a message over the size before buffering it; the stubs' codec then counts
    // its fields under the same budget before prost decodes it (both answer OUT_OF_RANGE).
    let limits = agent.limits();
    let server =
        A2aServiceServer::new(GrpcAgent { agent }).max_decoding_message_size(limits.max_bytes());
    Routes::new(Budgeted::new(server, limits))
}

struct GrpcAgent {
    agent: Arc<Agent>,
}

/// The version check and the caller's context, from the request's metadata.
fn context_of<T>(request: &Request<T>) -> Result<CallContext, Status> {
    let metadata = request.metadata();
    let text = |name: &str| {
        metadata
            .get(name.to_ascii_lowercase())
            .and_then(|v| v.to_str().ok())
    };
    // Every value given must be one this service speaks (a client may add one to its default).
    let versions: Vec<Option<&str>> = metadata
        .get_all(A2A_VERSION.to_ascii_lowercase())
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
            A2aError::VersionNotSupported,
            format!(
                "this gRPC service serves A2A 1.0 (a2a-version: 1.0), not {:?}",
                version.unwrap_or("0.3 (no metadata)")
            ),
        );
        return Err(Status::from(&error));
    }
    let extensions = metadata
        .get_all(A2A_EXTENSIONS.to_ascii_lowercase())
        .iter()
        .filter_map(|v| v.to_str().ok());
    Ok(CallContext {
        extensions: Extensions::parse_all(extensions),
        authorization: text("authorization").map(str::to_owned),
    })
}

fn convert<P, T: TryFrom<P, Error = ConversionError>>(message: P) -> Result<T, Status> {
    T::try_from(message).map_err(|e| Status::from(&invalid(&e.path(), e.reason().to_owned())))
}

fn unexpected() -> Status {
    Status::from(&Error::with_message(
        A2aError::Internal,
        "the agent answered with the wrong kind of result",
    ))
}

impl GrpcAgent {
    async fn call(&self, params: MethodParams, context: &CallContext) -> Result<Reply, Status> {
        self.agent
            .call(params, context)
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
                let stream = UnboundedReceiverStream::new(events)
                    .map(|event| Ok(pb::StreamResponse::from(event)));
                Ok(Response::new(Box::pin(stream)))
            }
            Reply::Unary(_) => Err(unexpected()),
        }
    }
}

/// One unary RPC: context, conversion in, the agent, conversion out.
macro_rules! unary {
    ($self:ident, $request:ident, $variant:ident) => {{
        let context = context_of(&$request)?;
        let params = MethodParams::$variant(convert($request.into_inner())?);
        match $self.call(params, &context).await? {
            Reply::Unary(MethodResult::$variant(result)) => Ok(Response::new(result.into())),
            _ => Err(unexpected()),
        }
    }};
}

#[tonic::async_trait]
impl A2aService for GrpcAgent {
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
        let context = context_of(&request)?;
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
        let context = context_of(&request)?;
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
        let authorization = request
            .metadata()
            .get("authorization")
            .and_then(|v| v.to_str().ok());
        if !self.agent.authorized(authorization) {
            return Err(Status::unauthenticated(
                "GetExtendedAgentCard needs authorization: Bearer <token>",
            ));
        }
        unary!(self, request, GetExtendedAgentCard)
    }

    async fn delete_task_push_notification_config(
        &self,
        request: Request<pb::DeleteTaskPushNotificationConfigRequest>,
    ) -> Result<Response<a2a_proto::pbjson_types::Empty>, Status> {
        let context = context_of(&request)?;
        let params = MethodParams::DeleteTaskPushNotificationConfig(convert(request.into_inner())?);
        match self.call(params, &context).await? {
            Reply::Unary(MethodResult::DeleteTaskPushNotificationConfig(_)) => {
                Ok(Response::new(a2a_proto::pbjson_types::Empty {}))
            }
            _ => Err(unexpected()),
        }
    }
}
