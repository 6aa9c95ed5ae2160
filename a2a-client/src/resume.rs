//! Resuming a stream after its connection drops.
//!
//! A stream made by an [`A2aClient`](crate::A2aClient) remembers the task its events are about.
//! When the connection breaks (reset, closed inside an event, a gRPC transport failure) before a
//! terminal state, it subscribes to that task again (`SubscribeToTask`), sending `Last-Event-ID`
//! with the id of the last server-sent event received when the agent gives its events ids, so an
//! agent that keeps its events replays only what was missed. An agent without event ids answers a resubscription with the task as
//! it is now (spec section 3.1.6), which the stream delivers as a [`StreamResponse::Task`] event: no
//! state is lost, though the intermediate events are summed up in it.
//!
//! Where resumption is not possible the stream ends with [`ClientError::NotResumable`], naming why
//! and what broke it: no event named a task yet, the agent refused to resubscribe (unless the task
//! had meanwhile finished: then its final state is delivered and the stream ends cleanly), or
//! [`ClientConfig::stream_resume_attempts`](crate::ClientConfig::stream_resume_attempts) attempts
//! in a row failed.
//!
//! # An agent that restarted
//!
//! An agent that was killed and restarted answers the resubscription, but may not continue the task
//! (the workspace's own server keeps a task cut by a crash at its last committed state: executions
//! are not resumed after a restart), so the resumed stream stays silent. When the stream's timeouts
//! ([`ClientConfig::stream_idle_timeout`](crate::ClientConfig::stream_idle_timeout),
//! [`stream_timeout`](crate::ClientConfig::stream_timeout)) expire on a resumed stream before any
//! event moved the task on (a status or artifact update, a message, or the task over; the snapshot
//! a resubscription starts with does not count), the stream ends with
//! [`ClientError::NotResumable`] naming the task, its cause the failure that broke the first
//! connection, rather than with a bare timeout. The task itself is still the agent's to read
//! (`GetTask`) or subscribe to.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use a2a_protocol::errors::ErrorKind;
use a2a_types::v1::{GetTaskRequest, StreamResponse, Task};

use crate::binding::Binding;
use crate::config::ClientConfig;
use crate::error::ClientError;
use crate::stream::{EventStream, Reconnected, Resumption};

/// What a resumption asks of the client that opened the stream.
pub(crate) trait Resubscribe: fmt::Debug + Send + Sync {
    /// The binding the client calls over now.
    fn binding(&self) -> Binding;
    /// The client's configuration: its resumption attempts and backoff.
    fn config(&self) -> &ClientConfig;
    /// A new connection to a task's events.
    fn open_subscription<'a>(
        &'a self,
        task_id: &'a str,
        last_event_id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<EventStream, ClientError>> + Send + 'a>>;
    /// `GetTask`.
    fn get_task(
        &self,
        request: GetTaskRequest,
    ) -> Pin<Box<dyn Future<Output = Result<Task, ClientError>> + Send + '_>>;
}

/// What a stream needs to subscribe again, with the client `C` that opened it.
#[derive(Debug)]
pub(crate) struct Resume<C> {
    client: C,
    task_id: Option<String>,
    failures_in_a_row: u32,
    /// What broke the stream, while the resubscribed stream has not yet moved the task on.
    cut_by: Option<ClientError>,
}

impl<C: Resubscribe> Resume<C> {
    pub(crate) fn new(client: C, task_id: Option<String>) -> Self {
        Resume {
            client,
            task_id,
            failures_in_a_row: 0,
            cut_by: None,
        }
    }
}

impl<C: Resubscribe> Resumption for Resume<C> {
    /// Notes the task an event is about; `true` when the event is the last the stream will carry (a
    /// message, or a terminal state).
    fn observe(&mut self, event: &StreamResponse) -> bool {
        self.failures_in_a_row = 0;
        let moves_on = match event {
            StreamResponse::Task(task) => task.status.state.is_terminal(),
            _ => true,
        };
        if moves_on {
            self.cut_by = None;
        }
        let (task_id, last) = match event {
            StreamResponse::Task(task) => (Some(&task.id), task.status.state.is_terminal()),
            StreamResponse::StatusUpdate(update) => {
                (Some(&update.task_id), update.status.state.is_terminal())
            }
            StreamResponse::ArtifactUpdate(update) => (Some(&update.task_id), false),
            StreamResponse::Message(_) => (None, true),
            #[allow(unreachable_patterns)]
            _ => (None, false),
        };
        if let Some(id) = task_id.filter(|id| !id.is_empty()) {
            self.task_id = Some(id.clone());
        }
        last
    }

    /// `error`, a stream timeout, as [`ClientError::NotResumable`] when it expired on a resumed
    /// stream before the task moved on (see [the module docs](self#an-agent-that-restarted));
    /// any other error as it is.
    fn explain_timeout(&mut self, error: ClientError) -> ClientError {
        if !matches!(error, ClientError::Timeout { .. }) {
            return error;
        }
        let (Some(cut_by), Some(task_id)) = (self.cut_by.take(), self.task_id.as_deref()) else {
            return error;
        };
        ClientError::NotResumable {
            binding: self.client.binding(),
            reason: format!(
                "the stream was resubscribed, but task {task_id} did not go on ({error}): \
                 the agent may have stopped working on it (an agent restarted mid-task keeps \
                 the task at its last committed state); GetTask reads where it stands"
            ),
            cause: Box::new(cut_by),
        }
    }

    /// Subscribes to the task again after `cause` broke the stream.
    fn reconnect<'a>(
        &'a mut self,
        cause: ClientError,
        last_event_id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Reconnected, ClientError>> + Send + 'a>> {
        Box::pin(async move {
            let binding = self.client.binding();
            let not_resumable = |reason: String, cause: ClientError| ClientError::NotResumable {
                binding,
                reason,
                cause: Box::new(cause),
            };
            let Some(task_id) = self.task_id.clone() else {
                return Err(not_resumable(
                    "no event named a task before the connection broke, so there is nothing to subscribe to".to_owned(),
                    cause,
                ));
            };
            let attempts = self.client.config().stream_resume_attempts;
            let mut last = cause;
            while self.failures_in_a_row < attempts {
                self.failures_in_a_row += 1;
                let retry = self.client.config().retry;
                tokio::time::sleep(retry.backoff(self.failures_in_a_row)).await;
                tracing::info!(task_id, attempt = self.failures_in_a_row, error = %last, "resubscribing to a dropped stream");
                match self.client.open_subscription(&task_id, last_event_id).await {
                    Ok(stream) => {
                        self.cut_by = Some(last);
                        return Ok(Reconnected::Stream(Box::new(stream)));
                    }
                    Err(error) if error.is_transient() => last = error,
                    Err(refused) => {
                        // A task that finished meanwhile cannot be subscribed to; its final state is
                        // what the stream would have ended with.
                        if matches!(
                            refused.a2a_kind(),
                            Some(ErrorKind::UnsupportedOperation | ErrorKind::TaskNotFound)
                        ) && let Ok(task) = self
                            .client
                            .get_task(GetTaskRequest {
                                id: task_id.clone(),
                                ..Default::default()
                            })
                            .await
                            && task.status.state.is_terminal()
                        {
                            return Ok(Reconnected::Final(Box::new(task)));
                        }
                        return Err(not_resumable(
                            format!(
                                "the agent refused to resubscribe to task {task_id}: {refused}"
                            ),
                            last,
                        ));
                    }
                }
            }
            Err(not_resumable(
                format!("{attempts} resubscriptions to task {task_id} failed in a row"),
                last,
            ))
        })
    }
}
