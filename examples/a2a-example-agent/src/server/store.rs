//! The one in-memory store every binding reads and writes: tasks, their event subscribers and their
//! push-notification configs. Every change goes through [`Store::apply`], which updates the task,
//! tells the subscribers and hands the event to the webhooks, in that order, under one lock, so a
//! subscriber never misses or reorders an update.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_types::errors::{Error, ErrorKind};
use a2a_types::v1::{
    ListTasksRequest, ListTasksResponse, Message, Role, StreamResponse, Task,
    TaskPushNotificationConfig, TaskState, TaskStatus,
};
use tokio::sync::mpsc;

/// ListTasks' page size when the request gives none, and the largest it takes.
pub const DEFAULT_PAGE_SIZE: i32 = 50;
pub const MAX_PAGE_SIZE: i32 = 100;

struct Entry {
    task: Task,
    /// Creation order, which breaks ties between equal timestamps.
    sequence: u64,
    subscribers: Vec<mpsc::UnboundedSender<StreamResponse>>,
    push_configs: Vec<TaskPushNotificationConfig>,
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Entry>,
    next: u64,
}

/// Tasks by id, with their subscribers and webhooks.
pub struct Store {
    inner: Mutex<Inner>,
    /// Makes ids differ between runs of the agent.
    run: u64,
}

/// A webhook delivery the store asks for: the event, to this config.
pub type Delivery = (TaskPushNotificationConfig, StreamResponse);

impl Store {
    pub fn new() -> Self {
        let run = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 & 0xffff_ffff)
            .unwrap_or_default();
        Store {
            inner: Mutex::new(Inner::default()),
            run,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere while holding the lock leaves the map consistent (every change is one
        // assignment), so the store stays usable.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A new id for a task, context or config (`kind-run-n`).
    pub fn new_id(&self, kind: &str) -> String {
        let mut inner = self.lock();
        inner.next += 1;
        format!("{kind}-{:08x}-{}", self.run, inner.next)
    }

    /// Stores a new task, submitted, with the message that started it; returns it.
    pub fn create(&self, message: &Message) -> Task {
        let context_id = message
            .context_id
            .clone()
            .unwrap_or_else(|| self.new_id("ctx"));
        let id = self.new_id("task");
        let mut message = message.clone();
        message.task_id = Some(id.clone());
        message.context_id = Some(context_id.clone());
        let mut task = Task::new(&id, context_id, TaskStatus::now(TaskState::Submitted));
        task.history.push(message);
        let mut inner = self.lock();
        let sequence = inner.next;
        inner.tasks.insert(
            id,
            Entry {
                task: task.clone(),
                sequence,
                subscribers: Vec::new(),
                push_configs: Vec::new(),
            },
        );
        task
    }

    /// The task, or `TaskNotFound`.
    pub fn get(&self, id: &str) -> Result<Task, Error> {
        self.lock()
            .tasks
            .get(id)
            .map(|e| e.task.clone())
            .ok_or_else(|| not_found(id))
    }

    /// Adds a follow-up message from the client to the history of a task that waits for input.
    /// Fails with `TaskNotFound`, or `UnsupportedOperation` for a task that is over.
    pub fn add_user_message(&self, id: &str, message: &Message) -> Result<Task, Error> {
        let mut inner = self.lock();
        let entry = inner.tasks.get_mut(id).ok_or_else(|| not_found(id))?;
        if entry.task.status.state.is_terminal() {
            return Err(Error::with_message(
                ErrorKind::UnsupportedOperation,
                format!(
                    "task {id} is {}; it takes no more messages",
                    state_name(entry.task.status.state)
                ),
            )
            .with_metadata("taskId", id));
        }
        if message
            .context_id
            .as_ref()
            .is_some_and(|c| Some(c) != entry.task.context_id.as_ref())
        {
            return Err(Error::with_message(
                ErrorKind::InvalidParams,
                format!("message.contextId does not match the context of task {id}"),
            ));
        }
        let mut message = message.clone();
        message.context_id = entry.task.context_id.clone();
        entry.task.history.push(message);
        Ok(entry.task.clone())
    }

    /// Applies an event to its task, tells the task's subscribers, and returns the webhook
    /// deliveries it calls for. Fails with `TaskNotFound`, or when the task is already over
    /// (`TaskNotCancelable` when the event is a cancellation, else `UnsupportedOperation`): the
    /// worker of a canceled task stops there.
    pub fn apply(&self, event: StreamResponse) -> Result<Vec<Delivery>, Error> {
        let task_id = match &event {
            StreamResponse::StatusUpdate(update) => update.task_id.clone(),
            StreamResponse::ArtifactUpdate(update) => update.task_id.clone(),
            StreamResponse::Task(task) => task.id.clone(),
            _ => return Ok(Vec::new()),
        };
        let mut inner = self.lock();
        let entry = inner
            .tasks
            .get_mut(&task_id)
            .ok_or_else(|| not_found(&task_id))?;
        let state = entry.task.status.state;
        if state.is_terminal() {
            let cancel = matches!(&event, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Canceled);
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
        match &event {
            StreamResponse::StatusUpdate(update) => {
                if let Some(message) = &update.status.message {
                    entry.task.history.push(message.clone());
                }
                entry.task.status = update.status.clone();
            }
            StreamResponse::ArtifactUpdate(update) => {
                let artifacts = &mut entry.task.artifacts;
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
            _ => {}
        }
        let ends = match &event {
            StreamResponse::StatusUpdate(update) => {
                update.status.state.is_terminal() || update.status.state.is_interrupted()
            }
            _ => false,
        };
        entry.subscribers.retain(|s| s.send(event.clone()).is_ok());
        if ends {
            // Dropping the senders ends each subscriber's stream after this event.
            entry.subscribers.clear();
        }
        Ok(entry
            .push_configs
            .iter()
            .map(|config| (config.clone(), event.clone()))
            .collect())
    }

    /// Subscribes to a task's events: returns its current snapshot and the receiver of every later
    /// event, which ends when the task ends or waits for input. A task that is over fails with
    /// `UnsupportedOperation`, as the spec says for SubscribeToTask.
    pub fn subscribe(
        &self,
        id: &str,
    ) -> Result<(Task, mpsc::UnboundedReceiver<StreamResponse>), Error> {
        let mut inner = self.lock();
        let entry = inner.tasks.get_mut(id).ok_or_else(|| not_found(id))?;
        if entry.task.status.state.is_terminal() {
            return Err(Error::with_message(
                ErrorKind::UnsupportedOperation,
                format!(
                    "task {id} is {}; there is nothing left to subscribe to",
                    state_name(entry.task.status.state)
                ),
            )
            .with_metadata("taskId", id));
        }
        let (sender, receiver) = mpsc::unbounded_channel();
        entry.subscribers.push(sender);
        Ok((entry.task.clone(), receiver))
    }

    /// Ends every open subscription (the server is shutting down).
    pub fn close_streams(&self) {
        for entry in self.lock().tasks.values_mut() {
            entry.subscribers.clear();
        }
    }

    /// Pages through the tasks as ListTasks says: filtered by context, state and status time,
    /// newest status first, `historyLength` and `includeArtifacts` applied to each task.
    pub fn list(&self, request: &ListTasksRequest) -> Result<ListTasksResponse, Error> {
        let page_size = request.page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
            return Err(invalid(
                "pageSize",
                format!("must be between 1 and {MAX_PAGE_SIZE}, not {page_size}"),
            ));
        }
        let history_length = check_history_length(request.history_length, "historyLength")?;
        let after = match request.page_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(token) => Some(PageKey::parse(token).ok_or_else(|| {
                invalid(
                    "pageToken",
                    format!("{token:?} is not a page token this agent gave out"),
                )
            })?),
        };
        let inner = self.lock();
        let mut matching: Vec<(PageKey, &Task)> = inner
            .tasks
            .values()
            .filter(|e| {
                request
                    .context_id
                    .as_ref()
                    .is_none_or(|c| e.task.context_id.as_ref() == Some(c))
            })
            .filter(|e| {
                request
                    .status
                    .is_none_or(|s| s == TaskState::Unspecified || e.task.status.state == s)
            })
            .filter(|e| {
                request
                    .status_timestamp_after
                    .is_none_or(|after| e.task.status.timestamp.is_some_and(|t| t >= after))
            })
            .map(|e| (PageKey::of(e), &e.task))
            .collect();
        // Newest status first; the later-created task first among equal times.
        matching.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        let total_size = matching.len() as i32;
        let start = after.map_or(0, |after| {
            matching.iter().take_while(|(key, _)| *key >= after).count()
        });
        let page: Vec<&(PageKey, &Task)> =
            matching[start..].iter().take(page_size as usize).collect();
        let next_page_token = match page.last() {
            Some((key, _)) if start + page.len() < matching.len() => key.token(),
            _ => String::new(),
        };
        let tasks = page
            .into_iter()
            .map(|(_, task)| {
                let mut task = trim_history((*task).clone(), history_length);
                if request.include_artifacts != Some(true) {
                    task.artifacts.clear();
                }
                task
            })
            .collect();
        Ok(ListTasksResponse {
            tasks,
            next_page_token,
            page_size,
            total_size,
        })
    }

    /// Registers a webhook for a task (its id is given one when it has none); returns it.
    pub fn add_push_config(
        &self,
        mut config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, Error> {
        let task_id = config.task_id.clone().unwrap_or_default();
        if config.id.as_ref().is_none_or(|id| id.is_empty()) {
            config.id = Some(self.new_id("push"));
        }
        let mut inner = self.lock();
        let entry = inner
            .tasks
            .get_mut(&task_id)
            .ok_or_else(|| not_found(&task_id))?;
        entry.push_configs.retain(|c| c.id != config.id);
        entry.push_configs.push(config.clone());
        Ok(config)
    }

    /// One webhook of a task.
    pub fn push_config(
        &self,
        task_id: &str,
        id: &str,
    ) -> Result<TaskPushNotificationConfig, Error> {
        let inner = self.lock();
        let entry = inner.tasks.get(task_id).ok_or_else(|| not_found(task_id))?;
        entry
            .push_configs
            .iter()
            .find(|c| c.id.as_deref() == Some(id))
            .cloned()
            .ok_or_else(|| {
                Error::with_message(
                    ErrorKind::TaskNotFound,
                    format!("task {task_id} has no push notification config {id}"),
                )
                .with_metadata("taskId", task_id)
            })
    }

    /// The webhooks of a task, in the order they were registered.
    pub fn push_configs(&self, task_id: &str) -> Result<Vec<TaskPushNotificationConfig>, Error> {
        let inner = self.lock();
        let entry = inner.tasks.get(task_id).ok_or_else(|| not_found(task_id))?;
        Ok(entry.push_configs.clone())
    }

    /// Removes a webhook (removing one that is not there is not an error, as deleting is idempotent).
    pub fn delete_push_config(&self, task_id: &str, id: &str) -> Result<(), Error> {
        let mut inner = self.lock();
        let entry = inner
            .tasks
            .get_mut(task_id)
            .ok_or_else(|| not_found(task_id))?;
        entry.push_configs.retain(|c| c.id.as_deref() != Some(id));
        Ok(())
    }
}

/// Where a task sorts in ListTasks: its status time (microseconds since the epoch), then creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PageKey {
    micros: i64,
    sequence: u64,
}

impl PageKey {
    fn of(entry: &Entry) -> Self {
        PageKey {
            micros: entry
                .task
                .status
                .timestamp
                .map_or(0, |t| t.timestamp_micros()),
            sequence: entry.sequence,
        }
    }

    /// The page token continuing after this key: opaque to clients.
    fn token(&self) -> String {
        format!("{}.{}", self.micros, self.sequence)
    }

    fn parse(token: &str) -> Option<PageKey> {
        let (micros, sequence) = token.split_once('.')?;
        Some(PageKey {
            micros: micros.parse().ok()?,
            sequence: sequence.parse().ok()?,
        })
    }
}

/// The history length a request asks for: `None` is all of it; negative is an error.
pub fn check_history_length(length: Option<i32>, field: &str) -> Result<Option<usize>, Error> {
    match length {
        None => Ok(None),
        Some(n) if n < 0 => Err(invalid(field, format!("must not be negative, not {n}"))),
        Some(n) => Ok(Some(n as usize)),
    }
}

/// The task with only its `length` most recent history messages (all of them for `None`).
pub fn trim_history(mut task: Task, length: Option<usize>) -> Task {
    if let Some(length) = length {
        let drop = task.history.len().saturating_sub(length);
        task.history.drain(..drop);
    }
    task
}

/// An `InvalidParams` error naming the field.
pub fn invalid(field: &str, problem: String) -> Error {
    let mut error = Error::with_message(ErrorKind::InvalidParams, format!("{field}: {problem}"));
    error
        .field_violations
        .push(a2a_types::validate::FieldViolation {
            field: field.to_owned(),
            description: problem,
        });
    error
}

fn not_found(id: &str) -> Error {
    Error::with_message(ErrorKind::TaskNotFound, format!("no task {id}"))
        .with_metadata("taskId", id)
}

fn state_name(state: TaskState) -> String {
    serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"))
}

/// An agent message with this text, in the task's context.
pub fn agent_message(store: &Store, task: &Task, text: &str) -> Message {
    let mut message = Message::agent(store.new_id("msg"), [a2a_types::v1::Part::text(text)]);
    message.role = Role::Agent;
    message.task_id = Some(task.id.clone());
    message.context_id = task.context_id.clone();
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{Part, TaskStatusUpdateEvent};

    fn completed(store: &Store, context: &str, n: usize) -> Vec<Task> {
        (0..n)
            .map(|i| {
                let message = Message::user(format!("m-{context}-{i}"), [Part::text("hi")])
                    .context_id(context);
                let task = store.create(&message);
                let done = TaskStatusUpdateEvent::new(
                    &task.id,
                    context,
                    TaskStatus::now(TaskState::Completed),
                );
                store.apply(StreamResponse::StatusUpdate(done)).unwrap();
                store.get(&task.id).unwrap()
            })
            .collect()
    }

    fn list(store: &Store, request: ListTasksRequest) -> Result<ListTasksResponse, Error> {
        store.list(&request)
    }

    #[test]
    fn list_pages_through_every_match_newest_first() {
        let store = Store::new();
        let tasks = completed(&store, "a", 5);
        completed(&store, "b", 2);
        let mut seen = Vec::new();
        let mut token = None;
        loop {
            let page = list(
                &store,
                ListTasksRequest {
                    context_id: Some("a".into()),
                    page_size: Some(2),
                    page_token: token.clone(),
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!((page.total_size, page.page_size), (5, 2));
            seen.extend(page.tasks.iter().map(|t| t.id.clone()));
            if page.next_page_token.is_empty() {
                break;
            }
            token = Some(page.next_page_token);
        }
        let newest_first: Vec<String> = tasks.iter().rev().map(|t| t.id.clone()).collect();
        assert_eq!(seen, newest_first);
        let all = list(&store, ListTasksRequest::default()).unwrap();
        assert_eq!(all.total_size, 7);
    }

    #[test]
    fn list_filters_and_rejects_what_it_cannot_read() {
        let store = Store::new();
        completed(&store, "a", 2);
        let working = store.create(&Message::user("m-w", [Part::text("hi")]).context_id("a"));
        let only = |state| {
            list(
                &store,
                ListTasksRequest {
                    status: Some(state),
                    ..Default::default()
                },
            )
            .unwrap()
        };
        assert_eq!(only(TaskState::Completed).total_size, 2);
        assert_eq!(only(TaskState::Submitted).tasks[0].id, working.id);
        let later = list(
            &store,
            ListTasksRequest {
                status_timestamp_after: working.status.timestamp,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(later.tasks.iter().any(|t| t.id == working.id));
        for (request, field) in [
            (
                ListTasksRequest {
                    page_size: Some(0),
                    ..Default::default()
                },
                "pageSize",
            ),
            (
                ListTasksRequest {
                    page_size: Some(101),
                    ..Default::default()
                },
                "pageSize",
            ),
            (
                ListTasksRequest {
                    page_token: Some("nonsense".into()),
                    ..Default::default()
                },
                "pageToken",
            ),
            (
                ListTasksRequest {
                    history_length: Some(-1),
                    ..Default::default()
                },
                "historyLength",
            ),
        ] {
            let error = list(&store, request).unwrap_err();
            assert_eq!(
                (error.kind, error.field_violations[0].field.as_str()),
                (ErrorKind::InvalidParams, field)
            );
        }
    }

    #[test]
    fn subscribers_see_every_update_and_a_finished_task_takes_none() {
        let store = Store::new();
        let task = store.create(&Message::user("m-1", [Part::text("hi")]));
        let context = task.context_id.clone().unwrap();
        let (snapshot, mut events) = store.subscribe(&task.id).unwrap();
        assert_eq!(snapshot.status.state, TaskState::Submitted);
        for state in [TaskState::Working, TaskState::Canceled] {
            let update = TaskStatusUpdateEvent::new(&task.id, &context, TaskStatus::now(state));
            store.apply(StreamResponse::StatusUpdate(update)).unwrap();
        }
        let states: Vec<TaskState> = std::iter::from_fn(|| events.try_recv().ok())
            .map(|e| match e {
                StreamResponse::StatusUpdate(u) => u.status.state,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(states, [TaskState::Working, TaskState::Canceled]);
        assert!(events.is_closed(), "the stream ends with the task");
        let again =
            TaskStatusUpdateEvent::new(&task.id, &context, TaskStatus::now(TaskState::Canceled));
        assert_eq!(
            store
                .apply(StreamResponse::StatusUpdate(again))
                .unwrap_err()
                .kind,
            ErrorKind::TaskNotCancelable
        );
        assert_eq!(
            store.subscribe(&task.id).unwrap_err().kind,
            ErrorKind::UnsupportedOperation
        );
        assert_eq!(store.get("nope").unwrap_err().kind, ErrorKind::TaskNotFound);
    }

    #[test]
    fn history_is_cut_from_the_oldest_end() {
        let mut task = Task::new("t", "c", TaskStatus::now(TaskState::Working));
        task.history = (0..4)
            .map(|i| Message::user(format!("m-{i}"), [Part::text("x")]))
            .collect();
        let ids = |t: Task| {
            t.history
                .into_iter()
                .map(|m| m.message_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(trim_history(task.clone(), Some(2))), ["m-2", "m-3"]);
        assert_eq!(
            ids(trim_history(task.clone(), Some(0))),
            Vec::<String>::new()
        );
        assert_eq!(ids(trim_history(task, None)).len(), 4);
    }
}
