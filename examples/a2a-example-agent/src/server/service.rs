//! The agent behind every binding: one request in (typed, whatever the binding), validated, checked
//! against the card's capabilities and required extensions, answered from the shared store. The
//! bindings only translate to and from their wire forms.

use std::net::SocketAddr;
use std::sync::Arc;

use a2a_types::errors::{Error, ErrorKind};
use a2a_types::jsonrpc::{Empty, MethodParams, MethodResult};
use a2a_types::service::Extensions;
use a2a_types::v1::{
    AgentCard, ListTaskPushNotificationConfigsResponse, Message, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_types::validate::Validate;
use tokio::sync::mpsc;

use super::behaviour::{self, Plan, Step};
use super::push::Pusher;
use super::store::{self, Store, check_history_length, invalid, trim_history};
use super::{Config, card};

/// What a binding knows about the caller besides the request itself.
#[derive(Clone, Debug, Default)]
pub struct CallContext {
    /// The extensions the caller activated (`A2A-Extensions`).
    pub extensions: Extensions,
    /// The `Authorization` header or metadata, as sent.
    pub authorization: Option<String>,
}

/// A successful answer: one result, or a stream of events (ending when the task ends or pauses).
// Made once per request and moved straight into the response: boxing the result would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Reply {
    Unary(MethodResult),
    Stream(mpsc::UnboundedReceiver<StreamResponse>),
}

/// The example agent: its cards, its store, its webhook sender.
pub struct Agent {
    config: Config,
    card: AgentCard,
    extended_card: AgentCard,
    store: Store,
    pusher: Pusher,
}

impl Agent {
    /// The decode budget of every request body.
    pub(super) fn limits(&self) -> a2a_types::limits::Limits {
        self.config.limits
    }

    pub(super) fn new(config: Config, http: SocketAddr, grpc: SocketAddr) -> Arc<Agent> {
        Arc::new(Agent {
            card: card::build(&config, http, grpc, false),
            extended_card: card::build(&config, http, grpc, true),
            store: Store::new(),
            pusher: Pusher::start(),
            config,
        })
    }

    /// The public card.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// Ends every open stream (the server is shutting down).
    pub fn close_streams(&self) {
        self.store.close_streams();
    }

    /// Answers one request.
    pub async fn call(
        self: &Arc<Self>,
        params: MethodParams,
        context: &CallContext,
    ) -> Result<Reply, Error> {
        let operation = params.operation();
        operation
            .check_capabilities(&self.card.capabilities)
            .map_err(Error::new)?;
        if let Some(missing) = self
            .config
            .required_extensions
            .iter()
            .find(|uri| !context.extensions.contains(uri))
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
        let unary = |result| Ok(Reply::Unary(result));
        match params {
            MethodParams::SendMessage(request) => {
                unary(MethodResult::SendMessage(self.send(request).await?))
            }
            MethodParams::SendStreamingMessage(request) => self.stream(request),
            MethodParams::GetTask(request) => {
                let length = check_history_length(request.history_length, "historyLength")?;
                unary(MethodResult::GetTask(trim_history(
                    self.store.get(&request.id)?,
                    length,
                )))
            }
            MethodParams::ListTasks(request) => {
                unary(MethodResult::ListTasks(self.store.list(&request)?))
            }
            MethodParams::CancelTask(request) => {
                unary(MethodResult::CancelTask(self.cancel(&request.id)?))
            }
            MethodParams::SubscribeToTask(request) => {
                let (task, live) = self.store.subscribe(&request.id)?;
                Ok(Reply::Stream(prepend(StreamResponse::Task(task), live)))
            }
            MethodParams::CreateTaskPushNotificationConfig(config) => unary(
                MethodResult::CreateTaskPushNotificationConfig(self.add_push_config(config)?),
            ),
            MethodParams::GetTaskPushNotificationConfig(request) => {
                unary(MethodResult::GetTaskPushNotificationConfig(
                    self.store.push_config(&request.task_id, &request.id)?,
                ))
            }
            MethodParams::ListTaskPushNotificationConfigs(request) => {
                let all = self.store.push_configs(&request.task_id)?;
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
                unary(MethodResult::ListTaskPushNotificationConfigs(
                    ListTaskPushNotificationConfigsResponse {
                        configs: all[start..end].to_vec(),
                        next_page_token: (end < all.len()).then(|| end.to_string()),
                    },
                ))
            }
            MethodParams::DeleteTaskPushNotificationConfig(request) => {
                self.store
                    .delete_push_config(&request.task_id, &request.id)?;
                unary(MethodResult::DeleteTaskPushNotificationConfig(Empty))
            }
            MethodParams::GetExtendedAgentCard(_) => {
                if self.config.extended_card_token.is_none() {
                    return Err(Error::new(ErrorKind::ExtendedAgentCardNotConfigured));
                }
                // The binding checked the token (`authorized`) before calling.
                unary(MethodResult::GetExtendedAgentCard(
                    self.extended_card.clone(),
                ))
            }
            other => Err(Error::with_message(
                ErrorKind::UnsupportedOperation,
                format!(
                    "{} is not supported by this agent",
                    other.operation().jsonrpc_method()
                ),
            )),
        }
    }

    /// Whether an `Authorization` value carries the extended card's bearer token. With no token
    /// configured every caller passes, and learns that there is no extended card.
    pub fn authorized(&self, authorization: Option<&str>) -> bool {
        let Some(token) = &self.config.extended_card_token else {
            return true;
        };
        authorization
            .and_then(|value| {
                value
                    .strip_prefix("Bearer ")
                    .or_else(|| value.strip_prefix("bearer "))
            })
            .is_some_and(|given| given.trim() == token)
    }

    fn add_push_config(
        &self,
        config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, Error> {
        check_webhook(&config.url)?;
        self.store.add_push_config(config)
    }

    fn cancel(self: &Arc<Self>, id: &str) -> Result<Task, Error> {
        let task = self.store.get(id)?;
        let context_id = task.context_id.clone().unwrap_or_default();
        let canceled =
            TaskStatusUpdateEvent::new(id, context_id, TaskStatus::now(TaskState::Canceled));
        self.apply(StreamResponse::StatusUpdate(canceled))?;
        self.store.get(id)
    }

    /// Applies an event to the store and sends it to the task's webhooks.
    fn apply(&self, event: StreamResponse) -> Result<(), Error> {
        for delivery in self.store.apply(event)? {
            self.pusher.deliver(delivery);
        }
        Ok(())
    }

    /// Starts the work a message asks for: a direct reply, or a task (new or continued) whose steps
    /// run in the background. Returns the reply or the task as it stands, and the task's events.
    fn begin(self: &Arc<Self>, request: SendMessageRequest) -> Result<Started, Error> {
        let configuration = request.configuration.clone().unwrap_or_default();
        if !configuration.accepted_output_modes.is_empty()
            && !configuration.accepted_output_modes.iter().any(|mode| {
                mode == "*/*"
                    || self
                        .card
                        .default_output_modes
                        .iter()
                        .any(|ours| ours == mode)
            })
        {
            return Err(Error::with_message(
                ErrorKind::ContentTypeNotSupported,
                format!(
                    "this agent answers in {}, none of which the client accepts ({})",
                    self.card.default_output_modes.join(", "),
                    configuration.accepted_output_modes.join(", ")
                ),
            ));
        }
        let message = request.message;
        let (task, plan) = match &message.task_id {
            Some(task_id) if !task_id.is_empty() => {
                let task = self.store.add_user_message(task_id, &message)?;
                if !task.status.state.is_interrupted() {
                    return Err(Error::with_message(
                        ErrorKind::UnsupportedOperation,
                        format!("task {task_id} is still working; it takes a message only when it asks for input"),
                    )
                    .with_metadata("taskId", task_id.as_str()));
                }
                (task, behaviour::continue_plan(&message))
            }
            _ => match behaviour::plan(&message, self.config.resubscribe_delay) {
                Plan::Reply(text) => {
                    let mut reply =
                        Message::agent(self.store.new_id("msg"), [a2a_types::v1::Part::text(text)]);
                    reply.context_id = Some(
                        message
                            .context_id
                            .clone()
                            .unwrap_or_else(|| self.store.new_id("ctx")),
                    );
                    return Ok(Started::Reply(reply));
                }
                Plan::Task(steps) => (self.store.create(&message), Plan::Task(steps)),
            },
        };
        if let Some(mut config) = configuration.task_push_notification_config {
            config.task_id = Some(task.id.clone());
            self.add_push_config(config)?;
        }
        let (_, events) = self.store.subscribe(&task.id)?;
        let Plan::Task(steps) = plan else {
            unreachable!("a task always has steps")
        };
        tokio::spawn(self.clone().run(task.clone(), steps));
        Ok(Started::Task(task, events))
    }

    /// Runs a task's steps; stops early when the task was canceled meanwhile.
    async fn run(self: Arc<Self>, task: Task, steps: Vec<Step>) {
        let context_id = task.context_id.clone().unwrap_or_default();
        for step in steps {
            let event = match step {
                Step::Wait(duration) => {
                    tokio::time::sleep(duration).await;
                    continue;
                }
                Step::Status(state, text) => {
                    let mut status = TaskStatus::now(state);
                    if let Some(text) = text {
                        status = status.message(store::agent_message(&self.store, &task, &text));
                    }
                    StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                        &task.id,
                        &context_id,
                        status,
                    ))
                }
                Step::Artifact {
                    artifact,
                    append,
                    last_chunk,
                } => {
                    let mut update = TaskArtifactUpdateEvent::new(&task.id, &context_id, artifact);
                    if append {
                        update = update.append(true);
                    }
                    StreamResponse::ArtifactUpdate(update.last_chunk(last_chunk))
                }
            };
            if self.apply(event).is_err() {
                return; // canceled meanwhile
            }
        }
    }

    async fn send(
        self: &Arc<Self>,
        request: SendMessageRequest,
    ) -> Result<SendMessageResponse, Error> {
        let configuration = request.configuration.clone().unwrap_or_default();
        let length =
            check_history_length(configuration.history_length, "configuration.historyLength")?;
        let (task, mut events) = match self.begin(request)? {
            Started::Reply(reply) => return Ok(SendMessageResponse::Message(reply)),
            Started::Task(task, events) => (task, events),
        };
        if configuration.return_immediately != Some(true) {
            // The receiver ends when the task ends or asks for input.
            while events.recv().await.is_some() {}
        }
        Ok(SendMessageResponse::Task(trim_history(
            self.store.get(&task.id)?,
            length,
        )))
    }

    fn stream(self: &Arc<Self>, request: SendMessageRequest) -> Result<Reply, Error> {
        match self.begin(request)? {
            Started::Reply(reply) => {
                let (sender, receiver) = mpsc::unbounded_channel();
                let _ = sender.send(StreamResponse::Message(reply));
                Ok(Reply::Stream(receiver))
            }
            Started::Task(task, events) => {
                Ok(Reply::Stream(prepend(StreamResponse::Task(task), events)))
            }
        }
    }
}

/// What a message started: a direct reply, or a task (as it stands) with the receiver of its events.
enum Started {
    Reply(Message),
    Task(Task, mpsc::UnboundedReceiver<StreamResponse>),
}

/// A stream that starts with `first`, then carries everything `rest` receives.
fn prepend(
    first: StreamResponse,
    mut rest: mpsc::UnboundedReceiver<StreamResponse>,
) -> mpsc::UnboundedReceiver<StreamResponse> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let _ = sender.send(first);
    tokio::spawn(async move {
        while let Some(event) = rest.recv().await {
            if sender.send(event).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Webhooks go to loopback HTTP URLs only: the example must not be a way to reach other hosts.
fn check_webhook(url: &str) -> Result<(), Error> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        invalid("url", format!("{url:?}: this example agent delivers to http://127.0.0.1 (or localhost, [::1]) only"))
    })?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority
            .rsplit_once(':')
            .map_or(authority, |(host, _)| host),
    };
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(invalid(
            "url",
            format!("{url:?}: this example agent delivers to loopback addresses only"),
        ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhooks_must_be_loopback_http() {
        for ok in [
            "http://127.0.0.1:9000/hook",
            "http://localhost/x",
            "http://[::1]:80/",
        ] {
            assert!(check_webhook(ok).is_ok(), "{ok}");
        }
        for bad in [
            "https://127.0.0.1/hook",
            "http://example.com/hook",
            "http://10.0.0.1:80/",
            "ftp://127.0.0.1",
        ] {
            let error = check_webhook(bad).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidParams, "{bad}");
            assert_eq!(error.field_violations[0].field, "url");
        }
    }
}
