//! The gRPC binding: a2a-proto's tonic client stub on a lazily connected channel. Requests and results
//! cross between the serde types and the protobuf types through a2a-types' `proto` conversions;
//! errors are read from the status's `google.rpc.Status` details.

use std::time::Duration;

use a2a_proto::v1 as pb;
use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_types::errors::Error;
use a2a_types::jsonrpc::{Empty, MethodParams, MethodResult};
use a2a_types::service;
use tonic::metadata::{MetadataKey, MetadataValue};
use tonic::transport::{Channel, Endpoint};

use super::stream::EventStream;
use super::{Binding, ClientConfig, ClientError, PROTOCOL_VERSION};

const GRPC: Binding = Binding::Grpc;

/// A tonic channel to one agent, and what every call carries.
#[derive(Clone, Debug)]
pub(crate) struct GrpcTransport {
    client: A2aServiceClient<Channel>,
    authorization: Option<MetadataValue<tonic::metadata::Ascii>>,
}

impl GrpcTransport {
    /// A channel to `url`; an interface URL without a scheme (`127.0.0.1:50051`, as the SDK writes
    /// gRPC targets) is plain-text HTTP/2.
    pub(crate) fn new(url: &str, config: &ClientConfig) -> Result<Self, ClientError> {
        let target = if url.contains("://") {
            url.to_owned()
        } else {
            format!("http://{url}")
        };
        let endpoint = Endpoint::from_shared(target.clone())
            .map_err(|e| ClientError::transport(Some(GRPC), format!("gRPC target {target}: {e}")))?
            .connect_timeout(config.connect_timeout);
        let authorization = config
            .bearer_token
            .as_ref()
            .map(|token| {
                format!("Bearer {token}")
                    .parse()
                    .map_err(|e| ClientError::InvalidRequest {
                        message: format!("the bearer token is not valid gRPC metadata: {e}"),
                    })
            })
            .transpose()?;
        Ok(GrpcTransport {
            client: A2aServiceClient::new(endpoint.connect_lazy()),
            authorization,
        })
    }

    /// A request with the service parameters and the deadline.
    fn request<T>(&self, message: T, timeout: Option<Duration>) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        let metadata = request.metadata_mut();
        // gRPC metadata keys are lower case: `a2a-version`.
        let key =
            MetadataKey::from_bytes(service::A2A_VERSION_HEADER.to_ascii_lowercase().as_bytes());
        if let (Ok(key), Ok(version)) = (key, PROTOCOL_VERSION.to_string().parse()) {
            metadata.insert(key, version);
        }
        if let Some(authorization) = &self.authorization {
            metadata.insert("authorization", authorization.clone());
        }
        if let Some(timeout) = timeout {
            request.set_timeout(timeout);
        }
        request
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        timeout: Duration,
    ) -> Result<MethodResult, ClientError> {
        let mut client = self.client.clone();
        let t = Some(timeout);
        Ok(match params {
            MethodParams::SendMessage(request) => {
                let response = client
                    .send_message(self.request(pb::SendMessageRequest::from(request), t))
                    .await;
                MethodResult::SendMessage(convert(response)?)
            }
            MethodParams::GetTask(request) => {
                let response = client
                    .get_task(self.request(pb::GetTaskRequest::from(request), t))
                    .await;
                MethodResult::GetTask(convert(response)?)
            }
            MethodParams::ListTasks(request) => {
                let response = client
                    .list_tasks(self.request(pb::ListTasksRequest::from(request), t))
                    .await;
                MethodResult::ListTasks(convert(response)?)
            }
            MethodParams::CancelTask(request) => {
                let response = client
                    .cancel_task(self.request(pb::CancelTaskRequest::from(request), t))
                    .await;
                MethodResult::CancelTask(convert(response)?)
            }
            MethodParams::CreateTaskPushNotificationConfig(config) => {
                let response = client
                    .create_task_push_notification_config(
                        self.request(pb::TaskPushNotificationConfig::from(config), t),
                    )
                    .await;
                MethodResult::CreateTaskPushNotificationConfig(convert(response)?)
            }
            MethodParams::GetTaskPushNotificationConfig(request) => {
                let response = client
                    .get_task_push_notification_config(
                        self.request(pb::GetTaskPushNotificationConfigRequest::from(request), t),
                    )
                    .await;
                MethodResult::GetTaskPushNotificationConfig(convert(response)?)
            }
            MethodParams::ListTaskPushNotificationConfigs(request) => {
                let response = client
                    .list_task_push_notification_configs(
                        self.request(pb::ListTaskPushNotificationConfigsRequest::from(request), t),
                    )
                    .await;
                MethodResult::ListTaskPushNotificationConfigs(convert(response)?)
            }
            MethodParams::DeleteTaskPushNotificationConfig(request) => {
                client
                    .delete_task_push_notification_config(self.request(
                        pb::DeleteTaskPushNotificationConfigRequest::from(request),
                        t,
                    ))
                    .await
                    .map_err(|status| status_error(&status))?;
                MethodResult::DeleteTaskPushNotificationConfig(Empty)
            }
            MethodParams::GetExtendedAgentCard(request) => {
                let response = client
                    .get_extended_agent_card(
                        self.request(pb::GetExtendedAgentCardRequest::from(request), t),
                    )
                    .await;
                MethodResult::GetExtendedAgentCard(convert(response)?)
            }
            other => {
                return Err(ClientError::InvalidRequest {
                    message: format!("{} is not a unary call", other.operation()),
                });
            }
        })
    }

    pub(crate) async fn stream(&self, params: MethodParams) -> Result<EventStream, ClientError> {
        let mut client = self.client.clone();
        let response = match params {
            MethodParams::SendStreamingMessage(request) => {
                client
                    .send_streaming_message(
                        self.request(pb::SendMessageRequest::from(request), None),
                    )
                    .await
            }
            MethodParams::SubscribeToTask(request) => {
                client
                    .subscribe_to_task(
                        self.request(pb::SubscribeToTaskRequest::from(request), None),
                    )
                    .await
            }
            other => {
                return Err(ClientError::InvalidRequest {
                    message: format!("{} is not a streaming call", other.operation()),
                });
            }
        };
        let stream = response.map_err(|status| status_error(&status))?;
        Ok(EventStream::grpc(stream.into_inner()))
    }
}

/// A unary answer to the serde type, or the error it carries.
fn convert<P, T>(response: Result<tonic::Response<P>, tonic::Status>) -> Result<T, ClientError>
where
    T: TryFrom<P, Error = a2a_types::proto::ConversionError>,
{
    let message = response
        .map_err(|status| status_error(&status))?
        .into_inner();
    T::try_from(message).map_err(|e| ClientError::invalid(Some(GRPC), format!("the result: {e}")))
}

/// A gRPC status to the A2A error in its details, or a transport error when it has none.
pub(crate) fn status_error(status: &tonic::Status) -> ClientError {
    match Error::from_tonic_status(status) {
        Ok(error) => ClientError::A2a {
            binding: GRPC,
            error,
        },
        Err(_) => ClientError::transport(
            Some(GRPC),
            format!("gRPC status {:?}: {}", status.code(), status.message()),
        ),
    }
}
