//! The in-memory store's byte bounds against what it really holds: a counting allocator
//! measures the heap the store keeps, which must stay under the bytes the store counts
//! (its estimate is an upper bound) and, with big messages, under `MemoryLimits::max_bytes`.
//!
//! Each test counts the allocations of its own thread only (the store's methods run on the
//! test's current-thread runtime), so tests running side by side do not disturb each other.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use a2a_server::{Caller, InMemoryTaskStore, MemoryLimits, Owner, TaskStore};
use a2a_types::v1::{
    Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use serde_json::json;

/// The system allocator, counting the bytes live per thread.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // During a thread's teardown its counter may be gone: nothing to count then.
    let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
}

// SAFETY: every call is the system allocator's, with the same arguments; counting touches a
// thread-local `Cell` only, which neither allocates nor unwinds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            count(layout.size() as isize);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            count(layout.size() as isize);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as the caller promised: `pointer` was allocated here with `layout`.
        unsafe { System.dealloc(pointer, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller promised: `pointer` was allocated here with `layout`.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The bytes live on this thread now.
fn live() -> isize {
    LIVE.with(Cell::get)
}

/// The owner `principal` (empty: anonymous) acts as in tenant `tenant`.
fn caller(principal: &str) -> Owner {
    let caller = if principal.is_empty() {
        Caller::anonymous()
    } else {
        Caller::authenticated(principal)
    };
    Owner::of(&caller, Some("tenant"))
}

fn text(bytes: usize) -> String {
    "x".repeat(bytes)
}

/// A message with every kind of part, metadata and lists, `bytes` of text.
fn message(id: &str, bytes: usize) -> Message {
    let mut data = Part::data(json!({
        "nested": {"list": [1, 2.5, "three", {"four": [null, true]}], "text": text(bytes / 8)},
        "keys": (0..40).map(|i| (format!("k{i}"), json!(i))).collect::<serde_json::Map<_, _>>(),
    }));
    data.media_type = Some("application/json".into());
    let mut message = Message::user(
        id,
        [
            Part::text(text(bytes)),
            Part::raw(vec![7u8; bytes / 4], "application/octet-stream"),
            Part::url("https://example.com/file"),
            data,
        ],
    );
    message.metadata = Some(
        json!({"origin": "test", "n": [1, 2, 3]})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    message.extensions = vec!["https://example.com/ext".into()];
    message.reference_task_ids = vec!["other".into()];
    message.context_id = Some("ctx".into());
    message
}

fn echo(
    task: &mut Task,
    event: Option<&StreamResponse>,
) -> Result<(), a2a_protocol::errors::Error> {
    match event {
        Some(StreamResponse::ArtifactUpdate(update)) => {
            task.artifacts.push(update.artifact.clone())
        }
        Some(StreamResponse::StatusUpdate(update)) => {
            task.history.extend(update.status.message.clone());
            task.status = update.status.clone();
        }
        _ => {}
    }
    Ok(())
}

/// Stores the owner's task `id` with a message of `bytes`, then an artifact as big and a
/// status with a reply as big, as an echoing agent would.
async fn echoed(store: &InMemoryTaskStore, owner: &Owner, id: &str, bytes: usize) {
    let mut task = Task::new(id, "ctx", TaskStatus::now(TaskState::Submitted));
    task.history.push(message(&format!("{id}-in"), bytes));
    store.create(owner, task).await.unwrap();
    let artifact = Artifact::new(format!("{id}-a"), [Part::text(text(bytes))]);
    let reply = message(&format!("{id}-out"), bytes);
    let events = [
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::new(id, "ctx", artifact)),
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            id,
            "ctx",
            TaskStatus::now(TaskState::Completed).message(reply),
        )),
    ];
    for event in events {
        store
            .modify(owner, id, Some(event), &mut echo)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_counted_bytes_bound_the_heap_the_store_holds() {
    let store = InMemoryTaskStore::new();
    // The store's own tables (first allocations) are outside what it counts: warm them up.
    echoed(&store, &caller("warm"), "warm", 10).await;
    let before = live();
    let counted_before = store.bytes();
    for i in 0..200 {
        let owner = caller(&format!("owner{}", i % 13));
        echoed(&store, &owner, &format!("task-{i}"), 1 + (i * 37) % 3000).await;
    }
    let held = live() - before;
    let counted = (store.bytes() - counted_before) as isize;
    assert!(held > 0);
    assert!(
        counted >= held,
        "the store counts {counted} bytes but holds {held}"
    );
    // An upper bound, but not a wild one.
    assert!(counted < 4 * held, "counted {counted} for {held} held");
}

#[tokio::test]
async fn thirty_big_messages_keep_the_heap_within_the_byte_bound() {
    // Issue 29, row 6, scaled down: 30 messages of 1 MiB, each echoed twice (about 90 MiB
    // stored by a store bounded by count only) into a store bounded at 8 MiB.
    let max_bytes = 8 << 20;
    let limits = MemoryLimits::default()
        .with_max_bytes(max_bytes)
        .with_max_bytes_per_owner(4 << 20)
        .with_max_task_bytes(2 << 20);
    let store = InMemoryTaskStore::with_limits(limits);
    let before = live();
    let mut peak = 0;
    for i in 0..30 {
        let owner = caller(if i % 2 == 0 { "" } else { "alice" });
        echoed(&store, &owner, &format!("big-{i}"), 1 << 20).await;
        peak = peak.max(live() - before);
        assert!(store.bytes() <= max_bytes);
    }
    assert!(
        peak <= max_bytes as isize,
        "the store held {peak} bytes, bounded at {max_bytes}"
    );
}
