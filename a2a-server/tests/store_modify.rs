//! `TaskStore::modify`, both ways a store can provide it: the in-memory store's own (the task changed
//! where it lies, under the store's lock) and the trait's default (read, change, write naming the
//! version read, read again when another writer came between; through `common::ObservedStore`),
//! which database stores use. Each must
//! write a change under the next version with its event logged, leave a refused task untouched, and
//! answer another owner as if the task did not exist.

mod common;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::auth::Owner;
use a2a_server::{Caller, InMemoryTaskStore, MemoryLimits, TaskStore};
use a2a_types::v1::{StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent};
use common::ObservedStore;

fn working(task_id: &str) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
        task_id,
        "ctx",
        TaskStatus::now(TaskState::Working),
    ))
}

fn alice() -> Owner {
    Owner::of(&Caller::authenticated("alice"), None)
}

/// Sets the task's state from the event; refuses a task that is over.
fn apply_state(task: &mut Task, event: Option<&StreamResponse>) -> Result<(), Error> {
    if task.status.state.is_terminal() {
        return Err(Error::with_message(
            ErrorKind::UnsupportedOperation,
            format!("task {} is over", task.id),
        ));
    }
    if let Some(StreamResponse::StatusUpdate(update)) = event {
        task.status = update.status.clone();
    }
    Ok(())
}

/// Stores task `t-1`, submitted, for `owner`.
async fn create_submitted(store: &dyn TaskStore, owner: &Owner) {
    let task = Task::new("t-1", "ctx", TaskStatus::now(TaskState::Submitted));
    store.create(owner, task).await.unwrap();
}

async fn changes_refusals_and_owners(store: &dyn TaskStore) {
    let owner = alice();
    create_submitted(store, &owner).await;

    let mut runs = 0;
    let event = working("t-1");
    let version = store
        .modify(&owner, "t-1", Some(event.clone()), &mut |task, event| {
            runs += 1;
            apply_state(task, event)
        })
        .await
        .unwrap();
    let stored = store.get(&owner, "t-1").await.unwrap().unwrap();
    assert_eq!(
        (stored.version, stored.task.status.state),
        (version, TaskState::Working)
    );
    let logged = store.events_after(&owner, "t-1", 0, 10).await.unwrap();
    assert_eq!(logged.events.len(), 1);
    assert_eq!(
        (logged.events[0].id, &logged.events[0].event),
        (version, &event)
    );

    // Without an event: the task still moves to the next version, and nothing is logged.
    let quiet = store
        .modify(&owner, "t-1", None, &mut |task, event| {
            assert!(event.is_none());
            task.status.state = TaskState::Completed;
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(quiet, version + 1);
    let logged = store.events_after(&owner, "t-1", 0, 10).await.unwrap();
    assert_eq!(logged.events.len(), 1);

    // A refusal is the caller's error, and the task stays as it was, at its version.
    let refused = store
        .modify(&owner, "t-1", Some(working("t-1")), &mut apply_state)
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::UnsupportedOperation);
    let after = store.get(&owner, "t-1").await.unwrap().unwrap();
    assert_eq!(
        (after.version, after.task.status.state),
        (quiet, TaskState::Completed)
    );
    assert_eq!(
        store
            .events_after(&owner, "t-1", 0, 10)
            .await
            .unwrap()
            .events
            .len(),
        1
    );

    // Another owner's call changes nothing and learns nothing: not found, as for an unknown id.
    let mut touched = false;
    let stranger = store
        .modify(
            &Owner::default(),
            "t-1",
            Some(working("t-1")),
            &mut |_, _| {
                touched = true;
                Ok(())
            },
        )
        .await
        .unwrap_err();
    let unknown = store
        .modify(&owner, "t-404", None, &mut |_, _| Ok(()))
        .await
        .unwrap_err();
    assert!(!touched);
    assert_eq!(stranger.kind, ErrorKind::TaskNotFound);
    assert_eq!(unknown.kind, ErrorKind::TaskNotFound);
    assert_eq!(store.get(&owner, "t-1").await.unwrap().unwrap(), after);
    assert_eq!(runs, 1);
}

#[tokio::test]
async fn the_in_memory_store_changes_the_task_where_it_lies() {
    changes_refusals_and_owners(&InMemoryTaskStore::new()).await;
}

#[tokio::test]
async fn the_default_reads_changes_and_writes() {
    changes_refusals_and_owners(&ObservedStore::new(MemoryLimits::default())).await;
}

#[tokio::test]
async fn the_default_reads_again_when_another_writer_came_between() {
    let store = ObservedStore::new(MemoryLimits::default());
    let owner = alice();
    create_submitted(&store, &owner).await;
    store.interleave_next_update();
    let mut runs = 0;
    let version = store
        .modify(&owner, "t-1", Some(working("t-1")), &mut |task, event| {
            runs += 1;
            apply_state(task, event)
        })
        .await
        .unwrap();
    // The first write lost to the other writer's (version 2); the change ran again on its result.
    assert_eq!((runs, version), (2, 3));
    let stored = store.get(&owner, "t-1").await.unwrap().unwrap();
    assert_eq!(stored.task.status.state, TaskState::Working);
    assert!(
        stored.task.metadata.is_some(),
        "the other writer's change was kept"
    );
    let logged = store.events_after(&owner, "t-1", 0, 10).await.unwrap();
    assert_eq!(logged.events.iter().map(|e| e.id).collect::<Vec<_>>(), [3]);
}
