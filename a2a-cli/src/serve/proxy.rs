//! `a2a serve --proxy URL`: another agent fronted. Each message this server accepts goes on to the
//! fronted agent (over the binding and version its card offers, or those `--proxy-binding` and
//! `--proxy-version` insist on: a v0.3 agent on JSON-RPC becomes reachable by v1 clients on gRPC,
//! and the other way round), streamed when its card declares streaming, and everything it answers
//! (status updates, artifacts and their chunks, a direct message) becomes this agent's events.
//!
//! This server keeps its own tasks (GetTask, ListTasks, SubscribeToTask and push notifications are
//! served from its store), so the fronted agent's task and context ids are linked to this server's:
//! a message continuing a task here continues the linked task there, and canceling a task here
//! cancels the linked one. The links live in this process's memory: after a restart on a durable
//! store, continuing an older task starts a new one at the fronted agent.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use a2a_client::{A2aClient, ClientError};
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{
    CancelTaskRequest, Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState, TaskStatus,
};

use super::args::ServeArgs;
use crate::call::args::AgentArgs;
use crate::call::connect::{check_url, config, failure};
use crate::failure::Failure;

/// Connects to the agent `url` with the `--proxy-*` options.
pub async fn connect(url: &str, args: &ServeArgs) -> Result<A2aClient, Failure> {
    check_url(url).map_err(|_| {
        Failure::usage(format!(
            "--proxy {url:?}: not an http:// or https:// URL of an agent"
        ))
    })?;
    let upstream = AgentArgs {
        url: url.to_owned(),
        binding: args.proxy_binding,
        protocol_version: args.proxy_version,
        headers: args.proxy_headers.clone(),
        bearer: args.proxy_bearer.clone(),
        json: false,
        timeout: args.proxy_timeout,
    };
    let mut config = config(&upstream)?;
    config.stream_idle_timeout = Some(Duration::from_secs(args.proxy_timeout.max(1)));
    A2aClient::connect(url, config).await.map_err(failure)
}

/// This server's ids and the fronted agent's, for tasks and for contexts.
#[derive(Default)]
struct Links {
    tasks: HashMap<String, String>,
    contexts: HashMap<String, String>,
}

/// The agent that fronts another.
pub struct Proxy {
    upstream: A2aClient,
    links: Mutex<Links>,
}

impl Proxy {
    /// Fronts the agent `upstream` is connected to.
    pub fn new(upstream: A2aClient) -> Self {
        Proxy {
            upstream,
            links: Mutex::new(Links::default()),
        }
    }

    fn links(&self) -> std::sync::MutexGuard<'_, Links> {
        self.links.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn link(&self, context: &RequestContext, task_id: &str, context_id: Option<&str>) {
        let mut links = self.links();
        links
            .tasks
            .insert(context.task_id.clone(), task_id.to_owned());
        if let Some(upstream_context) = context_id.filter(|c| !c.is_empty()) {
            links
                .contexts
                .insert(context.context_id.clone(), upstream_context.to_owned());
        }
    }

    fn linked_task(&self, task_id: &str) -> Option<String> {
        self.links().tasks.get(task_id).cloned()
    }

    /// The request the fronted agent gets: the same message under its ids for the task and
    /// context, and the answer's shape the client asked for (output modes, history length); push
    /// configs and `returnImmediately` stay here, where the task is served.
    fn request(&self, context: &RequestContext) -> SendMessageRequest {
        let mut message = context.message.clone();
        let links = self.links();
        message.task_id = links.tasks.get(&context.task_id).cloned();
        message.context_id = links.contexts.get(&context.context_id).cloned();
        let configuration = context
            .configuration
            .as_ref()
            .map(|asked| SendMessageConfiguration {
                accepted_output_modes: asked.accepted_output_modes.clone(),
                history_length: asked.history_length,
                ..Default::default()
            });
        SendMessageRequest {
            message,
            configuration,
            ..Default::default()
        }
    }

    /// Sends the message on and relays what comes back, until the fronted agent's answer ends.
    async fn forward(&self, context: &RequestContext, events: &EventSink) -> Result<(), Error> {
        let continuing = self.linked_task(&context.task_id).is_some();
        let mut relay = Relay {
            proxy: self,
            context,
            events,
            continuing,
            first: true,
            artifacts: context
                .task
                .iter()
                .flat_map(|task| task.artifacts.iter().map(|a| a.artifact_id.clone()))
                .collect(),
        };
        let request = self.request(context);
        if self.upstream.card().capabilities.streaming == Some(true) {
            let mut stream = self
                .upstream
                .send_streaming_message(request)
                .await
                .map_err(upstream_error)?;
            while let Some(event) = stream.next().await {
                relay.event(event.map_err(upstream_error)?).await?;
            }
            return Ok(());
        }
        match self
            .upstream
            .send_message(request)
            .await
            .map_err(upstream_error)?
        {
            SendMessageResponse::Task(task) => relay.task(task).await,
            SendMessageResponse::Message(message) => relay.message(message).await,
            _ => Err(Error::bare(
                ErrorKind::Internal,
                "the fronted agent answered neither a task nor a message",
            )),
        }
    }
}

#[async_trait]
impl AgentExecutor for Proxy {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        tokio::select! {
            forwarded = self.forward(&context, &events) => forwarded,
            () = events.canceled() => {
                if let Some(upstream_task) = self.linked_task(&context.task_id) {
                    // The task is canceled here whatever the fronted agent says (it may be over).
                    let _ = self
                        .upstream
                        .cancel_task(CancelTaskRequest {
                            id: upstream_task,
                            ..Default::default()
                        })
                        .await;
                }
                Ok(())
            }
        }
    }
}

/// One forwarded message's answers on their way back.
struct Relay<'a> {
    proxy: &'a Proxy,
    context: &'a RequestContext,
    events: &'a EventSink,
    /// The message continues a task the fronted agent already has.
    continuing: bool,
    /// No answer has been relayed yet.
    first: bool,
    /// The artifacts this server's task already has.
    artifacts: Vec<String>,
}

impl Relay<'_> {
    async fn event(&mut self, event: StreamResponse) -> Result<(), Error> {
        match event {
            StreamResponse::Task(task) => self.task(task).await,
            StreamResponse::Message(message) => self.message(message).await,
            StreamResponse::StatusUpdate(update) => {
                self.proxy
                    .link(self.context, &update.task_id, Some(&update.context_id));
                self.first = false;
                self.status(update.status).await
            }
            StreamResponse::ArtifactUpdate(update) => {
                self.proxy
                    .link(self.context, &update.task_id, Some(&update.context_id));
                self.first = false;
                self.artifacts.push(update.artifact.artifact_id.clone());
                self.events
                    .send(AgentEvent::Artifact {
                        artifact: update.artifact,
                        append: update.append == Some(true),
                        last_chunk: update.last_chunk == Some(true),
                    })
                    .await?;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A task: linked, its artifacts not yet here added, its state taken, except the state a
    /// continued task reports first (the one this message answers, already recorded here).
    async fn task(&mut self, task: Task) -> Result<(), Error> {
        self.proxy
            .link(self.context, &task.id, task.context_id.as_deref());
        let opening_of_continuation = self.first && self.continuing;
        self.first = false;
        for artifact in task.artifacts {
            if self.artifacts.contains(&artifact.artifact_id) {
                continue;
            }
            self.artifacts.push(artifact.artifact_id.clone());
            self.events.artifact(artifact).await?;
        }
        if opening_of_continuation || task.status.state == TaskState::Submitted {
            return Ok(());
        }
        self.status(task.status).await
    }

    /// A direct message: this server's answer when it comes first, else an update of the task.
    async fn message(&mut self, mut message: Message) -> Result<(), Error> {
        message.context_id = Some(self.context.context_id.clone());
        if self.first && !self.continuing {
            self.first = false;
            message.task_id = None;
            self.events.send(AgentEvent::Message(message)).await?;
            return Ok(());
        }
        message.task_id = Some(self.context.task_id.clone());
        self.status(TaskStatus::now(TaskState::Working).message(message))
            .await
    }

    /// A state, its message moved to this server's task and context.
    async fn status(&mut self, mut status: TaskStatus) -> Result<(), Error> {
        if let Some(message) = status.message.as_mut() {
            message.task_id = Some(self.context.task_id.clone());
            message.context_id = Some(self.context.context_id.clone());
        }
        self.events.send(AgentEvent::Status(status)).await?;
        Ok(())
    }
}

/// The fronted agent's failure as this agent's: its A2A error as it was, anything else internal.
fn upstream_error(error: ClientError) -> Error {
    match error.a2a_error() {
        Some(a2a) => a2a.clone(),
        None => Error::bare(ErrorKind::Internal, format!("the fronted agent: {error}")),
    }
}
