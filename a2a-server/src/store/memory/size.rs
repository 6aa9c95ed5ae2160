//! What a task holds in memory, in bytes: an upper bound of the heap its values own (every
//! string, vector and map counted by its capacity, a map's nodes or table counted at their
//! largest), which the store adds up to keep [`MemoryLimits`](super::MemoryLimits)' byte bounds.
//!
//! The bound is checked against a counting allocator in `tests/memory_store_bytes.rs`.

use std::mem::size_of;

use a2a_types::JsonObject;
use a2a_types::v1::{
    Artifact, Message, Part, PartContent, StreamResponse, Task, TaskArtifactUpdateEvent,
    TaskStatus, TaskStatusUpdateEvent,
};
use serde_json::Value;

/// What a JSON object's map allocates besides its keys and values, whichever map serde_json
/// is built with: a B-tree allocates nodes of 11 slots at least half full (at most
/// `1 + n / 5` nodes of under 730 bytes), an index map an entry vector of at most twice its
/// entries and a hash table of at most twice as many slots; both stay under this base plus
/// [`MAP_BYTES_PER_ENTRY`] per entry.
const MAP_BASE_BYTES: usize = 768;
/// See [`MAP_BASE_BYTES`].
const MAP_BYTES_PER_ENTRY: usize = 160;

/// The heap a task owns (its inline part is its holder's).
pub(super) fn task(task: &Task) -> usize {
    task.id.capacity()
        + optional_string(&task.context_id)
        + status(&task.status)
        + vector(&task.artifacts, artifact)
        + vector(&task.history, message)
        + optional_map(&task.metadata)
}

/// The heap an event owns.
pub(crate) fn event(event: &StreamResponse) -> usize {
    match event {
        StreamResponse::Task(t) => task(t),
        StreamResponse::Message(m) => message(m),
        StreamResponse::StatusUpdate(update) => status_update(update),
        StreamResponse::ArtifactUpdate(update) => artifact_update(update),
        _ => 0,
    }
}

/// The heap a message owns.
pub(super) fn message(message: &Message) -> usize {
    message.message_id.capacity()
        + optional_string(&message.context_id)
        + optional_string(&message.task_id)
        + vector(&message.parts, part)
        + optional_map(&message.metadata)
        + strings(&message.extensions)
        + strings(&message.reference_task_ids)
}

/// How much more a vector of `T` holding `held` may allocate once `added` more are pushed onto
/// it: at most its capacity doubled, or as many as it then holds, or 4 (what `Vec` grows to).
pub(super) fn growth<T>(held: &Vec<T>, added: usize) -> usize {
    (held.capacity() + held.len() + added + 4) * size_of::<T>()
}

fn status(status: &TaskStatus) -> usize {
    status.message.as_ref().map_or(0, message)
}

fn status_update(update: &TaskStatusUpdateEvent) -> usize {
    update.task_id.capacity()
        + update.context_id.capacity()
        + status(&update.status)
        + optional_map(&update.metadata)
}

fn artifact_update(update: &TaskArtifactUpdateEvent) -> usize {
    update.task_id.capacity()
        + update.context_id.capacity()
        + artifact(&update.artifact)
        + optional_map(&update.metadata)
}

fn artifact(artifact: &Artifact) -> usize {
    artifact.artifact_id.capacity()
        + optional_string(&artifact.name)
        + optional_string(&artifact.description)
        + vector(&artifact.parts, part)
        + optional_map(&artifact.metadata)
        + strings(&artifact.extensions)
}

fn part(part: &Part) -> usize {
    let content = match &part.content {
        Some(PartContent::Text(text)) | Some(PartContent::Url(text)) => text.capacity(),
        Some(PartContent::Raw(bytes)) => bytes.capacity(),
        Some(PartContent::Data(value)) => json(value),
        _ => 0,
    };
    content
        + optional_map(&part.metadata)
        + optional_string(&part.filename)
        + optional_string(&part.media_type)
}

fn json(value: &Value) -> usize {
    match value {
        Value::String(text) => text.capacity(),
        Value::Array(values) => vector(values, json),
        Value::Object(object) => map(object),
        // Numbers are inline (the workspace does not build serde_json's `arbitrary_precision`).
        _ => 0,
    }
}

fn map(object: &JsonObject) -> usize {
    MAP_BASE_BYTES
        + object.len() * MAP_BYTES_PER_ENTRY
        + object
            .iter()
            .map(|(key, value)| key.capacity() + json(value))
            .sum::<usize>()
}

fn optional_map(object: &Option<JsonObject>) -> usize {
    object.as_ref().map_or(0, map)
}

fn optional_string(text: &Option<String>) -> usize {
    text.as_ref().map_or(0, String::capacity)
}

fn strings(texts: &Vec<String>) -> usize {
    vector(texts, String::capacity)
}

fn vector<T>(items: &Vec<T>, heap: impl Fn(&T) -> usize) -> usize {
    items.capacity() * size_of::<T>() + items.iter().map(heap).sum::<usize>()
}
