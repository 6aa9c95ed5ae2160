//! Rows 1 and 2 of issue 29, on every binding: webhook URLs whose address hides an internal one
//! (IPv6 forms that carry an IPv4 address, other spellings of loopback) refused when the config
//! is made, with no connection reaching a listener the URLs point at; and push configs carrying
//! a 4 MiB token refused without the server holding copies of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use a2a_protocol::errors::ErrorKind;
use a2a_protocol::operations::{MethodResult, Operation};
use serde_json::json;
use tokio::net::TcpListener;

use crate::common;
use crate::probe::{MIB, peak_rss, reset_peak};
use crate::wire::{BINDINGS, call, client, message, refusal};

/// Counts the connections a listener on loopback accepts (the webhook the URLs point at).
async fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let port = listener.local_addr().expect("an address").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            // Answers a delivery, so the control's webhook call succeeds.
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut buffer = [0u8; 4096];
                let _ = stream.read(&mut buffer).await;
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                    .await;
            });
        }
    });
    (port, accepted)
}

/// Whether `hook` is one of [`hidden_addresses`]' loopback hosts.
fn names_loopback(hook: &str) -> bool {
    LOOPBACK_HOSTS
        .iter()
        .any(|host| hook.starts_with(&format!("http://{host}:")))
}

/// Spellings of the loopback address (reachable by the kernel were the guard to let them through).
const LOOPBACK_HOSTS: [&str; 14] = [
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[::127.0.0.1]",
    "[64:ff9b::7f00:1]",
    "[64:ff9b:1::7f00:1]",
    "[2002:7f00:1::]",
    "[::ffff:0:7f00:1]",
    "[::1]",
    "127.1",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "localhost",
    "app.localhost",
];

/// Hosts that name the listener's loopback address (reachable by the kernel were the guard to let
/// them through) and hosts that name internal IPv4 addresses inside IPv6 forms (issue 29's table).
fn hidden_addresses(port: u16) -> Vec<String> {
    let internal = [
        "[::10.0.0.1]",
        "[::169.254.169.254]",
        "[64:ff9b::a9fe:a9fe]",
        "[64:ff9b:1::a00:1]",
        "[2002:a9fe:a9fe::]",
        "[::ffff:0:a00:1]",
        "[2001::1]",
        "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
        "[100::1]",
        "[fe80::1]",
        "[fd00::1]",
        "[::ffff:192.168.0.1]",
        "0xa9.254.169.254",
    ];
    LOOPBACK_HOSTS
        .iter()
        .chain(internal.iter())
        .map(|host| format!("http://{host}:{port}/hook"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_hiding_internal_addresses_are_refused_on_every_binding_without_a_connection() {
    let (port, accepted) = counting_listener().await;
    let (_guarded, url, _) = common::start_with(&[
        "--listen",
        "127.0.0.1:0",
        "--store",
        "memory",
        "--no-loopback-webhooks",
    ]);
    let urls = hidden_addresses(port);
    for binding in BINDINGS {
        let client = client(&url, binding, None).await;
        let Ok(MethodResult::SendMessage(done)) = call(
            &client,
            Operation::SendMessage,
            json!({"message": message("hook-task", "hello")}),
        )
        .await
        else {
            panic!("a task on {binding:?}")
        };
        let task_id = match done {
            a2a_types::v1::SendMessageResponse::Task(task) => task.id,
            other => panic!("a task, not {other:?}"),
        };
        for hook in &urls {
            let error = refusal(
                call(
                    &client,
                    Operation::CreateTaskPushNotificationConfig,
                    json!({"taskId": task_id, "url": hook}),
                )
                .await,
                &format!("{hook} on {binding:?}"),
            );
            assert_eq!(
                error.kind,
                ErrorKind::InvalidParams,
                "{hook} on {binding:?}"
            );
            assert!(
                error
                    .field_violations
                    .iter()
                    .any(|v| v.field.ends_with("url")),
                "{hook} on {binding:?}: {error:?}"
            );
            // Inline with the message, as well: only for the hosts that name loopback. A new
            // task's events would be delivered at once, so a guard letting an internal address
            // through must not be able to send a packet off the machine; the configs above are
            // made on a finished task, which has no events left to deliver.
            if !names_loopback(hook) {
                continue;
            }
            let inline = refusal(
                call(
                    &client,
                    Operation::SendMessage,
                    json!({"message": message("hook-inline", "hello"),
                           "configuration": {"taskPushNotificationConfig": {"url": hook}}}),
                )
                .await,
                &format!("inline {hook} on {binding:?}"),
            );
            assert_eq!(
                inline.kind,
                ErrorKind::InvalidParams,
                "inline {hook} on {binding:?}"
            );
        }
        eprintln!("{binding:?}: {} hidden addresses refused", urls.len());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        0,
        "a refused webhook was called"
    );

    // The control: the same listener, named plainly, is called by an agent that allows loopback,
    // so the count above could have seen a connection.
    let (_allowing, url, _) = common::start_with(&["--listen", "127.0.0.1:0", "--store", "memory"]);
    let client = client(&url, a2a_client::Binding::JsonRpc, None).await;
    call(
        &client,
        Operation::SendMessage,
        json!({"message": message("hook-control", "hello"),
               "configuration": {"taskPushNotificationConfig": {
                   "url": format!("http://127.0.0.1:{port}/hook")}}}),
    )
    .await
    .expect("a loopback webhook is accepted where loopback is allowed");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while accepted.load(Ordering::SeqCst) == 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        accepted.load(Ordering::SeqCst) > 0,
        "the control's delivery arrived"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_configs_with_huge_tokens_are_refused_on_every_binding_and_store() {
    let (path, _file) = common::sqlite_file("hostile_tokens");
    for store in ["memory".to_owned(), format!("sqlite:{path}")] {
        let (server, url) = common::start(&store);
        let pid = server.pid();
        let token = "t".repeat(4 * MIB);
        for binding in BINDINGS {
            let client = client(&url, binding, None).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            reset_peak(pid);
            let before = peak_rss(pid);
            for turn in 0..3 {
                let error = refusal(
                    call(
                        &client,
                        Operation::SendMessage,
                        json!({
                            "message": message(&format!("m-{turn}"), "hello"),
                            "configuration": {"taskPushNotificationConfig": {
                                "url": "https://example.com/hook", "token": token}},
                        }),
                    )
                    .await,
                    &format!("a 4 MiB token on {binding:?}, {store}"),
                );
                assert_eq!(error.kind, ErrorKind::InvalidParams);
                assert!(
                    error.message.contains("token")
                        || error
                            .field_violations
                            .iter()
                            .any(|v| v.field.ends_with("token")),
                    "{binding:?}: {error:?}"
                );
            }
            let sent = 3 * 4 * MIB;
            let grown = peak_rss(pid).saturating_sub(before);
            eprintln!(
                "push tokens on {binding:?}, {}: sent {} MB, peak grew by {} MB",
                store.split(':').next().unwrap_or_default(),
                sent / 1_000_000,
                grown / 1_000_000
            );
            assert!(
                grown < 10 * sent,
                "{binding:?}: grew by {grown} bytes for {sent} sent"
            );
        }
    }
}
