//! Every v1 operation with the specification's semantics, whatever the binding: one typed request
//! in ([`MethodParams`]), checked against the card's capabilities, the required extensions and the
//! spec's REQUIRED fields, answered for the caller's [`Owner`] only.
//!
//! | operation | semantics |
//! |---|---|
//! | SendMessage / SendStreamingMessage | a new task, or a message continuing one that waits for input; terminal tasks and tasks still working refuse messages (`UnsupportedOperation`), a `contextId` other than the task's is `InvalidParams`; `returnImmediately`, `historyLength` |
//! | GetTask | `historyLength` (the most recent messages) |
//! | ListTasks | filters, pages of `pageSize` (1 to the configured maximum), opaque `nextPageToken`, `""` on the last page; `historyLength`; artifacts only with `includeArtifacts` |
//! | CancelTask | the running executor is told to stop and the task is canceled; a task that is over is `TaskNotCancelable` |
//! | SubscribeToTask | the task first, then its events until it ends or waits for input; a task that is over is `UnsupportedOperation` (unless resuming after a `Last-Event-ID`) |
//! | push configs | the task must be the caller's; URLs checked by the [`WebhookPolicy`](crate::WebhookPolicy) |
//! | GetExtendedAgentCard | the extended card, to authenticated callers (the bindings answer 401 / `UNAUTHENTICATED` before) |

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_types::v1::{
    ListTaskPushNotificationConfigsResponse, ListTasksResponse, StreamResponse, Task,
    TaskPushNotificationConfig, TaskState,
};
use a2a_types::validate::{FieldViolation, Validate};
use axum::http::HeaderMap;
use tracing::Instrument;

use crate::auth::{Caller, Owner, Unauthenticated};
use crate::executor::ServiceParams;
use crate::server::A2aServer;
use crate::streams::EventStream;

/// What a binding knows about a request besides its params.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CallContext {
    /// Who calls ([`A2aServer::authenticate`]).
    pub caller: Caller,
    /// `A2A-Version`, `A2A-Extensions`.
    pub service_params: ServiceParams,
    /// The `Last-Event-ID` a client resuming a stream sent.
    pub last_event_id: Option<u64>,
    /// The binding (`JSONRPC`, `HTTP+JSON`, `GRPC`), for the call's span.
    pub binding: &'static str,
    /// The W3C `traceparent` the request carried, recorded on the call's span.
    pub traceparent: Option<String>,
}

impl CallContext {
    /// The context of a call by `caller` over `binding`.
    pub fn new(caller: Caller, binding: &'static str) -> Self {
        CallContext {
            caller,
            binding,
            ..CallContext::default()
        }
    }
}

/// A successful answer: one result, or a stream of events.
// Made once per request and moved straight into the response: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Reply {
    /// The result of a unary operation.
    Unary(MethodResult),
    /// The events of a streaming operation.
    Stream(EventStream),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Unary(result) => f.debug_tuple("Unary").field(result).finish(),
            Reply::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

/// An `InvalidParams` error naming the field.
pub fn invalid(field: &str, problem: impl Into<String>) -> Error {
    let problem = problem.into();
    let mut error = Error::with_message(ErrorKind::InvalidParams, format!("{field}: {problem}"));
    error.field_violations.push(FieldViolation {
        field: field.to_owned(),
        description: problem,
    });
    error
}

/// `TaskNotFound` for this id (also the answer for another owner's task).
pub fn not_found(id: &str) -> Error {
    Error::with_message(ErrorKind::TaskNotFound, format!("no task {id}"))
        .with_metadata("taskId", id)
}

/// The state's ProtoJSON name (`TASK_STATE_COMPLETED`), for messages.
pub(crate) fn state_name(state: TaskState) -> String {
    serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"))
}

/// The history length a request asks for: `None` is all of it; negative is an error.
pub(crate) fn check_history_length(
    length: Option<i32>,
    field: &str,
) -> Result<Option<usize>, Error> {
    match length {
        None => Ok(None),
        Some(n) if n < 0 => Err(invalid(field, format!("must not be negative, not {n}"))),
        Some(n) => Ok(Some(n as usize)),
    }
}

/// The task with only its `length` most recent history messages (all for `None`).
pub(crate) fn trim_history(mut task: Task, length: Option<usize>) -> Task {
    if let Some(length) = length {
        let drop = task.history.len().saturating_sub(length);
        task.history.drain(..drop);
    }
    task
}

/// The `tenant` a request names (the `{tenant}` of an HTTP+JSON path lands there too).
fn tenant_of(params: &MethodParams) -> Option<&str> {
    match params {
        MethodParams::SendMessage(r) | MethodParams::SendStreamingMessage(r) => r.tenant.as_deref(),
        MethodParams::GetTask(r) => r.tenant.as_deref(),
        MethodParams::ListTasks(r) => r.tenant.as_deref(),
        MethodParams::CancelTask(r) => r.tenant.as_deref(),
        MethodParams::SubscribeToTask(r) => r.tenant.as_deref(),
        MethodParams::CreateTaskPushNotificationConfig(r) => r.tenant.as_deref(),
        MethodParams::GetTaskPushNotificationConfig(r) => r.tenant.as_deref(),
        MethodParams::ListTaskPushNotificationConfigs(r) => r.tenant.as_deref(),
        MethodParams::DeleteTaskPushNotificationConfig(r) => r.tenant.as_deref(),
        MethodParams::GetExtendedAgentCard(r) => r.tenant.as_deref(),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The task id a request is about, for the call's span.
fn task_id_of(params: &MethodParams) -> Option<&str> {
    match params {
        MethodParams::SendMessage(r) | MethodParams::SendStreamingMessage(r) => {
            r.message.task_id.as_deref()
        }
        MethodParams::GetTask(r) => Some(&r.id),
        MethodParams::CancelTask(r) => Some(&r.id),
        MethodParams::SubscribeToTask(r) => Some(&r.id),
        MethodParams::CreateTaskPushNotificationConfig(r) => r.task_id.as_deref(),
        MethodParams::GetTaskPushNotificationConfig(r) => Some(&r.task_id),
        MethodParams::ListTaskPushNotificationConfigs(r) => Some(&r.task_id),
        MethodParams::DeleteTaskPushNotificationConfig(r) => Some(&r.task_id),
        _ => None,
    }
}

/// Checks what the spec requires of the request (every violation, each with its field path).
fn validate(params: &MethodParams) -> Result<(), Error> {
    let outcome = match params {
        MethodParams::SendMessage(r) | MethodParams::SendStreamingMessage(r) => r.validate(),
        MethodParams::GetTask(r) => r.validate(),
        MethodParams::ListTasks(r) => r.validate(),
        MethodParams::CancelTask(r) => r.validate(),
        MethodParams::SubscribeToTask(r) => r.validate(),
        MethodParams::CreateTaskPushNotificationConfig(r) => r.validate(),
        MethodParams::GetTaskPushNotificationConfig(r) => r.validate(),
        MethodParams::ListTaskPushNotificationConfigs(r) => r.validate(),
        MethodParams::GetExtendedAgentCard(r) => r.validate(),
        MethodParams::DeleteTaskPushNotificationConfig(r) => r.validate(),
        // A method a later spec adds is answered UnsupportedOperation by `call`.
        #[allow(unreachable_patterns)]
        _ => Ok(()),
    };
    outcome.map_err(Error::from)
}

impl A2aServer {
    /// Runs the authentication hook on a request's headers (gRPC metadata as headers).
    pub async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        self.inner.authenticator.authenticate(headers).await
    }

    /// Whether `caller` may call `operation` at all: the extended card needs an authenticated
    /// caller when there is one to give.
    pub fn check_access(
        &self,
        operation: Operation,
        caller: &Caller,
    ) -> Result<(), Unauthenticated> {
        if operation == Operation::GetExtendedAgentCard
            && self.inner.extended_card.is_some()
            && !caller.is_authenticated()
        {
            return Err(Unauthenticated(
                "GetExtendedAgentCard needs an authenticated caller (see the card's securitySchemes)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Answers one request for `context.caller`.
    pub async fn call(&self, params: MethodParams, context: &CallContext) -> Result<Reply, Error> {
        let operation = params.operation();
        // `task_id` is recorded once known: from the request here, or when a new task is made.
        let span = tracing::info_span!(
            "a2a.call",
            operation = %operation,
            binding = context.binding,
            task_id = tracing::field::Empty,
            traceparent = context.traceparent.as_deref().unwrap_or_default(),
            otel.kind = "server",
        );
        if let Some(task_id) = task_id_of(&params).filter(|id| !id.is_empty()) {
            span.record("task_id", task_id);
        }
        #[cfg(feature = "opentelemetry")]
        crate::otel::continue_trace(&span, context.traceparent.as_deref());
        // Boxed: the dispatch (the whole execution path) would otherwise be most of the size of every
        // caller's future, which axum, tower and tonic move several times per request, copying all of
        // it each time; here once, every binding's handler and the v0.3 bridge stay small.
        let mut outcome = Box::pin(self.dispatch(params, context))
            .instrument(span.clone())
            .await;
        match &mut outcome {
            Err(error) => span.in_scope(
                || tracing::debug!(kind = ?error.kind, message = %error.message, "call failed"),
            ),
            // A streaming call lasts until its stream ends, not until the stream is handed over.
            Ok(Reply::Stream(stream)) => stream.keep_span(span),
            Ok(Reply::Unary(_)) => {}
        }
        outcome
    }

    async fn dispatch(&self, params: MethodParams, context: &CallContext) -> Result<Reply, Error> {
        let inner = &self.inner;
        params
            .operation()
            .check_capabilities(&inner.card.capabilities)
            .map_err(Error::new)?;
        if let Some(missing) = inner
            .config
            .required_extensions
            .iter()
            .find(|uri| !context.service_params.extensions.contains(uri))
        {
            return Err(Error::with_message(
                ErrorKind::ExtensionSupportRequired,
                format!(
                    "this agent requires the extension {missing}; activate it with A2A-Extensions"
                ),
            )
            .with_metadata("extension", missing.as_str()));
        }
        validate(&params)?;
        let owner = Owner::of(&context.caller, tenant_of(&params));
        let unary = |result| Ok(Reply::Unary(result));
        match params {
            MethodParams::SendMessage(request) => unary(MethodResult::SendMessage(
                self.send(&owner, request, context).await?,
            )),
            MethodParams::SendStreamingMessage(request) => {
                self.send_streaming(&owner, request, context).await
            }
            MethodParams::GetTask(request) => {
                let length = check_history_length(request.history_length, "historyLength")?;
                let task = self.task(&owner, &request.id).await?.task;
                unary(MethodResult::GetTask(trim_history(task, length)))
            }
            MethodParams::ListTasks(request) => unary(MethodResult::ListTasks(
                self.list_tasks(&owner, &request).await?,
            )),
            MethodParams::CancelTask(request) => unary(MethodResult::CancelTask(
                self.cancel(&owner, &request.id).await?,
            )),
            MethodParams::SubscribeToTask(request) => {
                let stored = self.task(&owner, &request.id).await?;
                let state = stored.task.status.state;
                let stream = match context.last_event_id {
                    Some(last) => self.task_stream(&owner, &request.id, None, last)?,
                    None if state.is_terminal() => {
                        return Err(Error::with_message(
                            ErrorKind::UnsupportedOperation,
                            format!(
                                "task {} is {}; there is nothing left to subscribe to",
                                request.id,
                                state_name(state)
                            ),
                        )
                        .with_metadata("taskId", request.id.as_str()));
                    }
                    None => {
                        let first = StreamResponse::Task(stored.task);
                        self.task_stream(&owner, &request.id, Some(first), stored.version)?
                    }
                };
                Ok(Reply::Stream(stream))
            }
            MethodParams::CreateTaskPushNotificationConfig(config) => {
                unary(MethodResult::CreateTaskPushNotificationConfig(
                    self.add_push_config(&owner, config).await?,
                ))
            }
            MethodParams::GetTaskPushNotificationConfig(request) => {
                self.task(&owner, &request.task_id).await?;
                let config = inner
                    .push_configs
                    .get(&owner, &request.task_id, &request.id)
                    .await
                    .map_err(|e| e.to_error(&request.task_id))?
                    .ok_or_else(|| {
                        Error::with_message(
                            ErrorKind::TaskNotFound,
                            format!(
                                "task {} has no push notification config {}",
                                request.task_id, request.id
                            ),
                        )
                        .with_metadata("taskId", request.task_id.as_str())
                    })?;
                unary(MethodResult::GetTaskPushNotificationConfig(config))
            }
            MethodParams::ListTaskPushNotificationConfigs(request) => {
                self.task(&owner, &request.task_id).await?;
                let all = inner
                    .push_configs
                    .list(&owner, &request.task_id)
                    .await
                    .map_err(|e| e.to_error(&request.task_id))?;
                let start = match request.page_token.as_deref().filter(|t| !t.is_empty()) {
                    None => 0,
                    Some(token) => token
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n <= all.len())
                        .ok_or_else(|| {
                            invalid(
                                "pageToken",
                                format!("{token:?} is not a page token this agent gave out"),
                            )
                        })?,
                };
                let size = match request.page_size {
                    None | Some(0) => all.len().max(1),
                    Some(n) if n < 0 => {
                        return Err(invalid(
                            "pageSize",
                            format!("must not be negative, not {n}"),
                        ));
                    }
                    Some(n) => n as usize,
                };
                let end = (start + size).min(all.len());
                // `..Default::default()` keeps this building when the spec adds a field.
                #[allow(clippy::needless_update)]
                let page = ListTaskPushNotificationConfigsResponse {
                    configs: all[start..end].to_vec(),
                    next_page_token: (end < all.len()).then(|| end.to_string()),
                    ..Default::default()
                };
                unary(MethodResult::ListTaskPushNotificationConfigs(page))
            }
            MethodParams::DeleteTaskPushNotificationConfig(request) => {
                self.task(&owner, &request.task_id).await?;
                inner
                    .push_configs
                    .delete(&owner, &request.task_id, &request.id)
                    .await
                    .map_err(|e| e.to_error(&request.task_id))?;
                unary(MethodResult::DeleteTaskPushNotificationConfig(Empty))
            }
            MethodParams::GetExtendedAgentCard(_) => match &inner.extended_card {
                Some(card) => unary(MethodResult::GetExtendedAgentCard(card.clone())),
                None => Err(Error::new(ErrorKind::ExtendedAgentCardNotConfigured)),
            },
            other => Err(Error::with_message(
                ErrorKind::UnsupportedOperation,
                format!(
                    "{} is not supported by this agent",
                    other.operation().jsonrpc_method()
                ),
            )),
        }
    }

    /// The owner's task, or `TaskNotFound`.
    pub(crate) async fn task(
        &self,
        owner: &Owner,
        id: &str,
    ) -> Result<crate::store::StoredTask, Error> {
        self.inner
            .tasks
            .get(owner, id)
            .await
            .map_err(|e| e.to_error(id))?
            .ok_or_else(|| not_found(id))
    }

    async fn list_tasks(
        &self,
        owner: &Owner,
        request: &a2a_types::v1::ListTasksRequest,
    ) -> Result<ListTasksResponse, Error> {
        let config = &self.inner.config;
        let page_size = match request.page_size {
            None | Some(0) => config.default_page_size,
            Some(n) if n < 1 || n as usize > config.max_page_size => {
                return Err(invalid(
                    "pageSize",
                    format!("must be between 1 and {}, not {n}", config.max_page_size),
                ));
            }
            Some(n) => n as usize,
        };
        let history_length = check_history_length(request.history_length, "historyLength")?;
        let page = self
            .inner
            .tasks
            .list(owner, request, page_size)
            .await
            .map_err(|e| e.to_error(""))?;
        let tasks = page
            .tasks
            .into_iter()
            .map(|task| {
                let mut task = trim_history(task, history_length);
                if request.include_artifacts != Some(true) {
                    task.artifacts.clear();
                }
                task
            })
            .collect();
        // `nextPageToken` is written even when empty (§3.1.4); `..Default::default()` keeps this
        // building when the spec adds a field.
        #[allow(clippy::needless_update)]
        let response = ListTasksResponse {
            tasks,
            next_page_token: page.next_page_token,
            page_size: page_size as i32,
            total_size: page.total_size as i32,
            ..Default::default()
        };
        Ok(response)
    }

    async fn add_push_config(
        &self,
        owner: &Owner,
        mut config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, Error> {
        let task_id = config.task_id.clone().unwrap_or_default();
        self.task(owner, &task_id).await?;
        self.inner.config.webhook_policy.check_url(&config.url)?;
        if config.id.as_ref().is_none_or(|id| id.is_empty()) {
            config.id = Some(crate::ids::new_id("push"));
        }
        self.inner
            .push_configs
            .save(owner, config.clone())
            .await
            .map_err(|e| match e {
                crate::store::StoreError::Backend(problem) => invalid("taskId", problem),
                other => other.to_error(&task_id),
            })?;
        Ok(config)
    }
}
