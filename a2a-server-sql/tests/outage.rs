//! A database outage under load: the test PostgreSQL is stopped while requests run, then started
//! again. Requests fail with a clear error within the pool's timeout (no panic, no hang), and the
//! same store and event bus recover without a restart: writes land again and a stream on another
//! replica is woken again. Alone in its test binary, because it stops the database every other
//! PostgreSQL test uses; it needs `A2A_TEST_PG_CTL` and `A2A_TEST_POSTGRES_DATA` (set by
//! `.ci/postgres.sh`) to stop and start it.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use a2a_server::VersionBus;
use a2a_server::store::{StoreError, TaskStore};
use a2a_server_sql::PostgresVersionBus;
use a2a_types::v1::{Task, TaskState, TaskStatus};
use common::{owner, postgres_url, unique};

/// Runs `pg_ctl ACTION` on the test cluster, as the `postgres` user when we are root.
fn pg_ctl(action: &str) {
    let ctl = std::env::var("A2A_TEST_PG_CTL").expect("A2A_TEST_PG_CTL (set by .ci/postgres.sh)");
    let data = std::env::var("A2A_TEST_POSTGRES_DATA").expect("A2A_TEST_POSTGRES_DATA");
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let mut command = if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", &ctl]);
        c
    } else {
        Command::new(&ctl)
    };
    let log = format!("{data}/../log");
    command.args(["-D", &data, "-w", "-s", "-m", "fast", "-l", &log, action]);
    let status = command.status().expect("pg_ctl runs");
    assert!(status.success(), "pg_ctl {action} failed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_fail_clearly_while_postgres_is_down_and_recover_without_a_restart() {
    let Some(url) = postgres_url("requests_fail_clearly_while_postgres_is_down") else {
        return;
    };
    let options = common::fresh_schema(&url).await;
    let a = common::postgres_store(&options).await;
    let b = common::postgres_store(&options).await;
    let bus_b = PostgresVersionBus::start(&b).await.unwrap();
    let alice = owner("alice");
    let id = unique("t");
    let task = Task::new(&id, "ctx", TaskStatus::now(TaskState::Working));
    a.create(&alice, task.clone()).await.unwrap();

    // Load: writers updating the task until told to stop, counting what landed and what failed.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut writers = Vec::new();
    for _ in 0..4 {
        let (store, alice, task, stop) = (a.clone(), alice.clone(), task.clone(), stop.clone());
        writers.push(tokio::spawn(async move {
            let (mut landed, mut failed, mut slowest) = (0u32, 0u32, Duration::ZERO);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let started = Instant::now();
                let outcome = match TaskStore::get(&store, &alice, &task.id).await {
                    Ok(Some(stored)) => store
                        .update(&alice, task.clone(), stored.version, None)
                        .await
                        .map(|_| ()),
                    Ok(None) => panic!("the task vanished"),
                    Err(error) => Err(error),
                };
                slowest = slowest.max(started.elapsed());
                match outcome {
                    Ok(()) => landed += 1,
                    Err(StoreError::Conflict { .. }) => {}
                    Err(StoreError::Backend(message)) => {
                        assert!(
                            message.starts_with("database: "),
                            "a clear error: {message}"
                        );
                        failed += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Err(other) => panic!("unexpected: {other}"),
                }
            }
            (landed, failed, slowest)
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    pg_ctl("stop");
    let down_for = Duration::from_secs(3);
    tokio::time::sleep(down_for).await;
    let failing = TaskStore::get(&a, &alice, &id).await;
    assert!(
        matches!(&failing, Err(StoreError::Backend(message)) if message.starts_with("database: ")),
        "a clear error while the database is down: {failing:?}"
    );
    pg_ctl("start");

    // The same store answers again, within the pool's reconnection.
    let recovered_at = Instant::now();
    let deadline = recovered_at + Duration::from_secs(30);
    while TaskStore::get(&a, &alice, &id).await.is_err() {
        assert!(Instant::now() < deadline, "the store did not recover");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (mut landed, mut failed, mut slowest) = (0, 0, Duration::ZERO);
    for writer in writers {
        let (l, f, s) = writer.await.unwrap();
        landed += l;
        failed += f;
        slowest = slowest.max(s);
    }
    // A write in flight when the database stopped fails; one that starts during the outage may
    // instead wait for a connection (the pool retries for up to its 10 s acquire timeout) and land
    // once the database is back. Which of them the writers met is timing, so it is reported; the
    // clear failure is asserted on the read made while the database was down.
    println!("writes during the outage: {landed} landed, {failed} failed clearly");
    assert!(
        slowest < Duration::from_secs(15),
        "no request hung beyond the pool timeout: {slowest:?}"
    );
    let stored = TaskStore::get(&a, &alice, &id).await.unwrap().unwrap();
    // A write whose commit the outage cut off may have landed without its answer.
    let (landed_at_least, at_most) = (1 + u64::from(landed), 1 + u64::from(landed + failed));
    assert!(
        (landed_at_least..=at_most).contains(&stored.version),
        "every write that succeeded is there: version {} for {landed} writes",
        stored.version
    );

    // The bus listens again: a stream on B is woken by a write on A.
    let mut watch = bus_b.subscribe(&id);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut version = stored.version;
    loop {
        version = a.update(&alice, task.clone(), version, None).await.unwrap();
        if tokio::time::timeout(Duration::from_millis(500), watch.changed())
            .await
            .is_ok()
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "replica B's bus never heard again"
        );
    }
    eprintln!(
        "outage: {landed} writes landed, {failed} failed clearly, slowest request {slowest:?}, recovered {:?} after the restart",
        recovered_at.elapsed()
    );
}
