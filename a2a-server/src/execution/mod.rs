//! Running the agent on a message, and the task state machine every change goes through.
//!
//! A message starts the [`AgentExecutor`](crate::AgentExecutor) in a task of its own; its events
//! come back through a bounded queue. The first decides the answer: a message (no task is stored),
//! or a task, created `submitted` with the message in its history (or, for a message continuing a
//! task that waits for input, that task with the message added). A driver then applies each event
//! with [`A2aServer::apply`], through the store's [`TaskStore::modify`](crate::TaskStore::modify):
//! refuse changes to a task that is over, change it, keep it under the next version (a database
//! store reads, then writes naming the version read, again when another writer, a cancel or another
//! replica, got there first; the in-memory store changes the task where it lies). Each applied event is logged under the new version, announced on the event bus
//! and handed to the task's webhooks (by the store's durable outbox when the server has one).

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_types::v1::{
    Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    Task, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use tokio::sync::{mpsc, oneshot, watch};

use crate::auth::Owner;
use crate::executor::{AgentEvent, EventSink, RequestContext, ServiceParams};
use crate::handler::{
    CallContext, Reply, check_history_length, invalid, not_found, state_name, trim_history,
};
use crate::push::Delivery;
use crate::server::A2aServer;
use crate::streams::EventStream;

mod drive;
mod resume;

use drive::Execution;
pub(crate) use resume::start_resumer;

/// What a message started.
pub(crate) enum Started {
    /// A direct reply, no task.
    Reply(Message),
    /// A task: as it stood when the agent began (the snapshot a stream sends first), its version,
    /// and a signal that fires once the task ends or waits for input.
    Task {
        snapshot: Task,
        version: u64,
        settled: oneshot::Receiver<()>,
    },
}

/// Whether a stream of a message's events ends after this one: the task is over or waits.
pub(crate) fn ends_stream(event: &StreamResponse) -> bool {
    match event {
        StreamResponse::StatusUpdate(update) => {
            update.status.state.is_terminal() || update.status.state.is_interrupted()
        }
        StreamResponse::Task(task) => {
            task.status.state.is_terminal() || task.status.state.is_interrupted()
        }
        StreamResponse::Message(_) => true,
        _ => false,
    }
}

/// The event as the task's stream carries it: ids filled in.
fn to_stream_event(event: AgentEvent, task_id: &str, context_id: &str) -> StreamResponse {
    match event {
        AgentEvent::Status(mut status) => {
            if let Some(message) = &mut status.message {
                message.task_id = Some(task_id.to_owned());
                message.context_id = Some(context_id.to_owned());
            }
            StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(task_id, context_id, status))
        }
        AgentEvent::Artifact {
            artifact,
            append,
            last_chunk,
        } => {
            let mut update = TaskArtifactUpdateEvent::new(task_id, context_id, artifact);
            if append {
                update = update.append(true);
            }
            StreamResponse::ArtifactUpdate(update.last_chunk(last_chunk))
        }
        AgentEvent::Message(mut message) => {
            message.task_id = Some(task_id.to_owned());
            message.context_id = Some(context_id.to_owned());
            StreamResponse::Message(message)
        }
    }
}

/// The task after `event`.
fn change(task: &mut Task, event: &StreamResponse) {
    match event {
        StreamResponse::StatusUpdate(update) => {
            if let Some(message) = &update.status.message {
                task.history.push(message.clone());
            }
            task.status = update.status.clone();
        }
        StreamResponse::ArtifactUpdate(update) => {
            let artifacts = &mut task.artifacts;
            match artifacts
                .iter_mut()
                .find(|a| a.artifact_id == update.artifact.artifact_id)
            {
                Some(existing) if update.append == Some(true) => {
                    existing.parts.extend(update.artifact.parts.iter().cloned())
                }
                Some(existing) => *existing = update.artifact.clone(),
                None => artifacts.push(update.artifact.clone()),
            }
        }
        StreamResponse::Message(message) => task.history.push(message.clone()),
        _ => {}
    }
}

impl A2aServer {
    /// Applies an event to the owner's task (the state machine), logs it, tells streams and
    /// webhooks; returns its new version. A task that is over takes no event:
    /// `TaskNotCancelable` for a cancellation, else `UnsupportedOperation`.
    pub(crate) async fn apply(
        &self,
        owner: &Owner,
        task_id: &str,
        event: StreamResponse,
    ) -> Result<u64, Error> {
        self.apply_keeping(owner, task_id, event, |_| ())
            .await
            .map(|((), version)| version)
    }

    /// [`apply`](Self::apply), also returning `keep` of the task as the event left it: the task is
    /// moved into the store, so a caller that needs none of it (the driver, once per event) pays
    /// for no copy.
    async fn apply_keeping<T: Send>(
        &self,
        owner: &Owner,
        task_id: &str,
        event: StreamResponse,
        keep: impl Fn(&Task) -> T + Sync,
    ) -> Result<(T, u64), Error> {
        let inner = &self.inner;
        // Webhooks get the event after the write; without an outbox the server hands it over itself.
        let to_push = (inner.outbox.is_none()
            && inner.card.capabilities.push_notifications == Some(true))
        .then(|| event.clone());
        let mut kept = None;
        let version = inner
            .tasks
            .modify(owner, task_id, Some(event), &mut |task, event| {
                let state = task.status.state;
                if state.is_terminal() {
                    let cancel = matches!(event, Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Canceled);
                    let kind = if cancel {
                        ErrorKind::TaskNotCancelable
                    } else {
                        ErrorKind::UnsupportedOperation
                    };
                    return Err(Error::with_message(
                        kind,
                        format!("task {task_id} is already {}", state_name(state)),
                    )
                    .with_metadata("taskId", task_id));
                }
                if let Some(event) = event {
                    change(task, event);
                }
                kept = Some(keep(task));
                Ok(())
            })
            .await?;
        inner.bus.publish(task_id, version);
        if let Some(outbox) = &inner.outbox {
            // The store wrote the deliveries with the event.
            outbox.wake();
        } else if let Some(event) = to_push {
            self.push(owner, task_id, &event).await;
        }
        let kept = kept.expect("a change that was written ran its closure to the end");
        Ok((kept, version))
    }

    /// Hands an event to every webhook of the task.
    async fn push(&self, owner: &Owner, task_id: &str, event: &StreamResponse) {
        match self.inner.push_configs.list(owner, task_id).await {
            Ok(configs) => {
                for config in configs {
                    self.inner.pusher.send(Delivery {
                        config,
                        event: event.clone(),
                    });
                }
            }
            Err(error) => tracing::warn!(%error, task_id, "push configs could not be read"),
        }
    }

    /// Adds the client's message to a task waiting for input; returns the task and version.
    async fn continue_task(
        &self,
        owner: &Owner,
        task_id: &str,
        message: &Message,
    ) -> Result<(Task, u64), Error> {
        let mut changed = None;
        let version = self
            .inner
            .tasks
            .modify(owner, task_id, None, &mut |task, _| {
                let state = task.status.state;
                if state.is_terminal() {
                    return Err(Error::with_message(
                        ErrorKind::UnsupportedOperation,
                        format!(
                            "task {task_id} is {}; it takes no more messages",
                            state_name(state)
                        ),
                    )
                    .with_metadata("taskId", task_id));
                }
                if message
                    .context_id
                    .as_ref()
                    .is_some_and(|c| !c.is_empty() && Some(c) != task.context_id.as_ref())
                {
                    return Err(invalid(
                        "message.contextId",
                        format!("does not match the context of task {task_id}"),
                    ));
                }
                if !state.is_interrupted() {
                    return Err(Error::with_message(
                        ErrorKind::UnsupportedOperation,
                        format!("task {task_id} is still working; it takes a message only when it asks for input"),
                    )
                    .with_metadata("taskId", task_id));
                }
                task.history.push(message.clone());
                changed = Some(task.clone());
                Ok(())
            })
            .await?;
        let task = changed.expect("a change that was written ran its closure to the end");
        Ok((task, version))
    }

    /// Starts the agent on a message; see the [module docs](self).
    async fn begin(
        &self,
        owner: &Owner,
        request: SendMessageRequest,
        context: &CallContext,
    ) -> Result<Started, Error> {
        let inner = &self.inner;
        let configuration = request.configuration.clone().unwrap_or_default();
        let outputs = &inner.card.default_output_modes;
        if !configuration.accepted_output_modes.is_empty()
            && !outputs.is_empty()
            && !configuration
                .accepted_output_modes
                .iter()
                .any(|mode| mode == "*/*" || outputs.iter().any(|ours| ours == mode))
        {
            return Err(Error::with_message(
                ErrorKind::ContentTypeNotSupported,
                format!(
                    "this agent answers in {}, none of which the client accepts ({})",
                    outputs.join(", "),
                    configuration.accepted_output_modes.join(", ")
                ),
            ));
        }
        let mut message = request.message;
        let existing = match message.task_id.clone().filter(|id| !id.is_empty()) {
            Some(task_id) => Some(self.continue_task(owner, &task_id, &message).await?),
            None => None,
        };
        let (task_id, context_id) = match &existing {
            Some((task, _)) => (task.id.clone(), task.context_id.clone().unwrap_or_default()),
            None => (
                crate::ids::new_id("task"),
                message
                    .context_id
                    .clone()
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| crate::ids::new_id("ctx")),
            ),
        };
        message.task_id = Some(task_id.clone());
        message.context_id = Some(context_id.clone());
        // The call's span (`a2a.call`, current here) names the task, a new one included.
        tracing::Span::current().record("task_id", task_id.as_str());
        let (sender, mut events) = mpsc::channel(inner.config.executor_queue.max(1));
        let (cancel, cancel_signal) = watch::channel(false);
        let sink = EventSink::new(sender, cancel_signal, task_id.clone(), context_id.clone());
        let request_context = RequestContext {
            message: message.clone(),
            task_id: task_id.clone(),
            context_id: context_id.clone(),
            task: existing.as_ref().map(|(task, _)| task.clone()),
            caller: context.caller.clone(),
            service_params: context.service_params.clone(),
            configuration: request.configuration.clone(),
            resumed: false,
        };
        let executor = inner.executor.clone();
        let mut execution =
            tokio::spawn(async move { executor.execute(request_context, sink).await });

        // The first event, or the executor's end without one.
        // When the executor ends first, its outcome is kept: a finished JoinHandle is not polled again.
        let mut outcome = None;
        let first = tokio::select! {
            event = events.recv() => event,
            ended = &mut execution => {
                // It may have sent events before returning: they are still queued.
                match events.try_recv() {
                    Ok(event) => {
                        outcome = Some(ended);
                        Some(event)
                    }
                    Err(_) => {
                        let problem = match ended {
                            Ok(Ok(())) => "the agent answered nothing".to_owned(),
                            Ok(Err(error)) => return Err(error),
                            Err(_) => "the agent failed".to_owned(),
                        };
                        return Err(Error::with_message(ErrorKind::Internal, problem));
                    }
                }
            }
        };
        let Some(first) = first else {
            return Err(Error::with_message(
                ErrorKind::Internal,
                "the agent answered nothing",
            ));
        };
        if let AgentEvent::Message(mut reply) = first {
            // A direct reply: no task; anything else the agent sends is not taken.
            cancel.send_replace(true);
            reply.context_id = Some(context_id);
            if existing.is_none() {
                reply.task_id = None;
            }
            return Ok(Started::Reply(reply));
        }
        // The execution is recorded before the task is created: a crash between the two writes
        // leaves a record without a task, which the resumer removes, never a task that nothing
        // would run again.
        let lease = match self
            .record_execution(
                owner,
                &task_id,
                &message,
                request.configuration.as_ref(),
                &context.service_params,
            )
            .await
        {
            Ok(lease) => lease,
            Err(error) => {
                cancel.send_replace(true);
                return Err(error);
            }
        };
        let created = match existing {
            Some(existing) => Ok(existing),
            None => {
                let mut task =
                    Task::new(&task_id, &context_id, TaskStatus::now(TaskState::Submitted));
                task.history.push(message);
                match inner.tasks.create(owner, task.clone()).await {
                    Ok(version) => Ok((task, version)),
                    Err(error) => Err(error.to_error(&task_id)),
                }
            }
        };
        let added = match (&created, configuration.task_push_notification_config) {
            (Ok(_), Some(mut config)) => {
                config.task_id = Some(task_id.clone());
                self.add_push_config_for(owner, config).await
            }
            _ => Ok(()),
        };
        let (snapshot, version) = match (created, added) {
            (Ok(created), Ok(())) => created,
            (Err(error), _) | (_, Err(error)) => {
                // The request fails, so its execution must not be resumed either.
                cancel.send_replace(true);
                self.forget_execution(&task_id, lease.as_deref()).await;
                return Err(error);
            }
        };
        let (settle, settled) = oneshot::channel();
        self.drive(Execution {
            owner: owner.clone(),
            task_id,
            context_id,
            first: Some(first),
            events,
            executor: execution,
            outcome,
            cancel,
            settle: Some(settle),
            lease,
        });
        Ok(Started::Task {
            snapshot,
            version,
            settled,
        })
    }

    /// With an execution queue, records the execution of the request (`message` with its ids set,
    /// and `configuration`, received with `service_params`) on the task under a new lease (see [`crate::store::executions`]); its
    /// lease token. A record that cannot be written fails the request: the execution would not
    /// survive a crash. Without a queue, nothing is built: the copy of the request is for the record.
    async fn record_execution(
        &self,
        owner: &Owner,
        task_id: &str,
        message: &Message,
        configuration: Option<&SendMessageConfiguration>,
        service_params: &ServiceParams,
    ) -> Result<Option<String>, Error> {
        let Some(queue) = &self.inner.executions else {
            return Ok(None);
        };
        let request = SendMessageRequest {
            message: message.clone(),
            configuration: configuration.cloned(),
            ..Default::default()
        };
        let token = crate::ids::new_id("lease");
        queue
            .begin(
                owner,
                task_id,
                &request,
                service_params,
                &token,
                self.inner.config.executions.lease,
            )
            .await
            .map_err(|e| e.to_error(task_id))?;
        Ok(Some(token))
    }

    /// Removes the record [`Self::record_execution`] wrote for a request that then failed; a record
    /// left behind (logged) only makes the resumer look at the task once more.
    async fn forget_execution(&self, task_id: &str, lease: Option<&str>) {
        if let (Some(queue), Some(token)) = (&self.inner.executions, lease)
            && let Err(error) = queue.finish(task_id, token).await
        {
            tracing::warn!(%error, task_id, "a failed request's execution record could not be removed");
        }
    }

    /// SendMessage: the reply, or the task once it ends or waits (at once with `returnImmediately`).
    pub(crate) async fn send(
        &self,
        owner: &Owner,
        request: SendMessageRequest,
        context: &CallContext,
    ) -> Result<SendMessageResponse, Error> {
        let configuration = request.configuration.clone().unwrap_or_default();
        let length =
            check_history_length(configuration.history_length, "configuration.historyLength")?;
        match self.begin(owner, request, context).await? {
            Started::Reply(reply) => Ok(SendMessageResponse::Message(reply)),
            Started::Task {
                snapshot, settled, ..
            } => {
                if configuration.return_immediately != Some(true) {
                    // Fires when the task ends or waits; an error means the driver is done.
                    let _ = settled.await;
                }
                let task = self.task(owner, &snapshot.id).await?.task;
                Ok(SendMessageResponse::Task(trim_history(task, length)))
            }
        }
    }

    /// SendStreamingMessage: the reply as one event, or the task then its events.
    pub(crate) async fn send_streaming(
        &self,
        owner: &Owner,
        request: SendMessageRequest,
        context: &CallContext,
    ) -> Result<Reply, Error> {
        let configuration = request.configuration.clone().unwrap_or_default();
        let length =
            check_history_length(configuration.history_length, "configuration.historyLength")?;
        // The stream's slot is taken first, so an agent never runs for a stream that is refused.
        let permit = self.stream_permit()?;
        match self.begin(owner, request, context).await? {
            Started::Reply(reply) => Ok(Reply::Stream(EventStream::once(StreamResponse::Message(
                reply,
            )))),
            Started::Task {
                snapshot, version, ..
            } => {
                let id = snapshot.id.clone();
                let first = StreamResponse::Task(trim_history(snapshot, length));
                Ok(Reply::Stream(self.task_stream_with(
                    owner,
                    &id,
                    Some((version, first)),
                    version,
                    permit,
                )))
            }
        }
    }

    /// CancelTask: tells the running executor to stop and records the cancellation.
    pub(crate) async fn cancel(&self, owner: &Owner, task_id: &str) -> Result<Task, Error> {
        let stored = self.task(owner, task_id).await?;
        if stored.task.status.state.is_terminal() {
            return Err(Error::with_message(
                ErrorKind::TaskNotCancelable,
                format!(
                    "task {task_id} is already {}",
                    state_name(stored.task.status.state)
                ),
            )
            .with_metadata("taskId", task_id));
        }
        if let Some(cancel) = self.inner.running().get(task_id) {
            cancel.send_replace(true);
        }
        let context_id = stored.task.context_id.clone().unwrap_or_default();
        let canceled =
            TaskStatusUpdateEvent::new(task_id, context_id, TaskStatus::now(TaskState::Canceled));
        let (task, _) = self
            .apply_keeping(
                owner,
                task_id,
                StreamResponse::StatusUpdate(canceled),
                Task::clone,
            )
            .await?;
        Ok(task)
    }

    /// Registers a config given with a message (`configuration.taskPushNotificationConfig`).
    async fn add_push_config_for(
        &self,
        owner: &Owner,
        config: a2a_types::v1::TaskPushNotificationConfig,
    ) -> Result<(), Error> {
        let task_id = config.task_id.clone().unwrap_or_default();
        if self.inner.card.capabilities.push_notifications != Some(true) {
            return Err(Error::new(ErrorKind::PushNotificationNotSupported));
        }
        self.inner
            .config
            .webhook_policy
            .check_url(&config.url)
            .map_err(|mut e| {
                for violation in &mut e.field_violations {
                    violation.field = format!(
                        "configuration.taskPushNotificationConfig.{}",
                        violation.field
                    );
                }
                e
            })?;
        let mut config = config;
        if config.id.as_ref().is_none_or(|id| id.is_empty()) {
            config.id = Some(crate::ids::new_id("push"));
        }
        self.inner
            .push_configs
            .save(owner, config)
            .await
            .map_err(|_| not_found(&task_id))
    }
}
