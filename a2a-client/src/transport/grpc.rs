//! The gRPC binding: a2a-proto's tonic client stub on a lazily connected channel. Requests and results
//! cross between the serde types and the protobuf types through a2a-types' `proto` conversions;
//! errors are read from the status's `google.rpc.Status` details. Every answer is decoded under the
//! decode budget (a2a-proto's `BudgetCodec`, scoped with `with_limits`, and tonic's own size limit).

use a2a_proto::v1 as pb;
use a2a_proto::v1::a2a_service_client::A2aServiceClient;
use a2a_protocol::errors::Error;
use a2a_protocol::limits::Limits;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_types::v1::StreamResponse;
use tonic::metadata::{MetadataKey, MetadataValue};
use tonic::transport::{Channel, Endpoint};

use super::contract::CallMeta;
use crate::binding::Binding;
use crate::config::ClientConfig;
use crate::error::ClientError;
use crate::observe::{
    GrpcMessage, Payload, Wire, header_pairs, observe_answer, observe_stream_head,
};
use crate::stream::EventStream;

const GRPC: Binding = Binding::Grpc;

/// A tonic channel to one agent.
#[derive(Clone, Debug)]
pub(crate) struct GrpcTransport {
    client: A2aServiceClient<Channel>,
    /// The channel, shared with the v0.3 service's stub when the agent speaks v0.3.
    channel: Channel,
    target: String,
    limits: Limits,
}

impl GrpcTransport {
    /// A channel to `url`; an interface URL without a scheme (`127.0.0.1:50051`, as the SDK writes
    /// gRPC targets) is plain-text HTTP/2, `grpc://` likewise, and `https://` or `grpcs://` is
    /// HTTP/2 over TLS (feature `rustls`, trusting what `config` trusts).
    pub(crate) fn new(url: &str, config: &ClientConfig) -> Result<Self, ClientError> {
        let target = if let Some(rest) = url.strip_prefix("grpcs://") {
            format!("https://{rest}")
        } else if let Some(rest) = url.strip_prefix("grpc://") {
            format!("http://{rest}")
        } else if url.contains("://") {
            url.to_owned()
        } else {
            format!("http://{url}")
        };
        let invalid_target = |e: &dyn std::fmt::Display| {
            ClientError::transport(Some(GRPC), format!("gRPC target {target}: {e}"))
        };
        let endpoint = Endpoint::from_shared(target.clone())
            .map_err(|e| invalid_target(&e))?
            .connect_timeout(config.connect_timeout);
        #[cfg(feature = "rustls")]
        let endpoint = if target.starts_with("https://") {
            let tls = config.trust()?.tonic_config();
            endpoint.tls_config(tls).map_err(|e| invalid_target(&e))?
        } else {
            endpoint
        };
        let channel = endpoint.connect_lazy();
        let client = A2aServiceClient::new(channel.clone())
            .max_decoding_message_size(config.limits.max_bytes());
        Ok(GrpcTransport {
            client,
            channel,
            target,
            limits: config.limits,
        })
    }

    /// A request with the call's metadata (service parameters, credentials, trace context); header
    /// names become lower-case metadata keys, and values gRPC metadata cannot carry are refused.
    /// When the call is observed, the observer is told of the request as it will be sent.
    pub(crate) fn request<T: GrpcMessage>(
        &self,
        message: T,
        meta: &CallMeta,
    ) -> Result<tonic::Request<T>, ClientError> {
        let mut request = tonic::Request::new(message);
        let metadata = request.metadata_mut();
        for (name, value) in meta.headers.iter().chain(&meta.query) {
            let key = MetadataKey::from_bytes(name.to_ascii_lowercase().as_bytes());
            let value: Result<MetadataValue<tonic::metadata::Ascii>, _> = value.parse();
            match (key, value) {
                (Ok(key), Ok(value)) => {
                    metadata.append(key, value);
                }
                _ => {
                    return Err(ClientError::InvalidRequest {
                        message: format!("{name} cannot be sent as gRPC metadata"),
                    });
                }
            }
        }
        if let Some(observing) = &meta.observing {
            observing.tell(Wire::Request {
                method: "gRPC".to_owned(),
                url: self.target.clone(),
                headers: header_pairs(&request.metadata().clone().into_headers()),
                body: Payload::protobuf(request.get_ref()),
            });
        }
        Ok(request)
    }

    /// Runs one call under the decode budget, a failure to connect being
    /// [`ClientError::Unreachable`].
    pub(crate) async fn budgeted<F: std::future::Future<Output = Result<R, ClientError>>, R>(
        &self,
        call: F,
    ) -> Result<R, ClientError> {
        let result = a2a_proto::grpc::with_limits(self.limits, call).await;
        match result {
            Err(ClientError::Transport { message, .. }) if message.starts_with(TLS_REFUSED) => {
                Err(ClientError::Tls {
                    binding: Some(GRPC),
                    url: self.target.clone(),
                    message: message[TLS_REFUSED.len()..].to_owned(),
                })
            }
            Err(ClientError::Transport { message, .. }) if message.starts_with(UNREACHABLE) => {
                Err(ClientError::Unreachable {
                    binding: Some(GRPC),
                    url: self.target.clone(),
                    message: message[UNREACHABLE.len()..].to_owned(),
                })
            }
            other => other,
        }
    }

    /// The lazily connected channel.
    pub(crate) fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// The decode budget of every answer.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        self.budgeted(self.unary(params, meta)).await
    }

    async fn unary(&self, params: MethodParams, t: &CallMeta) -> Result<MethodResult, ClientError> {
        let mut client = self.client.clone();
        Ok(match params {
            MethodParams::SendMessage(request) => {
                let response = client
                    .send_message(self.request(pb::SendMessageRequest::from(request), t)?)
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::SendMessage(convert(response)?)
            }
            MethodParams::GetTask(request) => {
                let response = client
                    .get_task(self.request(pb::GetTaskRequest::from(request), t)?)
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::GetTask(convert(response)?)
            }
            MethodParams::ListTasks(request) => {
                let response = client
                    .list_tasks(self.request(pb::ListTasksRequest::from(request), t)?)
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::ListTasks(convert(response)?)
            }
            MethodParams::CancelTask(request) => {
                let response = client
                    .cancel_task(self.request(pb::CancelTaskRequest::from(request), t)?)
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::CancelTask(convert(response)?)
            }
            MethodParams::CreateTaskPushNotificationConfig(config) => {
                let response = client
                    .create_task_push_notification_config(
                        self.request(pb::TaskPushNotificationConfig::from(config), t)?,
                    )
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::CreateTaskPushNotificationConfig(convert(response)?)
            }
            MethodParams::GetTaskPushNotificationConfig(request) => {
                let response = client
                    .get_task_push_notification_config(
                        self.request(pb::GetTaskPushNotificationConfigRequest::from(request), t)?,
                    )
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::GetTaskPushNotificationConfig(convert(response)?)
            }
            MethodParams::ListTaskPushNotificationConfigs(request) => {
                let response = client
                    .list_task_push_notification_configs(
                        self.request(pb::ListTaskPushNotificationConfigsRequest::from(request), t)?,
                    )
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::ListTaskPushNotificationConfigs(convert(response)?)
            }
            MethodParams::DeleteTaskPushNotificationConfig(request) => {
                let response = client
                    .delete_task_push_notification_config(self.request(
                        pb::DeleteTaskPushNotificationConfigRequest::from(request),
                        t,
                    )?)
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                response.map_err(|status| status_error(&status))?;
                MethodResult::DeleteTaskPushNotificationConfig(Empty)
            }
            MethodParams::GetExtendedAgentCard(request) => {
                let response = client
                    .get_extended_agent_card(
                        self.request(pb::GetExtendedAgentCardRequest::from(request), t)?,
                    )
                    .await;
                observe_answer(t.observing.as_ref(), &response);
                MethodResult::GetExtendedAgentCard(convert(response)?)
            }
            other => {
                return Err(ClientError::InvalidRequest {
                    message: format!("{} is not a unary call", other.operation()),
                });
            }
        })
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        self.budgeted(self.open_stream(params, meta)).await
    }

    async fn open_stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        let mut client = self.client.clone();
        let response = match params {
            MethodParams::SendStreamingMessage(request) => {
                client
                    .send_streaming_message(
                        self.request(pb::SendMessageRequest::from(request), meta)?,
                    )
                    .await
            }
            MethodParams::SubscribeToTask(request) => {
                client
                    .subscribe_to_task(
                        self.request(pb::SubscribeToTaskRequest::from(request), meta)?,
                    )
                    .await
            }
            other => {
                return Err(ClientError::InvalidRequest {
                    message: format!("{} is not a streaming call", other.operation()),
                });
            }
        };
        observe_stream_head(meta.observing.as_ref(), &response);
        let stream = response.map_err(|status| status_error(&status))?;
        Ok(EventStream::grpc(
            stream.into_inner(),
            self.limits,
            stream_event,
            status_error,
            meta.observing.clone(),
        ))
    }
}

/// One message of a stream as the event.
fn stream_event(event: pb::StreamResponse) -> Result<StreamResponse, ClientError> {
    StreamResponse::try_from(event)
        .map_err(|e| ClientError::invalid(Some(GRPC), format!("an event: {e}")))
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

/// How [`status_error`] marks a status tonic made for a connection that could not be made, so the
/// call that knows the target can name it.
const UNREACHABLE: &str = "unreachable: ";
/// How [`status_error`] marks a connection whose TLS handshake failed (feature `rustls`).
const TLS_REFUSED: &str = "tls refused: ";

/// A gRPC status to the A2A error in its details, or a transport error when it has none. A status
/// tonic made itself from a connection failure (it has a source error; an agent's status never does)
/// is marked as unreachable.
pub(crate) fn status_error(status: &tonic::Status) -> ClientError {
    let forbidden = match status.code() {
        tonic::Code::Unauthenticated => Some(false),
        tonic::Code::PermissionDenied => Some(true),
        _ => None,
    };
    if let Some(forbidden) = forbidden {
        return ClientError::Refused {
            binding: Some(GRPC),
            forbidden,
            message: format!("{:?}: {}", status.code(), status.message()),
            challenge: None,
        };
    }
    match Error::from_tonic_status(status) {
        Ok(error) => ClientError::A2a {
            binding: GRPC,
            error,
        },
        Err(_) if status.code() == tonic::Code::Unavailable && connect_failure(status) => {
            #[cfg(feature = "rustls")]
            if let Some(reason) = crate::tls::tls_failure(status) {
                return ClientError::transport(Some(GRPC), format!("{TLS_REFUSED}{reason}"));
            }
            ClientError::transport(
                Some(GRPC),
                format!("{UNREACHABLE}{}", describe_status(status)),
            )
        }
        // The decode budget (a2a-proto's codec) and tonic's size limit refuse an answer with
        // OUT_OF_RANGE: the answer is unreadable, and asking again would not change it.
        Err(_) if status.code() == tonic::Code::OutOfRange => {
            ClientError::invalid(Some(GRPC), describe_status(status))
        }
        Err(_) => ClientError::transport(Some(GRPC), describe_status(status)),
    }
}

/// Whether tonic made this status from a failure to connect: its source chain has a transport error
/// of the connector.
fn connect_failure(status: &tonic::Status) -> bool {
    let mut source = std::error::Error::source(status);
    while let Some(cause) = source {
        if cause.is::<tonic::transport::Error>() {
            return true;
        }
        source = cause.source();
    }
    false
}

fn describe_status(status: &tonic::Status) -> String {
    let mut text = format!("gRPC status {:?}: {}", status.code(), status.message());
    let mut source = std::error::Error::source(status);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
