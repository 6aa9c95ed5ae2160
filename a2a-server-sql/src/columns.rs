//! What both backends share: a task's indexed columns, the ProtoJSON of tasks, events and configs,
//! ListTasks' page tokens, and the retention policy.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_server::store::{StoreError, TaskPage};
use a2a_types::ProtoEnum;
use a2a_types::json::WriteJson;
use a2a_types::v1::{Task, TaskPushNotificationConfig, TaskState};
use serde::de::DeserializeOwned;

/// The columns of a task row besides its ids: what ListTasks filters and sorts on.
pub(crate) struct TaskColumns {
    pub(crate) context_id: String,
    pub(crate) state: i32,
    pub(crate) terminal: bool,
    pub(crate) status_micros: i64,
    pub(crate) timestamped: bool,
    pub(crate) json: String,
}

impl TaskColumns {
    pub(crate) fn of(task: &Task) -> Result<Self, StoreError> {
        Ok(TaskColumns {
            context_id: task.context_id.clone().unwrap_or_default(),
            state: task.status.state.number(),
            terminal: task.status.state.is_terminal(),
            status_micros: task
                .status
                .timestamp
                .map_or(0, |time| time.timestamp_micros()),
            timestamped: task.status.timestamp.is_some(),
            json: to_json("task", task)?,
        })
    }
}

/// The number a ListTasks `status` filter compares with, `None` when it filters nothing.
pub(crate) fn state_filter(state: Option<TaskState>) -> Option<i32> {
    state
        .filter(|s| *s != TaskState::Unspecified)
        .map(ProtoEnum::number)
}

/// `statusTimestampAfter` in microseconds since the epoch.
pub(crate) fn time_filter(request: &a2a_types::v1::ListTasksRequest) -> Option<i64> {
    request
        .status_timestamp_after
        .map(|time| time.timestamp_micros())
}

/// `contextId`, when it filters anything.
pub(crate) fn context_filter(request: &a2a_types::v1::ListTasksRequest) -> Option<&str> {
    request.context_id.as_deref().filter(|c| !c.is_empty())
}

/// `value`'s ProtoJSON, written by its generated encoder (the bytes `serde_json` would write, at
/// about half the cost: a task's JSON is written on every change to it).
pub(crate) fn to_json(what: &str, value: &impl WriteJson) -> Result<String, StoreError> {
    a2a_types::json::to_string(value)
        .map_err(|e| StoreError::Backend(format!("the {what} could not be written as JSON: {e}")))
}

pub(crate) fn from_json<T: DeserializeOwned>(
    what: &str,
    id: &str,
    json: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(json).map_err(|e| {
        StoreError::Backend(format!("the stored {what} of task {id} is unreadable: {e}"))
    })
}

pub(crate) fn task_from_json(task_id: &str, json: &str) -> Result<Task, StoreError> {
    from_json("task", task_id, json)
}

pub(crate) fn config_to_json(config: &TaskPushNotificationConfig) -> Result<String, StoreError> {
    to_json("push notification config", config)
}

pub(crate) fn config_from_json(
    task_id: &str,
    json: &str,
) -> Result<TaskPushNotificationConfig, StoreError> {
    from_json("push notification config", task_id, json)
}

/// A version as the database keeps it (a signed 64-bit column).
pub(crate) fn version_column(version: u64) -> Result<i64, StoreError> {
    i64::try_from(version)
        .map_err(|_| StoreError::Backend(format!("version {version} is out of range")))
}

/// A version read back (never negative: the store only counts up from 1).
pub(crate) fn version_of(column: i64) -> u64 {
    u64::try_from(column).unwrap_or(0)
}

/// Microseconds since the epoch, now.
pub(crate) fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

/// Microseconds since the epoch, `age` ago.
pub(crate) fn micros_ago(age: Duration) -> i64 {
    now_micros().saturating_sub(i64::try_from(age.as_micros()).unwrap_or(i64::MAX))
}

/// Where ListTasks continues: after the task with this status time and creation order. The
/// token is opaque to clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PageKey {
    pub(crate) micros: i64,
    pub(crate) seq: i64,
}

impl PageKey {
    pub(crate) fn token(self) -> String {
        format!("{}.{}", self.micros, self.seq)
    }

    /// The key of a request's `pageToken`, `None` for the first page.
    pub(crate) fn of_request(
        request: &a2a_types::v1::ListTasksRequest,
    ) -> Result<Option<PageKey>, StoreError> {
        let Some(token) = request.page_token.as_deref().filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let parsed = token.split_once('.').and_then(|(micros, seq)| {
            Some(PageKey {
                micros: micros.parse().ok()?,
                seq: seq.parse().ok()?,
            })
        });
        parsed.map(Some).ok_or(StoreError::InvalidPageToken)
    }
}

/// A ListTasks page from rows `(id, key, task JSON)` fetched one past the page.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn page_of(
    rows: impl Iterator<Item = Result<(String, PageKey, String), StoreError>>,
    page_size: usize,
    total: i64,
) -> Result<TaskPage, StoreError> {
    let mut tasks = Vec::with_capacity(page_size);
    let mut last_key = None;
    let mut more = false;
    for row in rows {
        let (id, key, json) = row?;
        if tasks.len() == page_size {
            more = true;
            break;
        }
        tasks.push(task_from_json(&id, &json)?);
        last_key = Some(key);
    }
    let next_page_token = match last_key {
        Some(key) if more => key.token(),
        _ => String::new(),
    };
    Ok(TaskPage::new(
        tasks,
        next_page_token,
        usize::try_from(total).unwrap_or(0),
    ))
}
