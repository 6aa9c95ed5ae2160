//! Unit tests of the in-memory store: versions, owners, eviction, byte bounds and refusals.

use super::*;
use a2a_types::v1::{TaskStatus, TaskStatusUpdateEvent};

fn task(id: &str, state: TaskState) -> Task {
    Task::new(id, "ctx", TaskStatus::now(state))
}

fn event(id: &str) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
        id,
        "ctx",
        TaskStatus::now(TaskState::Working),
    ))
}

#[tokio::test]
async fn updates_need_the_current_version_and_log_their_event() {
    let store = InMemoryTaskStore::new();
    let owner = Owner::default();
    assert_eq!(
        store.create(&owner, task("t", TaskState::Submitted)).await,
        Ok(1)
    );
    let working = task("t", TaskState::Working);
    let v2 = store
        .update(&owner, working.clone(), 1, Some(event("t")))
        .await;
    assert_eq!(v2, Ok(2));
    let stale = store.update(&owner, working, 1, None).await;
    assert_eq!(stale, Err(StoreError::Conflict { current: 2 }));
    let page = store.events_after(&owner, "t", 0, 10).await.unwrap();
    assert_eq!(
        (page.events.len(), page.events[0].id, page.complete),
        (1, 2, true)
    );
    assert!(
        store
            .events_after(&owner, "t", 2, 10)
            .await
            .unwrap()
            .events
            .is_empty()
    );
}

#[tokio::test]
async fn another_owner_sees_nothing() {
    let store = InMemoryTaskStore::new();
    let alice = Owner {
        principal: "alice".into(),
        tenant: String::new(),
    };
    let bob = Owner {
        principal: "bob".into(),
        tenant: String::new(),
    };
    store
        .create(&alice, task("t", TaskState::Working))
        .await
        .unwrap();
    assert_eq!(store.get(&bob, "t").await, Ok(None));
    let update = store
        .update(&bob, task("t", TaskState::Canceled), 1, None)
        .await;
    assert_eq!(update, Err(StoreError::NotFound));
    let listed = store
        .list(&bob, &ListTasksRequest::default(), 10)
        .await
        .unwrap();
    assert_eq!(listed.total_size, 0);
    assert_eq!(
        store.events_after(&bob, "t", 0, 1).await,
        Err(StoreError::NotFound)
    );
}

#[tokio::test]
async fn the_store_evicts_finished_tasks_first_and_bounds_each_log() {
    let limits = MemoryLimits::default()
        .with_max_tasks(2)
        .with_max_events_per_task(3);
    let store = InMemoryTaskStore::with_limits(limits);
    let owner = Owner::default();
    store
        .create(&owner, task("done", TaskState::Completed))
        .await
        .unwrap();
    store
        .create(&owner, task("busy", TaskState::Working))
        .await
        .unwrap();
    store
        .create(&owner, task("new", TaskState::Submitted))
        .await
        .unwrap();
    assert_eq!(store.len(), 2);
    assert!(store.get(&owner, "done").await.unwrap().is_none());
    assert!(store.get(&owner, "busy").await.unwrap().is_some());
    for version in 1..=10 {
        store
            .update(
                &owner,
                task("busy", TaskState::Working),
                version,
                Some(event("busy")),
            )
            .await
            .unwrap();
    }
    let all = store.events_after(&owner, "busy", 0, 100).await.unwrap();
    assert_eq!(
        all.events.iter().map(|e| e.id).collect::<Vec<_>>(),
        [9, 10, 11]
    );
    assert!(!all.complete, "events 2 to 8 are gone");
    assert!(
        store
            .events_after(&owner, "busy", 8, 100)
            .await
            .unwrap()
            .complete
    );
}

#[tokio::test]
async fn list_pages_newest_first_and_refuses_foreign_tokens() {
    let store = InMemoryTaskStore::new();
    let owner = Owner::default();
    for i in 0..5 {
        store
            .create(&owner, task(&format!("t{i}"), TaskState::Completed))
            .await
            .unwrap();
    }
    let mut seen = Vec::new();
    let mut request = ListTasksRequest::default();
    loop {
        let page = store.list(&owner, &request, 2).await.unwrap();
        assert_eq!(page.total_size, 5);
        seen.extend(page.tasks.into_iter().map(|t| t.id));
        if page.next_page_token.is_empty() {
            break;
        }
        request.page_token = Some(page.next_page_token);
    }
    assert_eq!(seen.len(), 5);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 5, "no task twice: {seen:?}");
    let bad = ListTasksRequest {
        page_token: Some("x".into()),
        ..Default::default()
    };
    assert_eq!(
        store.list(&owner, &bad, 2).await,
        Err(StoreError::InvalidPageToken)
    );
}

/// The ids of the owner's first page, and the total, with `request`.
async fn listed(
    store: &InMemoryTaskStore,
    owner: &Owner,
    request: &ListTasksRequest,
) -> (Vec<String>, usize) {
    let page = store.list(owner, request, 10).await.unwrap();
    (
        page.tasks.into_iter().map(|t| t.id).collect(),
        page.total_size,
    )
}

#[tokio::test]
async fn the_listing_follows_status_changes_filters_and_evictions() {
    let store = InMemoryTaskStore::with_limits(MemoryLimits::default().with_max_tasks_per_owner(3));
    let alice = caller("alice", "");
    let bob = caller("bob", "");
    let at = |seconds: i64| chrono::DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap();
    let task_at = |id: &str, state, seconds| {
        let mut task = task(id, state);
        task.status.timestamp = Some(at(seconds));
        task
    };
    for (id, seconds) in [("t0", 1), ("t1", 2), ("t2", 2)] {
        store
            .create(&alice, task_at(id, TaskState::Submitted, seconds))
            .await
            .unwrap();
    }
    store
        .create(&bob, task_at("b0", TaskState::Submitted, 9))
        .await
        .unwrap();
    let all = ListTasksRequest::default();
    // Newest status first; of equal times, the later created first.
    assert_eq!(
        listed(&store, &alice, &all).await,
        (vec!["t2".into(), "t1".into(), "t0".into()], 3)
    );
    // A write moves its task to where its new status sorts.
    store
        .update(&alice, task_at("t0", TaskState::Working, 5), 1, None)
        .await
        .unwrap();
    assert_eq!(listed(&store, &alice, &all).await.0, ["t0", "t2", "t1"]);
    let working = ListTasksRequest {
        status: Some(TaskState::Working),
        ..Default::default()
    };
    assert_eq!(
        listed(&store, &alice, &working).await,
        (vec!["t0".into()], 1)
    );
    // Evicting a task takes it off the listing: t1 finished first, so it goes for t3.
    store
        .update(&alice, task_at("t1", TaskState::Completed, 3), 1, None)
        .await
        .unwrap();
    store
        .create(&alice, task_at("t3", TaskState::Submitted, 4))
        .await
        .unwrap();
    assert_eq!(
        listed(&store, &alice, &all).await,
        (vec!["t0".into(), "t3".into(), "t2".into()], 3)
    );
    assert_eq!(listed(&store, &bob, &all).await, (vec!["b0".into()], 1));
}

fn caller(principal: &str, tenant: &str) -> Owner {
    Owner {
        principal: principal.into(),
        tenant: tenant.into(),
    }
}

/// A text of `bytes` bytes.
fn text(bytes: usize) -> String {
    "x".repeat(bytes)
}

fn message(id: &str, bytes: usize) -> a2a_types::v1::Message {
    a2a_types::v1::Message::user(id, [a2a_types::v1::Part::text(text(bytes))])
}

/// Creates the owner's task `id` and finishes it, as the server would.
async fn create_finished(store: &InMemoryTaskStore, owner: &Owner, id: &str) {
    store
        .create(owner, task(id, TaskState::Submitted))
        .await
        .unwrap();
    store
        .update(owner, task(id, TaskState::Completed), 1, None)
        .await
        .unwrap();
}

async fn holds(store: &InMemoryTaskStore, owner: &Owner, id: &str) -> bool {
    store.get(owner, id).await.unwrap().is_some()
}

fn limit_of(error: StoreError) -> String {
    match error {
        StoreError::Full { limit, .. } => limit,
        other => panic!("not a refusal for room: {other:?}"),
    }
}

/// Panics unless the ledger counts exactly the tasks the map holds.
fn assert_ledger_counts(store: &InMemoryTaskStore) {
    let inner = store.lock();
    inner.ledger.assert_counts(
        inner
            .tasks
            .iter()
            .map(|(id, e)| (id.as_str(), &e.holder, e.footprint())),
    );
}

#[tokio::test]
async fn eviction_takes_the_least_recently_written_finished_task_and_keeps_its_index_exact() {
    let limits = MemoryLimits::default()
        .with_max_tasks(50)
        .with_max_tasks_per_owner(50);
    let store = InMemoryTaskStore::with_limits(limits);
    let owner = caller("alice", "");
    for i in 0..50 {
        create_finished(&store, &owner, &format!("t{i}")).await;
    }
    // t0 written again: t1 is now the least recently written.
    store
        .update(
            &owner,
            task("t0", TaskState::Completed),
            2,
            Some(event("t0")),
        )
        .await
        .unwrap();
    store
        .create(&owner, task("new", TaskState::Submitted))
        .await
        .unwrap();
    assert!(!holds(&store, &owner, "t1").await);
    assert!(holds(&store, &owner, "t0").await);
    assert!(holds(&store, &owner, "t2").await);
    assert_ledger_counts(&store);
    // Many more creations than room, from several owners, with tasks finishing out of order:
    // each eviction is a lookup in the ordered index (quadratic work otherwise); the index stays
    // exactly the finished tasks in write order.
    let owners = [caller("alice", ""), caller("bob", "t"), caller("", "x")];
    for round in 0..2_000 {
        let owner = &owners[round % owners.len()];
        let id = format!("r{round}");
        store
            .create(owner, task(&id, TaskState::Submitted))
            .await
            .unwrap();
        let earlier = format!("r{}", round.saturating_sub(3));
        if let Ok(Some(stored)) = store.get(owner, &earlier).await
            && !stored.task.status.state.is_terminal()
        {
            store
                .update(
                    owner,
                    task(&earlier, TaskState::Failed),
                    stored.version,
                    None,
                )
                .await
                .unwrap();
        }
        if round % 97 == 0 {
            assert_ledger_counts(&store);
        }
    }
    assert!(store.len() <= 50);
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn a_flood_by_one_owner_never_evicts_another_owners_task() {
    // Issue 29, row 8, scaled down: the store holds 100 tasks, 10 per owner.
    let limits = MemoryLimits::default()
        .with_max_tasks(100)
        .with_max_tasks_per_owner(10);
    let store = InMemoryTaskStore::with_limits(limits);
    let alice = caller("alice", "");
    create_finished(&store, &alice, "alices").await;
    // Anonymous callers naming tenants of their own still count as one owner.
    for i in 0..105 {
        let anonymous = caller("", &format!("tenant{}", i % 7));
        create_finished(&store, &anonymous, &format!("flood{i}")).await;
    }
    assert!(holds(&store, &alice, "alices").await);
    assert_eq!(store.len(), 11, "alice's task and the flood's last 10");
    // The flood's unfinished tasks fill only its own room: then it is refused, alice is not.
    let anonymous = caller("", "");
    let mut refused = None;
    for i in 0..20 {
        if let Err(error) = store
            .create(&anonymous, task(&format!("busy{i}"), TaskState::Working))
            .await
        {
            refused = Some(error);
            break;
        }
    }
    assert_eq!(
        limit_of(refused.expect("the flood is refused")),
        "max_tasks_per_owner"
    );
    assert!(holds(&store, &alice, "alices").await);
    store
        .create(&alice, task("alices2", TaskState::Submitted))
        .await
        .unwrap();
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn unfinished_tasks_are_never_evicted() {
    let limits = MemoryLimits::default()
        .with_max_tasks(4)
        .with_max_tasks_per_owner(3);
    let store = InMemoryTaskStore::with_limits(limits);
    let (alice, bob) = (caller("alice", ""), caller("bob", ""));
    for id in ["a1", "a2", "a3"] {
        store
            .create(&alice, task(id, TaskState::Working))
            .await
            .unwrap();
    }
    let own = store.create(&alice, task("a4", TaskState::Submitted)).await;
    assert_eq!(limit_of(own.unwrap_err()), "max_tasks_per_owner");
    store
        .create(&bob, task("b1", TaskState::InputRequired))
        .await
        .unwrap();
    // The store is full of unfinished tasks: nobody's goes.
    let full = store.create(&bob, task("b2", TaskState::Submitted)).await;
    assert_eq!(limit_of(full.unwrap_err()), "max_tasks");
    for (owner, id) in [(&alice, "a1"), (&alice, "a2"), (&alice, "a3"), (&bob, "b1")] {
        assert!(holds(&store, owner, id).await, "{id} kept");
    }
    assert_eq!(store.len(), 4);
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn another_owner_loses_a_task_only_to_one_holding_less() {
    let limits = MemoryLimits::default()
        .with_max_tasks(10)
        .with_max_tasks_per_owner(8);
    let store = InMemoryTaskStore::with_limits(limits);
    let (alice, bob, carol) = (caller("alice", ""), caller("bob", ""), caller("carol", ""));
    for i in 0..8 {
        create_finished(&store, &bob, &format!("b{i}")).await;
    }
    create_finished(&store, &alice, "a0").await;
    create_finished(&store, &alice, "a1").await;
    // Full: carol has nothing of her own to give; bob holds the most, so his oldest goes.
    store
        .create(&carol, task("c0", TaskState::Working))
        .await
        .unwrap();
    assert!(!holds(&store, &bob, "b0").await);
    assert!(holds(&store, &alice, "a0").await);
    // Alice (2 tasks, and one more) evicts her own first.
    create_finished(&store, &alice, "a2").await;
    assert!(!holds(&store, &alice, "a0").await);
    assert!(holds(&store, &bob, "b1").await);
    // Bob, holding the most, cannot take room from those holding less: he gives his own.
    create_finished(&store, &bob, "b8").await;
    assert!(!holds(&store, &bob, "b1").await);
    assert!(holds(&store, &alice, "a1").await);
    assert!(holds(&store, &carol, "c0").await);
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn the_byte_bounds_hold_with_big_messages() {
    // Issue 29, row 6, scaled down: 30 messages of 300 KiB, each echoed by the agent as an
    // artifact and a status message, as the example's default skill does.
    let limits = MemoryLimits::default()
        .with_max_bytes(4 << 20)
        .with_max_bytes_per_owner(2 << 20)
        .with_max_task_bytes(1 << 20);
    let store = InMemoryTaskStore::with_limits(limits);
    let (anonymous, alice) = (caller("", ""), caller("alice", ""));
    let big = 300 << 10;
    for i in 0..30 {
        let owner = if i % 3 == 0 { &alice } else { &anonymous };
        let id = format!("t{i}");
        let mut created = task(&id, TaskState::Submitted);
        created.history.push(message(&format!("m{i}"), big));
        store.create(owner, created).await.unwrap();
        let reply = message(&format!("r{i}"), big);
        let artifact =
            a2a_types::v1::Artifact::new(format!("a{i}"), [a2a_types::v1::Part::text(text(big))]);
        let events = [
            StreamResponse::ArtifactUpdate(a2a_types::v1::TaskArtifactUpdateEvent::new(
                &id, "ctx", artifact,
            )),
            StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                &id,
                "ctx",
                TaskStatus::now(TaskState::Completed).message(reply),
            )),
        ];
        for event in events {
            store
                .modify(owner, &id, Some(event), &mut |task, event| {
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
                })
                .await
                .unwrap();
            assert!(store.bytes() <= limits.max_bytes, "{} bytes", store.bytes());
            for owner in [&alice, &anonymous] {
                assert!(store.bytes_of(owner) <= limits.max_bytes_per_owner);
            }
        }
        // The newest task is whole but for what its bytes could not keep: its artifact and
        // status, and its newest messages.
        let stored = store.get(owner, &id).await.unwrap().unwrap().task;
        assert_eq!(stored.status.state, TaskState::Completed);
        assert_eq!(stored.artifacts.len(), 1);
        assert_eq!(
            stored.history.last().map(|m| m.message_id.as_str()),
            Some(&*format!("r{i}"))
        );
    }
    // 30 × 3 × 300 KiB were sent; the store keeps within its bounds by evicting finished tasks.
    assert!(store.len() < 30);
    assert!(holds(&store, &alice, "t27").await);
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn a_task_over_its_bytes_drops_its_oldest_events_then_messages() {
    let limits = MemoryLimits::default().with_max_task_bytes(100 << 10);
    let store = InMemoryTaskStore::with_limits(limits);
    let owner = caller("alice", "");
    store
        .create(&owner, task("t", TaskState::Submitted))
        .await
        .unwrap();
    for i in 1..=6u64 {
        let status =
            TaskStatus::now(TaskState::InputRequired).message(message(&format!("m{i}"), 20 << 10));
        let update = StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new("t", "ctx", status));
        let mut stored = store.get(&owner, "t").await.unwrap().unwrap();
        if let StreamResponse::StatusUpdate(u) = &update {
            stored.task.history.extend(u.status.message.clone());
            stored.task.status = u.status.clone();
        }
        store
            .update(&owner, stored.task, i, Some(update))
            .await
            .unwrap();
        assert!(store.bytes() <= limits.max_task_bytes);
    }
    let stored = store.get(&owner, "t").await.unwrap().unwrap().task;
    let kept: Vec<_> = stored
        .history
        .iter()
        .map(|m| m.message_id.as_str())
        .collect();
    assert!(!kept.is_empty() && kept.len() < 6, "{kept:?}");
    assert_eq!(kept.last(), Some(&"m6"), "the newest kept");
    let events = store.events_after(&owner, "t", 0, 100).await.unwrap();
    assert!(!events.complete, "the oldest events went first");
    // A task too big even without its log and history is refused, naming the bound.
    let mut huge = task("huge", TaskState::Submitted);
    huge.artifacts.push(a2a_types::v1::Artifact::new(
        "a",
        [a2a_types::v1::Part::text(text(200 << 10))],
    ));
    let refused = store.create(&owner, huge).await.unwrap_err();
    // No retry helps: the client is told its message is too big.
    let answer = refused.to_error("huge");
    assert_eq!(answer.kind, a2a_protocol::errors::ErrorKind::InvalidParams);
    assert_eq!(answer.field_violations[0].field, "message");
    assert_eq!(limit_of(refused), "max_task_bytes");
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn a_refused_write_is_undone_and_names_its_limit() {
    let limits = MemoryLimits::default()
        .with_max_bytes_per_owner(256 << 10)
        .with_max_task_bytes(200 << 10);
    let store = InMemoryTaskStore::with_limits(limits);
    let owner = caller("alice", "");
    for id in ["t1", "t2"] {
        store
            .create(&owner, task(id, TaskState::Working))
            .await
            .unwrap();
    }
    let chunk = |id: &str| {
        StreamResponse::ArtifactUpdate(a2a_types::v1::TaskArtifactUpdateEvent::new(
            id,
            "ctx",
            a2a_types::v1::Artifact::new("a", [a2a_types::v1::Part::text(text(40 << 10))]),
        ))
    };
    let add = |task: &mut Task, event: Option<&StreamResponse>| {
        if let Some(StreamResponse::ArtifactUpdate(update)) = event {
            task.artifacts.push(update.artifact.clone());
        }
        Ok(())
    };
    // Alice's unfinished tasks grow until her bytes are spent: the next chunk is refused.
    let mut refusal = None;
    for round in 0..10 {
        let id = if round % 2 == 0 { "t1" } else { "t2" };
        let before = store.get(&owner, id).await.unwrap().unwrap();
        match store
            .modify(&owner, id, Some(chunk(id)), &mut add.clone())
            .await
        {
            Ok(_) => {}
            Err(error) => {
                assert_eq!(store.get(&owner, id).await.unwrap(), Some(before), "undone");
                refusal = Some(error);
                break;
            }
        }
    }
    let error = refusal.expect("refused once the owner's bytes are spent");
    assert_eq!(error.kind, a2a_protocol::errors::ErrorKind::Internal);
    assert_eq!(error.http_status(), 503, "a temporary refusal");
    assert!(error.retry_after().is_some());
    assert_eq!(error.metadata["limit"], "max_bytes_per_owner");
    assert!(
        error.message.contains("max_bytes_per_owner"),
        "{}",
        error.message
    );
    assert!(store.bytes_of(&owner) <= limits.max_bytes_per_owner);
    // Another owner is not affected; a write that finishes a task is never refused.
    let bob = caller("bob", "");
    create_finished(&store, &bob, "b").await;
    let done = store.get(&owner, "t1").await.unwrap().unwrap();
    store
        .update(
            &owner,
            task("t1", TaskState::Completed),
            done.version,
            Some(chunk("t1")),
        )
        .await
        .unwrap();
    assert_ledger_counts(&store);
}

#[tokio::test]
async fn a_change_that_reopens_a_finished_task_takes_it_out_of_the_eviction_order() {
    let limits = MemoryLimits::default()
        .with_max_tasks(2)
        .with_max_tasks_per_owner(2);
    let store = InMemoryTaskStore::with_limits(limits);
    let owner = caller("alice", "");
    create_finished(&store, &owner, "t").await;
    // A change of the caller's own (not the server's state machine) may unfinish a task.
    store
        .modify(&owner, "t", None, &mut |task, _| {
            task.status = TaskStatus::now(TaskState::Working);
            Ok(())
        })
        .await
        .unwrap();
    assert_ledger_counts(&store);
    store
        .create(&owner, task("u", TaskState::Working))
        .await
        .unwrap();
    let full = store.create(&owner, task("v", TaskState::Working)).await;
    assert_eq!(limit_of(full.unwrap_err()), "max_tasks_per_owner");
    assert!(
        holds(&store, &owner, "t").await,
        "working again: never evicted"
    );
}
