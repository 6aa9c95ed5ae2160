//! One call of any binding: the span, the checks every operation makes (the card's
//! capabilities, the required extensions, the spec's REQUIRED fields), the caller's [`Owner`], and
//! the operation itself, whatever the binding.
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

use std::sync::Arc;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::Operation;
use a2a_protocol::operations::{Empty, MethodParams, MethodResult};
use a2a_types::validate::Validate;
use axum::http::HeaderMap;
use tracing::Instrument;

use crate::auth::{
    AccessDenied, AuthRequest, Authenticated, Caller, Owner, Presented, Unauthenticated,
};
use crate::core::context::{CallContext, Reply};
use crate::core::execution::cancel::cancel;
use crate::core::execution::send::{send, send_streaming};
use crate::core::history::{check_history_length, fit_answer};
use crate::core::identifiers::{check_keys, task_id_of, tenant_of};
use crate::core::push_configs;
use crate::core::state::ServerState;
use crate::core::tasks::{list_tasks, subscribe, task};

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

/// The caller of a request: what a layer in front of the binding found (the limits authenticate
/// every request before it reaches the binding), else the authentication hook run on the request's
/// headers (gRPC metadata as headers), query and the client's verified TLS certificate.
pub(crate) async fn authenticate(
    state: &ServerState,
    headers: &HeaderMap,
    query: Option<&str>,
    presented: &Presented,
) -> Result<Caller, Unauthenticated> {
    if let Some(Authenticated(outcome)) = &presented.authenticated {
        return outcome.clone();
    }
    let request = AuthRequest::new(headers)
        .with_query(query)
        .with_peer_certificate(presented.certificate.as_ref());
    state.authenticator.authenticate_request(&request).await
}

/// Whether `caller` may call `operation` at all: the extended card needs an authenticated
/// caller when there is one to give, and each operation the scopes the server was told it needs.
pub(crate) fn check_access(
    state: &ServerState,
    operation: Operation,
    caller: &Caller,
) -> Result<(), AccessDenied> {
    if operation == Operation::GetExtendedAgentCard
        && state.extended_card.is_some()
        && !caller.is_authenticated()
    {
        return Err(Unauthenticated(
            "GetExtendedAgentCard needs an authenticated caller (see the card's securitySchemes)"
                .into(),
        )
        .into());
    }
    state.scopes.check(operation, caller)
}

/// [`check_access`] for the request's operation, then, for a message, the security requirements of
/// the skill it is for (the card's `securityRequirements`; see [`SkillRequirements`](crate::auth::SkillRequirements)).
pub(crate) fn check_request(
    state: &ServerState,
    params: &MethodParams,
    caller: &Caller,
) -> Result<(), AccessDenied> {
    check_access(state, params.operation(), caller)?;
    match params {
        MethodParams::SendMessage(request) | MethodParams::SendStreamingMessage(request) => {
            state.skills.check(&request.message, caller)
        }
        _ => Ok(()),
    }
}

/// Answers one request for `context.caller`.
pub(crate) async fn call(
    state: &Arc<ServerState>,
    params: MethodParams,
    context: &CallContext,
) -> Result<Reply, Error> {
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
    let mut outcome = Box::pin(dispatch(state, params, context))
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

async fn dispatch(
    state: &Arc<ServerState>,
    params: MethodParams,
    context: &CallContext,
) -> Result<Reply, Error> {
    params
        .operation()
        .check_capabilities(&state.card.capabilities)
        .map_err(Error::new)?;
    if let Some(missing) = state
        .config
        .required_extensions
        .iter()
        .find(|uri| !context.service_params.extensions.contains(uri))
    {
        return Err(Error::with_message(
            ErrorKind::ExtensionSupportRequired,
            format!("this agent requires the extension {missing}; activate it with A2A-Extensions"),
        )
        .with_metadata("extension", missing.as_str()));
    }
    validate(&params)?;
    check_keys(&params)?;
    if let MethodParams::SendMessage(request) | MethodParams::SendStreamingMessage(request) =
        &params
    {
        // A message naming a skill the cards do not list is refused, not run unchecked.
        state.skills.skill_of(&request.message)?;
    }
    let owner = Owner::of(&context.caller, tenant_of(&params));
    let unary = |result| Ok(Reply::Unary(result));
    match params {
        MethodParams::SendMessage(request) => unary(MethodResult::SendMessage(
            send(state, &owner, request, context).await?,
        )),
        MethodParams::SendStreamingMessage(request) => {
            send_streaming(state, &owner, request, context).await
        }
        MethodParams::GetTask(request) => {
            let length = check_history_length(request.history_length, "historyLength")?;
            let task = task(state, &owner, &request.id).await?.task;
            let budget = state.config.limits.max_bytes();
            unary(MethodResult::GetTask(fit_answer(task, length, budget)?))
        }
        MethodParams::ListTasks(request) => unary(MethodResult::ListTasks(
            list_tasks(state, &owner, &request).await?,
        )),
        MethodParams::CancelTask(request) => unary(MethodResult::CancelTask(
            cancel(state, &owner, &request.id).await?,
        )),
        MethodParams::SubscribeToTask(request) => Ok(Reply::Stream(
            subscribe(state, &owner, &request.id, context.last_event_id).await?,
        )),
        MethodParams::CreateTaskPushNotificationConfig(config) => {
            unary(MethodResult::CreateTaskPushNotificationConfig(
                push_configs::create(state, &owner, config).await?,
            ))
        }
        MethodParams::GetTaskPushNotificationConfig(request) => {
            unary(MethodResult::GetTaskPushNotificationConfig(
                push_configs::get(state, &owner, &request).await?,
            ))
        }
        MethodParams::ListTaskPushNotificationConfigs(request) => {
            unary(MethodResult::ListTaskPushNotificationConfigs(
                push_configs::list(state, &owner, &request).await?,
            ))
        }
        MethodParams::DeleteTaskPushNotificationConfig(request) => {
            push_configs::delete(state, &owner, &request).await?;
            unary(MethodResult::DeleteTaskPushNotificationConfig(Empty))
        }
        MethodParams::GetExtendedAgentCard(_) => match &state.extended_card {
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
