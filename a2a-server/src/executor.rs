//! The agent's side of the server: the one trait an agent implements ([`AgentExecutor`]), what it is
//! given ([`RequestContext`]) and where it writes ([`EventSink`]), with helpers that make the common
//! answers one line.
//!
//! The executor runs in its own tokio task. Everything it emits goes through a bounded queue
//! ([`ServerConfig::executor_queue`](crate::ServerConfig::executor_queue)) to the server, which
//! applies each event to the task (state machine, store, streams, webhooks) in order; a full queue
//! makes [`EventSink::send`] wait, so a fast agent never outruns the store.

use std::fmt;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::service::{Extensions, ProtocolVersion};
use a2a_types::v1::{
    Artifact, Message, Part, Role, SendMessageConfiguration, Task, TaskState, TaskStatus,
};
use async_trait::async_trait;
use tokio::sync::{mpsc, watch};

use std::sync::Arc;

use crate::auth::{AccessDenied, Caller, SkillRequirements};

/// An agent's logic. The server calls [`execute`](Self::execute) once per message it accepts (a new
/// task, or a message continuing one that waits for input), in a task of its own.
///
/// The first event decides what the client gets: an [`AgentEvent::Message`] first answers with that
/// message and no task is stored; any other event creates (or continues) the task. The executor is
/// asked to stop through [`EventSink::canceled`] when a client cancels the task; the server records
/// the cancellation itself. Returning an error fails the task with the error's message.
///
/// ```
/// use a2a_server::{AgentExecutor, EventSink, RequestContext, async_trait};
/// use a2a_protocol::errors::Error;
///
/// struct Echo;
///
/// #[async_trait]
/// impl AgentExecutor for Echo {
///     async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
///         events.complete_with_text(format!("You said: {}", context.message.text())).await?;
///         Ok(())
///     }
/// }
/// ```
#[async_trait]
pub trait AgentExecutor: Send + Sync + 'static {
    /// Works on one message, emitting events into `events`.
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error>;
}

/// The service parameters of a request (section 3.2.6): the protocol version it asked for and the
/// extensions it activated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServiceParams {
    /// `A2A-Version` (`0.3` when absent, as the specification says).
    pub version: Option<ProtocolVersion>,
    /// `A2A-Extensions`.
    pub extensions: Extensions,
}

impl ServiceParams {
    /// The parameters with this version and these extensions.
    pub fn new(version: Option<ProtocolVersion>, extensions: Extensions) -> Self {
        ServiceParams {
            version,
            extensions,
        }
    }
}

/// Everything the executor knows about the message it works on.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RequestContext {
    /// The message, its `taskId` and `contextId` filled in.
    pub message: Message,
    /// The task's id (new, or the one the message continues).
    pub task_id: String,
    /// The context's id (the message's, or a new one).
    pub context_id: String,
    /// The task as stored before this message, when the message continues one.
    pub task: Option<Task>,
    /// Who sent it, as the authentication hook said.
    pub caller: Caller,
    /// `A2A-Version` and `A2A-Extensions`.
    pub service_params: ServiceParams,
    /// The request's `configuration`.
    pub configuration: Option<SendMessageConfiguration>,
    /// Whether this run resumes an execution whose replica stopped before it ended (a crash):
    /// then `task` is the task as stored, and `service_params` those of the request. See
    /// [`crate::store::executions`] for what an executor should do then (at least once).
    pub resumed: bool,
    /// The card's skill the message is for, when the server could tell: the one its metadata names
    /// under [`SKILL_ID_METADATA`](crate::auth::SKILL_ID_METADATA), or the agent's only skill. The
    /// caller met that skill's security requirements before the executor was run.
    pub skill: Option<String>,
    /// The cards' skills' requirements, for [`check_skill`](Self::check_skill).
    pub(crate) skill_requirements: Arc<SkillRequirements>,
}

impl RequestContext {
    /// Whether the caller meets the card's security requirements of the skill `id`, for an agent
    /// that picks the skill from what the message says (when [`skill`](Self::skill) is `None`, the
    /// server could not check it). On a refusal, answer the caller without running the skill, for
    /// instance with [`EventSink::require_auth`] and the refusal's words. A resumed execution's
    /// caller carries no scopes (they are not recorded), so a skill that needs scopes is refused
    /// then.
    pub fn check_skill(&self, id: &str) -> Result<(), AccessDenied> {
        self.skill_requirements.check_skill(id, &self.caller)
    }
}

/// One thing an agent tells the server. The server fills in task and context ids and timestamps.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AgentEvent {
    /// The task moves to a state (with an agent message, usually).
    Status(TaskStatus),
    /// The task produces an artifact, or a chunk of one (`append` adds parts to the artifact of the
    /// same id; `last_chunk` marks the end).
    Artifact {
        /// The artifact or chunk.
        artifact: Artifact,
        /// Whether the parts extend the artifact of the same id.
        append: bool,
        /// Whether this is the artifact's last chunk.
        last_chunk: bool,
    },
    /// A message instead of a task: valid only as the first event of a new message.
    Message(Message),
}

/// The server no longer takes events for this execution: the task was canceled or already ended,
/// or the server is shutting down. The executor should return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SinkClosed;

impl fmt::Display for SinkClosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the task takes no more events (canceled or ended)")
    }
}

impl std::error::Error for SinkClosed {}

impl From<SinkClosed> for Error {
    fn from(closed: SinkClosed) -> Error {
        Error::bare(ErrorKind::Internal, closed.to_string())
    }
}

/// Where an executor writes its events: a bounded queue to the server, plus the cancel signal.
#[derive(Debug)]
pub struct EventSink {
    sender: mpsc::Sender<AgentEvent>,
    cancel: watch::Receiver<bool>,
    task_id: String,
    context_id: String,
}

impl EventSink {
    pub(crate) fn new(
        sender: mpsc::Sender<AgentEvent>,
        cancel: watch::Receiver<bool>,
        task_id: String,
        context_id: String,
    ) -> Self {
        EventSink {
            sender,
            cancel,
            task_id,
            context_id,
        }
    }

    /// Sends one event; waits while the queue is full. Fails once the task takes no more events.
    pub async fn send(&self, event: AgentEvent) -> Result<(), SinkClosed> {
        if self.is_canceled() {
            return Err(SinkClosed);
        }
        self.sender.send(event).await.map_err(|_| SinkClosed)
    }

    /// Whether a client canceled the task (or the server stopped taking its events).
    pub fn is_canceled(&self) -> bool {
        *self.cancel.borrow() || self.sender.is_closed()
    }

    /// Resolves when the task is canceled: `select!` it against long work.
    pub async fn canceled(&self) {
        let mut cancel = self.cancel.clone();
        let _ = cancel.wait_for(|canceled| *canceled).await;
    }

    /// An agent message with this text, in this task and context (a fresh message id).
    pub fn agent_message(&self, text: impl Into<String>) -> Message {
        let mut message = Message::agent(crate::ids::new_id("msg"), [Part::text(text)]);
        message.role = Role::Agent;
        message.task_id = Some(self.task_id.clone());
        message.context_id = Some(self.context_id.clone());
        message
    }

    /// Moves the task to `state`, with an agent message of `text` when given.
    pub async fn status(&self, state: TaskState, text: Option<&str>) -> Result<(), SinkClosed> {
        let mut status = TaskStatus::now(state);
        if let Some(text) = text {
            status = status.message(self.agent_message(text));
        }
        self.send(AgentEvent::Status(status)).await
    }

    /// The task is working.
    pub async fn working(&self) -> Result<(), SinkClosed> {
        self.status(TaskState::Working, None).await
    }

    /// The task is completed, with an agent message of `text`.
    pub async fn complete_with_text(&self, text: impl AsRef<str>) -> Result<(), SinkClosed> {
        self.status(TaskState::Completed, Some(text.as_ref())).await
    }

    /// The task is completed, with no message.
    pub async fn complete(&self) -> Result<(), SinkClosed> {
        self.status(TaskState::Completed, None).await
    }

    /// The task waits for the client's input; `text` says what is needed.
    pub async fn ask_for_input(&self, text: impl AsRef<str>) -> Result<(), SinkClosed> {
        self.status(TaskState::InputRequired, Some(text.as_ref()))
            .await
    }

    /// The task waits for the client to authenticate; `text` says how.
    pub async fn require_auth(&self, text: impl AsRef<str>) -> Result<(), SinkClosed> {
        self.status(TaskState::AuthRequired, Some(text.as_ref()))
            .await
    }

    /// The task failed; `text` says why.
    pub async fn fail(&self, text: impl AsRef<str>) -> Result<(), SinkClosed> {
        self.status(TaskState::Failed, Some(text.as_ref())).await
    }

    /// The agent refuses the task; `text` says why.
    pub async fn reject(&self, text: impl AsRef<str>) -> Result<(), SinkClosed> {
        self.status(TaskState::Rejected, Some(text.as_ref())).await
    }

    /// Adds a whole artifact.
    pub async fn artifact(&self, artifact: Artifact) -> Result<(), SinkClosed> {
        self.send(AgentEvent::Artifact {
            artifact,
            append: false,
            last_chunk: true,
        })
        .await
    }

    /// Streams one artifact in chunks: the first chunk creates it, each later one appends, the last
    /// is marked `lastChunk`.
    pub async fn stream_artifact(
        &self,
        artifact_id: &str,
        chunks: impl IntoIterator<Item = Part>,
    ) -> Result<(), SinkClosed> {
        let mut chunks = chunks.into_iter().peekable();
        let mut first = true;
        while let Some(part) = chunks.next() {
            let last_chunk = chunks.peek().is_none();
            self.send(AgentEvent::Artifact {
                artifact: Artifact::new(artifact_id, [part]),
                append: !first,
                last_chunk,
            })
            .await?;
            first = false;
        }
        Ok(())
    }

    /// Answers with a message and no task (only as the first event of a new message).
    pub async fn reply(&self, text: impl Into<String>) -> Result<(), SinkClosed> {
        let mut message = self.agent_message(text);
        message.task_id = None;
        self.send(AgentEvent::Message(message)).await
    }
}
