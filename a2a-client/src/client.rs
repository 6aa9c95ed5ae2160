//! [`A2aClient`]: one agent, every operation, whichever interface of its card is chosen.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_protocol::service::{self, ProtocolVersion};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use tracing::Instrument;

use crate::auth::{AuthParts, Authenticator};
use crate::card::{Candidate, CardResolver, candidates, no_supported_interface};
use crate::observe::Observing;
use crate::paging::{self, TaskPages};
use crate::resume::{self, Resume};
use crate::trace::{TRACEPARENT, TraceParent};
use crate::transport::Endpoint;
use crate::transport::contract::CallMeta;
use crate::{Binding, ClientConfig, ClientError, EventStream, RetryPolicy};

#[derive(Debug)]
struct Inner {
    card: AgentCard,
    config: ClientConfig,
    http: reqwest::Client,
    endpoints: Vec<Endpoint>,
    /// The endpoint calls go to first; it moves on when one is unreachable.
    active: AtomicUsize,
    auth: Authenticator,
}

/// A client of one agent. Cheap to clone: clones share their connections and their choice of
/// interface.
///
/// Every usable interface of the card is kept, best first (see [`crate::card::candidates`]); a call
/// goes to the current one and, when that cannot be reached, to the next, which then stays current.
#[derive(Clone, Debug)]
pub struct A2aClient {
    inner: Arc<Inner>,
    trace: Option<TraceParent>,
}

impl A2aClient {
    /// Resolves the card at `base_url`'s well-known path and connects to the interface `config`
    /// prefers.
    pub async fn connect(base_url: &str, config: ClientConfig) -> Result<Self, ClientError> {
        let resolver = CardResolver::from_config(&config)?;
        Self::connect_with(&resolver, base_url, config).await
    }

    /// As [`connect`](Self::connect), with the card from `resolver` (and its cache).
    pub async fn connect_with(
        resolver: &CardResolver,
        base_url: &str,
        config: ClientConfig,
    ) -> Result<Self, ClientError> {
        let resolved = resolver.resolve(base_url).await?;
        // The resolver checked the card when it holds this very trust root; else check it here.
        #[cfg(feature = "signing")]
        if let Some(verifier) = &config.card_verifier
            && !resolver
                .verifier()
                .is_some_and(|checked| Arc::ptr_eq(checked, verifier))
        {
            let url = a2a_protocol::service::well_known_agent_card_url(base_url);
            resolved.check(verifier, &url)?;
        }
        let http = config.reqwest_client()?;
        Self::from_card_with(resolved.card, config, http)
    }

    /// A client of the agent `card` describes, over the interfaces `config` prefers. Connections are
    /// made on the first call, so this needs a tokio runtime but no I/O. With a trust root
    /// ([`ClientConfig::card_verifier`], feature `signing`), `card` must verify with it.
    pub fn from_card(card: AgentCard, config: ClientConfig) -> Result<Self, ClientError> {
        #[cfg(feature = "signing")]
        crate::trust::check(
            config.card_verifier.as_deref(),
            &card,
            "given to A2aClient::from_card",
        )?;
        let http = config.reqwest_client()?;
        Self::from_card_with(card, config, http)
    }

    fn from_card_with(
        card: AgentCard,
        config: ClientConfig,
        http: reqwest::Client,
    ) -> Result<Self, ClientError> {
        let auth = Authenticator::new(&card, &config.credentials)?;
        let mut endpoints = Vec::new();
        let extended_card = card.capabilities.extended_agent_card == Some(true);
        for candidate in candidates(&card, &config.preference, &config.versions) {
            endpoints.push(Endpoint::new(candidate, &config, &http, extended_card)?);
        }
        if endpoints.is_empty() {
            return Err(no_supported_interface(&card));
        }
        Ok(A2aClient {
            inner: Arc::new(Inner {
                card,
                config,
                http,
                endpoints,
                active: AtomicUsize::new(0),
                auth,
            }),
            trace: None,
        })
    }

    /// This client with another bearer token (or none), on the same interface.
    pub fn with_bearer_token(&self, token: Option<String>) -> Result<Self, ClientError> {
        let mut config = self.inner.config.clone();
        config.bearer_token = token;
        config.preference = vec![self.binding()];
        config.versions = vec![self.protocol_version()];
        let card = AgentCard {
            supported_interfaces: vec![self.interface().clone()],
            ..self.inner.card.clone()
        };
        let client = Self::from_card_with(card, config, self.inner.http.clone())?;
        // The card stays the whole card, for callers that read it.
        Ok(A2aClient {
            inner: Arc::new(Inner {
                card: self.inner.card.clone(),
                config: client.inner.config.clone(),
                http: client.inner.http.clone(),
                endpoints: client.inner.endpoints.clone(),
                active: AtomicUsize::new(0),
                auth: client.inner.auth.clone(),
            }),
            trace: self.trace,
        })
    }

    /// This client continuing the caller's trace: every request carries `traceparent` with this
    /// trace id and a new parent id. Fails when `traceparent` is not a valid W3C value.
    pub fn with_trace_parent(&self, traceparent: &str) -> Result<Self, ClientError> {
        let parent =
            TraceParent::parse(traceparent).ok_or_else(|| ClientError::InvalidRequest {
                message: format!("{traceparent:?} is not a W3C traceparent"),
            })?;
        Ok(A2aClient {
            inner: self.inner.clone(),
            trace: Some(parent),
        })
    }

    /// The agent card the client was made from.
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    fn active(&self) -> &Endpoint {
        let index = self.inner.active.load(Ordering::Relaxed);
        &self.inner.endpoints[index % self.inner.endpoints.len()]
    }

    /// The binding in use.
    pub fn binding(&self) -> Binding {
        self.active().candidate.binding
    }

    /// The protocol version spoken: 1.0, or 0.3 or 0.1 through the bridge.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.active().candidate.version
    }

    /// The interface in use (its URL, binding, tenant and version).
    pub fn interface(&self) -> &AgentInterface {
        &self.active().candidate.interface
    }

    /// Every interface the client may use, best first.
    pub fn interfaces(&self) -> impl Iterator<Item = &Candidate> {
        self.inner.endpoints.iter().map(|e| &e.candidate)
    }

    /// The metadata of one request to `endpoint`, and the credentials it carries.
    async fn meta(
        &self,
        span: &tracing::Span,
        endpoint: &Endpoint,
        last_event_id: &str,
    ) -> Result<(CallMeta, AuthParts), ClientError> {
        let config = &self.inner.config;
        let version = endpoint.candidate.version;
        let mut meta = CallMeta::default();
        // v0.1 had no `A2A-Version`; a server of later versions that reads one would answer
        // `0.1` with an unsupported-version error instead of routing `tasks/send` as v0.1's.
        if version != ProtocolVersion::V0_1 {
            meta.headers
                .push((service::A2A_VERSION_HEADER.to_owned(), version.to_string()));
        }
        if !config.extensions.is_empty() {
            let extensions = config.extensions.join(",");
            if version == ProtocolVersion::V0_3 {
                meta.headers.push((
                    a2a_compat::bridge::LEGACY_A2A_EXTENSIONS_HEADER.to_owned(),
                    extensions.clone(),
                ));
            }
            meta.headers
                .push((service::A2A_EXTENSIONS_HEADER.to_owned(), extensions));
        }
        if let Some(token) = &config.bearer_token {
            meta.headers
                .push(("Authorization".to_owned(), format!("Bearer {token}")));
        }
        meta.headers.extend(config.headers.iter().cloned());
        let auth = self.inner.auth.parts().await?;
        meta.headers.extend(auth.headers.iter().cloned());
        meta.query.extend(auth.query.iter().cloned());
        if config.trace_context {
            // A trace given with `with_trace_parent` is continued; else the call's OpenTelemetry
            // span (feature `opentelemetry`) is the parent, else a new trace starts.
            let traceparent = match &self.trace {
                Some(parent) => parent.child(),
                #[cfg(feature = "opentelemetry")]
                None => crate::otel::traceparent_of(span).unwrap_or_else(TraceParent::new_root),
                #[cfg(not(feature = "opentelemetry"))]
                None => TraceParent::new_root(),
            };
            span.record("trace_id", traceparent.trace_id());
            meta.headers
                .push((TRACEPARENT.to_owned(), traceparent.to_string()));
        }
        if !last_event_id.is_empty() {
            meta.headers
                .push(("Last-Event-ID".to_owned(), last_event_id.to_owned()));
        }
        Ok((meta, auth))
    }

    /// Whether to send a refused request once more: the agent said the credentials are not valid
    /// and some came from token sources, which were told so (a stale token: they fetch a new one).
    /// (`refused`: the answer was a 401 or `UNAUTHENTICATED`; only the first answer is retried.)
    async fn retry_refused(refused: bool, auth: &AuthParts, first: bool) -> bool {
        first && refused && auth.invalidate().await
    }

    /// A new observed exchange of `operation` on `endpoint`, when an observer is configured.
    fn observing(&self, endpoint: &Endpoint, operation: Operation) -> Option<Observing> {
        let observer = self.inner.config.observer.clone()?;
        Some(Observing::start(
            observer,
            endpoint.candidate.binding,
            operation,
        ))
    }

    /// The endpoints in the order to try them: the current one, then the others after it.
    fn endpoint_order(&self) -> impl Iterator<Item = (usize, &Endpoint)> {
        let count = self.inner.endpoints.len();
        let start = self.inner.active.load(Ordering::Relaxed) % count;
        (0..count).map(move |step| {
            let index = (start + step) % count;
            (index, &self.inner.endpoints[index])
        })
    }

    /// Records `endpoint` on the call's span before a request goes to it.
    fn record(span: &tracing::Span, endpoint: &Endpoint) {
        span.record("binding", endpoint.candidate.binding.protocol_binding());
        span.record("url", endpoint.candidate.interface.url.as_str());
    }

    /// Keeps to `index` after it answered; returns whether to go on to the next endpoint (this one
    /// was unreachable: nothing was sent), keeping the error in `last`.
    fn settle<T>(
        &self,
        index: usize,
        result: Result<T, ClientError>,
        last: &mut Option<ClientError>,
    ) -> Option<Result<T, ClientError>> {
        match result {
            Err(error @ ClientError::Unreachable { .. }) => {
                tracing::warn!(%error, "interface unreachable, trying the next");
                *last = Some(error);
                None
            }
            result => {
                self.inner.active.store(index, Ordering::Relaxed);
                Some(result)
            }
        }
    }

    /// One attempt of a unary call on `endpoint`, bounded by the timeout.
    async fn call_on(
        &self,
        span: &tracing::Span,
        endpoint: &Endpoint,
        params: &MethodParams,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let timeout = self.inner.config.timeout;
        let binding = Some(endpoint.candidate.binding);
        let mut first = true;
        loop {
            let (mut meta, auth) = self.meta(span, endpoint, "").await?;
            meta.observing = self.observing(endpoint, operation);
            let result = tokio::time::timeout(timeout, endpoint.call(params.clone(), &meta))
                .await
                .map_err(|_| ClientError::timeout(binding, operation, timeout))?;
            let refused = matches!(&result, Err(e) if e.is_unauthenticated());
            if !Self::retry_refused(refused, &auth, first).await {
                return result;
            }
            first = false;
        }
    }

    /// Opening a stream on `endpoint`, bounded by the timeout.
    async fn open_on(
        &self,
        span: &tracing::Span,
        endpoint: &Endpoint,
        params: &MethodParams,
        last_event_id: &str,
    ) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        let config = &self.inner.config;
        let binding = Some(endpoint.candidate.binding);
        let mut first = true;
        loop {
            let (mut meta, auth) = self.meta(span, endpoint, last_event_id).await?;
            meta.observing = self.observing(endpoint, operation);
            let result =
                tokio::time::timeout(config.timeout, endpoint.stream(params.clone(), &meta))
                    .await
                    .map_err(|_| {
                        ClientError::timeout(
                            binding,
                            format!("{operation} to start"),
                            config.timeout,
                        )
                    })?;
            let refused = matches!(&result, Err(e) if e.is_unauthenticated());
            if !Self::retry_refused(refused, &auth, first).await {
                return Ok(result?.with_timeouts(config.stream_idle_timeout, config.stream_timeout));
            }
            first = false;
        }
    }

    /// A unary call on the current endpoint, moving on while endpoints are unreachable.
    async fn call_once(
        &self,
        span: &tracing::Span,
        params: &MethodParams,
    ) -> Result<MethodResult, ClientError> {
        let mut last = None;
        for (index, endpoint) in self.endpoint_order() {
            Self::record(span, endpoint);
            let result = self.call_on(span, endpoint, params).await;
            if let Some(result) = self.settle(index, result, &mut last) {
                return result;
            }
        }
        Err(last.unwrap_or_else(|| no_supported_interface(&self.inner.card)))
    }

    /// Calls a unary operation: retried with backoff when it is idempotent and failed transiently,
    /// each attempt bounded by [`ClientConfig::timeout`].
    pub async fn call(&self, params: MethodParams) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        if operation.info().server_streaming {
            return Err(ClientError::InvalidRequest {
                message: format!("{operation} streams: use `stream`"),
            });
        }
        let span = tracing::info_span!(
            "a2a.call",
            otel.kind = "client",
            operation = %operation,
            binding = tracing::field::Empty,
            url = tracing::field::Empty,
            trace_id = tracing::field::Empty,
        );
        self.call_with_retries(&span, params)
            .instrument(span.clone())
            .await
    }

    async fn call_with_retries(
        &self,
        span: &tracing::Span,
        params: MethodParams,
    ) -> Result<MethodResult, ClientError> {
        let operation = params.operation();
        let retry = if is_idempotent(operation) {
            self.inner.config.retry
        } else {
            RetryPolicy::NONE
        };
        let mut attempt = 1;
        loop {
            match self.call_once(span, &params).await {
                Err(error) if error.is_transient() && attempt < retry.max_attempts => {
                    let wait = retry.backoff(attempt);
                    tracing::info!(%error, attempt, ?wait, "retrying");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Ok(result) if result.operation() != operation => {
                    return Err(ClientError::invalid(
                        Some(self.binding()),
                        format!("asked {operation}, got a result of {}", result.operation()),
                    ));
                }
                result => return result,
            }
        }
    }

    /// Calls a streaming operation (`SendStreamingMessage`, `SubscribeToTask`). The stream resumes
    /// after a dropped connection and ends after a terminal state (see [`crate::resume`]); opening it
    /// is bounded by [`ClientConfig::timeout`], its events by the stream timeouts.
    pub async fn stream(&self, params: MethodParams) -> Result<EventStream, ClientError> {
        let operation = params.operation();
        if !operation.info().server_streaming {
            return Err(ClientError::InvalidRequest {
                message: format!("{operation} does not stream: use `call`"),
            });
        }
        let task_id = match &params {
            MethodParams::SubscribeToTask(request) => Some(request.id.clone()),
            MethodParams::SendStreamingMessage(request) => request.message.task_id.clone(),
            _ => None,
        };
        let span = tracing::info_span!(
            "a2a.stream",
            otel.kind = "client",
            operation = %operation,
            binding = tracing::field::Empty,
            url = tracing::field::Empty,
            trace_id = tracing::field::Empty,
        );
        let mut stream = self
            .open(&span, params, "")
            .instrument(span.clone())
            .await?;
        if self.inner.config.stream_resume_attempts > 0 {
            stream.resume = Some(Box::new(Resume::new(self.clone(), task_id)));
        }
        Ok(stream)
    }

    async fn open(
        &self,
        span: &tracing::Span,
        params: MethodParams,
        last_event_id: &str,
    ) -> Result<EventStream, ClientError> {
        let mut last = None;
        for (index, endpoint) in self.endpoint_order() {
            Self::record(span, endpoint);
            let result = self.open_on(span, endpoint, &params, last_event_id).await;
            if let Some(result) = self.settle(index, result, &mut last) {
                return result;
            }
        }
        Err(last.unwrap_or_else(|| no_supported_interface(&self.inner.card)))
    }

    /// A new connection to a task's events, for a stream being resumed.
    pub(crate) async fn open_subscription(
        &self,
        task_id: &str,
        last_event_id: &str,
    ) -> Result<EventStream, ClientError> {
        let request = SubscribeToTaskRequest {
            id: task_id.to_owned(),
            ..Default::default()
        };
        let span = tracing::info_span!(
            "a2a.resubscribe",
            otel.kind = "client",
            task_id,
            binding = tracing::field::Empty,
            url = tracing::field::Empty,
            trace_id = tracing::field::Empty,
        );
        self.open(&span, MethodParams::SubscribeToTask(request), last_event_id)
            .instrument(span.clone())
            .await
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

    /// `ListTasks`: one page.
    pub async fn list_tasks(
        &self,
        request: ListTasksRequest,
    ) -> Result<ListTasksResponse, ClientError> {
        match self.call(MethodParams::ListTasks(request)).await? {
            MethodResult::ListTasks(response) => Ok(response),
            other => Err(self.mismatch(other)),
        }
    }

    /// `ListTasks`, page after page: `request` is the first page's request (its filters and page
    /// size apply to every page).
    pub fn list_task_pages(&self, request: ListTasksRequest) -> TaskPages {
        TaskPages::new(self.clone(), request)
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
    /// [`ClientConfig::bearer_token`] or [`ClientConfig::credentials`]).
    pub async fn get_extended_agent_card(
        &self,
        request: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, ClientError> {
        match self
            .call(MethodParams::GetExtendedAgentCard(request))
            .await?
        {
            MethodResult::GetExtendedAgentCard(card) => {
                #[cfg(feature = "signing")]
                crate::trust::check(
                    self.inner.config.card_verifier.as_deref(),
                    &card,
                    "of GetExtendedAgentCard",
                )?;
                Ok(card)
            }
            other => Err(self.mismatch(other)),
        }
    }

    fn mismatch(&self, result: MethodResult) -> ClientError {
        ClientError::invalid(
            Some(self.binding()),
            format!("unexpected result of {}", result.operation()),
        )
    }
}

/// The pages of [`A2aClient::list_task_pages`] list with the client.
impl paging::ListTasks for A2aClient {
    fn binding(&self) -> Binding {
        A2aClient::binding(self)
    }

    fn list_tasks(
        &self,
        request: ListTasksRequest,
    ) -> Pin<Box<dyn Future<Output = Result<ListTasksResponse, ClientError>> + Send + '_>> {
        Box::pin(A2aClient::list_tasks(self, request))
    }
}

/// A stream's resumption subscribes again with the client that opened it.
impl resume::Resubscribe for A2aClient {
    fn binding(&self) -> Binding {
        A2aClient::binding(self)
    }

    fn config(&self) -> &ClientConfig {
        A2aClient::config(self)
    }

    fn open_subscription<'a>(
        &'a self,
        task_id: &'a str,
        last_event_id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<EventStream, ClientError>> + Send + 'a>> {
        Box::pin(A2aClient::open_subscription(self, task_id, last_event_id))
    }

    fn get_task(
        &self,
        request: GetTaskRequest,
    ) -> Pin<Box<dyn Future<Output = Result<Task, ClientError>> + Send + '_>> {
        Box::pin(A2aClient::get_task(self, request))
    }
}

/// Whether repeating the operation cannot change what the agent holds, so it may be retried.
pub fn is_idempotent(operation: Operation) -> bool {
    matches!(
        operation,
        Operation::GetTask
            | Operation::ListTasks
            | Operation::GetTaskPushNotificationConfig
            | Operation::ListTaskPushNotificationConfigs
            | Operation::GetExtendedAgentCard
    )
}
