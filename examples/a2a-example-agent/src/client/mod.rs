//! The example client: resolves an agent's card, picks a binding from its `supportedInterfaces` (in an
//! order of preference the caller sets), and calls every A2A v1 operation over it, streaming included.
//!
//! Calling code does not depend on the binding: [`A2aClient`] has one method per operation, taking
//! and returning the serde types of `a2a_types::v1`, and every failure is a [`ClientError`] whose A2A
//! error has the same [`ErrorKind`](a2a_types::errors::ErrorKind) kind whichever binding carried it.
//! The transports are built from the workspace's crates, not re-implemented:
//!
//! | binding | request | answer | stream |
//! |---|---|---|---|
//! | JSON-RPC | [`JsonRpcRequest`](a2a_types::jsonrpc::JsonRpcRequest) over `POST` (reqwest) | [`JsonRpcResponse::parse`](a2a_types::jsonrpc::JsonRpcResponse::parse), errors by [`Error::from_jsonrpc`](a2a_types::errors::Error::from_jsonrpc) | SSE, [`JsonDecoder`](a2a_types::sse::JsonDecoder) of JSON-RPC responses |
//! | HTTP+JSON | [`rest::build_request`](a2a_types::rest::build_request) | [`MethodResult::from_json`](a2a_types::jsonrpc::MethodResult::from_json), errors by [`Error::from_rest`](a2a_types::errors::Error::from_rest) | SSE, [`HttpJsonDecoder`](a2a_types::sse::HttpJsonDecoder) |
//! | gRPC | a2a-proto's tonic client stubs, messages converted by the `proto` feature | the same conversions back | tonic server streams |
//!
//! Every request carries the `A2A-Version: 1.0` service parameter (an HTTP header, gRPC metadata),
//! and `Authorization: Bearer …` when [`ClientConfig::bearer_token`] is set (the extended card needs
//! it).
//!
//! ```no_run
//! # async fn run() -> Result<(), a2a_example_agent::client::ClientError> {
//! use a2a_example_agent::client::{A2aClient, ClientConfig};
//! use a2a_types::v1::{Message, Part, SendMessageRequest, SendMessageResponse};
//!
//! let client = A2aClient::connect("http://127.0.0.1:8080", ClientConfig::default()).await?;
//! let request = SendMessageRequest {
//!     message: Message::user("m-1", [Part::text("Book a table for two")]),
//!     ..Default::default()
//! };
//! if let SendMessageResponse::Task(task) = client.send_message(request).await? {
//!     println!("task {} is {:?} (over {})", task.id, task.status.state, client.binding());
//! }
//! # Ok(())
//! # }
//! ```

mod error;
mod grpc;
mod http;
mod stream;

pub mod conformance;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use a2a_types::jsonrpc::{Empty, MethodParams, MethodResult};
use a2a_types::service::{self, ProtocolVersion};
use a2a_types::v1::builders::binding;
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};

pub use error::ClientError;
pub use stream::EventStream;

/// The `A2A-Version` this client speaks.
pub const PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion::V1_0;

/// One of the three A2A v1 protocol bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec section 9).
    JsonRpc,
    /// HTTP+JSON, the REST binding (spec section 11).
    HttpJson,
    /// gRPC (spec section 10).
    Grpc,
}

impl Binding {
    /// Every binding, in the default order of preference.
    pub const ALL: [Binding; 3] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc];

    /// The `protocolBinding` an agent card names it with.
    pub const fn protocol_binding(self) -> &'static str {
        match self {
            Binding::JsonRpc => binding::JSONRPC,
            Binding::HttpJson => binding::HTTP_JSON,
            Binding::Grpc => binding::GRPC,
        }
    }

    /// The binding a card's `protocolBinding` names (case-insensitive), if it is one of the three.
    pub fn from_protocol_binding(name: &str) -> Option<Binding> {
        Binding::ALL
            .into_iter()
            .find(|b| b.protocol_binding().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.protocol_binding())
    }
}

impl FromStr for Binding {
    type Err = String;

    /// `jsonrpc`, `http+json` (or `rest`), `grpc`, in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "jsonrpc" | "json-rpc" => Ok(Binding::JsonRpc),
            "http+json" | "http-json" | "rest" => Ok(Binding::HttpJson),
            "grpc" => Ok(Binding::Grpc),
            _ => Err(format!(
                "{text:?} is not a binding (jsonrpc, http+json, grpc)"
            )),
        }
    }
}

/// How the client connects.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The bindings to use, most wanted first; the first one the card offers (for A2A 1.x) is chosen.
    pub preference: Vec<Binding>,
    /// Sent as `Authorization: Bearer …` with every request.
    pub bearer_token: Option<String>,
    /// The longest a unary call (and the card fetch) may take; streams are not bounded by it.
    pub timeout: Duration,
    /// How long establishing a connection may take.
    pub connect_timeout: Duration,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            preference: Binding::ALL.to_vec(),
            bearer_token: None,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
        }
    }
}

impl ClientConfig {
    /// This configuration with only `binding` acceptable.
    pub fn only(mut self, binding: Binding) -> Self {
        self.preference = vec![binding];
        self
    }

    /// This configuration with a bearer token.
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }
}

/// Fetches the agent card from `base_url`'s well-known path (`/.well-known/agent-card.json`).
pub async fn resolve_card(
    http: &reqwest::Client,
    base_url: &str,
    timeout: Duration,
) -> Result<AgentCard, ClientError> {
    let url = service::well_known_agent_card_url(base_url);
    let response = http
        .get(&url)
        .header(service::A2A_VERSION_HEADER, PROTOCOL_VERSION.to_string())
        .timeout(timeout)
        .send()
        .await
        .map_err(|e| ClientError::transport(None, format!("GET {url}: {e}")))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| ClientError::transport(None, format!("GET {url}: {e}")))?;
    if !status.is_success() {
        return Err(ClientError::transport(
            None,
            format!("GET {url}: HTTP {status}"),
        ));
    }
    a2a_types::json::from_slice(&body)
        .map_err(|e| ClientError::invalid(None, format!("the agent card at {url}: {e}")))
}

/// The interface of `card` to use: the first binding of `preference` that the card offers for A2A
/// 1.x (an interface without a `protocolVersion` counts as 1.x), in the card's order among equals.
pub fn choose_interface(
    card: &AgentCard,
    preference: &[Binding],
) -> Result<(Binding, AgentInterface), ClientError> {
    let speaks_v1 = |interface: &AgentInterface| {
        interface.protocol_version.is_empty()
            || interface
                .protocol_version
                .parse::<ProtocolVersion>()
                .is_ok_and(|v| v.is_compatible_with(PROTOCOL_VERSION))
    };
    preference
        .iter()
        .find_map(|wanted| {
            card.supported_interfaces
                .iter()
                .find(|i| {
                    Binding::from_protocol_binding(&i.protocol_binding) == Some(*wanted)
                        && speaks_v1(i)
                })
                .map(|i| (*wanted, i.clone()))
        })
        .ok_or_else(|| ClientError::NoSupportedInterface {
            offered: card
                .supported_interfaces
                .iter()
                .map(|i| format!("{} {}", i.protocol_binding, i.protocol_version))
                .collect(),
        })
}

/// The transport of the chosen binding.
#[derive(Clone, Debug)]
enum Transport {
    JsonRpc(http::JsonRpcTransport),
    HttpJson(http::RestTransport),
    Grpc(grpc::GrpcTransport),
}

/// A client of one agent over one binding. Cheap to clone: clones share their connections.
#[derive(Clone, Debug)]
pub struct A2aClient {
    card: AgentCard,
    binding: Binding,
    interface: AgentInterface,
    config: ClientConfig,
    http: reqwest::Client,
    transport: Transport,
}

impl A2aClient {
    /// Resolves the card at `base_url`'s well-known path and connects to the interface `config`
    /// prefers.
    pub async fn connect(base_url: &str, config: ClientConfig) -> Result<Self, ClientError> {
        let http = http_client(&config)?;
        let card = resolve_card(&http, base_url, config.timeout).await?;
        Self::from_card_with(card, config, http)
    }

    /// A client of the agent `card` describes, over the interface `config` prefers. gRPC connects
    /// lazily, on the first call, so this needs a tokio runtime but no I/O.
    pub fn from_card(card: AgentCard, config: ClientConfig) -> Result<Self, ClientError> {
        let http = http_client(&config)?;
        Self::from_card_with(card, config, http)
    }

    fn from_card_with(
        card: AgentCard,
        config: ClientConfig,
        http: reqwest::Client,
    ) -> Result<Self, ClientError> {
        let (binding, interface) = choose_interface(&card, &config.preference)?;
        let transport = match binding {
            Binding::JsonRpc => Transport::JsonRpc(http::JsonRpcTransport::new(
                http.clone(),
                &interface.url,
                &config,
            )),
            Binding::HttpJson => Transport::HttpJson(http::RestTransport::new(
                http.clone(),
                &interface.url,
                &config,
            )),
            Binding::Grpc => Transport::Grpc(grpc::GrpcTransport::new(&interface.url, &config)?),
        };
        Ok(A2aClient {
            card,
            binding,
            interface,
            config,
            http,
            transport,
        })
    }

    /// This client with another bearer token (or none), on the same binding.
    pub fn with_bearer_token(&self, token: Option<String>) -> Result<Self, ClientError> {
        let mut config = self.config.clone();
        config.bearer_token = token;
        config.preference = vec![self.binding];
        Self::from_card_with(self.card.clone(), config, self.http.clone())
    }

    /// The agent card the client was made from.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// The binding in use.
    pub fn binding(&self) -> Binding {
        self.binding
    }

    /// The interface in use (its URL, binding, tenant and version).
    pub fn interface(&self) -> &AgentInterface {
        &self.interface
    }

    /// The interface's tenant, set on requests that do not name one.
    fn tenant(&self) -> Option<String> {
        self.interface.tenant.clone().filter(|t| !t.is_empty())
    }

    /// Calls a unary operation.
    pub async fn call(&self, params: MethodParams) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        if operation.info().server_streaming {
            return Err(ClientError::InvalidRequest {
                message: format!("{operation} streams: use `stream`"),
            });
        }
        let result = match &self.transport {
            Transport::JsonRpc(t) => t.call(params, self.config.timeout).await?,
            Transport::HttpJson(t) => {
                t.call(params, self.tenant().as_deref(), self.config.timeout)
                    .await?
            }
            Transport::Grpc(t) => t.call(params, self.config.timeout).await?,
        };
        if result.operation() != operation {
            return Err(ClientError::invalid(
                Some(self.binding),
                format!("asked {operation}, got a result of {}", result.operation()),
            ));
        }
        Ok(result)
    }

    /// Calls a streaming operation (`SendStreamingMessage`, `SubscribeToTask`).
    pub async fn stream(&self, params: MethodParams) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        if !operation.info().server_streaming {
            return Err(ClientError::InvalidRequest {
                message: format!("{operation} does not stream: use `call`"),
            });
        }
        match &self.transport {
            Transport::JsonRpc(t) => t.stream(params).await,
            Transport::HttpJson(t) => t.stream(params, self.tenant().as_deref()).await,
            Transport::Grpc(t) => t.stream(params).await,
        }
    }

    /// `SendMessage`: a task or a direct message.
    pub async fn send_message(
        &self,
        request: SendMessageRequest,
    ) -> Result<SendMessageResponse, ClientError> {
        match self.call(MethodParams::SendMessage(request)).await? {
            MethodResult::SendMessage(response) => Ok(response),
            other => Err(self.mismatch(other)),
        }
    }

    /// `SendStreamingMessage`: the task's (or the message's) events as they happen.
    pub async fn send_streaming_message(
        &self,
        request: SendMessageRequest,
    ) -> Result<EventStream, ClientError> {
        self.stream(MethodParams::SendStreamingMessage(request))
            .await
    }

    /// `GetTask`.
    pub async fn get_task(&self, request: GetTaskRequest) -> Result<Task, ClientError> {
        match self.call(MethodParams::GetTask(request)).await? {
            MethodResult::GetTask(task) => Ok(task),
            other => Err(self.mismatch(other)),
        }
    }

    /// `ListTasks`.
    pub async fn list_tasks(
        &self,
        request: ListTasksRequest,
    ) -> Result<ListTasksResponse, ClientError> {
        match self.call(MethodParams::ListTasks(request)).await? {
            MethodResult::ListTasks(response) => Ok(response),
            other => Err(self.mismatch(other)),
        }
    }

    /// `CancelTask`.
    pub async fn cancel_task(&self, request: CancelTaskRequest) -> Result<Task, ClientError> {
        match self.call(MethodParams::CancelTask(request)).await? {
            MethodResult::CancelTask(task) => Ok(task),
            other => Err(self.mismatch(other)),
        }
    }

    /// `SubscribeToTask`: the events of a task still running.
    pub async fn subscribe_to_task(
        &self,
        request: SubscribeToTaskRequest,
    ) -> Result<EventStream, ClientError> {
        self.stream(MethodParams::SubscribeToTask(request)).await
    }

    /// `CreateTaskPushNotificationConfig`.
    pub async fn create_task_push_notification_config(
        &self,
        config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, ClientError> {
        match self
            .call(MethodParams::CreateTaskPushNotificationConfig(config))
            .await?
        {
            MethodResult::CreateTaskPushNotificationConfig(config) => Ok(config),
            other => Err(self.mismatch(other)),
        }
    }

    /// `GetTaskPushNotificationConfig`.
    pub async fn get_task_push_notification_config(
        &self,
        request: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, ClientError> {
        match self
            .call(MethodParams::GetTaskPushNotificationConfig(request))
            .await?
        {
            MethodResult::GetTaskPushNotificationConfig(config) => Ok(config),
            other => Err(self.mismatch(other)),
        }
    }

    /// `ListTaskPushNotificationConfigs`.
    pub async fn list_task_push_notification_configs(
        &self,
        request: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, ClientError> {
        match self
            .call(MethodParams::ListTaskPushNotificationConfigs(request))
            .await?
        {
            MethodResult::ListTaskPushNotificationConfigs(response) => Ok(response),
            other => Err(self.mismatch(other)),
        }
    }

    /// `DeleteTaskPushNotificationConfig`.
    pub async fn delete_task_push_notification_config(
        &self,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), ClientError> {
        match self
            .call(MethodParams::DeleteTaskPushNotificationConfig(request))
            .await?
        {
            MethodResult::DeleteTaskPushNotificationConfig(Empty) => Ok(()),
            other => Err(self.mismatch(other)),
        }
    }

    /// `GetExtendedAgentCard`: the card an authenticated client sees (set
    /// [`ClientConfig::bearer_token`]).
    pub async fn get_extended_agent_card(
        &self,
        request: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, ClientError> {
        match self
            .call(MethodParams::GetExtendedAgentCard(request))
            .await?
        {
            MethodResult::GetExtendedAgentCard(card) => Ok(card),
            other => Err(self.mismatch(other)),
        }
    }

    fn mismatch(&self, result: MethodResult) -> ClientError {
        ClientError::invalid(
            Some(self.binding),
            format!("unexpected result of {}", result.operation()),
        )
    }
}

fn http_client(config: &ClientConfig) -> Result<reqwest::Client, ClientError> {
    reqwest::Client::builder()
        .connect_timeout(config.connect_timeout)
        .build()
        .map_err(|e| ClientError::transport(None, format!("building the HTTP client: {e}")))
}

#[cfg(test)]
mod tests;
