//! SendMessage and SendStreamingMessage: what the caller gets once the agent has started.

use std::sync::Arc;

use a2a_protocol::errors::Error;
use a2a_types::v1::{SendMessageRequest, SendMessageResponse, StreamResponse};

use crate::auth::Owner;
use crate::core::context::{CallContext, Reply};
use crate::core::execution::begin::{Started, begin};
use crate::core::history::{check_history_length, fit_answer};
use crate::core::state::ServerState;
use crate::core::streams::{EventStream, stream_permit, task_stream_with};
use crate::core::tasks::task;

/// SendMessage: the reply, or the task once it ends or waits (at once with `returnImmediately`).
pub(crate) async fn send(
    state: &Arc<ServerState>,
    owner: &Owner,
    request: SendMessageRequest,
    context: &CallContext,
) -> Result<SendMessageResponse, Error> {
    let configuration = request.configuration.clone().unwrap_or_default();
    let length = check_history_length(configuration.history_length, "configuration.historyLength")?;
    match begin(state, owner, request, context, false).await? {
        Started::Reply(reply) => Ok(SendMessageResponse::Message(reply)),
        Started::Task {
            snapshot, settled, ..
        } => {
            let settled = if configuration.return_immediately == Some(true) {
                None
            } else {
                // The task once it ends or waits; an error means the driver is done without
                // that (the task failed, or the store refused an event): read it then.
                settled.await.ok()
            };
            let task = match settled {
                Some(task) => task,
                None => task(state, owner, &snapshot.id).await?.task,
            };
            let budget = state.config.limits.max_bytes();
            Ok(SendMessageResponse::Task(fit_answer(task, length, budget)?))
        }
    }
}

/// SendStreamingMessage: the reply as one event, or the task then its events.
pub(crate) async fn send_streaming(
    state: &Arc<ServerState>,
    owner: &Owner,
    request: SendMessageRequest,
    context: &CallContext,
) -> Result<Reply, Error> {
    let configuration = request.configuration.clone().unwrap_or_default();
    let length = check_history_length(configuration.history_length, "configuration.historyLength")?;
    // The stream's slot is taken first, so an agent never runs for a stream that is refused.
    let permit = stream_permit(state, owner)?;
    match begin(state, owner, request, context, true).await? {
        Started::Reply(reply) => Ok(Reply::Stream(EventStream::once(StreamResponse::Message(
            reply,
        )))),
        Started::Task {
            snapshot,
            version,
            watch,
            ..
        } => {
            let id = snapshot.id.clone();
            let first = StreamResponse::Task(fit_answer(
                snapshot,
                length,
                state.config.limits.max_bytes(),
            )?);
            Ok(Reply::Stream(task_stream_with(
                state,
                owner,
                &id,
                Some((version, first)),
                version,
                permit,
                watch,
            )?))
        }
    }
}
