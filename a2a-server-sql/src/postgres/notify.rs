//! The notification that announces a task's new version to the other replicas on PostgreSQL: its
//! channel, its payload (`version:task_id`), written by the store inside the transaction of each
//! update and read by [`PostgresVersionBus`](crate::PostgresVersionBus). A notification that would
//! exceed PostgreSQL's payload limit (a task id of several kilobytes) says `*`, waking every
//! watched task.

use a2a_server::versions::VersionWatchers;

/// The channel task versions are announced on.
pub const NOTIFY_CHANNEL: &str = "a2a_task_versions";

/// PostgreSQL's notification payloads are shorter than 8,000 bytes.
const MAX_PAYLOAD: usize = 7_999;

/// The payload announcing `version` of `task_id`.
pub(crate) fn notification(task_id: &str, version: u64) -> String {
    let payload = format!("{version}:{task_id}");
    if payload.len() > MAX_PAYLOAD {
        "*".to_owned()
    } else {
        payload
    }
}

/// Hands a notification's payload to the watchers: `version:task_id` wakes that task's streams,
/// `*` (or anything without a version) wakes them all.
pub(crate) fn dispatch(watchers: &VersionWatchers, payload: &str) {
    match payload.split_once(':') {
        Some((version, task_id)) => match version.parse() {
            Ok(version) => watchers.heard(task_id, version),
            Err(_) => tracing::warn!(payload, "a task notification without a version"),
        },
        None => watchers.wake_all(),
    }
}
