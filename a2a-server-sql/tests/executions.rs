//! The execution queue of the SQL stores, on SQLite and PostgreSQL (skipped with one line when no
//! test database is set up; failing under `CI=true`): a lease is renewed and ended only by its
//! holder and claimed by no one while it lasts; a record whose lease ran out is claimed once (two
//! PostgreSQL replicas at once included), its attempts counted; and a server on the store resumes
//! such an execution (the executor told it resumes, with the request's service parameters, the
//! task completed) or, past its attempts,
//! fails the task; a record whose task was never created (a crash between the server's two
//! writes) is removed without a run.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_protocol::errors::Error;
use a2a_protocol::service::{Extensions, ProtocolVersion};
use a2a_server::store::{ExecutionQueue, TaskStore};
use a2a_server::{
    A2aServer, AgentExecutor, EventSink, RequestContext, ServerConfig, ServiceParams, async_trait,
};
use a2a_types::v1::{AgentCard, Message, Part, SendMessageRequest, Task, TaskState, TaskStatus};
use common::{owner, postgres_store, postgres_url, sqlite_store, unique};

const LONG: Duration = Duration::from_secs(60);

fn request(task_id: &str) -> SendMessageRequest {
    let mut message = Message::user(unique("msg"), [Part::text("Keep going")]);
    message.task_id = Some(task_id.to_owned());
    message.context_id = Some("ctx".to_owned());
    SendMessageRequest {
        message,
        ..Default::default()
    }
}

/// Service parameters a request came with: version 1.0 and two extensions.
fn params() -> ServiceParams {
    ServiceParams::new(
        Some(ProtocolVersion::V1_0),
        Extensions::parse("https://example.com/ext/a, https://example.com/ext/b"),
    )
}

async fn queue_contract(store: &(impl ExecutionQueue + TaskStore)) {
    let alice = owner(&unique("alice"));
    let (task, expired) = (unique("task"), unique("expired"));
    let expired_request = request(&expired);
    store
        .begin(
            &alice,
            &task,
            &request(&task),
            &ServiceParams::default(),
            "mine",
            LONG,
        )
        .await
        .unwrap();
    store
        .begin(
            &alice,
            &expired,
            &expired_request,
            &params(),
            "gone",
            Duration::ZERO,
        )
        .await
        .unwrap();
    assert!(store.renew(&task, "mine", LONG).await.unwrap());
    assert!(
        !store.renew(&task, "not-mine", LONG).await.unwrap(),
        "only the holder renews"
    );
    let claimed = store.claim_expired("claimer", LONG, 10).await.unwrap();
    assert_eq!(
        claimed
            .iter()
            .map(|r| (r.task_id.as_str(), r.attempts, r.owner_principal.as_str()))
            .collect::<Vec<_>>(),
        [(expired.as_str(), 2, alice.principal.as_str())],
        "only the expired record, its attempts counted, its owner kept"
    );
    assert_eq!(
        claimed[0].request, expired_request,
        "the request as recorded"
    );
    assert_eq!(
        claimed[0].service_params,
        params(),
        "its service parameters as recorded"
    );
    assert!(
        store
            .claim_expired("again", LONG, 10)
            .await
            .unwrap()
            .is_empty(),
        "a claimed record is leased"
    );
    assert!(
        !store.renew(&expired, "gone", LONG).await.unwrap(),
        "the stopped replica lost its lease"
    );
    store.finish(&expired, "gone").await.unwrap();
    assert!(
        store.renew(&expired, "claimer", LONG).await.unwrap(),
        "finish needs the lease"
    );
    store.finish(&expired, "claimer").await.unwrap();
    assert!(
        !store.renew(&expired, "claimer", LONG).await.unwrap(),
        "finished"
    );
    store.finish(&task, "mine").await.unwrap();
    creation_contract(store).await;
}

/// A new task and its record in one write: the store says the queue is its own, the task is
/// created at version 1 with its record; an id taken creates nothing and records nothing.
async fn creation_contract(store: &(impl ExecutionQueue + TaskStore)) {
    assert!(ExecutionQueue::task_store_identity(store).is_some());
    assert_eq!(
        ExecutionQueue::task_store_identity(store),
        TaskStore::store_identity(store),
        "the queue is kept beside the store's tasks"
    );
    let alice = owner(&unique("alice"));
    let id = unique("created");
    let mut task = Task::new(&id, "ctx", TaskStatus::now(TaskState::Submitted));
    task.history.push(request(&id).message);
    let version = store
        .begin_with_task(
            &alice,
            &task,
            &request(&id),
            &params(),
            "creator",
            Duration::ZERO,
        )
        .await
        .unwrap();
    assert_eq!(version, 1);
    let stored = TaskStore::get(store, &alice, &id).await.unwrap().unwrap();
    assert_eq!(
        (stored.task.history, stored.version),
        (task.history.clone(), 1)
    );
    let claimed = store.claim_expired("claimer", LONG, 10).await.unwrap();
    assert_eq!(
        claimed
            .iter()
            .map(|r| (r.task_id.as_str(), r.service_params.clone()))
            .collect::<Vec<_>>(),
        [(id.as_str(), params())],
        "the record written with the task"
    );
    let again = store
        .begin_with_task(
            &alice,
            &task,
            &request(&id),
            &ServiceParams::default(),
            "second",
            LONG,
        )
        .await;
    assert!(
        matches!(again, Err(a2a_server::store::StoreError::AlreadyExists)),
        "{again:?}"
    );
    assert!(
        store.renew(&id, "claimer", LONG).await.unwrap(),
        "a task that was not created records nothing"
    );
    store.finish(&id, "claimer").await.unwrap();
}

#[tokio::test]
async fn the_queue_holds_its_contract_on_sqlite() {
    let (store, path) = sqlite_store().await;
    queue_contract(&store).await;
    common::remove_sqlite(&path);
}

#[tokio::test]
async fn the_queue_holds_its_contract_on_postgres() {
    let Some(url) = postgres_url("the_queue_holds_its_contract_on_postgres") else {
        return;
    };
    queue_contract(&postgres_store(&common::fresh_schema(&url).await).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_postgres_replicas_never_claim_one_execution() {
    let Some(url) = postgres_url("two_postgres_replicas_never_claim_one_execution") else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let (a, b) = (
        postgres_store(&options).await,
        postgres_store(&options).await,
    );
    let alice = owner(&unique("alice"));
    const TASKS: usize = 30;
    for n in 0..TASKS {
        let task = format!("{}-{n}", unique("task"));
        a.begin(
            &alice,
            &task,
            &request(&task),
            &ServiceParams::default(),
            "dead",
            Duration::ZERO,
        )
        .await
        .unwrap();
    }
    let claim = |store: a2a_server_sql::PostgresStore, name: &'static str| {
        tokio::spawn(async move {
            let mut ids = Vec::new();
            loop {
                let batch = store.claim_expired(name, LONG, 2).await.unwrap();
                if batch.is_empty() {
                    return ids;
                }
                ids.extend(batch.into_iter().map(|r| r.task_id));
            }
        })
    };
    let (from_a, from_b) = (claim(a, "a"), claim(b, "b"));
    let mut all = from_a.await.unwrap();
    all.extend(from_b.await.unwrap());
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (TASKS, TASKS));
}

/// Completes every task it runs, and notes whether each run was a resumption and the service
/// parameters it saw.
#[derive(Clone, Default)]
struct Finisher {
    runs: Arc<Mutex<Vec<(String, bool, ServiceParams)>>>,
}

#[async_trait]
impl AgentExecutor for Finisher {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        self.runs.lock().unwrap().push((
            context.task_id.clone(),
            context.resumed,
            context.service_params.clone(),
        ));
        events.complete_with_text("done after all").await?;
        Ok(())
    }
}

fn card() -> AgentCard {
    common::card("Finisher", "Finishes tasks.", false)
}

/// Records an execution of `task_id` as a replica that stopped left it: leased to a token no one
/// renews, the lease already over, the request made with [`params`].
async fn record_stopped_execution(
    store: &impl ExecutionQueue,
    owner: &a2a_server::Owner,
    task_id: &str,
) {
    store
        .begin(
            owner,
            task_id,
            &request(task_id),
            &params(),
            "dead",
            Duration::ZERO,
        )
        .await
        .unwrap();
}

/// A task left working by a stopped replica, with its execution's record leased to it, having
/// run `attempts` times: a server started on the store resumes it or, past its attempts, fails it.
async fn stopped_execution_is_picked_up(attempts_made: u32, expected: TaskState) {
    let (store, path) = sqlite_store().await;
    let alice = owner(""); // anonymous: the owner a resumed run acts as
    let task_id = unique("task");
    store
        .create(
            &alice,
            Task::new(&task_id, "ctx", TaskStatus::now(TaskState::Working)),
        )
        .await
        .unwrap();
    record_stopped_execution(&store, &alice, &task_id).await;
    for _ in 1..attempts_made {
        let claimed = store
            .claim_expired("dead", Duration::ZERO, 1)
            .await
            .unwrap();
        assert_eq!(claimed.len(), 1, "an earlier run that stopped too");
    }
    let agent = Finisher::default();
    let mut config = ServerConfig::default();
    config.executions.poll_interval = Duration::from_millis(50);
    let _server = A2aServer::builder(card(), agent.clone())
        .task_store(store.clone())
        .execution_queue(store.clone())
        .config(config)
        .build();
    let state = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let task = store.get(&alice, &task_id).await.unwrap().unwrap().task;
            if task.status.state.is_terminal() {
                return task.status.state;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the stopped execution is picked up in time");
    assert_eq!(state, expected);
    let runs = agent.runs.lock().unwrap().clone();
    match expected {
        // Resumed with the request's own version and extensions.
        TaskState::Completed => assert_eq!(runs, [(task_id.clone(), true, params())]),
        _ => assert!(runs.is_empty(), "given up without a run: {runs:?}"),
    }
    assert!(
        store
            .claim_expired("after", LONG, 10)
            .await
            .unwrap()
            .is_empty(),
        "the record is gone once the execution ended"
    );
    common::remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_execution_is_resumed_and_completes() {
    stopped_execution_is_picked_up(1, TaskState::Completed).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_execution_stopped_too_often_fails_its_task() {
    // Three runs made (the default attempts); the claim is the fourth.
    stopped_execution_is_picked_up(3, TaskState::Failed).await;
}

/// The server records an execution before it creates the task; a crash between the two writes
/// leaves a record without a task, which the resumer removes without running the agent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_without_its_task_is_removed_without_a_run() {
    let (store, path) = sqlite_store().await;
    let alice = owner("");
    let task_id = unique("never-created");
    record_stopped_execution(&store, &alice, &task_id).await;
    let agent = Finisher::default();
    let mut config = ServerConfig::default();
    config.executions.poll_interval = Duration::from_millis(50);
    let _server = A2aServer::builder(card(), agent.clone())
        .task_store(store.clone())
        .execution_queue(store.clone())
        .config(config)
        .build();
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM a2a_executions")
                .fetch_one(store.pool())
                .await
                .unwrap();
            if left == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the record is removed in time");
    assert!(
        store.get(&alice, &task_id).await.unwrap().is_none(),
        "no task appears"
    );
    assert!(agent.runs.lock().unwrap().is_empty(), "the agent never ran");
    common::remove_sqlite(&path);
}
